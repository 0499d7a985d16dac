"""Record -> quads. One named graph per paper holds every fact of that paper,
so a paper can be replaced or removed as a unit.

`record_quads` reads a record in this order, one function per kind of fact:

    paper_quads        the paper: fabio:ResearchPaper, dcterms:title, ...
    provenance_quads   the extraction run (prov:Activity) and the extractor
    entity_quads       the entities the record lists, each with the names
                       this paper uses for it
    relation_quads     each relation: the entities it names, then
      statement_quads    evaluatedOn, addresses, improvesOver as a triple and
                         as an rdf:Statement with its provenance
      result_quads       improvesOver and achieves as a mls:ModelEvaluation
                         with its value, dataset and metric
    sentence_quads     the sentences those facts were read from (mlkg:Sentence)

Entities get the IRI their names and the gazetteer give
(`Resolver.local_iri`); the store's canonical pass (`kg.graph.entities`)
later joins entities that other papers show to be the same, and writes the
one canonical label of each into the entities graph. So the paper graph
holds only what this paper says: the names it uses for each entity
(`mlkg:surfaceName`, `mlkg:surfaceAlias`), never the canonical label.

The quads are pyoxigraph terms (kg.graph.nodes), since the store is
Oxigraph and building rdflib objects first would double the work on large
corpora; `paper_graph` gives the same facts as an rdflib Dataset for tests
and interchange.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Iterator

import pyoxigraph as ox
import rdflib

from kg.graph import iris
from kg.graph.canonical import Resolver
from kg.graph.nodes import (
    BIBO,
    DCTERMS,
    FABIO,
    FOAF,
    MLKG,
    MLS,
    PRISM,
    PROV,
    RDF,
    SCHEMA,
    SKOS,
    XSD,
    as_node,
)
from kg.graph.vocab import ENTITY_CLASS, GAIN_TYPE, RELATION, member
from kg.io import gazetteer_files
from kg.model import Abstract

# Which entity type an unknown name is taken as, by where it stands.
OBJECT_TYPE = {"evaluatedOn": "Dataset", "addresses": "Task", "improvesOver": "Method"}
# The relations that report a result, and the class of that result.
RESULT_CLASS = {"improvesOver": MLKG.Improvement, "achieves": MLKG.Score}


@lru_cache(maxsize=1)
def default_resolver() -> Resolver:
    """A resolver over the built-in gazetteers."""
    return Resolver(gazetteer_files.load_builtin())


def record_quads(abstract: Abstract, record: dict, resolver: Resolver | None = None) -> Iterator[ox.Quad]:
    """Every quad of one paper, all in its named graph."""
    paper = Paper.of(abstract, record)
    yield from paper_quads(paper)
    yield from provenance_quads(paper, record.get("extractor") or {})
    entities = PaperEntities(paper, resolver or default_resolver())
    yield from entity_quads(entities, record.get("entities") or {})
    facts = [quad for index, relation in enumerate(record.get("relations") or [])
             for quad in relation_quads(paper, entities, index, relation)]
    yield from facts
    yield from sentence_quads(paper, {quad.object for quad in facts if quad.predicate == PROV.wasDerivedFrom})


def paper_graph(abstract: Abstract, record: dict, resolver: Resolver | None = None) -> rdflib.Dataset:
    """The same quads as an rdflib Dataset."""
    ds = rdflib.Dataset()
    data = "".join(str(qd) + " .\n" for qd in record_quads(abstract, record, resolver))
    ds.parse(data=data, format="nquads")
    return ds


# -- the paper ----------------------------------------------------------------

@dataclass
class Paper:
    """One paper's nodes and sentences: what every fact of it refers to."""

    id: str
    abstract: Abstract
    graph: ox.NamedNode      # the named graph that holds all its facts
    node: ox.NamedNode
    activity: ox.NamedNode   # the extraction run that read it
    # Character spans of the record's sentences; a span outside the text is
    # (0, 0): it names no sentence, but its index stays taken so sentence
    # IRIs keep the record's numbering.
    sentences: list[tuple[int, int]]
    # The sentence nodes made so far, by index (`sentence_node`): made on
    # first use, since most sentences are no fact's source and an IRI costs
    # more than a quad.
    sentence_nodes: dict[int, ox.NamedNode] = field(default_factory=dict)

    @classmethod
    def of(cls, abstract: Abstract, record: dict) -> Paper:
        pid = record["id"]
        text = abstract.text
        sentences = [(int(s), int(e)) if 0 <= int(s) < int(e) <= len(text) else (0, 0)
                     for s, e in (record.get("sentences") or [])]
        return cls(
            id=pid,
            abstract=abstract,
            graph=ox.NamedNode(str(iris.paper_graph_iri(pid))),
            node=ox.NamedNode(str(iris.paper_iri(pid))),
            activity=ox.NamedNode(str(iris.extraction_iri(pid))),
            sentences=sentences,
        )

    def sentence_node(self, index: int) -> ox.NamedNode:
        """The node of the record's sentence `index`."""
        node = self.sentence_nodes.get(index)
        if node is None:
            node = self.sentence_nodes[index] = ox.NamedNode(str(iris.sentence_iri(self.id, index)))
        return node

    def quad(self, subject: ox.NamedNode, predicate: ox.NamedNode, obj: ox.NamedNode | ox.Literal) -> ox.Quad:
        """A quad in this paper's graph."""
        return ox.Quad(subject, predicate, obj, self.graph)

    def sentence_at(self, offset: int) -> int | None:
        """The index of the sentence holding character `offset`, if any."""
        for i, (start, end) in enumerate(self.sentences):
            if start <= offset < end:
                return i
        return None


