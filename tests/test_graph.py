"""Record -> quads and the cross-paper canonical pass, on hand-written records
(no NLP): one node per entity, stable IRIs, provenance, results as numbers."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.graph import iris
from kg.graph.build import parse_value, record_quads
from kg.graph.canonical import Resolver
from kg.graph.entities import canonicalise, orphans
from kg.graph.vocab import ENTITIES_GRAPH
from kg.model import Abstract
from kg.io.gazetteer_files import Entry

PREFIXES = """
PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
PREFIX mls: <http://www.w3.org/ns/mls#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
"""
GAZETTEER = [
    Entry("CIFAR-10", "Dataset", ["CIFAR10"], ["https://www.wikidata.org/entity/Q28935156"]),
    Entry("accuracy", "Metric"),
]


def paper(pid: str, text: str, entities: dict, relations: list | None = None, sentences=None) -> tuple:
    record = {"id": pid, "entities": entities, "relations": relations or [],
              "sentences": sentences if sentences is not None else [[0, len(text)]],
              "extractor": {"name": "kg-rules", "version": "9.9"}}
    return Abstract(id=pid, text=text), record


def load(papers, gazetteer=GAZETTEER) -> ox.Store:
    db = ox.Store()
    resolver = Resolver(gazetteer)
    for ab, rec in papers:
        db.extend(record_quads(ab, rec, resolver))
    canonicalise(db, resolver)
    return db


def select(db: ox.Store, query: str) -> list[tuple]:
    rows = db.query(PREFIXES + query, use_default_graph_as_union=True)
    return [tuple(None if t is None else t.value for t in row) for row in rows]


def entity_labels(db: ox.Store, etype_class: str) -> dict[str, tuple[str, set[str]]]:
    out = {}
    for e, pref in select(db, f"SELECT DISTINCT ?e ?l WHERE {{ ?e a {etype_class} ; skos:prefLabel ?l }}"):
        alts = {a for (a,) in select(db, f"SELECT ?a WHERE {{ <{e}> skos:altLabel ?a }}")}
        out[e] = (pref, alts)
    return out


def quads(db: ox.Store) -> set[str]:
    return {str(q) for q in db}


def test_names_fold_to_one_key_and_a_readable_slug():
    assert {iris.fold(n) for n in ["CIFAR-10", "CIFAR10", "cifar-10", " Cifar 10 "]} == {"cifar10"}
    assert iris.entity_slug("Long Range Arena") == "long-range-arena"
    assert str(iris.entity_iri("Dataset", "MS MARCO")).endswith("/id/dataset/ms-marco")
    # A name with no Latin letter still gets a distinct, valid IRI.
    ox.NamedNode(str(iris.entity_iri("Method", "文心")))
    assert iris.fold("文心") != iris.fold("千问")


def test_spellings_and_a_long_form_are_one_dataset_with_every_form_as_altlabel():
    db = load([
        paper("p1", "Tested on CIFAR-10.", {"Dataset": [{"name": "CIFAR-10"}]}),
        paper("p2", "Tested on CIFAR10.", {"Dataset": [{"name": "CIFAR10"}]}),
        paper("p3", "Tested on cifar-10.", {"Dataset": [{"name": "cifar-10"}]}),
        paper("p4", "Tested on the Canadian Institute for Advanced Research 10 (CIFAR-10) set.",
              {"Dataset": [{"name": "Canadian Institute for Advanced Research 10", "aliases": ["CIFAR-10"]}]}),
    ])
    datasets = entity_labels(db, "mls:Dataset")
    assert list(datasets) == [str(iris.ID["dataset/cifar-10"])]
    pref, alts = datasets[str(iris.ID["dataset/cifar-10"])]
    assert pref == "CIFAR-10"
    assert alts == {"CIFAR10", "cifar-10", "Canadian Institute for Advanced Research 10"}
    mentioned_by = select(db, "SELECT DISTINCT ?p WHERE { ?p mlkg:mentions ?e }")
    assert len(mentioned_by) == 4
    # The gazetteer's external id is linked.
    assert select(db, "SELECT ?m WHERE { ?e skos:exactMatch ?m }") == [("https://www.wikidata.org/entity/Q28935156",)]


def test_an_abbreviation_learned_in_one_abstract_resolves_it_in_others():
    defines = paper("p1", "We use the Long Range Arena (LRA).",
                    {"Dataset": [{"name": "Long Range Arena", "aliases": ["LRA"]}]})
    bare = paper("p2", "Results on LRA.", {"Dataset": [{"name": "LRA"}]})
    long_only = paper("p3", "Results on Long Range Arena.", {"Dataset": [{"name": "Long Range Arena"}]})
    builds = [load(order) for order in itertools.permutations([defines, bare, long_only])]
    first = quads(builds[0])
    assert all(quads(b) == first for b in builds[1:])
    datasets = entity_labels(builds[0], "mls:Dataset")
    assert len(datasets) == 1
    iri, (pref, alts) = next(iter(datasets.items()))
    assert iri == str(iris.ID["dataset/lra"])
    assert pref in {"Long Range Arena", "LRA"} and {pref} | alts == {"Long Range Arena", "LRA"}


def test_the_bare_abbreviation_alone_keeps_its_own_node_until_defined():
    db = load([paper("p2", "Results on LRA.", {"Dataset": [{"name": "LRA"}]}),
               paper("p3", "Results on Long Range Arena.", {"Dataset": [{"name": "Long Range Arena"}]})])
    assert len(entity_labels(db, "mls:Dataset")) == 2


def test_iri_of_follows_the_names_and_what_the_last_finish_learned():
    resolver = Resolver()
    resolver.add("Dataset", ["Long Range Arena"])
    resolver.add("Dataset", ["LRA"])
    resolver.finish()
    assert resolver.iri_of("Dataset", ["LRA"]) == str(iris.ID["dataset/lra"])
    long_form = resolver.iri_of("Dataset", ["Long Range Arena"])
    assert long_form != str(iris.ID["dataset/lra"])
    # the same names, asked again or with other aliases, in another order
    assert resolver.iri_of("Dataset", ["Long Range Arena"], ["LRA"]) == long_form
    assert resolver.iri_of("Dataset", ["LRA", "Long Range Arena"]) == resolver.iri_of("Dataset", ["Long Range Arena", "LRA"])
    # a paper that defines the abbreviation joins the two at the next finish
    resolver.add("Dataset", ["Long Range Arena"], ["LRA"])
    resolver.finish()
    assert resolver.iri_of("Dataset", ["Long Range Arena"]) == str(iris.ID["dataset/lra"])


def test_an_abbreviation_with_two_long_forms_joins_nothing():
    db = load([
        paper("a", "Image super-resolution (SR) is hard.", {"Task": [{"name": "super-resolution", "aliases": ["SR"]}]}),
        paper("b", "Speech recognition (SR) is hard.", {"Task": [{"name": "speech recognition", "aliases": ["SR"]}]}),
        paper("c", "We study SR.", {"Task": [{"name": "SR"}]}),
    ])
    tasks = entity_labels(db, "mls:Task")
    assert sorted(pref for pref, _ in tasks.values()) == ["SR", "speech recognition", "super-resolution"]


def test_a_name_of_two_types_is_two_entities():
    db = load([paper("a", "X", {"Method": [{"name": "Atlas"}], "Dataset": [{"name": "Atlas"}]})])
    assert len(select(db, "SELECT DISTINCT ?e WHERE { ?e a mlkg:Entity }")) == 2


def test_preflabel_is_the_gazetteer_name_else_the_name_most_papers_use():
    db = load([paper(f"p{i}", "x", {"Method": [{"name": n}]})
               for i, n in enumerate(["Gated-Mixer", "GatedMixer", "GatedMixer", "gated mixer"])])
    (pref, alts), = entity_labels(db, "mlkg:Method").values()
    assert pref == "GatedMixer" and alts == {"Gated-Mixer", "gated mixer"}
    # Papers' own spellings stay in their graphs, the canonical one only in the entities graph.
    assert select(db, "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?e a mlkg:Entity ; skos:prefLabel ?l } }") == [(str(ENTITIES_GRAPH),)]


def test_facts_carry_paper_sentence_span_extractor_and_confidence():
    text = "We propose NovaNet. NovaNet is evaluated on CIFAR-10."
    s2 = text.index("NovaNet is")
    db = load([paper("p1", text, {"Method": [{"name": "NovaNet", "proposed": True}],
                                  "Dataset": [{"name": "CIFAR-10"}]},
                     [{"s": "NovaNet", "p": "evaluatedOn", "o": "CIFAR-10", "span": [s2, len(text)], "confidence": 0.75}],
                     sentences=[[0, s2 - 1], [s2, len(text)]])])
    rows = select(db, """SELECT ?paper ?text ?start ?end ?agent ?conf WHERE {
        ?f a rdf:Statement ; rdf:predicate mlkg:evaluatedOn ; mlkg:reportedIn ?paper ;
           prov:wasDerivedFrom ?s ; prov:wasGeneratedBy ?act ; mlkg:confidence ?conf .
        ?s mlkg:text ?text ; mlkg:start ?start ; mlkg:end ?end .
        ?act prov:wasAssociatedWith ?ag . ?ag skos:prefLabel ?agent }""")
    assert rows == [(str(iris.paper_iri("p1")), "NovaNet is evaluated on CIFAR-10.", str(s2), str(len(text)),
                     "kg-rules 9.9", "0.75")]
    assert select(db, "SELECT ?m ?d WHERE { ?m mlkg:evaluatedOn ?d }") == [
        (str(iris.ID["method/novanet"]), str(iris.ID["dataset/cifar-10"]))]
    assert select(db, "SELECT ?e WHERE { ?p mlkg:proposes ?e }") == [(str(iris.ID["method/novanet"]),)]
    # The first sentence is no fact's source: the abstract holds its text, no node does.
    assert select(db, "SELECT ?t WHERE { ?s a mlkg:Sentence ; mlkg:text ?t }") == [("NovaNet is evaluated on CIFAR-10.",)]


def test_a_relation_without_span_is_traced_to_the_sentence_mentioning_both_ends():
    text = "NovaNet is fast. NovaNet is tested on CIFAR-10."
    s2 = text.index("NovaNet is tested")
    db = load([paper("p1", text, {"Method": [{"name": "NovaNet", "mentions": [[0, 7], [s2, s2 + 7]]}],
                                  "Dataset": [{"name": "CIFAR-10", "mentions": [[len(text) - 9, len(text) - 1]]}]},
                     [{"s": "NovaNet", "p": "evaluatedOn", "o": "CIFAR-10"}],
                     sentences=[[0, s2 - 1], [s2, len(text)]])])
    assert select(db, "SELECT ?t WHERE { ?f a rdf:Statement ; prov:wasDerivedFrom ?s . ?s mlkg:text ?t }") == [
        ("NovaNet is tested on CIFAR-10.",)]


def test_results_are_nodes_with_decimal_values_units_and_gain_types():
    db = load([paper("p1", "x", {"Method": [{"name": "NovaNet"}, {"name": "ResNet-50"}],
                                 "Dataset": [{"name": "CIFAR-10"}], "Metric": [{"name": "accuracy"}]},
                     [{"s": "NovaNet", "p": "achieves", "metric": "accuracy", "value": "97.25", "unit": "%",
                       "dataset": "CIFAR-10"},
                      {"s": "NovaNet", "p": "improvesOver", "o": "ResNet-50", "metric": "accuracy",
                       "value": "2-5", "unit": "%", "gain": "relative"},
                      {"s": "NovaNet", "p": "improvesOver", "o": "the previous state of the art"}])])
    score = select(db, """SELECT ?m ?d ?metric ?v ?u WHERE { ?r a mlkg:Score ; mlkg:method ?m ; mlkg:dataset ?d ;
                          mls:specifiedBy ?metric ; mls:hasValue ?v ; mlkg:unit ?u . FILTER(datatype(?v) = xsd:decimal) }""")
    assert score == [(str(iris.ID["method/novanet"]), str(iris.ID["dataset/cifar-10"]),
                      str(iris.ID["metric/accuracy"]), "97.25", "%")]
    gain = select(db, """SELECT ?b ?lo ?hi ?g WHERE { ?r a mlkg:Improvement ; mlkg:baseline ?b ;
                         mlkg:minValue ?lo ; mls:hasValue ?hi ; mlkg:gainType ?g }""")
    assert gain == [(str(iris.ID["method/resnet-50"]), "2", "5", "https://w3id.org/mlkg/ontology#RelativeGain")]
    local = select(db, "SELECT ?b ?l WHERE { ?r a mlkg:Improvement ; mlkg:baseline ?b . ?b a mlkg:Baseline ; skos:prefLabel ?l }")
    assert local == [(str(iris.local_baseline_iri("p1", "the previous state of the art")), "the previous state of the art")]


def test_leaderboard_orders_by_number_not_by_text():
    papers = [paper(f"p{i}", "x", {"Method": [{"name": name}], "Dataset": [{"name": "CIFAR10"}],
                                   "Metric": [{"name": "accuracy"}]},
                    [{"s": name, "p": "achieves", "metric": "accuracy", "value": value, "dataset": "CIFAR10"}])
              for i, (name, value) in enumerate([("Alpha", "9.5"), ("Beta", "85"), ("Gamma", "10.25")])]
    rows = select(load(papers), """SELECT ?method ?v WHERE {
        ?r a mlkg:Score ; mlkg:dataset ?d ; mls:specifiedBy ?m ; mls:hasValue ?v ; mlkg:method ?e .
        ?d skos:prefLabel "CIFAR-10" . ?m skos:prefLabel "accuracy" . ?e skos:prefLabel ?method
    } ORDER BY DESC(?v)""")
    assert rows == [("Beta", "85"), ("Gamma", "10.25"), ("Alpha", "9.5")]


def test_names_relations_use_but_entities_lack_still_become_typed_entities():
    db = load([paper("p1", "x", {}, [{"s": "NovaNet", "p": "addresses", "o": "image captioning"}])])
    assert select(db, "SELECT DISTINCT ?l WHERE { ?e a mls:Task ; skos:prefLabel ?l }") == [("image captioning",)]
    assert select(db, "SELECT DISTINCT ?l WHERE { ?e a mlkg:Method ; skos:prefLabel ?l }") == [("NovaNet",)]


def test_value_parsing():
    assert parse_value("6.4") == (Decimal("6.4"), Decimal("6.4"))
    assert parse_value("2-5") == (Decimal(2), Decimal(5))
    assert parse_value("1,024") == (Decimal(1024), Decimal(1024))
    assert parse_value("n/a") == (None, None)


def test_removing_papers_and_recomputing_leaves_no_orphans():
    db = load([paper("p1", "x", {"Method": [{"name": "NovaNet"}], "Dataset": [{"name": "CIFAR-10"}]}),
               paper("p2", "y", {"Dataset": [{"name": "CIFAR10"}]})])
    db.remove_graph(ox.NamedNode(str(iris.paper_graph_iri("p1"))))
    canonicalise(db, Resolver(GAZETTEER))
    assert orphans(db) == []
    assert [pref for pref, _ in entity_labels(db, "mlkg:Entity").values()] == ["CIFAR-10"]
    assert entity_labels(db, "mls:Dataset")[str(iris.ID["dataset/cifar-10"])][1] == {"CIFAR10"}


NAMES = ["Long Range Arena", "LRA", "long-range arena", "CIFAR10", "Canadian Institute for Advanced Research 10",
         "GatedMixer", "Gated Mixer", "GM"]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(NAMES), st.lists(st.sampled_from(NAMES), max_size=2)),
                min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_the_graph_does_not_depend_on_the_order_papers_arrive_in(namings, rnd):
    papers = [paper(f"p{i}", "x", {"Dataset": [{"name": n, "aliases": a}]}) for i, (n, a) in enumerate(namings)]
    shuffled = papers[:]
    rnd.shuffle(shuffled)
    assert quads(load(papers)) == quads(load(shuffled))
