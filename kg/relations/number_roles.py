"""What each number of a result sentence is, decided before it becomes a
fact: the method's own score, a gain or margin over a baseline, an error or
cost reduced, a drop or loss, another method's score, or a setting the
result holds at (a rate, ratio, size, budget). Only a score becomes
achieves; a gain or a reduction is the value of improvesOver; a drop, a loss
or a setting is no fact; another method's score is that method's, when the
sentence names it.

The words are the rule family "number_roles" (kg/relations/role_rules.py);
whose score a number is after a comparison's cue, and shares of another
figure, are the family "results" (kg/relations/results.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from kg.relations.metric_dataset import metric_near, number_run_end
from kg.relations.numbers import Quantity, number_reader
from kg.relations.results import (
    baseline_score,
    for_method,
    previous_in_list,
    rules_of,
    score_list,
    share_of,
)
from kg.relations.role_rules import RoleRules
from kg.relations.sentence import (
    Mention,
    Sentence,
    open_bracket,
    run_of,
    start_of_clause,
)


class Role(str, Enum):
    SCORE = "score"  # the method's own score: achieves
    GAIN = "gain"  # by how much it beats a baseline: the value of improvesOver
    REDUCTION = "reduction"  # an error or a cost lowered: a gain where lower is better
    DROP = "drop"  # a drop or loss: the method does worse by it; no fact
    OTHER = "other"  # another method's score: that method's achieves, when named
    SETTING = "setting"  # a rate, ratio, size or budget the result holds at; no fact


MARGINS = (Role.GAIN, Role.REDUCTION)


@dataclass(frozen=True)
class NumberRole:
    role: Role
    owner: str | None = None  # for OTHER: the method the score is credited to, when named


def roles_of(s: Sentence) -> RoleRules:
    return rules_of(s).roles


def number_role(s: Sentence, q: Quantity) -> NumberRole:
    """The role of number `q` of sentence `s`, found once per number."""
    if s.roles is None:
        s.roles = {}
    found = s.roles.get(q.start)
    if found is None:
        found = s.roles[q.start] = _role(s, q)
    return found


def _role(s: Sentence, q: Quantity) -> NumberRole:
    if is_setting(s, q):
        return NumberRole(Role.SETTING)
    listed = _listed_role(s, q)
    if listed is not None:
        return NumberRole(listed)
    changed = _change(s, q)
    if changed is not None:
        return NumberRole(changed)
    if is_gain(s, q):
        return NumberRole(Role.GAIN)
    owned, owner = _other_score(s, q)
    if owned:
        return NumberRole(Role.OTHER, owner)
    return NumberRole(Role.SCORE)


# -- settings ---------------------------------------------------------------------------
def is_setting(s: Sentence, q: Quantity) -> bool:
    """ "at 50% sparsity", "with a budget of 10%", "with error rates as 10%",
    "the target 1e-7 error rate", "40 datasets", "75% of the original
    accuracy": a condition, a count or a share, no result reached."""
    if q.from_value is not None:
        return False
    rr = roles_of(s)
    if _count(s, q) or (not q.signed and rr.setting_next.match(s.text, _unit_end(s, q))):
        return True
    if _gain_by_itself(s, q):
        return False  # "by 2% of accuracy", "a noise improvement of 3 dB": a margin
    if share_of(s, q) or _listed_after_share(s, q):
        return True
    before = s.text[max(start_of_clause(s, q.start), q.start - 80):q.start]
    if rr.setting_before.search(before):
        return True
    after = rr.setting_after.match(s.text, q.end)
    if after and rr.setting_opener.search(before) and not _metric_within(s, q.end, after.start("word")):
        return True
    return any(m.end <= q.start and rr.setting_link.fullmatch(s.text, m.end, q.start) for m in s.of("Metric"))


_SHARE_LIST = re.compile(r"(?:\s+[^\s\d,;:()]+){0,3}?\s*,?\s*(?:and|or)?\s*")


def _listed_after_share(s: Sentence, q: Quantity) -> bool:
    """ "43% of the number of parameters and 42% FLOPs": listed after a share, a share too."""
    before = [o for o in s.quantities if o.end <= q.start]
    if not before or before[-1].unit != "%" or q.unit != "%":
        return False
    share = rules_of(s).share_of.match(s.text, before[-1].end)
    return share is not None and bool(_SHARE_LIST.fullmatch(s.text, share.end(), q.start))


def _unit_end(s: Sentence, q: Quantity) -> int:
    """Where a number ends before its unit's word: "5" of "5-fold" ("fold"
    is a unit of multipliers), "4" of "4 bits"."""
    return q.end if q.unit is None else q.start + len(q.value)


def _count(s: Sentence, q: Quantity) -> bool:
    """ "over 100 machines": a whole number with no unit before a plural
    noun; not after a word of a score ("a latency of 12 cycles")."""
    if q.unit is not None or not q.value.isdigit() or not (s.numbers or number_reader()).counted.match(s.text, q.end):
        return False
    return not rules_of(s).score_context.search(s.text, max(0, q.start - 30), q.start)


