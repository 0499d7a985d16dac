"""The paper's own proposals: "we propose / introduce / present X",
"X, a novel ...", "called / dubbed / named X", "our method, X", and a new
benchmark or dataset ("we release X, a benchmark for ...").

Adds candidates with proposed=True (label Dataset when the words before the
name say dataset, benchmark or corpus, else Method) and sets
doc._.proposed_name to the first proposed Method's name.
"""

from __future__ import annotations

import re
from typing import Iterator

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.nlp.candidates import Candidate, candidates
from kg.nlp.lexicon import Lexicon, lexicon
from kg.nlp.patterns import is_name_like
from kg.nlp.tokens import Tok, doc_text, positions, token_view, view_columns

if not Doc.has_extension("proposed_name"):
    Doc.set_extension("proposed_name", default=None)

_VERB = re.compile(
    r"\b(?:we|this (?:paper|work|study|article)|the present (?:paper|work)|our (?:paper|work))\s+"
    r"(?:(?:first|also|further|then|hence|therefore|thus|newly|here|now)\s+)?"
    r"(?:propose|introduce|present|develop|design|build|construct|release|create|curate|collect|contribute|"
    r"devise|formulate|put forward|offer|unveil|open-source)[sd]?\b", re.I)
_INTRODUCING = re.compile(r"\b(?:by |through |via )?(?:proposing|introducing|presenting|developing)\b", re.I)
_CALLED = re.compile(r"\b(?:called|dubbed|named|termed|coined|nicknamed|namely|referred to as|"
                     r"we (?:term|call|name|dub|coin))\b\s*[:\"“']?", re.I)
_OUR = re.compile(r"\bour (?:proposed |new |novel )?(?:method|model|framework|approach|system|algorithm|"
                  r"architecture|technique|benchmark|dataset)\s*,\s*", re.I)
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
_TITLE_WORD = re.compile(r"^[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*$")
_NAME_SAYS_DATASET = re.compile(r"(?:Bench|bench|BENCH|QA|Eval|Dataset|Corpus|Benchmark|Set)$")


def _name_at(doc: Doc, v: list[Tok], i: int, lex: Lexicon, pairs: dict[int, Span], relaxed: bool) -> Span | None:
    """The name that starts at token i, if one does: an abbreviation's long
    form, a name-like token, or (when `relaxed`) a Title Case run."""
    if i in pairs:
        return pairs[i]
    tok = v[i]
    if is_name_like(tok, lex):
        return doc[i:i + 1]
    if relaxed and _TITLE_WORD.match(tok.text) and tok.text not in lex.not_names and tok.lower_ not in STOP_WORDS:
        j = i + 1
        while j < len(v) and j - i < 5 and v[j].text[:1].isupper() and v[j].text not in lex.not_names \
                and not v[j].is_punct:
            j += 1
        return doc[i:j]
    return None


def _lower_name_at(doc: Doc, v: list[Tok], i: int, lex: Lexicon) -> Span | None:
    """After "called": a lower-case name of up to four words ("negative sampling")."""
    j = i
    while j < len(v) and j - i < 4:
        tok = v[j]
        if tok.is_punct or tok.is_space or tok.lower_ in lex.name_stop_words \
                or not tok.text.replace("-", "").isalpha():
            break
        j += 1
    return doc[i:j] if j > i else None


def _token_at(v: list[Tok], char: int) -> int | None:
    """Index of the first non-space token that starts at or after `char`."""
    lo, hi = 0, len(v)
    while lo < hi:  # binary search on token offsets
        mid = (lo + hi) // 2
        if v[mid].idx < char:
            lo = mid + 1
        else:
            hi = mid
    while lo < len(v) and v[lo].is_space:
        lo += 1
    return lo if lo < len(v) else None


def _scan(doc: Doc, v: list[Tok], start_char: int, lex: Lexicon, pairs: dict[int, Span], stop_early: bool,
          window: int = _WINDOW) -> Span | None:
    """The first name within a few tokens after a character offset, within its sentence."""
    i = _token_at(v, start_char)
    if i is None:
        return None
    sent_end = v[i].sent_end
    for k in range(i, min(sent_end, i + window)):
        tok = v[k]
        if stop_early and tok.lower_ in _SCAN_STOP and k > i:
            return None
        name = _name_at(doc, v, k, lex, pairs, relaxed=(k == i or v[k - 1].text in (",", ":", "a", "an", "the")))
        if name is not None:
            return name
    return None


