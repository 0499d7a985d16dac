"""The graph side on its own: its vocabulary matches the ontology, it reads
gazetteer files without spaCy, and it names the file and line of a bad one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import rdflib

from kg.cli import main
from kg.graph import nodes, vocab
from kg.io import gazetteer_files

ROOT = Path(__file__).resolve().parents[1]


def test_building_the_graph_side_does_not_import_spacy(tmp_path):
    extra = tmp_path / "datasets.jsonl"
    extra.write_text(json.dumps({"name": "Quokka-Set", "aliases": ["QKS"]}) + "\n", encoding="utf-8")
    script = textwrap.dedent(f"""
        import sys
        import pyoxigraph as ox
        from kg.graph.canonical import entity_resolver
        from kg.graph.build import record_quads
        from kg.graph.entities import canonicalise
        from kg.model import Abstract

        text = "We train a small net on QKS."
        record = {{"id": "p1", "sentences": [[0, len(text)]], "relations": [],
                   "entities": {{"Dataset": [{{"name": "QKS", "mentions": [[24, 27]]}}]}}}}
        resolver = entity_resolver([{str(extra)!r}])
        store = ox.Store()
        store.extend(record_quads(Abstract(id="p1", text=text), record, resolver))
        canonicalise(store, resolver)
        labels = {{q.object.value for q in store.quads_for_pattern(None, None, None, None)
                  if q.predicate.value.endswith("prefLabel")}}
        assert "Quokka-Set" in labels, labels
        loaded = sorted(m for m in sys.modules if m == "spacy" or m.startswith(("spacy.", "kg.nlp", "kg.entities", "kg.proposals", "kg.relations", "kg.extraction", "kg.pipeline")))
        print(loaded)
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_bad_gazetteer_file_is_named_with_its_line(tmp_path):
    bad = tmp_path / "mine.jsonl"
    bad.write_text('# my names\n{"name": "Good", "type": "Task"}\n\n{"name": "Bad", "type": "Model"}\n',
                   encoding="utf-8")
    with pytest.raises(gazetteer_files.GazetteerError, match=r"mine\.jsonl:4: 'type' must be one of"):
        gazetteer_files.load([bad])
    with pytest.raises(gazetteer_files.GazetteerError, match="no such gazetteer file"):
        gazetteer_files.load_file(tmp_path / "none.jsonl")


def test_a_file_named_by_type_gives_its_entries_that_type(tmp_path):
    path = tmp_path / "metrics.jsonl"
    path.write_text(json.dumps({"name": "Top-1 accuracy", "aliases": [" top1 ", ""],
                                "exactMatch": "https://example.org/top1"}) + "\n", encoding="utf-8")
    (entry,) = gazetteer_files.load_file(path)
    assert (entry.name, entry.type, entry.aliases, entry.exact_match) == \
        ("Top-1 accuracy", "Metric", ["top1"], ["https://example.org/top1"])


def test_a_bad_gazetteer_stops_a_removal_with_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n", encoding="utf-8")
    assert main(["remove", "p1", "-o", str(tmp_path / "out"), "--gazetteer", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "kg: error: gazetteer:" in err and "bad.jsonl:1:" in err


def test_our_vocabulary_is_the_ontology_s():
    onto = rdflib.Graph().parse(ROOT / "schemas" / "ontology.ttl")
    prefix = str(vocab.MLKG)
    declared = {str(s)[len(prefix):] for s in onto.subjects() if str(s).startswith(prefix)}
    assert declared == set(vocab.MLKG.__annotations__)


def test_a_term_missing_from_a_closed_vocabulary_fails():
    with pytest.raises(AttributeError):
        vocab.MLKG.evaluatedIn
    with pytest.raises(AttributeError):
        nodes.MLKG.evaluatedIn
    assert nodes.PROV.wasDerivedFrom.value == str(vocab.PROV.wasDerivedFrom)