def paper_quads(paper: Paper) -> Iterator[ox.Quad]:
    """The paper itself: its class, id, title, abstract and collection, and
    the metadata the input gave (date, year, authors in order, venue, DOI,
    arXiv id, categories, URL; docs/model.md)."""
    q, abstract, node = paper.quad, paper.abstract, paper.node
    yield q(node, RDF.type, FABIO.ResearchPaper)
    yield q(node, DCTERMS.identifier, ox.Literal(paper.id))
    if abstract.title:
        yield q(node, DCTERMS.title, ox.Literal(abstract.title))
    yield q(node, DCTERMS.abstract, ox.Literal(abstract.text))
    collection = abstract.meta.get("collection") if isinstance(abstract.meta, dict) else None
    if isinstance(collection, str) and collection.strip():
        yield q(node, MLKG.collection, ox.Literal(" ".join(collection.split())))
    meta = abstract.paper
    if meta.date:
        yield q(node, DCTERMS.issued, ox.Literal(meta.date, datatype=XSD.date if len(meta.date) == 10
                                                 else XSD.gYearMonth))
    if meta.year is not None:
        yield q(node, FABIO.hasPublicationYear, ox.Literal(f"{meta.year:04d}", datatype=XSD.gYear))
    if meta.authors:
        authors = ox.NamedNode(str(iris.author_list_iri(paper.id)))
        yield q(node, BIBO.authorList, authors)
        yield q(authors, RDF.type, RDF.Seq)
        for index, name in enumerate(meta.authors, 1):
            person = ox.NamedNode(str(iris.person_iri(name)))
            yield q(node, DCTERMS.creator, person)
            yield q(person, RDF.type, FOAF.Person)
            yield q(person, FOAF.name, ox.Literal(name))
            yield q(authors, as_node(member(index)), person)
    if meta.venue:
        yield q(node, PRISM.publicationName, ox.Literal(meta.venue))
    if meta.doi:
        yield q(node, PRISM.doi, ox.Literal(meta.doi))
    if meta.arxiv:
        yield q(node, MLKG.arxivId, ox.Literal(meta.arxiv))
    for category in meta.categories:
        yield q(node, DCTERMS.subject, ox.Literal(category))
    if meta.url:
        yield q(node, SCHEMA.url, ox.Literal(meta.url, datatype=XSD.anyURI))


def paper_facts(abstract: Abstract) -> list[ox.Quad]:
    """The paper's own quads (paper_quads) for an abstract read from the input:
    `kg build --update` checks them against the store to tell whether the
    paper's text or metadata changed."""
    return list(paper_quads(Paper.of(abstract, {"id": abstract.id})))


def provenance_quads(paper: Paper, extractor: dict) -> Iterator[ox.Quad]:
    """The extraction run that read the paper, and the extractor (name and version) that ran."""
    q = paper.quad
    name, version = str(extractor.get("name", "kg")), str(extractor.get("version", "0"))
    agent = agent_node(name, version)
    yield q(paper.node, PROV.wasGeneratedBy, paper.activity)
    yield q(paper.activity, RDF.type, PROV.Activity)
    yield q(paper.activity, PROV.wasAssociatedWith, agent)
    yield q(paper.activity, PROV.used, paper.node)
    yield q(agent, RDF.type, PROV.SoftwareAgent)
    yield q(agent, SKOS.prefLabel, ox.Literal(f"{name} {version}".strip()))


