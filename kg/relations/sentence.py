"""A sentence as the relation rules see it: its text, its entity mentions
(offsets within the sentence) and its numbers, built once per sentence so
that no rule rebuilds text from tokens; and where its clauses begin and end."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Sequence

from spacy.tokens import Doc

from kg.entities.entity import settled_entities
from kg.nlp.tokens import view_columns
from kg.relations.cues import Cues, Places
from kg.relations.numbers import NumberReader, Quantity, number_reader, runs


class Mention(NamedTuple):
    """An entity mention: character offsets within its sentence (within the
    document as `doc_mentions` returns them), token offsets within the document.
    A tuple, because thousands are made per document."""

    start: int
    end: int
    label: str
    name: str
    proposed: bool
    tok_start: int
    tok_end: int


@dataclass
class Sentence:
    """One sentence with its mentions and numbers; `main` is the paper's main
    proposal. Its bounds are plain offsets, not a spaCy Span: a Span per
    sentence cost more than the rules that read it."""

    doc: Doc
    start: int  # token offsets of the sentence in `doc` (end exclusive)
    end: int
    start_char: int  # character offsets in `doc_text` (end_char: where the last token ends)
    end_char: int
    text: str  # doc_text[start_char:end_char]
    lower: str  # text.lower(), made once for the rules' pre-checks
    places: Places  # where the cue words begin in `lower`, found when first asked
    doc_text: str
    mentions: list[Mention]
    main: str | None  # the paper's main proposed method
    cues: Cues  # the relation cues, with the user's rules files
    proposals: dict[str, str]  # how the text writes each proposed method -> its name
    found_quantities: list[Quantity] | None = None  # see `quantities`
    by_token: dict[int, Mention] = field(default_factory=dict)
    clause_breaks: list[int] | None = None  # filled when first asked for
    last_proposal: str | None = None  # the proposed method named last before the sentence
    follows_proposal: bool = False  # whether the sentence before names a proposal of the paper
    peer_proposals: tuple[str, ...] = ()  # the proposals each introduced in its own right before the sentence
    own_datasets: tuple[str, ...] = ()  # the paper's own datasets named before the sentence
    by_label: dict[str, list[Mention]] | None = None  # of()'s answers, made when first asked
    context_dataset: str | None = None  # where earlier results were measured (kg.relations.results.result_setting)
    result_rules: Any = None  # kg.relations.results.ResultRules with the user's rules files; None: the packaged
    numbers: NumberReader | None = None  # reads numbers with the user's units; None: the packaged
    address_cues: Any = None  # kg.relations.address_cues.AddressCues with the user's rules files; None: the packaged
    roles: dict[int, Any] | None = None  # what each number is (kg.relations.number_roles), by where it starts

    def of(self, label: str) -> Sequence[Mention]:
        """The mentions of type `label`, in text order. The rules ask this many
        times per sentence, so the lists are made once, in one pass; callers
        must not change them."""
        if self.by_label is None:
            self.by_label = {}
            for m in self.mentions:
                self.by_label.setdefault(m.label, []).append(m)
        return self.by_label.get(label, ())

    @property
    def quantities(self) -> list[Quantity]:
        """The numbers of the sentence that can be results: not sizes, not
        part of an entity's name. Found when first asked for: only sentences
        that compare or name a metric ask."""
        if self.found_quantities is None:
            numbers = self.numbers or number_reader()
            self.found_quantities = [q for q in numbers.quantities(self.text)
                                     if q.unit not in numbers.size_units and not _inside_mention(self, q)]
        return self.found_quantities

    def mention_at_token(self, i: int) -> Mention | None:
        return self.by_token.get(i)

    def first_token(self, pos: int) -> int:
        """The index of the first token starting at or after character `pos`."""
        idxs = view_columns(self.doc).idxs
        return bisect_left(idxs, self.start_char + pos, self.start, self.end)


def doc_mentions(doc: Doc, text: str) -> list[Mention]:
    """The entity spans as plain values, in text order, offsets in the document."""
    out = [Mention(e.start_char, e.end_char, e.label, e.name or text[e.start_char:e.end_char], bool(e.proposed),
                   e.start, e.end) for e in settled_entities(doc)]
    out.sort(key=lambda m: (m.tok_start, -m.tok_end))
    return out


def sentence_view(doc: Doc, bounds: tuple[int, int, int, int], doc_text: str, ents: list[Mention],
                  main: str | None, cues: Cues, proposals: dict[str, str] | None = None,
                  lower: str | None = None) -> Sentence:
    """The sentence of `doc` with `bounds` (first token, end token, start
    char, end char) and entity mentions `ents`, read with `cues`; `lower` is
    its lower-cased text when the caller has it already."""
    start, end, base, end_char = bounds
    mentions = [Mention(m.start - base, m.end - base, m.label, m.name,
                        m.proposed or (m.label == "Method" and m.name == main), m.tok_start, m.tok_end)
                for m in ents]
    text = doc_text[base:end_char]
    lower = text.lower() if lower is None else lower
    s = Sentence(doc, start, end, base, end_char, text, lower, Places(text, lower), doc_text, mentions, main,
                 cues, proposals if proposals is not None else ({main: main} if main else {}))
    s.by_token = {m.tok_start: m for m in mentions}
    return s


def _inside_mention(s: Sentence, q: Quantity) -> bool:
    return any(m.start <= q.start and q.end <= m.end for m in s.mentions)


def start_of_clause(s: Sentence, pos: int) -> int:
    """Where the clause holding character `pos` begins."""
    if s.clause_breaks is None:
        s.clause_breaks = _clause_breaks(s.text, s.cues)
    k = bisect_right(s.clause_breaks, pos)
    return s.clause_breaks[k - 1] if k else 0


def _clause_breaks(text: str, c: Cues) -> list[int]:
    """Where a clause of `text` begins: after each mark or word of c.clause_break."""
    return [m.end() for m in c.clause_break.finditer(text)]


def end_of_clause(s: Sentence, pos: int) -> int:
    """Where the clause holding character `pos` ends: the next clause break ("while", ";")."""
    start_of_clause(s, pos)  # fills s.clause_breaks
    k = bisect_right(s.clause_breaks, pos)
    return s.clause_breaks[k] if k < len(s.clause_breaks) else len(s.text)


def open_bracket(s: Sentence, pos: int) -> int | None:
    """Where the bracket that is still open at character `pos` opens, or None: "(e.g., 2.1% on A"."""
    opened = s.text.rfind("(", 0, pos)
    return opened if opened >= 0 and s.text.rfind(")", 0, pos) < opened else None


def run_of(s: Sentence, q: Quantity) -> list[Quantity]:
    """The run of numbers `q` is in ("85.1% and 78.3%"; kg.relations.numbers.runs), or `q` alone."""
    return next((r for r in runs(s.text, s.quantities, s.numbers) if q in r), [q])
