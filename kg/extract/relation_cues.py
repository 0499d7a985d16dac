"""The cue words of the relation rules (rule family "relation_cues",
kg/resources/rules/relation_cues.json), compiled into regular expressions."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from kg import rules
from kg.extract.scanning import matches_at, occurrences


def _alt(pieces: list[str]) -> str:
    """One alternation of `pieces`, longest first. When every piece begins
    with a letter, a lookahead of those first letters leads it: the engine
    then turns most positions away with one character test instead of trying
    every piece. It asks nothing the pieces do not, so the matches are the
    same (with re.I, [abc] and a, b, c fold case alike); searches run about
    twice as fast."""
    alternation = "(?:" + "|".join(sorted(pieces, key=len, reverse=True)) + ")"
    firsts = {p[0].lower() for p in pieces}
    if pieces and all(p[:1].isascii() and p[:1].isalpha() for p in pieces):
        return "(?=[" + "".join(sorted(firsts)) + "])" + alternation
    return alternation


def _word_start(pieces: list[str]) -> str:
    r"""`\b(?:piece|piece...)`: one of the pieces, starting a word."""
    return r"\b(?:" + "|".join(pieces) + ")"


def _heads(pieces: Iterable[str]) -> tuple[str, ...]:
    """The lower-case text that each regex piece opens with, up to its first
    operator: "outperform" of "outperform\\w*", "speed" of "speed-?ups?",
    "result" of "results? in" (a character made optional is left out). Every
    match of the pieces begins with one of them. A head that another head
    begins is dropped: its places are found with the shorter one."""
    heads = set()
    for piece in pieces:
        head = re.match(r"(?:[A-Za-z ,'-](?![?*{]))*", piece).group().lower()
        assert head and not _bar_outside_groups(piece), f"no one literal head: {piece!r}"
        heads.add(head)
    return tuple(sorted(h for h in heads if not any(h != o and h.startswith(o) for o in heads)))


def _bar_outside_groups(piece: str) -> bool:
    """Whether the regex piece is itself an alternation ("a|b"): then its
    first alternative's head would not cover the others."""
    depth = 0
    for ch in piece:
        depth += (ch == "(") - (ch == ")")
        if ch == "|" and depth == 0:
            return True
    return False


class Places:
    """Where the heads of each cue begin in the lower-cased text of a
    sentence, found when a rule first asks (str.find, a scan in C) and kept:
    the rules ask again clause by clause, number by number."""

    __slots__ = ("lower", "ascii", "of_cue")

    def __init__(self, text: str, lower: str):
        self.lower = lower  # text.lower()
        # Only in ASCII text do the heads found in `lower` show every match of
        # a Cue: re.I lets some other letters stand for ASCII ones (\u017f for
        # s, \u212a for k), and lower() may change the length. Cues scan the rest.
        self.ascii = text.isascii()
        self.of_cue: dict[Cue, list[int]] = {}

    def starts(self, cue: Cue) -> list[int]:
        """Where a head of `cue` begins, in order: every place a match can begin."""
        found = self.of_cue.get(cue)
        if found is None:
            found = self.of_cue[cue] = []
            lower = self.lower
            for head in cue.heads:
                if head in lower:  # most heads are absent: the test is all they cost
                    found += occurrences(lower, head)
            if len(cue.heads) > 1:
                found.sort()  # no duplicates: no head begins another
        return found


class Cue:
    """A cue pattern (compiled with re.I) with its heads: the lower-case
    words every match of it begins with. Scanning a sentence with the
    pattern tries it at every character; trying it only where a head begins
    (see Places) gives the same matches for a fraction of the cost.

    Each method reads `text`, a piece of a sentence that begins at `offset`
    in it, and `places`, the Places of the whole sentence."""

    __slots__ = ("pattern", "heads")

    def __init__(self, pattern: re.Pattern, heads: Iterable[str]):
        self.pattern = pattern
        self.heads = tuple(heads)

    def finditer(self, text: str, places: Places, offset: int = 0) -> list[re.Match]:
        """pattern.finditer(text), as a list."""
        if not places.ascii:
            return list(self.pattern.finditer(text))
        return matches_at(self.pattern, text, self._starts(places, offset, len(text)))

    def search(self, text: str, places: Places, offset: int = 0) -> re.Match | None:
        """pattern.search(text)."""
        if not places.ascii:
            return self.pattern.search(text)
        match = self.pattern.match
        for i in self._starts(places, offset, len(text)):
            m = match(text, i)
            if m:
                return m
        return None

    def _starts(self, places: Places, offset: int, length: int) -> list[int]:
        """Where a head begins within text[offset:offset + length] of the
        sentence, as offsets in that piece."""
        starts = places.starts(self)
        if not starts:
            return starts
        if offset:
            lo = bisect_left(starts, offset)
            return [i - offset for i in starts[lo:bisect_left(starts, offset + length, lo)]]
        if starts[-1] < length:
            return starts
        return starts[:bisect_left(starts, length)]


