"""The rules of improvesOver: the comparisons a sentence makes (a cue with
its subject and the baselines it beats), the margins it states and which
baseline each is over, and margins said without a baseline, placed once the
whole abstract is read. Which numbers are margins is decided by
kg/relations/number_roles.py; `owns_gain` tells the achieves rules which of
them a comparison of the sentence takes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kg.relations.baselines import Baseline, baselines_from
from kg.relations.found import FoundRelations
from kg.relations.metric_dataset import (
    dataset_near,
    metric_near,
    next_starts,
    number_run_end,
)
from kg.relations.number_roles import MARGINS, Role, is_gain, number_role
from kg.relations.numbers import Quantity, number_reader
from kg.relations.results import previous_in_list, rules_of, unit_fits
from kg.relations.sentence import Sentence, open_bracket, run_of
from kg.relations.subjects import find_subject


@dataclass
class Comparison:
    """One improvement cue of a sentence with what it compares."""

    subject: str
    baselines: list[Baseline]
    cue_start: int
    end: int  # where the last baseline ends
    aside: tuple[int, int] | None = None  # its brackets, when it is made in brackets with a margin (_aside)


DIGIT = re.compile(r"\d")  # the digits margin_over's \d matches, Unicode ones included


@dataclass
class _Cued:
    """Where the comparisons of a sentence begin: (cue start, where its
    baselines start) pairs, and the kinds of object some of them have."""

    starts: list[tuple[int, int]] = field(default_factory=list)
    parity: set[int] = field(default_factory=set)  # "comparable accuracy to X": matched, beaten on an advantage
    direct: set[int] = field(default_factory=set)  # "improves BERT": the method improved is the object
    of_method: set[int] = field(default_factory=set)  # "improves the accuracy of BERT"
    own_of: set[int] = field(default_factory=set)  # "reduces the WER of an ASR model": in the text's own words
    referred: dict[int, int] = field(default_factory=dict)  # cue start -> where its pronoun ends


def find_comparisons(s: Sentence) -> list[Comparison]:
    """Every improvement cue of the sentence with its subject and baselines."""
    if s.main is None and not s.of("Method"):
        return []  # no method named and no proposal: no comparison has a subject (see find_subject)
    may = s.cues.triggered(s.lower)
    if not may:
        return []
    cued = _cued(s, may)
    found: list[Comparison] = []
    taken: list[tuple[int, int]] = []
    for cue_start, obj_start in sorted(cued.starts):
        if any(a <= obj_start < b for a, b in taken):
            continue
        comp = _comparison(s, cue_start, obj_start, cued)
        if comp is not None:
            taken.append((obj_start, comp.end))
            found.append(comp)
    return found


def _cued(s: Sentence, may) -> _Cued:
    """Where the comparisons the triggered cues `may` find begin."""
    c, text = s.cues, s.text
    cued = _Cued()
    starts = cued.starts
    for name in ("improve_verb", "comparative_than", "gain_over", "gain_from", "improve_over"):
        if name in may:
            starts += [(m.start(), m.end()) for m in getattr(c, name).finditer(text, s.places)]
    if "margin_over" in may and DIGIT.search(text):  # a margin is a number: no digit, no scan
        starts += [(m.start(), m.end()) for m in c.margin_over.finditer(text, s.places)]
        # "by an average of 6% over X"; but "85% over three runs" is a score.
        starts += [(m.start(), m.end()) for m in c.percent_over.finditer(text, s.places)
                   if c.gain_before.search(text[max(0, m.start() - 70):m.start()], s.places, max(0, m.start() - 70))]
    if "compared_to" in may:
        compared = [(m.start(), m.end()) for m in c.compared_to.finditer(text, s.places)]
        gainful = bool(compared) and (c.gain_context.search(text, s.places) or any(is_gain(s, q) for q in s.quantities))
        for cue_start, obj_start in compared:
            other = rules_of(s).other_score.match(text, obj_start)
            if other and _beats(s, cue_start, other):
                starts.append((cue_start, other.end()))
            elif gainful or c.saving_before.search(text, max(0, cue_start - 80), cue_start):
                starts.append((cue_start, obj_start))
    if "parity" in may:
        for m in c.parity.finditer(text, s.places):
            cued.parity.add(m.end())
            starts.append((m.start(), m.end()))
    if "improve_object" in may:
        for m in c.improve_object.finditer(text, s.places):
            cued.direct.add(m.end())
            starts.append((m.start(), m.end()))
    if "improve_of" in may:
        methods = s.of("Method")
        ends = {m.end() for m in c.improve_of.finditer(text, s.places)}
        # "lowers BERT's latency": the method whose measure is improved, named with a possessive.
        ends |= {meth.start for meth in methods if c.possessive_object.fullmatch(text, meth.end, meth.end + 3)
                 and c.improve_of_before.search(text, max(0, meth.start - 40), meth.start)}
        starts += [(meth.start - 1, meth.start) for meth in methods if meth.start in ends]
        cued.of_method = {meth.start for meth in methods if meth.start in ends}
        cued.own_of = ends - cued.of_method
        starts += [(end - 1, end) for end in sorted(cued.own_of)]
    # "matches X on A and outperforms it on B": "it" stands for the yardstick named before.
    if cued.parity:
        for k, (cue_start, obj_start) in enumerate(starts):
            before = [p for p in cued.parity if p <= cue_start]
            pronoun = c.pronoun_object.match(text, obj_start) if before and obj_start not in cued.parity else None
            if pronoun:
                starts[k] = (cue_start, max(before))
                cued.referred[cue_start] = pronoun.end()
    return cued


def _comparison(s: Sentence, cue_start: int, obj_start: int, cued: _Cued) -> Comparison | None:
    """The comparison a cue at `cue_start` makes with what is written from
    `obj_start` on: its subject and the baselines it beats, or None."""
    subject, conf = find_subject(s, cue_start, compared=True)
    if subject is None:
        subject, conf = _fronted_subject(s, cue_start, obj_start)
    if subject is None and obj_start not in cued.of_method and obj_start not in cued.own_of:
        subject, conf = _reported_subject(s, cue_start)
    if subject is None:
        return None
    baselines = baselines_from(s, obj_start, subject)
    # Not the subject itself, nor the subject's name with kind words ("Starbucks models").
    baselines = [b for b in baselines if b.name != subject and not b.name.startswith(subject + " ")]
    if obj_start in cued.direct and baselines and not _direct_object(s, obj_start, baselines[0]):
        return None
    if obj_start in cued.own_of and baselines and not _task_model(s, obj_start, baselines[0]):
        return None
    if not baselines:
        return None
    baselines += _coordinated(s, max(b.end for b in baselines), subject)
    if obj_start in cued.own_of:
        baselines += _measure_of_next(s, max(b.end for b in baselines), subject)
    end = cued.referred.get(cue_start, max(b.end for b in baselines))  # "... outperforms it": what follows "it"
    if obj_start in cued.parity and cue_start not in cued.referred and not s.cues.advantage.match(s.text, end):
        return None  # "on par with X" and no more: X is matched, not beaten
    comp = Comparison(subject, baselines, cue_start, end)
    comp.aside = _aside(s, comp)  # once here: the margin pass and owns_gain (achieves) both ask
    return comp


_MEASURE_OF = re.compile(r"(?:[\w-]+\s+|\([\w@-]+\)\s+){1,5}?of\s+")


def _measure_of_next(s: Sentence, end: int, subject: str) -> list[Baseline]:
    """Further models of a task each with their own measure and margin, the
    verb left out: "reduces the WER of A by 6%, and the CER of B by 10%"."""
    out: list[Baseline] = []
    while True:
        step = s.cues.next_by.match(s.text, end)
        measure = _MEASURE_OF.match(s.text, step.end()) if step else None
        if measure is None:
            return out
        found = baselines_from(s, measure.end(), subject)
        if not found or not _task_model(s, measure.end(), found[0]) or not s.cues.margin_next.match(s.text, found[0].end):
            return out
        out.append(found[0])
        end = found[0].end


def _direct_object(s: Sentence, obj_start: int, b: Baseline) -> bool:
    """Whether the baseline is the whole object right after an improve verb:
    "improves [the] pretrained rankers across ...", not "improves LLM reasoning"
    (a name cut short) nor "improves the training of LLMs"."""
    c = s.cues
    lead_text = s.text[obj_start:b.start]
    marker = c.example_in.search(lead_text)
    if marker:
        # "building on prior methods such as A and B": the examples stand for earlier work named.
        generic = lead_text[:marker.start()].lower().split()
        generic = [w for w in generic if w not in c.drop_first]
        return bool(generic) and (generic[0] in c.baseline_modifiers or bool(c.baseline_phrase.search(lead_text)))
    lead = lead_text.lower().split()
    if any(w not in c.drop_first for w in lead) \
            or (" of " in s.text[b.start:b.end] and not c.baseline_phrase.search(b.name)):
        return False  # "improves the training of LLMs"; but "improves the previous state of the art"
    if not b.named and b.name.split()[0].lower() not in c.baseline_modifiers and not c.baseline_phrase.search(b.name):
        return False  # "improves the results": no earlier work named
    if b.named and c.plural_name.search(s.text[b.start:b.end]):
        return False  # "accelerates diffusion models", "enhances SSMs": a kind the method is applied to
    after = s.text[b.end:].lstrip()
    word = re.match(r"[\w-]*", after).group().lower()
    # "enhances prior parsers and ...": a list separator ends the object as it ends a baseline phrase.
    return not after or not after[0].isalnum() or word in c.stops or word in c.list_separators


def _task_model(s: Sentence, obj_start: int, b: Baseline) -> bool:
    """Whether the whole object of "improves the accuracy of" is a model
    of a task, in the text's own words: "of an ASR model", "of speech
    recognition systems"; a task named and a head noun, nothing else."""
    c = s.cues
    if b.named or any(w not in c.drop_first for w in s.text[obj_start:b.start].lower().split()):
        return False
    task = next((m for m in s.of("Task") if m.start == b.start), None)
    if task is None:
        return False
    rest = re.sub(r"\([^()]*\)", " ", s.text[task.end:b.end]).lower().split()  # "(ASR)": the task's abbreviation
    return bool(rest) and all(w in c.baseline_heads for w in rest)


