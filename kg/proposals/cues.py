"""The cues of the paper's own proposals (rule family "proposals",
kg/resources/rules/proposals.json), compiled into regular expressions.

Each cue list of the family is one alternation in one pattern; a phrasing
added to a list is found wherever the list's other entries are, with no
other edit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kg import rules
from kg.nlp import scanning
from kg.rules import any_of


def _word_alt(pieces: list[str]) -> str:
    r""" and any_of(pieces), led by a lookahead of the letters the pieces
    begin with when each begins with a plain letter: a pattern is tried at
    every position of the text, and one character test turns most away
    (the cue patterns run about three times as fast). It asks nothing the
    pieces do not, so the matches are the same."""
    if pieces and all(re.match(r"[a-z](?![?*{])", p) for p in pieces):
        return rf"(?=[{''.join(sorted({p[0] for p in pieces}))}])\b{any_of(pieces)}"
    return rf"\b{any_of(pieces)}"


@dataclass(frozen=True, eq=False)
class ProposalCues:
    """The compiled cues. Each pattern says that a name follows its match."""

    opener: re.Pattern  # "we propose", "this paper introduces"
    subject: re.Pattern  # "we", "this paper": matched at the start of a cue
    joined_opener: re.Pattern  # "... and introduce": an opener whose subject came earlier
    gerund: re.Pattern  # "(by) proposing"
    naming: re.Pattern  # "called", "dubbed", "we refer to it as"
    naming_not_after: tuple[str, ...]  # what cancels a naming word right before it ("so-called")
    novelty: re.Pattern  # "novel", "new": said of what the paper introduces
    novel_before: re.Pattern  # "a novel ", "a new ": right before a name (searched up to the name)
    namely: re.Pattern  # "namely", "i.e.": a name after a noun of method ("a new approach, namely X")
    our_noun: re.Pattern  # one of our_nouns, as a whole word
    our: re.Pattern  # "our method," "our models ("
    our_name: re.Pattern  # "our", "our new", "our parameter-efficient": a name right after
    the_proposed: re.Pattern  # "the proposed"
    apposition: re.Pattern  # ", a novel", ", an efficient": the name comes before
    apposed_after: re.Pattern  # " -- a novel", ", a new": matched at the mark that sets a lower-case name off
    components: re.Pattern  # "consists of", "modules:": the parts of a proposal follow
    ours: re.Pattern  # "(ours)": the name comes before
    result_subject: re.Pattern  # where a sentence's subject starts: its start, "show that"
    result_verb: re.Pattern  # "outperforms", "contributes to": the subject does better than others
    result_adverbs: frozenset[str]  # "also", "consistently": allowed between the subject and its verb
    others_before: re.Pattern  # "such as", "existing": what follows is others' work
    list_count: re.Pattern  # "two", "several": a count before a list of the paper's own names
    list_marks: frozenset[str]  # ":", "-": what opens such a list
    dataset_before: re.Pattern  # dataset words between the cue and the name
    dataset_after: re.Pattern  # "(FB), a new dataset": dataset words soon after the name
    dataset_name: re.Pattern  # a name that says dataset by its ending ("FooBench")
    metric_after: re.Pattern  # "FooScore, a new metric": metric words soon after the name
    scan_stop: frozenset[str]
    lower_name_skipped: frozenset[str]
    lower_name_generic_heads: frozenset[str]
    lower_name_set_off: frozenset[str]
    lower_name_after_comma: frozenset[str]
    lower_name_ends: frozenset[str]
    not_after_subject: frozenset[str]
    # The cues built on a cue list (_word_alt) -> the lower-case words each match begins with (scanning.heads).
    heads: dict[str, tuple[str, ...]]

    def matches(self, cue: str, text: str, lower: str | None) -> list[re.Match]:
        """The matches of the cue named `cue` in `text`, as its finditer gives
        them; tried only where one of its heads begins in `lower`, text.lower(),
        or scanned when that is None (see kg.nlp.scanning.cue_matches)."""
        return scanning.cue_matches(getattr(self, cue), self.heads.get(cue, ()), text, lower)


@rules.compiled
def proposal_cues(extra: tuple[str, ...]) -> ProposalCues:
    """The proposal cues, with the changes of the user's rules files `extra`."""
    return compile_cues(rules.load("proposals", extra))


