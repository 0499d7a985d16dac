"""kg's namespace prefixes: the one map of them.

graph.ttl and the other exports declare them, and `kg query`, `kg serve`, the
API and the ready questions pass them to the engine, so a query copied from
docs/model.md runs as it stands (a query's own PREFIX line still wins).
kg.graph.vocab builds its namespaces from these strings.

Plain strings, not rdflib namespaces, because the query workers import this
module and must start light.
"""

from __future__ import annotations

# In the order graph.ttl declares them.
PREFIXES: dict[str, str] = {
    "mlkg": "https://w3id.org/mlkg/ontology#",
    "id": "https://w3id.org/mlkg/id/",
    "kgg": "https://w3id.org/mlkg/graph/",
    "mls": "http://www.w3.org/ns/mls#",
    "fabio": "http://purl.org/spar/fabio/",
    "prov": "http://www.w3.org/ns/prov#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "dcterms": "http://purl.org/dc/terms/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "prism": "http://prismstandard.org/namespaces/basic/2.0/",
    "bibo": "http://purl.org/ontology/bibo/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "schema": "https://schema.org/",
}


def query_prefixes() -> dict[str, str]:
    """A copy of PREFIXES, for the engine's `prefixes` argument."""
    return dict(PREFIXES)
