"""Incremental builds: `kg build --update` and `kg remove` on real extraction
of abstracts written for these tests."""

from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.builder import build
from kg.cli import main
from kg.graph import iris
from kg.store import KGStore, StoreError
from kg.update import remove, update
from tests.test_shapes import quads

ABSTRACTS = {
    "t-1": "We propose OrchidNet, a compact convolutional network for image classification. "
           "OrchidNet reaches 96.1% accuracy on CIFAR-10 and outperforms ResNet-50.",
    "t-2": "We introduce PebbleGAN for image generation. Experiments on CIFAR10 show that PebbleGAN "
           "improves FID over StyleGAN2.",
    "t-3": "We present MarlinASR, a streaming model for speech recognition. MarlinASR is evaluated on "
           "LibriSpeech, where it reaches a word error rate of 2.9%.",
}
NEW_TEXT = ("We propose OrchidNet, a sparse transformer for semantic segmentation. "
            "OrchidNet is evaluated on Cityscapes.")


def write_jsonl(path: Path, items: dict[str, str]) -> Path:
    with open(path, "w", encoding="utf-8") as fh:
        for pid, text in items.items():
            fh.write(json.dumps({"id": pid, "title": f"Paper {pid}", "abstract": text}) + "\n")
    return path


def paper_graph_quads(out: Path, pid: str) -> set[str]:
    g = str(iris.paper_graph_iri(pid))
    return {q for q in quads(out) if q.endswith(f"<{g}>")}


def ttl_triples(out: Path) -> list[str]:
    """graph.ttl's triples as sorted N-Triples lines; fails on a repeated triple."""
    lines = [str(t) for t in ox.parse(path=str(out / "graph.ttl"), format=ox.RdfFormat.TURTLE)]
    assert len(lines) == len(set(lines))
    return sorted(lines)


def ttl_prefixes(out: Path) -> set[str]:
    return {line for line in (out / "graph.ttl").read_text(encoding="utf-8").splitlines() if line.startswith("@prefix")}


def record_ids(out: Path) -> list[str]:
    return [json.loads(line)["id"] for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("corpus")
    write_jsonl(d / "first.jsonl", {k: ABSTRACTS[k] for k in ("t-1", "t-2")})
    write_jsonl(d / "second.jsonl", {"t-3": ABSTRACTS["t-3"]})
    write_jsonl(d / "all.jsonl", ABSTRACTS)
    write_jsonl(d / "changed.jsonl", {"t-1": NEW_TEXT})
    return d


@pytest.fixture(scope="module")
def fresh_all(corpus, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("fresh")
    build([corpus / "all.jsonl"], out, view=False)
    return out


@pytest.fixture
def first_built(corpus, tmp_path) -> Path:
    out = tmp_path / "out"
    build([corpus / "first.jsonl"], out, view=False)
    return out


def test_update_adds_papers_and_matches_a_fresh_build(corpus, first_built, fresh_all):
    summary = update([corpus / "second.jsonl"], first_built, view=False)
    assert summary.added == ["t-3"] and not summary.replaced
    assert quads(first_built) == quads(fresh_all)
    assert sorted(record_ids(first_built)) == ["t-1", "t-2", "t-3"]
    # The same graph with the same prefixes; not the same bytes: a fresh build
    # writes graph.ttl as papers stream in, an update from the store (kg.graph.union).
    assert ttl_triples(first_built) == ttl_triples(fresh_all)
    assert ttl_prefixes(first_built) == ttl_prefixes(fresh_all)


def test_adding_the_same_abstracts_again_changes_nothing(corpus, fresh_all):
    before = quads(fresh_all)
    records = (fresh_all / "records.jsonl").read_bytes()
    summary = update([corpus / "all.jsonl"], fresh_all, view=False)
    assert summary.unchanged == 3 and not summary.changed
    assert quads(fresh_all) == before
    assert (fresh_all / "records.jsonl").read_bytes() == records


def test_a_known_id_with_new_text_replaces_its_facts(corpus, first_built):
    other_before = paper_graph_quads(first_built, "t-2")
    summary = update([corpus / "changed.jsonl"], first_built, view=False)
    assert summary.replaced == ["t-1"] and not summary.added
    store = KGStore.at(first_built, read_only=True)
    texts = {row["t"].value for row in store.query(
        f"SELECT ?t WHERE {{ GRAPH <{iris.paper_graph_iri('t-1')}> {{ ?s <https://w3id.org/mlkg/ontology#text> ?t }} }}")}
    store.close()
    assert any("Cityscapes" in t for t in texts)
    assert not any("CIFAR-10" in t for t in texts)
    assert paper_graph_quads(first_built, "t-2") == other_before
    assert record_ids(first_built) == ["t-1", "t-2"]
    assert "Cityscapes" in json.dumps(json.loads((first_built / "records.jsonl").read_text().splitlines()[0]))


def test_remove_takes_out_the_paper_all_its_facts_and_entities_only_it_mentioned(first_built):
    only_t1 = str(iris.ID["method/orchidnet"])
    assert any(only_t1 in q for q in quads(first_built))
    summary = remove(["t-1"], first_built, view=False)
    assert summary.removed == ["t-1"] and not summary.not_found
    after = quads(first_built)
    assert not any(str(iris.paper_iri("t-1")) in q for q in after)
    assert not any(only_t1 in q for q in after)
    store = KGStore.at(first_built, read_only=True)
    assert store.orphans() == []
    assert store.papers() == {"t-2"}
    store.close()
    assert record_ids(first_built) == ["t-2"]
    assert str(iris.paper_iri("t-1")) not in (first_built / "graph.ttl").read_text(encoding="utf-8")


def test_removing_every_paper_leaves_an_empty_graph(first_built):
    remove(["t-1", "t-2"], first_built, view=False)
    assert quads(first_built) == set()


def test_cli_remove_reports_unknown_ids_with_exit_code_1(first_built, capsys):
    assert main(["remove", "t-404", "-o", str(first_built), "--no-view"]) == 1
    assert "t-404" in capsys.readouterr().out


def test_update_without_a_build_is_a_clear_error(corpus, tmp_path, capsys):
    with pytest.raises(StoreError):
        update([corpus / "second.jsonl"], tmp_path / "nothing", view=False)
    assert main(["build", "--update", str(corpus / "second.jsonl"), "-o", str(tmp_path / "nothing")]) == 2
    assert "kg build" in capsys.readouterr().err


def test_update_in_worker_processes_matches_a_fresh_build(corpus, first_built, fresh_all):
    code = main(["build", "--update", "--workers", "2", "--no-view", "-o", str(first_built),
                 str(corpus / "second.jsonl"), str(corpus / "first.jsonl")])
    assert code == 0
    assert quads(first_built) == quads(fresh_all)
    assert sorted(record_ids(first_built)) == ["t-1", "t-2", "t-3"]
