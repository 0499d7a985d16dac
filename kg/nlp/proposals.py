"""The paper's own proposals: "we propose / introduce / present X",
"X, a novel ...", "called / dubbed / named X", "our method, X", and a new
benchmark or dataset ("we release X, a benchmark for ...").

Adds candidates with proposed=True (label Dataset when the words before the
name say dataset, benchmark or corpus, else Method) and sets
doc._.proposed_name to the first proposed Method's name.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import NamedTuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.language import Language
from spacy.tokens import Doc

from kg.nlp.abbreviations import abbreviation_pairs, short_form_uses
from kg.nlp.candidates import Candidate, candidates
from kg.nlp.lexicon import Lexicon, lexicon
from kg.nlp.patterns import is_name_like
from kg.nlp.tokens import Tok, doc_text, positions, token_view, view_columns, view_text

if not Doc.has_extension("proposed_name"):
    Doc.set_extension("proposed_name", default=None)

_VERB = re.compile(
    r"\b(?:we|this (?:paper|work|study|article|report|document)|the present (?:paper|work)|our (?:paper|work))\s+"
    r"(?:(?:first|also|further|then|hence|therefore|thus|newly|here|now)\s+)?"
    r"(?:propose|introduce|present|develop|design|build|construct|release|create|curate|collect|contribute|"
    r"devise|formulate|put forward|offer|unveil|open-source|describe)[sd]?\b", re.I)
_INTRODUCING = re.compile(r"\b(?:by |through |via )?(?:proposing|introducing|presenting|developing)\b", re.I)
_CALLED = re.compile(r"\b(?:called|dubbed|named|termed|coined|nicknamed|namely|referred to as|"
                     r"we (?:term|call|name|dub|coin)|"
                     r"we refer to (?:it|this|them|(?:the|our) [\w-]+(?: [\w-]+)?) as(?: an?| the)?)\b\s*[:\"“']?", re.I)
# "our method, FooNet" and "our models (FooNets)": the name right after.
_OUR = re.compile(r"\bour (?:proposed |new |novel )?(?:method|model|framework|approach|system|algorithm|"
                  r"architecture|technique|benchmark|dataset)s?\s*[,(]\s*", re.I)
# "the proposed FooNet": only a name right after "proposed" counts.
_THE_PROPOSED = re.compile(r"\b(?:the|our) (?:newly )?proposed\s+", re.I)
_APPOSITION_NOVEL = re.compile(r",\s+(?:a|an|the)\s+(?:\w+[\s-]){0,3}?(?:novel|new|simple|first|unified|"
                               r"general|lightweight|efficient|scalable|principled|flexible|training-free|"
                               r"plug-and-play)\b", re.I)
_DATASET_WORDS = re.compile(r"\b(?:dataset|data set|benchmark|corpus|suite|collection|test ?bed|leaderboard)s?\b",
                            re.I)
_SCAN_STOP = frozenset({"for", "to", "that", "which", "with", "by", "in", "on", "of", "from", "using", "based",
                        "where", "when", "while", "whose", "as", ";", ":", ".", "(", "and"})
_WINDOW = 14
_NOT_AFTER_SUBJECT = frozenset({"on", "in", "of", "for", "to", "with", "by", "from", "at", "as", "and", "or", "into",
                                "over", "under", "via", "than"})
_TITLE_WORD = re.compile(r"^[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*$")
_NAME_SAYS_DATASET = re.compile(r"(?:Bench|bench|BENCH|QA|Eval|Dataset|Corpus|Benchmark|Set)$")


# A name found: its first token and the token after it. The rules here read
# only offsets and text, which the token view gives without a spaCy Span.
Name = tuple[int, int]


def _name_at(v: list[Tok], i: int, lex: Lexicon, pairs: dict[int, Name], relaxed: bool,
             named: bool = False) -> Name | None:
    """The name that starts at token i, if one does: an abbreviation's long
    form, a name-like token, or (when `relaxed`) a Title Case run. Right
    after "called" (`named`) a run may open with a common word ("Deep Speech")."""
    if i in pairs:
        return pairs[i]
    tok = v[i]
    if is_name_like(tok, lex):
        return i, i + 1
    common = tok.text in lex.not_names
    if relaxed and _TITLE_WORD.match(tok.text) and (named or not common) and tok.lower_ not in STOP_WORDS:
        j = i + 1
        while j < len(v) and j - i < 5 and v[j].text[:1].isupper() and v[j].text not in lex.not_names \
                and not v[j].is_punct:
            j += 1
        if common and j - i < 2:
            return None
        return i, j
    return None


def _lower_name_at(v: list[Tok], i: int, lex: Lexicon) -> Name | None:
    """After "called": a lower-case name of up to four words ("negative sampling")."""
    j = i
    while j < len(v) and j - i < 4:
        tok = v[j]
        if tok.is_punct or tok.is_space or tok.lower_ in lex.name_stop_words \
                or not tok.text.replace("-", "").isalpha():
            break
        j += 1
    return (i, j) if j > i else None


def _lower_proposal_at(v: list[Tok], text: str, i: int, lex: Lexicon) -> Name | None:
    """ "the proposed selective token generation outperforms": a lower-case
    name of two to four words after "the proposed", cut before an adverb;
    "the proposed method", "the proposed deep model" or a plural name nothing."""
    name = _lower_name_at(v, i, lex)
    if name is None:
        return None
    start, end = name
    end = next((k for k in range(start, end) if v[k].lower_.endswith("ly")), end)
    heads = lex.method_heads_named_only | lex.method_heads
    if end - start < 2 or any(v[k].lower_ in heads for k in range(start, end)):
        return None
    last = v[end - 1].lower_
    if last.endswith("s") or view_text(v, text, start, end).lower() in lex.generic_terms:
        return None
    # As the subject of what follows ("... outperforms", "... is"), not inside a longer phrase ("... on X", "..., and").
    if end >= len(v) or v[end].is_punct or v[end].lower_ in _NOT_AFTER_SUBJECT:
        return None
    return start, end


def _token_at(v: list[Tok], idxs: tuple[int, ...], char: int) -> int | None:
    """Index of the first non-space token that starts at or after `char`
    (`idxs`: the tokens' offsets, which ascend)."""
    lo = bisect_left(idxs, char)
    while lo < len(v) and v[lo].is_space:
        lo += 1
    return lo if lo < len(v) else None


def _scan(v: list[Tok], idxs: tuple[int, ...], start_char: int, lex: Lexicon, pairs: dict[int, Name],
          stop_early: bool, window: int = _WINDOW, named: bool = False) -> Name | None:
    """The first name within a few tokens after a character offset, within its sentence."""
    i = _token_at(v, idxs, start_char)
    if i is None:
        return None
    sent_end = v[i].sent_end
    for k in range(i, min(sent_end, i + window)):
        tok = v[k]
        # "we propose to overcome the SSS problem": after "to" comes what is done, not a name.
        if stop_early and tok.lower_ in _SCAN_STOP and (k > i or tok.lower_ == "to"):
            return None
        name = _name_at(v, k, lex, pairs, relaxed=(k == i or v[k - 1].text in (",", ":", "a", "an", "the")),
                        named=named and k == i)
        if name is not None:
            end = name[1]
            if end < len(v) and (v[end].lower_ in lex.task_heads or v[end].lower_ in lex.task_cues):
                return None  # "a neural POS tagging model", "the SSS problem": the name is part of a task
            return name
    return None


def _end_char(v: list[Tok], name: Name) -> int:
    last = v[name[1] - 1]
    return last.idx + len(last.text)


# "X (Y), a new dataset ...": a dataset word soon after the name.
_DATASET_AFTER = re.compile(r"^\s*(?:\([^()]{1,60}\))?\s*,?\s*(?:a|an|the)?\s*(?:[\w.]+[\s-]){0,6}?"
                            r"(?:dataset|benchmark|corpus|suite)\b", re.I)


def _label(v: list[Tok], text: str, from_char: int, name: Name) -> str:
    start_char, end_char = v[name[0]].idx, _end_char(v, name)
    if _NAME_SAYS_DATASET.search(text[start_char:end_char]):
        return "Dataset"
    between = text[from_char:start_char]
    after = text[end_char:end_char + 60]
    if _DATASET_WORDS.search(between) or _DATASET_AFTER.match(after):
        return "Dataset"
    return "Method"


class _Cue(NamedTuple):
    """A pattern that says a name follows, and how to look for the name."""

    rx: re.Pattern
    stop_early: bool  # see _scan
    window: int  # how many tokens after the cue the name may start


_CALLED_CUE = _Cue(_CALLED, stop_early=False, window=3)
# In the order they are tried. After "called", "our method," or "the proposed" the name comes at once.
_CUES = (
    _Cue(_VERB, stop_early=True, window=_WINDOW),
    _Cue(_INTRODUCING, stop_early=True, window=_WINDOW),
    _CALLED_CUE,
    _Cue(_OUR, stop_early=False, window=2),
    _Cue(_THE_PROPOSED, stop_early=True, window=1),
)


@Language.component("kg_proposals")
def find_proposals(doc: Doc) -> Doc:
    lex = lexicon()
    v = token_view(doc)
    abbreviations = abbreviation_pairs(doc)
    pairs = {long.start: (long.start, long.end) for long, _ in abbreviations}
    text = doc_text(doc)
    columns = view_columns(doc)
    idxs = columns.idxs
    uses = short_form_uses(doc)
    found: list[tuple[Name, str]] = []
    called = list(_CALLED.finditer(text))
    called_at = [m.start() for m in called]
    for cue in _CUES:
        rx = cue.rx
        for m in called if rx is _CALLED else rx.finditer(text):
            name = _scan(v, idxs, m.end(), lex, pairs, stop_early=cue.stop_early, window=cue.window,
                         named=rx is _CALLED)
            if name is not None and (rx is _VERB or rx is _INTRODUCING):
                end_char = _end_char(v, name)
                if any(end_char <= c <= end_char + 25 for c in called_at):
                    # "we propose a Faster RCNN method named FDNet": the name comes after "named".
                    continue
            if name is None and rx is _CALLED:
                nxt = _token_at(v, idxs, m.end())
                name = _lower_name_at(v, nxt, lex) if nxt is not None else None
                if name is not None and v[name[1] - 1].lower_ in lex.task_heads:
                    name = None  # "namely car model classification": a task, not a method's name
            elif name is None and rx is _THE_PROPOSED:
                nxt = _token_at(v, idxs, m.end())
                name = _lower_proposal_at(v, text, nxt, lex) if nxt is not None else None
            if name is not None:
                # A short form names the same thing as its long form ("STAB (Speech ... Benchmark)").
                if name[0] in uses:
                    long, n_tokens = uses[name[0]]
                    if name[1] - name[0] <= n_tokens:
                        name = long.start, long.end
                found.append((name, _label(v, text, m.end(), name)))
    # "X, a novel framework for ...": a name followed by a novelty apposition.
    for i in positions(columns.texts, (",",), 1):
        idx = v[i].idx
        if _APPOSITION_NOVEL.match(text, idx, idx + 80):
            k = i - 1
            if v[k].text == ")" and k >= 2:  # "Long Form (LF), a novel ..."
                k -= 2
            long = next((lg for lg, sh in abbreviations if sh.end == k + 1 or lg.end == k + 1), None)
            name = (long.start, long.end) if long is not None else ((k, k + 1) if is_name_like(v[k], lex) else None)
            if name is not None:
                found.append((name, _label(v, text, idx, name)))
    out = candidates(doc)
    for (start, end), label in found:
        if view_text(v, text, start, end).lower() in lex.generic_terms:
            continue
        out.append(Candidate(start, end, label, "proposal", proposed=True))
    return doc
