"""The baselines a comparison names, read from where its cue ends:
named methods ("BM25"), or the text's own words ("the previous state of the
art", "majority voting"), split at lists and with named examples ("methods
such as A and B") standing for the generic words."""

from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.tokens import Token

from kg.relations.sentence import Mention, Sentence

_END_PUNCT = {".", ";", ":", "!", "?", ")", "]", "}"}
_DASHES = {"-", "--", "\u2013", "\u2014"}  # between spaces, a dash opens an aside
_POSSESSIVE = {"'s", "\u2019s"}
_ENUMERATOR = re.compile(r"\s*(?:\d{1,2}|[ivx]{1,4}|[a-h])\s*")


@dataclass
class Baseline:
    name: str
    start: int  # sentence character offsets of the phrase
    end: int
    named: bool  # an entity, rather than the text's own words


def _stop_here(tokens: list[Token], i: int, stops: dict[str, tuple[tuple[str, ...], ...]],
               exceptions: dict[str, tuple[tuple[str, ...], ...]]) -> bool:
    """Whether a stop sequence begins at token i (and no exception, as "by itself", does)."""
    def at(seqs: tuple[tuple[str, ...], ...]) -> bool:
        return any(all(i + k < len(tokens) and tokens[i + k].lower_ == w for k, w in enumerate(seq)) for seq in seqs)
    return at(stops.get(tokens[i].lower_, ())) and not at(exceptions.get(tokens[i].lower_, ()))


def _phrase_at(tokens: list[Token], i: int, phrases: dict[str, tuple[tuple[str, ...], ...]]) -> int:
    """The number of tokens of the phrase of `phrases` (by first word) that begins at token i, or 0."""
    for seq in phrases.get(tokens[i].lower_, ()):
        if all(i + k < len(tokens) and tokens[i + k].lower_ == w for k, w in enumerate(seq)):
            return len(seq)
    return 0


class _Items:
    """The items of a list of baselines as they are read: pieces (each a list
    of Token | Mention), the separator before each, the piece being read and
    the separator before it."""

    def __init__(self) -> None:
        self.pieces: list[list] = []
        self.seps: list[str] = []  # the separator before each piece
        self.examples_from: int | None = None  # index of the first piece given as an example
        self.gerunds: set[int] = set()  # indexes of the pieces that are gerund phrases (_gerund_phrase)
        self.cur: list = []
        self.sep = ""

    def close(self) -> None:
        """The piece being read is complete."""
        if self.cur:
            self.pieces.append(self.cur)
            self.seps.append(self.sep)


# What reading one token decides: the index of the next token to read, stop
# reading (_STOP), the baselines themselves (a list), or, for the first half
# of the rules, nothing yet (_UNDECIDED).
_STOP = None
_UNDECIDED = -1


def baselines_from(s: Sentence, pos: int, subject: str | None) -> list[Baseline]:
    """The compared things written from `pos` on: named methods or the text's
    own words ("the previous state of the art"), split at lists."""
    tokens = list(s.doc[s.first_token(pos):s.end])
    lead = s.cues.leading_of.match(s.doc_text[tokens[0].idx:s.end_char]) if tokens else None
    if lead:  # "surpasses that of the previous best"
        tokens = [t for t in tokens if t.idx >= tokens[0].idx + lead.end()]
    items = _Items()
    i = 0
    while i < len(tokens):
        step = _read_structure(s, tokens, i, items, subject)
        if step == _UNDECIDED:
            step = _read_words(s, tokens, i, items)
        if step is _STOP:
            break
        if isinstance(step, list):
            return step
        i = step
    items.close()
    return _finish(s, items.pieces, items.seps, items.examples_from, subject, items.gerunds)


