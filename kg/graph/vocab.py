"""Vocabularies as Namespace objects; IRIs are never spelled out elsewhere."""

from rdflib import Namespace
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SKOS, XSD

BASE = "https://w3id.org/mlkg/"
MLKG = Namespace(BASE + "ontology#")   # our own terms, only where no standard one fits
ID = Namespace(BASE + "id/")           # entities, papers, sentences, results
GRAPH = Namespace(BASE + "graph/")     # one named graph per paper, plus ENTITIES_GRAPH
ENTITIES_GRAPH = GRAPH["entities"]     # canonical labels and types, recomputed from the paper graphs
MLS = Namespace("http://www.w3.org/ns/mls#")
FABIO = Namespace("http://purl.org/spar/fabio/")

PREFIXES = {
    "mlkg": MLKG, "id": ID, "mls": MLS, "fabio": FABIO, "prov": PROV, "skos": SKOS,
    "dcterms": DCTERMS, "rdf": RDF, "rdfs": RDFS, "xsd": XSD, "owl": OWL,
}

ENTITY_CLASS = {
    "Method": MLKG.Method,
    "Dataset": MLS.Dataset,
    "Task": MLS.Task,
    "Metric": MLS.EvaluationMeasure,
}
RELATION = {
    "evaluatedOn": MLKG.evaluatedOn,
    "addresses": MLKG.addresses,
    "improvesOver": MLKG.improvesOver,
}

# The record's entity type as it appears in entity IRIs (id:dataset/...), and back.
TYPE_SEGMENT = {etype: etype.lower() for etype in ENTITY_CLASS}
SEGMENT_TYPE = {seg: etype for etype, seg in TYPE_SEGMENT.items()}

# Properties whose objects are entities a paper refers to by one of its names.
SURFACE_NAME = MLKG.surfaceName    # the record's `name` for the entity in this paper
SURFACE_ALIAS = MLKG.surfaceAlias  # one of the record's `aliases` for it in this paper