def _beats(s: Sentence, cue_start: int, other: re.Match) -> bool:
    """ "an FID of 2.71, compared with 3.17 for DDPM": a comparison of two
    scores in the one metric the sentence names, kept only when the first is
    the better one (lower for errors, distances and costs)."""
    metrics = {m.name for m in s.of("Metric")}
    mine = [q for q in s.quantities if q.end <= cue_start and q.from_value is None and metric_near(s, q, number_run_end(s, q))]
    if len(metrics) != 1 or not mine:
        return False
    try:
        ours, theirs = float(mine[-1].value), float(other.group("num"))
    except ValueError:
        return False
    if ours == theirs:
        return False
    lower_better = bool(s.cues.lower_is_better.search(metrics.pop()))
    return (ours < theirs) == lower_better


def _fronted_subject(s: Sentence, cue_start: int, obj_start: int) -> tuple[str | None, float]:
    """The subject of a sentence that opens with its comparison: the proposed
    method named after the comparison's comma, else the paper's proposal:
    "Compared with X, ...", "However, against X at equal cost, ..."."""
    c = s.cues
    if not c.sentence_opener.match(s.text[:cue_start]) or not c.compared_to.pattern.match(s.text, cue_start):
        return None, 0.0
    comma = s.text.find(",", obj_start)
    if comma < 0:
        return None, 0.0
    after = [m for m in s.of("Method") if m.start > comma]
    if after and after[0].proposed:
        return after[0].name, 0.7
    if s.main and not after:
        return s.main, 0.6
    return None, 0.0