def _read_structure(s: Sentence, tokens: list, i: int, items: _Items, subject: str | None):
    """Token `i` as part of the list's structure: a named method, a possessive,
    a compound participle, the cue's word said again, the end of a named
    item, an example marker, a bracket."""
    c, text, cur = s.cues, s.doc_text, items.cur
    tok = tokens[i]
    m = s.mention_at_token(tok.i)
    if m is not None and m.label == "Method":
        cur.append(m)
        return i + m.tok_end - tok.i
    low = tok.lower_
    if cur and isinstance(cur[-1], Mention) and low in _POSSESSIVE:
        return _STOP  # "X's gain of 1.7%": the named method is the baseline
    if low in c.compound_participles and cur and (isinstance(cur[-1], Mention) or not _noun_like(cur[-1], c)) \
            and i + 1 < len(tokens) \
            and tokens[i + 1].text[:1].isalnum() and tokens[i + 1].lower_ not in c.participle_preps \
            and not _stop_here(tokens, i + 1, c.stops, c.stop_exceptions):
        cur.append(tok)  # "the LSTM based tagger model": "Transformer-based", written apart
        return i + 1
    if not cur and c.repeated_preposition.match(text, tok.idx):
        # "over A, as well as over B": the cue's word said again after a separator.
        end = c.repeated_preposition.match(text, tok.idx).end()
        while i < len(tokens) and tokens[i].idx < end:
            i += 1
        return i
    if cur and isinstance(cur[-1], Mention) and low not in c.baseline_heads and low not in c.list_separators \
            and low != "(" and tok.whitespace_ != "" and tokens[i - 1].whitespace_:
        return _STOP  # a named method ends its item unless a head noun follows ("the BERT baseline")
    marker = c.example_marker.match(text[tok.idx:tok.idx + 14]) if low not in c.list_separators else None
    if marker:
        # Skip every token of the marker ("such as", "e.g.,").
        j = i + 1
        while j < len(tokens) and tokens[j].idx < tok.idx + len(marker.group(0).rstrip()):
            j += 1
        items.close()
        items.cur, items.sep = [], ""
        items.examples_from = len(items.pieces)
        return j
    if low == "(":
        return _read_bracket(s, tokens, i, items, subject)
    return _UNDECIDED


def _read_bracket(s: Sentence, tokens: list, i: int, items: _Items, subject: str | None):
    """A bracket in a list of baselines: skipped, the end of the list, or
    examples that stand for the generic words before it."""
    c, text, tok = s.cues, s.doc_text, tokens[i]
    close = next((k for k in range(i + 1, len(tokens)) if tokens[k].text == ")"), None)
    if close is None:
        return _STOP
    inner = text[tok.idx + 1:tokens[close].idx]
    if _ENUMERATOR.fullmatch(inner):
        return _STOP  # "(1) outperforms A, (2) ... and (3) ...": the next item of an enumeration
    if c.example_marker.match(inner):
        inner_pos = tok.idx + 1 - s.start_char
        inner_pos += c.example_marker.match(inner).end()
        examples = _baselines_inside(s, inner_pos, tokens[close].idx - s.start_char, subject)
        if examples:
            # "methods (e.g., TEAL)": the examples stand for the generic words.
            items.close()
            named = [b for b in _finish(s, items.pieces, items.seps, items.examples_from, subject, items.gerunds)
                     if b.named]
            return named + examples
    return close + 1


def _read_words(s: Sentence, tokens: list, i: int, items: _Items):
    """Token `i` as a word of the list: a separator, the next clause's verb,
    a gerund phrase, a count, the end of the list, or a word of the item."""
    c, cur = s.cues, items.cur
    tok = tokens[i]
    low = tok.lower_
    joined = 1 if low in c.list_separators else _phrase_at(tokens, i, c.join_phrases)  # "and", "as well as"
    if joined:
        items.close()
        items.sep = (items.sep + " " + low).strip() if not cur else low
        items.cur = []
        return i + joined
    if (c.improve_verb.pattern.fullmatch(tok.text) or c.achieve_verb.pattern.fullmatch(tok.text)) \
            and not (not cur and low in c.baseline_modifiers):
        return _STOP  # the next clause: "... and further outperforms ..." (but "established methods")
    if not cur and (not items.pieces or items.sep in c.coordinators) and _gerund(tok, c):
        tail = _gerund_phrase(tokens, i, c)
        if tail:  # "than picking the top parse", "compared to A or using B": what is done instead
            items.gerunds.add(len(items.pieces))
            items.pieces.append(tokens[i:i + tail])
            items.seps.append(items.sep)
            items.sep = ""
            return i + tail
    if not cur and items.pieces and low.endswith("ing") and tok.text.islower() and low not in c.baseline_modifiers \
            and low not in c.baseline_heads:
        return _STOP  # "over X, enabling ...": a participle clause, not the next item
    inside_word = i > 0 and not tokens[i - 1].whitespace_  # "non-influence-based"
    if not cur and _count(tokens, i):
        cur.append(tok)  # "outperforms five strong baselines": how many, part of the phrase
        return i + 1
    if low in _END_PUNCT or (low in _DASHES and not inside_word) or tok.like_num or _words(cur) > 9 \
            or (not inside_word and _stop_here(tokens, i, c.stops, c.stop_exceptions)):
        return _STOP
    if not inside_word and low in c.stops_after_noun and cur and _noun_like(cur[-1], c):
        tail = _participle_tail(s, tokens, i)
        if not tail:
            return _STOP  # "models trained on 10x more data", but "separately trained models"
        cur.extend(tokens[i:i + tail])  # "methods proposed in prior work": the text's words, whole
        return i + tail
    cur.append(tok)
    return i + 1


