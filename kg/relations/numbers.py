"""Numbers as abstracts write them: "7.9%", "+4.7%", "up to 2.5%", "2% to 5%",
"1.5x", "40 times", "0.3 BLEU", "22.3% WER", "from 61.79 to 66.94",
"from 52.1 and 18.2 to 160.3 and 7.9", "ranging from 2% to 5%", "141 tokens/s".
A list marker ("(1) outperforms ...") is no number.

`quantities(text)` finds each number with its unit and says, where the text
does, whether a gain is absolute or relative. It knows nothing of entities:
which metric a number belongs to is decided by the relation component.
The units and the words around numbers are the rule family "units"
(kg/resources/rules/units.json).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable

from kg import rules


@dataclass(frozen=True)
class Quantity:
    """One number of a sentence. `value` is the number as written without
    sign or qualifier ("2.5"; a range is "2-5"); `start`/`end` are character
    offsets of the whole expression in the text given to `quantities`."""

    value: str
    start: int
    end: int
    unit: str | None = None
    gain: str | None = None  # "absolute" | "relative" when the text says
    from_value: str | None = None  # "61.79" of "from 61.79 to 66.94"
    signed: bool = False  # written with an explicit + or - sign


_ANY_DIGIT = re.compile(r"\d")
_NUM = r"\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
# A number must not continue a name ("ResNet-50", "GPT-4o", "v1.0", "CIFAR-10").
_BEFORE = r"(?<![\w.\-/@])"
_SIGN = r"(?P<sign>[+\-\u2212\u00b1])?"
_OTHER_NUMBER = re.compile(r"(?<![A-Za-z\d])\d+(?:\.\d+)?")
_CLAUSE_MARK = re.compile(r"[,;]")


def _is_year_or_count(value: str, unit: str | None, text: str, start: int) -> bool:
    """Years ("in 2019") and citation years are not results."""
    if unit:
        return False
    return bool(_YEAR.fullmatch(value))


_YEAR = re.compile(r"(?:19|20)\d\d")
# "(1) outperforms ..., (2) has ...": an item's number in a list, no result.
_MARKED_ITEM = re.compile(r"\)\s+[A-Za-z]")


def _list_marker(text: str, m: re.Match) -> bool:
    """A small whole number alone in brackets before a word: "(1)", "(2)"."""
    if m.group("unit") or m.group("sign") or not m.group("num").isdigit() or int(m.group("num")) > 20:
        return False
    return text[m.start() - 1:m.start()] == "(" and bool(_MARKED_ITEM.match(text, m.end()))


class NumberReader:
    """Reads numbers with the rule family "units" (the packaged file, or one
    changed by the user's rules files): its units, and the words that say
    whether a gain is absolute or relative, that a "from A to B" is a range,
    and that join a list of numbers."""

    def __init__(self, family: dict):
        units: dict[str, list[str]] = family["units"]
        # Written unit -> the unit the record uses.
        self.units = {form.lower(): unit for unit, forms in units.items() for form in forms}
        # Sizes and counts ("7B parameters", "12 GB") are not results.
        self.size_units = frozenset(family["size_units"])
        try:
            self.absolute = re.compile(rf"\b{rules.any_of(family['absolute_words'])}(?!\w)", re.I)
            self.relative = re.compile(rf"\b{rules.any_of(family['relative_words'])}(?!\w)", re.I)
            # "2.1 absolute points": the unit of a margin written after a word of absolute_words.
            self.points_after = re.compile(
                rf"\s*(?:{rules.any_of(family['absolute_words'])}\s+)?{rules.any_of([re.escape(f) for f in units.get('points', [])] or ['(?!)'])}(?![\w.])",
                re.I)
            self.ranging = re.compile(rf"\b{rules.any_of(family['range_words'])}\s+$", re.I)
            joiners = rules.any_of(family["coordinators"])
            self.coordinated = re.compile(rf"\s*(?:,\s*{joiners}?|{joiners}|/)\s*$", re.I)
            # "40 datasets": a count, not a result; case as written ("40 GPUs" is left alone).
            self.counted = re.compile(rf"\s+{rules.any_of(family['count_nouns'])}\b")
        except re.error as err:
            raise rules.RulesError(f"units: a piece is not a regular expression ({err})") from None
        forms = sorted(self.units, key=len, reverse=True)
        word_units = [re.escape(f) for f in forms if f[0].isalpha()]
        sym_units = [re.escape(f) for f in forms if not f[0].isalpha()]
        # Letter units must end at a word edge ("5 ms" but not "5 msec-long"
        # read as "ms"); "x"/"times" must not be a dimension ("3 x 3", "256 times 256").
        unit = (rf"(?:\s?(?:{'|'.join(sym_units)})|"
                rf"\s?(?:{'|'.join(word_units)})(?![\w\-])(?!\s*\d))")
        # One number of a list, with its unit.
        self.listed_number = re.compile(rf"(?P<num>{_NUM})(?P<unit>{unit})?", re.I)
        one = rf"{_BEFORE}{_SIGN}(?P<num>{_NUM})(?P<unit>{unit})?(?![\w.]*\d)(?![A-Za-z])"
        self.single = re.compile(one, re.I)
        self.from_to = re.compile(
            rf"\bfrom\s+(?:{_SIGN})?(?P<a>{_NUM})(?P<ua>{unit})?\s+(?:\([^()]{{0,60}}\)\s+)?to\s+(?P<sign2>[+\-\u2212])?(?P<b>{_NUM})(?P<ub>{unit})?(?![\w.]*\d)",
            re.I)
        self.span = re.compile(
            rf"{_BEFORE}(?:between\s+)?(?P<a>{_NUM})(?P<ua>{unit})?\s*(?:-|\u2013|\u2014|~|to|and)\s*(?P<b>{_NUM})(?P<ub>{unit})(?![\w.]*\d)",
            re.I)
        # "from 52.5 and 18.7 to 66.5 and 7.4": two changes written as two lists.
        listed = rf"(?:{_NUM})(?:{unit})?(?:\s*(?:,\s*(?:and\s+)?|and\s+|/\s*)(?:{_NUM})(?:{unit})?){{1,4}}"
        self.from_lists = re.compile(rf"\bfrom\s+(?P<a>{listed})\s+to\s+(?P<b>{listed})(?![\w.]*\d)", re.I)

    def unit(self, raw: str | None) -> str | None:
        if not raw:
            return None
        return self.units.get(raw.strip().lower())

    def quantities(self, text: str) -> list[Quantity]:
        """Every number of `text` with its unit, left to right. Ranges and
        "from A to B" changes are one quantity each. A unitless number
        coordinated with a following one that has a unit ("by 3.1 and 1.2
        points") takes that unit."""
        if not _ANY_DIGIT.search(text):
            return []  # every pattern needs a digit
        single, from_to, span = self.single, self.from_to, self.span
        found: list[Quantity] = []
        taken: list[tuple[int, int]] = []

        def free(a: int, b: int) -> bool:
            return all(b <= s or a >= e for s, e in taken)

        for m in self.from_lists.finditer(text):
            changes = self._paired_changes(text, m)
            found += changes
            if changes:
                taken.append((m.start(), m.end()))
        for m in from_to.finditer(text):
            if not free(m.start(), m.end()):
                continue
            ua, ub = self.unit(m.group("ua")), self.unit(m.group("ub"))
            if ua and ub and ua != ub:
                continue
            unit = ub or ua
            if self.ranging.search(text, max(0, m.start() - 20), m.start()):
                # "ranging from 12.4% to 31.6%" spans a range; it is no change from one value to another.
                q = Quantity(value=f"{m.group('a')}-{m.group('b')}", start=m.start(), end=m.end(), unit=unit)
            else:
                q = Quantity(value=m.group("b"), start=m.start(), end=m.end(), unit=unit, from_value=m.group("a"))
            found.append(replace(q, gain=self._gain(text, q.start, q.end, unit)))
            taken.append((m.start(), m.end()))
        for m in span.finditer(text):
            if not free(m.start(), m.end()):
                continue
            ua, ub = self.unit(m.group("ua")), self.unit(m.group("ub"))
            if ua and ua != ub:
                continue
            joiner = text[m.end("a") if not m.group("ua") else m.end("ua"):m.start("b")].strip().lower()
            if joiner == "and" and not m.group(0).lower().startswith("between"):
                # "3.1 and 1.2 points" is two numbers, not a range.
                continue
            value = f"{m.group('a')}-{m.group('b')}"
            found.append(Quantity(value=value, start=m.start(), end=m.end(), unit=ub,
                                  gain=self._gain(text, m.start(), m.end(), ub)))
            taken.append((m.start(), m.end()))
        for m in single.finditer(text):
            if not free(m.start(), m.end()):
                continue
            unit = self.unit(m.group("unit"))
            value = m.group("num")
            if _is_year_or_count(value, unit, text, m.start()) or _list_marker(text, m):
                continue
            found.append(Quantity(value=value, start=m.start(), end=m.end(), unit=unit,
                                  gain=self._gain(text, m.start(), m.end(), unit), signed=bool(m.group("sign"))))
            taken.append((m.start(), m.end()))
        found.sort(key=lambda q: q.start)
        return self._share_units(text, _without_spreads(text, found))

    def _gain(self, text: str, start: int, end: int, unit: str | None) -> str | None:
        """ "absolute" or "relative" when the words right around the number say so."""
        # Only the words up to the nearest other number count, so that in
        # "2.1% absolute and 3% relative" each number keeps its own word.
        before = _OTHER_NUMBER.split(text[max(0, start - 40):start])[-1]
        # After the number, only the words of its own clause: in "with a 320 ms chunk, a relative
        # reduction of 12%", "relative" is the 12%'s.
        after = _CLAUSE_MARK.split(_OTHER_NUMBER.split(text[end:end + 25])[0], 1)[0]
        if unit == "points" and self.absolute.search(text[start:end]):  # "2.1 percentage points", "3 pp"
            return "absolute"
        for window in (after[:20], before):
            if self.absolute.search(window):
                return "absolute"
            if self.relative.search(window):
                return "relative"
        return None

    def _share_units(self, text: str, qs: list[Quantity]) -> list[Quantity]:
        """A unitless number coordinated with a following one that has a unit takes it."""
        out = list(qs)
        for i in range(len(out) - 2, -1, -1):
            q, nxt = out[i], out[i + 1]
            if q.unit is None and nxt.unit is not None and self.joined(text, q, nxt):
                out[i] = replace(q, unit=nxt.unit, gain=q.gain or nxt.gain)
        return out

    def joined(self, text: str, q: Quantity, nxt: Quantity) -> bool:
        """Are `q` and the next quantity `nxt` of `text` coordinated ("0.8 and 1.6", "2.1, 3.4", "8 vs. 9")?"""
        return bool(self.coordinated.fullmatch(" " + text[q.end:nxt.start]))

    def _paired_changes(self, text: str, m: re.Match) -> list[Quantity]:
        """The changes of "from A and B to C and D": C from A, D from B, each
        quantity where its new value is written. Lists of unequal length give none."""
        olds = list(self.listed_number.finditer(m.group("a")))
        news = list(self.listed_number.finditer(m.group("b")))
        if len(olds) != len(news):
            return []
        base = m.start("b")
        out = []
        for old, new in zip(olds, news):
            unit = self.unit(new.group("unit")) or self.unit(old.group("unit"))
            start, end = base + new.start(), base + new.end()
            out.append(Quantity(value=new.group("num"), start=start, end=end, unit=unit, from_value=old.group("num"),
                                gain=self._gain(text, start, end, unit)))
        return out


@rules.compiled
def number_reader(extra: tuple[str, ...]) -> NumberReader:
    """The reader with the units of the user's rules files `extra`."""
    return NumberReader(rules.load("units", extra))


def quantities(text: str, extra: Iterable[str] = ()) -> list[Quantity]:
    """Every number of `text` with its unit (see NumberReader.quantities)."""
    return number_reader(extra).quantities(text)


_SPREAD = re.compile(r"\s*\(?\s*(?:\+/-|\+-|\u00b1)\s*")


def _without_spreads(text: str, qs: list[Quantity]) -> list[Quantity]:
    """ "39.75 +/- 0.34%", "85.3 ± 0.2": the spread after "±" is no
    result of its own; the value before it takes its unit, and its
    expression runs to the spread's end."""
    out: list[Quantity] = []
    for q in qs:
        if out and _SPREAD.fullmatch(text[out[-1].end:q.start] + ("\u00b1" if text[q.start:q.start + 1] == "\u00b1" else "")):
            out[-1] = replace(out[-1], end=q.end, unit=out[-1].unit or q.unit)
            continue
        out.append(q)
    return out


def runs(text: str, qs: list[Quantity], numbers: NumberReader | None = None) -> list[list[Quantity]]:
    """Quantities grouped into coordinated runs: "0.8 and 1.6 BLEU" is one run
    of two. `numbers`: the reader with the user's rules; None: the packaged."""
    numbers = numbers or number_reader()
    groups: list[list[Quantity]] = []
    for q in qs:
        if groups and numbers.joined(text, groups[-1][-1], q):
            groups[-1].append(q)
        else:
            groups.append([q])
    return groups
