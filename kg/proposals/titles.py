"""The paper's title and the name it gives the paper's own work.

An input may carry a title (kg.model.Abstract.title; arXiv metadata always
does). kg.extraction.record's Extractor sets it on the Doc as doc._.title
before the components run. The component "kg_titles", after kg_proposals,
reads the name the title introduces (rule family "titles",
kg/resources/rules/titles.json):

- the head before a colon or a dash: "FooNet: Fast ... for ...",
  "FooNet - ...", "The Foo Learning Environment: A Playground"
  (a Dataset); not a phrase ("Lifting from the Deep: ..."), a description
  of what is done ("Rethinking Attention: ..."), a task ("Semantic
  Segmentation: ..."), nor the topic of a survey ("FooNets: A Survey");
- else the title's opening words in Title Case, ending in a method's head,
  up to a preposition ("Stacked Foo Networks for Pose Estimation");
- else, in an abstract that proposes nothing by its own cues, a name-like
  word (kg.entities.name_shapes) the title and the abstract share ("Sentence
  Pairs with Coupled-LSTMs");

none of these where the abstract's words are a name the gazetteer knows
or a task (a colon's head is the paper's own even so: "FooNet: ..." in
FooNet's own paper).

Each mention of that name in the abstract becomes a proposal candidate
(kg.entities.candidates), so kg_entities marks it proposed. The head's name is
kept in doc._.title_name (a TitleName: text, lower-case words, label,
whether the abstract writes it), also where the abstract never writes it
and it has no place in the text to be a mention of.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from spacy.language import Language
from spacy.tokens import Doc

from kg import rules
from kg.entities.candidates import Candidate, candidates
from kg.entities.lexicon import Lexicon, lexicon
from kg.entities.name_shapes import name_like_text
from kg.nlp.abbreviations import short_form_uses
from kg.nlp.tokens import positions, view_columns

for _name in ("title", "title_name"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=None)

# A name is a few words; a longer head is a phrase ("Wide Angle 3D Hand Pose Tracking from ...").
_MAX_NAME_WORDS = 5
# How far into the rest a dataset word still says what the name is ("FooWorld: An Evaluation Platform").
_REST_WORDS_FOR_TYPE = 4


class TitleName(NamedTuple):
    """A name a title gives: as written, its tokens in lower case, its type,
    and whether the abstract writes it too."""

    text: str
    words: tuple[str, ...]
    label: str
    in_abstract: bool = False


@dataclass(frozen=True)
class TitleRules:
    """The rule family "titles", compiled."""

    separator: re.Pattern
    not_name_words: frozenset[str]
    not_name_first_words: frozenset[str]
    articles: frozenset[str]
    not_proposal_after: re.Pattern
    dataset_words: frozenset[str]
    opening_name_ends: frozenset[str]
    entity_types: frozenset[str]


@rules.compiled
def title_rules(extra: tuple[str, ...]) -> TitleRules:
    """The title rules, with the changes of the user's rules files `extra`."""
    data = rules.load("titles", extra)
    try:
        separator = re.compile(rules.any_of(f"(?:{p})" for p in data["separators"]))
        articles = rules.any_of(re.escape(w) for w in data["articles"])
        after = re.compile(r"^\W*(?:(?:%s)\s+)?(?:[\w-]+\s+){0,2}?(?:%s)"
                           % (articles, rules.any_of(f"(?:{p})" for p in data["not_proposal_after"])), re.I)
    except re.error as err:
        raise rules.RulesError(f"titles: a piece is not a regular expression ({err})") from None
    return TitleRules(separator=separator,
                      not_name_words=frozenset(w.lower() for w in data["not_name_words"]),
                      not_name_first_words=frozenset(w.lower() for w in data["not_name_first_words"]),
                      articles=frozenset(w.lower() for w in data["articles"]),
                      not_proposal_after=after,
                      dataset_words=frozenset(w.lower() for w in data["dataset_words"]),
                      opening_name_ends=frozenset(w.lower() for w in data["opening_name_ends"]),
                      entity_types=frozenset(data["entity_types"]))


# -- the name in a title -----------------------------------------------------------
def title_head(words: list[str], rest: list[str], tr: TitleRules, lex: Lexicon) -> TitleName | None:
    """The name a title's head gives, from the head's tokens `words` and the
    rest's tokens `rest` (both without spaces); None when the head is no name."""
    while words and words[0].lower() in tr.articles:
        words = words[1:]
    if not words or len(words) > _MAX_NAME_WORDS:
        return None
    lowers = [w.lower() for w in words]
    if lowers[0] in tr.not_name_first_words or any(w in tr.not_name_words for w in lowers):
        return None
    joiners = lex.patterns.title_joiners
    for k, w in enumerate(words):
        inside = 0 < k < len(words) - 1
        if not (w[:1].isupper() or w[:1].isdigit() or name_like_text(w, lex) or inside and w.lower() in joiners
                or k and lex.patterns.version_number.match(w)):
            return None  # "FooNet for segmentation: ...": lower-case words make a phrase
    text = " ".join(words)
    last = lowers[-1]
    if len(words) == 1 and not name_like_text(words[0], lex) and (
            words[0] in lex.not_names or lowers[0] in lex.name_stop_words or lowers[0] in lex.task_heads):
        return None
    if last in lex.task_heads or last in lex.task_cues or text.lower() in lex.generic_terms:
        return None  # "Neural Machine Translation: ...": the field, not a name
    if tr.not_proposal_after.match(" ".join(rest)):
        return None
    dataset = last in tr.dataset_words or bool(lex.patterns.dataset_name_ending.search(words[-1])) \
        or any(w.lower() in tr.dataset_words for w in rest[:_REST_WORDS_FOR_TYPE])
    return TitleName(text, tuple(lowers), "Dataset" if dataset else "Method")


