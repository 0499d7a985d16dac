"""kg's learned parts on their own: where gold names stand, BILUO tags read
back into names, the linear models, the tagger's candidates, the scorer and
the linker on Docs built from sentences written for these tests."""

from __future__ import annotations

import json

import pytest
import spacy

from kg.learned.examples import gold_doc, tagged_spans
from kg.learned.linear import LinearModel, fit
from kg.learned.matching import gold_entity, same_name
from kg.learned.mentions import gold_mentions
from kg.learned.tagger import LearnedCandidates
from kg.nlp.tokenizer import tokenizer_with_rules

RECORD = {"id": "p1", "entities": {
    "Method": [{"name": "QuillNet", "proposed": True}, {"name": "Residual Network", "aliases": ["ResNet"]}],
    "Dataset": [{"name": "TideSet-2"}], "Task": [{"name": "road sign detection"}], "Metric": []},
    "relations": []}
TEXT = "We propose QuillNet for road sign detection. QuillNet beats a Residual Network (ResNet) on TideSet-2."


def test_gold_mentions_are_every_whole_word_find_longest_first() -> None:
    found = [(TEXT[f.start:f.end], f.label, f.name) for f in gold_mentions(RECORD, TEXT)]
    assert found == [("QuillNet", "Method", "QuillNet"), ("road sign detection", "Task", "road sign detection"),
                     ("QuillNet", "Method", "QuillNet"), ("Residual Network", "Method", "Residual Network"),
                     ("ResNet", "Method", "Residual Network"), ("TideSet-2", "Dataset", "TideSet-2")]
    # "TideSet" alone is no find inside "TideSet-2"; a case the text does not write is found in any case
    other = {"entities": {"Method": [], "Dataset": [{"name": "TideSet"}], "Task": [{"name": "Road Sign Detection"}],
                          "Metric": []}}
    assert [TEXT[f.start:f.end] for f in gold_mentions(other, TEXT)] == ["road sign detection"]


def test_a_gold_doc_carries_its_names_as_ents_and_biluo_tags() -> None:
    nlp = spacy.blank("en")
    nlp.tokenizer = tokenizer_with_rules([])(nlp)
    doc = gold_doc(nlp, TEXT, RECORD)
    assert [(e.text, e.label_) for e in doc.ents][:2] == [("QuillNet", "Method"), ("road sign detection", "Task")]
    tags = [t.tag_ for t in doc]
    assert tags[doc.ents[1].start:doc.ents[1].end] == ["B-Task", "I-Task", "L-Task"]
    assert tagged_spans(tags) == [(e.start, e.end, e.label_) for e in doc.ents]


@pytest.mark.parametrize("tags, spans", [
    (["O", "U-Method", "O"], [(1, 2, "Method")]),
    (["B-Task", "I-Task", "L-Task"], [(0, 3, "Task")]),
    (["I-Task", "L-Task", "O"], [(0, 2, "Task")]),              # no B: the name begins where its tags do
    (["B-Task", "I-Task"], [(0, 2, "Task")]),                   # never ends: to the end
    (["B-Task", "L-Method"], [(0, 1, "Task"), (1, 2, "Method")]),  # another label: another name
    (["B-Task", "O", "L-Task"], [(0, 1, "Task"), (2, 3, "Task")]),
    (["O", "O"], []),
])
def test_tags_that_do_not_fit_together_still_give_names(tags, spans) -> None:
    assert tagged_spans(tags) == spans


def test_names_match_as_the_scorer_matches_them() -> None:
    assert same_name("ResNet", "ResNet-50") and same_name("Transformers", "transformer")
    assert not same_name("Net", "ResNet-50")
    assert gold_entity(["resnet"], RECORD, ["Method"])[1]["name"] == "Residual Network"
    assert gold_entity(["TideSet-2"], RECORD, ["Method"]) is None


def test_a_fitted_linear_model_is_plain_data_that_predicts_the_same() -> None:
    rows = [{"word=net": 1.0}, {"word=net": 1.0, "title": 1.0}, {"word=loss": 1.0}, {"word=loss": 1.0}] * 5
    labels = ["Method", "Method", "none", "none"] * 5
    model = fit(rows, labels, c=10.0)
    again = LinearModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again.best({"word=net": 1.0})[0] == "Method" and again.best({"word=loss": 1.0})[0] == "none"
    assert again.scores({"word=net": 1.0}) == model.scores({"word=net": 1.0})
    assert abs(sum(model.scores({"unseen": 1.0})) - 1.0) < 1e-9


def test_learned_candidates_follow_the_parts() -> None:
    nlp = spacy.blank("en")
    doc = nlp("We test QuillNet on TideSet today")
    for token, tag in zip(doc, ["O", "O", "U-Method", "O", "U-Dataset", "O"]):
        token.tag_ = tag
    from kg.entities.candidates import Candidate, candidates

    candidates(doc).append(Candidate(4, 5, "Dataset", "gazetteer"))
    LearnedCandidates({"Method": "both", "Dataset": "learned"})(doc)
    assert [(c.start, c.label, c.source) for c in candidates(doc)] == [(2, "Method", "learned"),
                                                                       (4, "Dataset", "learned")]
    assert [(e.text, e.label_) for e in doc.ents] == [("QuillNet", "Method"), ("TideSet", "Dataset")]
    with pytest.raises(ValueError, match="parts must be one of"):
        LearnedCandidates({"Method": "sometimes"})