def _reported_subject(s: Sentence, cue_start: int) -> tuple[str | None, float]:
    """The paper's proposal as the subject of a reported result that names
    no method: "Experimental results show a 36% reduction compared to X",
    "Results confirm its efficacy, outperforming X". A finite verb has a
    subject of its own ("results show that prior methods outperform X",
    "... show that fine-tuning improved recall over X")."""
    c = s.cues
    if s.main is None or any(m.start < cue_start for m in s.of("Method")):
        return None, 0.0
    if c.gain_over.pattern.match(s.text, cue_start) and _opens_sentence(s, s.text[:cue_start]):
        return s.main, 0.5  # "The improvement over X is 2.3 points": a gain that opens the sentence is the proposal's
    word = re.match(r"[\w-]*", s.text[cue_start:]).group().lower()
    verbs = (c.improve_verb, c.improve_over, c.improve_object, c.parity)
    if not word.endswith("ing") and any(v.pattern.match(s.text, cue_start) for v in verbs):
        return None, 0.0  # a finite verb ("improved the accuracy over X") has a subject of its own
    if c.comparative_than.pattern.match(s.text, cue_start):
        return None, 0.0  # "X perform better than Y": a comparative follows a verb with its own subject
    before = s.text[:cue_start]
    if not c.evaluation.search(before, s.places) or not c.report_verb.search(before):
        return None, 0.0  # "results show", "experiments demonstrate": a result reported
    return s.main, 0.5


