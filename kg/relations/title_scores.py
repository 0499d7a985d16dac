"""Scores a paper's title states: "Sparse FooNets: 84.5% ImageNet
Top-1 Accuracy with Half the Weights" is the paper's method's score, with the metric
and dataset the title names.

A title is no sentence of the abstract, so its entities are not marked: a
metric or a dataset is a name the abstract marks, or one of the packaged
gazetteer (kg/resources/gazetteers), found in the title's words. The number
needs its metric right beside it ("83% top-1 accuracy", "top-1 accuracy of
83%"); its dataset is the one dataset the title names (none where it names
none; no score where it names several). Where the
abstract already reports the same number in a metric the title's ends with
("accuracy" and "Top-1 Accuracy"), the title makes that score's metric the
narrower one instead of adding a second score; else the score is the paper's
main method's, and a paper without one gets none.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from kg.io.gazetteer_files import load_builtin
from kg.relations.cues import Cues
from kg.relations.found import FoundRelations
from kg.relations.numbers import NumberReader
from kg.relations.sentence import Mention

# Between a number and its metric ("83% ImageNet Top-1 Accuracy"): up to two other words.
_GAP_AFTER = re.compile(r"\s+(?:[^\s,;:()]+\s+){0,2}?$")
_GAP_BEFORE = re.compile(r"^\s+(?:of|=|:|at)\s+$", re.I)


@lru_cache(maxsize=1)
def _gazetteer_forms() -> dict[str, list[tuple[str, str]]]:
    """Type -> (form, name) of the packaged gazetteer's metrics and datasets."""
    out: dict[str, list[tuple[str, str]]] = {"Metric": [], "Dataset": []}
    for entry in load_builtin():
        if entry.type in out:
            out[entry.type] += [(form, entry.name) for form in entry.forms if len(form) > 2]
    return out


def _found(title: str, forms: Iterable[tuple[str, str]]) -> list[tuple[int, int, str]]:
    """(start, end, name) of each form in the title, in title order: whole
    words; a form with a capital or a digit as written ("ImageNet"), another
    in any case, as the gazetteer matches; a longer one first wins a place."""
    out: list[tuple[int, int, str]] = []
    lower = title.lower()
    for form, name in forms:
        written = form != form.lower() or any(ch.isdigit() for ch in form)
        hay, needle = (title, form) if written and form.lower() != form else (lower, form.lower())
        start = hay.find(needle)
        while start >= 0:
            end = start + len(form)
            whole = (start == 0 or not hay[start - 1].isalnum()) and (end == len(hay) or not hay[end].isalnum())
            if whole and all(end <= a or start >= b for a, b, _ in out):
                out.append((start, end, name))
            start = hay.find(needle, start + 1)
    return sorted(out)


def title_scores(title: str | None, mentions: list[Mention], text: str, subject: str | None, cues: Cues,
                 numbers: NumberReader, found: FoundRelations) -> None:
    """The scores `title` states for `subject` (the paper's main method, or
    None), added to `found` (`mentions`, `text`: the abstract's entities and
    text)."""
    if not title or not any(ch.isdigit() for ch in title):
        return
    # A score is a percentage or has decimals; most titles' numbers are neither ("GPT-3", "2D").
    scores = [q for q in numbers.quantities(title)
              if not (q.signed or q.from_value is not None or (q.unit != "%" and "." not in q.value))]
    if not scores:
        return
    named = {t: [(text[m.start:m.end], m.name) for m in mentions if m.label == t] for t in ("Metric", "Dataset")}
    gazetteer = _gazetteer_forms()
    metrics = _found(title, sorted(named["Metric"] + gazetteer["Metric"], key=lambda f: -len(f[0])))
    datasets = {name for _, _, name in _found(title, sorted(named["Dataset"] + gazetteer["Dataset"],
                                                           key=lambda f: -len(f[0])))}
    if not metrics or len(datasets) > 1:
        return
    dataset = datasets.pop() if datasets else None
    for q in scores:
        window = title[max(0, q.start - 70):q.start]
        if cues.gain_before.pattern.search(window) or cues.gain_after.match(title[q.end:q.end + 40]):
            continue  # "Boosting FooNet by 2% ...": a margin, no score
        # The nearest metric after the number, with at most two words between; else one right before it.
        after = next(((a, name) for a, _, name in metrics if a >= q.end), None)
        before = next(((b, name) for _, b, name in reversed(metrics) if b <= q.start), None)
        if after is not None and _GAP_AFTER.match(title[q.end:after[0]] + " "):
            metric = after[1]
        elif before is not None and _GAP_BEFORE.match(title[before[0]:q.start]):
            metric = before[1]
        else:
            continue
        _add(found, {"s": subject, "p": "achieves", "metric": metric, "value": q.value, "unit": q.unit,
                     "dataset": dataset})


def _add(found: FoundRelations, rel: dict) -> None:
    """The title's score for the paper's method, or its narrower metric on
    the abstract's score of the same value, whoever's it is there."""
    for known in found.by_key.values():
        if known["p"] == "achieves" and known["value"] == rel["value"] \
                and rel["metric"].lower().endswith(known["metric"].lower()):
            known["metric"] = rel["metric"]
            if rel["dataset"] is not None:
                known.setdefault("dataset", rel["dataset"])
            return
    if rel["s"] is not None:
        found.add_unplaced(rel, 0.7)
