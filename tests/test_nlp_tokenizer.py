"""The tokenizer keeps scientific names whole and offsets true to the input."""

from __future__ import annotations

import pytest
import spacy
from spacy.lang.en import English

from kg.nlp.tokenizer import cleaning_tokenizer, install


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
    from kg.pipeline import TEXT_TOKENIZER_CACHE, entity_pipeline

    nlp = entity_pipeline()
    assert nlp.tokenizer.inner.max_cache_size == TEXT_TOKENIZER_CACHE >= 100_000


def test_the_pipelines_tokenizer_is_the_installed_one(nlp) -> None:
    """entity_pipeline has the Language build the tokenizer (so that spaCy's
    default one is not built first for nothing): the same rules either way."""
    built = English(create_tokenizer=cleaning_tokenizer).tokenizer.inner
    installed = nlp.tokenizer.inner
    assert built.rules == installed.rules
    for rule in ("prefix_search", "suffix_search", "infix_finditer", "token_match", "url_match"):
        a, b = getattr(built, rule), getattr(installed, rule)
        assert (a and a.__self__.pattern) == (b and b.__self__.pattern), rule
