"""What is not a method name, on sentences written for these tests."""

from __future__ import annotations

import pytest

from kg.nlp import make_pipeline


@pytest.fixture(scope="module")
def nlp():
    return make_pipeline()


def entities(nlp, text: str) -> set[tuple[str, str]]:
    doc = nlp(text)
    return {(s.text, s.label_) for s in doc.spans["entities"]}


@pytest.mark.parametrize("text", [
    "We train 1B/3B/8B variants and 70M-1B variants with 1.45G operations.",  # sizes
    "Training runs on V100 and H100s in a day.",  # hardware
    "It beats non-BERT rankers on short queries.",  # negated name
    "QuollNet-pretrained and ReLU-activated encoders differ; XAI-methods disagree.",  # hyphenated adjectives
    "Progress towards AGI needs XAI tools.",  # fields, not methods
])
def test_not_method_names(nlp, text):
    assert not any(label in ("Method", "Dataset") for _, label in entities(nlp, text))
