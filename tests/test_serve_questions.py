"""Ready questions find names in any case through one indexed lookup: the build
stores each name's lowercase form (skos:hiddenLabel) where it is not a name
already, and the lookup finds exactly what a comparison of every label finds."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from kg.graph.entities import hidden_labels
from kg.sparql.ready import (SPELLINGS_QUERY, SPELLINGS_SCAN_QUERY, ready_question, ready_questions,
                             sparql_string, store_spellings)
from kg.store import store_path

SKOS = "http://www.w3.org/2004/02/skos/core#"


def test_hidden_labels_are_the_lowercase_forms_that_are_not_names():
    assert hidden_labels(["CIFAR-10", "cifar-10", "ImageNet", "image classification"]) == ["imagenet"]
    assert hidden_labels(["FooNet", "FOONET"]) == ["foonet"]
    assert hidden_labels(["bleu"]) == []


@pytest.fixture(scope="module")
def store(demo_build):
    return ox.Store.read_only(str(store_path(demo_build)))


def labels(store) -> list[str]:
    rows = store.query(f"SELECT DISTINCT ?l WHERE {{ {{ ?e <{SKOS}prefLabel> ?l }} UNION {{ ?e <{SKOS}altLabel> ?l }} }}",
                       use_default_graph_as_union=True)
    return sorted(row[0].value for row in rows)


def test_the_build_stores_hidden_labels(store):
    assert bool(store.query(f"ASK {{ ?e <{SKOS}hiddenLabel> \"cifar-10\" }}", use_default_graph_as_union=True))


def test_indexed_lookup_finds_what_the_scan_finds(store):
    names = labels(store)
    assert len(names) > 50
    for name in names:
        for asked in {name, name.lower(), name.upper(), name.title()}:
            indexed = sorted(r[0].value for r in store.query(
                SPELLINGS_QUERY % (sparql_string(asked), sparql_string(asked.lower())), use_default_graph_as_union=True))
            scanned = sorted(r[0].value for r in store.query(
                SPELLINGS_SCAN_QUERY % sparql_string(asked), use_default_graph_as_union=True))
            assert indexed == scanned, asked


def test_ready_questions_answer_a_name_in_any_case_alike(store):
    spell = store_spellings(store)
    for name, values in [("methods-on-dataset", {"dataset": "CIFAR-10"}), ("find-entity", {"name": "CIFAR10"}),
                         ("datasets-for-task", {"task": "image classification"})]:
        q = ready_question(name)
        exact = list(store.query(q.bind(values, spell), use_default_graph_as_union=True))
        assert exact, name
        for variant in (str.lower, str.upper):
            other = {k: variant(v) for k, v in values.items()}
            assert [list(map(str, r)) for r in store.query(q.bind(other, spell), use_default_graph_as_union=True)] \
                == [list(map(str, r)) for r in exact], (name, other)


@pytest.mark.parametrize("name", sorted(ready_questions()))
def test_every_ready_question_runs_on_the_demo(store, name):
    text = ready_question(name).bind({}, store_spellings(store))
    answer = store.query(text, use_default_graph_as_union=True)
    columns = [v.value for v in answer.variables]
    rows = list(answer)
    # each example value is one the demo corpus holds, so each question has an answer there
    assert rows, name
    assert all(len(row) == len(columns) for row in rows)
