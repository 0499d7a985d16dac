"""The process that writes the rest of graph.ttl while a build reads its
store (kg.graph.union.UnionWriter): `python -m kg.graph.union_worker OUT
SPOOL RESOLVER`, RESOLVER being the finished resolver, pickled.

Started as a module rather than through multiprocessing, so that it imports
only what it needs and never the program that runs the build (a script
without a `__main__` guard would start its build again)."""

from __future__ import annotations

import pickle
import sys

from kg.graph.union import write_waiting


def main(argv: list[str]) -> None:
    out, spool, resolver = argv
    with open(resolver, "rb") as fh:
        write_waiting(out, spool, pickle.load(fh))


if __name__ == "__main__":
    main(sys.argv[1:])
