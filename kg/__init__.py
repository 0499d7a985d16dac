"""kg: a knowledge-graph builder for machine-learning paper abstracts.

Flow: read -> extract -> records -> graph -> store -> query / view / export.

From Python (kg.api has the details):

    import kg
    kg.extract("We evaluate FooNet on CIFAR-10.")          # one record
    with kg.build(["abstracts.jsonl"], "out/") as g:       # or kg.open("out/")
        g.ask("leaderboard", dataset="CIFAR-10", metric="accuracy").to_pandas()

`import kg` loads no spaCy and no store: they load when first used.
"""

import sys
import types

__version__ = "0.1.0"

from kg import api  # noqa: E402  (the standard library only)
from kg.api import Graph, KGError, Rows, frame, open, questions  # noqa: E402,A004

__all__ = ["Graph", "KGError", "Rows", "build", "extract", "frame", "open", "questions", "__version__"]


class _Package(types.ModuleType):
    """`kg.build` and `kg.extract` are API functions, but kg/build.py and
    kg/extract/ are also submodules, and importing a submodule sets the
    package's attribute of that name to the module, which would hide the
    function. These properties keep the names on the functions; the
    submodules are reached by their full names (`from kg.build import build`)."""

    build = property(lambda self: api.build, lambda self, value: None)
    extract = property(lambda self: api.extract, lambda self, value: None)


sys.modules[__name__].__class__ = _Package
