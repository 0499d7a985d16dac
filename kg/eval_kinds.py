"""The kinds of error behind the scores of `kg eval`, with examples.

Every prediction that matches nothing and every gold item not found is
counted once, under one kind (matching as in kg.eval):

entities, per type
- wrong type: a prediction whose name matches a gold entity of another type,
  counted in the row of the predicted type (the gold one is not counted
  again as missed);
- wrong boundary: a prediction that overlaps a gold name of the same type
  without matching it: one holds all the words of the other ("detection"
  in "open vocabulary object detection"), or they share two
  words in a row ("graph neural network layers", "deep graph neural
  network"); paired with a gold name not found when there is one, which is
  then not counted again;
- spurious: any other prediction that matches nothing; missed: any other
  gold entity not found.

proposed methods
- not marked: a gold proposed method predicted as a Method, not as proposed;
- marked wrongly: a predicted proposal that is a gold Method the paper does
  not propose; missed and spurious: the others.

relations, per predicate
- wrong subject: a prediction whose object (for achieves: metric) matches a
  gold relation's and whose subject does not; wrong object: the subject
  matches and the object (dataset, task, baseline; for achieves the metric)
  does not. A gold relation not found is paired with one such prediction
  and not counted again;
- spurious and missed: the others;
- among gold relations that were found (so not in P and R): missing value
  (the gold relation has a number, the prediction none), wrong value
  (another number), missing dataset (the gold relation names a dataset,
  the prediction none), wrong dataset (another one);
- among predictions with a number (achieves, improvesOver), whether found
  or not: wrong role, a number the gold gives another role and not the
  predicted one: a margin read as a score or a score as a margin (the gold
  has it in the other relation), or another method's score read as the
  subject's (the gold has it for another subject only, and scores of the
  subject's own elsewhere: else the subject is what is wrong).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from kg.eval import (
    ENTITY_TYPES,
    RELATION_TYPES,
    _entities,
    _Resolver,
    _same_value,
    entities_match,
    entity_forms,
)

ENTITY_KINDS = ("missed", "spurious", "wrong_boundary", "wrong_type")
PROPOSED_KINDS = ("missed", "spurious", "not_marked", "marked_wrongly")
RELATION_KINDS = ("missed", "spurious", "wrong_subject", "wrong_object", "missing_value", "wrong_value",
                  "missing_dataset", "wrong_dataset", "wrong_role")
_VALUED = ("improvesOver", "achieves")
_QUALIFIERS = ("missing_value", "wrong_value", "missing_dataset", "wrong_dataset", "wrong_role")

# Words that do not make two names overlap on their own.
_LINKING = frozenset(("a", "an", "the", "of", "for", "and", "or", "in", "on", "with", "to", "by", "via", "at",
                      "from", "based", "using"))


@dataclass
class Example:
    paper: str
    gold: str | None
    predicted: str | None

    def __str__(self) -> str:
        gold = self.gold if self.gold is not None else "-"
        pred = self.predicted if self.predicted is not None else "-"
        return f"{self.paper}  gold: {gold}  predicted: {pred}"


@dataclass
class Kind:
    count: int = 0
    examples: list[Example] = field(default_factory=list)


@dataclass
class ErrorKinds:
    """Counts and examples per category (entity type, "proposed", predicate) and kind."""

    entities: dict[str, dict[str, Kind]] = field(
        default_factory=lambda: {t: {k: Kind() for k in ENTITY_KINDS} for t in ENTITY_TYPES})
    proposed: dict[str, Kind] = field(default_factory=lambda: {k: Kind() for k in PROPOSED_KINDS})
    relations: dict[str, dict[str, Kind]] = field(
        default_factory=lambda: {p: {k: Kind() for k in RELATION_KINDS} for p in RELATION_TYPES})
    keep: int = 3  # examples kept per kind

    def add(self, kinds: dict[str, Kind], kind: str, example: Example) -> None:
        k = kinds[kind]
        k.count += 1
        if len(k.examples) < self.keep:
            k.examples.append(example)

    def as_dict(self, examples: bool = True) -> dict[str, Any]:
        def one(kinds: dict[str, Kind]) -> dict[str, Any]:
            if not examples:
                return {k: v.count for k, v in kinds.items()}
            return {k: {"count": v.count, "examples": [vars(e) for e in v.examples]} for k, v in kinds.items()}

        return {"entities": {t: one(k) for t, k in self.entities.items()}, "proposed": one(self.proposed),
                "relations": {p: one(k) for p, k in self.relations.items()}}

    def lines(self, examples: bool = False) -> list[str]:
        def table(title: str, kinds: tuple[str, ...], rows: dict[str, dict[str, Kind]]) -> list[str]:
            heads = [k.replace("wrong_", "").replace("missing_", "no ").replace("_", " ") for k in kinds]
            widths = [max(len(h), 6) + 2 for h in heads]
            out = [f"{title:<16}" + "".join(f"{h:>{w}}" for h, w in zip(heads, widths))]
            for name, row in rows.items():
                # Values and datasets belong to improvesOver and achieves only.
                cells = ["-" if k in _QUALIFIERS and name not in _VALUED else str(row[k].count) for k in kinds]
                out.append(f"  {name:<14}" + "".join(f"{c:>{w}}" for c, w in zip(cells, widths)))
            return out

        out = ["errors by kind (each false hit and each miss once; value and dataset: of the relations found; "
               "role: of the predictions with a number)"]
        out += table("entities", ENTITY_KINDS, self.entities)
        out += table("methods", PROPOSED_KINDS, {"proposed": self.proposed})
        out += table("relations", RELATION_KINDS, self.relations)
        if examples:
            out.append("examples (paper, gold, predicted):")
            groups = [(t, k) for t, k in self.entities.items()] + [("proposed", self.proposed)] + \
                     [(p, k) for p, k in self.relations.items()]
            for name, kinds in groups:
                for kind, k in kinds.items():
                    if k.examples:
                        out.append(f"  {name}, {kind.replace('_', ' ')} ({k.count}):")
                        out += [f"    {e}" for e in k.examples]
        return out


# -- entities --------------------------------------------------------------------
def _overlap(a: dict, b: dict) -> bool:
    """Do two entities' names overlap (see the module docstring)?"""
    for x in entity_forms(a):
        for y in entity_forms(b):
            short, long = sorted((x.words, y.words), key=len)
            if not short:
                continue
            n = len(short)
            if any(long[i:i + n] == short for i in range(len(long) - n + 1)) and set(short) - _LINKING:
                return True
            if _shared_run(x.words, y.words) >= 2:
                return True
    return False


