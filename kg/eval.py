"""Score extraction records against gold records, as a person would judge.

Matching rules (also printed by `kg eval --help`):
- names are compared after folding case, Unicode (NFKC), punctuation and
  spacing: "ResNet-50" = "resnet 50", "CIFAR10" = "CIFAR-10";
- a plural "s" on a word is ignored ("LSTMs" = "LSTM");
- an entity is all its forms (name and aliases); two entities match when any
  form of one matches any form of the other;
- a long form and its abbreviation match ("balanced error rate" = "BER");
- a name that contains the other as whole words and covers at least half of
  it (by words or by characters) matches ("semantic segmentation" ~
  "segmentation", "F1 score" ~ "F1");
- entities match only within the same paper and the same type.
A predicted item is correct if it matches some gold item (precision); a gold
item is found if some predicted item matches it (recall).
Relations match when the predicate is the same and subject and object (for
`achieves`: subject and metric) match by the entity rules above, a name in a
relation standing for every form of the entity of that name in its record.
Values are compared as numbers where both parse as numbers.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from kg.io.user_files import user_lines
from kg.nlp.abbrev_match import is_abbreviation

ENTITY_TYPES = ("Method", "Dataset", "Task", "Metric")
RELATION_TYPES = ("evaluatedOn", "addresses", "improvesOver", "achieves")


class EvalError(ValueError):
    """A gold or prediction file that cannot be read; the message names file and line."""


# -- names --------------------------------------------------------------------
_PUNCT = re.compile(r"[^\w\s]|_")
_SPACE = re.compile(r"\s+")


def fold(name: str) -> tuple[str, ...]:
    """The words of a name with case, Unicode, punctuation and plural "s" folded away."""
    text = unicodedata.normalize("NFKC", name).casefold()
    words = _SPACE.sub(" ", _PUNCT.sub(" ", text)).split()
    return tuple(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)


@dataclass(frozen=True)
class Form:
    raw: str
    words: tuple[str, ...]

    @classmethod
    def of(cls, raw: str) -> "Form":
        return cls(raw, fold(raw))


def _contains(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    n = len(shorter)
    return any(longer[i:i + n] == shorter for i in range(len(longer) - n + 1))


def forms_match(a: Form, b: Form) -> bool:
    """One form against another, by the rules in the module docstring."""
    if not a.words or not b.words:
        return False
    if a.words == b.words or "".join(a.words) == "".join(b.words):
        return True
    short, long = (a, b) if len(a.words) <= len(b.words) else (b, a)
    if len(short.words) < len(long.words) and _contains(long.words, short.words):
        chars_short = sum(map(len, short.words))
        chars_long = sum(map(len, long.words))
        if len(short.words) * 2 >= len(long.words) or chars_short * 2 >= chars_long:
            return True
    # An abbreviation is one word; its long form has several words or inner capitals.
    for s, lg in ((a, b), (b, a)):
        if len(s.words) == 1 and is_abbreviation(s.raw, lg.raw):
            return True
    return False


def entities_match(a: Iterable[Form], b: Iterable[Form]) -> bool:
    b = list(b)
    return any(forms_match(x, y) for x in a for y in b)


def entity_forms(ent: dict) -> list[Form]:
    return [Form.of(n) for n in [ent.get("name", ""), *(ent.get("aliases") or [])] if isinstance(n, str) and n.strip()]


# -- scores -------------------------------------------------------------------
@dataclass
class Score:
    """Counts behind precision and recall: predicted items and how many were
    right; gold items and how many were found."""

    pred: int = 0
    correct: int = 0
    gold: int = 0
    found: int = 0

    @property
    def precision(self) -> float:
        return self.correct / self.pred if self.pred else 0.0

    @property
    def recall(self) -> float:
        return self.found / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, other: "Score") -> None:
        self.pred += other.pred
        self.correct += other.correct
        self.gold += other.gold
        self.found += other.found

    def as_dict(self) -> dict[str, Any]:
        return {"precision": round(self.precision, 4), "recall": round(self.recall, 4), "f1": round(self.f1, 4),
                "pred": self.pred, "correct": self.correct, "gold": self.gold, "found": self.found}


@dataclass
class Error:
    paper: str
    kind: str  # "miss" (gold not found) or "false" (prediction matching no gold)
    category: str  # entity type, "proposed", or relation predicate
    item: str

    def __str__(self) -> str:
        return f"{self.paper}\t{self.kind}\t{self.category}\t{self.item}"


@dataclass
class Report:
    entities: dict[str, Score] = field(default_factory=lambda: {t: Score() for t in ENTITY_TYPES})
    proposed: Score = field(default_factory=Score)
    relations: dict[str, Score] = field(default_factory=lambda: {p: Score() for p in RELATION_TYPES})
    # Among matched gold relations that carry a value: how many a matching prediction got right.
    values: dict[str, list[int]] = field(default_factory=lambda: {"improvesOver": [0, 0], "achieves": [0, 0]})
    errors: list[Error] = field(default_factory=list)
    papers: int = 0
    missing: list[str] = field(default_factory=list)  # gold papers with no prediction
    extra: int = 0  # predicted papers not in gold

    def entity_total(self) -> Score:
        total = Score()
        for s in self.entities.values():
            total.add(s)
        return total

    def relation_total(self) -> Score:
        total = Score()
        for s in self.relations.values():
            total.add(s)
        return total

    def as_dict(self) -> dict[str, Any]:
        return {
            "papers": self.papers,
            "missing_predictions": self.missing,
            "entities": {"all": self.entity_total().as_dict(), **{t: s.as_dict() for t, s in self.entities.items()}},
            "proposed_methods": self.proposed.as_dict(),
            "relations": {"all": self.relation_total().as_dict(), **{p: s.as_dict() for p, s in self.relations.items()}},
            "values": {p: {"right": r, "matched_with_value": n, "accuracy": round(r / n, 4) if n else None}
                       for p, (r, n) in self.values.items()},
        }

    def lines(self, errors: bool = False) -> list[str]:
        def row(label: str, s: Score) -> str:
            return (f"{label:<16}{s.precision:>7.3f}{s.recall:>7.3f}{s.f1:>7.3f}"
                    f"{s.correct:>7}/{s.pred:<6}{s.found:>6}/{s.gold:<6}")

        out = [f"papers: {self.papers}" + (f" ({len(self.missing)} without a prediction)" if self.missing else "")
               + (f"; {self.extra} predicted papers not in gold, ignored" if self.extra else ""),
               f"{'':<16}{'P':>7}{'R':>7}{'F1':>7}{'right/pred':>14}{'found/gold':>13}",
               "entities"]
        out += [row("  " + t, s) for t, s in self.entities.items()]
        out.append(row("  all", self.entity_total()))
        out.append(row("proposed Method", self.proposed))
        out.append("relations")
        out += [row("  " + p, s) for p, s in self.relations.items()]
        out.append(row("  all", self.relation_total()))
        for p, (right, n) in self.values.items():
            if n:
                out.append(f"value right in {p}: {right}/{n} ({right / n:.3f}) of matched gold relations with a value")
        if errors:
            out += self.error_lines()
        return out

    def error_lines(self) -> list[str]:
        return ["errors (paper, miss|false, category, item):"] + [str(e) for e in self.errors]


# -- one paper ----------------------------------------------------------------
def _entities(rec: dict, etype: str) -> list[dict]:
    ents = (rec.get("entities") or {}).get(etype) or []
    return [e for e in ents if isinstance(e, dict) and isinstance(e.get("name"), str)]


def _score_sets(gold: list[list[Form]], pred: list[list[Form]]) -> tuple[Score, list[int], list[int]]:
    """Score; indices of gold items not found; indices of predictions matching nothing."""
    found = [any(entities_match(g, p) for p in pred) for g in gold]
    right = [any(entities_match(p, g) for g in gold) for p in pred]
    score = Score(pred=len(pred), correct=sum(right), gold=len(gold), found=sum(found))
    return score, [i for i, f in enumerate(found) if not f], [i for i, r in enumerate(right) if not r]


class _Resolver:
    """A name used in a relation -> every form of the entity of that name in the record."""

    def __init__(self, rec: dict):
        self.by_form: dict[tuple[str, ...], list[Form]] = {}
        for etype in ENTITY_TYPES:
            for ent in _entities(rec, etype):
                forms = entity_forms(ent)
                for f in forms:
                    self.by_form.setdefault(f.words, []).extend(forms)

    def __call__(self, name: Any) -> list[Form]:
        if not isinstance(name, str) or not name.strip():
            return []
        f = Form.of(name)
        return self.by_form.get(f.words) or [f]


def _same_value(a: Any, b: Any) -> bool:
    def norm(v: Any) -> str:
        return re.sub(r"[\s+,]", "", str(v)).lstrip("~").replace("\u2212", "-")
    x, y = norm(a), norm(b)
    try:
        return float(x) == float(y)
    except ValueError:
        return x == y


def _relation_label(rel: dict) -> str:
    keys = ("s", "p", "o", "metric", "value", "unit", "dataset")
    return json.dumps({k: rel[k] for k in keys if k in rel}, ensure_ascii=False)


def _relations(rec: dict) -> list[dict]:
    return [r for r in rec.get("relations") or [] if isinstance(r, dict)]


def _relation_match(gold: dict, pred: dict) -> Callable[[dict, dict], bool]:
    """Whether a gold relation of `gold` and a predicted one of `pred` match."""
    gres, pres = _Resolver(gold), _Resolver(pred)

    def match(gr: dict, pr: dict) -> bool:
        if gr.get("p") != pr.get("p") or not entities_match(gres(gr.get("s")), pres(pr.get("s"))):
            return False
        other = "metric" if gr.get("p") == "achieves" else "o"
        return entities_match(gres(gr.get(other)), pres(pr.get(other)))
    return match


def judged(gold: dict, pred: dict) -> Iterator[tuple[str, dict, bool]]:
    """Each entity and relation of `pred` with its kind (entity type or
    predicate) and whether it is right against `gold`, as score_paper counts it."""
    for etype in ENTITY_TYPES:
        g = [entity_forms(e) for e in _entities(gold, etype)]
        for ent in _entities(pred, etype):
            forms = entity_forms(ent)
            yield etype, ent, any(entities_match(forms, x) for x in g)
    match = _relation_match(gold, pred)
    grels = _relations(gold)
    for rel in _relations(pred):
        if rel.get("p") in RELATION_TYPES:
            yield rel["p"], rel, any(match(gr, rel) for gr in grels)


def score_paper(pid: str, gold: dict, pred: dict, report: Report) -> None:
    """Add one paper's counts and errors to `report`."""
    for etype in ENTITY_TYPES:
        g = _entities(gold, etype)
        p = _entities(pred, etype)
        score, missed, false = _score_sets([entity_forms(e) for e in g], [entity_forms(e) for e in p])
        report.entities[etype].add(score)
        report.errors += [Error(pid, "miss", etype, g[i]["name"]) for i in missed]
        report.errors += [Error(pid, "false", etype, p[i]["name"]) for i in false]

    g = [e for e in _entities(gold, "Method") if e.get("proposed")]
    p = [e for e in _entities(pred, "Method") if e.get("proposed")]
    score, missed, false = _score_sets([entity_forms(e) for e in g], [entity_forms(e) for e in p])
    report.proposed.add(score)
    report.errors += [Error(pid, "miss", "proposed", g[i]["name"]) for i in missed]
    report.errors += [Error(pid, "false", "proposed", p[i]["name"]) for i in false]

    match = _relation_match(gold, pred)
    grels, prels = _relations(gold), _relations(pred)
    for pred_name in RELATION_TYPES:
        gs = [r for r in grels if r.get("p") == pred_name]
        ps = [r for r in prels if r.get("p") == pred_name]
        found = [[pr for pr in ps if match(gr, pr)] for gr in gs]
        right = [any(match(gr, pr) for gr in gs) for pr in ps]
        report.relations[pred_name].add(Score(pred=len(ps), correct=sum(right), gold=len(gs),
                                              found=sum(1 for f in found if f)))
        report.errors += [Error(pid, "miss", pred_name, _relation_label(gr)) for gr, f in zip(gs, found) if not f]
        report.errors += [Error(pid, "false", pred_name, _relation_label(pr)) for pr, r in zip(ps, right) if not r]
        if pred_name in report.values:
            for gr, matches in zip(gs, found):
                if matches and "value" in gr:
                    report.values[pred_name][1] += 1
                    if any("value" in pr and _same_value(gr["value"], pr["value"]) for pr in matches):
                        report.values[pred_name][0] += 1


