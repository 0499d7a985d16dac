"""`kg train`: kg's learned parts from gold records.

1. The gold (kg.learned.gold, each record checked against its abstract) is
   split by a hash of each id: one record in ten is the validation part,
   held back from every fit and named in the report; the rest is the
   training part, in two halves.
2. Three taggers are trained (kg.learned.tagger_training): one on each half,
   the two at once in two processes, then one on the whole training part.
3. Each half is read by the rules and by the tagger that never saw it, and
   what they find is labelled by the gold (kg.learned.training_data); the
   entity scorer and the relation linker are fitted on those rows, so that
   they learn how far to trust a tagger on text it has not seen.
4. On the validation part, each entity type, the proposal flag and each
   relation are given to the rules, the learned parts or both, whichever
   scores best there (kg.eval).
5. The chosen pipeline's relations on the validation part give the share
   right per predicate and tenth of confidence, which replaces each
   relation's confidence at extraction (kg.learned.calibration).
6. The model is written to a folder next to the target and moved into place
   once whole: a failed run leaves no half-written model.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from multiprocessing import Manager
from pathlib import Path
from queue import Queue
from typing import Callable, Iterator, Sequence

from spacy.language import Language
from spacy.tokens import Doc

from kg.errors import UserError
from kg.eval import RELATION_TYPES, evaluate, judged
from kg.extraction.record import abstract_doc, after_entities, doc_to_record, title_doc
from kg.io import ReadReport, read_inputs
from kg.learned.calibration import Calibration
from kg.learned.entity_scorer import EntityScorer
from kg.learned.gold import read_gold
from kg.learned.linear import fit
from kg.learned.model import META, add_learned, gold_hash
from kg.learned.relation_linker import RelationLinker
from kg.learned.settings import TaggerSettings
from kg.learned.tagger import PARTS
from kg.learned.tagger_training import blank_tagger, tagger_scores, train_tagger
from kg.learned.training_data import Rows, collect
from kg.model import Abstract
from kg.pipeline import extraction_pipeline
from kg.progress import Steps
from kg.version import __version__

TYPES = ("Method", "Dataset", "Task", "Metric")
PREDICATES = ("addresses", "evaluatedOn", "improvesOver")
Pair = tuple[Abstract, dict]


class TrainError(UserError, ValueError):
    """Gold or texts that cannot be trained on."""


@dataclass
class TrainReport:
    """What a training run did and measured."""
    records: int = 0
    training: int = 0
    validation: int = 0
    validation_rule: str = "records whose id's SHA-256 ends in 0 (one in ten by id)"
    tagger: dict = field(default_factory=dict)
    choices: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)
    seconds: float = 0.0


def is_validation(record_id: str) -> bool:
    return hashlib.sha256(record_id.encode("utf-8")).hexdigest()[-1] == "0"


def _half(record_id: str) -> int:
    return int(hashlib.sha256(record_id.encode("utf-8")).hexdigest()[-2], 16) % 2


def gold_pairs(gold: Sequence[str | Path], inputs: Sequence[str | Path]) -> list[Pair]:
    """(abstract, gold record) for each gold record, matched by id to the texts."""
    report = ReadReport()
    abstracts = {ab.id: ab for ab in read_inputs(list(inputs), report)}
    if not abstracts:
        raise TrainError(f"no abstract could be read from {', '.join(map(str, inputs))}")
    texts = {i: (ab.title or "") + "\n" + ab.text for i, ab in abstracts.items()}
    pairs, seen = [], {}
    for g in read_gold(gold, texts):
        rid = g.record["id"]
        if rid in seen:
            raise TrainError(f"{g.source}:{g.line}: id {rid} is also at {seen[rid]}")
        seen[rid] = f"{g.source}:{g.line}"
        pairs.append((abstracts[rid], g.record))
    if not pairs:
        raise TrainError("no gold record to train on")
    return pairs


def _tagger_bytes(pairs: list[Pair], settings: TaggerSettings, rules: tuple[str, ...], done: Queue) -> bytes:
    """A tagger trained in a worker process, as bytes (a Language does not
    pickle); each pass is counted on `done`."""
    return train_tagger(pairs, settings, rules, on_epoch=lambda epoch, loss: done.put(1)).to_bytes()


def _count(done: Queue, steps: Steps) -> threading.Thread:
    """A thread that moves the bar for each pass the workers count, until None."""
    def run() -> None:
        while done.get() is not None:
            steps.step()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _from_bytes(data: bytes, settings: TaggerSettings, rules: tuple[str, ...]) -> Language:
    return blank_tagger(settings, rules, tags=()).from_bytes(data)


@dataclass(frozen=True)
class Parts:
    """Which part runs where: per entity type, for the proposal flag (with the
    least probability the learned part needs) and per relation (likewise)."""

    entities: dict
    proposed: str = "rules"
    proposed_threshold: float = 0.5
    drop: float = 0.5
    relations: dict = field(default_factory=lambda: {p: "rules" for p in PREDICATES})
    relation_thresholds: dict = field(default_factory=lambda: {p: 0.5 for p in PREDICATES})

    def title_types(self) -> list[str]:
        """A title's names join the record for the types the scorer judges; for
        the types left to the rules, as the rules' `titles` family says (Task)."""
        return [t for t in TYPES if self.entities[t] != "rules" or t == "Task"]


