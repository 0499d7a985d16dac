"""The tokenizer keeps scientific names whole and offsets true to the input."""

from __future__ import annotations

import pytest
import spacy
from spacy.lang.en import English
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.nlp import make_pipeline
from kg.nlp.tokenizer import cleaning_tokenizer, install

_PIPELINE = make_pipeline()


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    install(nlp)
    return nlp


@pytest.mark.parametrize("name", [
    "ResNet-50", "BDD100K", "CIFAR-10", "GPT-4o", "Llama-3-8B-Instruct", "BERT-base", "R-CNN",
    "mAP@0.5", "F1", "3DGS", "7.9%", "e.g.", "i.e.", "vs.", "al.",
])
def test_scientific_names_stay_one_token(nlp, name: str) -> None:
    doc = nlp(f"We compare it with {name} here.")
    assert name in [t.text for t in doc]


def test_sentence_final_stop_is_split_off_a_name(nlp) -> None:
    assert [t.text for t in nlp("The backbone is ViT.")][-2:] == ["ViT", "."]
    assert [t.text for t in nlp("It reaches 81.3%.")][-2:] == ["81.3%", "."]


def test_brackets_and_em_dashes_still_split(nlp) -> None:
    words = [t.text for t in nlp("Models (LSLMs) work—mostly.")]
    assert words == ["Models", "(", "LSLMs", ")", "work", "—", "mostly", "."]


def test_offsets_point_into_the_original_text(nlp) -> None:
    text = r"We train \textbf{GlowNet} on $\mathcal{D}$ with 3.5\% error."
    doc = nlp(text)
    assert len(doc.text) == len(text)
    tok = next(t for t in doc if t.text == "GlowNet")
    assert text[tok.idx:tok.idx + len(tok.text)] == "GlowNet"


def test_the_text_tokenizer_remembers_a_whole_fields_vocabulary() -> None:
    """spaCy's default cache of 10,000 chunks is smaller than the vocabulary of
    a few hundred abstracts; past it, chunks are split anew on every use."""
    from kg.nlp.pipeline import TEXT_TOKENIZER_CACHE, make_pipeline

    nlp = make_pipeline()
    assert nlp.tokenizer.inner.max_cache_size == TEXT_TOKENIZER_CACHE >= 100_000


def test_the_pipelines_tokenizer_is_the_installed_one(nlp) -> None:
    """make_pipeline has the Language build the tokenizer (so that spaCy's
    default one is not built first for nothing): the same rules either way."""
    built = English(create_tokenizer=cleaning_tokenizer).tokenizer.inner
    installed = nlp.tokenizer.inner
    assert built.rules == installed.rules
    for rule in ("prefix_search", "suffix_search", "infix_finditer", "token_match", "url_match"):
        a, b = getattr(built, rule), getattr(installed, rule)
        assert (a and a.__self__.pattern) == (b and b.__self__.pattern), rule


# Pieces of generated texts for plain_words: plain words, special cases made of
# letters and digits, words a rule splits, and the spacing between them.
_PIECES = ["BERT", "ImageNet", "x", "GPT4", "10", "10km", "5K", "Xs", "cannot", "Cannot", "10am", "dont", "gonna",
           "al", "e", "g", "s", "US", "it", "naïve", "ResNet-50", "A.", "(", "'s", "$", "\\emph", "&amp;", ",", "."]
_SPACES = [" ", " ", " ", "  ", "\n", "\t", ""]


@given(st.lists(st.tuples(st.sampled_from(_PIECES), st.sampled_from(_SPACES)), min_size=1, max_size=6))
@settings(max_examples=400, deadline=None)
def test_plain_words_are_the_tokens(pieces: list[tuple[str, str]]) -> None:
    """plain_words, which the gazetteer uses in place of tokenizing its names,
    is the tokenizer's own split whenever it gives one."""
    tokenizer = _PIPELINE.tokenizer
    text = "".join(piece + space for piece, space in pieces).strip(" ")
    words = tokenizer.plain_words(text)
    if words is not None:
        assert words == [t.text for t in tokenizer(text)], text


def test_plain_words_are_only_plain_words() -> None:
    tokenizer = _PIPELINE.tokenizer
    assert tokenizer.plain_words("semantic segmentation") == ["semantic", "segmentation"]
    assert tokenizer.plain_words("GPT4 10km") == ["GPT4", "10km"]
    for text in ("cannot", "Cannot", "10am", "ResNet-50", "two  spaces", " lead", "naïve", "A.", "e.g.", ""):
        assert tokenizer.plain_words(text) is None, text
    alnum_rules = [r for r in tokenizer.inner.rules if r.isascii() and r.isalnum()]
    assert alnum_rules and all(tokenizer.plain_words(r) is None for r in alnum_rules)


# The characters the affix rules name and others: ASCII, apostrophes, quotes,
# dashes, symbols, letters of other scripts, odd spaces.
_CHARS = [chr(c) for c in range(32, 127)] + list("’‘“”«»…—–°§£€¥©®™½²³·•→∞±×µéïüßÅΩλж中あ한😀\u00a0\u2009\n")


def _shortcut_and_regex(word: str) -> tuple[tuple, tuple]:
    """(suffix span, infix spans) as the tokenizer's shortcuts and as the bare regexes find them."""
    inner = _PIPELINE.tokenizer.inner
    suffixes, infixes = inner.suffix_search.__self__, inner.infix_finditer.__self__

    def spans(suffix, infix) -> tuple:
        return (suffix and suffix.span()), tuple(m.span() for m in infix)

    return (spans(suffixes.search(word), infixes.finditer(word)),
            spans(suffixes.regex.search(word), infixes.regex.finditer(word)))


def test_affix_shortcuts_on_every_word_of_two_characters() -> None:
    for a in [""] + _CHARS:
        for b in _CHARS:
            fast, slow = _shortcut_and_regex(a + b)
            assert fast == slow, repr(a + b)


@pytest.mark.parametrize("word", ["a--b", "x...y", "a.B", "a,b", "a:b", "a/b", "a<b", "a=b", "a>b", "x—y", "x–y",
                                  "it's", "IT'S", "it’s", "its", "10%", "US$10", "10US$", "°F.", "GPT-4o.", "(x)"])
def test_affix_shortcuts_on_words_the_rules_split(word: str) -> None:
    fast, slow = _shortcut_and_regex(word)
    assert fast == slow
    assert slow != (None, ()) or word in ("its", "10%", "US$10")  # the others do split


@given(st.lists(st.sampled_from(_CHARS + ["'s", "’s", "US$", "°F.", "...", "--", "a.B", "10"]), max_size=10))
@settings(max_examples=1000, deadline=None)
def test_affix_shortcuts_find_what_the_regexes_find(pieces: list[str]) -> None:
    fast, slow = _shortcut_and_regex("".join(pieces))
    assert fast == slow