def compile_cues(data: dict[str, Any]) -> ProposalCues:
    """The patterns of a loaded "proposals" family (kg.rules.load)."""
    subjects, adverbs, verbs = any_of(data["subjects"]), any_of(data["subject_adverbs"]), any_of(data["opener_verbs"])
    heads: dict[str, tuple[str, ...]] = {}

    def word_cue(name: str, pieces: list[str], after: str) -> re.Pattern:
        # A cue list's words, then `after`: every match begins with one of the pieces.
        heads[name] = scanning.heads(pieces)
        return re.compile(_word_alt(pieces) + after, re.I)

    our_adjectives, our_nouns = any_of(data["our_adjectives"]), any_of(data["our_nouns"])
    return ProposalCues(
        # A verb is written as its stem: "s", "es", "d" or "ed" may follow ("proposes", "designed").
        opener=word_cue("opener", data["subjects"], rf"\s+(?:{adverbs}\s+)?{verbs}(?:e?[sd])?\b"),
        subject=re.compile(rf"\b{subjects}\s", re.I),
        joined_opener=word_cue("joined_opener", data["joined_subjects"], rf"\s+(?:{adverbs}\s+)?{verbs}(?:e?[sd])?\b"),
        gerund=word_cue("gerund", data["gerund_openers"], r"\b"),
        # An opening colon or quote (TeX's `` too) is part of the cue: the name starts after it.
        naming=word_cue("naming", data["naming_words"], r"\b\s*(?:``|`|[:\"“'])?"),
        naming_not_after=tuple(w.lower() for w in data["naming_not_after"]),
        namely=word_cue("namely", data["namely_words"], r"(?!\w)\s*,?"),
        our_noun=re.compile(rf"{any_of(data['our_nouns'])}s?", re.I),
        novelty=word_cue("novelty", data["novelty_words"], r"\b"),
        novel_before=re.compile(rf"\b(?:a|an)\s+{any_of(data['novelty_words'])}\s+$", re.I),
        # Up to five words may describe the noun ("our in-house pebble feature tool, nnFoo,"),
        # none of them a word that opens a phrase of its own ("our results on the benchmark,").
        our=word_cue("our", data["our_openers"],
                     rf" (?:{our_adjectives} )?(?:(?!{any_of(data['our_not_between'])}(?![\w-]))[\w-]+ ){{0,5}}?"
                     rf"{our_nouns}s?\s*[,(]\s*"),
        # A modifier in lower case may come between ("our parameter-efficient FooNet"); a name with
        # a hyphen is the name itself ("our DA-MoE approach").
        our_name=word_cue("our_name", ["our"], rf"\s+(?:(?:{our_adjectives}|(?-i:[a-z][\w]*-[\w-]+))\s+)?"),
        the_proposed=word_cue("the_proposed", data["the_proposed"], r"\s+"),
        apposition=re.compile(rf",\s+(?:a|an|the)\s+(?:\w+[\s-]){{0,3}}?{any_of(data['apposition_adjectives'])}\b",
                              re.I),
        apposed_after=re.compile(rf"\s*(?:,|:|--|—|–)\s*(?:a|an)\s+(?:[\w-]+\s+){{0,3}}?"
                                 rf"{any_of(data['apposition_adjectives'])}\b", re.I),
        components=word_cue("components", data["component_cues"], r"(?!\w)"),
        others_before=re.compile(rf"\b{any_of(data['others_before'])}(?!\w)", re.I),
        list_count=word_cue("list_count", data["list_counts"], r"\b"),
        list_marks=frozenset(data["list_marks"]),
        result_subject=re.compile(rf"(?:^|(?<=[.!?])\s+|\b{any_of(data['result_subject_after'])}\s+)", re.I),
        result_verb=re.compile(rf"{any_of(data['result_verbs'])}\b", re.I),  # its heads: below
        result_adverbs=frozenset(data["result_adverbs"]),
        ours=re.compile(rf"\(\s*{any_of(data['ours_marks'])}\s*\)", re.I),
        dataset_before=re.compile(rf"\b{any_of(data['dataset_words'])}s?\b", re.I),
        dataset_after=re.compile(r"^\s*(?:\([^()]{1,60}\))?\s*,?\s*(?:a|an|the)?\s*(?:[\w.]+[\s-]){0,6}?"
                                 rf"{any_of(data['dataset_words_after'])}\b", re.I),
        # The metric word ends the apposition: "a sparsity metric that", not "a metric learning model".
        metric_after=re.compile(r"[^,;:.]{0,20},\s*(?:a|an|the)\s+(?:[\w-]+\s+){0,6}?"
                                rf"{any_of(data['metric_words_after'])}s?"
                                r"(?=\s*(?:[,.;:()]|that\b|which\b|for\b|of\b|to\b|$))", re.I),
        dataset_name=re.compile(rf"{any_of(data['dataset_name_endings'])}$"),
        scan_stop=frozenset(data["scan_stop"]),
        lower_name_skipped=frozenset(data["lower_name_skipped"]),
        lower_name_generic_heads=frozenset(data["lower_name_generic_heads"]),
        lower_name_set_off=frozenset(data["lower_name_set_off"]),
        lower_name_after_comma=frozenset(data["lower_name_after_comma"]),
        lower_name_ends=frozenset(data["lower_name_ends"]),
        not_after_subject=frozenset(data["not_after_subject"]),
        heads={**heads, "result_verb": scanning.heads(data["result_verbs"])},
    )