def evaluate(gold: Iterable[dict], pred: Iterable[dict]) -> Report:
    """Score every gold paper against the prediction with the same id."""
    by_id = {}
    for rec in pred:
        by_id[rec.get("id")] = rec
    report = Report()
    gold_ids = set()
    for rec in gold:
        pid = rec.get("id")
        gold_ids.add(pid)
        report.papers += 1
        if pid not in by_id:
            report.missing.append(str(pid))
        score_paper(str(pid), rec, by_id.get(pid, {}), report)
    report.extra = len(set(by_id) - gold_ids)
    return report


# -- files --------------------------------------------------------------------
def read_records(path: str | Path) -> Iterator[dict]:
    """Records from a JSON Lines file; a bad line is an EvalError naming file and line."""
    for n, line in user_lines(path, "records file", EvalError):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as err:
            raise EvalError(f"{path}:{n}: not valid JSON ({err.msg})") from None
        if not isinstance(rec, dict) or "id" not in rec:
            raise EvalError(f"{path}:{n}: each line must be a JSON object with an \"id\"")
        if not isinstance(rec.get("entities", {}), dict):
            raise EvalError(f"{path}:{n}: \"entities\" must be an object keyed by entity type")
        if not isinstance(rec.get("relations", []), list):
            raise EvalError(f"{path}:{n}: \"relations\" must be a list")
        yield rec