def _opens_sentence(s: Sentence, before: str) -> bool:
    """Whether `before` is at most a sentence opener and determiners: "Notably, the "."""
    words = before.split()
    while words and words[-1].lower() in s.cues.drop_first:
        words.pop()
    return bool(s.cues.sentence_opener.match(" ".join(words) + " "))


def _coordinated(s: Sentence, end: int, subject: str) -> list[Baseline]:
    """Further named baselines each with its own margin: "... B by a wide margin"."""
    out: list[Baseline] = []
    methods = s.of("Method")
    while True:
        step = s.cues.next_by.match(s.text, end)  # "... A by 2.1 points and B by 0.8"
        if not step:
            return out
        nxt = next((m for m in methods if m.start == step.end()), None)
        if nxt is None or nxt.name == subject or nxt.proposed or not s.cues.margin_next.match(s.text, nxt.end):
            return out
        out.append(Baseline(nxt.name, nxt.start, nxt.end, named=True))
        end = nxt.end


def find_improvements(s: Sentence, comparisons: list[Comparison], found: FoundRelations) -> None:
    if not comparisons:
        return
    gains = _gains(s)
    groups: dict[int, list[Quantity]] = {i: [] for i in range(len(comparisons))}
    for i, comp in enumerate(comparisons):
        if comp.aside is not None:
            # "a 2.0x speedup on A (a further 7.2% gain over X)": the margin is the aside's own number
            groups[i] = [q for q in s.quantities if comp.aside[0] < q.start < comp.aside[1] and is_gain(s, q)]
    for q in gains:
        if _owned_by_baseline(s, comparisons, q) \
                or any(c.aside is not None and c.aside[0] < q.start < c.aside[1] for c in comparisons):
            continue
        free = [i for i, comp in enumerate(comparisons) if comp.aside is None]
        if not free:
            continue
        nearest = min(free, key=lambda i: _distance(comparisons[i], q, s.text))
        groups[nearest].append(q)
    nexts = next_starts(s)
    for i, comp in enumerate(comparisons):
        qs = groups[i]
        pairs = _pair(comp.baselines, qs, s)
        for baseline, q in pairs:
            rel = {"s": comp.subject, "p": "improvesOver", "o": baseline.name}
            conf = 0.75 if baseline.named else 0.6
            if q is not None:
                rel.update(_margin(s, q, nexts))
                conf += 0.1
            else:
                rel.update(metric=_only_metric(s), dataset=_dataset_after(s, comp.end) or _only_dataset(s))
            found.add(s, rel, conf)


def unplaced_gains(s: Sentence, found: FoundRelations) -> list[tuple[Sentence, dict]]:
    """The margins of the paper's proposal in a sentence that names no
    baseline ("our method reaches a 2.3x speedup (8.1% improvement) on A"):
    improvesOver relations still without their baseline ("o"), for
    place_gains. A number read as a score reached (achieves) is not one."""
    out: list[tuple[Sentence, dict]] = []
    achieved = {(r["s"], r["value"]) for r in found.by_key.values() if r["p"] == "achieves"}
    nexts = None
    for q in s.quantities:
        if number_role(s, q).role not in MARGINS:
            continue  # a drop, a setting or a score is no margin over the baseline
        subject, _ = find_subject(s, q.start)
        if subject is None or (subject, q.value) in achieved:
            continue
        if subject != s.main and not any(m.proposed and m.name == subject for m in s.mentions):
            continue  # another method's margin: its baseline is not the proposal's
        if nexts is None:
            nexts = next_starts(s)
        out.append((s, {"s": subject, "p": "improvesOver", **_margin(s, q, nexts)}))
    return out


