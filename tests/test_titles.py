"""A paper's title and the name it gives the paper's work (kg.proposals.titles),
on titles and abstracts written for these tests."""

from __future__ import annotations

import json

import pytest

from kg import rules
from kg.extraction.record import Extractor
from kg.graph.build import record_quads
from kg.model import Abstract
from kg.entities.lexicon import lexicon
from kg.proposals.titles import title_head, title_rules

import pyoxigraph as ox

ABSTRACT = ("We present a new network for ranking the nodes of a graph. LoomNet weaves neighbourhoods "
            "into one vector. Our method outperforms GraphSAGE on Cora.")
NO_NAME = "We present a new network for ranking the nodes of a graph. Our method outperforms GraphSAGE on Cora."


@pytest.fixture(scope="module")
def extractor() -> Extractor:
    return Extractor()


def record(extractor: Extractor, title: str, text: str = ABSTRACT) -> dict:
    return extractor.record(Abstract("p1", text, title=title))


def proposed(rec: dict) -> set[tuple[str, str]]:
    return {(e["name"], t) for t, ents in rec["entities"].items() for e in ents if e.get("proposed")}


def evaluated(rec: dict) -> set[tuple[str, str]]:
    return {(r["s"], r["o"]) for r in rec["relations"] if r["p"] == "evaluatedOn"}


# -- the head of a title ----------------------------------------------------------------
def head(title: str):
    words, _, rest = title.partition(":")
    return title_head(words.split(), rest.split(), title_rules(), lexicon())


@pytest.mark.parametrize("title, name, label", [
    ("LoomNet: Fast Graph Weaving for Node Ranking", "LoomNet", "Method"),
    ("Loom Weaving Networks: Ranking Nodes at Scale", "Loom Weaving Networks", "Method"),
    ("Mixture of Looms: Sparse Experts for Graphs", "Mixture of Looms", "Method"),
    ("The Loom Learning Environment: A Playground for Graph Agents", "Loom Learning Environment",
     "Dataset"),
    ("LoomQA: Questions about Woven Graphs", "LoomQA", "Dataset"),
    ("LoomSet: A Benchmark for Node Ranking", "LoomSet", "Dataset"),
    ("Loom v2.1: Faster Ranking", "Loom v2.1", "Method"),
])
def test_a_head_that_names(title, name, label):
    got = head(title)
    assert got is not None and (got.text, got.label) == (name, label)


@pytest.mark.parametrize("title", [
    "Lifting Nodes from the Graph: Ranking at Scale",      # a phrase, not a name
    "Rethinking Node Ranking: A Simple Baseline",          # what the paper does
    "Graph Node Classification: Methods and Limits",       # a task
    "Graph Neural Networks: A Survey",                     # the topic of a survey
    "LoomNets: Lessons from Five Years of Weaving",        # a retrospective
    "Weaving graphs for ranking: a study",                 # lower-case words
    "A Very Long Head That Goes On Too Far: Really",       # more words than a name has
])
def test_a_head_that_does_not(title):
    assert head(title) is None


# -- the component, through the extractor -------------------------------------------------------
def test_the_abstracts_mentions_of_the_titles_name_are_the_proposal(extractor):
    rec = record(extractor, "LoomNet: Fast Graph Weaving for Node Ranking")
    assert ("LoomNet", "Method") in proposed(rec)
    assert ("LoomNet", "Cora") in evaluated(rec)
    loom = next(e for e in rec["entities"]["Method"] if e["name"] == "LoomNet")
    assert loom["mentions"]


def test_a_dash_sets_off_the_head_too(extractor):
    assert ("LoomNet", "Method") in proposed(record(extractor, "LoomNet - Fast Graph Weaving for Node Ranking"))


def test_without_a_title_nothing_changes(extractor):
    with_title = record(extractor, "LoomNet: Fast Graph Weaving for Node Ranking")
    without = record(extractor, "")
    assert ("LoomNet", "Method") not in proposed(without)
    assert with_title["entities"]["Dataset"] == without["entities"]["Dataset"]


def test_title_opening_words_ending_in_a_method_head(extractor):
    text = "Loom weaving networks rank nodes. We show that loom weaving networks beat GraphSAGE on Cora."
    rec = record(extractor, "Loom Weaving Networks for Node Ranking", text)
    assert ("Loom weaving networks", "Method") in proposed(rec)


def test_a_name_like_word_the_title_and_abstract_share(extractor):
    text = "We rank nodes with two coupled-LoomNets that read each other. Results on Cora are strong."
    rec = record(extractor, "Ranking Graph Nodes with Coupled-LoomNets", text)
    assert ("coupled-LoomNets", "Method") in proposed(rec)


def test_a_shared_word_is_not_the_proposal_where_the_abstract_names_one(extractor):
    text = "We propose QuillRank, built on a LoomNet encoder. QuillRank beats GraphSAGE on Cora."
    rec = record(extractor, "Ranking Graph Nodes with an Improved LoomNet", text)
    assert ("QuillRank", "Method") in proposed(rec)
    assert ("LoomNet", "Method") not in proposed(rec)


def test_a_shared_word_the_gazetteer_knows_is_not_the_proposal(extractor):
    text = "We rank nodes with BERT features and a small head. Results on Cora are strong."
    rec = record(extractor, "Ranking Graph Nodes with BERT", text)
    assert ("BERT", "Method") not in proposed(rec)


