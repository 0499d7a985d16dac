"""Training the tagger: spaCy's `ner` component with a small convolutional
token-to-vector layer of its own, on kg's tokens.

The layer is kept small (width 64, depth 2) because the tagger runs on
every abstract and title kg reads: at spaCy's default size it costs five
times kg's rules; at this size, under the budget of benchmarks/README.md,
for a few points of F1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

import spacy
from spacy.language import Language
from spacy.training import Example
from spacy.util import minibatch

from kg.learned.examples import examples
from kg.model import Abstract
from kg.nlp.tokenizer import tokenizer_with_rules

LABELS = ("Method", "Dataset", "Task", "Metric")


@dataclass(frozen=True)
class TaggerSettings:
    """The tagger's size and how long it trains."""

    epochs: int = 8
    width: int = 64
    depth: int = 2
    embed_rows: int = 2000
    hidden: int = 48
    dropout: float = 0.2
    seed: int = 0

    def model_config(self) -> dict:
        return {"model": {
            "@architectures": "spacy.TransitionBasedParser.v2", "state_type": "ner",
            "extra_state_tokens": False, "hidden_width": self.hidden, "maxout_pieces": 2, "use_upper": True,
            "tok2vec": {"@architectures": "spacy.HashEmbedCNN.v2", "pretrained_vectors": None,
                        "width": self.width, "depth": self.depth, "embed_size": self.embed_rows,
                        "window_size": 1, "maxout_pieces": 2, "subword_features": True}}}


def blank_tagger(settings: TaggerSettings, rules: Sequence[str] = (), labels: Sequence[str] = LABELS) -> Language:
    """A blank English Language with kg's tokenizer and an untrained `ner`
    (with no `labels`, to be read from bytes that hold them)."""
    nlp = spacy.blank("en")
    nlp.tokenizer = tokenizer_with_rules(list(rules))(nlp)
    ner = nlp.add_pipe("ner", config=settings.model_config())
    for label in labels:
        ner.add_label(label)
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
            on_epoch(epoch, float(losses.get("ner", 0.0)))
    return nlp


def tagger_scores(nlp: Language, pairs: Sequence[tuple[Abstract, dict]]) -> dict[str, float]:
    """The tagger's own F1 on `pairs`, over all types and per type (exact spans)."""
    scores = nlp.evaluate(list(examples(nlp, pairs)))
    out = {"all": round(float(scores["ents_f"] or 0.0), 4)}
    for label, s in (scores.get("ents_per_type") or {}).items():
        out[label] = round(float(s["f"]), 4)
    return out


def as_examples(nlp: Language, pairs: Sequence[tuple[Abstract, dict]]) -> list[Example]:
    return list(examples(nlp, pairs))
