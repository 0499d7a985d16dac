"""A model's confidence, calibrated: what share of the facts of each value
were right on the validation part.

With a model, a relation's confidence comes from two places: one the linker
added carries the linker's probability, the others the rules' values, which
were measured on the rules alone. Neither is the share of such relations that
are right once the whole pipeline has run: the linker's probability is that
two names are linked, while a relation is also wrong when either name is not
the gold's. So `kg train` runs the chosen pipeline over its validation part,
judges every relation as `kg eval` does (kg.eval.judged), and keeps, per
predicate and tenth of confidence, the share right. The Extractor puts that
share in place of each relation's confidence before `--min-confidence` cuts,
so a cut at C keeps relations that were right about C of the time or more.
(An entity's confidence, the entity scorer's probability, already means
that; the class calibrates any kind it is given.)

Few facts stand behind a tenth of one kind, so a tenth's share is pulled
towards its kind's share (WEIGHT facts' worth), and the shares of one kind
are made to rise with the confidence by pooling adjacent tenths that do not
(the pool-adjacent-violators algorithm of Ayer et al., "An empirical
distribution function for sampling with incomplete information", 1955), so
that a higher value never means a lower share.
"""

from __future__ import annotations

from typing import Any, Iterable

# How many facts' worth of the kind's share a tenth's own share is pulled towards.
WEIGHT = 10
# A kind with fewer facts on the validation part keeps its own values: a few
# facts would set one share for all its tenths.
MIN_FACTS = 30
BANDS = tuple(f"{k / 10:.1f}" for k in range(10))


def band(confidence: float) -> str:
    """The tenth a confidence falls in: "0.0" ... "0.9" (1.0 in "0.9")."""
    return BANDS[min(max(int(confidence * 10), 0), 9)]


def _rising(values: list[float], counts: list[float]) -> list[float]:
    """The least-squares non-decreasing sequence closest to `values` weighted
    by `counts` (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [weighted sum, weight, length]
    for v, n in zip(values, counts):
        blocks.append([v * n, n, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            s, w, k = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += w
            blocks[-1][2] += k
    out: list[float] = []
    for s, w, k in blocks:
        out += [s / w] * k
    return out


class Calibration:
    """Per kind, per tenth of confidence: the share right."""

    def __init__(self, table: dict[str, dict[str, float]]):
        self.table = table

    @classmethod
    def fit(cls, facts: Iterable[tuple[str, float, bool]]) -> "Calibration":
        """From (kind, confidence, right) of the facts of the validation part."""
        counts: dict[str, dict[str, list[int]]] = {}
        for kind, confidence, right in facts:
            cell = counts.setdefault(kind, {b: [0, 0] for b in BANDS})[band(confidence)]
            cell[0] += int(right)
            cell[1] += 1
        table = {}
        for kind, cells in counts.items():
            if sum(n for _, n in cells.values()) < MIN_FACTS:
                continue
            share = sum(r for r, _ in cells.values()) / sum(n for _, n in cells.values())
            seen = [b for b in BANDS if cells[b][1]]
            pulled = [(cells[b][0] + WEIGHT * share) / (cells[b][1] + WEIGHT) for b in seen]
            values = dict(zip(seen, _rising(pulled, [cells[b][1] + WEIGHT for b in seen])))
            # a tenth with no facts takes the value of the nearest one below it that has some (else above)
            below = [values.get(b) for b in BANDS]
            for k in range(1, len(below)):
                below[k] = below[k] if below[k] is not None else below[k - 1]
            first = values[seen[0]]
            table[kind] = {b: round(v if v is not None else first, 3) for b, v in zip(BANDS, below)}
        return cls(table)

    def value(self, kind: str, confidence: float) -> float:
        """The calibrated confidence of a fact of `kind` (as it is for a kind
        the validation part had none of)."""
        by_band = self.table.get(kind)
        return by_band[band(confidence)] if by_band else confidence

    def apply(self, record: dict[str, Any]) -> dict[str, Any]:
        """`record` with every entity's and relation's confidence calibrated, in place."""
        for etype, ents in record["entities"].items():
            for ent in ents:
                if "confidence" in ent:
                    ent["confidence"] = self.value(etype, ent["confidence"])
        for rel in record["relations"]:
            if "confidence" in rel:
                rel["confidence"] = self.value(rel["p"], rel["confidence"])
        return record

    def to_dict(self) -> dict[str, dict[str, float]]:
        return self.table

    @classmethod
    def from_dict(cls, data: dict[str, dict[str, float]]) -> "Calibration":
        return cls({kind: dict(by_band) for kind, by_band in data.items()})