def _gerund(tok: Token, c) -> bool:
    """A verb's -ing form written in lower case that is no word of earlier
    work ("existing") nor a baseline head ("prompting") nor a word that only
    looks like one ("during", "nothing": the rules' not_gerunds)."""
    low = tok.lower_
    return low.endswith("ing") and len(low) > 4 and tok.text.islower() and low not in c.baseline_modifiers \
        and low not in c.baseline_heads and low not in c.not_gerunds


def _gerund_phrase(tokens: list[Token], i: int, c) -> int:
    """How many tokens the gerund phrase at i holds ("training on unlabeled
    clauses"): its object, up to seven words, to a mark, a list
    separator, a number, a cue or a stop; a preposition of
    participle_preps goes on when a word follows it. 0 for a gerund alone."""
    j = i + 1
    while j < len(tokens) and j - i < 8:
        tok = tokens[j]
        low = tok.lower_
        nxt = tokens[j + 1] if j + 1 < len(tokens) else None
        if low in c.participle_preps and nxt is not None and nxt.text[:1].isalpha():
            j += 1
            continue
        if not tok.text[:1].isalnum() and tok.text not in _END_PUNCT and tok.text != ",":
            return 0  # "using the last <EOS> ...": a symbol inside the phrase, where it ends is unknown
        if not tok.text[:1].isalnum() or low in c.list_separators or any(ch.isdigit() for ch in low) \
                or _stop_here(tokens, j, c.stops, c.stop_exceptions) or low in c.stops_after_noun \
                or c.improve_verb.pattern.fullmatch(tok.text) or c.achieve_verb.pattern.fullmatch(tok.text):
            break
        j += 1
    return j - i if j - i >= 2 and tokens[j - 1].lower_ not in c.participle_preps else 0


def _participle_tail(s: Sentence, tokens: list[Token], i: int) -> int:
    """How many tokens from the participle at i its phrase holds ("trained on
    film subtitle counts"), or 0: a preposition of `participle_preps` and one
    to six words up to a mark, a list separator, a stop, a number or a cue."""
    c = s.cues
    if i + 2 >= len(tokens) or tokens[i + 1].lower_ not in c.participle_preps:
        return 0
    j = i + 2
    while j < len(tokens) and j - i - 2 < 6:
        tok = tokens[j]
        low = tok.lower_
        if not tok.text[:1].isalnum() or low in c.list_separators or tok.like_num \
                or _stop_here(tokens, j, c.stops, c.stop_exceptions) or low in c.stops_after_noun \
                or c.improve_verb.pattern.fullmatch(tok.text) or c.achieve_verb.pattern.fullmatch(tok.text):
            break
        j += 1
    if j == i + 2 or (j < len(tokens) and tokens[j].like_num) \
            or any(t.lower_ in c.participle_settings for t in tokens[i + 2:j]):
        return 0  # "trained on 10x more data", "trained with the same budget": the setting, not the baseline
    return j - i


def _count(tokens: list[Token], i: int) -> bool:
    """A whole number that opens a phrase and counts the words after it:
    "five strong baselines", "12 prior methods"; not a score ("85.1%
    accuracy") nor a margin ("2 points")."""
    tok = tokens[i]
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    return tok.like_num and tok.text.isalnum() and tok.whitespace_ != "" and nxt is not None \
        and nxt.text[:1].isalpha() and nxt.text.islower()


def _noun_like(item: Token | Mention, c) -> bool:
    """A named method, a baseline head or a lower-case plural: what a
    participle ("trained", "based") after it describes."""
    if isinstance(item, Mention):
        return True
    low = item.lower_
    return low in c.baseline_heads or (low.endswith("s") and low.isalpha() and item.text.islower())