def _has_punct(words: list[str]) -> bool:
    return any(not any(c.isalnum() for c in w) for w in words)


# -- the component -------------------------------------------------------------------
@Language.factory("kg_titles", default_config={"rules": []})
def make_titles(nlp: Language, name: str, rules: list[str]) -> "TitleProposals":
    """The title rules, with the lexicon and the title rules changed by the user's `rules` files."""
    return TitleProposals(nlp, lexicon(rules), title_rules(rules))


class TitleProposals:
    """Marks the abstract's mentions of the title's name as proposals."""

    def __init__(self, nlp: Language, lex: Lexicon, tr: TitleRules):
        self.tokenizer = nlp.tokenizer
        self.lex = lex
        self.rules = tr

    def _tokens(self, text: str) -> list[str]:
        return [t.text for t in self.tokenizer(text) if not t.is_space]

    def __call__(self, doc: Doc) -> Doc:
        title = doc._.title
        if not title or title.isupper():  # a title in capitals shows no name by its letters
            return doc
        head = self.head(title)
        lowers = view_columns(doc).lowers
        if head is not None:
            found = _occurrences(lowers, head.words)
            if not found and len(head.words) > 1 and self.lex.patterns.version_number.match(head.words[-1]):
                found = _occurrences(lowers, head.words[:-1])  # "Pythia v0.1" written "Pythia"
            doc._.title_name = head._replace(in_abstract=bool(found))
            if not found:
                return doc
            label = head.label
        else:
            named = self.opening_name(doc, title) or self.shared_name(doc, title)
            if named is None:
                return doc
            found, label = named
        # A short form names its long form's entity: "loom weaving networks (LWN)" is proposed, LWN its alias.
        uses = short_form_uses(doc)
        spans = {(uses[start][0].start, uses[start][0].end) if start in uses and uses[start][1] == end - start
                 else (start, end) for start, end in found}
        candidates(doc).extend(Candidate(start, end, label, "proposal", proposed=True) for start, end in sorted(spans))
        return doc

    def head(self, title: str) -> TitleName | None:
        """The name before the title's colon or dash, if it is one."""
        m = self.rules.separator.search(title)
        if m is None:
            return None
        words = self._tokens(title[:m.start()])
        if _has_punct(words):
            return None  # "Ask, Attend and Answer: ...": a phrase with its own punctuation
        return title_head(words, self._tokens(title[m.end():]), self.rules, self.lex)

    def opening_name(self, doc: Doc, title: str) -> tuple[list[tuple[int, int]], str] | None:
        """ "Stacked Foo Networks for Pose Estimation": the title's opening
        words in Title Case up to a word of `not_name_words` or the end,
        ending in a method's head ("networks", "pooling"; not a head that
        names only with a name before it, such as "framework"), where the
        abstract writes them and no gazetteer or task rule claims them."""
        lex = self.lex
        words: list[str] = []
        for w in self._tokens(title):
            if w.lower() in self.rules.not_name_words or w.lower() in self.rules.opening_name_ends:
                break
            words.append(w)
        if not 2 <= len(words) <= _MAX_NAME_WORDS or _has_punct(words) \
                or not all(w[:1].isupper() or w.lower() in lex.patterns.title_joiners for w in words):
            return None
        last = words[-1].lower()
        if last not in lex.method_heads or last in lex.method_heads_named_only \
                or " ".join(words).lower() in lex.generic_terms:
            return None
        places = _occurrences(view_columns(doc).lowers, tuple(w.lower() for w in words))
        if not places or any(start in _claimed(doc) for start, _ in places):
            return None
        return places, "Method"

    def shared_name(self, doc: Doc, title: str) -> tuple[list[tuple[int, int]], str] | None:
        """In an abstract that proposes nothing by its own cues, the first
        name-like word of the title that the abstract writes too, where no
        gazetteer and no rule of tasks or metrics claims it: its places in
        the abstract and its type. Not a word with function words joined in
        ("In-the-Wild")."""
        if any(c.proposed for c in candidates(doc)):
            return None  # the abstract names its proposal; a word of the title may be another's ("Faster RCNN")
        lowers = view_columns(doc).lowers
        claimed = _claimed(doc)
        for word in self._tokens(title):
            if not name_like_text(word, self.lex) \
                    or any(part.lower() in self.lex.name_stop_words for part in word.split("-")):
                continue
            places = _occurrences(lowers, (word.lower(),))
            if places and not any(start in claimed for start, _ in places):
                label = "Dataset" if self.lex.patterns.dataset_name_ending.search(word) else "Method"
                return places, label
        return None


def _claimed(doc: Doc) -> set[int]:
    """The tokens of names the gazetteer knows and of tasks and metrics:
    no name a title gives is there (a name built on a known one, a
    gazetteer variant such as "coupled-LSTMs", may be)."""
    return {i for c in candidates(doc) if c.source == "gazetteer" or c.label in ("Task", "Metric")
            for i in range(c.start, c.end)}


def _occurrences(lowers: tuple[str, ...], words: tuple[str, ...]) -> list[tuple[int, int]]:
    """(start, end) of each run of tokens whose lower-case forms are `words`."""
    n = len(words)
    return [(i, i + n) for i in positions(lowers, (words[0],)) if lowers[i:i + n] == words]
