"""The cues of the addresses relation (rule family "addresses",
kg/resources/rules/addresses.json), compiled into regular expressions."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kg import rules
from kg.entities.task_contexts import cue_words, means_before


@dataclass(frozen=True)
class AddressCues:
    opening: re.Pattern  # the text before a method that opens its clause: only clause_openers
    lead_in: re.Pattern  # a sentence's opening phrase up to its comma, then clause_openers: "When applied to passages, "
    purpose: re.Pattern  # the text between a method and its task: "for", "(DS) for the"
    joint: re.Pattern  # the text between two items of a list: ", ", " and ", ", or "; a class and its example: ", such as "
    examples: re.Pattern  # the text before the first example of a class: "Pretrained rankers, such as "
    rival: re.Pattern  # the end of the text before a method set against the subject: "an alternative to "
    purpose_before: re.Pattern  # the end of the text before a task that a method serves: "a method for "
    study: re.Pattern  # what a paper says it studies, up to the first words of the object: "We audit the "
    class_after: re.Pattern  # the text between a task and the first example of its class: " methods such as "
    class_before: re.Pattern  # the end of the text before the task of such a class: "approaches for "
    class_examples: re.Pattern  # the text between that task and the first example: " (", ", such as "
    relative: re.Pattern  # the end of the text before a relative clause: "models that "
    finding: re.Pattern  # the start of a sentence on where results were found: "Extensive experiments on "
    means: re.Pattern  # the end of the text before a task that names a means of the method: "FooNet fuses "
    uses: re.Pattern  # the end of the text before a list of downstream uses: "applications such as "
    absent: re.Pattern  # the end of the text before a task the method does without: "without explicit "


@rules.compiled
def address_cues(extra: tuple[str, ...]) -> AddressCues:
    """The addresses cues, with the changes of the user's rules files `extra`."""
    data = rules.load("addresses", extra)
    openers = rf"[\s,]*(?:{cue_words(data['clause_openers'])}\b[\s,]*)*"
    return AddressCues(
        opening=re.compile(openers, re.I),
        lead_in=re.compile(rf"\s*{cue_words(data['lead_in_openers'])}\b[^,;:()]{{0,80}}?,{openers}", re.I),
        # An abbreviation in brackets may stand between the method and the link word; a method
        # written as that abbreviation ends before its closing bracket.
        # "QuillNet, a fast parser for": an apposition of a few words may describe the method first.
        purpose=re.compile(rf"\)?\s*(?:\([^()]*\)\s*)?(?:,\s*{cue_words(data['appositive_heads'])}\s+(?:[\w-]+\s+){{0,4}}?)?"
                           rf"{cue_words(data['purpose_links'])}\s+(?:(?:the|a|an)\s+)?", re.I),
        joint=re.compile(rf"\)?\s*(?:\([^()]*\)\s*)?(?:,\s*(?:{cue_words(data['coordinators'])}\s+)?|{cue_words(data['coordinators'])}\s+"
                         rf"|,?\s*{cue_words(data['example_links'])}\s+)(?:the\s+)?", re.I),
        # The class named in a few words of its own: "Pretrained transformer models (PTMs), such as ".
        examples=re.compile(rf"{openers}(?:[\w-]+\s+){{0,4}}?[\w-]+\s*(?:\([^()]*\)\s*)?,?\s*{cue_words(data['example_links'])}\s*",
                            re.I),
        rival=re.compile(rf"\b{cue_words(data['rival_links'])}\s+(?:[\w-]+\s+){{0,2}}$", re.I),
        purpose_before=re.compile(rf"\b{cue_words(data['purpose_links'])}\s+(?:(?:the|a|an)\s+)?(?:[\w-]+\s+)?$", re.I),
        # The object may begin with a few words before its first method: "We audit the open FooLM".
        class_after=re.compile(rf"\s*(?:-based\s+)?{cue_words(data['class_nouns'])}\s*(?:\(|,?\s*{cue_words(data['example_links'])}\s+)(?:the\s+)?",
                               re.I),
        class_before=re.compile(rf"\b{cue_words(data['class_nouns'])}\s+{cue_words(data['purpose_links'])}\s+(?:the\s+)?$", re.I),
        class_examples=re.compile(rf"\s*(?:\(|,?\s*{cue_words(data['example_links'])}\s+)(?:the\s+)?", re.I),
        relative=re.compile(rf"[\w)]\s*,?\s*{cue_words(data['relative_pronouns'])}\s*$", re.I),
        finding=re.compile(rf"{openers}(?:[\w-]+\s+){{0,2}}?{cue_words(data['finding_openers'])}\s", re.I),
        means=means_before(extra),
        uses=re.compile(rf"\b{cue_words(data['use_links'])}\s+(?:(?:the|a|an)\s+)?$", re.I),
        absent=re.compile(rf"\b{cue_words(data['absence_links'])}\s+(?:(?:the|a|an|any)\s+)?(?:[\w-]+\s+)?$", re.I),
        study=re.compile(rf"\b{_study_openers(data['study_openers'])}\s+(?:[\w-]+\s+){{0,3}}?$", re.I),
    )


def _study_openers(entries: list[str]) -> str:
    """ "we study" -> "we", up to two words, "study": "we then further study"."""
    pieces = []
    for e in entries:
        words = [re.escape(w) for w in e.lower().split()]
        pieces.append(r"\s+".join(words[:-1]) + r"\s+(?:[\w-]+\s+){0,2}?" + words[-1] + r"\b")
    return rules.any_of(pieces)
