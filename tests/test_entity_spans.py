"""doc.spans["entities"] is built only when doc.spans is first used
(kg.nlp.entities._PendingSpanGroups): every way of using doc.spans must see
the group and extension values an eager build would have written."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import Doc, Span

from kg.nlp import SPAN_KEY, make_pipeline
from kg.nlp.entities import Entity, doc_extension, set_doc_extension, settled_entities

TEXT = ("We propose QuillNet, a novel model for reef mapping. QuillNet beats BERT on GLUE and on the "
        "balanced error rate (BER) of ImageNet; its BER is lower than that of ResNet-50.")


@pytest.fixture(scope="module")
def nlp():
    return make_pipeline()


def _as_entities(doc: Doc) -> list[Entity]:
    """The entities as read from the span group through span._."""
    return [Entity(s.start, s.end, s.start_char, s.end_char, s.label_, s._.kg_name, s._.aliases, s._.proposed,
                   s._.canonical, s._.exact_match, s._.source) for s in doc.spans[SPAN_KEY]]


def test_settled_entities_do_not_build_the_group(nlp) -> None:
    doc = nlp(TEXT)
    settled = settled_entities(doc)
    assert len(settled) > 4 and any(e.proposed for e in settled)
    assert not isinstance(doc.spans.data, dict)  # still pending
    assert _as_entities(doc) == settled
    assert type(doc.spans.data) is dict  # built, and the plain dict is back
    assert settled_entities(doc) is settled


@pytest.mark.parametrize("first_use", [
    lambda doc: doc.spans[SPAN_KEY],
    lambda doc: doc.spans.get(SPAN_KEY),
    lambda doc: SPAN_KEY in doc.spans,
    lambda doc: list(doc.spans),
    lambda doc: len(doc.spans),
    lambda doc: dict(doc.spans.items()),
    lambda doc: repr(doc.spans),
    lambda doc: doc.spans.to_bytes(),
    lambda doc: doc.spans.copy(),
])
def test_any_first_use_of_doc_spans_sees_the_group(nlp, first_use) -> None:
    doc = nlp(TEXT)
    settled = list(settled_entities(doc))
    first_use(doc)
    assert list(doc.spans) == [SPAN_KEY]
    assert _as_entities(doc) == settled
    assert settled_entities(doc) == settled


def test_the_group_survives_serialisation(nlp) -> None:
    # (Doc.copy and Doc.to_bytes fail on the Spans kept in user_data by kg_abbreviations, as they did before.)
    doc = nlp(TEXT)
    settled = list(settled_entities(doc))
    blank = Doc(doc.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])
    blank.spans.from_bytes(doc.spans.to_bytes())
    assert [(s.start, s.end, s.label_) for s in blank.spans[SPAN_KEY]] == [(e.start, e.end, e.label) for e in settled]


def test_a_group_added_first_comes_after_the_entities(nlp) -> None:
    doc = nlp(TEXT)
    settled = list(settled_entities(doc))
    doc.spans["mine"] = [doc[0:1]]
    assert list(doc.spans) == [SPAN_KEY, "mine"]
    assert _as_entities(doc) == settled


def test_entities_set_by_hand_replace_the_settled_ones(nlp) -> None:
    doc = nlp(TEXT)
    settled_entities(doc)
    span = Span(doc, 2, 3, label="Method")
    span._.kg_name = "Quill"
    doc.spans[SPAN_KEY] = [span]
    assert [(e.start, e.end, e.label, e.name) for e in settled_entities(doc)] == [(2, 3, "Method", "Quill")]


@pytest.mark.parametrize("used_before", [False, True])
def test_settling_again_replaces_the_entities(nlp, used_before: bool) -> None:
    doc = nlp(TEXT)
    first = list(settled_entities(doc))
    if used_before:
        doc.spans[SPAN_KEY]  # built, extension values written
    doc.user_data["kg_candidates"] = []  # only the abbreviation pairs are left
    nlp.get_pipe("kg_entities")(doc)
    again = settled_entities(doc)
    assert 0 < len(again) < len(first)
    assert _as_entities(doc) == again


def test_a_value_set_by_hand_before_first_use_is_kept(nlp) -> None:
    doc = nlp(TEXT)
    quill = next(e for e in settled_entities(doc) if e.name == "QuillNet")
    doc[quill.start:quill.end]._.canonical = "Quill"
    assert next(s for s in doc.spans[SPAN_KEY] if s.start == quill.start)._.canonical == "Quill"


def test_proposed_name_is_written_as_doc_underscore(nlp) -> None:
    doc = nlp(TEXT)
    assert doc._.proposed_name == "QuillNet"
    assert nlp("Nothing is proposed here.")._.proposed_name is None


def test_doc_extension_helpers_are_doc_underscore(nlp) -> None:
    for name, kwargs in (("kg_test_plain", {"default": 3}), ("kg_test_got", {"getter": lambda d: len(d)})):
        if not Doc.has_extension(name):
            Doc.set_extension(name, **kwargs)
    doc = nlp("A short text.")
    assert doc_extension(doc, "kg_test_plain") == 3
    set_doc_extension(doc, "kg_test_plain", 7)
    assert doc._.kg_test_plain == 7 == doc_extension(doc, "kg_test_plain")
    assert doc_extension(doc, "kg_test_got") == len(doc)


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


def _record_entities_one_by_one(doc: Doc) -> dict[str, list[dict]]:
    """The record's entities as doc_to_record built them before it kept each
    entity's aliases aside: every mention rewrites the entity's dict."""
    from kg.nlp import ENTITY_TYPES
    from kg.nlp.entities import fold_name

    entities: dict[str, dict[str, dict]] = {t: {} for t in ENTITY_TYPES}
    for e in settled_entities(doc):
        if e.label not in entities:
            continue
        written = doc.text[e.start_char:e.end_char]
        name = e.name or written
        ent = entities[e.label].setdefault(fold_name(e.canonical or name), {"name": name})
        aliases = set(ent.get("aliases", [])) | set(e.aliases or [])
        for form in (written, name):
            if fold_name(form) != fold_name(ent["name"]):
                aliases.add(form)
        if aliases:
            ent["aliases"] = sorted(aliases)
        if e.proposed:
            ent["proposed"] = True
        if e.canonical and e.canonical != ent["name"]:
            ent["canonical"] = e.canonical
        if e.exact_match:
            ent["exactMatch"] = list(e.exact_match)
        ent.setdefault("mentions", []).append([e.start_char, e.end_char])
    return {t: list(v.values()) for t, v in entities.items()}


@pytest.mark.parametrize("text", [
    TEXT,
    "We train on CIFAR10 first. Later runs use CIFAR-10 and cifar-10, then ImageNet and Imagenet.",
    "Our tagger beats BERT. The balanced error rate (BER) drops; BERs are lower than with Bert or BERT-base.",
    "We propose KiteNets. KiteNet (KN) is fast, and KN beats BERT on GLUE, as KiteNets do.",
])
def test_record_entities_are_those_built_mention_by_mention(nlp, text) -> None:
    import json

    from kg.extract.record import _merged_entities

    doc = nlp(text)
    merged = _merged_entities(doc)
    for ents in merged.values():
        for ent in ents:
            assert 0 <= ent.pop("confidence") <= 1  # added last, from the mentions' rules (tests/test_confidence.py)
    # json.dumps keeps the key order, which the record's bytes depend on.
    assert json.dumps(merged) == json.dumps(_record_entities_one_by_one(doc))


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


def test_a_proposal_named_as_a_gazetteer_entry_is_one_entity(nlp) -> None:
    # the gazetteer's mention (canonical "DeepWalk") and the proposal's (no canonical) are one entity
    from kg.extract.record import _merged_entities

    doc = nlp("We introduce DeepWalk, a new way to embed graphs. DeepWalk is fast.")
    methods = [e for e in _merged_entities(doc)["Method"] if e["name"] == "DeepWalk"]
    assert len(methods) == 1 and len(methods[0]["mentions"]) == 2
