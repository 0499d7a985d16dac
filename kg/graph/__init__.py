"""Record -> quads: vocabulary, IRIs, canonical entities, provenance."""

from kg.graph.build import paper_graph, record_quads
from kg.graph.vocab import DCTERMS, FABIO, MLKG, MLS, PREFIXES, PROV, SKOS

__all__ = ["record_quads", "paper_graph", "MLKG", "MLS", "FABIO", "PROV", "SKOS", "DCTERMS", "PREFIXES"]
