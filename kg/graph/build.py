"""Record -> quads. One named graph per paper holds every fact of that paper,
so a paper can be replaced or removed as a unit.

The quads are pyoxigraph terms, since the store is Oxigraph and building
rdflib objects first would double the work on large corpora; `paper_graph`
gives the same facts as an rdflib Dataset for tests and interchange.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any, Iterator

import pyoxigraph as ox
import rdflib

from kg.graph import iris
from kg.graph.vocab import DCTERMS, ENTITY_CLASS, FABIO, ID, MLKG, MLS, PROV, RDF, RELATION, SKOS, XSD
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


_NUM = re.compile(r"[-+]?\d+(?:\.\d+)?")


def parse_value(text: str) -> tuple[Decimal | None, Decimal | None]:
    """Lower and upper bound of a value as the record writes it ("6.4", "2-5")."""
    nums = []
    for m in _NUM.findall(text.replace(",", "")):
        try:
            nums.append(Decimal(m))
        except InvalidOperation:
            pass
    if not nums:
        return None, None
    return min(nums), max(nums)


def record_quads(abstract: Abstract, record: dict) -> Iterator[ox.Quad]:
    pid = record["id"]
    g = ox.NamedNode(str(iris.paper_graph_iri(pid)))
    paper = ox.NamedNode(str(iris.paper_iri(pid)))
    activity = ox.NamedNode(str(iris.paper_iri(pid)) + "/extraction")
    ext = record.get("extractor") or {}
    agent = ox.NamedNode(str(ID[f"agent/{iris.slug(ext.get('name', 'kg'))}/{iris.slug(ext.get('version', '0'))}"]))

    def q(s, p, o):
        return ox.Quad(s, N(p) if not isinstance(p, ox.NamedNode) else p, o, g)

    yield q(paper, RDF.type, N(FABIO.ResearchPaper))
    yield q(paper, DCTERMS.identifier, L(pid))
    if abstract.title:
        yield q(paper, DCTERMS.title, L(abstract.title))
    yield q(paper, DCTERMS.abstract, L(abstract.text))
    coll = abstract.meta.get("collection")
    if isinstance(coll, str) and coll:
        yield q(paper, MLKG.collection, L(coll))
    yield q(paper, PROV.wasGeneratedBy, activity)
    yield q(activity, RDF.type, N(PROV.Activity))
    yield q(activity, PROV.wasAssociatedWith, agent)
    yield q(activity, PROV.used, paper)
    yield q(agent, RDF.type, N(PROV.SoftwareAgent))
    yield q(agent, SKOS.prefLabel, L(f"{ext.get('name', 'kg')} {ext.get('version', '')}".strip()))

    sentences = record.get("sentences") or []
    sent_nodes: dict[tuple[int, int], ox.NamedNode] = {}
    for i, (start, end) in enumerate(sentences):
        node = ox.NamedNode(str(iris.sentence_iri(pid, i)))
        sent_nodes[(start, end)] = node
        yield q(node, RDF.type, N(MLKG.Sentence))
        yield q(node, DCTERMS.isPartOf, paper)
        yield q(node, MLKG.text, L(abstract.text[start:end]))
        yield q(node, MLKG.start, L(start, XSD.integer))
        yield q(node, MLKG.end, L(end, XSD.integer))

    def sentence_of(span) -> ox.NamedNode | None:
        if not span:
            return None
        key = (span[0], span[1])
        if key in sent_nodes:
            return sent_nodes[key]
        for (s, e), node in sent_nodes.items():
            if s <= key[0] < e:
                return node
        return None

    node_of: dict[tuple[str, str], ox.NamedNode] = {}
    name_type: dict[str, str] = {}
    for etype, ents in record.get("entities", {}).items():
        cls = ENTITY_CLASS.get(etype)
        if cls is None:
            continue
        for ent in ents:
            name = ent["name"]
            node = ox.NamedNode(str(iris.entity_iri(etype, name)))
            node_of[(etype, name)] = node
            name_type.setdefault(name, etype)
            yield q(node, RDF.type, N(cls))
            yield q(node, RDF.type, N(MLKG.Entity))
            yield q(node, SKOS.prefLabel, L(name))
            for alias in ent.get("aliases", []) or []:
                yield q(node, SKOS.altLabel, L(alias))
            yield q(paper, MLKG.mentions, node)
            if ent.get("proposed"):
                yield q(paper, MLKG.proposes, node)

    def entity(name: str, prefer: str) -> ox.NamedNode | None:
        if (prefer, name) in node_of:
            return node_of[(prefer, name)]
        etype = name_type.get(name)
        return node_of.get((etype, name)) if etype else None

    results = 0
    for i, rel in enumerate(record.get("relations", [])):
        p = rel.get("p")
        subj = entity(rel.get("s", ""), "Method")
        if subj is None:
            continue
        sent = sentence_of(rel.get("span"))
        obj = None
        if p in RELATION and rel.get("o"):
            prefer = {"evaluatedOn": "Dataset", "addresses": "Task", "improvesOver": "Method"}[p]
            obj = entity(rel["o"], prefer)
            if obj is None and p == "improvesOver":
                obj = ox.NamedNode(str(iris.local_baseline_iri(pid, rel["o"])))
                yield q(obj, RDF.type, N(MLKG.Baseline))
                yield q(obj, SKOS.prefLabel, L(rel["o"]))
            if obj is None:
                continue
            yield q(subj, N(RELATION[p]), obj)
            fact = ox.NamedNode(str(iris.fact_iri(pid, i)))
            yield q(fact, RDF.type, N(RDF.Statement))
            yield q(fact, RDF.subject, subj)
            yield q(fact, RDF.predicate, N(RELATION[p]))
            yield q(fact, RDF.object, obj)
            yield q(fact, PROV.wasGeneratedBy, activity)
            yield q(fact, MLKG.reportedIn, paper)
            if sent is not None:
                yield q(fact, PROV.wasDerivedFrom, sent)
            if "confidence" in rel:
                yield q(fact, MLKG.confidence, L(rel["confidence"], XSD.decimal))
        if p in ("improvesOver", "achieves") and (rel.get("value") or p == "achieves"):
            res = ox.NamedNode(str(iris.result_iri(pid, results)))
            results += 1
            yield q(res, RDF.type, N(MLS.ModelEvaluation))
            yield q(res, RDF.type, N(MLKG.Improvement if p == "improvesOver" else MLKG.Score))
            yield q(res, MLKG.method, subj)
            yield q(res, MLKG.reportedIn, paper)
            yield q(res, PROV.wasGeneratedBy, activity)
            if obj is not None:
                yield q(res, MLKG.baseline, obj)
            if rel.get("dataset"):
                d = entity(rel["dataset"], "Dataset")
                if d is not None:
                    yield q(res, MLKG.dataset, d)
            if rel.get("metric"):
                m = entity(rel["metric"], "Metric")
                if m is not None:
                    yield q(res, MLS.specifiedBy, m)
            value = rel.get("value")
            if value:
                lo, hi = parse_value(value)
                yield q(res, MLKG.valueText, L(value))
                if hi is not None:
                    yield q(res, MLS.hasValue, L(hi, XSD.decimal))
                if lo is not None and lo != hi:
                    yield q(res, MLKG.minValue, L(lo, XSD.decimal))
            if rel.get("unit"):
                yield q(res, MLKG.unit, L(rel["unit"]))
            if rel.get("gain") in ("absolute", "relative"):
                yield q(res, MLKG.gainType, N(MLKG[rel["gain"].capitalize() + "Gain"]))
            if sent is not None:
                yield q(res, PROV.wasDerivedFrom, sent)
            if "confidence" in rel:
                yield q(res, MLKG.confidence, L(rel["confidence"], XSD.decimal))


def paper_graph(abstract: Abstract, record: dict) -> rdflib.Dataset:
    """The same quads as an rdflib Dataset."""
    ds = rdflib.Dataset()
    data = "".join(str(qd) + " .\n" for qd in record_quads(abstract, record))
    ds.parse(data=data, format="nquads")
    return ds
