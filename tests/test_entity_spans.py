"""kg_entities writes doc.spans["entities"] with the spans' extensions, and
the same entities as plain values (settled_entities) for kg's own readers:
both must agree, and spans set by hand must win over those settled."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import Doc, Span

from kg.nlp import SPAN_KEY, make_pipeline
from kg.nlp.entities import Entity, settled_entities

TEXT = ("We propose QuillNet, a novel model for reef mapping. QuillNet beats BERT on GLUE and on the "
        "balanced error rate (BER) of ImageNet; its BER is lower than that of ResNet-50.")


@pytest.fixture(scope="module")
def nlp():
    return make_pipeline(relations=False)


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
    # (Doc.copy and Doc.to_bytes fail on the Spans kept in user_data by kg_abbreviations.)
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
    doc.user_data["kg_candidates"] = []  # only the abbreviation pairs are left
    nlp.get_pipe("kg_entities")(doc)
    again = settled_entities(doc)
    assert 0 < len(again) < len(first)
    assert _as_entities(doc) == again


def test_proposed_name_is_written_as_doc_underscore(nlp) -> None:
    doc = nlp(TEXT)
    assert doc._.proposed_name == "QuillNet"
    assert nlp("Nothing is proposed here.")._.proposed_name is None


_WORD_PIECES = ["BER", "BERs", "BE", "R", "s", "NUMBER", "(", ")", "-", "ER", "the", "B", "BERT"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_WORD_PIECES), st.sampled_from(["", " ", "  "])), max_size=25),
       st.sets(st.sampled_from(_WORD_PIECES + ["", "BERTs"]), max_size=3), st.integers(0, 26))
def test_word_positions_are_the_positions_of_the_words(tokens, words, start) -> None:
    from kg.nlp.entities import word_positions
    from kg.nlp.tokens import positions

    texts = tuple(t for t, _ in tokens)
    idxs, text = [], ""
    for t, space in tokens:
        idxs.append(len(text))
        text += t + space
    assert word_positions(texts, tuple(idxs), text, words, start) == positions(texts, words, start)


def _select_one_by_one(cands: list) -> list:
    """kg.nlp.entities._select as first written: each candidate's strength
    found by visiting every token it covers."""
    by_start: dict[int, list] = {}
    for c in cands:
        by_start.setdefault(c.start, []).append(c)

    def strength(c) -> int:
        best = c.rank
        if c.end - c.start > 1:
            for start in range(c.start, c.end):
                for o in by_start.get(start, ()):
                    if o is not c and o.label == c.label and o.end <= c.end \
                            and (o.end - o.start) < (c.end - c.start) and o.source not in ("proposal", "abbreviation"):
                        best = max(best, o.rank)
        return best

    scored = sorted(cands, key=lambda c: (-strength(c), -(c.end - c.start), c.start))
    taken = bytearray(max((c.end for c in cands), default=0))
    chosen = []
    for c in scored:
        if any(taken[c.start:c.end]):
            continue
        taken[c.start:c.end] = b"\x01" * (c.end - c.start)
        chosen.append(c)
    return sorted(chosen, key=lambda c: c.start)


_CANDIDATE = st.tuples(st.integers(0, 12), st.integers(1, 4), st.sampled_from(["Method", "Task"]),
                       st.sampled_from(["proposal", "abbreviation", "gazetteer", "variant", "cue", "name", "head"]))


@settings(max_examples=500, deadline=None)
@given(st.lists(_CANDIDATE, max_size=16))
def test_select_chooses_as_first_written(specs) -> None:
    from kg.nlp.candidates import Candidate
    from kg.nlp.entities import _select

    cands = [Candidate(start, start + size, label, source) for start, size, label, source in specs]
    assert [id(c) for c in _select(cands, 16)] == [id(c) for c in _select_one_by_one(cands)]


@pytest.mark.parametrize("text", [
    "The Speech Task Audio Benchmark (STAB) is new. We propose STAB, and STAB-2 beats STAB on it.",
    "A Saliency Attention Filter R-CNN (SAF R-CNN) is fast. We present SAF R-CNN; SAF R-CNNs follow.",
    "Balanced error rate (BER) and bit error rate (BER) differ. Then BER, BER and BERs.",
    "No pairs here at all.",
])
def test_short_form_use_at_a_token_is_short_form_uses_there(nlp, text) -> None:
    from kg.nlp.abbreviations import abbreviation_pairs, short_form_uses
    from kg.nlp.proposals import _short_form_use
    from kg.nlp.tokens import view_columns

    doc = nlp(text)
    uses = short_form_uses(doc)
    texts = view_columns(doc)[0]
    for k in range(len(doc)):
        assert _short_form_use(texts, abbreviation_pairs(doc), k) == uses.get(k)
