"""Methods told by their company: a phrase listed beside a known method is
one too ("SparseGPT and Wanda", "probes, steering vectors and FooNet"), and
so is a list after a word for methods ("techniques such as pruning or
linear attention"); a method's name before "tasks" names a task
("sequence-to-sequence tasks"). The list rules add candidates
(kg.entities.candidates), the last retypes some; kg.entities.patterns runs them."""

from __future__ import annotations

from typing import NamedTuple

from kg.entities.candidates import Candidate
from kg.entities.lexicon import Lexicon
from kg.nlp.tokens import Tok, past_gloss, phrase_at

# A listed item is at most this many words.
_MAX_ITEM = 4

# Candidates of these rules take the type their context gives (not a defined abbreviation's).
_RETYPED_SOURCES = ("gazetteer", "variant", "name")

# Candidates of these rules are methods sure enough to lend their type to a list.
_KNOWN_SOURCES = ("gazetteer", "variant", "name", "head")


def listed_methods(v: list[Tok], found: list[Candidate], lex: Lexicon) -> list[Candidate]:
    """Items of a list that holds a known method ("A, B and C", "A or B"):
    each item bounded by list separators or punctuation, a lower-case phrase
    of up to four words that ends like a method's name ("linear attention",
    "prompting"), or one capitalised word ("SparseGPT and Wanda")."""
    conj = lex.patterns.list_separators
    # Only a known name with a list separator beside it (past a bracketed gloss) can be in a list.
    listed = [c for c in found if c.label == "Method" and c.source in _KNOWN_SOURCES
              and (_separator_at(v, past_gloss(v, c.end, 1), conj)
                   or _separator_at(v, past_gloss(v, c.start - 1, -1), conj))]
    if not listed:
        return []
    spans = _spans(found)
    other_types = {(c.start, c.end) for c in found if c.label != "Method"}
    out: list[Candidate] = []
    seen: set[tuple[int, int]] = set()
    for c in listed:
        if _covered(c, other_types):
            continue
        items = _items(v, c.end, 1, conj, spans, lex) + _items(v, c.start - 1, -1, conj, spans, lex)
        # An "and" or "or" makes a list; commas alone may set off an apposition or an adverb,
        # and a comma before the "and" of two items joins clauses ("..., and FooNet reaches").
        if not any(item.joined for item in items):
            continue
        if len(items) == 1 and items[0].comma:
            continue
        for item in items:
            if not item.known:
                _add(v, item.start, item.end, lex, seen, out)
    return out


def _separator_at(v: list[Tok], k: int, conj: frozenset[str]) -> bool:
    return 0 <= k < len(v) and v[k].text in conj


def _covered(c: Candidate, spans: set[tuple[int, int]]) -> bool:
    """Does a candidate of another type cover the tokens of `c`?"""
    return any(s <= c.start and c.end <= e for s, e in spans)


def methods_after_cues(v: list[Tok], found: list[Candidate], lex: Lexicon, cues: list[int]) -> list[Candidate]:
    """The items a word for methods introduces: "techniques such as
    pruning or linear attention", "three approaches: denoising,
    contrastive learning and pebble modeling"."""
    shapes = lex.patterns
    conj = shapes.list_separators
    spans: dict[int, tuple[int, int]] | None = None  # made for the first cue that opens a list
    out: list[Candidate] = []
    seen: set[tuple[int, int]] = set()
    for i in cues:  # the places of lex.method_list_cues
        k = i + 1
        end = v[i].sent_end
        if k < end and v[k].text == ",":
            k += 1
        n = phrase_at(v, k, end, shapes.list_openers)
        if not n and not (k < end and v[k].text == ":"):
            continue
        if spans is None:
            spans = _spans(found)
        for item in _items(v, k + (n or 1), 1, conj, spans, lex, bare=True):
            if not item.known:
                _add(v, item.start, item.end, lex, seen, out)
    return out


def versioned_methods(v: list[Tok], found: list[Candidate], lex: Lexicon) -> list[Candidate]:
    """ "Llama 3.3 70B Instruct", "FooLM-2 7B", "BarJEPA 2 encoders": a
    model's version, size and variant word after its name are part of the
    name. A version with no point and no size after it counts only before
    punctuation, a list word or a method's head ("FooNet 2 times faster"
    is no version)."""
    shapes = lex.patterns
    out = []
    for c in found:
        if c.label != "Method" or c.source not in _RETYPED_SOURCES:
            continue
        end = c.end
        sent_end = v[c.start].sent_end
        if end < sent_end and shapes.version_number.match(v[end].text) and not v[end].text.startswith("0"):
            nxt = v[end + 1] if end + 1 < sent_end else None
            if "." in v[end].text or nxt is None or nxt.is_punct or nxt.text in shapes.list_separators \
                    or shapes.model_size.match(nxt.text) or nxt.lower_ in lex.method_heads:
                end += 1
        if end < sent_end and shapes.model_size.match(v[end].text):
            end += 1
        if end > c.end and end < sent_end and v[end].text in shapes.model_variant_words:
            end += 1
        if end > c.end:
            source = "variant" if c.source in ("gazetteer", "variant") else "name"
            out.append(Candidate(c.start, end, "Method", source))
    return out


def names_of_tasks(v: list[Tok], found: list[Candidate], lex: Lexicon) -> None:
    """ "sequence-to-sequence tasks", "SDF problems": a method's name before
    "task(s)" or "problem(s)" names the task; such candidates are retyped."""
    for c in found:
        if c.label == "Method" and c.source in _RETYPED_SOURCES and c.end < len(v) \
                and not v[c.end].is_sent_start and v[c.end].lower_ in lex.patterns.task_words_after_methods:
            c.label = "Task"


