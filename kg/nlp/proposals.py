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
from spacy.tokens import Doc, Span

from kg.nlp.abbreviations import abbreviation_pairs
from kg.nlp.candidates import Candidate, candidates
from kg.nlp.lexicon import Lexicon, lexicon
from kg.nlp.patterns import is_name_like
from kg.nlp.tokens import Tok, doc_text, token_view, view_columns, view_text

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
# How _APPOSITION_NOVEL begins. Found by one scan of the text (the search
# skips to each comma in C), it tells the few commas where the whole pattern
# is worth trying: it can match nowhere this does not.
_APPOSITION_START = re.compile(r",\s+(?:a|an|the)\s+", re.I)
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

    rx: re.Pattern  # case-insensitive, written in lower case
    # Where a match can begin, in lower case: the pattern is tried only there
    # (see _matches). Keep in step with the pattern. Each start costs a scan
    # of the text and a try of the pattern wherever it is found, so a start as
    # long as the pattern allows is cheaper ("the proposed", not "the "),
    # unless another cue scans for it anyway ("our ", "we").
    starts: tuple[str, ...]
    stop_early: bool  # see _scan
    window: int  # how many tokens after the cue the name may start
    # rx without IGNORECASE, for lower-case ASCII text (see _matches): the
    # case-blind match costs twice as much.
    lower_rx: re.Pattern


def _cue(rx: re.Pattern, starts: tuple[str, ...], stop_early: bool, window: int) -> _Cue:
    return _Cue(rx, starts, stop_early, window, re.compile(rx.pattern, rx.flags & ~re.IGNORECASE))


_CALLED_CUE = _cue(_CALLED, ("called", "dubbed", "named", "termed", "coined", "nicknamed", "namely", "referred to as",
                             "we"), False, 3)
# In the order they are tried. After "called", "our method," or "the proposed" the name comes at once.
_CUES = (
    _cue(_VERB, ("we", "this ", "the present ", "our "), True, _WINDOW),
    _cue(_INTRODUCING, ("by ", "through ", "via ", "proposing", "introducing", "presenting", "developing"), True,
         _WINDOW),
    _CALLED_CUE,
    _cue(_OUR, ("our ",), False, 2),
    _cue(_THE_PROPOSED, ("the proposed", "the newly proposed", "our "), True, 1),
)


# Every start of every cue, each once.
_ALL_STARTS = tuple(dict.fromkeys(start for cue in _CUES for start in cue.starts))


def _occurrences(low: str) -> dict[str, list[int]]:
    """Where each start of a cue occurs in `low`, for the starts that do: found
    once per abstract, as several cues share a start. Most starts are rare
    words, absent from most abstracts: `in` tells so with one scan."""
    out = {}
    for start in _ALL_STARTS:
        if start in low:
            found = []
            i = low.find(start)
            while i >= 0:
                found.append(i)
                i = low.find(start, i + 1)
            out[start] = found
    return out


# The only characters that IGNORECASE takes for an ASCII letter and lower()
# does not turn into it (dotted I, dotless i, long s): see _starts_hold.
_FOLDED_APART = ("\u0130", "\u0131", "\u017f")


def _starts_hold(text: str, low: str) -> bool:
    """Does a match of a cue in `text` begin where one of its starts begins
    in `low` (text.lower())? So when lower() keeps every offset (no character
    turns into two) and every character that a start's letter matches
    case-blind lowers to that letter: always in ASCII text."""
    return text.isascii() or (len(low) == len(text) and not any(c in text for c in _FOLDED_APART))


def _matches(cue: _Cue, text: str, low: str, occurrences: dict[str, list[int]] | None) -> list[re.Match]:
    """The matches of cue.rx.finditer(text), as spans of text. A
    case-insensitive pattern is tried at every character of the abstract;
    this tries it only where one of the cue's starts begins in `low`
    (text.lower()), in order, as finditer would. `occurrences` is
    _occurrences(low), or None where the starts do not hold (see
    _starts_hold): then the plain scan. ASCII text, where IGNORECASE folds
    nothing but A-Z, is matched by cue.lower_rx on `low`, at half the cost."""
    if occurrences is None:
        return list(cue.rx.finditer(text))
    # No two starts of a cue begin at one place (none is the beginning of another).
    at = [i for start in cue.starts if start in occurrences for i in occurrences[start]]
    if not at:
        return []
    at.sort()
    out = []
    end = 0
    match, target = (cue.lower_rx.match, low) if text.isascii() else (cue.rx.match, text)
    for i in at:
        if i < end:
            continue  # inside the previous match: finditer goes on from its end
        m = match(target, i)
        if m is not None:
            out.append(m)
            end = m.end()
    return out


def _short_form_use(texts: tuple[str, ...], pairs: list[tuple[Span, Span]], k: int) -> tuple[Span, int] | None:
    """kg.nlp.abbreviations.short_form_uses(doc).get(k): the use of a short
    form that starts at token k, as (its long form, number of tokens); the
    first pair's whose short form is there, at or after its definition. Asked
    for one token, it needs no scan of the text."""
    for long, short in pairs:
        n = short.end - short.start
        if k >= short.start and texts[k:k + n] == texts[short.start:short.end]:
            return long, n
    return None


@Language.component("kg_proposals")
def find_proposals(doc: Doc) -> Doc:
    lex = lexicon()
    v = token_view(doc)
    abbreviations = abbreviation_pairs(doc)
    pairs = {long.start: (long.start, long.end) for long, _ in abbreviations}
    text = doc_text(doc)
    columns = view_columns(doc)
    texts, idxs = columns.texts, columns.idxs
    low = text.lower()
    occurrences = _occurrences(low) if _starts_hold(text, low) else None
    found: list[tuple[Name, str]] = []
    called = _matches(_CALLED_CUE, text, low, occurrences)
    called_at = [m.start() for m in called]
    for cue in _CUES:
        rx = cue.rx
        for m in called if cue is _CALLED_CUE else _matches(cue, text, low, occurrences):
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
                use = _short_form_use(texts, abbreviations, name[0])
                if use is not None and name[1] - name[0] <= use[1]:
                    name = use[0].start, use[0].end
                found.append((name, _label(v, text, m.end(), name)))
    # "X, a novel framework for ...": a name followed by a novelty apposition.
    for idx in [m.start() for m in _APPOSITION_START.finditer(text)]:
        i = bisect_left(idxs, idx)  # the comma token there, if the comma is one
        if 0 < i < len(v) and idxs[i] == idx and v[i].text == "," and _APPOSITION_NOVEL.match(text, idx, idx + 80):
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