@lru_cache(maxsize=64)
def agent_node(name: str, version: str) -> ox.NamedNode:
    """The extractor's node: the same few in every paper of a build, so kept."""
    return ox.NamedNode(str(iris.agent_iri(name, version)))


def sentence_quads(paper: Paper, sources: set[ox.NamedNode]) -> Iterator[ox.Quad]:
    """The sentences facts were read from (`sources`), each with its text and
    character span. The others are left out: nothing refers to them, the
    abstract holds their text, and they were a third of a paper's quads."""
    q = paper.quad
    # Every source is among the nodes made so far; sorted: in the record's order.
    for index, sentence in sorted(paper.sentence_nodes.items()):
        start, end = paper.sentences[index]
        if start == end or sentence not in sources:
            continue  # outside the text, or no fact's source
        yield q(sentence, RDF.type, MLKG.Sentence)
        yield q(sentence, DCTERMS.isPartOf, paper.node)
        yield q(sentence, MLKG.text, ox.Literal(paper.abstract.text[start:end]))
        yield q(sentence, MLKG.start, ox.Literal(str(start), datatype=XSD.integer))
        yield q(sentence, MLKG.end, ox.Literal(str(end), datatype=XSD.integer))


# -- entities -----------------------------------------------------------------

class PaperEntities:
    """The entity nodes of one paper, found by type and name.

    A name a relation uses is looked up as written, first in the type its
    place implies and then in the others, then by its folded key ("CIFAR10"
    finds "CIFAR-10").
    """

    def __init__(self, paper: Paper, resolver: Resolver) -> None:
        self.paper = paper
        self.resolver = resolver
        self.by_name: dict[tuple[str, str], ox.NamedNode] = {}  # (type, name) -> node
        self.by_key: dict[tuple[str, str], ox.NamedNode] = {}   # (type, folded name or alias) -> node
        self.sentences: dict[ox.NamedNode, set[int]] = {}       # node -> sentences that mention it

    def declare(self, etype: str, entity: dict) -> list[ox.Quad]:
        """Take in one entity (the record's {name, aliases, mentions,
        proposed}) and return its quads: its classes, the names this paper
        uses for it, and that the paper mentions or proposes it."""
        name = entity["name"]
        aliases = [a for a in (entity.get("aliases") or []) if isinstance(a, str) and a.strip() and a != name]
        node = ox.NamedNode(self.resolver.local_iri(etype, name, aliases))
        self.by_name[(etype, name)] = node
        for form in (name, *aliases):
            self.by_key.setdefault((etype, iris.fold(form)), node)
        mentioned_in = self.sentences.setdefault(node, set())
        for span in entity.get("mentions") or []:
            i = self.paper.sentence_at(int(span[0])) if span else None
            if i is not None:
                mentioned_in.add(i)

        q, paper = self.paper.quad, self.paper.node
        quads = [q(node, RDF.type, as_node(ENTITY_CLASS[etype])),
                 q(node, RDF.type, MLKG.Entity),
                 q(node, MLKG.surfaceName, ox.Literal(name))]
        quads += [q(node, MLKG.surfaceAlias, ox.Literal(alias)) for alias in aliases]
        quads.append(q(paper, MLKG.mentions, node))
        if entity.get("proposed"):
            quads.append(q(paper, MLKG.proposes, node))
        return quads

    def find(self, name: str, prefer: str) -> ox.NamedNode | None:
        """The node this paper has for `name`, preferring entities of type `prefer`."""
        types = [prefer] + [t for t in ENTITY_CLASS if t != prefer]
        for t in types:
            if (t, name) in self.by_name:
                return self.by_name[(t, name)]
        key = iris.fold(name)
        for t in types:
            if (t, key) in self.by_key:
                return self.by_key[(t, key)]
        return None

    def named(self, name: Any, etype: str, new: list[ox.Quad]) -> ox.NamedNode | None:
        """The node of a name a relation uses. A name the record's entity
        lists lack is still an entity, of the type its place implies: it is
        declared, and its quads added to `new`."""
        if not isinstance(name, str) or not name.strip():
            return None
        node = self.find(name, etype)
        if node is None:
            new.extend(self.declare(etype, {"name": name}))
            node = self.by_name[(etype, name)]
        return node