@dataclass(frozen=True)
class Cues:
    improve_verb: Cue  # "outperforms", "surpassing"
    comparative_than: Cue  # "better than", "higher accuracy than"
    gain_over: Cue  # "improvements over", "4.41x acceleration over"
    improve_over: Cue  # "improves over", "improves upon"
    compared_to: Cue  # "compared to", "in comparison with"
    gain_context: Cue  # a comparative or gain word that makes "compared to" a gain
    improve_of: Cue  # "improves the accuracy of"
    margin_over: re.Pattern  # a margin written before its baseline: "+1.2% over", "3 points over"
    achieve_verb: Cue
    gain_after: re.Pattern  # right after a number: "improvement", "faster"
    gain_before: Cue  # right before a number: "by", "an improvement of"
    evaluation: Cue
    self_reference: Cue  # "our method", "the proposed approach", "we"
    it_reference: Cue  # "it" as a subject
    definite_reference: Cue  # "the optimizer", "the detector": the paper's method named by its kind
    baseline_heads: frozenset[str]
    baseline_modifiers: frozenset[str]  # "prior parsers", "existing retrievers"
    drop_first: frozenset[str]
    stops: dict[str, tuple[tuple[str, ...], ...]]  # first word -> word sequences that end a baseline phrase
    example_marker: re.Pattern
    # trigger substring -> the cues it lets through. Substring tests (`in`)
    # run in C and cost a third of one regular expression of all the triggers.
    triggers: dict[str, tuple[str, ...]]

    def triggered(self, lowered: str) -> set[str]:
        """The cues that could match this lower-cased text: those with a
        trigger in it. A sentence with none compares nothing."""
        return {cue for word, names in self.triggers.items() if word in lowered for cue in names}

    def any_trigger(self, lowered: str) -> bool:
        """Whether any cue could match this lower-cased text."""
        return any(word in lowered for word in self.triggers)


def _by_first_word(phrases: list[str]) -> dict[str, tuple[tuple[str, ...], ...]]:
    out: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases:
        words = tuple(phrase.lower().split())
        out.setdefault(words[0], []).append(words)
    return {k: tuple(v) for k, v in out.items()}


