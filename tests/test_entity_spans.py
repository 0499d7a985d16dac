"""kg_entities writes doc.spans["entities"] with the spans' extensions, and
the same entities as plain values (settled_entities) for kg's own readers:
both must agree, and spans set by hand must win over those settled."""

from __future__ import annotations

import pytest
from spacy.tokens import Doc, Span

from kg.entities.entity import SPAN_KEY
from kg.pipeline import entity_pipeline
from kg.entities.entity import Entity, settled_entities

TEXT = ("We propose QuillNet, a novel model for reef mapping. QuillNet beats BERT on GLUE and on the "
        "balanced error rate (BER) of ImageNet; its BER is lower than that of ResNet-50.")


@pytest.fixture(scope="module")
def nlp():
    return entity_pipeline()


def _as_entities(doc: Doc) -> list[Entity]:
    """The entities as read from the span group through span._."""
    return [Entity(s.start, s.end, s.start_char, s.end_char, s.label_, s._.kg_name, s._.aliases, s._.proposed,
                   s._.canonical, s._.exact_match, s._.source) for s in doc.spans[SPAN_KEY]]


def test_settled_entities_are_the_spans_and_their_extensions(nlp) -> None:
    doc = nlp(TEXT)
    settled = settled_entities(doc)
    assert len(settled) > 4 and any(e.proposed for e in settled)
    assert list(doc.spans) == [SPAN_KEY]
    assert _as_entities(doc) == settled
    assert doc._.kg_entities.entities is settled


def test_the_group_survives_serialisation(nlp) -> None:
    # (Doc.copy and Doc.to_bytes fail on the Spans kept in doc._.abbreviations.)
    doc = nlp(TEXT)
    settled = list(settled_entities(doc))
    blank = Doc(doc.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])
    blank.spans.from_bytes(doc.spans.to_bytes())
    assert [(s.start, s.end, s.label_) for s in blank.spans[SPAN_KEY]] == [(e.start, e.end, e.label) for e in settled]


def test_a_group_added_later_comes_after_the_entities(nlp) -> None:
    doc = nlp(TEXT)
    settled = list(settled_entities(doc))
    doc.spans["mine"] = [doc[0:1]]
    assert list(doc.spans) == [SPAN_KEY, "mine"]
    assert _as_entities(doc) == settled == settled_entities(doc)


def test_entities_set_by_hand_replace_the_settled_ones(nlp) -> None:
    doc = nlp(TEXT)
    settled_entities(doc)
    span = Span(doc, 2, 3, label="Method")
    span._.kg_name = "Quill"
    doc.spans[SPAN_KEY] = [span]
    assert [(e.start, e.end, e.label, e.name) for e in settled_entities(doc)] == [(2, 3, "Method", "Quill")]


def test_a_span_added_to_the_group_by_hand_is_read(nlp) -> None:
    doc = nlp(TEXT)
    settled = list(settled_entities(doc))
    span = Span(doc, len(doc) - 1, len(doc), label="Task")
    doc.spans[SPAN_KEY].append(span)
    assert [(e.start, e.label) for e in settled_entities(doc)] == [(e.start, e.label) for e in settled] + [
        (len(doc) - 1, "Task")]


def test_entities_of_a_doc_no_rule_settled_are_read_from_its_spans(nlp) -> None:
    doc = nlp.make_doc("QuillNet beats BERT.")
    assert settled_entities(doc) == []
    span = Span(doc, 0, 1, label="Method")
    span._.proposed = True
    doc.spans[SPAN_KEY] = [span]
    assert [(e.start, e.end, e.label, e.name, e.proposed) for e in settled_entities(doc)] == [
        (0, 1, "Method", None, True)]


def test_settling_again_replaces_the_entities(nlp) -> None:
    doc = nlp(TEXT)
    first = list(settled_entities(doc))
    doc._.kg_candidates = []  # only the abbreviation pairs are left
    nlp.get_pipe("kg_entities")(doc)
    again = settled_entities(doc)
    assert 0 < len(again) < len(first)
    assert _as_entities(doc) == again


def test_proposed_name_is_written_as_doc_underscore(nlp) -> None:
    doc = nlp(TEXT)
    assert doc._.proposed_name == "QuillNet"
    assert nlp("Nothing is proposed here.")._.proposed_name is None


def test_a_proposal_named_as_a_gazetteer_entry_is_one_entity(nlp) -> None:
    # the gazetteer's mention (canonical "DeepWalk") and the proposal's (no canonical) are one entity
    from kg.extraction.record import _merged_entities

    doc = nlp("We introduce DeepWalk, a new way to embed graphs. DeepWalk is fast.")
    methods = [e for e in _merged_entities(doc)["Method"] if e["name"] == "DeepWalk"]
    assert len(methods) == 1 and len(methods[0]["mentions"]) == 2