def entity_quads(entities: PaperEntities, listed: dict) -> Iterator[ox.Quad]:
    """The entities the record lists by type ({"Dataset": [{name, ...}], ...})."""
    for etype, ents in listed.items():
        if etype not in ENTITY_CLASS:
            continue
        for ent in ents:
            if isinstance(ent, dict) and isinstance(ent.get("name"), str) and ent["name"].strip():
                yield from entities.declare(etype, ent)


# -- relations ----------------------------------------------------------------

@dataclass
class ResolvedRelation:
    """One relation of the record with its parts as nodes."""

    kind: str       # the record's "p": evaluatedOn, addresses, improvesOver or achieves
    index: int      # its place in the record, which numbers its fact and result IRIs
    fields: dict    # the record's relation: s, o, value, unit, gain, ...
    subject: ox.NamedNode
    object: ox.NamedNode | None
    dataset: ox.NamedNode | None
    metric: ox.NamedNode | None
    sentence: ox.NamedNode | None     # the sentence it was read from
    confidence: ox.Literal | None


def relation_quads(paper: Paper, entities: PaperEntities, index: int, relation: dict) -> Iterator[ox.Quad]:
    """One relation of the record: the entities it names, then the
    statement (evaluatedOn, addresses, improvesOver) and the result
    (improvesOver, achieves) it makes."""
    kind = relation.get("p")
    if kind not in RELATION and kind not in RESULT_CLASS:
        return
    new: list[ox.Quad] = []  # quads of the entities the record's lists lack
    subject = entities.named(relation.get("s"), "Method", new)
    if kind == "improvesOver":
        obj = improved_on(paper, entities, relation.get("o"), new)
    elif kind in RELATION:
        obj = entities.named(relation.get("o"), OBJECT_TYPE[kind], new)
    else:
        obj = None
    dataset = entities.named(relation.get("dataset"), "Dataset", new)
    metric = entities.named(relation.get("metric"), "Metric", new)
    # Entities a relation names are mentioned even when the relation is unusable.
    yield from new
    if subject is None or (kind in RELATION and obj is None):
        return  # a relation without its subject or object says nothing

    resolved = ResolvedRelation(
        kind=kind, index=index, fields=relation, subject=subject, object=obj, dataset=dataset, metric=metric,
        sentence=source_sentence(paper, entities, relation, [subject, obj, dataset, metric]),
        confidence=confidence_literal(relation.get("confidence")),
    )
    if kind in RELATION:
        yield from statement_quads(paper, resolved)
    if kind in RESULT_CLASS:
        yield from result_quads(paper, resolved)


def improved_on(paper: Paper, entities: PaperEntities, name: Any, new: list[ox.Quad]) -> ox.NamedNode | None:
    """What an improvesOver relation improves over: an entity of this paper,
    else a baseline only the text's own words name ("the previous state of
    the art"), which stays local to this paper; its quads are added to `new`."""
    if not isinstance(name, str) or not name.strip():
        return None
    node = entities.find(name, "Method")
    if node is None:
        node = ox.NamedNode(str(iris.local_baseline_iri(paper.id, name)))
        new.append(paper.quad(node, RDF.type, MLKG.Baseline))
        new.append(paper.quad(node, SKOS.prefLabel, ox.Literal(name)))
        if name.lower() != name:  # found in any case by one lookup, as entities are (kg.graph.entities)
            new.append(paper.quad(node, SKOS.hiddenLabel, ox.Literal(name.lower())))
    return node


def source_sentence(paper: Paper, entities: PaperEntities, relation: dict,
                    parts: list[ox.NamedNode | None]) -> ox.NamedNode | None:
    """The sentence a relation was read from: the one its span starts in,
    else (no span) the first sentence that mentions every entity it names."""
    span = relation.get("span")
    if span:
        i = paper.sentence_at(int(span[0]))
        return paper.sentence_node(i) if i is not None else None
    common: set[int] | None = None
    for part in parts:
        if part is None:
            continue
        mentioned_in = entities.sentences.get(part, set())
        common = mentioned_in if common is None else common & mentioned_in
    return paper.sentence_node(min(common)) if common else None