def _label(text: str, from_char: int, name: Span) -> str:
    if _NAME_SAYS_DATASET.search(name.text):
        return "Dataset"
    between = text[from_char:name.start_char]
    after = text[name.end_char:name.end_char + 60]
    if _DATASET_WORDS.search(between) or re.match(r"^\s*(?:\([^()]{1,60}\))?\s*,?\s*(?:a|an|the)?\s*(?:[\w.]+[\s-]){0,6}?"
                                                  r"(?:dataset|benchmark|corpus|suite)\b", after, re.I):
        return "Dataset"
    return "Method"


# Where a match of each pattern can begin, in lower case: the pattern is tried
# only there (see _matches). Keep in step with the patterns above.
_STARTS: dict[re.Pattern, tuple[str, ...]] = {
    _VERB: ("we", "this ", "the present ", "our "),
    _INTRODUCING: ("by ", "through ", "via ", "proposing", "introducing", "presenting", "developing"),
    _CALLED: ("called", "dubbed", "named", "termed", "coined", "nicknamed", "namely", "referred to as", "we "),
    _OUR: ("our ",),
    _THE_PROPOSED: ("the ", "our "),
}


def _matches(rx: re.Pattern, text: str, low: str) -> Iterator[re.Match]:
    """The matches of rx.finditer(text). A case-insensitive pattern is tried
    at every character of the abstract; this tries it only where one of its
    _STARTS begins in `low` (text.lower()), in order, as finditer would. Only
    for ASCII text, where lower() keeps every offset and IGNORECASE folds
    nothing but A-Z; any other text gets the plain scan."""
    if not text.isascii():
        yield from rx.finditer(text)
        return
    at: set[int] = set()
    for start in _STARTS[rx]:
        i = low.find(start)
        while i >= 0:
            at.add(i)
            i = low.find(start, i + 1)
    end = 0
    for i in sorted(at):
        if i < end:
            continue  # inside the previous match: finditer goes on from its end
        m = rx.match(text, i)
        if m is not None:
            yield m
            end = m.end()


@Language.component("kg_proposals")
def find_proposals(doc: Doc) -> Doc:
    lex = lexicon()
    v = token_view(doc)
    abbreviations = doc._.abbreviations or []  # read once: each `doc._` builds an accessor
    pairs = {long.start: long for long, _ in abbreviations}
    text = doc_text(doc)
    low = text.lower()
    found: list[tuple[Span, str]] = []
    long_of_short = {sh.start: lg for lg, sh in abbreviations}
    for rx, stop in ((_VERB, True), (_INTRODUCING, True), (_CALLED, False), (_OUR, False), (_THE_PROPOSED, True)):
        for m in _matches(rx, text, low):
            # After "called", "our method," or "the proposed" the name comes at once.
            window = {_THE_PROPOSED: 1, _OUR: 2, _CALLED: 3}.get(rx, _WINDOW)
            name = _scan(doc, v, m.end(), lex, pairs, stop_early=stop, window=window)
            if name is None and rx is _CALLED:
                nxt = _token_at(v, m.end())
                name = _lower_name_at(doc, v, nxt, lex) if nxt is not None else None
            if name is not None:
                # A short form names the same thing as its long form ("STAB (Speech ... Benchmark)").
                if name.start in long_of_short and name.end - name.start == 1:
                    name = long_of_short[name.start]
                found.append((name, _label(text, m.end(), name)))
    # "X, a novel framework for ...": a name followed by a novelty apposition.
    for i in positions(view_columns(doc)[0], (",",)):
        idx = v[i].idx
        if i > 0 and _APPOSITION_NOVEL.match(text, idx, idx + 80):
            k = i - 1
            if v[k].text == ")" and k >= 2:  # "Long Form (LF), a novel ..."
                k -= 2
            long = next((lg for lg, sh in abbreviations if sh.end == k + 1 or lg.end == k + 1), None)
            name = long if long is not None else (doc[k:k + 1] if is_name_like(v[k], lex) else None)
            if name is not None:
                found.append((name, _label(text, idx, name)))
    out = candidates(doc)
    for span, label in found:
        if span.text.lower() in lex.generic_terms:
            continue
        out.append(Candidate(span.start, span.end, label, "proposal", proposed=True))
    return doc
