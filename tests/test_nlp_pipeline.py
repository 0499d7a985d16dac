"""The pipeline's Docs carry spaCy's English lexical attributes, so rules
and users can read any of them."""

from __future__ import annotations

import pytest

from kg.pipeline import entity_pipeline


@pytest.fixture(scope="module")
def nlp():
    return entity_pipeline()


def test_lexical_attributes_read_as_in_spacys_english(nlp) -> None:
    doc = nlp("The model reaches 81.3% on ImageNet (see https://example.org/kg) and isn't slower.")
    tokens = {t.text: t for t in doc}
    assert tokens["The"].is_stop and tokens["and"].is_stop and not tokens["ImageNet"].is_stop
    assert tokens["https://example.org/kg"].like_url and not tokens["model"].like_url
    assert tokens["ImageNet"].shape_ == "XxxxxXxx" and tokens["81.3%"].shape_ == "dd.d%"
    assert tokens["The"].norm_ == "the" and tokens["n't"].norm_ == "not"
    assert nlp("twenty models")[0].like_num
