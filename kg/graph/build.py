"""Record -> quads. One named graph per paper holds every fact of that paper,
so a paper can be replaced or removed as a unit.

Entities get the IRI their names and the gazetteer give
(`Resolver.local_iri`); the store's canonical pass (`kg.graph.entities`)
later joins entities that other papers show to be the same, and writes the
one canonical label of each into the entities graph. So the paper graph
holds only what this paper says: the names it uses for each entity
(`mlkg:surfaceName`, `mlkg:surfaceAlias`), never the canonical label.

The quads are pyoxigraph terms, since the store is Oxigraph and building
rdflib objects first would double the work on large corpora; `paper_graph`
gives the same facts as an rdflib Dataset for tests and interchange.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, Iterator

import pyoxigraph as ox
import rdflib

from kg.graph import iris
from kg.graph.canonical import Resolver
from kg.graph.vocab import (DCTERMS, ENTITY_CLASS, FABIO, ID, MLKG, MLS, PROV, RDF, RELATION, SKOS,
                            SURFACE_ALIAS, SURFACE_NAME, XSD)
from kg.model import Abstract

_NN: dict[str, ox.NamedNode] = {}


def N(term) -> ox.NamedNode:
    """pyoxigraph node of an rdflib URIRef, cached: the vocabulary is small."""
    s = str(term)
    node = _NN.get(s)
    if node is None:
        node = _NN[s] = ox.NamedNode(s)
    return node


def L(value: Any, datatype=None) -> ox.Literal:
    if datatype is not None:
        return ox.Literal(str(value), datatype=N(datatype))
    return ox.Literal(str(value))


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
    return ox.Literal(text, datatype=N(XSD.decimal))


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


def _nodes(ns, *names: str) -> SimpleNamespace:
    """pyoxigraph nodes of vocabulary terms, made once: rdflib term lookups per quad cost more than the quad."""
    return SimpleNamespace(**{n: ox.NamedNode(str(ns[n])) for n in names})


R = _nodes(RDF, 'Statement', 'object', 'predicate', 'subject', 'type')
D = _nodes(DCTERMS, 'abstract', 'identifier', 'isPartOf', 'title')
K = _nodes(MLKG, 'Baseline', 'Entity', 'Improvement', 'Score', 'Sentence', 'baseline', 'collection', 'confidence', 'dataset', 'end', 'gainType', 'mentions', 'method', 'minValue', 'proposes', 'reportedIn', 'start', 'text', 'unit', 'valueText')
P = _nodes(PROV, 'Activity', 'SoftwareAgent', 'used', 'wasAssociatedWith', 'wasDerivedFrom', 'wasGeneratedBy')
S = _nodes(SKOS, 'prefLabel')
M = _nodes(MLS, 'ModelEvaluation', 'hasValue', 'specifiedBy')
F = _nodes(FABIO, 'ResearchPaper')
X = _nodes(XSD, 'integer')
SURFACE_NAME_NODE = ox.NamedNode(str(SURFACE_NAME))
SURFACE_ALIAS_NODE = ox.NamedNode(str(SURFACE_ALIAS))


@lru_cache(maxsize=1)
def default_resolver() -> Resolver:
    """A resolver over the built-in gazetteers."""
    from kg.nlp import gazetteer
    return Resolver(gazetteer.load_builtin())


# Which entity type an unknown name is taken as, by where it stands.
_OBJECT_TYPE = {"evaluatedOn": "Dataset", "addresses": "Task", "improvesOver": "Method"}


def record_quads(abstract: Abstract, record: dict, resolver: Resolver | None = None) -> Iterator[ox.Quad]:
    """Every quad of one paper, all in its named graph."""
    resolver = resolver or default_resolver()
    pid = record["id"]
    g = ox.NamedNode(str(iris.paper_graph_iri(pid)))
    paper = ox.NamedNode(str(iris.paper_iri(pid)))
    activity = ox.NamedNode(str(iris.paper_iri(pid)) + "/extraction")
    ext = record.get("extractor") or {}
    ext_name, ext_version = str(ext.get("name", "kg")), str(ext.get("version", "0"))
    agent = ox.NamedNode(str(ID[f"agent/{iris.slug(ext_name)}/{iris.slug(ext_version)}"]))

    def q(s, p, o):
        return ox.Quad(s, p, o, g)

    yield q(paper, R.type, F.ResearchPaper)
    yield q(paper, D.identifier, L(pid))
    if abstract.title:
        yield q(paper, D.title, L(abstract.title))
    yield q(paper, D.abstract, L(abstract.text))
    coll = abstract.meta.get("collection") if isinstance(abstract.meta, dict) else None
    if isinstance(coll, str) and coll:
        yield q(paper, K.collection, L(coll))
    yield q(paper, P.wasGeneratedBy, activity)
    yield q(activity, R.type, P.Activity)
    yield q(activity, P.wasAssociatedWith, agent)
    yield q(activity, P.used, paper)
    yield q(agent, R.type, P.SoftwareAgent)
    yield q(agent, S.prefLabel, L(f"{ext_name} {ext_version}".strip()))

    # A span outside the text names no sentence; its index stays taken so
    # sentence IRIs keep the record's numbering.
    sentences = [(int(s), int(e)) if 0 <= int(s) < int(e) <= len(abstract.text) else (0, 0)
                 for s, e in (record.get("sentences") or [])]
    sent_nodes: list[ox.NamedNode] = []
    for i, (start, end) in enumerate(sentences):
        node = ox.NamedNode(str(iris.sentence_iri(pid, i)))
        sent_nodes.append(node)
        if start == end:
            continue
        yield q(node, R.type, K.Sentence)
        yield q(node, D.isPartOf, paper)
        yield q(node, K.text, L(abstract.text[start:end]))
        yield q(node, K.start, ox.Literal(str(start), datatype=X.integer))
        yield q(node, K.end, ox.Literal(str(end), datatype=X.integer))

    def sentence_at(offset: int) -> int | None:
        for i, (s, e) in enumerate(sentences):
            if s <= offset < e:
                return i
        return None

    # -- entities ---------------------------------------------------------------
    node_of: dict[tuple[str, str], ox.NamedNode] = {}   # (type, name) -> node
    folded: dict[tuple[str, str], ox.NamedNode] = {}    # (type, folded name or alias) -> node
    mention_sentences: dict[ox.NamedNode, set[int]] = {}
    type_order = [t for t in ENTITY_CLASS]

    def declare(etype: str, ent: dict) -> Iterator[ox.Quad]:
        name = ent["name"]
        aliases = [a for a in (ent.get("aliases") or []) if isinstance(a, str) and a.strip() and a != name]
        node = ox.NamedNode(resolver.local_iri(etype, name, aliases))
        node_of[(etype, name)] = node
        for form in (name, *aliases):
            folded.setdefault((etype, iris.fold(form)), node)
        sents = mention_sentences.setdefault(node, set())
        for span in ent.get("mentions") or []:
            i = sentence_at(int(span[0])) if span else None
            if i is not None:
                sents.add(i)
        yield q(node, R.type, N(ENTITY_CLASS[etype]))
        yield q(node, R.type, K.Entity)
        yield q(node, SURFACE_NAME_NODE, L(name))
        for alias in aliases:
            yield q(node, SURFACE_ALIAS_NODE, L(alias))
        yield q(paper, K.mentions, node)
        if ent.get("proposed"):
            yield q(paper, K.proposes, node)

    for etype, ents in (record.get("entities") or {}).items():
        if etype not in ENTITY_CLASS:
            continue
        for ent in ents:
            if isinstance(ent, dict) and isinstance(ent.get("name"), str) and ent["name"].strip():
                yield from declare(etype, ent)

    def find(name: str, prefer: str) -> ox.NamedNode | None:
        others = [prefer] + [t for t in type_order if t != prefer]
        for t in others:
            if (t, name) in node_of:
                return node_of[(t, name)]
        key = iris.fold(name)
        for t in others:
            if (t, key) in folded:
                return folded[(t, key)]
        return None

    created: list[ox.Quad] = []

    def entity(name: Any, etype: str) -> ox.NamedNode | None:
        """The node of a name the relation uses; a name the record's entity
        lists lack is still an entity of the type its place implies."""
        if not isinstance(name, str) or not name.strip():
            return None
        node = find(name, etype)
        if node is None:
            created.extend(declare(etype, {"name": name}))
            node = node_of[(etype, name)]
        return node

    def derived_from(rel: dict, nodes: list[ox.NamedNode | None]) -> ox.NamedNode | None:
        span = rel.get("span")
        if span:
            i = sentence_at(int(span[0]))
            return sent_nodes[i] if i is not None else None
        # Without a span, a sentence mentioning every entity of the relation.
        common: set[int] | None = None
        for n in nodes:
            if n is None:
                continue
            s = mention_sentences.get(n, set())
            common = s if common is None else common & s
        return sent_nodes[min(common)] if common else None

    for i, rel in enumerate(record.get("relations") or []):
        p = rel.get("p")
        if p not in RELATION and p != "achieves":
            continue
        subj = entity(rel.get("s"), "Method")
        obj = None
        if p in RELATION:
            if p == "improvesOver":
                obj = find(rel.get("o") or "", "Method") if rel.get("o") else None
                if obj is None and isinstance(rel.get("o"), str) and rel["o"].strip():
                    obj = ox.NamedNode(str(iris.local_baseline_iri(pid, rel["o"])))
                    created.append(q(obj, R.type, K.Baseline))
                    created.append(q(obj, S.prefLabel, L(rel["o"])))
            else:
                obj = entity(rel.get("o"), _OBJECT_TYPE[p])
        dataset = entity(rel.get("dataset"), "Dataset")
        metric = entity(rel.get("metric"), "Metric")
        # Entities a relation names are mentioned even when the relation is unusable.
        yield from created
        created.clear()
        if subj is None or (p in RELATION and obj is None):
            continue  # a relation without its subject or object says nothing
        sent = derived_from(rel, [subj, obj, dataset, metric])
        conf = decimal_literal(rel["confidence"]) if rel.get("confidence") is not None else None
        if conf is not None and not 0 <= Decimal(conf.value) <= 1:
            conf = None

        if obj is not None:
            yield q(subj, N(RELATION[p]), obj)
            fact = ox.NamedNode(str(iris.fact_iri(pid, i)))
            yield q(fact, R.type, R.Statement)
            yield q(fact, R.subject, subj)
            yield q(fact, R.predicate, N(RELATION[p]))
            yield q(fact, R.object, obj)
            yield q(fact, P.wasGeneratedBy, activity)
            yield q(fact, K.reportedIn, paper)
            if sent is not None:
                yield q(fact, P.wasDerivedFrom, sent)
            if conf is not None:
                yield q(fact, K.confidence, conf)

        if p in ("improvesOver", "achieves"):
            res = ox.NamedNode(str(iris.result_iri(pid, i)))
            yield q(res, R.type, M.ModelEvaluation)
            yield q(res, R.type, K.Improvement if p == "improvesOver" else K.Score)
            yield q(res, K.method, subj)
            yield q(res, K.reportedIn, paper)
            yield q(res, P.wasGeneratedBy, activity)
            if obj is not None:
                yield q(res, K.baseline, obj)
            if dataset is not None:
                yield q(res, K.dataset, dataset)
            if metric is not None:
                yield q(res, M.specifiedBy, metric)
            value = rel.get("value")
            if value is not None and str(value).strip():
                lo, hi = parse_value(str(value))
                yield q(res, K.valueText, L(value))
                if hi is not None:
                    yield q(res, M.hasValue, decimal_literal(hi))
                if lo is not None and lo != hi:
                    yield q(res, K.minValue, decimal_literal(lo))
            if isinstance(rel.get("unit"), str) and rel["unit"].strip():
                yield q(res, K.unit, L(rel["unit"]))
            if p == "improvesOver" and rel.get("gain") in ("absolute", "relative"):
                yield q(res, K.gainType, N(MLKG[rel["gain"].capitalize() + "Gain"]))
            if sent is not None:
                yield q(res, P.wasDerivedFrom, sent)
            if conf is not None:
                yield q(res, K.confidence, conf)


def paper_graph(abstract: Abstract, record: dict, resolver: Resolver | None = None) -> rdflib.Dataset:
    """The same quads as an rdflib Dataset."""
    ds = rdflib.Dataset()
    data = "".join(str(qd) + " .\n" for qd in record_quads(abstract, record, resolver))
    ds.parse(data=data, format="nquads")
    return ds