def _learned(tagger: Language, parts: Parts, scorer: EntityScorer | None = None,
             linker: RelationLinker | None = None) -> Language:
    """The learned pipeline: `tagger` and kg's learned components with these parts."""
    learned = tagger
    for name in ("kg_learned_candidates", "kg_entity_scorer", "kg_relation_linker"):
        if name in learned.pipe_names:
            learned.remove_pipe(name)
    learned.add_pipe("kg_learned_candidates", config={"parts": parts.entities})
    s = learned.add_pipe("kg_entity_scorer", config={"parts": parts.entities, "proposed": parts.proposed,
                                                     "threshold": parts.proposed_threshold, "drop": parts.drop})
    if scorer is not None:
        s.types, s.proposals = scorer.types, scorer.proposals
    k = learned.add_pipe("kg_relation_linker", config={"parts": parts.relations,
                                                       "thresholds": parts.relation_thresholds})
    if linker is not None:
        k.model = linker.model
    return learned


def _pipeline(learned: Language, rules: tuple[str, ...], gazetteers: tuple[str, ...]) -> Language:
    return add_learned(extraction_pipeline(gazetteers, rules), learned)


def _docs(nlp: Language, pairs: list[Pair]) -> Iterator[Doc]:
    """Each abstract's Doc through `nlp`, its title's (entity components only) as doc._.title_doc."""
    after = after_entities(nlp)
    for abstract, _ in pairs:
        title = title_doc(nlp, abstract)
        yield nlp(abstract_doc(nlp, abstract, None if title is None else nlp(title, disable=after)))


def _records(nlp: Language, pairs: list[Pair], title_types: Sequence[str]) -> list[dict]:
    return [doc_to_record(doc, ab.id, title_types=title_types) for (ab, _), doc in zip(pairs, _docs(nlp, pairs))]


def _figures(gold: list[dict], pred: list[dict]) -> dict:
    report = evaluate(gold, pred)
    out = {"entities": round(report.entity_total().f1, 4), "proposed": round(report.proposed.f1, 4),
           "relations": round(report.relation_total().f1, 4)}
    out.update({t: round(report.entities[t].f1, 4) for t in TYPES})
    out.update({p: round(report.relations[p].f1, 4) for p in report.relations})
    return out


def _calibration(nlp: Language, validation: list[Pair], title_types: Sequence[str]) -> Calibration:
    """The share right per predicate and tenth of confidence, of the relations
    the chosen pipeline finds in the validation part (kg.learned.calibration)."""
    pred = _records(nlp, validation, title_types)
    return Calibration.fit((kind, fact.get("confidence", 1.0), right)
                           for (_, gold), rec in zip(validation, pred) for kind, fact, right in judged(gold, rec)
                           if kind in RELATION_TYPES)


def _fit_judges(rows: Rows, c: float) -> tuple[EntityScorer, RelationLinker]:
    scorer = EntityScorer({t: "both" for t in TYPES}, "learned")
    scorer.types = fit([f for f, _ in rows.types], [y for _, y in rows.types], c=c)
    if len({y for _, y in rows.proposed}) == 2:
        scorer.proposals = fit([f for f, _ in rows.proposed], [y for _, y in rows.proposed], c=c)
    linker = RelationLinker({p: "both" for p in PREDICATES})
    if len({y for _, y in rows.relations}) == 2:
        linker.model = fit([f for f, _ in rows.relations], [y for _, y in rows.relations], c=c)
    return scorer, linker


