"""Stable, readable IRIs.

An entity's IRI depends only on its type and the folded form of its name, so
the same dataset gets the same IRI whatever order or batch abstracts come in:
`CIFAR-10`, `CIFAR10` and `cifar-10` all fold to `cifar10`.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from kg.graph.vocab import GRAPH, ID

_NON_WORD = re.compile(r"[^0-9a-z]+")
_SLUG = re.compile(r"[^0-9A-Za-z]+")


def fold(name: str) -> str:
    """The matching key of a name: Unicode-normalised, case-folded, only letters and digits."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    key = _NON_WORD.sub("", text)
    return key or quote(name.strip().casefold(), safe="")


def slug(name: str) -> str:
    """A readable IRI segment: letters and digits joined by single hyphens, lower case."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    s = _SLUG.sub("-", text).strip("-").lower()
    return s or quote(name.strip(), safe="")


def entity_iri(etype: str, name: str):
    return ID[f"{etype.lower()}/{fold(name)}"]


def safe_id(paper_id: str) -> str:
    return quote(paper_id, safe="-._~")


def paper_iri(paper_id: str):
    return ID[f"paper/{safe_id(paper_id)}"]


def paper_graph_iri(paper_id: str):
    return GRAPH[f"paper/{safe_id(paper_id)}"]


def sentence_iri(paper_id: str, index: int):
    return ID[f"paper/{safe_id(paper_id)}/sentence/{index}"]


def fact_iri(paper_id: str, index: int):
    return ID[f"paper/{safe_id(paper_id)}/fact/{index}"]


def result_iri(paper_id: str, index: int):
    return ID[f"paper/{safe_id(paper_id)}/result/{index}"]


def local_baseline_iri(paper_id: str, name: str):
    """Baselines named only by the text's own words ("the previous state of the
    art") mean something different in every paper, so they stay paper-local."""
    return ID[f"paper/{safe_id(paper_id)}/baseline/{slug(name)}"]