def _metric_within(s: Sentence, start: int, end: int) -> bool:
    return any(start <= m.start < end for m in s.of("Metric"))


# -- changes: gains, reductions and drops ---------------------------------------------------
def _listed_role(s: Sentence, q: Quantity) -> Role | None:
    """A number listed after another in the same unit with no word of its own
    takes its role where that is a change or a setting: "drops of 0.6% and
    1.2%", "with noise rates of 10% and 30%", "boosts AUC by 14% for A and
    18% for B"."""
    first = run_of(s, q)[0]
    if first is q or first.unit != q.unit:
        first = previous_in_list(s, q)  # "by 14% for A and 18% for B"
    if first is None or first is q or first.unit != q.unit or _direction(s, q) is not None:
        return None
    role = number_role(s, first).role
    return role if role in (Role.GAIN, Role.REDUCTION, Role.DROP, Role.SETTING) else None


def _change(s: Sentence, q: Quantity) -> Role | None:
    """A number said to be a change up or down ("0.6% top-5 accuracy loss",
    "reduces the error by 3.5 points", "73% more parameters"): a gain where
    the change is for the better in what is measured, a drop where it is for
    the worse. None where no word says which way, or what is measured is not
    known to be better high or low."""
    if q.from_value is not None:
        return None
    found = _direction(s, q)
    if found is None:
        return None
    word, measure = found
    rr = roles_of(s)
    if rr.worse.match(word):
        return Role.DROP
    if rr.better.match(word):
        return Role.GAIN
    lower_better = _lower_is_better(s, measure, q)
    if lower_better is None:
        return None
    down = bool(rr.down.match(word))
    if down == lower_better:
        return Role.REDUCTION if down else Role.GAIN
    return Role.DROP


def _direction(s: Sentence, q: Quantity) -> tuple[str, str] | None:
    """The word that says which way a number changes something, and the words
    of what changes: right after the number or its metric ("5% higher
    training cost", "0.6% top-5 accuracy loss"), or before it with "by" or
    "of" ("reduces the top-1 accuracy by 0.5%", "an accuracy drop of 0.6%").
    A word inside an entity's name ("log loss") is none."""
    rr = roles_of(s)
    pos = q.end
    metric = next((m for m in s.of("Metric") if q.end <= m.start <= q.end + 4 and not s.text[q.end:m.start].strip()), None)
    if metric is not None:
        pos = metric.end
    after = rr.direction_after.match(s.text, pos)
    if after and not _in_mention(s, after.start("dir")):
        return after.group("dir"), s.text[q.end:after.start("dir")] + _words_after(s, after.end())
    window = max(start_of_clause(s, q.start), _previous_end(s, q), q.start - 80)
    before = rr.direction_before.search(s.text, window, q.start)
    if before and not _in_mention(s, before.start("dir")):
        # "an accuracy loss of 1%": a metric right before the word is what changes too.
        named = [m.name for m in s.of("Metric") if 0 <= before.start("dir") - m.end <= 2]
        return before.group("dir"), " ".join(named + [s.text[before.end("dir"):q.start]])
    return None


_NEXT_WORDS = re.compile(r"(?:\s+(?:in|of|on)\b)?(?:\s+[^\s\d,;:()]+){1,3}")


def _words_after(s: Sentence, pos: int) -> str:
    """The words after a direction word that say what changes: "fewer trainable parameters", "drop in top-1 accuracy"."""
    m = _NEXT_WORDS.match(s.text, pos)
    return m.group() if m else ""


def _lower_is_better(s: Sentence, words: str, q: Quantity) -> bool | None:
    """Whether lower is better in what a change measures (`words`, and the
    number's metric): True for errors and costs (relation_cues
    lower_is_better, number_roles cost_words), False for any other metric
    named, None where nothing measured is named."""
    metric = metric_near(s, q, number_run_end(s, q)) or ""
    measured = f"{words} {metric}"
    if s.cues.lower_is_better.search(measured) or roles_of(s).cost.search(measured):
        return True
    named = metric or any(m.name.lower() in words.lower() for m in s.of("Metric"))  # "an accuracy loss of"
    return False if named else None


def _in_mention(s: Sentence, pos: int) -> bool:
    return any(m.start <= pos < m.end for m in s.mentions)


def _previous_end(s: Sentence, q: Quantity) -> int:
    ends = [o.end for o in s.quantities if o.end <= q.start]
    return max(ends) if ends else 0


# -- margins ------------------------------------------------------------------------------
def is_gain(s: Sentence, q: Quantity) -> bool:
    """A number that says by how much, rather than a score reached; the
    numbers listed with one are too ("improvements of 0.4% and 0.7%")."""
    if _gain_by_itself(s, q):
        return True
    if q not in s.quantities:
        return False
    run = run_of(s, q)
    # "IS and FID gains of 3.1 and 2.0": a run shares its gain word; a looser list
    # only passes one on to the numbers after it ("91.2%, an improvement of 0.3"
    # leaves 91.2% a score).
    listed = run if len(run) > 1 else [o for o in score_list(s, q) if o.start < q.start]
    if any(o is not q and o.from_value is None and _gain_by_itself(s, o) for o in listed):
        return True
    # "by 2.1% on A and 1.5% on B": the margin's list goes on with each number's own dataset.
    before = previous_in_list(s, q)
    while before is not None:
        if before.from_value is None and _gain_by_itself(s, before):
            return True
        before = previous_in_list(s, before)
    return False


