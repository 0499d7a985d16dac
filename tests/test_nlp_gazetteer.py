"""Gazetteers: the shipped lists, user lists, matching rules, clear errors."""

from __future__ import annotations

import json

import pytest

from kg.entities import gazetteer
from kg.pipeline import entity_pipeline
from kg.entities.lexicon import lexicon

TYPES = ("Method", "Dataset", "Task", "Metric")


def test_shipped_lists_are_full_and_well_formed() -> None:
    entries = gazetteer.load_builtin()
    counts = {t: sum(e.type == t for e in entries) for t in TYPES}
    assert counts["Dataset"] >= 300 and counts["Method"] >= 300
    assert counts["Task"] >= 150 and counts["Metric"] >= 100
    # A form names one entry of one type, so a match is never ambiguous.
    owner: dict[str, str] = {}
    for e in entries:
        for form in e.forms:
            assert owner.setdefault(form, e.type) == e.type, form


def entities(nlp, text: str) -> list[tuple[str, str]]:
    doc = nlp(text)
    return [(s.text, s.label_) for s in doc.spans["entities"]]


@pytest.fixture(scope="module")
def nlp():
    return entity_pipeline()


def test_known_names_get_their_types(nlp) -> None:
    found = entities(nlp, "We fine-tune RoBERTa with AdamW on SQuAD and report exact match and F1 "
                          "for question answering.")
    for item in [("RoBERTa", "Method"), ("AdamW", "Method"), ("SQuAD", "Dataset"), ("exact match", "Metric"),
                 ("F1", "Metric"), ("question answering", "Task")]:
        assert item in found


def test_case_rules(nlp) -> None:
    # Lower-case entries match in any case; short capitalised names only as written.
    assert ("Semantic Segmentation", "Task") in entities(nlp, "Semantic Segmentation is hard.")
    assert entities(nlp, "The glue holds and the map fits.") == []


def test_variants_of_known_names(nlp) -> None:
    found = entities(nlp, "We compare Llama-3-8B-Instruct and CIFAR-100-LT results with MATH500 scores.")
    assert ("Llama-3-8B-Instruct", "Method") in found
    assert ("CIFAR-100-LT", "Dataset") in found
    assert ("MATH500", "Dataset") in found


def test_adjectives_built_on_names_are_not_variants(nlp) -> None:
    assert [t for t, _ in entities(nlp, "A transformer-based and BERT-like encoder.")] == []
    # the lexicon's adjective halves count too
    assert [t for t, _ in entities(nlp, "A GELU-activated and SwiGLU-initialized block.")] == []


@pytest.mark.parametrize("tail", sorted(lexicon().adjective_suffixes))
def test_each_adjective_half_makes_no_variant_and_no_name(nlp, tail) -> None:
    """lexicon adjective_suffixes: "BERT-<tail>" is no variant of BERT, and
    "FooNet-<tail>" is no name ("BERT-zzz" would be both)."""
    from kg.entities.name_shapes import name_like_text

    assert entities(nlp, f"We use a BERT-{tail} encoder.") == []
    assert not name_like_text(f"FooNet-{tail}", lexicon())


def test_a_half_that_is_no_adjective_makes_a_variant(nlp) -> None:
    from kg.entities.name_shapes import name_like_text

    assert entities(nlp, "We use a BERT-zzz encoder.") == [("BERT-zzz", "Method")]
    assert name_like_text("FooNet-zzz", lexicon())


def test_known_method_names_of_many_kinds(nlp) -> None:
    found = entities(nlp, "We prune with SparseGPT and Wanda, quantize with GPTQ, use SwiGLU activations, "
                          "cluster with DBSCAN and label data with Snorkel.")
    for name in ("SparseGPT", "Wanda", "GPTQ", "SwiGLU", "DBSCAN", "Snorkel"):
        assert (name, "Method") in found
    # spellings of known entries: a hyphen, a singular short form
    found = entities(nlp, "We plan with Monte-Carlo tree search and probe one SAE per layer.")
    assert {("Monte-Carlo tree search", "Method"), ("SAE", "Method")} <= set(found)
    # activation functions are methods, not words to keep out of names
    found = entities(nlp, "A deep network with ReLU activations is compared with a GELU variant.")
    assert {("ReLU", "Method"), ("GELU", "Method")} <= set(found)


def test_a_user_gazetteer_extends_the_lists(tmp_path) -> None:
    extra = tmp_path / "mine.jsonl"
    extra.write_text(json.dumps({"name": "Quokka-Set", "type": "Dataset", "aliases": ["QKS"]}) + "\n",
                     encoding="utf-8")
    nlp = entity_pipeline([extra])
    found = entities(nlp, "We evaluate on QKS, our new collection.")
    assert ("QKS", "Dataset") in found


@pytest.mark.parametrize("line,message", [
    ("{oops", "mine.jsonl:2: malformed JSON"),
    ('{"name": "X"}', "mine.jsonl:2: 'type' must be one of"),
    ('{"name": "X", "type": "Task", "aliases": "Y"}', "mine.jsonl:2: 'aliases' must be a list"),
])
def test_bad_user_gazetteer_names_file_and_line(tmp_path, line: str, message: str) -> None:
    extra = tmp_path / "mine.jsonl"
    extra.write_text('{"name": "Good", "type": "Task"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(gazetteer.GazetteerError, match=message):
        gazetteer.load([extra])
