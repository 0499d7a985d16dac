"""Property-based tests (Hypothesis): readers, text clean-up, extractor and
IRIs on arbitrary Unicode and arbitrary bytes. No crash; every offset lies in
the text and points at the entity it names; every IRI parses back."""

from __future__ import annotations

import json
import tempfile
import unicodedata
from pathlib import Path

import pyoxigraph as ox
import rdflib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.graph import iris
from kg.io.readers import MAX_ID_CHARS, ReadReport, read_inputs
from kg.io.text import MAX_ABSTRACT_CHARS, clean_text
from kg.model import Abstract
from kg.nlp.cleanup import clean as clean_markup

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Every code point, surrogates and controls included: what json.loads can hand over.
ANY_CHAR = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
ANY_TEXT = st.text(ANY_CHAR, max_size=300)
# Words an abstract is made of, so the extractor's rules fire, mixed with noise.
VOCAB = ["We", "propose", "introduce", "GridNet", "(GN)", "GN", "outperforms", "beats", "ResNet-50", "BERT",
         "on", "ImageNet", "CIFAR-10", "SQuAD", "for", "image", "classification", "question", "answering",
         "accuracy", "F1", "BLEU", "of", "with", "by", "81.2%", "3x", "points", "the", "previous", "state",
         "art", ".", ",", ";", "\n", "called", "named", "achieves", "reaches", "evaluated", "improves", "over"]
ABSTRACTS = st.lists(st.one_of(st.sampled_from(VOCAB), st.sampled_from(VOCAB), st.text(ANY_CHAR, max_size=6)),
                     max_size=60).map(" ".join)

_EXTRACTOR = None


def extractor():
    global _EXTRACTOR
    if _EXTRACTOR is None:
        from kg.extraction.record import Extractor
        _EXTRACTOR = Extractor()
    return _EXTRACTOR


def read_bytes_as(data: bytes, suffix: str) -> tuple[list[Abstract], ReadReport, Path]:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"input{suffix}"
        path.write_bytes(data)
        report = ReadReport()
        return list(read_inputs([path], report)), report, path


def assert_clean_abstract(ab: Abstract) -> None:
    assert ab.text.strip() and len(ab.text) <= MAX_ABSTRACT_CHARS
    assert ab.id and len(ab.id) <= MAX_ID_CHARS
    for s in (ab.text, ab.id, ab.title):
        s.encode("utf-8")  # no lone surrogates
        assert not any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in s)


# -- readers ----------------------------------------------------------------------
@SETTINGS
@given(st.binary(max_size=2000), st.sampled_from([".jsonl", ".csv", ".txt"]))
def test_readers_never_crash_on_arbitrary_bytes(data, suffix):
    abstracts, report, path = read_bytes_as(data, suffix)
    for ab in abstracts:
        assert_clean_abstract(ab)
        assert ab.source == str(path) and ab.line >= 1
    for skip in report.skipped:
        assert skip.source == str(path) and skip.reason
    assert report.read == len(abstracts)


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT,
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3),
                           max_leaves=8)
ROWS = st.fixed_dictionaries({}, optional={"id": st.one_of(ANY_TEXT, st.integers(), JSON_VALUES),
                                           "title": st.one_of(ANY_TEXT, JSON_VALUES),
                                           "abstract": st.one_of(ANY_TEXT, ABSTRACTS, JSON_VALUES)})


@SETTINGS
@given(st.lists(ROWS, max_size=6), st.booleans())
def test_jsonl_rows_of_any_shape(rows, crlf):
    sep = "\r\n" if crlf else "\n"
    data = sep.join(json.dumps(r, ensure_ascii=True) for r in rows).encode()
    abstracts, report, _ = read_bytes_as(data, ".jsonl")
    for ab in abstracts:
        assert_clean_abstract(ab)
    # every non-blank row is either read, skipped or a reported duplicate
    assert len(abstracts) + len(report.skipped) + sum("duplicate" in w for w in report.warnings) == len(rows) or not rows


# -- text clean-up ------------------------------------------------------------------
@SETTINGS
@given(ANY_TEXT)
def test_clean_text_keeps_length_and_removes_controls(text):
    cleaned, n = clean_text(text)
    assert len(cleaned) == len(text)
    assert n == sum(a != b for a, b in zip(text, cleaned))
    cleaned.encode("utf-8")
    assert clean_text(cleaned) == (cleaned, 0)
    assert not any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in cleaned)


@SETTINGS
@given(st.one_of(ANY_TEXT, ABSTRACTS, st.text(st.sampled_from("\\{}$~*_`&<>#;abc x0123456789i/"), max_size=80)))
def test_markup_clean_up_keeps_length(text):
    text = clean_text(text)[0]
    assert len(clean_markup(text)) == len(text)


# -- extractor ----------------------------------------------------------------------
def _norm(s: str) -> str:
    return " ".join(s.casefold().split())


@SETTINGS
@given(st.one_of(ABSTRACTS, ANY_TEXT))
def test_extractor_offsets_lie_in_the_text_and_name_the_entity(raw):
    text = clean_text(raw)[0]
    if not text.strip():
        return
    rec = extractor().record(Abstract(id="p", text=text))
    n = len(text)
    names = set()
    for etype, ents in rec["entities"].items():
        for ent in ents:
            names.add(ent["name"])
            forms = {_norm(ent["name"])} | {_norm(a) for a in ent.get("aliases", [])}
            assert ent["mentions"], ent
            for start, end in ent["mentions"]:
                assert 0 <= start < end <= n
                assert _norm(text[start:end]) in forms, (etype, ent, text[start:end])
    last = 0
    for start, end in rec["sentences"]:
        assert last <= start <= end <= n
        last = end
    for rel in rec["relations"]:
        start, end = rel["span"]
        assert 0 <= start <= end <= n
        assert rel["s"] in names, rel
        if rel["p"] in ("evaluatedOn", "addresses"):
            assert rel["o"] in names, rel
    json.dumps(rec, ensure_ascii=False).encode("utf-8")


# -- IRIs ----------------------------------------------------------------------------
def assert_iri_parses(iri) -> None:
    value = str(iri)
    node = ox.NamedNode(value)  # raises ValueError on an invalid IRI
    assert node.value == value
    ref = rdflib.URIRef(value)
    assert ref.n3() == f"<{value}>"
    # and it survives a round trip through N-Triples
    nt = f"<{value}> <http://example.org/p> <{value}> .\n"
    (triple,) = list(ox.parse(nt, ox.RdfFormat.N_TRIPLES))
    assert triple.subject.value == value


ETYPES = st.sampled_from(["Method", "Dataset", "Task", "Metric"])


@SETTINGS
@given(ANY_TEXT.map(lambda s: clean_text(s)[0]), ANY_TEXT.map(lambda s: clean_text(s)[0]), ETYPES,
       st.integers(min_value=0, max_value=10**6))
def test_every_iri_parses_back(name, paper_id, etype, index):
    paper_id = paper_id or "p"
    for iri in (iris.entity_iri(etype, name), iris.paper_iri(paper_id), iris.paper_graph_iri(paper_id),
                iris.sentence_iri(paper_id, index), iris.fact_iri(paper_id, index), iris.result_iri(paper_id, index),
                iris.local_baseline_iri(paper_id, name)):
        assert_iri_parses(iri)
    assert iris.paper_id_of_graph(str(iris.paper_graph_iri(paper_id))) == paper_id
