"""Ready questions (kg/queries/*.rq) on the demo corpus, parameter binding, and the query guard."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.sparql.guard import QueryRefused, check_query, is_update
from kg.sparql.ready import (ReadyQuestionError, parse_params, parse_ready_question, ready_question,
                             ready_questions, sparql_string, store_spellings)
from kg.store import KGStore

EXPECTED = {"methods-on-dataset", "datasets-for-task", "improvements", "leaderboard", "proposals-for-task",
            "top-datasets", "co-used-datasets", "fact-sources", "find-entity"}


@pytest.fixture(scope="module")
def store(demo_build):
    return KGStore.at(demo_build, read_only=True)


def ask(store: KGStore, question: str, **params) -> list[dict[str, str]]:
    text = ready_question(question).bind(params, store_spellings(store.db))
    results = store.query(text)
    names = [v.value for v in results.variables]
    return [{n: (row[n].value if row[n] is not None else None) for n in names} for row in results]


# -- the library --------------------------------------------------------------
def test_every_issue_question_is_shipped_and_documented():
    questions = ready_questions()
    assert EXPECTED <= set(questions)
    for q in questions.values():
        assert q.title != q.name and q.about, q.name
        for p in q.params:
            assert p.default and p.help, (q.name, p.name)


def test_every_question_parses_with_oxigraph_and_rdflib():
    from rdflib.plugins.sparql import prepareQuery

    empty = ox.Store()
    for q in ready_questions().values():
        answer = empty.query(q.bind(), use_default_graph_as_union=True)  # a syntax error raises here
        columns = [v.value for v in answer.variables]
        # both engines read the same columns, in the same order, from the file
        assert columns and columns == [str(v) for v in prepareQuery(q.bind()).algebra["PV"]], q.name
        assert list(answer) == [], q.name


# -- answers on the demo corpus -------------------------------------------------
def test_methods_evaluated_on_a_dataset(store):
    methods = {r["methodLabel"] for r in ask(store, "methods-on-dataset", dataset="CIFAR-10")}
    assert "HeliosNet" in methods


def test_dataset_names_match_in_any_case_and_by_alias(store):
    exact = ask(store, "methods-on-dataset", dataset="CIFAR-10")
    assert exact
    assert ask(store, "methods-on-dataset", dataset="cifar-10") == exact
    assert ask(store, "methods-on-dataset", dataset="CIFAR10") == exact


def test_datasets_used_for_a_task(store):
    datasets = {r["datasetLabel"] for r in ask(store, "datasets-for-task", task="image classification")}
    assert {"CIFAR-10", "ImageNet"} <= datasets


def test_what_a_method_improved_over_and_by_how_much(store):
    rows = ask(store, "improvements", method="HeliosNet")
    row = next(r for r in rows if r["baselineLabel"] == "ResNet-50")
    assert row["value"] is not None and float(row["value"]) == 3.1
    assert row["paperId"] == "demo-01" and "ResNet-50" in row["sentence"]


def test_leaderboard_orders_error_metrics_lowest_first(store):
    rows = ask(store, "leaderboard", dataset="LibriSpeech", metric="WER")
    assert rows and rows[0]["methodLabel"] == "LumaASR"
    values = [float(r["value"]) for r in rows]
    assert values == sorted(values)


def test_leaderboard_orders_accuracy_highest_first(store):
    rows = ask(store, "leaderboard", dataset="ImageNet", metric="top-1 accuracy")
    values = [float(r["value"]) for r in rows]
    assert len(values) >= 2 and values == sorted(values, reverse=True)


def test_papers_proposing_a_method_for_a_task(store):
    rows = ask(store, "proposals-for-task", task="image classification")
    assert any(r["paperId"] == "demo-01" and r["methodLabel"] == "HeliosNet" for r in rows)


def test_most_used_datasets(store):
    rows = ask(store, "top-datasets")
    counts = [int(r["papers"]) for r in rows]
    assert counts == sorted(counts, reverse=True)
    assert {"CIFAR-10", "ImageNet"} <= {r["datasetLabel"] for r in rows[:3]}


def test_datasets_used_together(store):
    rows = ask(store, "co-used-datasets", dataset="CIFAR-10")
    others = {r["otherLabel"] for r in rows}
    assert "CIFAR-100" in others and "CIFAR-10" not in others


def test_every_paper_and_sentence_behind_a_fact(store):
    rows = ask(store, "fact-sources", subject="HeliosNet", relation="evaluatedOn", object="CIFAR-10")
    assert rows and all(r["relationName"] == "evaluatedOn" for r in rows)
    assert any("CIFAR-10" in (r["sentence"] or "") for r in rows)
    any_relation = ask(store, "fact-sources", subject="HeliosNet", relation="", object="ResNet-50")
    assert {r["relationName"] for r in any_relation} == {"improvesOver"}


def test_find_an_entity_by_an_alias(store):
    rows = ask(store, "find-entity", name="cifar10")
    assert len(rows) == 1
    assert rows[0]["type"] == "Dataset" and rows[0]["label"] == "CIFAR-10"
    assert "CIFAR10" in rows[0]["aliases"]


# -- answers on records written here --------------------------------------------
# Each branch and flag of a question seen with rows: the demo corpus has no paper
# that proposes a method for a task without stating so, and kg's own builds give every
# improvesOver statement a result node, where another tool's graph (or an older build)
# may hold the statement alone.
def hand_store(records: list[dict], drop=lambda quad: False) -> ox.Store:
    from kg.graph.canonical import entity_resolver
    from kg.graph.build import record_quads
    from kg.graph.entities import canonicalise
    from kg.model import Abstract

    db, resolver = ox.Store(), entity_resolver()
    for rec in records:
        quads = record_quads(Abstract(id=rec["id"], text=rec["text"], title=rec["id"]), rec, resolver)
        db.extend(q for q in quads if not drop(q))
    canonicalise(db, resolver)
    return db


def ask_db(db: ox.Store, question: str, **params) -> list[dict[str, str]]:
    text = ready_question(question).bind(params, store_spellings(db))
    results = db.query(text, use_default_graph_as_union=True)
    names = [v.value for v in results.variables]
    return [{n: (row[n].value if row[n] is not None else None) for n in names} for row in results]


def paper(pid: str, text: str, entities: dict, relations: list[dict]) -> dict:
    return {"id": pid, "text": text, "entities": {k: [{"name": n} if isinstance(n, str) else n for n in v]
                                                  for k, v in entities.items()}, "relations": relations}


def test_improvements_show_a_statement_without_a_result_node_once():
    text = "FooNet improves over BarNet by 2.0 points on QuillSet."
    ents = {"Method": [{"name": "FooNet", "proposed": True}, "BarNet"], "Dataset": ["QuillSet"]}
    rel = [{"s": "FooNet", "p": "improvesOver", "o": "BarNet", "value": "2.0", "unit": "points",
            "dataset": "QuillSet"}]
    db = hand_store([paper("with-result", text, ents, rel), paper("statement-only", text, ents, rel)],
                    drop=lambda q: "/paper/statement-only/result/" in q.subject.value)
    rows = ask_db(db, "improvements", method="foonet")
    assert sorted(r["paperId"] for r in rows) == ["statement-only", "with-result"]
    by_paper = {r["paperId"]: r for r in rows}
    assert by_paper["with-result"]["value"] is not None and float(by_paper["with-result"]["value"]) == 2.0
    assert by_paper["with-result"]["datasetLabel"] == "QuillSet"
    assert by_paper["statement-only"]["value"] is None  # the statement carries no value
    assert all(r["baselineLabel"] == "BarNet" for r in rows)


def test_proposals_tell_whether_the_paper_states_the_task():
    task = {"Task": ["glyph segmentation"]}
    db = hand_store([
        paper("states", "We propose FooNet for glyph segmentation.",
              {"Method": [{"name": "FooNet", "proposed": True}], **task},
              [{"s": "FooNet", "p": "addresses", "o": "glyph segmentation"}]),
        paper("silent", "We propose QuuxNet. Glyph segmentation is hard.",
              {"Method": [{"name": "QuuxNet", "proposed": True}], **task}, []),
        paper("other-method", "We propose ZapNet. BarNet addresses glyph segmentation.",
              {"Method": [{"name": "ZapNet", "proposed": True}, "BarNet"], **task},
              [{"s": "BarNet", "p": "addresses", "o": "glyph segmentation"}]),
    ])
    rows = ask_db(db, "proposals-for-task", task="Glyph Segmentation")
    stated = {(r["paperId"], r["methodLabel"]): r["addressesStated"] for r in rows}
    assert stated == {("states", "FooNet"): "true", ("silent", "QuuxNet"): "false",
                      ("other-method", "ZapNet"): "false"}
    assert rows[0]["paperId"] == "states"  # stated first


def test_datasets_for_a_task_count_papers_and_evaluations():
    task = {"Task": ["glyph segmentation"]}
    db = hand_store([
        paper("a", "FooNet is evaluated on QuillSet for glyph segmentation.",
              {"Method": ["FooNet"], "Dataset": ["QuillSet"], **task},
              [{"s": "FooNet", "p": "evaluatedOn", "o": "QuillSet"}]),
        paper("b", "QuillSet and InkBench serve glyph segmentation.",
              {"Dataset": ["QuillSet", "InkBench"], **task}, []),
        paper("c", "BarNet is evaluated on InkBench for glyph segmentation.",
              {"Method": ["BarNet"], "Dataset": ["InkBench"], **task},
              [{"s": "BarNet", "p": "evaluatedOn", "o": "InkBench"}]),
        paper("d", "BarNet is evaluated on QuillSet.",  # not about the task: counted nowhere
              {"Method": ["BarNet"], "Dataset": ["QuillSet"]},
              [{"s": "BarNet", "p": "evaluatedOn", "o": "QuillSet"}]),
    ])
    rows = ask_db(db, "datasets-for-task", task="glyph segmentation")
    assert [(r["datasetLabel"], r["papers"], r["evaluatedIn"]) for r in rows] == [
        ("InkBench", "2", "1"), ("QuillSet", "2", "1")]


def test_co_used_datasets_leave_out_the_dataset_and_other_entities():
    db = hand_store([
        paper("a", "FooNet is evaluated on QuillSet and InkBench.",
              {"Method": ["FooNet"], "Dataset": ["QuillSet", "InkBench"]}, []),
        paper("b", "QuillSet, InkBench and GlyphNet-1K are used.",
              {"Dataset": ["QuillSet", "InkBench", "GlyphNet-1K"]}, []),
    ])
    rows = ask_db(db, "co-used-datasets", dataset="quillset")
    assert [(r["otherLabel"], r["sharedPapers"]) for r in rows] == [("InkBench", "2"), ("GlyphNet-1K", "1")]


# -- binding parameters --------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_any_text_binds_as_exactly_that_literal(value):
    q = parse_ready_question("echo", '# param: x = a -- any text\nSELECT ?x WHERE {\n  VALUES ?x { "a" }\n}\n')
    rows = list(ox.Store().query(q.bind({"x": value})))
    assert [r["x"].value for r in rows] == [value]


def test_injection_attempt_stays_a_value():
    hostile = '" } SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } VALUES ?x { "'
    q = parse_ready_question("echo", '# param: x = a -- any text\nSELECT ?x WHERE {\n  VALUES ?x { "a" }\n}\n')
    text = q.bind({"x": hostile})
    check_query(text)  # no SERVICE clause: the text is only a literal
    assert [r["x"].value for r in ox.Store().query(text)] == [hostile]


def test_unknown_or_missing_parameters_are_errors():
    q = ready_question("leaderboard")
    with pytest.raises(ReadyQuestionError, match="no parameter 'datset'"):
        q.bind({"datset": "x"})
    with pytest.raises(ReadyQuestionError, match="no ready question"):
        ready_question("no-such-question")
    with pytest.raises(ReadyQuestionError, match="NAME=VALUE"):
        parse_params(["dataset"])
    assert parse_params(["metric=F1=macro"]) == {"metric": "F1=macro"}


def test_a_param_without_its_values_line_is_rejected():
    with pytest.raises(ReadyQuestionError, match="VALUES"):
        parse_ready_question("bad", "# param: x = 1 -- help\nSELECT * WHERE { ?s ?p ?x }\n")


def test_sparql_string_escapes():
    assert sparql_string('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'


# -- the guard -----------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
    "select * where { service silent <http://example.org/sparql> { ?s ?p ?o } }",
    "PREFIX ex: <http://example.org/>\nSELECT * WHERE { ?s ?p ?o OPTIONAL { SERVICE ?endpoint { ?s ?p ?o } } }",
    "ASK { { SELECT * WHERE { SeRvIcE <http://example.org/> { ?a ?b ?c } } } }",
    # a comment-and-IRI trick that a keyword scan could misread
    'SELECT * WHERE { ?a ?b ?c FILTER(?a<?b)#>"""\n SERVICE <http://example.org/> { ?a ?b ?c }\n#"""\n}',
    "SELECT * WHERE { SERVICE <http://example.org/> { ?s ?p ?o }",  # unparseable: refused, not risked
])
def test_service_is_refused(text):
    with pytest.raises(QueryRefused) as err:
        check_query(text)
    assert err.value.kind == "service"


@pytest.mark.parametrize("text", [
    'SELECT ?t WHERE { ?p <http://purl.org/dc/terms/title> ?t FILTER(CONTAINS(LCASE(?t), "web service")) }',
    "PREFIX service: <http://example.org/service#>\nSELECT ?service WHERE { ?service a service:Service }",
    "SELECT * WHERE { ?s ?p ?o }",
])
def test_queries_that_only_mention_service_run(text):
    check_query(text)


@pytest.mark.parametrize("text", [
    "INSERT DATA { <http://a/b> <http://a/c> <http://a/d> }",
    "PREFIX ex: <http://example.org/> # a comment\nDELETE WHERE { ?s ex:p ?o }",
    "  load <http://example.org/data.ttl>",
    "DROP ALL",
    "WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
])
def test_updates_are_refused(text):
    assert is_update(text)
    with pytest.raises(QueryRefused) as err:
        check_query(text)
    assert err.value.kind == "update"


def test_queries_are_not_updates():
    assert not is_update("PREFIX insert: <http://example.org/>\nSELECT * WHERE { ?s insert:p ?o }")
    assert not is_update("# DELETE everything? no\nASK { ?s ?p ?o }")