def _cues_by_trigger(triggers: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    """cue -> trigger substrings, turned round: trigger -> cues, in file order."""
    out: dict[str, list[str]] = {}
    for cue, words in triggers.items():
        for word in words:
            out.setdefault(word, []).append(cue)
    return {word: tuple(cues) for word, cues in out.items()}


# Words after which "it" is an object ("compared with it", "makes it"), not the subject.
_NOT_BEFORE_SUBJECT_IT = (
    "of", "to", "on", "in", "for", "with", "from", "by", "into", "onto", "over", "than", "as", "at", "about",
    "under", "upon", "via", "against", "make", "makes", "making", "made", "render", "renders", "apply", "applies",
    "applying", "applied", "use", "uses", "using", "used", "train", "trains", "training", "call", "calls", "called",
    "is", "are", "was", "were", "be", "been", "let", "lets", "keep", "keeps", "find", "finds", "found")


def cues(extra: Iterable[str] = ()) -> Cues:
    """The relation cues, with the changes of the user's rules files `extra`."""
    return _cues(tuple(str(p) for p in extra))


@lru_cache(maxsize=16)
def _cues(extra: tuple[str, ...]) -> Cues:
    data = rules.load("relation_cues", extra)
    own = ["our", "the proposed", "this", "the presented", "the resulting", "the new"]
    compared = ["compared (?:to|with)", "in comparison (?:to|with)", "relative to", "against", "versus", r"vs\.?"]
    verbs = _alt(data["improve_verbs"])
    nouns = _alt(data["improve_nouns_over"])
    comparatives = _alt(data["comparatives"])
    gains = _alt(data["gain_words"])
    improve_of = _alt(data["improve_of"])
    method_nouns = _alt(data["method_nouns"])
    return Cues(
        improve_verb=Cue(re.compile(rf"\b{verbs}\b", re.I), _heads(data["improve_verbs"])),
        # "than" after a comparative, a few words apart; "more than 10%" is a qualifier, not a comparison.
        comparative_than=Cue(re.compile(rf"\b{comparatives}\b(?:\s+[\w-]+){{0,3}}?\s+than\b(?!\s+[\d.]+)", re.I),
                             _heads(data["comparatives"])),
        gain_over=Cue(re.compile(rf"\b{nouns}\b(?:[^.;:]|\.(?=\d)){{0,60}}?\b(?:over|upon|against|compared (?:to|with)|relative to|in comparison (?:to|with))\b",
                                 re.I), _heads(data["improve_nouns_over"])),
        # "improves over", "improves final test accuracy over"; "on" only right after the verb's object.
        improve_over=Cue(re.compile(r"\bimprov\w*\s+(?:(?:[\w-]+\s+){0,4}?(?:over|upon)|(?:[\w-]+\s+){0,2}?on)\b", re.I), ["improv"]),
        compared_to=Cue(re.compile(rf"\b(?:{'|'.join(compared)})\s", re.I), _heads(compared)),
        gain_context=Cue(re.compile(rf"\b(?:{comparatives}|{gains}|{improve_of})\b", re.I),
                         _heads(data["comparatives"] + data["gain_words"] + data["improve_of"])),
        improve_of=Cue(re.compile(rf"\b{improve_of}\s+(?:the\s+)?(?:[\w@-]+\s+){{0,4}}?(?:of|for)\s+", re.I), _heads(data["improve_of"])),
        margin_over=re.compile(
            r"(?<![\w.])(?:[+\u2212]\d+(?:\.\d+)?\s?(?:%|points?|pts|pp)?|\d+(?:\.\d+)?\s?(?:points?|pts|pp|x|\u00d7))"
            r"\s+(?:(?:absolute|relative|higher|better|more|lower|less|fewer)\s+)?(?:over|against)\s", re.I),
        achieve_verb=Cue(re.compile(rf"\b{_alt(data['achieve_verbs'])}\b", re.I), _heads(data["achieve_verbs"])),
        gain_after=re.compile(rf"^\s*(?:[\w-]+\s+){{0,2}}?{gains}\b", re.I),
        gain_before=Cue(re.compile(
            rf"(?:\bby|\b{gains}(?:\s+(?:of|by|in\s+(?:[\w@-]+\s+){{1,4}}?of))?|\bmargin of)\s+(?:(?:up to|over|more than|about|around|nearly|almost|roughly|approximately|"
            rf"at least|an average of|on average|average|a|an|absolute|relative|absolutely|relatively|only|just)\s+)*~?$", re.I),
            _heads(["by", "margin of"] + data["gain_words"])),
        evaluation=Cue(re.compile(rf"\b{_alt(data['evaluation'])}", re.I), _heads(data["evaluation"])),
        self_reference=Cue(re.compile(_word_start(
            [rf"{word}\s+(?:[\w-]+\s+){{0,3}}?{method_nouns}s?\b" for word in own] + [r"we\b", r"ours\b"]), re.I),
            _heads(own + ["we", "ours"])),
        it_reference=Cue(re.compile(_word_start([
            r"it\s" + "".join(rf"(?<!\b{w}\sit\s)" for w in _NOT_BEFORE_SUBJECT_IT),
            # "its advantage over": the text given ends where the cue word starts.
            r"its\s+(?:[\w-]+\s+){0,2}$"]), re.I), ["it"]),
        definite_reference=Cue(re.compile(
            rf"\b(?:the|this)\s+(?!(?:{_alt(data['baseline_modifiers'])}|teacher|dense|base|full|same|student|best|top|strongest|largest|smallest)\b)"
            rf"(?:[\w-]+\s+)?{_alt(data['definite_nouns'])}\s+(?-i:(?![A-Z\d]))(?!of\b|in\b|that\b|which\b|is\s+(?:a|an|the)\b)", re.I),
            ["the", "this"]),
        baseline_heads=frozenset(h.lower() for h in data["baseline_heads"]),
        baseline_modifiers=frozenset(h.lower() for h in data["baseline_modifiers"]),
        drop_first=frozenset(w.lower() for w in data["baseline_drop_first"]),
        stops=_by_first_word(data["baseline_stop"]),
        triggers=_cues_by_trigger(data["triggers"]),
        example_marker=re.compile(rf"^\s*(?:{_alt(data['example_markers'])})\s*", re.I),
    )
