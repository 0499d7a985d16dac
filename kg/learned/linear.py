"""A linear classifier over named features, stored as plain data.

kg's learned scorers decide among a few classes from features that are
names ("source=gazetteer", "head=network|Method"), most of which are absent
for any one item. Training uses scikit-learn's logistic regression
(`fit`); what is kept is only the weights of the features seen, as a
dict that JSON holds, so a trained scorer loads without scikit-learn and
reads like a table: feature, class, weight.
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping, Sequence

from kg.errors import UserError

Features = Mapping[str, float]


class MissingTrainer(UserError, RuntimeError):
    """Training needs a library this installation lacks."""


class LinearModel:
    """Multinomial (or, with two classes, binary) logistic regression."""
    def __init__(self, classes: Sequence[str], weights: Mapping[str, Sequence[float]],
                 bias: Sequence[float]):
        self.classes = list(classes)
        self.weights = {f: list(w) for f, w in weights.items()}
        self.bias = list(bias)

    def scores(self, features: Features) -> list[float]:
        """The probability of each class (in `classes` order)."""
        z = list(self.bias)
        for name, value in features.items():
            w = self.weights.get(name)
            if w is not None:
                for k, wk in enumerate(w):
                    z[k] += wk * value
        if len(self.classes) == 2 and len(z) == 1:  # binary: one logit for the second class
            p = 1.0 / (1.0 + math.exp(-z[0]))
            return [1.0 - p, p]
        top = max(z)
        exp = [math.exp(v - top) for v in z]
        total = sum(exp)
        return [v / total for v in exp]

    def probability(self, features: Features, cls: str) -> float:
        return self.scores(features)[self.classes.index(cls)]

    def best(self, features: Features) -> tuple[str, float]:
        """The likeliest class and its probability."""
        scores = self.scores(features)
        k = max(range(len(scores)), key=scores.__getitem__)
        return self.classes[k], scores[k]

    def to_dict(self) -> dict:
        return {"classes": self.classes, "bias": self.bias, "weights": self.weights}

    @classmethod
    def from_dict(cls, data: Mapping) -> "LinearModel":
        return cls(data["classes"], data["weights"], data["bias"])


def fit(rows: Iterable[Features], labels: Iterable[str], c: float = 1.0, seed: int = 0) -> LinearModel:
    """A LinearModel fitted to `rows` and their `labels` (L2-regularised
    logistic regression; `c` is the inverse strength). Needs scikit-learn."""
    try:
        from sklearn.feature_extraction import (
            DictVectorizer,  # lazy: training only, an optional dependency
        )
        from sklearn.linear_model import (
            LogisticRegression,  # lazy: training only, an optional dependency
        )
    except ImportError:
        raise MissingTrainer("kg train needs scikit-learn: pip install 'kg-abstracts[train]'") from None

    rows, labels = list(rows), list(labels)
    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform(rows)
    model = LogisticRegression(C=c, max_iter=2000, random_state=seed)
    model.fit(x, labels)
    classes = [str(k) for k in model.classes_]
    names = vectorizer.get_feature_names_out()
    coef = model.coef_
    weights = {}
    for j, name in enumerate(names):
        column = [round(float(coef[k, j]), 5) for k in range(coef.shape[0])]
        if any(column):
            weights[str(name)] = column
    return LinearModel(classes, weights, [round(float(b), 5) for b in model.intercept_])
