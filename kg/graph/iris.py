"""Stable, readable IRIs.

An entity's IRI is `id:{type}/{slug}`: the slug is the lower-cased name with
hyphens between its words (`id:dataset/cifar-10`). Which name of an entity
gives the slug is decided across all abstracts by `kg.graph.canonical`, so
the same entity gets the same IRI whatever order or batch abstracts come in.
`fold` is the matching key: `CIFAR-10`, `CIFAR10` and `cifar-10` all fold to
`cifar10`, and removing the hyphens of a slug gives its key.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote, unquote

from kg.graph.vocab import GRAPH, ID, TYPE_SEGMENT

_NON_WORD = re.compile(r"[^0-9a-z]+")
_SLUG = re.compile(r"[^0-9A-Za-z]+")


def _plain(name: str) -> str:
    text = unicodedata.normalize("NFKD", name)
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


def _fallback(name: str) -> str:
    # Names with no Latin letter or digit ("文心") still need a distinct, valid key.
    return quote(name.strip().casefold(), safe="")


def fold(name: str) -> str:
    """The matching key of a name: Unicode-normalised, case-folded, only letters and digits."""
    key = _NON_WORD.sub("", _plain(name))
    return key or _fallback(name)


def entity_slug(name: str) -> str:
    """The readable IRI segment of an entity name: its key with hyphens where the name has word breaks."""
    s = _NON_WORD.sub("-", _plain(name)).strip("-")
    return s or _fallback(name)


def slug(name: str) -> str:
    """A readable IRI segment: letters and digits joined by single hyphens, lower case."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    s = _SLUG.sub("-", text).strip("-").lower()
    return s or quote(name.strip(), safe="")


def entity_iri(etype: str, name: str):
    """The IRI an entity gets when `name` is its canonical name."""
    return ID[f"{TYPE_SEGMENT.get(etype, etype.lower())}/{entity_slug(name)}"]


def entity_prefix(etype: str) -> str:
    return str(ID[f"{TYPE_SEGMENT.get(etype, etype.lower())}/"])


def safe_id(paper_id: str) -> str:
    return quote(paper_id, safe="-._~")


def paper_iri(paper_id: str):
    return ID[f"paper/{safe_id(paper_id)}"]


def paper_graph_iri(paper_id: str):
    return GRAPH[f"paper/{safe_id(paper_id)}"]


def paper_id_of_graph(graph_iri: str) -> str:
    """The paper id back from its graph IRI."""
    return unquote(graph_iri.removeprefix(str(GRAPH["paper/"])))


def extraction_iri(paper_id: str):
    """The extraction run that read this paper (a prov:Activity)."""
    return ID[f"paper/{safe_id(paper_id)}/extraction"]


def agent_iri(name: str, version: str):
    """The extractor of this name and version (a prov:SoftwareAgent)."""
    return ID[f"agent/{slug(name)}/{slug(version)}"]


def sentence_iri(paper_id: str, index: int):
    return ID[f"paper/{safe_id(paper_id)}/sentence/{index}"]


def fact_iri(paper_id: str, index: int):
    return ID[f"paper/{safe_id(paper_id)}/fact/{index}"]


def result_iri(paper_id: str, index: int):
    return ID[f"paper/{safe_id(paper_id)}/result/{index}"]


def person_iri(name: str):
    """An author, by name: the same name is one node across papers (so
    namesakes share it; the input gives no better key)."""
    return ID[f"person/{entity_slug(name)}"]


def author_list_iri(paper_id: str):
    """The paper's ordered author list (an rdf:Seq)."""
    return ID[f"paper/{safe_id(paper_id)}/authors"]


def local_baseline_iri(paper_id: str, name: str):
    """Baselines named only by the text's own words ("the previous state of the
    art") mean something different in every paper, so they stay paper-local."""
    return ID[f"paper/{safe_id(paper_id)}/baseline/{slug(name)}"]
