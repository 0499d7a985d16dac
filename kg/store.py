"""The SPARQL store: a persistent Oxigraph database in a folder.

A value with a handful of verbs: load papers (each in its own named graph),
remove papers, query, dump. Default-graph queries see the union of all
named graphs, so users never need GRAPH clauses.
"""

from __future__ import annotations

import os
import queue
import threading
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from kg.bloom import BloomFilter
from kg.errors import UserError
from kg.graph import iris
from kg.graph.build import default_resolver
from kg.graph.entities import canonicalise, orphans, paper_graphs
from kg.graph.vocab import DCTERMS
from kg.io.outputs import recover
from kg.sparql.prefixes import query_prefixes
from kg.sparql.words import names_a_dataset

STORE_DIRNAME = "store"

RDF_FORMATS = {
    "ttl": ox.RdfFormat.TURTLE,
    "nt": ox.RdfFormat.N_TRIPLES,
    "nq": ox.RdfFormat.N_QUADS,
    "trig": ox.RdfFormat.TRIG,
    "xml": ox.RdfFormat.RDF_XML,
    "jsonld": ox.RdfFormat.JSON_LD,
}
DATASET_FORMATS = {"nq", "trig", "jsonld"}
# How many repeated triples the Turtle/N-Triples export remembers (~100 MB).
_REPEATED_CAP = 300_000


class StoreError(UserError, RuntimeError):
    """A store folder that cannot be opened or written."""


def store_path(out_dir: str | os.PathLike) -> Path:
    """Where the store of a build folder lives; accepts the store folder itself too."""
    p = Path(out_dir)
    return p if (p / "CURRENT").exists() else p / STORE_DIRNAME


