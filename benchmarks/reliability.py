"""What `--min-confidence` costs: the reliability table, and the measurement
behind the entity and relation confidence values.

    python3 benchmarks/reliability.py                 # Markdown tables, train and dev
    python3 benchmarks/reliability.py --calibrate     # per rule / band: share right on train, and the values it gives
    python3 benchmarks/reliability.py --calibrate --write   # ... and write them to kg/resources/rules/confidence.json
    python3 benchmarks/reliability.py --pool          # the shipped model's confidence on the pool's validation part

Extracts the gold sets' abstracts (../shared/gold) with this checkout's code,
then for each threshold C keeps what `--min-confidence C` keeps (the same
function, kg.entities.confidence.keep_confident) and scores it with the shared
scorer (../shared/eval/score.py, imported): facts kept, precision (the share
of kept facts that are right), recall, F1, for entities and relations apart.
Train is the set the values are measured on; dev is the check.

--calibrate groups train's predicted entities by the rule that gives each its
confidence (the best among its mentions' rules, Candidate.source), its type,
and whether the abstract names it more than once, and gives each group its
share right, pulled towards its rule's share over all types when the group is
small (ten entities' worth of weight), so that a group of three does not get
0 or 1. Groups are re-formed with the new values until they settle.

It also groups train's predicted relations by predicate, the tenth of 0..1
their raw value (the one the relation rules give, before calibration) lies
in, and whether the abstract names their subject more than once, and gives
each group its share right, pulled towards the predicate's share over all
bands when the group is small (ten relations' worth of weight); a band no
relation falls in gets the predicate's share.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg import rules  # noqa: E402
from kg.extraction.record import Extractor  # noqa: E402
from kg.trainer import is_validation  # noqa: E402
from kg.entities.confidence import EntityConfidence, keep_confident  # noqa: E402
from kg.extraction.record import doc_to_record  # noqa: E402
from kg.relations.confidence import BANDS as RAW_BANDS, KEYS as RELATION_KEYS  # noqa: E402
from kg.relations.confidence import band as raw_band, repeated_names  # noqa: E402
from kg.io import ReadReport, read_inputs  # noqa: E402
from kg.entities.candidates import PRIORITY  # noqa: E402
from kg.entities.entity import fold_name, settled_entities  # noqa: E402

THRESHOLDS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
TYPES = ("Method", "Dataset", "Task", "Metric")
PREDICATES = ("evaluatedOn", "addresses", "improvesOver", "achieves")
WEIGHT = 10  # entities' worth of weight the rule's overall share has in a small group


def load_scorer(shared: Path) -> Any:
    path = shared / "eval" / "score.py"
    if not path.is_file():
        sys.exit(f"reliability: the shared scorer {path} is not here (it lives in ../shared)")
    spec = importlib.util.spec_from_file_location("shared_score", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extract(shared: Path, name: str) -> tuple[list[dict], list[dict], list[dict[tuple[int, int], str]],
                                             list[list[float]]]:
    """Gold records, predicted records (nothing left out), per record the
    rule of each entity mention, by its character offsets, and the raw
    value of each of its relations (in the record's order)."""
    gold = [json.loads(line) for line in (shared / "gold" / f"{name}.gold.jsonl").open(encoding="utf-8") if line.strip()]
    abstracts = list(read_inputs([shared / "gold" / f"{name}.input.jsonl"], ReadReport()))
    extractor = Extractor(use_model=False)  # the values calibrated here are the rules'
    preds, sources, raws = [], [], []
    for ab, doc in zip(abstracts, extractor.nlp.pipe(ab.text for ab in abstracts)):
        sources.append({(e.start_char, e.end_char): e.source for e in settled_entities(doc)})
        raws.append([r["confidence"] for r in doc._.kg_relations or []])
        preds.append(doc_to_record(doc, ab.id, extractor.confidence, 0.0, extractor.relation_values))
        # Raw values are paired with the record's relations by position: the record must keep every one, in order.
        if [r["p"] for r in preds[-1]["relations"]] != [r["p"] for r in doc._.kg_relations or []]:
            sys.exit(f"reliability: the record of {ab.id} does not hold the Doc's relations in order")
    return gold, preds, sources, raws


# -- the reliability table -------------------------------------------------------
def reliability(scorer: Any, gold: list[dict], preds: list[dict]) -> list[str]:
    rows = ["| --min-confidence | entities kept | P | R | F1 | relations kept | P | R | F1 |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for c in THRESHOLDS:
        kept = [keep_confident(copy.deepcopy(r), c) for r in preds]
        s = scorer.score(gold, kept)
        e, r = s["entity:all"], s["relation:all"]
        rows.append(f"| {c:g} | {e['pred']} | {e['p']:.3f} | {e['r']:.3f} | {e['f1']:.3f} "
                    f"| {r['pred']} | {r['p']:.3f} | {r['r']:.3f} | {r['f1']:.3f} |")
    return rows


BANDS = (0.0, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)


def bands(judged_entities: list[tuple[float, bool]], judged_relations: list[tuple[float, bool]]) -> list[str]:
    """How right the facts of each band of confidence are: a calibrated value
    lies inside its band's share right."""
    rows = ["| confidence | entities | share right | relations | share right |",
            "| --- | ---: | ---: | ---: | ---: |"]
    for lo, hi in zip(BANDS, BANDS[1:]):
        cells = []
        for judged in (judged_entities, judged_relations):
            inside = [right for conf, right in judged if lo <= conf < hi]
            cells += [str(len(inside)), f"{sum(inside) / len(inside):.2f}" if inside else "-"]
        label = f"{lo:g} to {hi:g}" if hi <= 1 else f"{lo:g} to 1"
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    return rows


def _judge(pool: list[dict], items: list[dict], match: Any) -> list[bool]:
    """Whether each item matches a gold item not matched before (the scorer's greedy matching)."""
    used: set[int] = set()
    out = []
    for item in items:
        right = False
        for i, g in enumerate(pool):
            if i not in used and match(g, item):
                used.add(i)
                right = True
                break
        out.append(right)
    return out


def judged_relations(scorer: Any, gold: list[dict], preds: list[dict],
                     raws: list[list[float]]) -> list[tuple[str, float, bool, bool, float]]:
    """(predicate, raw value, subject named more than once, right, confidence)
    of every predicted relation, right as the shared scorer matches."""
    by_id = {g["id"]: g for g in gold}
    out = []
    for pred, raw in zip(preds, raws):
        g = by_id.get(pred["id"], {"entities": {}})
        gv, pv = scorer.variants(g), scorer.variants(pred)
        repeated = repeated_names(pred["entities"])
        for p in scorer.PREDS:
            if p == "achieves":
                def match(a: dict, b: dict) -> bool:
                    return (scorer.arg_match(a.get("s"), gv, b.get("s"), pv)
                            and scorer.arg_match(a.get("metric"), gv, b.get("metric"), pv)
                            and scorer.value_match(a.get("value"), b.get("value")))
            else:
                def match(a: dict, b: dict) -> bool:
                    return (scorer.arg_match(a.get("s"), gv, b.get("s"), pv)
                            and scorer.arg_match(a.get("o"), gv, b.get("o"), pv))
            mine = [(r, v) for r, v in zip(pred["relations"], raw) if r.get("p") == p]
            pool = [r for r in g.get("relations") or [] if r.get("p") == p]
            rights = _judge(pool, [r for r, _ in mine], match)
            out += [(p, v, fold_name(r["s"]) in repeated, right, r.get("confidence", 1.0))
                    for (r, v), right in zip(mine, rights)]
    return out


# -- calibration -----------------------------------------------------------------
def judged_entities(scorer: Any, gold: list[dict], preds: list[dict],
                    sources: list[dict[tuple[int, int], str]]) -> list[tuple[str, set[str], bool, bool, float]]:
    """(type, its mentions' rules, named more than once, right, confidence) for every
    predicted entity, right as the shared scorer matches (each gold entity
    once, predictions in record order)."""
    by_id = {g["id"]: g for g in gold}
    out = []
    for pred, src in zip(preds, sources):
        g = by_id.get(pred["id"], {"entities": {}})
        gv, pv = scorer.variants(g), scorer.variants(pred)
        for etype in TYPES:
            pool = list((g.get("entities") or {}).get(etype) or [])
            mine = pred["entities"].get(etype) or []
            rights = _judge(pool, mine, lambda a, b: scorer.arg_match(a["name"], gv, b["name"], pv))
            for ent, right in zip(mine, rights):
                rules_of = {src.get(tuple(m)) or "other" for m in ent.get("mentions") or []}
                out.append((etype, rules_of, len(ent.get("mentions") or []) > 1, right, ent.get("confidence", 1.0)))
    return out


def calibrate(judged: list[tuple[str, set[str], bool, bool, float]],
              start: dict[str, dict[str, dict[str, float]]]) -> tuple[dict, dict]:
    """New entity_rules and entity_rules_repeated, and the counts behind them."""
    tables = copy.deepcopy(start)
    known = sorted(set(PRIORITY) | {r for _, rs, _, _, _ in judged for r in rs} - {"other"})
    for _ in range(10):
        conf = EntityConfidence(tables["entity_rules"], tables["entity_rules_repeated"])
        counts: dict[tuple[str, bool, str], list[int]] = defaultdict(lambda: [0, 0])
        for etype, rules_of, repeated, right, _ in judged:
            # The rule that gives the entity its value; ties go to the rule that settles overlaps.
            best = max(rules_of, key=lambda r: (conf([r], etype, 2 if repeated else 1), PRIORITY.get(r, 0), r))
            for key in ((best, repeated, etype), (best, repeated, "*"), ("*", repeated, "*")):
                counts[key][0] += right
                counts[key][1] += 1
        new = {"entity_rules": {}, "entity_rules_repeated": {}}
        for repeated, key in ((False, "entity_rules"), (True, "entity_rules_repeated")):
            right, n = counts[("*", repeated, "*")]
            overall = right / n if n else 0.5
            for rule in known:
                right, n = counts[(rule, repeated, "*")]
                prior = (right + WEIGHT * overall) / (n + WEIGHT)
                new[key][rule] = {}
                for etype in TYPES:
                    right, n = counts[(rule, repeated, etype)]
                    new[key][rule][etype] = round((right + WEIGHT * prior) / (n + WEIGHT), 2)
            new[key]["other"] = dict(start[key].get("other") or {t: 0.5 for t in TYPES})
        if new == tables:
            break
        tables = new
    return tables, dict(counts)


def calibration_rows(tables: dict, counts: dict) -> list[str]:
    rows = ["| rule | type | named | right / found | share right | value |",
            "| --- | --- | --- | ---: | ---: | ---: |"]
    for repeated, key in ((False, "entity_rules"), (True, "entity_rules_repeated")):
        for rule, per_type in tables[key].items():
            if rule == "other":
                continue
            for etype in TYPES:
                right, n = counts.get((rule, repeated, etype), (0, 0))
                if n:
                    rows.append(f"| {rule} | {etype} | {'more than once' if repeated else 'once'} | {right} / {n} "
                                f"| {right / n:.2f} | {per_type[etype]:.2f} |")
    return rows


def calibrate_relations(judged: list[tuple[str, float, bool, bool, float]]) -> tuple[dict, dict]:
    """New relation_bands and relation_bands_repeated, and the counts behind them."""
    counts: dict[tuple[str, bool, str], list[int]] = defaultdict(lambda: [0, 0])
    for p, raw, repeated, right, _ in judged:
        b = raw_band(raw)
        for key in ((p, repeated, b), (p, repeated, "*"), ("*", repeated, b), ("*", repeated, "*")):
            counts[key][0] += right
            counts[key][1] += 1
    # The four predicates of the spec always, with any a relation rule adds; "other" pools them all.
    predicates = sorted(set(PREDICATES) | {p for p, *_ in judged}, key=lambda p: ((PREDICATES + (p,)).index(p), p))
    tables: dict[str, dict[str, dict[str, float]]] = {}
    for repeated, name in zip((False, True), RELATION_KEYS):
        right, n = counts[("*", repeated, "*")]
        overall = right / n if n else 0.5
        tables[name] = {}
        for p in predicates + ["other"]:
            key = "*" if p == "other" else p
            right, n = counts[(key, repeated, "*")]
            prior = (right + WEIGHT * overall) / (n + WEIGHT)
            tables[name][p] = {}
            for b in RAW_BANDS:
                right, n = counts[(key, repeated, b)]
                tables[name][p][b] = round((right + WEIGHT * prior) / (n + WEIGHT), 2)
    return tables, dict(counts)


def relation_rows(tables: dict, counts: dict) -> list[str]:
    rows = ["| predicate | subject named | raw value | right / found | share right | value |",
            "| --- | --- | --- | ---: | ---: | ---: |"]
    for repeated, name in zip((False, True), RELATION_KEYS):
        named = "more than once" if repeated else "once"
        for p, per_band in tables[name].items():
            key = "*" if p == "other" else p
            for b in RAW_BANDS:
                right, n = counts.get((key, repeated, b), (0, 0))
                if n:
                    rows.append(f"| {p} | {named} | {b} to {float(b) + 0.1:.1f} | {right} / {n} | {right / n:.2f} "
                                f"| {per_band[b]:.2f} |")
            right, n = counts.get((key, repeated, "*"), (0, 0))
            if n:
                rows.append(f"| {p} | {named} | all | {right} / {n} | {right / n:.2f} | |")
    return rows


def write_values(tables: dict) -> Path:
    path = rules.packaged_path("confidence")
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(tables)
    lines = ["{", f'  "_about": {json.dumps(data["_about"], ensure_ascii=False)},']
    keys = [k for k in data if k != "_about"]
    for n, key in enumerate(keys):
        lines.append(f'  "{key}": {{')
        items = list(data[key].items())
        for k, (rule, per_type) in enumerate(items):
            lines.append(f'    "{rule}": {json.dumps(per_type)}' + ("," if k + 1 < len(items) else ""))
        lines.append("  }" + ("," if n + 1 < len(keys) else ""))
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def pool_validation(scorer: Any, shared: Path) -> None:
    """The model's confidence on the pool's validation part (the records `kg
    train` held back): an entity the scorer judged carries its probability,
    a relation the linker added its own."""
    texts = {ab.id: ab for ab in read_inputs([shared / "corpus" / "pwc-abstracts.jsonl"], ReadReport())}
    gold = [json.loads(line) for path in sorted((ROOT / "training" / "gold" / "train").glob("*.jsonl"))
            for line in path.open(encoding="utf-8") if line.strip()]
    gold = [g for g in gold if is_validation(g["id"])]
    extractor = Extractor()
    preds = [rec for _, rec in extractor.records(texts[g["id"]] for g in gold)]
    sources = [{} for _ in preds]
    print(f"**pool validation part** ({len(gold)} abstracts, held back by kg train), the shipped model\n")
    print("\n".join(reliability(scorer, gold, preds)))
    ents = [(conf, right) for *_, right, conf in judged_entities(scorer, gold, preds, sources)]
    by_id = {g["id"]: g for g in gold}
    rels = []
    for pred in preds:
        g = by_id[pred["id"]]
        gv, pv = scorer.variants(g), scorer.variants(pred)
        for p in ("evaluatedOn", "addresses", "improvesOver", "achieves"):
            pool = [r for r in g["relations"] if r["p"] == p]
            mine = [r for r in pred["relations"] if r["p"] == p]
            rights = _judge(pool, mine, lambda a, b: scorer.arg_match(a["s"], gv, b["s"], pv)
                            and scorer.arg_match(a.get("o"), gv, b.get("o"), pv))
            rels += [(r.get("confidence", 1.0), right) for r, right in zip(mine, rights)]
    print("\npool validation part: how right the facts of each band of confidence are\n")
    print("\n".join(bands(ents, rels)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared", help="the shared folder (default: ../shared)")
    ap.add_argument("--calibrate", action="store_true", help="measure the entity and relation confidence values on train")
    ap.add_argument("--write", action="store_true", help="with --calibrate: write them to the packaged rules file")
    ap.add_argument("--pool", action="store_true",
                    help="the shipped model's confidence on the pool's validation part instead")
    args = ap.parse_args()
    scorer = load_scorer(args.shared)
    if args.pool:
        pool_validation(scorer, args.shared)
        return
    if args.calibrate:
        gold, preds, sources, raws = extract(args.shared, "train")
        start = {k: rules.load("confidence")[k] for k in ("entity_rules", "entity_rules_repeated")}
        tables, counts = calibrate(judged_entities(scorer, gold, preds, sources), start)
        print("Entity confidence on train: each entity counted under the rule that gives it its value.\n")
        print("\n".join(calibration_rows(tables, counts)))
        relation_tables, relation_counts = calibrate_relations(judged_relations(scorer, gold, preds, raws))
        print("\nRelation confidence on train: each relation counted under its predicate, the tenth its raw value lies in "
              "and whether its subject is named more than once (other: all predicates).\n")
        print("\n".join(relation_rows(relation_tables, relation_counts)))
        tables.update(relation_tables)
        if args.write:
            print(f"\nwritten to {write_values(tables)}")
        else:
            print("\n" + json.dumps(tables, indent=1))
        return
    for name, note in (("train", "the set the values are measured on"), ("dev", "the check set")):
        gold, preds, sources, raws = extract(args.shared, name)
        print(f"**{name}** ({len(gold)} abstracts, {note}): facts with confidence >= C, scored with the shared scorer\n")
        print("\n".join(reliability(scorer, gold, preds)))
        ents = [(conf, right) for *_, right, conf in judged_entities(scorer, gold, preds, sources)]
        print(f"\n{name}: how right the facts of each band of confidence are\n")
        rels = [(conf, right) for *_, right, conf in judged_relations(scorer, gold, preds, raws)]
        print("\n".join(bands(ents, rels)))
        print()


if __name__ == "__main__":
    main()
