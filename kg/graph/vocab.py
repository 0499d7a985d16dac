"""Vocabularies as rdflib namespaces; IRIs are never spelled out elsewhere.

Terms are named the way rdflib names them: `PROV.wasDerivedFrom`,
`DCTERMS.title`, `MLKG.surfaceName`. Our own vocabulary (MLKG) and the
terms we use of ML-Schema (MLS) and FaBiO (FABIO) are closed lists, as
rdflib's PROV or SKOS are: a term not listed here raises AttributeError
rather than making a new IRI. A new term goes here and into
schemas/ontology.ttl (with rdfs:label and rdfs:comment) together.
kg.graph.nodes gives the same terms as pyoxigraph nodes.
"""

from rdflib import Namespace

# rdflib's namespaces are imported from here like kg's own (RDF is used below, the others re-exported).
from rdflib.namespace import (  # noqa: F401
    DCTERMS,
    FOAF,
    OWL,
    PROV,
    RDF,
    RDFS,
    SDO,
    SKOS,
    XSD,
    DefinedNamespace,
)
from rdflib.term import URIRef

from kg.sparql.prefixes import PREFIXES  # the one map of prefixes; re-exported here

ID = Namespace(PREFIXES["id"])         # entities, papers, sentences, results
GRAPH = Namespace(PREFIXES["kgg"])     # one named graph per paper, plus ENTITIES_GRAPH
ENTITIES_GRAPH = GRAPH["entities"]     # canonical labels and types, recomputed from the paper graphs


class MLKG(DefinedNamespace):
    """Our own terms, only where no standard vocabulary has one (schemas/ontology.ttl)."""

    _NS = Namespace(PREFIXES["mlkg"])
    _fail = True

    # Classes
    Entity: URIRef        # a method, dataset, task or metric; one node across all papers
    Method: URIRef
    Baseline: URIRef      # what a paper improves over when only its own words name it
    Sentence: URIRef
    Score: URIRef         # a result: a method's value of a metric on a dataset
    Improvement: URIRef   # a result: a method's gain over a baseline
    GainType: URIRef
    AbsoluteGain: URIRef
    RelativeGain: URIRef

    # Relations between entities
    evaluatedOn: URIRef
    addresses: URIRef
    improvesOver: URIRef

    # A paper and what it names
    mentions: URIRef
    proposes: URIRef
    collection: URIRef
    arxivId: URIRef       # the paper's arXiv identifier (no standard vocabulary has one)
    surfaceName: URIRef   # the record's `name` for an entity in one paper
    surfaceAlias: URIRef  # one of the record's `aliases` for it in one paper

    # Sentences
    text: URIRef
    start: URIRef
    end: URIRef

    # Provenance and results
    reportedIn: URIRef
    confidence: URIRef
    method: URIRef
    baseline: URIRef
    dataset: URIRef
    minValue: URIRef
    valueText: URIRef
    unit: URIRef
    gainType: URIRef


class MLS(DefinedNamespace):
    """The terms of ML-Schema (http://www.w3.org/ns/mls#) this graph uses."""

    _NS = Namespace(PREFIXES["mls"])
    _fail = True

    Algorithm: URIRef
    Dataset: URIRef
    Task: URIRef
    EvaluationMeasure: URIRef
    ModelEvaluation: URIRef
    specifiedBy: URIRef
    hasValue: URIRef


class FABIO(DefinedNamespace):
    """The terms of FaBiO (http://purl.org/spar/fabio/) this graph uses."""

    _NS = Namespace(PREFIXES["fabio"])
    _fail = True

    ResearchPaper: URIRef
    hasPublicationYear: URIRef


class PRISM(DefinedNamespace):
    """The terms of PRISM Basic 2.0 this graph uses (as FaBiO does, for venue and DOI)."""

    _NS = Namespace(PREFIXES["prism"])
    _fail = True

    publicationName: URIRef
    doi: URIRef


class BIBO(DefinedNamespace):
    """The terms of the Bibliographic Ontology this graph uses: the ordered author list."""

    _NS = Namespace(PREFIXES["bibo"])
    _fail = True

    authorList: URIRef


def member(index: int) -> URIRef:
    """rdf:_1, rdf:_2, ...: the members of an rdf:Seq, in order."""
    return RDF[f"_{index}"]


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
GAIN_TYPE = {
    "absolute": MLKG.AbsoluteGain,
    "relative": MLKG.RelativeGain,
}

# The record's entity type as it appears in entity IRIs (id:dataset/...), and back.
TYPE_SEGMENT = {etype: etype.lower() for etype in ENTITY_CLASS}
SEGMENT_TYPE = {seg: etype for etype, seg in TYPE_SEGMENT.items()}
