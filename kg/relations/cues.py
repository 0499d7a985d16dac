"""The cue words of the relation rules (rule family "relation_cues",
kg/resources/rules/relation_cues.json), compiled into regular expressions."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Iterable, NamedTuple

from kg import rules
from kg.nlp.scanning import FOLDS, head_starts, heads, heads_show_matches, matches_at
from kg.rules import any_of

# Every list of relation cues is tried longest piece first (kg.rules.any_of).
_longest_first = partial(any_of, longest_first=True)


class Places:
    """Where the heads of each cue begin in the lower-cased text of a
    sentence, found when a rule first asks (str.find, a scan in C) and kept:
    the rules ask again clause by clause, number by number."""

    __slots__ = ("lower", "shown", "of_cue")

    def __init__(self, text: str, lower: str):
        self.lower = lower  # text.lower()
        # Whether the heads found in `lower` show every match of a Cue
        # (kg.nlp.scanning.heads_show_matches); Cues scan the other texts.
        self.shown = heads_show_matches(text, lower)
        self.of_cue: dict[Cue, list[int]] = {}

    def starts(self, cue: Cue) -> list[int]:
        """Where a head of `cue` begins, in order: every place a match can begin."""
        found = self.of_cue.get(cue)
        if found is None:
            found = self.of_cue[cue] = head_starts(self.lower, cue.heads)
        return found


class Cue:
    """A cue pattern (compiled with re.I) with its heads: the lower-case
    words every match of it begins with, derived from the pattern's own
    pieces (kg.nlp.scanning.heads). Scanning a sentence with the pattern
    tries it at every character; trying it only where a head begins (see
    Places) gives the same matches for a fraction of the cost.

    A pattern that opens with no literal word (a number: "+1.2% over") has
    no heads and is scanned; its `needs` are the literal words of another
    of its pieces, one of which every match holds ("over", "against").

    Each method reads `text`, a piece of a sentence that begins at `offset`
    in it, and `places`, the Places of the whole sentence."""

    __slots__ = ("pattern", "heads", "needs")

    def __init__(self, pattern: re.Pattern, heads: Iterable[str], needs: Iterable[str] | None = None):
        self.pattern = pattern
        self.heads = tuple(heads)
        self.needs = self.heads if needs is None else tuple(needs)
        assert self.needs, "a cue needs heads or other literal words to look for"

    def may_match(self, lower: str) -> bool:
        """Whether the pattern can match the text whose lower-cased form is
        `lower`: whether one of its literal words is in it. A sentence with
        none is passed over unscanned."""
        return any(word in lower for word in self.needs) or any(ch in lower for ch in FOLDS)

    def finditer(self, text: str, places: Places, offset: int = 0) -> list[re.Match]:
        """pattern.finditer(text), as a list."""
        if not places.shown or not self.heads:
            return list(self.pattern.finditer(text))
        return matches_at(self.pattern, text, self._starts(places, offset, len(text)))

    def search(self, text: str, places: Places, offset: int = 0) -> re.Match | None:
        """pattern.search(text)."""
        if not places.shown or not self.heads:
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


# A metric's name as written after a number: a capital in it ("BLEU", "F1", "mAP"), case as written.
_METRIC_WORD = r"(?-i:[A-Za-z][\w@.-]*?[A-Z][\w@-]*|[A-Z][\w@-]*)"


def _cue(pattern: str, pieces: Iterable[str], needs: Iterable[str] | None = None) -> Cue:
    """A cue whose matches begin with one of the regex `pieces` (`pattern` is
    written with them); its heads are theirs. `needs`: for a pattern whose
    matches begin with no literal word, pieces one of which every match holds."""
    if needs is not None:
        return Cue(re.compile(pattern, re.I), (), heads(needs))
    return Cue(re.compile(pattern, re.I), heads(pieces))


# The cues that find a comparison (Cues.comparison): a sentence in which none
# may match compares nothing.
COMPARISON_CUES = ("improve_verb", "comparative_than", "gain_over", "gain_from", "improve_over", "compared_to",
                   "margin_over", "improve_of", "improve_object", "parity")


@dataclass(frozen=True)
class Cues:
    """The relation rules' cue patterns and word lists, compiled from the
    relation_cues family (packaged file and the user's rules files)."""

    improve_verb: Cue  # "outperforms", "surpassing"
    comparative_than: Cue  # "better than", "higher accuracy than"
    gain_over: Cue  # "improvements over", "4.41x acceleration over"
    gain_from: Cue  # "a reduction of 13.5% from": a gain with its number, then its baseline after "from"
    improve_over: Cue  # "improves over", "improves upon"
    compared_to: Cue  # "compared to", "in comparison with"
    gain_context: Cue  # a comparative or gain word that makes "compared to" a gain
    saving_before: re.Pattern  # right before "compared to": "only 4 passes", a saving that makes it a gain
    improve_of: Cue  # "improves the accuracy of"
    improve_of_before: re.Pattern  # an improve_of verb right before a method: "lowers [the] " of "lowers BERT's latency"
    possessive_object: re.Pattern  # "'s " right after that method
    improve_object: Cue  # "improves" with the improved method as object: "improves BERT"
    margin_over: Cue  # a margin written before its baseline: "+1.2% over", "3 points over"
    percent_over: Cue  # "8% over X": a margin only after a margin's words ("by 8% over", "a gain of 8% over")
    achieve_verb: Cue
    gain_after: re.Pattern  # right after a number: "improvement", "faster"
    gain_before: Cue  # right before a number: "by", "an improvement of"
    evaluation: Cue
    report_verb: re.Pattern  # "show", "demonstrate": a sentence that reports a result
    release_verb: re.Pattern  # "release", "introduce": a dataset of the paper's own made, not tested on
    evaluated_object: re.Pattern  # "an evaluation of (45) ", "we compare ": right before the method evaluated
    instrument: re.Pattern  # "by using ", "applying the ": right before the method "we" use
    self_reference: Cue  # "our method", "the proposed approach", "we"
    it_reference: Cue  # "it" as a subject
    carried_reference: Cue  # "they": the proposal the sentence before named
    definite_reference: Cue  # "the optimizer", "the detector": the paper's method named by its kind
    determiner_before: re.Pattern  # "the ", "this " right before a name: "the transformer model"
    method_noun_after: re.Pattern  # " model", " architecture" right after a name
    own_before_name: re.Pattern  # "our" right before a method's name: the paper's own
    sentence_opener: re.Pattern  # all that may come before a sentence's fronted comparison
    yardstick: re.Pattern  # "on par with X": X is compared with, not the subject
    parity: Cue  # "on par with", "comparable accuracy to": a yardstick comparison's cue
    advantage: re.Pattern  # after a yardstick's baseline: ", with 10x fewer parameters", "while being faster"
    compared_before: re.Pattern  # "than X", "over the X": right before a compared method
    verb_object_start: re.Pattern  # "outperforms all X": the words between an improve verb and its object
    lower_is_better: re.Pattern  # metrics in which lower is better: "error", "FID"
    clause_break: re.Pattern  # where a clause begins: ";", "while", "which"
    next_by: re.Pattern  # after a baseline: " by 2.1 points and ": its margin, up to the next baseline
    margin_next: re.Pattern  # right after a baseline: " by", its own margin follows
    subject_clause: re.Pattern  # opens a clause with a subject of its own: "that " in "we find that prompting ..."
    setting_opener: re.Pattern  # "On long clauses FooNet ...": a clause opened by where, not by what is compared
    pronoun_object: re.Pattern  # "outperforms it": the object stands for a yardstick named before
    earlier_work: re.Pattern  # "the previous baseline", "existing methods": earlier work as a clause's whole subject
    subject_list_join: re.Pattern  # between methods listed as one subject: ", ", " and ", " & " (list_join)
    plural_name: re.Pattern  # at the end of a name: "SSMs", "diffusion models" (case as written)
    baseline_heads: frozenset[str]
    baseline_modifiers: frozenset[str]  # "prior parsers", "existing retrievers"
    not_baseline_plurals: frozenset[str]  # "existing datasets": not a baseline
    not_gerunds: frozenset[str]  # "during", "nothing": -ing words that open no gerund phrase baseline
    name_heads: frozenset[str]  # "mechanism": after a method's name, the method itself ("the cross-attention mechanism")
    drop_first: frozenset[str]
    stops: dict[str, tuple[tuple[str, ...], ...]]  # first word -> word sequences that end a baseline phrase
    stop_exceptions: dict[str, tuple[tuple[str, ...], ...]]  # ... and those that do not ("by itself")
    trailing_exception: re.Pattern  # one of those at the end of a phrase, after its head
    baseline_phrase: re.Pattern  # "state of the art", "SOTA": a phrase holding one is a baseline
    own_words: frozenset[str]  # "our", "we": a phrase with one is the paper's own
    own_first_words: frozenset[str]  # "proposed": first in a phrase, it is the paper's own
    stops_after_noun: frozenset[str]  # "trained": ends a baseline phrase after a noun
    participle_preps: frozenset[str]  # "trained on X": a participle's phrase kept in a descriptive baseline
    participle_settings: frozenset[str]  # "trained with the same budget": a setting, left out
    compound_participles: frozenset[str]  # "LSTM based tagger model": a hyphen's compound, written apart
    repeated_preposition: re.Pattern  # "over", "than" said again after a list's separator
    leading_of: re.Pattern  # "those of", "the accuracy of": read past, before a baseline
    example_marker: re.Pattern
    example_in: re.Pattern  # an example marker anywhere: "prior methods, such as"
    not_baseline_after: re.Pattern  # "on", "in" right before a name written as one: where, not what
    join_phrases: dict[str, tuple[tuple[str, ...], ...]]  # "as well as": joins baselines as list_separators do
    list_separators: frozenset[str]  # entity_patterns': ",", "and", "/" between the items of a list
    coordinators: frozenset[str]  # the words of list_separators: "and", "or"
    not_names: frozenset[str]  # the lexicon's words that are never names ("GPU")
    adjective_suffixes: frozenset[str]  # the lexicon's "-based", "-pretrained": an adjective, not a name

    @cached_property
    def _needles(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each literal word of the comparison cues with the cues that need
        it: one pass of substring tests (`in`, a scan in C) answers for all."""
        by_word: dict[str, list[str]] = {}
        for name in COMPARISON_CUES:
            for word in getattr(self, name).needs:
                by_word.setdefault(word, []).append(name)
        return tuple((word, tuple(names)) for word, names in by_word.items())

    def triggered(self, lowered: str) -> set[str]:
        """The comparison cues (COMPARISON_CUES) that could match this
        lower-cased text (Cue.may_match for each). A sentence with none
        compares nothing."""
        if any(ch in lowered for ch in FOLDS):
            return set(COMPARISON_CUES)
        return {name for word, names in self._needles if word in lowered for name in names}

    def any_trigger(self, lowered: str) -> bool:
        """Whether any comparison cue could match this lower-cased text."""
        return any(word in lowered for word, _ in self._needles) or any(ch in lowered for ch in FOLDS)


def _by_first_word(phrases: list[str]) -> dict[str, tuple[tuple[str, ...], ...]]:
    out: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases:
        words = tuple(phrase.lower().split())
        out.setdefault(words[0], []).append(words)
    return {k: tuple(v) for k, v in out.items()}


def _words(pieces: list[str]) -> str:
    r"""`\b(?:piece|...)\b`: whole words or phrases."""
    return rf"\b{_longest_first(pieces)}\b"


def _join(words: str) -> str:
    r"""A join of list items as a regex: a mark right after the item before,
    a word with space around it; then the space before the next item
    (", and" is ",\s*and\s+"; "and" is "\s+and\s+")."""
    out = ""
    for k, word in enumerate(words.split()):
        if word[0].isalnum():
            out += ("" if k else r"\s+") + re.escape(word) + r"\s+"
        else:
            out += re.escape(word) + r"\s*"
    return out


def list_join(separators: Iterable[str]) -> str:
    """What stands between two names of a list, as a regex, from entity_patterns'
    `list_separators`: a separator, or a comma and a separator word (", ",
    " and ", ", or ", " & ", " / ")."""
    seps = list(separators)
    joins = seps + [f", {w}" for w in seps if w[:1].isalnum()]
    return rf"\s*{_longest_first([_join(j) for j in joins] or ['(?!)'])}"


def _clause_break(breaks: list[str]) -> re.Pattern:
    """Marks as written, words whole; led by a lookahead of the characters
    the breaks begin with (derived from them), so that a scan of a sentence
    passes over every other character at once: the same matches, about three
    times as fast."""
    plain = _longest_first([re.escape(b) if not b[0].isalnum() else rf"\b{re.escape(b)}\b" for b in breaks])
    if not breaks:
        return re.compile(plain, re.I)
    return re.compile(rf"(?=[{''.join(sorted({re.escape(b[0]) for b in breaks}))}]){plain}", re.I)


class _Alternations(NamedTuple):
    """The alternations and lists several groups of cues are built from."""

    verbs: str
    nouns: str
    comparatives: str
    gains: str
    improve_of: str
    over: str
    compared: list[str]
    baseline_after: list[str]  # "over" and "compared to" both name the baseline after a gain
    margin: str
    definite: list[str]
    self_pieces: list[str]
    it_pieces: list[str]
    breaks: list[str]
    separators: list[str]
    lexicon: dict


def _alternations(data: dict, lexicon: dict, separators: list[str]) -> _Alternations:
    self_pieces = [rf"{word}\s+(?:[\w-]+\s+){{0,3}}?{_longest_first(data['method_nouns'])}s?\b" for word in data["own_markers"]] \
        + [rf"{word}\b" for word in data["self_reference"]]
    # "it" as a subject: not right after a word that makes it an object ("compared with it", "makes it").
    it_pieces = [r"it\s" + "".join(rf"(?<!\b{w}\sit\s)" for w in data["not_before_subject_it"]),
                 # "its advantage over": the text given ends where the cue word starts.
                 r"its\s+(?:[\w-]+\s+){0,2}$"]
    return _Alternations(
        verbs=_longest_first(data["improve_verbs"]),
        nouns=_longest_first(data["improve_nouns_over"]),
        comparatives=_longest_first(data["comparatives"]),
        gains=_longest_first(data["gain_words"]),
        improve_of=_longest_first(data["improve_of"]),
        over=_longest_first(data["over_words"]),
        compared=data["compared_to"],
        baseline_after=data["over_words"] + data["compared_to"],
        margin=_longest_first(data["margin_units"]),
        definite=data["definite_determiners"],
        self_pieces=self_pieces,
        it_pieces=it_pieces,
        # A word that opens a clause with a subject of its own opens a clause.
        breaks=list(dict.fromkeys(data["clause_breaks"] + data["subject_clause_openers"])),
        separators=separators,
        lexicon=lexicon,
    )


@rules.compiled
def cues(extra: tuple[str, ...]) -> Cues:
    """The relation cues, with the changes of the user's rules files `extra`."""
    data = rules.load("relation_cues", extra)
    a = _alternations(data, rules.load("lexicon", extra), rules.load("entity_patterns", extra)["list_separators"])
    return Cues(**_comparison_cues(data, a), **_reference_cues(data, a), **_baseline_cues(data, a))


def _comparison_cues(data: dict, a: _Alternations) -> dict:
    """The cues of a comparison and its margin, and of a result."""
    return dict(
        improve_verb=_cue(rf"\b{a.verbs}\b", data["improve_verbs"]),
        # "than" after a comparative, a few words apart; "more than 10%" is a qualifier, not a comparison.
        comparative_than=_cue(rf"\b{a.comparatives}\b(?:\s+[\w-]+){{0,3}}?\s+than\b(?!\s+[\d.]+)", data["comparatives"]),
        gain_over=_cue(rf"\b{a.nouns}\b(?:[^.;:]|\.(?=\d)){{0,60}}?\b{_longest_first(a.baseline_after)}\b", data["improve_nouns_over"]),
        # "from" names the baseline only right after the gain's number: "gains from pre-training" name a source.
        gain_from=_cue(rf"\b{a.nouns}\s+of\s+(?:{_longest_first(data['number_qualifiers'])}\s+)*[+\u2212]?\d+(?:\.\d+)?\s?(?:%|{a.margin})?\s+from\s",
                       data["improve_nouns_over"]),
        # "improves over", "improves final test accuracy over"; "on" only right after the verb's object.
        improve_over=_cue(rf"\b{_longest_first(data['improve_on_verbs'])}\s+(?:(?:[\w-]+\s+){{0,4}}?{a.over}|(?:[\w-]+\s+){{0,2}}?on)\b",
                          data["improve_on_verbs"]),
        compared_to=_cue(rf"\b{_longest_first(a.compared)}\s", a.compared),
        gain_context=_cue(rf"\b(?:{a.comparatives}|{a.gains}|{a.improve_of})\b",
                          data["comparatives"] + data["gain_words"] + data["improve_of"]),
        # "needing only 4 passes a.compared to ...": a small number said to be small, up to three words after it.
        saving_before=re.compile(rf"\b{_longest_first(data['saving_words'])}\s+(?:[\w-]+\s+)?\d[\d.,]*\s*(?:%|{a.margin})?"
                                 rf"(?:\s+[\w-]+){{0,3}}\s+$", re.I),
        # Not the second half of a compound: "an Autoencoder-enhanced model".
        improve_object=_cue(rf"(?<!-)\b{_longest_first(data['improve_object_verbs'])}\s+", data["improve_object_verbs"]),
        improve_of_before=re.compile(rf"\b{a.improve_of}\s+(?:the\s+)?$", re.I),
        possessive_object=re.compile(r"['\u2019]s\s"),
        improve_of=_cue(rf"\b{a.improve_of}\s+(?:the\s+)?(?:[\w@-]+\s+|\([\w@-]+\)\s+){{0,5}}?(?:of|for)\s+", data["improve_of"]),
        # "+2.1 BLEU a.over X", "1.2 F1 points a.over X": a metric's name may stand between a a.margin and its unit.
        margin_over=_cue(
            rf"(?<![\w.])(?:[+\u2212]\d+(?:\.\d+)?\s?(?:%|{a.margin})?(?:\s+{_METRIC_WORD})?(?:\s+{a.margin})?"
            rf"|\d+(?:\.\d+)?\s?{a.margin}|\d+(?:\.\d+)?\s+{_METRIC_WORD}\s+{a.margin})"
            rf"\s+(?:{a.gains}\s+)?{_longest_first(a.baseline_after)}\s", (), needs=a.baseline_after),
        percent_over=_cue(rf"(?<![\w.])\d+(?:\.\d+)?(?:\s?%|\s+{_METRIC_WORD})\s+(?:{a.gains}\s+)?{_longest_first(a.baseline_after)}\s",
                          (), needs=a.baseline_after),
        achieve_verb=_cue(rf"\b{_longest_first(data['achieve_verbs'])}\b", data["achieve_verbs"]),
        gain_after=re.compile(rf"^\s*(?:[\w-]+\s+){{0,2}}?{a.gains}\b", re.I),
        gain_before=_cue(
            rf"(?:\b{_longest_first(data['margin_before'])}|\b{a.gains}(?:\s+(?:of|by|in\s+(?:[\w@-]+\s+){{1,4}}?of))?)"
            rf"\s+(?:{_longest_first(data['number_qualifiers'])}\s+)*~?$", data["margin_before"] + data["gain_words"]),
        report_verb=re.compile(rf"\b{_longest_first(data['report_verbs'])}\b", re.I),
        release_verb=re.compile(rf"\b{_longest_first(data['release_verbs'])}", re.I),
        instrument=re.compile(rf"\b{_longest_first(data['instrument_words'])}\s+(?:(?:the|a|an)\s+)?$", re.I),
        evaluated_object=re.compile(rf"\b{_longest_first(data['evaluate_verbs'])}(?:\s+(?:of|on))?\s+(?:[\w-]+\s+){{0,3}}?$", re.I),
        evaluation=_cue(rf"\b{_longest_first(data['evaluation'])}", data["evaluation"]),
    )


def _reference_cues(data: dict, a: _Alternations) -> dict:
    """The cues of who a sentence is about, and of where its clauses break."""
    return dict(
        self_reference=_cue(rf"\b{_longest_first(a.self_pieces)}", a.self_pieces),
        it_reference=_cue(rf"\b{_longest_first(a.it_pieces)}", a.it_pieces),
        carried_reference=_cue(rf"\b{_longest_first(data['carried_reference'])}\b", data["carried_reference"]),
        definite_reference=_cue(
            rf"\b{_longest_first(a.definite)}\s+(?!{_longest_first(data['baseline_modifiers'] + data['definite_not_modifiers'])}\b)"
            rf"(?:[\w-]+\s+)?{_longest_first(data['definite_nouns'])}\s+(?-i:(?![A-Z\d]))(?!{_longest_first(data['definite_not_before'])}\b)",
            a.definite),
        # "our asynchronous diffusion models": one lower-case word may describe the paper's own method first.
        own_before_name=re.compile(rf"\b{_longest_first(data['own_before_name'])}\s+(?-i:[a-z][\w-]*\s+)?$", re.I),
        determiner_before=re.compile(rf"\b{_longest_first(a.definite)}\s+$", re.I),
        method_noun_after=re.compile(rf"\s+{_longest_first(data['method_nouns'])}s?\b", re.I),
        sentence_opener=re.compile(rf"^\s*(?:{_longest_first(data['sentence_openers'])},?\s+)?$", re.I),
        yardstick=re.compile(rf"{_words(data['yardsticks'])}[^,;.]{{0,50}}$", re.I),
        parity=_cue(rf"\b{_longest_first(data['yardsticks'])}\s+", data["yardsticks"]),
        advantage=re.compile(rf"(?:[^.;]|\.(?=\d)){{0,50}}?{_words(data['advantage_links'])}(?:[^.;]|\.(?=\d)){{0,60}}?"
                             rf"\b(?:{a.comparatives}|{a.gains}|{a.improve_of})\b", re.I),
        compared_before=re.compile(
            # "than X", "of an RNN", "with standard beam search": up to two lower-case words between.
            rf"\b{_longest_first(data['compared_before'] + a.compared)}\s+(?:(?:the|a|an)\s+)?(?-i:[a-z][\w-]*\s+){{0,2}}$", re.I),
        verb_object_start=re.compile(rf"\s*(?:{_longest_first(data['verb_object_words'])}\s+)*", re.I),
        lower_is_better=re.compile(_words(data["lower_is_better"]), re.I),
        clause_break=_clause_break(a.breaks),
        next_by=re.compile(rf"\s*{_longest_first(data['next_margin_words'])}\s+(?:[^,;.()]|\.(?=\d)){{1,40}}?"
                           rf"{_longest_first([_join(j) for j in data['next_baseline_joins']])}(?:the\s+)?", re.I),
        subject_clause=re.compile(rf"\b{_longest_first(data['subject_clause_openers'])}\s+", re.I),
        setting_opener=re.compile(rf"\W*{_longest_first([re.escape(w) for w in data['setting_openers']])}\s+(?-i:[a-z])", re.I),
        pronoun_object=re.compile(rf"\s*{_longest_first([re.escape(w) for w in data['pronoun_objects']])}\b", re.I),
    )


def _baseline_cues(data: dict, a: _Alternations) -> dict:
    """The cues of where a baseline named in the text's own words begins and ends."""
    return dict(
        # the clause's subject: first (after an article) and at most three words before the cue
        earlier_work=re.compile(rf"\s*(?:{_longest_first([re.escape(w) for w in data['baseline_drop_first']])}\s+)?"
                                rf"{_longest_first([re.escape(w) for w in data['baseline_modifiers']])}(?:\s+[\w-]+){{0,2}}?"
                                rf"\s+{_longest_first([re.escape(w) for w in data['baseline_heads']])}(?:\s+[\w-]+){{0,3}}\s*",
                                re.I),
        margin_next=re.compile(rf"\s+{_longest_first(data['next_margin_words'])}\b", re.I),
        subject_list_join=re.compile(list_join(a.separators), re.I),
        # An empty list (a user's "replace") matches nothing, not everything.
        plural_name=re.compile(rf"{_longest_first(data['plural_name_endings'] or ['(?!)'])}$"),
        baseline_heads=frozenset(h.lower() for h in data["baseline_heads"]),
        baseline_modifiers=frozenset(h.lower() for h in data["baseline_modifiers"]),
        not_baseline_plurals=frozenset(h.lower() for h in data["not_baseline_plurals"]),
        not_gerunds=frozenset(w.lower() for w in data["not_gerunds"]),
        name_heads=frozenset(w.lower() for w in data["name_heads"]),
        drop_first=frozenset(w.lower() for w in data["baseline_drop_first"]),
        stops=_by_first_word(data["baseline_stop"]),
        stop_exceptions=_by_first_word(data["baseline_stop_exceptions"]),
        trailing_exception=re.compile(rf"\s+{_longest_first([re.escape(e) for e in data['baseline_stop_exceptions']])}$", re.I),
        baseline_phrase=re.compile(_words(data["baseline_phrases"]), re.I),
        own_words=frozenset(w.lower() for w in data["own_words"]),
        own_first_words=frozenset(w.lower() for w in data["own_first_words"]),
        stops_after_noun=frozenset(w.lower() for w in data["baseline_stop_after_noun"]),
        participle_preps=frozenset(w.lower() for w in data["baseline_participle_preps"]),
        participle_settings=frozenset(w.lower() for w in data["baseline_participle_settings"]),
        compound_participles=frozenset(w.lower() for w in data["baseline_compound_participles"]),
        repeated_preposition=re.compile(rf"\b(?:{_longest_first(a.baseline_after)}|than)\s", re.I),
        leading_of=re.compile(rf"^{_longest_first(data['baseline_leading_of'])}\s+of\s+", re.I),
        example_marker=re.compile(rf"^\s*{_longest_first(data['example_markers'])}\s*", re.I),
        example_in=re.compile(rf",?\s*\(?\b{_longest_first(data['example_markers'])}\s*", re.I),
        not_baseline_after=re.compile(rf"\b{_longest_first(data['not_baseline_after'])}\s+$", re.I),
        list_separators=frozenset(a.separators),
        coordinators=frozenset(w for w in a.separators if w[:1].isalnum()),
        join_phrases=_by_first_word(data["baseline_join_phrases"]),
        not_names=frozenset(a.lexicon["not_names"]),
        adjective_suffixes=frozenset(w.lower() for w in a.lexicon["adjective_suffixes"]),
    )