def _words(piece: list) -> int:
    """Words of a piece as written: "state-of-the-art" is one."""
    return sum(1 for x in piece if isinstance(x, Mention) or x.whitespace_)


def _baselines_inside(s: Sentence, start: int, end: int, subject: str | None) -> list[Baseline]:
    found = baselines_from(s, start, subject)
    return [b for b in found if b.end <= end]


def _finish(s: Sentence, pieces: list[list], seps: list[str], examples_from: int | None,
            subject: str | None, gerunds: set[int]) -> list[Baseline]:
    out: list[Baseline] = []
    pending: list | None = None  # an unfinished adjective piece: "diffusion-based and ..."
    for k, piece in enumerate(pieces):
        if examples_from is not None and k == examples_from and out:
            # "methods like A and B": the examples stand for the generic words.
            generic = [b for b in out if not b.named]
            if generic and k > 0:
                out = [b for b in out if b.named]
        if pending is not None and seps[k] in s.cues.coordinators:
            piece = pending + [seps[k]] + piece
        b = _gerund_piece(s, piece) if k in gerunds else _piece(s, piece, subject)
        if b is None:
            if out and pending is None:
                break
            pending = piece if all(isinstance(x, Token) for x in piece) and len(piece) <= 4 else None
            if pending is None and out:
                break
            continue
        pending = None
        if out and out[-1].named and not b.named and seps[k] == "," and _starts_with_the(piece):
            continue  # an apposition: "REPA, the current state of the art"
        if out and not out[-1].named and b.named and seps[k] == "," and _starts_with_the(pieces[k - 1]) \
                and not out[-1].name.lower().endswith("s"):
            out[-1] = b  # an apposition: "the baseline model, Mamba"
            continue
        out.append(b)
    return out


def _named_in(s: Sentence, items: list, c) -> Mention | None:
    """The named method a list item stands for: its last word, or the last
    named method followed only by generic head nouns ("the RankT5 baseline",
    "MLP methods", "the RWKV (RWKV-4) architecture")."""
    for k in range(len(items) - 1, -1, -1):
        x = items[k]
        if isinstance(x, Mention):
            if k == len(items) - 1 and k > 0 and s.text[x.start:x.end].islower() \
                    and c.baseline_phrase.search(s.text, _item_start(s, items[0]), x.start):
                return None  # "the state-of-the-art AR transformer": a kind of earlier work, not the name
            # A name, not a kind written in lower case: "a strong flow model baseline" stays whole;
            # but "the classic gated attention mechanism" is gated attention (name_heads).
            written = s.text[x.start:x.end]  # "MLP methods" names MLP though its name is "multilayer perceptron"
            itself = k < len(items) - 1 and all(t.lower_ in c.name_heads for t in items[k + 1:])
            return x if k == len(items) - 1 or itself or any(ch.isupper() or ch.isdigit() for ch in written) else None
        if x.lower_ not in c.baseline_heads and x.lower_ not in c.name_heads:
            return None
    return None


def _item_start(s: Sentence, item: Token | Mention) -> int:
    return item.start if isinstance(item, Mention) else item.idx - s.start_char


def _name_written(s: Sentence, items: list, c) -> Baseline | None:
    """A name that no entity span marks, written as one, maybe followed by
    kind words: "Wanda", "the Huggingface implementation", "Lempel-Ziv"."""
    k = len(items)
    while k and isinstance(items[k - 1], Token) and items[k - 1].lower_ in c.baseline_heads:
        k -= 1
    if not k or not all(isinstance(t, Token) for t in items[:k]):
        return None
    start, end = items[0].idx - s.start_char, items[k - 1].idx + len(items[k - 1].text) - s.start_char
    words = s.text[start:end].split()
    if len(words) > 3 or not all(_name_like(w, c) for w in words):
        return None
    if any(m.start < end and start < m.end for m in s.mentions):
        return None  # a dataset, metric or task, not a method
    if c.not_baseline_after.search(s.text[max(0, start - 30):start]):
        return None  # "improves accuracy on SQuAD": where, not what
    return Baseline(s.text[start:end], start, end, named=True)