# A learned part runs only where it beats the rules by this much F1 on the
# validation part: a few hundred abstracts tell smaller differences from chance.
MARGIN = 0.01


def _better(options: Sequence, f1: Callable) -> object:
    """The first option (the rules) unless another beats it by MARGIN; then the best."""
    best = max(options, key=f1)
    return best if f1(best) >= f1(options[0]) + MARGIN else options[0]


# The least probabilities a learned proposal flag or relation is tried with.
THRESHOLDS = (0.3, 0.5, 0.7, 0.85)
# The least probabilities of "no name" that drop an entity, tried.
DROPS = (0.5, 0.6, 0.7)
# Runs on the validation part that choose the parts: 3 for the entities' parts,
# 3 for their drop threshold, 9 for the proposal flag, 9 for the relations (see _choose).
CHOICES = 3 + len(DROPS) + 2 * (1 + 2 * len(THRESHOLDS))


def _choose(tagger: Language, scorer: EntityScorer, linker: RelationLinker, validation: list[Pair],
            rules: tuple[str, ...], gazetteers: tuple[str, ...], report: TrainReport, steps: Steps) -> Parts:
    """Per entity type, for the proposal flag and per relation, the part (and
    threshold) that scores best on the validation part: the entities first,
    then the proposal flag with the entities chosen, then the relations."""
    gold = [record for _, record in validation]

    def figures(parts: Parts) -> dict:
        nlp = _pipeline(_learned(tagger, parts, scorer, linker), rules, gazetteers)
        out = _figures(gold, _records(nlp, validation, parts.title_types()))
        steps.step()
        return out

    by_mode = {mode: figures(Parts({t: mode for t in TYPES})) for mode in PARTS}
    chosen = Parts({t: _better(PARTS, lambda m: by_mode[m][t]) for t in TYPES})
    by_drop = {d: figures(replace(chosen, drop=d)) for d in DROPS}
    chosen = replace(chosen, drop=max(DROPS, key=lambda d: by_drop[d]["entities"]))
    options = [("rules", 0.5)] + [(mode, t) for mode in ("learned", "both") for t in THRESHOLDS]
    by_proposed = {f"{m} {t}": figures(replace(chosen, proposed=m, proposed_threshold=t)) for m, t in options}
    best = _better(options, lambda o: by_proposed[f"{o[0]} {o[1]}"]["proposed"])
    chosen = replace(chosen, proposed=best[0], proposed_threshold=best[1])
    by_relation = {f"{m} {t}": figures(replace(chosen, relations={p: m for p in PREDICATES},
                                               relation_thresholds={p: t for p in PREDICATES}))
                   for m, t in options}
    relations = {p: _better(options, lambda o: by_relation[f"{o[0]} {o[1]}"][p]) for p in PREDICATES}
    chosen = replace(chosen, relations={p: relations[p][0] for p in PREDICATES},
                     relation_thresholds={p: relations[p][1] for p in PREDICATES})
    report.figures = {"entities, all types alike": by_mode, "entities, drop threshold": by_drop,
                      "proposals, entities as chosen": by_proposed,
                      "relations, all alike, entities and proposals as chosen": by_relation}
    return chosen