class KGStore:
    """An Oxigraph store at exactly `path`; use `KGStore.at(build_dir)` to find
    the store of a build folder."""

    def __init__(self, path: str | os.PathLike, read_only: bool = False):
        self.path = Path(path)
        if read_only:
            if not (self.path / "CURRENT").exists():
                raise StoreError(f"no store at {self.path}; build one first with `kg build -o DIR`")
            self.db = ox.Store.read_only(str(self.path))
        else:
            self.path.mkdir(parents=True, exist_ok=True)
            self.db = ox.Store(str(self.path))

    @classmethod
    def at(cls, out_dir: str | os.PathLike, read_only: bool = False) -> "KGStore":
        recover(out_dir)  # finish a build commit that a kill interrupted
        return cls(store_path(out_dir), read_only=read_only)

    # -- writing --------------------------------------------------------------
    def papers(self) -> set[str]:
        """The ids of the papers in the store."""
        return {iris.paper_id_of_graph(g.value) for g in paper_graphs(self.db)}

    def paper_text(self, paper_id: str) -> tuple[str, str] | None:
        """(title, abstract) of a stored paper, or None when it is not stored:
        what `kg build --update` compares to tell a known abstract from a new text."""
        g = ox.NamedNode(str(iris.paper_graph_iri(paper_id)))
        if not self.db.contains_named_graph(g):
            return None
        paper = ox.NamedNode(str(iris.paper_iri(paper_id)))

        def value(prop) -> str:
            for q in self.db.quads_for_pattern(paper, ox.NamedNode(str(prop)), None, g):
                return q.object.value
            return ""
        return value(DCTERMS.title), value(DCTERMS.abstract)

    def canonicalise(self, resolver=None):
        """Join entities across papers and rewrite the entities graph
        (kg.graph.entities); run after every change to the paper graphs."""
        return canonicalise(self.db, resolver or default_resolver())

    def orphans(self) -> list[str]:
        """Entity IRIs that no paper mentions any more (empty after `canonicalise`)."""
        return orphans(self.db)

    def backup(self, target: str | os.PathLike) -> None:
        """A copy of the store at `target` (hard links where it can), to change apart."""
        self.db.backup(str(target))

    def replace_paper(self, paper_id: str, quads: Iterable[ox.Quad]) -> None:
        """Put a paper's quads in its named graph, dropping what was there before."""
        g = ox.NamedNode(str(iris.paper_graph_iri(paper_id)))
        quads = list(quads)
        if self.db.contains_named_graph(g):
            self.db.remove_graph(g)
        self.db.extend(quads)

    def bulk_load(self, quads: Iterable[ox.Quad]) -> None:
        self.db.bulk_extend(quads)

    def optimize(self) -> "Optimize":
        """Compact the store in a second thread (see Optimize); use it as a
        context manager, or call `wait`, before closing the store."""
        return Optimize(self.db)

    def loader(self, folder: str | os.PathLike, batch: int = 50_000,
               ceiling: int = 500_000) -> "BackgroundLoad":
        """Load quads while the caller goes on (see BackgroundLoad); `folder`
        holds them on their way in, in files of `batch` quads at first, growing
        with what is loaded up to `ceiling`."""
        return BackgroundLoad(self.db, folder, batch, ceiling)

    def remove_paper(self, paper_id: str) -> bool:
        g = ox.NamedNode(str(iris.paper_graph_iri(paper_id)))
        if not self.db.contains_named_graph(g):
            return False
        self.db.remove_graph(g)
        return True

    def clear(self) -> None:
        self.db.clear()

    def flush(self) -> None:
        self.db.flush()

    def __len__(self) -> int:
        return len(self.db)

    # -- reading --------------------------------------------------------------
    def query(self, sparql: str, **kw):
        """Run SPARQL over the union of all graphs, or over the graphs its FROM clauses name."""
        return self.db.query(sparql, use_default_graph_as_union=not names_a_dataset(sparql), **kw)

    def dump(self, out, fmt: str) -> None:
        """Write the whole store; triple formats get the union of all papers."""
        rdf_format = RDF_FORMATS[fmt]
        if fmt in DATASET_FORMATS:
            self.db.dump(out, rdf_format)
        else:
            ox.serialize(self._union_triples(), out, rdf_format, prefixes=query_prefixes())

    def _union_triples(self) -> Iterator[ox.Triple]:
        """Each triple of the union once, streamed graph by graph in the
        store's order (subjects grouped, so Turtle stays compact).

        An entity's triples recur in every paper that mentions it. A Bloom
        filter sized to the store tells which triples are surely new; only the
        others are looked up, and a triple is written in the first graph the
        store lists for it, which is the first graph this scan reaches. Triples
        found to repeat are remembered (up to a bound), so a popular entity
        costs one look-up, not one per paper."""

        seen = BloomFilter(len(self.db))
        repeated: set[ox.Triple] = set()
        for quad in self.db.quads_for_pattern(None, None, None, None):
            triple = quad.triple
            if triple in repeated:
                continue
            if seen.add(triple):
                first = next(iter(self.db.quads_for_pattern(triple.subject, triple.predicate, triple.object, None)))
                if first.graph_name != quad.graph_name:
                    if len(repeated) < _REPEATED_CAP:
                        repeated.add(triple)
                    continue
            yield triple

    def close(self) -> None:
        """Let go of the store. pyoxigraph has no close: RocksDB shuts when the
        last reference goes, so whatever else held `db` must have let go too."""
        del self.db


class Optimize:
    """Oxigraph's `Store.optimize` (RocksDB compacting every file into sorted
    runs) in a second thread. A store filled by the bulk loader is left in
    many overlapping files, and queries on it read them all: at 100k
    abstracts the slowest ready questions take up to twice as long on it as
    on the compacted store (benchmarks/README.md, Ready questions). Reading
    and writing the store meanwhile is safe, and pyoxigraph lets go of
    Python's lock while it compacts, so the build's counts and view go on."""

    def __init__(self, db: ox.Store):
        self._db: ox.Store | None = db
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="kg-store-optimize", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._db.optimize()
        except BaseException as exc:  # handed to the caller by wait
            self._error = exc

    def wait(self) -> None:
        """Wait for the compaction; raise its error, if any."""
        self._thread.join()
        self._db = None  # the store closes only when its last reference goes (KGStore.close)
        if self._error is not None:
            raise StoreError(f"optimizing the store failed: {self._error}") from self._error

    def __enter__(self) -> "Optimize":
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is None:
            self.wait()
        else:  # the caller failed: let the compaction end, keep the caller's error
            self._thread.join()
            self._db = None


