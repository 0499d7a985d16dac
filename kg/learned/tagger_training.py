"""Training the tagger: spaCy's `tagger` component, named "kg_tagger", that
gives each of kg's tokens a BILUO tag ("B-Method", "I-Method", "L-Method",
"U-Dataset", "O"), with a small convolutional token-to-vector layer of its own.

A tagger rather than spaCy's `ner`: with the same token vectors, the
transition parser of `ner` costs three times a tagger's softmax, and the
learned parts run on every abstract and title kg reads (benchmarks/README.md
gives the budget). The layer is kept small (width 48, depth 2) for the same
reason. kg.learned.tagger reads the tags back into names.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

import spacy
from spacy.language import Language
from spacy.training import Example
from spacy.util import minibatch

from kg.learned.examples import examples, tagged_spans
from kg.learned.settings import TaggerSettings
from kg.model import Abstract
from kg.nlp import tokenizer  # noqa: F401  (registers kg.tokenizer.v1)

LABELS = ("Method", "Dataset", "Task", "Metric")
TAGS = ("O",) + tuple(f"{move}-{label}" for label in LABELS for move in "BILU")
NAME = "kg_tagger"


def blank_tagger(settings: TaggerSettings, rules: Sequence[str] = (), tags: Sequence[str] = TAGS) -> Language:
    """A blank English Language with kg's tokenizer and an untrained tagger
    (with no `tags`, to be read from bytes that hold them)."""
    nlp = spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": "kg.tokenizer.v1", "rules": list(rules)}}})
    tagger = nlp.add_pipe("tagger", name=NAME, config=settings.model_config())
    for tag in tags:
        tagger.add_label(tag)
    return nlp


def train_tagger(pairs: Sequence[tuple[Abstract, dict]], settings: TaggerSettings, rules: Sequence[str] = (),
                 on_epoch: Callable[[int, float], None] | None = None) -> Language:
    """A tagger trained on the gold `pairs` (abstract, record) for
    `settings.epochs` passes; `on_epoch(epoch, loss)` hears of each pass."""
    nlp = blank_tagger(settings, rules)
    train = list(examples(nlp, pairs))
    spacy.util.fix_random_seed(settings.seed)
    optimizer = nlp.initialize(lambda: train)
    order = random.Random(settings.seed)
    for epoch in range(settings.epochs):
        order.shuffle(train)
        losses: dict[str, float] = {}
        for batch in minibatch(train, size=16):
            nlp.update(batch, drop=settings.dropout, sgd=optimizer, losses=losses)
        if on_epoch is not None:
            on_epoch(epoch, float(losses.get(NAME, 0.0)))
    return nlp


def tagger_scores(nlp: Language, pairs: Sequence[tuple[Abstract, dict]]) -> dict[str, float]:
    """The tagger's own F1 on `pairs`, over all types and per type (exact spans)."""
    found = {label: [0, 0, 0] for label in LABELS}  # right, predicted, gold
    for example in examples(nlp, pairs):
        doc = nlp.get_pipe(NAME)(nlp.make_doc(example.reference.text))
        predicted = {(s, e, label) for s, e, label in tagged_spans([t.tag_ for t in doc])}
        gold = {(ent.start, ent.end, ent.label_) for ent in example.reference.ents}
        for label in LABELS:
            p = {x for x in predicted if x[2] == label}
            g = {x for x in gold if x[2] == label}
            found[label][0] += len(p & g)
            found[label][1] += len(p)
            found[label][2] += len(g)

    def f1(right: int, predicted: int, gold: int) -> float:
        return round(2 * right / (predicted + gold), 4) if predicted + gold else 0.0

    out = {"all": f1(*(sum(v[k] for v in found.values()) for k in range(3)))}
    out.update({label: f1(*v) for label, v in found.items()})
    return out


def as_examples(nlp: Language, pairs: Sequence[tuple[Abstract, dict]]) -> list[Example]:
    return list(examples(nlp, pairs))