def train(gold: Sequence[str | Path], inputs: Sequence[str | Path], out: str | Path,
          settings: TaggerSettings = TaggerSettings(), rules: Sequence[str] = (), gazetteers: Sequence[str] = (),
          c: float = 0.3, say: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
          quiet: bool = False) -> TrainReport:
    """Train kg's learned parts on the `gold` records of the abstracts in
    `inputs` and write the model folder `out` (see the module doc); a bar on
    stderr counts the steps unless `quiet` (or stderr is no terminal)."""
    started = time.monotonic()
    rules, gazetteers = tuple(map(str, rules)), tuple(map(str, gazetteers))
    pairs = gold_pairs(gold, inputs)
    validation = [p for p in pairs if is_validation(p[0].id)]
    training = [p for p in pairs if not is_validation(p[0].id)]
    if len(training) < 4 or not validation:
        raise TrainError(f"{len(pairs)} gold records are too few to train on and hold back a validation part")
    report = TrainReport(records=len(pairs), training=len(training), validation=len(validation))
    say(f"kg train: {len(training)} training records, {len(validation)} held back for validation "
        f"({report.validation_rule})")
    halves = [[p for p in training if _half(p[0].id) == k] for k in (0, 1)]
    say(f"kg train: tagger on each half of the training part ({settings.epochs} passes each)...")
    steps = Steps(3 * settings.epochs + 2 + CHOICES + 1, "kg train", quiet=quiet)  # + 1: the calibration
    with ProcessPoolExecutor(max_workers=2) as pool, Manager() as manager:
        done = manager.Queue()
        counter = _count(done, steps)
        jobs = [pool.submit(_tagger_bytes, half, settings, rules, done) for half in halves]
        taggers = [_from_bytes(job.result(), settings, rules) for job in jobs]
        whole = pool.submit(_tagger_bytes, training, settings, rules, done)
        say("kg train: tagger on the whole training part, and the judges on what each half's tagger "
            "finds in the other half...")
        rows = Rows()
        for k in (0, 1):
            learned = _learned(taggers[k], Parts({t: "both" for t in TYPES}))
            nlp = _pipeline(learned, rules, gazetteers)
            rows.extend(collect(_docs(nlp, halves[1 - k]), (record for _, record in halves[1 - k])))
            steps.step()
        scorer, linker = _fit_judges(rows, c)
        tagger = _from_bytes(whole.result(), settings, rules)
        done.put(None)
        counter.join()
    report.tagger = {"validation F1 (exact spans)": tagger_scores(tagger, validation)}
    say("kg train: choosing each part on the validation part...")
    choice = _choose(tagger, scorer, linker, validation, rules, gazetteers, report, steps)
    report.choices = asdict(choice)
    learned = _learned(tagger, choice, scorer, linker)
    calibration = _calibration(_pipeline(learned, rules, gazetteers), validation, choice.title_types())
    steps.step()
    steps.close()
    report.seconds = round(time.monotonic() - started, 1)
    _write(learned, out, {
        "kg_version": __version__,
        "trained_on": {"files": [Path(p).name for p in gold], "sha256": gold_hash(gold), "records": len(pairs),
                       "training": len(training), "validation": len(validation),
                       "validation_rule": report.validation_rule},
        "title_types": choice.title_types(), "parts": asdict(choice), "tagger": asdict(settings),
        "figures": report.figures, "confidence": calibration.to_dict(),
        "tagger_figures": report.tagger, "seconds": report.seconds})
    return report


def _write(learned: Language, out: str | Path, meta: dict) -> None:
    """The model folder `out`, written beside it and moved into place whole."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        learned.to_disk(staging)
        (staging / META).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
            os.replace(out, old / out.name)
            os.replace(staging, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(staging, out)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def report_lines(report: TrainReport) -> list[str]:
    """The figures of a run as `kg train` prints them: per entity type, the
    proposal flag and each relation, F1 on the validation part of each way
    to run it, and the way chosen."""
    c = report.choices
    lines = [f"validation part: {report.validation} records ({report.validation_rule}); trained on {report.training}",
             "F1 on the validation part      rules  learned   both   chosen"]
    types = report.figures["entities, all types alike"]
    for etype in TYPES:
        lines.append(f"  {etype:28}" + "".join(f"{types[m][etype]:7.3f}  " for m in PARTS) + c["entities"][etype])
    proposed = report.figures["proposals, entities as chosen"]
    row = [proposed["rules 0.5"]["proposed"], proposed[f"learned {c['proposed_threshold']}"]["proposed"],
           proposed[f"both {c['proposed_threshold']}"]["proposed"]]
    lines.append(f"  {'proposed (threshold ' + str(c['proposed_threshold']) + ')':28}"
                 + "".join(f"{v:7.3f}  " for v in row) + c["proposed"])
    rel = report.figures["relations, all alike, entities and proposals as chosen"]
    for predicate in PREDICATES:
        t = c["relation_thresholds"][predicate]
        row = [rel["rules 0.5"][predicate], rel[f"learned {t}"][predicate], rel[f"both {t}"][predicate]]
        lines.append(f"  {predicate + ' (threshold ' + str(t) + ')':28}" + "".join(f"{v:7.3f}  " for v in row)
                     + c["relations"][predicate])
    lines.append(f"  entities are dropped at a probability of no name of {c['drop']}")
    return lines