def _gain_by_itself(s: Sentence, q: Quantity) -> bool:
    c = s.cues
    if q.from_value is not None:
        return False
    if q.unit == "x" or q.signed or q.gain:
        return True
    window = max(0, q.start - 70)
    after = s.text[q.end:q.end + 40]
    if c.gain_before.search(s.text[window:q.start], s.places, window) or c.gain_after.match(after):
        return True
    if c.margin_over.pattern.match(s.text, q.start):
        return True  # "1.2 F1 points over X": a number written before its baseline
    # "a 9.6% word error rate reduction": the gain word after the metric's name.
    metric = next((m for m in s.of("Metric") if m.start >= q.end and not s.text[q.end:m.start].strip()), None)
    return bool(metric and c.gain_after.match(s.text[metric.end:metric.end + 40]))


# -- another method's score --------------------------------------------------------------
_POSSESSIVE = re.compile(r"(?:'|\u2019)s\s+")
_THE = re.compile(r"\bthe\s+$", re.I)


def _other_score(s: Sentence, q: Quantity) -> tuple[bool, str | None]:
    """Whether `q` is another method's score, and that method where the
    sentence names it: "BazNet's 50% accuracy", "BarNet's accuracy is 80%",
    "compared to 80.1% for BarNet", "compared to BarNet (80.1%)", "the 82%
    precision of human graders". The paper's own method named so keeps it."""
    for m in s.of("Method"):
        if m.end <= q.start and _possessive(s, m, q):
            return (False, None) if _own(s, m) else (True, m.name)
    compared = _bracket_after_compared(s, q)
    if compared is not None:
        return True, compared.name
    run_end = number_run_end(s, q)
    if baseline_score(s, q, start_of_clause(s, q.start)):
        named = for_method(s, run_end) or _method_after(s, rules_of(s).other_score, q.start)
        return True, (named.name if named is not None and not _own(s, named) else None)
    if _THE.search(s.text, max(0, q.start - 4), q.start):
        return _owner_after(s, q)
    return False, None


def _possessive(s: Sentence, m: Mention, q: Quantity) -> bool:
    """ "BarNet's 50%", "BarNet's top-1 accuracy of 50%": the number belongs to the method before "'s"."""
    between = s.text[m.end:q.start]
    r = rules_of(s)
    return bool(_POSSESSIVE.match(between)) and (
        r.possessive_score.fullmatch(between) is not None
        or re.fullmatch(r"(?:'|\u2019)s\s+~?", between) is not None)


def _method_after(s: Sentence, pattern: re.Pattern, pos: int) -> Mention | None:
    """The method right after what `pattern` matches at `pos`."""
    m = pattern.match(s.text, pos)
    if not m:
        return None
    return next((x for x in s.of("Method") if x.start == m.end()), None)


def _bracket_after_compared(s: Sentence, q: Quantity) -> Mention | None:
    """ "compared to the QuillFormer model (83.3%)", "comparable to BarNet (45.2
    mIoU)": a number alone in brackets right after a method that a cue of
    another method's score (results baseline_score_before) or a yardstick
    (results yardsticks) leads to."""
    opened = open_bracket(s, q.start)
    if opened is None or s.text[opened + 1:q.start].strip():
        return None
    m = next((x for x in s.of("Method") if x.end <= opened and not s.text[x.end:opened].strip()), None)
    if m is None or _own(s, m):
        return None
    clause = s.text[max(start_of_clause(s, m.start), m.start - 90):m.start]
    r = rules_of(s)
    return m if r.baseline_score_cue.search(clause) or r.yardstick.search(clause) else None


def _owner_after(s: Sentence, q: Quantity) -> tuple[bool, str | None]:
    """ "the 82% precision of human graders": a number written with "the"
    and its metric, then a word of owner_links and who reached it."""
    metric = next((m for m in s.of("Metric") if m.start >= q.end
                   and rules_of(s).value_then_metric.fullmatch(s.text, q.end, m.start)), None)
    if metric is None:
        return False, None
    link = roles_of(s).owner_link.match(s.text, metric.end)
    if not link:
        return False, None
    named = next((x for x in s.of("Method") if x.start == link.end()), None)
    if named is not None:
        return (False, None) if _own(s, named) else (True, named.name)
    if s.cues.self_reference.search(s.text[link.end():link.end() + 20], s.places, link.end()):
        return False, None  # "the 91% accuracy of our model"
    return True, None


def _own(s: Sentence, m: Mention) -> bool:
    return m.proposed or m.name == s.main