def _add(v: list[Tok], start: int, end: int, lex: Lexicon, seen: set[tuple[int, int]],
         out: list[Candidate]) -> None:
    if (start, end) not in seen and _item_ok(v, start, end, lex):
        seen.add((start, end))
        out.append(Candidate(start, end, "Method", "head"))


def _spans(found: list[Candidate]) -> dict[int, tuple[int, int]]:
    """token -> (start, end) of the longest candidate over it."""
    spans: dict[int, tuple[int, int]] = {}
    for c in sorted(found, key=lambda c: c.end - c.start):
        for k in range(c.start, c.end):
            spans[k] = (c.start, c.end)
    return spans


class _Item(NamedTuple):
    start: int
    end: int
    joined: bool  # "and"/"or" parts it from its neighbour toward the known name
    comma: bool  # so does a comma
    known: bool  # a name another rule found


def _items(v: list[Tok], k: int, step: int, conj: frozenset[str], spans: dict[int, tuple[int, int]],
           lex: Lexicon, bare: bool = False) -> list[_Item]:
    """The items of a list on one side of a known name, from token k (just
    past the name) in direction `step`. With `bare`, the first item starts at
    k, with no separator before it."""
    out = []
    n = len(v)
    k = past_gloss(v, k, step)
    while 0 <= k < n:
        joined = comma = False
        if not bare:
            if v[k].text not in conj:
                break
            while 0 <= k < n and v[k].text in conj:
                joined = joined or v[k].is_alpha
                comma = comma or not v[k].is_alpha
                k += step
            if not 0 <= k < n or (step == 1 and v[k].is_sent_start):
                break
        bare = False
        first, last = v[k].sent_start, v[k].sent_end - 1
        known = k in spans
        if known:
            start, end = spans[k]
            j = end if step == 1 else start - 1
        else:
            j = k
            while first <= j <= last and abs(j - k) < _MAX_ITEM and j not in spans and _item_word(v[j], lex):
                j += step
            if j == k:
                if not _capital_word(v[k], lex):
                    break
                j = k + step  # "SparseGPT and Wanda": one capitalised word
                # "Metric Multidimensional Scaling, IsoMap": or a run of them
                while first <= j <= last and abs(j - k) < _MAX_ITEM and j not in spans and _capital_word(v[j], lex):
                    j += step
            start, end = (k, j) if step == 1 else (j + 1, k + 1)
        # The item must end at the list's next separator or punctuation (start there, going left);
        # the last item, after "and"/"or", may end where the sentence goes on ("A or B can ...").
        if not _bounded(v, end if step == 1 else start - 1, conj, lex, step, last_item=joined):
            break
        out.append(_Item(start, end, joined, comma, known))
        if step == -1 and start == first:
            break
        k = past_gloss(v, j, step)
    return out


def _bounded(v: list[Tok], k: int, conj: frozenset[str], lex: Lexicon, step: int, last_item: bool = False) -> bool:
    """Is token k (past an item) where an item ends (going right: a separator,
    punctuation, the sentence's end) or starts (going left: also a word that
    cannot be in a name, "such as", "including")?"""
    if not 0 <= k < len(v):
        return True
    tok = v[k]
    if step == 1:
        return tok.is_sent_start or tok.text in conj or tok.is_punct \
            or (last_item and tok.lower_ in lex.name_stop_words and tok.lower_ not in lex.patterns.phrase_continuers)
    if v[k + 1].is_sent_start:
        return True
    return tok.text in conj or tok.is_punct or tok.lower_ in lex.name_stop_words


def _item_word(tok: Tok, lex: Lexicon) -> bool:
    """Can `tok` be a word of a listed lower-case item?"""
    t = tok.text
    low = tok.lower_
    if tok.is_punct or tok.is_space or not any(ch.isalpha() for ch in t):
        return False
    if low in lex.name_stop_words and low not in lex.method_modifiers:
        return False
    if low in lex.eval_verbs and low not in lex.method_heads:
        return False
    if low.endswith("ly") and "-" not in low:
        return False
    if t[:1].isupper() and not tok.is_sent_start:
        return False
    return True


def _capital_word(tok: Tok, lex: Lexicon) -> bool:
    """A name written as a capitalised word, or as such words joined by hyphens
    ("Wanda", "Round-To-Nearest"), or as a word with capitals inside after a
    lower-case start ("mLSTM")."""
    if tok.is_sent_start or tok.text in lex.not_names or tok.lower_ in lex.name_stop_words:
        return False
    t = tok.text
    if t[:1].isupper():
        return t.replace("-", "").isalpha() and all(p[:1].isupper() for p in t.split("-"))
    return t[:1].islower() and t.isalpha() and any(c.isupper() for c in t[1:])


def _item_ok(v: list[Tok], start: int, end: int, lex: Lexicon) -> bool:
    """Is tokens start..end a method's name by its words: not generic, not a
    number, and ending in a method's head word ("linear attention") or in
    -ing or -ization ("prompting", "quantization")?"""
    if end - start == 1 and _capital_word(v[start], lex):
        return True
    words = [v[k].lower_ for k in range(start, end)]
    if " ".join(words) in lex.generic_terms:
        return False
    if any(lex.patterns.number.match(w) or lex.patterns.unit.match(v[start + n].text) for n, w in enumerate(words)):
        return False
    last = words[-1]
    if last in lex.method_heads or last in lex.listed_method_heads:
        return True
    if last in lex.task_heads or last in lex.metric_heads or last in lex.dataset_cues_after:
        return False
    return last.endswith(lex.patterns.method_word_endings)