class BackgroundLoad:
    """Loads quads into a store in a second thread, by Oxigraph's bulk loader,
    so a build goes on extracting while the store is written.

    `add` appends a paper's quads, as N-Quads, to a file in `folder`; when the
    file is full the file is queued, and the thread hands
    it to `Store.bulk_load`, which parses and loads it without Python's lock
    (given bytes instead, it would take the lock to read them and slow the
    caller down), then deletes it. Nothing is held in Python between papers,
    and at most one file waits, so memory and disk stay bounded when loading is
    slower than extraction. Use it as a context manager: leaving waits for the
    last file, and an error of the loader is raised in the caller (at the next
    `add` or on leaving).

    A file is full at half the quads queued before it, at least `batch` and
    at most `ceiling`. Each file becomes new sorted runs in RocksDB, which
    compacts them with what is there: while other processes keep the cores
    busy (a build's extraction workers), a few large files cost less than
    many small ones (benchmarks/README.md, Oxigraph's loader). The ceiling bounds
    the loader's memory (Oxigraph holds a file's quads while it sorts them:
    about 0.9 KB a quad) and the last file, loaded after the caller's last
    `add`."""

    def __init__(self, db: ox.Store, folder: str | os.PathLike, batch: int = 50_000,
                 ceiling: int = 500_000):
        self.db = db
        self.folder = Path(folder)
        self.batch = batch
        self.ceiling = max(batch, ceiling)
        self._queued = 0  # quads in the files queued so far
        self._files = 0
        self._path: Path | None = None
        self._fh = None
        self._in_file = 0
        self._queue: queue.Queue[Path | None] = queue.Queue(maxsize=1)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="kg-store-load", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (path := self._queue.get()) is not None:
            try:
                if self._error is None:
                    # lenient: the IRIs are not checked again. pyoxigraph's serializer
                    # wrote the file from terms it checked when they were made, and
                    # the checks cost about a sixth of the loader's CPU time.
                    self.db.bulk_load(path=str(path), format=ox.RdfFormat.N_QUADS, lenient=True)
            except BaseException as exc:  # handed to the caller
                self._error = exc
            finally:
                path.unlink(missing_ok=True)

    def add(self, nquads: bytes, count: int) -> None:
        """Queue `count` quads, given as N-Quads (kg.graph.paper_output makes
        them where the record is made, often in another process)."""
        self._raise()
        if not count:
            return
        if self._fh is None:
            self._files += 1
            self._path = self.folder / f".load-{self._files}.nq"
            self._fh = open(self._path, "wb")
        self._fh.write(nquads)
        self._in_file += count
        if self._in_file >= min(self.ceiling, max(self.batch, self._queued // 2)):
            self._hand_over()

    def _hand_over(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._queue.put(self._path)
            self._queued += self._in_file
            self._fh, self._in_file = None, 0

    def close(self) -> None:
        """Wait until every quad added is in the store."""
        self._hand_over()
        self._stop()
        self._raise()

    def _stop(self) -> None:
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        # pyoxigraph closes a store when its last reference goes: holding one
        # here would keep RocksDB compacting in the staged folder while the
        # build syncs and commits it.
        self.db = None

    def _raise(self) -> None:
        if self._error is not None:
            raise StoreError(f"loading the store failed: {self._error}") from self._error

    def __enter__(self) -> "BackgroundLoad":
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is None:
            self.close()
        else:
            if self._fh is not None:
                self._fh.close()
            self._stop()  # the build failed: let the thread end, keep the caller's error

