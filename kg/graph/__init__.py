"""Record -> quads: vocabulary, IRIs, canonical entities, provenance."""

from kg.graph.build import record_quads, paper_graph
from kg.graph.vocab import MLKG, MLS, FABIO, PROV, SKOS, DCTERMS, PREFIXES

__all__ = ["record_quads", "paper_graph", "MLKG", "MLS", "FABIO", "PROV", "SKOS", "DCTERMS", "PREFIXES"]