# -- a name only the title writes ------------------------------------------------------------
def test_a_name_only_the_title_writes_is_the_proposal_without_mentions(extractor):
    rec = record(extractor, "LoomNet: Fast Graph Weaving for Node Ranking", NO_NAME)
    loom = [e for e in rec["entities"]["Method"] if e["name"] == "LoomNet"]
    assert loom and loom[0]["proposed"] and loom[0]["mentions"] == []
    assert ("LoomNet", "Cora") in evaluated(rec)
    assert ("LoomNet", "GraphSAGE") in {(r["s"], r["o"]) for r in rec["relations"] if r["p"] == "improvesOver"}


def test_a_name_only_the_title_writes_goes_into_the_graph(extractor):
    ab = Abstract("p1", NO_NAME, title="LoomNet: Fast Graph Weaving for Node Ranking")
    db = ox.Store()
    db.extend(record_quads(ab, extractor.record(ab)))
    rows = db.query("""PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
                       SELECT ?n WHERE { ?p mlkg:proposes ?e . ?e mlkg:surfaceName ?n }""",
                    use_default_graph_as_union=True)
    assert {row[0].value for row in rows} == {"LoomNet"}


def test_a_dataset_only_the_title_names_is_not_a_subject(extractor):
    rec = record(extractor, "LoomSet: A Benchmark for Node Ranking", NO_NAME)
    assert ("LoomSet", "Dataset") in proposed(rec)
    assert all(r["s"] != "LoomSet" for r in rec["relations"])


# -- the rules file -----------------------------------------------------------------------------
def test_a_rules_file_reaches_the_title_rules(tmp_path):
    path = tmp_path / "titles.json"
    path.write_text(json.dumps({"titles": {"extend": {"dataset_words": ["weaving"]}}}), encoding="utf-8")
    title = "LoomNet: Fast Graph Weaving for Node Ranking"
    assert ("LoomNet", "Method") in proposed(Extractor().record(Abstract("p1", ABSTRACT, title=title)))
    custom = Extractor(rules=[path]).record(Abstract("p1", ABSTRACT, title=title))
    assert ("LoomNet", "Dataset") in proposed(custom)


def test_every_key_is_documented():
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    for key in rules.load("titles"):
        assert f"| `{key}` |" in doc, key


def test_a_batch_reads_each_abstracts_own_title(extractor):
    abstracts = [Abstract("p1", ABSTRACT, title="LoomNet: Fast Graph Weaving for Node Ranking"),
                 Abstract("p2", ABSTRACT),
                 Abstract("p3", NO_NAME, title="LoomNet: Fast Graph Weaving for Node Ranking")]
    batch = [rec for _, rec in extractor.records(abstracts, batch_size=2)]
    assert batch == [extractor.record(ab) for ab in abstracts]
    assert [("LoomNet", "Method") in proposed(rec) for rec in batch] == [True, False, True]


def test_a_title_head_the_abstract_writes_as_a_short_form_is_no_second_entity(extractor):
    text = "We propose loom weaving networks (LWN) for ranking. LWN beats GraphSAGE on Cora."
    rec = record(extractor, "LWN: Loom Weaving for Node Ranking", text)
    names = [e["name"] for e in rec["entities"]["Method"]]
    assert "LWN" not in names and "loom weaving networks" in names


@pytest.mark.parametrize("word", rules.load("titles")["opening_name_ends"])
def test_each_opening_name_end_ends_the_titles_opening_name(extractor, word):
    text = "Loom weaving networks rank nodes. We show that loom weaving networks beat GraphSAGE on Cora."
    assert ("Loom weaving networks", "Method") in proposed(record(extractor, f"Loom Weaving Networks {word} Node Ranking",
                                                                 text))
    assert ("Loom weaving networks", "Method") not in proposed(record(extractor, "Loom Weaving Networks zzz Node "
                                                                                 "Ranking", text))


def test_an_opening_name_end_added_by_a_rules_file(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"titles": {"extend": {"opening_name_ends": ["zzz"]}}}), encoding="utf-8")
    text = "Loom weaving networks rank nodes. We show that loom weaving networks beat GraphSAGE on Cora."
    rec = Extractor(rules=[path]).record(Abstract("p1", text, title="Loom Weaving Networks zzz Node Ranking"))
    assert ("Loom weaving networks", "Method") in proposed(rec)


# -- entity_types: the names the title itself holds ------------------------------------------------
def test_a_task_only_the_title_names_joins_the_record_with_its_place(extractor):
    title = "LoomNet: Graph Weaving for Question Answering"
    rec = record(extractor, title, "We propose LoomNet and test it on TideSet.")
    tasks = {e["name"]: e for e in rec["entities"]["Task"]}
    assert "Question Answering" in tasks
    start, end = tasks["Question Answering"]["title_mentions"][0]
    assert title[start:end] == "Question Answering" and tasks["Question Answering"]["mentions"] == []


def test_a_name_both_write_keeps_its_abstract_mentions_and_gains_its_title_place(extractor):
    title = "Weaving Graphs for Question Answering"
    rec = record(extractor, title, "We propose LoomNet for question answering and test it on TideSet.")
    task = next(e for e in rec["entities"]["Task"] if e["name"].lower() == "question answering")
    assert len(task["mentions"]) == 1 and len(task["title_mentions"]) == 1


def test_emptied_entity_types_keep_the_titles_names_out(tmp_path):
    path = tmp_path / "titles.json"
    path.write_text(json.dumps({"titles": {"replace": {"entity_types": []}}}), encoding="utf-8")
    abstract = Abstract("p1", "We propose LoomNet and test it on TideSet.",
                        title="LoomNet: Graph Weaving for Question Answering")
    # entity_types is the rules' setting; the learned tagger reads titles for every type
    assert "Question Answering" in json.dumps(Extractor(use_model=False).record(abstract))
    assert "Question Answering" not in json.dumps(Extractor(rules=[path], use_model=False).record(abstract))