def _shared_run(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """The most words in a row that `a` and `b` share, not counting runs of linking words only."""
    best = 0
    for i in range(len(a)):
        for j in range(len(b)):
            k = 0
            while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                k += 1
            if k > best and set(a[i:i + k]) - _LINKING:
                best = k
    return best


def _label(ent: dict, etype: str | None = None) -> str:
    aliases = ent.get("aliases") or []
    text = ent["name"] + (f" ({', '.join(aliases)})" if aliases else "")
    return f"{etype}: {text}" if etype else text


def _entity_kinds(pid: str, gold: dict, pred: dict, out: ErrorKinds) -> None:
    g = {t: _entities(gold, t) for t in ENTITY_TYPES}
    p = {t: _entities(pred, t) for t in ENTITY_TYPES}
    gforms = {t: [entity_forms(e) for e in g[t]] for t in ENTITY_TYPES}
    pforms = {t: [entity_forms(e) for e in p[t]] for t in ENTITY_TYPES}
    missed = {t: [i for i, gf in enumerate(gforms[t]) if not any(entities_match(gf, pf) for pf in pforms[t])]
              for t in ENTITY_TYPES}
    false = {t: [i for i, pf in enumerate(pforms[t]) if not any(entities_match(pf, gf) for gf in gforms[t])]
             for t in ENTITY_TYPES}
    explained: set[tuple[str, int]] = set()
    left: dict[str, list[int]] = {}
    for t in ENTITY_TYPES:  # wrong type first: it explains misses of the other types' rows
        left[t] = []
        for i in false[t]:
            other = next(((u, j) for u in ENTITY_TYPES if u != t for j, gf in enumerate(gforms[u])
                          if entities_match(pforms[t][i], gf)), None)
            if other is None:
                left[t].append(i)
                continue
            u, j = other
            explained.add((u, j))
            out.add(out.entities[t], "wrong_type", Example(pid, _label(g[u][j], u), _label(p[t][i], t)))
    for t in ENTITY_TYPES:
        for i in left[t]:
            near = [j for j, ge in enumerate(g[t]) if _overlap(p[t][i], ge)]
            if not near:
                out.add(out.entities[t], "spurious", Example(pid, None, _label(p[t][i])))
                continue
            open_ = [j for j in near if j in missed[t] and (t, j) not in explained]
            j = (open_ or near)[0]
            explained.add((t, j))
            out.add(out.entities[t], "wrong_boundary", Example(pid, _label(g[t][j]), _label(p[t][i])))
        for j in missed[t]:
            if (t, j) not in explained:
                out.add(out.entities[t], "missed", Example(pid, _label(g[t][j]), None))


def _proposed_kinds(pid: str, gold: dict, pred: dict, out: ErrorKinds) -> None:
    gm, pm = _entities(gold, "Method"), _entities(pred, "Method")
    gp = [e for e in gm if e.get("proposed")]
    pp = [e for e in pm if e.get("proposed")]
    for e in gp:
        forms = entity_forms(e)
        if any(entities_match(forms, entity_forms(x)) for x in pp):
            continue
        found = next((x for x in pm if entities_match(forms, entity_forms(x))), None)
        if found is not None:
            out.add(out.proposed, "not_marked", Example(pid, _label(e), _label(found)))
        else:
            out.add(out.proposed, "missed", Example(pid, _label(e), None))
    for e in pp:
        forms = entity_forms(e)
        if any(entities_match(forms, entity_forms(x)) for x in gp):
            continue
        known = next((x for x in gm if entities_match(forms, entity_forms(x))), None)
        if known is not None:
            out.add(out.proposed, "marked_wrongly", Example(pid, _label(known), _label(e)))
        else:
            out.add(out.proposed, "spurious", Example(pid, None, _label(e)))


# -- relations -------------------------------------------------------------------
def relation_text(rel: dict) -> str:
    """ "A improvesOver B (accuracy 2.1 % on X)": a relation on one line."""
    head = " ".join(str(rel[k]) for k in ("s", "p", "o") if rel.get(k) is not None)
    extra = " ".join(str(rel[k]) for k in ("metric", "value", "unit") if rel.get(k) is not None)
    if rel.get("dataset") is not None:
        extra += f" on {rel['dataset']}"
    return f"{head} ({extra.strip()})" if extra.strip() else head


def _relation_kinds(pid: str, gold: dict, pred: dict, out: ErrorKinds) -> None:
    gres, pres = _Resolver(gold), _Resolver(pred)

    def same(key_g: Any, key_p: Any) -> bool:
        return entities_match(gres(key_g), pres(key_p))

    for p in RELATION_TYPES:
        other = "metric" if p == "achieves" else "o"
        gs = [r for r in gold.get("relations") or [] if isinstance(r, dict) and r.get("p") == p]
        ps = [r for r in pred.get("relations") or [] if isinstance(r, dict) and r.get("p") == p]
        kinds = out.relations[p]
        matches = [[pr for pr in ps if same(gr.get("s"), pr.get("s")) and same(gr.get(other), pr.get(other))]
                   for gr in gs]
        right = [any(same(gr.get("s"), pr.get("s")) and same(gr.get(other), pr.get(other)) for gr in gs) for pr in ps]
        explained: set[int] = set()
        for pr, ok in zip(ps, right):
            if ok:
                continue
            kind, k = None, None
            for want_open in (True, False):  # a gold relation not found first
                for k, gr in enumerate(gs):
                    if want_open and (matches[k] or k in explained):
                        continue
                    if same(gr.get("s"), pr.get("s")):
                        kind = "wrong_object"
                    elif same(gr.get(other), pr.get(other)):
                        kind = "wrong_subject"
                    if kind:
                        break
                if kind:
                    break
            if kind is None:
                out.add(kinds, "spurious", Example(pid, None, relation_text(pr)))
                continue
            explained.add(k)
            out.add(kinds, kind, Example(pid, relation_text(gs[k]), relation_text(pr)))
        for k, (gr, found) in enumerate(zip(gs, matches)):
            if not found:
                if k not in explained:
                    out.add(kinds, "missed", Example(pid, relation_text(gr), None))
                continue
            if p not in _VALUED:
                continue
            # The prediction that says most nearly the same: its value, then a dataset.
            best = max(found, key=lambda pr: ("value" in gr and "value" in pr and _same_value(gr["value"], pr["value"]),
                                              pr.get("dataset") is not None))
            if "value" in gr and "value" not in best:
                out.add(kinds, "missing_value", Example(pid, relation_text(gr), relation_text(best)))
            elif "value" in gr and not _same_value(gr["value"], best["value"]):
                out.add(kinds, "wrong_value", Example(pid, relation_text(gr), relation_text(best)))
            if gr.get("dataset") is not None:
                if best.get("dataset") is None:
                    out.add(kinds, "missing_dataset", Example(pid, relation_text(gr), relation_text(best)))
                elif not same(gr["dataset"], best["dataset"]):
                    out.add(kinds, "wrong_dataset", Example(pid, relation_text(gr), relation_text(best)))


def _role_kinds(pid: str, gold: dict, pred: dict, out: ErrorKinds) -> None:
    """Numbers given the wrong role (see the module docstring): each
    prediction with a number once, with the gold relation that holds it."""
    gres, pres = _Resolver(gold), _Resolver(pred)
    valued = [r for r in gold.get("relations") or [] if isinstance(r, dict) and r.get("p") in _VALUED and r.get("value")]
    for pr in pred.get("relations") or []:
        if not isinstance(pr, dict) or pr.get("p") not in _VALUED or not pr.get("value"):
            continue
        holding = [gr for gr in valued if _same_value(gr["value"], pr["value"])]
        mine = [gr for gr in holding if gr["p"] == pr["p"] and entities_match(gres(gr.get("s")), pres(pr.get("s")))]
        if not holding or mine:
            continue
        other = next((gr for gr in holding if gr["p"] != pr["p"]), None)
        scorer = any(gr["p"] == "achieves" and entities_match(gres(gr.get("s")), pres(pr.get("s"))) for gr in valued)
        if other is None and pr["p"] == "achieves" and scorer:
            other = holding[0]  # another method's score given to one with scores of its own
        if other is not None:
            out.add(out.relations[pr["p"]], "wrong_role", Example(pid, relation_text(other), relation_text(pr)))


def error_kinds(gold: Iterable[dict], pred: Iterable[dict], examples: int = 3) -> ErrorKinds:
    """The kinds of error of `pred` against `gold`, papers paired by id as
    kg.eval.evaluate pairs them; up to `examples` examples per kind."""
    by_id = {rec.get("id"): rec for rec in pred}
    out = ErrorKinds(keep=examples)
    for rec in gold:
        pid = rec.get("id")
        mine = by_id.get(pid, {})
        _entity_kinds(str(pid), rec, mine, out)
        _proposed_kinds(str(pid), rec, mine, out)
        _relation_kinds(str(pid), rec, mine, out)
        _role_kinds(str(pid), rec, mine, out)
    return out

