"""kg: a knowledge-graph builder for machine-learning paper abstracts.

Flow: read -> extract -> records -> graph -> store -> query / view / export.

From Python (kg.api has the details):

    import kg
    kg.extract("We evaluate FooNet on CIFAR-10.")          # one record
    with kg.build(["abstracts.jsonl"], "out/") as g:       # or kg.open("out/")
        g.ask("leaderboard", dataset="CIFAR-10", metric="accuracy").to_pandas()

`import kg` loads no spaCy and no store: they load when first used.
"""

from kg.api import Graph, KGError, Rows, build, extract, frame, open, questions  # noqa: A004  (the standard library only)
from kg.version import __version__

__all__ = ["Graph", "KGError", "Rows", "build", "extract", "frame", "open", "questions", "__version__"]
