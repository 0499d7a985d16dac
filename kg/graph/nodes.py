"""The vocabularies of kg.graph.vocab as pyoxigraph nodes, under the same names.

The store is Oxigraph, so quads are made of pyoxigraph terms. Here
`PROV.wasDerivedFrom` is the pyoxigraph node of rdflib's
`PROV.wasDerivedFrom`: every IRI still comes from kg.graph.vocab, and a term
a closed vocabulary lacks fails as it does in rdflib. Each node is made once,
on first use; looking up an rdflib term for every quad would cost more than
the quad.
"""

from __future__ import annotations

from functools import lru_cache

import pyoxigraph as ox
from rdflib.term import URIRef

from kg.graph import vocab


class Vocabulary:
    """The pyoxigraph nodes of one rdflib namespace's terms, as attributes."""

    def __init__(self, namespace) -> None:
        self._namespace = namespace

    def __getattr__(self, term: str) -> ox.NamedNode:
        # Only reached for a term not made yet: it is then kept as a plain attribute.
        if term.startswith("_"):
            raise AttributeError(term)
        made = as_node(self._namespace[term])
        setattr(self, term, made)
        return made


@lru_cache(maxsize=1024)
def as_node(term: URIRef) -> ox.NamedNode:
    """The pyoxigraph node of a vocabulary term, such as a value of
    kg.graph.vocab.ENTITY_CLASS. Kept for reuse, so meant for vocabulary
    terms, not for the IRIs of papers and entities."""
    return ox.NamedNode(str(term))


BIBO = Vocabulary(vocab.BIBO)
DCTERMS = Vocabulary(vocab.DCTERMS)
FABIO = Vocabulary(vocab.FABIO)
FOAF = Vocabulary(vocab.FOAF)
PRISM = Vocabulary(vocab.PRISM)
SCHEMA = Vocabulary(vocab.SDO)
MLKG = Vocabulary(vocab.MLKG)
MLS = Vocabulary(vocab.MLS)
PROV = Vocabulary(vocab.PROV)
RDF = Vocabulary(vocab.RDF)
SKOS = Vocabulary(vocab.SKOS)
XSD = Vocabulary(vocab.XSD)
