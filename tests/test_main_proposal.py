"""Which proposal is the subject of "our method", "we" and "it" sentences
(kg.proposals.main.main_proposal), on sentences written for these tests."""

from __future__ import annotations

from tests.test_relations import annotate, nlp, triples  # noqa: F401  (nlp is a fixture)

_ENTITIES = {"BarNorm": "Method", "FooNet": "Method", "BazNet": "Method", "CIFAR-10": "Dataset"}


def test_the_proposal_named_most_often_is_the_subject(nlp):  # noqa: F811
    # a part introduced before the system it belongs to is named less often than the system
    text = ("We first propose BarNorm, a normalisation layer. We then build FooNet on it. "
            "FooNet counts birds. FooNet is small. Our method is evaluated on CIFAR-10.")
    doc = annotate(nlp, text, _ENTITIES, proposed=("BarNorm", "FooNet"))
    assert triples(doc, "evaluatedOn") == {("FooNet", "CIFAR-10")}


def test_a_definition_names_a_proposal_once(nlp):  # noqa: F811
    # "Bar Norm (BarNorm)" is one naming, not two: on a tie the first proposal is the subject
    text = ("We propose FooNet with a Bar Norm (BarNorm) layer. FooNet counts birds. BarNorm is small. "
            "Our method is evaluated on CIFAR-10.")
    doc = annotate(nlp, text, {**_ENTITIES, "Bar Norm": "Method"}, proposed=("FooNet", "Bar Norm", "BarNorm"),
                   names={"BarNorm": "Bar Norm"})
    assert triples(doc, "evaluatedOn") == {("FooNet", "CIFAR-10")}