def _margin(s: Sentence, q: Quantity, nexts: dict[int, int]) -> dict:
    """What a margin `q` of an improvesOver says besides its baseline: its
    metric, value, unit, dataset and gain (`nexts`: next_starts of `s`)."""
    run_end = number_run_end(s, q)
    return {"metric": metric_near(s, q, run_end) or _metric_stated_before(s, q), "value": q.value,
            "unit": _gain_unit(s, q, run_end), "dataset": dataset_near(s, q.start, q.end, nexts.get(q.start, len(s.text))),
            "gain": q.gain}


def place_gains(unplaced: list[tuple[Sentence, dict]], found: FoundRelations) -> None:
    """A margin said without its baseline is over the one baseline the
    abstract compares its subject with, in any sentence: "FooNet improves
    over BarNet. ... It reaches a 2.3x speedup (8.1% improvement) on A." With
    several baselines the margin could be over any of them, and is left out."""
    for s, rel in unplaced:
        baselines = {r["o"] for r in found.by_key.values() if r["p"] == "improvesOver" and r["s"] == rel["s"]}
        if len(baselines) == 1:
            found.add(s, {**rel, "o": baselines.pop()}, 0.5)


def _gains(s: Sentence) -> list[Quantity]:
    """The margins of a sentence that compares. Numbers listed alongside a
    margin in the same unit are margins too ("up to 6.3% improvement on A,
    2.1% on B")."""
    clear = [q for q in s.quantities if (is_gain(s, q) and not _in_brackets(s, q)) or _paren_after_method(s, q)]
    if not clear:
        # "improves X's results (e.g., 24.5% on A and 11.3% on B)": examples of the gain said before them
        clear = [q for q in s.quantities if q.from_value is None and _in_examples(s, q) and not _score_context(s, q)]
    # A drop, a setting or another method's score is no margin, whatever stands around it.
    clear = [q for q in clear if number_role(s, q).role not in _NO_MARGIN]
    units = {q.unit for q in clear if q.unit}
    # Listed after a margin ("... 2.1% on B"), not before it: "reaches 91.2% accuracy, 0.3% over X".
    first = min((q.start for q in clear), default=len(s.text))
    more = [q for q in s.quantities if q not in clear and q.unit in units and q.from_value is None and q.start > first
            and not _in_brackets(s, q) and not _score_context(s, q) and not _score_context(s, run_of(s, q)[0])
            and number_role(s, q).role not in _NO_MARGIN]
    return sorted(clear + more, key=lambda q: q.start)


_NO_MARGIN = (Role.DROP, Role.SETTING, Role.OTHER)


def _aside(s: Sentence, comp: Comparison) -> tuple[int, int] | None:
    """The brackets of a comparison made in brackets with a margin of its
    own, "... (a further 7.2% gain over X)", or None: those that hold its
    first baseline and a margin before it."""
    pos = comp.baselines[0].start
    opened = open_bracket(s, pos)
    if opened is None:
        return None
    closed = s.text.find(")", pos)
    if closed < 0 or not any(opened < q.start and q.end <= pos and is_gain(s, q) for q in s.quantities):
        return None
    return opened, closed


def owns_gain(s: Sentence, comparisons: list[Comparison], q: Quantity) -> bool:
    """Whether a comparison of the sentence takes the margin `q`: any, but
    one made in brackets only the numbers there."""
    for comp in comparisons:
        aside = comp.aside
        if aside is None or aside[0] < q.start < aside[1]:
            return True
    return False


def _in_brackets(s: Sentence, q: Quantity) -> bool:
    return open_bracket(s, q.start) is not None


def _in_examples(s: Sentence, q: Quantity) -> bool:
    """Whether the number stands in brackets that open with an example marker: "(e.g., 2.1% on A)"."""
    opened = open_bracket(s, q.start)
    return opened is not None and bool(s.cues.example_marker.match(s.text[opened + 1:q.start]))


def _score_context(s: Sentence, q: Quantity) -> bool:
    """ "achieves 88.5%", "an accuracy of 88.5%": a score, not a margin; and
    so is a number listed after one, each with its dataset ("a WER of 2.3%
    on A and 5.4% on B, a 12% reduction over X": 5.4% is no margin)."""
    while q is not None:
        if rules_of(s).score_context.search(s.text[max(0, q.start - 30):q.start]):
            return True
        q = previous_in_list(s, q)
    return False


