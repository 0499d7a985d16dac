"""The prefixes every query knows without PREFIX lines: `kg query`, `kg serve`
and the ready questions pass them to the engine, so a query copied from
docs/model.md runs as it stands. A query's own PREFIX line still wins.

Plain strings, not rdflib namespaces, because the query workers import this
module and must start light; kg.graph.vocab.PREFIXES is the same map (a test
checks that they agree).
"""

from __future__ import annotations

QUERY_PREFIXES: dict[str, str] = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "dcterms": "http://purl.org/dc/terms/",
    "prov": "http://www.w3.org/ns/prov#",
    "mls": "http://www.w3.org/ns/mls#",
    "fabio": "http://purl.org/spar/fabio/",
    "prism": "http://prismstandard.org/namespaces/basic/2.0/",
    "bibo": "http://purl.org/ontology/bibo/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "schema": "https://schema.org/",
    "mlkg": "https://w3id.org/mlkg/ontology#",
    "id": "https://w3id.org/mlkg/id/",
    "kgg": "https://w3id.org/mlkg/graph/",
}


def query_prefixes() -> dict[str, str]:
    """A copy of QUERY_PREFIXES, for the engine's `prefixes` argument."""
    return dict(QUERY_PREFIXES)