def _name_like(word: str, c) -> bool:
    """Written as a name: a capital (first or inside: "vLLM", "fastText") or
    a digit, not a word that is never a name ("GPU") nor an adjective made
    with a hyphen ("ImageNet-pretrained")."""
    if not any(ch.isupper() or ch.isdigit() for ch in word) or not any(ch.isalpha() for ch in word):
        return False
    return word not in c.not_names and word.rsplit("-", 1)[-1].lower() not in c.adjective_suffixes


def _starts_with_the(piece: list) -> bool:
    return bool(piece) and isinstance(piece[0], Token) and piece[0].lower_ in ("the", "a", "an")


def _gerund_piece(s: Sentence, piece: list) -> Baseline | None:
    """A gerund phrase as a baseline in the text's own words, unless it is the paper's ("using our ...")."""
    tokens = [t for t in piece if isinstance(t, Token)]  # an unfinished piece before it may bring its separator
    if any(t.lower_ in s.cues.own_words for t in tokens):
        return None
    start = tokens[0].idx - s.start_char
    end = tokens[-1].idx + len(tokens[-1].text) - s.start_char
    return Baseline(s.text[start:end], start, end, named=False)


def _piece(s: Sentence, piece: list, subject: str | None) -> Baseline | None:
    """One list item as a baseline, or None when it is not one."""
    c = s.cues
    items = [x for x in piece if not isinstance(x, str)]
    while items and isinstance(items[0], Token) and items[0].lower_ in c.drop_first:
        items = items[1:]
    if not items:
        return None
    base = s.start_char
    start = items[0].start if isinstance(items[0], Mention) else items[0].idx - base
    last = items[-1]
    end = last.end if isinstance(last, Mention) else last.idx + len(last.text) - base
    text = s.text[start:end]
    lead = c.leading_of.match(text)
    if lead:
        start += lead.end()
        text = text[lead.end():]
        items = [x for x in items if (x.start if isinstance(x, Mention) else x.idx - base) >= start]
        if not items:
            return None
    whole_end = end
    core = _before_participle(items, c)  # "techniques proposed in prior work": "techniques" says what it is
    if len(core) < len(items):
        items = core
        last = items[-1]
        end = last.end if isinstance(last, Mention) else last.idx + len(last.text) - base
        text = s.text[start:end]
    # "the strong LSTM based tagger model": a kind built on a named method, in the text's own words
    compound = any(isinstance(x, Token) and x.lower_ in c.compound_participles for x in items[1:-1])
    named = None if compound else _named_in(s, items, c)
    if named is not None:
        if named.name == subject or (named.proposed and subject == s.main):
            return None  # the paper's proposal is no baseline of itself; another method may beat it ("X outperforms our Y")
        return Baseline(named.name, named.start, named.end, named=True)
    name = _name_written(s, items, c)
    if name is not None:
        return name
    if any(isinstance(x, Mention) and x.label == "Method" and (x.proposed or x.name == subject) for x in items):
        return None
    if c.self_reference.pattern.fullmatch(text):
        return None
    head = c.trailing_exception.sub("", text).rsplit(None, 1)[-1].lower()  # "the CTC decoder by itself"
    words = [x for x in items if not (isinstance(x, Token) and x.like_num)]  # "12 prior parsers": after the count
    first = words[0].lower_ if words and isinstance(words[0], Token) else ""
    if first in c.own_first_words:
        return None  # "the proposed variants"; but "previously proposed techniques" is a baseline
    # A plural noun after a word that marks earlier work: "prior parsers", "existing retrievers".
    plural_after_marker = first in c.baseline_modifiers and len(words) > 1 and head.endswith("s") and head.isalpha() \
        and text.rsplit(None, 1)[-1].islower() and head not in c.not_baseline_plurals
    if head in c.baseline_heads or plural_after_marker or c.baseline_phrase.search(text):
        if any(t.lower_ in c.own_words for t in items if isinstance(t, Token)):
            return None
        return Baseline(s.text[start:whole_end], start, whole_end, named=False)
    return None


def _before_participle(items: list, c) -> list:
    """The items before a participle phrase that baselines_from kept ("trained on X")."""
    for k in range(1, len(items) - 1):
        x = items[k]
        if isinstance(x, Token) and x.lower_ in c.stops_after_noun and _noun_like(items[k - 1], c) \
                and isinstance(items[k + 1], Token) and items[k + 1].lower_ in c.participle_preps:
            return items[:k]
    return items