def _paren_after_method(s: Sentence, q: Quantity) -> bool:
    """ "Llama-3-8B (4.96%)": a number in brackets right after a method."""
    before = s.text[:q.start]
    return bool(re.search(r"\(\s*$", before)) and any(
        re.fullmatch(r"\s*\(\s*", s.text[m.end:q.start]) for m in s.of("Method"))


def _owned_by_baseline(s: Sentence, comparisons: list[Comparison], q: Quantity) -> bool:
    """ "surpassing X's gain of 1.7%": the number is the baseline's own, not a margin over it."""
    owned = rules_of(s).possessive_score
    return any(owned.fullmatch(s.text, b.end, q.start) for comp in comparisons for b in comp.baselines if b.end <= q.start)


def _distance(comp: Comparison, q: Quantity, text: str) -> int:
    """How far a number is from a comparison: 0 inside it, or right before
    its cue with only words between ("8.6% relative WER reduction over X")."""
    if comp.cue_start <= q.start <= comp.end:
        return 0
    if q.end <= comp.cue_start and _ADJACENT.fullmatch(text, q.end, comp.cue_start):
        return 0
    return min(abs(q.start - comp.end), abs(comp.cue_start - q.end))


_ADJACENT = re.compile(r"(?:\s+(?:[\w-]+|\([\w-]+\)))(?:\s+(?:[\w-]+|\([\w-]+\))){0,4}\s*|\s*")


def _pair(baselines: list[Baseline], qs: list[Quantity], s: Sentence) -> list[tuple[Baseline, Quantity | None]]:
    """Each baseline with its number: in order when the counts agree
    ("BM25 and DPR by 3.1 and 1.2 points"), the one number for every
    baseline, or one relation per number when one baseline is beaten by
    several margins."""
    if not qs:
        return [(b, None) for b in baselines]
    interleaved = len(baselines) > 1 and any(baselines[0].end <= q.start < baselines[-1].start for q in qs)
    if len(qs) == len(baselines) and not interleaved:
        return list(zip(baselines, qs))
    if len(qs) == 1 and not interleaved:
        return [(b, qs[0]) for b in baselines]
    if len(baselines) == 1:
        return [(baselines[0], q) for q in qs]
    out = []
    for k, b in enumerate(baselines):
        nxt = baselines[k + 1].start if k + 1 < len(baselines) else len(s.text)
        mine = [q for q in qs if b.end <= q.start < nxt]
        out.append((b, mine[0] if mine else None))
    return out


def _gain_unit(s: Sentence, q: Quantity, run_end: int) -> str | None:
    """A margin written as "0.3 BLEU" or "2 F1" is in points of that metric."""
    if q.unit:
        return q.unit
    after = s.text[run_end:run_end + 40]
    if any(m.start >= run_end and re.fullmatch(r"\s*", s.text[run_end:m.start]) for m in s.of("Metric")):
        return "points"
    if (s.numbers or number_reader()).points_after.match(after):
        return "points"  # "2.1 absolute points"
    return None


def _only_metric(s: Sentence) -> str | None:
    names = {m.name for m in s.of("Metric")}
    return names.pop() if len(names) == 1 else None


def _metric_stated_before(s: Sentence, q: Quantity) -> str | None:
    """ "improves zero-shot accuracy for A (4.96%)": the one metric named
    before the number with no other metric in between."""
    before = [m for m in s.of("Metric") if m.end <= q.start]
    if not before or len({m.name for m in s.of("Metric")}) > 1 or not unit_fits(s, q.unit, before[-1].name):
        return None
    return before[-1].name


def _dataset_after(s: Sentence, end: int) -> str | None:
    """ "outperforms X on seven of the eight GLUE tasks": the dataset a comparison names after its baseline."""
    at = rules_of(s).dataset_after.match(s.text, end)
    if not at:
        return None
    window = s.text.find(",", at.end())
    window = len(s.text) if window < 0 else window
    found = [d for d in s.of("Dataset") if at.end() <= d.start < window]
    return found[0].name if found else None


def _only_dataset(s: Sentence) -> str | None:
    names = {m.name for m in s.of("Dataset")}
    return names.pop() if len(names) == 1 else None