def confidence_literal(value: Any) -> ox.Literal | None:
    """The record's confidence as an xsd:decimal, if it is a number from 0 to 1."""
    if value is None:
        return None
    literal = decimal_literal(value)
    if literal is None or not 0 <= Decimal(literal.value) <= 1:
        return None
    return literal


def statement_quads(paper: Paper, relation: ResolvedRelation) -> Iterator[ox.Quad]:
    """The relation as a triple, and as an rdf:Statement that says where it was read."""
    q = paper.quad
    predicate = as_node(RELATION[relation.kind])
    yield q(relation.subject, predicate, relation.object)
    fact = ox.NamedNode(str(iris.fact_iri(paper.id, relation.index)))
    yield q(fact, RDF.type, RDF.Statement)
    yield q(fact, RDF.subject, relation.subject)
    yield q(fact, RDF.predicate, predicate)
    yield q(fact, RDF.object, relation.object)
    yield from source_quads(paper, fact, relation)


def result_quads(paper: Paper, relation: ResolvedRelation) -> Iterator[ox.Quad]:
    """A reported result (mls:ModelEvaluation): the method, what it improves
    over, dataset, metric, value and unit, and for an improvement the kind of gain."""
    q = paper.quad
    result = ox.NamedNode(str(iris.result_iri(paper.id, relation.index)))
    yield q(result, RDF.type, MLS.ModelEvaluation)
    yield q(result, RDF.type, RESULT_CLASS[relation.kind])
    yield q(result, MLKG.method, relation.subject)
    if relation.object is not None:
        yield q(result, MLKG.baseline, relation.object)
    if relation.dataset is not None:
        yield q(result, MLKG.dataset, relation.dataset)
    if relation.metric is not None:
        yield q(result, MLS.specifiedBy, relation.metric)
    yield from value_quads(paper, result, relation.fields)
    gain = relation.fields.get("gain")
    if relation.kind == "improvesOver" and isinstance(gain, str) and gain in GAIN_TYPE:
        yield q(result, MLKG.gainType, as_node(GAIN_TYPE[gain]))
    yield from source_quads(paper, result, relation)


def value_quads(paper: Paper, result: ox.NamedNode, fields: dict) -> Iterator[ox.Quad]:
    """A result's value as written and as numbers (a range "2-5" gives
    mls:hasValue 5 and mlkg:minValue 2), and its unit."""
    q = paper.quad
    value = fields.get("value")
    if value is not None and str(value).strip():
        low, high = parse_value(str(value))
        yield q(result, MLKG.valueText, ox.Literal(str(value)))
        if high is not None:
            yield q(result, MLS.hasValue, decimal_literal(high))
        if low is not None and low != high:
            yield q(result, MLKG.minValue, decimal_literal(low))
    unit = fields.get("unit")
    if isinstance(unit, str) and unit.strip():
        yield q(result, MLKG.unit, ox.Literal(unit))


def source_quads(paper: Paper, node: ox.NamedNode, relation: ResolvedRelation) -> Iterator[ox.Quad]:
    """Where a statement or result comes from: the paper, the extraction run,
    the sentence, and how sure the extractor was."""
    q = paper.quad
    yield q(node, MLKG.reportedIn, paper.node)
    yield q(node, PROV.wasGeneratedBy, paper.activity)
    if relation.sentence is not None:
        yield q(node, PROV.wasDerivedFrom, relation.sentence)
    if relation.confidence is not None:
        yield q(node, MLKG.confidence, relation.confidence)


# -- literals -----------------------------------------------------------------

def decimal_literal(value: Any) -> ox.Literal | None:
    """An xsd:decimal in its canonical lexical form (never "1e-05"), or None."""
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return None
    if not d.is_finite():
        return None
    text = format(d, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".") or "0"
    return ox.Literal(text, datatype=XSD.decimal)


_NUM = re.compile(r"[-+]?\d+(?:\.\d+)?")


def parse_value(text: str) -> tuple[Decimal | None, Decimal | None]:
    """Lower and upper bound of a value as the record writes it ("6.4", "2-5")."""
    nums = []
    for m in _NUM.findall(str(text).replace(",", "")):
        try:
            nums.append(Decimal(m.lstrip("+")))
        except InvalidOperation:
            pass
    # "2-5" reads as 2 and -5: a range is never written with a negative end.
    if len(nums) == 2 and nums[1] < 0 <= nums[0]:
        nums[1] = -nums[1]
    if not nums:
        return None, None
    return min(nums), max(nums)
