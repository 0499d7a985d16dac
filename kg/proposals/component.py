"""The paper's own proposals, by kind of phrasing (the cue words are the rule
family "proposals", kg/resources/rules/proposals.json, compiled by
kg.proposals.cues):

- an opener and the first name after it: "we propose / introduce / designed
  X", "this paper presents X", "by proposing X", "... and introduce X"; a
  lower-case name set off after it ("we propose knot boosting, a ...");
  names listed with it ("X (XN) and Y");
- a naming word: "called / dubbed / denoted as X", "we call this approach X",
  "called Quill token to ..." (a lone capitalised word and the noun that ends the phrase);
- "our X", "our new X", "our method, X", "the proposed X", "X (ours)";
- a novelty apposition after the name: "X, a novel ...";
- "namely X" after a noun of method, in a sentence that introduces something;
- the parts of a proposal: "our X consists of A and B", "two modules: A, B";
- names listed after an opener and a count: "we present two layers: (a) A, (b) B";
- where none of these finds one, a name with a short form that the sentence of
  an opener defines ("we build a pruning scheme, which unites Foo Bar Pruning
  (FBP)"), else an unknown name that does better than others: "results show
  that X outperforms Y".

Every other place where a proposal's name is written again names it too, and
so does a one-word name that differs from it only by a size or version
("FooLM-7B" and "FooLM-13B") or that joins its initials to a suffix with a
hyphen ("Deep Quill Term Weighting" ... "DeepQT-Index").

Adds candidates with proposed=True (label Dataset when dataset words say so,
else Method); kg.entities.settle sets doc._.proposed_name from them.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import chain
from typing import NamedTuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.entities.candidates import Candidate, candidates
from kg.entities.lexicon import Lexicon, lexicon
from kg.entities.patterns import is_name_like
from kg.nlp.abbreviations import abbreviation_pairs
from kg.nlp.scanning import head_starts, heads_show_matches
from kg.nlp.tokens import Tok, doc_text, positions, token_view, view_columns, view_text
from kg.proposals.cues import ProposalCues, proposal_cues

if not Doc.has_extension("proposed_name"):
    Doc.set_extension("proposed_name", default=None)

_WINDOW = 14
# Tokens after which a run of capitalised words is a name: "a Pebble Net", 'a "Future Lens" view'.
_NAME_OPENERS = frozenset({",", ":", "a", "an", "the", '"', "“", "``", "'"})
_NAMED_BEFORE = 30  # characters before a naming word that may say what is named
# A size or version in a name: "7B", "70b", "2.5", "3".
_SIZE = re.compile(r"\d+(?:\.\d+)?[BbMmKk]?(?![A-Za-z])")
_TITLE_WORD = re.compile(r"^[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*$")
# "nnFoo", "xQuill": a short lower-case prefix before a capital, a name where a cue puts one.
_LOWER_CAMEL = re.compile(r"^[a-z]{1,4}[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*$")


# A name found: its first token and the token after it. The rules here read
# only offsets and text, which the token view gives without a spaCy Span.
Name = tuple[int, int]


def _name_at(v: list[Tok], i: int, lex: Lexicon, pairs: dict[int, Name], relaxed: bool,
             named: bool = False) -> Name | None:
    """The name that starts at token i, if one does: an abbreviation's long
    form, a name-like token, or (when `relaxed`) a Title Case run. A run may
    open with a common word right after "called" (`named`: "Deep Speech") or
    when two more words follow ("a Deep Pebble Term Weighting framework")."""
    if i in pairs:
        return pairs[i]
    tok = v[i]
    if is_name_like(tok, lex) or relaxed and _LOWER_CAMEL.match(tok.text):
        return i, i + 1
    common = tok.text in lex.not_names
    if relaxed and _TITLE_WORD.match(tok.text) and tok.lower_ not in STOP_WORDS:
        j = i + 1
        while j < len(v) and j - i < 5 and v[j].text[:1].isupper() and v[j].text not in lex.not_names \
                and not v[j].is_punct:
            j += 1
            # After "called" a name's words may be joined by "and" ("called Selective Pebble and Quill Mixer").
            if named and j + 1 < len(v) and v[j].lower_ == "and" and _TITLE_WORD.match(v[j + 1].text):
                j += 1
        if j - i < 2 and (common or _is_adjective(tok.text, lex)):
            return None  # a lone common word, or a compound that describes ("MLP-specific pruning")
        if common and not named and j - i < 3:
            return None  # "a Deep Model": a common word opens a name only after "called" or before two more words
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


def _lower_proposal_at(v: list[Tok], text: str, i: int, lex: Lexicon, cues: ProposalCues) -> Name | None:
    """ "the proposed selective pebble generation outperforms": a lower-case
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
    if end >= len(v) or v[end].is_punct or v[end].lower_ in cues.not_after_subject:
        return None
    return start, end


def _lower_object_at(v: list[Tok], text: str, i: int, lex: Lexicon, cues: ProposalCues) -> Name | None:
    """ "we propose (a novel) knot boosting, ...", "we introduce a latent
    attention layer that ...": a lower-case name of two to five words right
    after an opener (past an article and words of praise), set off by a
    comma or bracket, or with a method's head ("layer", "loss") where the
    clause goes on ("which", "to" ...). Not a gerund that opens what is
    done ("we propose training value critics"), a task, a dataset, a plural
    or a participle ("a network designed for"), nor a description that ends
    in a generic head ("a multi-task learning framework") unless an
    abbreviation in brackets names it."""
    sent_end = v[i].sent_end
    start = i
    while start < sent_end and v[start].lower_ in cues.lower_name_skipped:
        start += 1
    end = start
    while end < sent_end and end - start < 5:
        tok = v[end]
        if tok.is_punct or tok.is_space or not tok.text[:1].islower() or not tok.text.replace("-", "").isalnum() \
                or tok.lower_ in lex.name_stop_words or tok.lower_ in cues.scan_stop:
            break
        end += 1
    if end > start and end < sent_end and v[end].text == "," and v[end - 1].lower_ in cues.lower_name_generic_heads:
        return _apposed_name(v, text, end + 1, lex, cues)  # "a new objective, pebble smoothing, which"
    if end - start < 2:
        return None
    first, last = v[start].lower_, v[end - 1].lower_
    # Set off as a name ("knot boosting, a ..."), or a method's part going on ("a latent attention layer that").
    set_off = end == sent_end or v[end].text in cues.lower_name_set_off and not (
        # "a triple pathway, 9-layers deep, ...": a comma that goes on with more description
        v[end].text == "," and (end + 1 >= sent_end or v[end + 1].lower_ not in cues.lower_name_after_comma))
    if not set_off and not (v[end].lower_ in cues.lower_name_ends
                            and _is_method_head(last.rsplit("-", 1)[-1], lex)):
        return None
    abbreviated = end + 2 < sent_end and v[end].text == "(" and v[end + 2].text == ")"
    # "we propose pebble flow samplers -- a simple recipe ...": a plural set off by a
    # novelty apposition names the paper's method ("value critics" alone would be what is trained).
    apposed = end < sent_end and bool(cues.apposed_after.match(text, v[end].idx))
    # "training value critics" opens what is done; "bi-clustering regularization" is a name
    if first.endswith("ing") and "-" not in first or last.endswith("ed") \
            or last.endswith("s") and not last.endswith(("ss", "is", "us")) and not apposed \
            or last in lex.task_heads or last in lex.task_cues or cues.dataset_before.fullmatch(last) \
            or view_text(v, text, start, end).lower() in lex.generic_terms \
            or last in cues.lower_name_generic_heads and not abbreviated:
        return None
    return start, end


def _apposed_name(v: list[Tok], text: str, i: int, lex: Lexicon, cues: ProposalCues) -> Name | None:
    """ "we propose a new objective, pebble smoothing, which ...", "a new
    gray-box method, quill2net, that ...": after a generic head and a
    comma, the name is the one to four words up to the next comma or bracket
    (or the end of the sentence); not a description ("a method, a new ...")."""
    sent_end = v[i].sent_end if i < len(v) else i
    end = i
    while end < sent_end and end - i < 4:
        tok = v[end]
        if tok.is_punct or tok.is_space or not tok.text.replace("-", "").isalnum() or tok.lower_ in STOP_WORDS \
                or tok.lower_ in lex.name_stop_words or tok.lower_ in cues.scan_stop:
            break
        end += 1
    if end == i or end < sent_end and v[end].text not in cues.lower_name_set_off:
        return None
    if view_text(v, text, i, end).lower() in lex.generic_terms or v[end - 1].lower_ in cues.lower_name_generic_heads \
            and end - i < 2:
        return None
    return i, end


def _is_adjective(word: str, lex: Lexicon) -> bool:
    """ "MLP-specific", "KV-cache-like": a compound that describes, not a name."""
    return "-" in word and word.rsplit("-", 1)[1].lower() in lex.adjective_suffixes


def _is_method_head(word: str, lex: Lexicon) -> bool:
    return word in lex.method_heads or word in lex.method_heads_lowercase


def _token_at(v: list[Tok], idxs: tuple[int, ...], char: int) -> int | None:
    """Index of the first non-space token that starts at or after `char`
    (`idxs`: the tokens' offsets, which ascend)."""
    lo = bisect_left(idxs, char)
    while lo < len(v) and v[lo].is_space:
        lo += 1
    return lo if lo < len(v) else None


def _scan(v: list[Tok], idxs: tuple[int, ...], start_char: int, lex: Lexicon, pairs: dict[int, Name],
          stop: frozenset[str], window: int = _WINDOW, named: bool = False) -> Name | None:
    """The first name within a few tokens after a character offset, within
    its sentence; none when a word of `stop` comes first."""
    i = _token_at(v, idxs, start_char)
    if i is None:
        return None
    sent_end = v[i].sent_end
    seen = 0  # words seen: the space left by markup ("called the *Foo Net*") is no word of the window
    prev = None  # the word before k
    for k in range(i, sent_end):
        tok = v[k]
        if tok.is_space:
            continue
        if seen == window:
            break
        seen += 1
        # "we propose to bridge the KNOT gap": after "to" comes what is done, not a name.
        if tok.lower_ in stop and (k > i or tok.lower_ == "to") and not _joins_words(v, k):
            return None
        # "we propose training value critics (VCs)": a gerund opens what is done ("sliding window
        # attention (SWA)" is a defined name).
        if prev is None and stop and tok.text.isalpha() and tok.text.islower() and tok.text.endswith("ing") \
                and k not in pairs:
            return None
        name = _name_at(v, k, lex, pairs, relaxed=(prev is None or v[prev].text in _NAME_OPENERS),
                        named=named and prev is None)
        prev = k
        if name is not None:
            end = _past_short_form(v, name[1])
            if end < len(v) and (v[end].lower_ in lex.task_heads or v[end].lower_ in lex.task_cues):
                return None  # "a neural POS tagging model", "the KNOT problem": the name is part of a task
            return name
    return None


def _with_head(v: list[Tok], name: Name, lex: Lexicon, pairs: dict[int, Name], cues: ProposalCues) -> Name:
    """ "we introduce a Quokka regularizer that ...": a lone capitalised word
    that is no name by its shape takes the method head after it ("regularizer",
    "loss"; not a generic one: "a Bayesian model" stays "Bayesian")."""
    start, end = name
    if end - start == 1 and start not in pairs and not is_name_like(v[start], lex) and end < len(v) \
            and _is_method_head(v[end].lower_, lex) and v[end].text.islower() \
            and v[end].lower_ not in cues.lower_name_generic_heads:
        return start, end + 1
    return name


def _with_noun(v: list[Tok], name: Name, lex: Lexicon, pairs: dict[int, Name], cues: ProposalCues) -> Name:
    """ "a learnable vector called Quill token to replace ...": after a naming
    word, a lone capitalised word that is no name by its shape takes the one
    lower-case noun after it where the phrase ends there (a mark, "to",
    "that"); not a word of a verb's shape ("called Quill trained on")."""
    start, end = name
    if end - start != 1 or start in pairs or is_name_like(v[start], lex) or end + 1 >= len(v):
        return name
    noun, after = v[end], v[end + 1]
    if not noun.text.isalpha() or not noun.text.islower() or noun.lower_ in STOP_WORDS \
            or noun.lower_.endswith(("ed", "ing", "ly")) or noun.lower_ in lex.name_stop_words:
        return name
    if after.is_punct or after.lower_ in cues.lower_name_ends:
        return start, end + 1
    return name


def _bracketed_name(v: list[Tok], i: int, lex: Lexicon, pairs: dict[int, Name], cues: ProposalCues) -> Name | None:
    """ "we introduce a novel representational method (Rank-1 Representation
    Finetuning; ReFT-r1)": the name in brackets right after a noun of method
    (`our_nouns`) of a phrase with an article, within a few tokens of the
    opener; a run of capitalised words whole ("Rank-1 Representation ...")."""
    if v[i].lower_ not in ("a", "an", "the"):
        return None  # "we propose training value critics (VCs)": what is done
    for k in range(i, min(v[i].sent_end, i + _WINDOW) - 1):
        if v[k].text == "(":
            if not cues.our_noun.fullmatch(v[k - 1].lower_):
                return None
            name = _name_at(v, k + 1, lex, pairs, relaxed=True)
            if name is not None and name[1] - name[0] == 1 and k + 1 not in pairs:
                end = name[1]
                while end < len(v) and end - name[0] < 5 and _is_title_word(v[end], lex):
                    end += 1
                name = name[0], end
            return name
    return None


def _joins_words(v: list[Tok], k: int) -> bool:
    """ "a novel and efficient mechanism": an "and" between two lower-case
    words joins words of one phrase, not two clauses."""
    return v[k].lower_ == "and" and 0 < k < len(v) - 1 and v[k - 1].text.isalpha() and v[k - 1].text.islower() \
        and v[k + 1].text[:1].islower()


def _past_short_form(v: list[Tok], end: int) -> int:
    """The token after a name's short form in brackets ("FooNet (FN) task",
    "Foo Transformer (F Transformer) and"), or `end`."""
    if end < len(v) and v[end].text == "(":
        for k in range(end + 2, min(end + 5, len(v))):
            if v[k].text == ")":
                return k + 1
            if v[k].is_punct:
                break
    return end


def _modified_known(v: list[Tok], i: int, name: Name, texts: tuple[str, ...], known: set[Name],
                    abbreviations: list[tuple[Span, Span]], tasks: set[Name], lex: Lexicon,
                    cues: ProposalCues) -> Name:
    """ "we propose the pebble-weighted CTC", "we introduce noisy lagged
    action MDPs": a name known before (the gazetteer's, or a short form
    defined earlier) with up to three words of its own before it names a new
    variant, and the proposal is the whole phrase; else `name`. Not a gerund
    ("testing FAs") nor a task's name ("a streamlined ASR" stays a task)."""
    start = name[0]
    use = _short_form_use(texts, abbreviations, start)
    if name not in known and (use is None or use[0].start >= start) or any(end == name[1] for _, end in tasks) \
            or use is not None and (use[0].start, use[0].end) in tasks:
        return name
    k = start
    while k > i and start - k < 3:
        tok = v[k - 1]
        if not tok.text.replace("-", "").isalpha() or tok.lower_ in STOP_WORDS or tok.lower_ in cues.scan_stop \
                or tok.lower_ in cues.lower_name_skipped or tok.text in lex.not_names or tok.lower_.endswith("ing"):
            break
        k -= 1
    return (k, name[1]) if k < start else name


def _coordinated(v: list[Tok], name: Name, lex: Lexicon, pairs: dict[int, Name], known: set[Name],
                 named: bool = False) -> list[Name]:
    """The names listed with a proposal right after it: "we present FooNet
    (FN) and BarNet", "FooNet, BarNet and BazNet" (not names the gazetteer
    knows: "FooNet and BERT" compares); after a naming word (`named`) also
    with an article ("called the Foo Transformer and the Bar Transformer")."""
    out = []
    k = _past_short_form(v, name[1])
    while k < len(v) - 1 and len(out) < 4 and v[k].text in (",", "and") and not v[k].is_sent_start:
        j = k + 1 + (v[k].text == "," and v[k + 1].lower_ == "and")
        if named and j < len(v) - 1 and v[j].lower_ in ("the", "a", "an") and not v[j].is_sent_start:
            j += 1  # "called the Foo Transformer (FT) and the Bar Transformer" (after an opener, "and the" goes on)
        if j >= len(v) or v[j].is_sent_start:
            break
        nxt = _name_at(v, j, lex, pairs, relaxed=True)
        if nxt is None or nxt in known:
            break
        out.append(nxt)
        k = _past_short_form(v, nxt[1])
    return out


def _parts(v: list[Tok], idxs: tuple[int, ...], start_char: int, lex: Lexicon, pairs: dict[int, Name],
           known: set[Name]) -> list[Name]:
    """The names from `start_char` to the end of its sentence: the parts
    after "consists of". Not names the gazetteer knows, nor adjectives
    ("TDNN-based"); a lone capitalised word takes the lower-case words up to
    a method head after it ("Multiview centroid loss") or is no name."""
    i = _token_at(v, idxs, start_char)
    if i is None:
        return []
    out = []
    k, end = i, v[i].sent_end
    while k < end:
        relaxed = k == i or v[k - 1].text in (",", ":", ";", ")", "a", "an", "the", "and")
        name = _name_at(v, k, lex, pairs, relaxed=relaxed)
        if name is None:
            k += 1
            continue
        if name[1] - name[0] == 1 and name[0] not in pairs and not is_name_like(v[name[0]], lex):
            j = name[1]
            while j < end and j - name[1] < 3 and v[j].text.isalpha() and v[j].text.islower() \
                    and not _is_method_head(v[j].lower_, lex):
                j += 1
            if j < end and _is_method_head(v[j].lower_, lex):
                name = (name[0], j + 1)
            elif not (v[name[0] - 1].lower_ in ("a", "an") and v[name[0]].text not in lex.not_names):
                name = None  # "and a Distinguisher that ...": a capitalised word an article introduces is a name
        if name is not None and name not in known \
                and v[name[1] - 1].text.rsplit("-", 1)[-1].lower() not in lex.adjective_suffixes:
            out.append(name)
        k = _past_short_form(v, name[1]) if name is not None else k + 1
    return out


def _sentence_before(v: list[Tok], idxs: tuple[int, ...], text: str, char: int) -> str:
    """The text of the sentence at `char`, up to it."""
    i = _token_at(v, idxs, char)
    start = v[v[i].sent_start].idx if i is not None else 0
    return text[start:char]


def _introduced_before(v: list[Tok], idxs: tuple[int, ...], text: str, char: int, cues: ProposalCues) -> bool:
    """Whether the sentence, up to `char`, introduces something: an opener
    ("we propose") or a novelty word ("a new objective")."""
    before = _sentence_before(v, idxs, text, char)
    return bool(cues.opener.search(before) or cues.novelty.search(before))


def _namely_introduces(v: list[Tok], idxs: tuple[int, ...], text: str, char: int, cues: ProposalCues,
                       names_before: set[str]) -> bool:
    """ "we propose a new approach (namely, FooNet)": "namely" names the
    paper's own thing only after a noun of method ("two public datasets,
    namely ..." lists others' work) in a sentence that introduces something,
    or right after a proposal's name ("two types of the Pebblers, namely
    ...": its variants)."""
    i = _token_at(v, idxs, char)
    if i is None:
        return False
    k = i - 1
    while k >= v[i].sent_start and v[k].is_punct:
        k -= 1
    if k < v[i].sent_start:
        return False
    before = text[v[v[i].sent_start].idx:v[k].idx + len(v[k].text)]
    if any(before.endswith(n) for n in names_before):
        return True
    return bool(cues.our_noun.fullmatch(v[k].lower_)) and _introduced_before(v, idxs, text, char, cues)


def _end_char(v: list[Tok], name: Name) -> int:
    last = v[name[1] - 1]
    return last.idx + len(last.text)


def _label(v: list[Tok], text: str, from_char: int, name: Name, cues: ProposalCues) -> str:
    start_char, end_char = v[name[0]].idx, _end_char(v, name)
    if cues.dataset_name.search(text[start_char:end_char]) or cues.dataset_before.fullmatch(v[name[1] - 1].text):
        return "Dataset"  # "FooBench", "Cross-Age Face dataset"
    between = text[from_char:start_char]
    after = text[end_char:end_char + 60]
    if cues.dataset_before.search(between) or cues.dataset_after.match(after):
        return "Dataset"
    if cues.metric_after.match(text, end_char, end_char + 100):
        return "Metric"  # "FooScore, a precise sparsity metric"
    return "Method"


def _name_before(v: list[Tok], i: int, lex: Lexicon, abbreviations: list[tuple[Span, Span]]) -> Name | None:
    """The name that ends just before token i: a defined abbreviation
    ("Long Form (LF)" or "LF (Long Form)", the long form), a name-like token,
    or a run of capitalised words ("Nucleus Sampling") within the sentence."""
    k = i - 1
    if v[k].text == ")" and k >= 1:
        k -= 1
    long = next((lg for lg, sh in abbreviations if sh.end == k + 1 or lg.end == k + 1), None)
    if long is not None:
        return long.start, long.end
    start = k
    while start > v[k].sent_start and k - start < 4 and _is_title_word(v[start - 1], lex):
        start -= 1
    if start < k and _is_title_word(v[k], lex) or is_name_like(v[k], lex):
        return start, k + 1
    return None


def _is_title_word(tok: Tok, lex: Lexicon) -> bool:
    return bool(_TITLE_WORD.match(tok.text)) and tok.text not in lex.not_names and tok.lower_ not in STOP_WORDS


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


@Language.factory("kg_proposals", default_config={"rules": []})
def make_proposals(nlp: Language, name: str, rules: list[str]):
    """The proposal rules, with the lexicon and the proposal cues changed by the user's `rules` files."""
    lex = lexicon(rules)
    cues = proposal_cues(rules)
    return lambda doc: find_proposals(doc, lex, cues)


def _components(v: list[Tok], idxs: tuple[int, ...], text: str, lower: str | None, lex: Lexicon, cues: ProposalCues,
                pairs: dict[int, Name], known: set[Name], tasks: set[Name],
                found: list[tuple[Name, str]]) -> list[tuple[Name, str]]:
    """ "Our FooNet consists of two modules: BarNorm (BN) and BazPool": the
    parts of a proposal, where the sentence names the proposal (found so far,
    "our ...", "the proposed ...") or introduces something before the cue."""
    out = []
    names_before = {view_text(v, text, a, b) for (a, b), _ in found}
    for m in cues.matches("components", text, lower):
        before = _sentence_before(v, idxs, text, m.start())
        if not (cues.our_name.search(before) or cues.the_proposed.search(before)
                or _introduced_before(v, idxs, text, m.start(), cues) or any(n in before for n in names_before)):
            continue
        out.extend((part, _label(v, text, m.end(), part, cues))
                   for part in _parts(v, idxs, m.end(), lex, pairs, known) if part not in tasks)
    return out


def _listed(v: list[Tok], idxs: tuple[int, ...], texts: tuple[str, ...], text: str, lex: Lexicon, cues: ProposalCues,
            abbreviations: list[tuple[Span, Span]], known: set[Name], tasks: set[Name],
            openers: list[re.Match]) -> list[tuple[Name, str]]:
    """ "we present two embedding layers: (a) Foo Bar (FB) and (b) ...", "we
    propose two small changes - clipped pebble and gated quill":
    after an opener and a count ("two", "several") the names listed after a
    colon or dash are the paper's own. Lower-case items count only as a list
    of two or more items of two to four words each ("signal and noise" is no
    list of names). Not the short forms of names defined before ("DLMs").
    `openers`: the matches of cues.opener in the text."""
    pairs = {long.start: (long.start, long.end) for long, _ in abbreviations}
    out = []
    for m in openers:
        i = _token_at(v, idxs, m.end())
        if i is None:
            continue
        sent_end = v[i].sent_end
        # A dash between words ("Bradley--Terry") joins them; a list's dash stands apart.
        mark = next((k for k in range(i, sent_end) if v[k].text in cues.list_marks
                     and (v[k].text == ":" or text[idxs[k] - 1:idxs[k]].isspace())), None)
        if mark is None or not cues.list_count.search(text, m.end(), idxs[mark]):
            continue
        names = [part for part in _parts(v, idxs, idxs[mark] + 1, lex, pairs, known)
                 if part not in tasks and _short_form_use(texts, abbreviations, part[0]) is None]
        if not names:
            names = _lower_items(v, mark + 1, sent_end, lex, cues)
        out.extend((name, _label(v, text, idxs[mark], name, cues)) for name in names)
    return out


def _lower_items(v: list[Tok], start: int, end: int, lex: Lexicon, cues: ProposalCues) -> list[Name]:
    """The items of "clipped pebble and gated quill", "(a) x y, (b) z w":
    each two to four lower-case words, no article or function word; [] unless
    every item is one and there are two or more."""
    while end > start and v[end - 1].is_punct and v[end - 1].text not in (")",):
        end -= 1  # the sentence's full stop
    items, k, item_start = [], start, start
    while k <= end:
        tok = v[k] if k < end else None
        if tok is None or tok.text in (",", ";") or tok.lower_ in ("and", "or"):
            if k > item_start:
                items.append((item_start, k))
            k += 1
            item_start = k
            continue
        if tok.text == "(" and k + 2 < end and v[k + 2].text == ")" and k == item_start:
            k += 3  # a list mark "(a)"
            item_start = k
            continue
        if not tok.text.replace("-", "").isalpha() or not tok.text.islower() or tok.lower_ in STOP_WORDS \
                or tok.lower_ in lex.name_stop_words:
            return []
        k += 1
    if len(items) < 2 or any(not 2 <= b - a <= 4 for a, b in items):
        return []
    return items


def _marked_before(v: list[Tok], idxs: tuple[int, ...], text: str, lex: Lexicon, cues: ProposalCues,
                   abbreviations: list[tuple[Span, Span]]) -> list[tuple[Name, str]]:
    """ "X, a novel framework for ...", "X (ours)": a name followed by a mark of novelty."""
    out = []
    for m in chain(cues.apposition.finditer(text), cues.ours.finditer(text)):
        idx = m.start()
        i = bisect_left(idxs, idx)  # the comma or bracket token there, if it is one
        if 0 < i < len(v) and idxs[i] == idx and v[i].text in (",", "("):
            name = _name_before(v, i, lex, abbreviations)
            if name is not None:
                out.append((name, _label(v, text, idx, name, cues)))
    return out


def _novel_defined(v: list[Tok], text: str, cues: ProposalCues, abbreviations: list[tuple[Span, Span]],
                   known: set[Name], tasks: set[Name]) -> list[tuple[Name, str]]:
    """ "FooNets use a novel Quill Attention Via Pebble features approach
    (QAVP+)": a name defined with a short form right after "a novel" or "a
    new" is the paper's own, wherever it stands."""
    out = []
    for long, _ in abbreviations:
        name = long.start, long.end
        if name in known or name in tasks or not v[name[0]].text[:1].isupper():
            continue
        if cues.novel_before.search(text, max(0, v[name[0]].idx - 20), v[name[0]].idx):
            out.append((name, _label(v, text, v[name[0]].idx, name, cues)))
    return out


class _Context(NamedTuple):
    """What every proposal rule of one document reads."""

    v: list[Tok]
    idxs: tuple
    texts: tuple
    text: str
    lower: str | None  # None: the cues scan the text (ProposalCues.matches)
    lex: Lexicon
    cues: ProposalCues
    pairs: dict[int, Name]  # abbreviation pairs by the start of their long form
    abbreviations: list
    known: set[Name]  # gazetteer names
    tasks: set[Name]  # tasks and gazetteer metrics
    called_at: list[int]  # where naming words ("called", "named") begin


def find_proposals(doc: Doc, lex: Lexicon, cues: ProposalCues | None = None) -> Doc:
    """Add a proposal candidate for each name a cue finds (see the module docstring)."""
    cues = cues or proposal_cues()
    abbreviations = abbreviation_pairs(doc)
    text = doc_text(doc)
    out = candidates(doc)
    lower = text.lower()
    if not heads_show_matches(text, lower):
        lower = None  # the cues scan the text (ProposalCues.matches)
    # "so-called X", "a phenomenon called X": the words right before cancel the cue.
    called = [m for m in cues.matches("naming", text, lower)
              if not text[max(0, m.start() - 20):m.start()].lower().endswith(cues.naming_not_after)]
    x = _Context(v=token_view(doc), idxs=view_columns(doc)[2], texts=view_columns(doc)[0], text=text, lower=lower,
                 lex=lex, cues=cues, pairs={long.start: (long.start, long.end) for long, _ in abbreviations},
                 abbreviations=abbreviations, known={(c.start, c.end) for c in out if c.source == "gazetteer"},
                 tasks={(c.start, c.end) for c in out
                        if c.label == "Task" or c.label == "Metric" and c.source == "gazetteer"},
                 called_at=[m.start() for m in called])
    openers = cues.matches("opener", text, lower)
    no_stop: frozenset[str] = frozenset()
    # In the order they are tried: (pattern, matches, words that end the search, window).
    # After "called", "our method," or "the proposed" the name comes at once.
    tried = (
        (cues.opener, openers, cues.scan_stop, _WINDOW),
        (cues.gerund, cues.matches("gerund", text, lower), cues.scan_stop, _WINDOW),
        (cues.joined_opener, cues.matches("joined_opener", text, lower), cues.scan_stop, _WINDOW),
        (cues.naming, called, no_stop, 3),
        (cues.namely, cues.matches("namely", text, lower), no_stop, 3),
        (cues.our, cues.matches("our", text, lower), no_stop, 2),
        (cues.our_name, cues.matches("our_name", text, lower), cues.scan_stop, 1),
        (cues.the_proposed, cues.matches("the_proposed", text, lower), cues.scan_stop, 1),
    )
    found: list[tuple[Name, str]] = []
    for rx, matches, stop, window in tried:
        for m in matches:
            found.extend(_cued(x, rx, m, stop, window, found))
    found += _other_rules(x, openers, found)
    for (start, end), label in _kept(x, found):
        out.append(Candidate(start, end, label, "proposal", proposed=True))
    return doc


def _cued(x: _Context, rx: re.Pattern, m: re.Match, stop: frozenset[str], window: int,
          found: list[tuple[Name, str]]) -> list[tuple[Name, str]]:
    """The names cue match `m` of pattern `rx` introduces, with their labels."""
    v, idxs, text, lex, cues, pairs = x.v, x.idxs, x.text, x.lex, x.cues, x.pairs
    if rx is cues.namely and not _namely_introduces(v, idxs, text, m.start(), cues,
                                                    {view_text(v, text, a, b) for (a, b), _ in found}):
        return []
    if rx is cues.joined_opener and not cues.subject.search(_sentence_before(v, idxs, text, m.start())):
        return []  # "... and introduce X" needs "we" (or "this paper") earlier in its sentence
    opener = rx is cues.opener or rx is cues.gerund or rx is cues.joined_opener
    name = _cued_name(x, rx, m, stop, window, opener)
    if name is _CANCELLED or name is None:
        return []
    # A short form names the same thing as its long form ("STAB (Speech ... Benchmark)").
    use = _short_form_use(x.texts, x.abbreviations, name[0])
    if use is not None and name[1] - name[0] <= use[1]:
        name = use[0].start, use[0].end
    if rx is cues.our_name and (name in x.known or any(t_end == name[1] for _, t_end in x.tasks)):
        return []  # "our BERT model", "our improved SMT system": a known model or a task's system
    # "a realistic dataset called Quokka": what is named comes before the naming word
    from_char = max(m.start() - _NAMED_BEFORE, v[v[name[0]].sent_start].idx) if rx is cues.naming else m.end()
    named = [(name, _label(v, text, from_char, name, cues))]
    if opener or rx is cues.naming or rx is cues.namely:
        named.extend((more, _label(v, text, m.end(), more, cues))
                     for more in _coordinated(v, name, lex, pairs, x.known, named=not opener))
    return named


# A name found after an opener that a naming word right after it names again:
# "we propose a Faster RCNN method named FDNet" (the name comes after "named").
_CANCELLED = (-1, -1)


def _cued_name(x: _Context, rx: re.Pattern, m: re.Match, stop: frozenset[str], window: int,
               opener: bool) -> Name | None:
    """The name right after cue match `m`: written as a name, or, where the
    cue allows, in lower case (None: none; _CANCELLED: a later naming word
    names it)."""
    v, idxs, text, lex, cues, pairs = x.v, x.idxs, x.text, x.lex, x.cues, x.pairs
    name = _scan(v, idxs, m.end(), lex, pairs, stop, window=window, named=rx is cues.naming)
    if name is not None and opener:
        name = _modified_known(v, _token_at(v, idxs, m.end()), name, x.texts, x.known, x.abbreviations, x.tasks,
                               lex, cues)
    if name is not None:
        name = _with_head(v, name, lex, pairs, cues)
        if rx is cues.naming:
            name = _with_noun(v, name, lex, pairs, cues)
    if name is not None and opener:
        end_char = _end_char(v, name)
        if any(end_char <= c <= end_char + 25 for c in x.called_at):
            return _CANCELLED
    if name is None and rx is cues.naming and (cues.subject.match(m.group())
                                               or _introduced_before(v, idxs, text, m.start(), cues)):
        # "we call it soft mixing", "we propose a new objective called soft mixing": a
        # lower-case name only where the authors name it or the sentence introduces
        # something ("named entities", "today called keys" are not theirs).
        nxt = _token_at(v, idxs, m.end())
        name = _lower_name_at(v, nxt, lex) if nxt is not None else None
        if name is not None and v[name[1] - 1].lower_ in lex.task_heads:
            name = None  # "namely car model classification": a task, not a method's name
    elif name is None and opener:
        nxt = _token_at(v, idxs, m.end())
        name = _lower_object_at(v, text, nxt, lex, cues) if nxt is not None else None
        if name is None and nxt is not None:
            name = _bracketed_name(v, nxt, lex, pairs, cues)
    elif name is None and rx is cues.the_proposed:
        nxt = _token_at(v, idxs, m.end())
        name = _lower_proposal_at(v, text, nxt, lex, cues) if nxt is not None else None
    return name


def _other_rules(x: _Context, openers: list, found: list[tuple[Name, str]]) -> list[tuple[Name, str]]:
    """The proposals the rules beyond a cue and a name find: parts, lists,
    marks, definitions, and, where nothing else is found, short forms after
    an opener and the subjects of results."""
    v, idxs, texts, text, lower, lex, cues = x.v, x.idxs, x.texts, x.text, x.lower, x.lex, x.cues
    pairs, abbreviations, known, tasks = x.pairs, x.abbreviations, x.known, x.tasks
    more: list[tuple[Name, str]] = []
    more.extend(_components(v, idxs, text, lower, lex, cues, pairs, known, tasks, found))
    more.extend(_listed(v, idxs, texts, text, lex, cues, abbreviations, known, tasks, openers))
    more.extend(_marked_before(v, idxs, text, lex, cues, abbreviations))
    more.extend(_novel_defined(v, text, cues, abbreviations, known, tasks))
    if not found and not more:
        more.extend(_defined_after_opener(v, idxs, text, lex, cues, abbreviations, known, tasks, openers))
    if not found and not more:
        more.extend(_result_subjects(v, idxs, text, lower, lex, cues, pairs, known, tasks))
    return more


def _kept(x: _Context, found: list[tuple[Name, str]]) -> list[tuple[Name, str]]:
    """The proposals found, without generic words and tasks' names, with their
    variants, initials and repeated mentions."""
    kept: list[tuple[Name, str]] = []
    for (start, end), label in found:
        if view_text(x.v, x.text, start, end).lower() in x.lex.generic_terms:
            continue
        if label == "Method" and (start, end) in x.tasks:
            continue  # "our SRL model": the name of a task ("3D Dense Face Alignment" is a method)
        kept.append(((start, end), label))
    kept += _sized_variants(x.v, x.texts, kept, x.lex)
    kept += _initials_used(x.v, x.texts, kept, x.lex, {short.text for _, short in x.abbreviations})
    return kept + _repeated(x.texts, kept)


def _defined_after_opener(v: list[Tok], idxs: tuple[int, ...], text: str, lex: Lexicon, cues: ProposalCues,
                          abbreviations: list[tuple[Span, Span]], known: set[Name], tasks: set[Name],
                          openers: list[re.Match]) -> list[tuple[Name, str]]:
    """ "we build a hybrid pruning scheme, which unites Sparse Foo And Bar Pruning
    (SFBP)", "we first propose a new cropping scheme and a Quill Front-End
    (QFE)": in an abstract where no cue found a proposal, the first name that
    the sentence of an opener defines with a short form, later than the opener,
    is the paper's own (not a name the gazetteer knows, nor a task's)."""
    for m in openers:
        i = _token_at(v, idxs, m.end())
        if i is None:
            continue
        sent_end = v[i].sent_end
        defined = sorted((long.start, long.end) for long, _ in abbreviations if i <= long.start < sent_end)
        for name in defined:
            start = name[0]
            while start > i and name[0] - start < 3 and (_is_title_word(v[start - 1], lex)
                                                          or is_name_like(v[start - 1], lex)):
                start -= 1  # "a Boosted Quill3D pebble encoder (BQE)": the capitalised words belong to it
            name = start, name[1]
            # "hardens prior scorers, e.g. the well-known Bar--Baz (BB) model": others' work
            if cues.others_before.search(text, m.end(), v[name[0]].idx):
                break
            before = name[0] - 1
            while before > i and v[before].lower_ in ("a", "an", "the"):
                before -= 1
            if v[before].lower_ in cues.not_after_subject and v[before].lower_ not in ("and", "or"):
                continue  # "an algorithm for the Foo--Bar (FB) model": what the new thing works on
            after = _past_short_form(v, name[1])
            if after < len(v) and (v[after].lower_ in lex.task_heads or v[after].lower_ in lex.task_cues):
                continue  # "the Incremental FooNet (IFN) task": the name of a task
            if name not in known and name not in tasks and v[name[0]].text[:1].isupper():
                return [(name, _label(v, text, m.end(), name, cues))]
    return []


def _result_subjects(v: list[Tok], idxs: tuple[int, ...], text: str, lower: str | None, lex: Lexicon,
                     cues: ProposalCues, pairs: dict[int, Name], known: set[Name],
                     tasks: set[Name]) -> list[tuple[Name, str]]:
    """ "Experiment results show that PQN contributes to better diversity",
    "Pebble Mind Transformers outperform the state of the art": in an
    abstract where no cue found a proposal, a name the gazetteer does not know
    that opens a sentence (or follows "show that") and does better than others
    is the paper's own."""
    if lower is not None and not any(cues.result_verb.match(text, i)
                                     for i in head_starts(lower, cues.heads["result_verb"])):
        return []  # no verb of a result: most texts, and each sentence would be visited for nothing
    out = []
    for m in cues.result_subject.finditer(text):
        i = _token_at(v, idxs, m.end())
        if i is None:
            continue
        name = _name_at(v, i, lex, pairs, relaxed=True)
        if name is None or name in known or name in tasks or v[name[0]].lower_ in STOP_WORDS:
            continue
        k = _past_short_form(v, name[1])
        while k < len(v) and v[k].lower_ in cues.result_adverbs:
            k += 1
        if k < len(v) and cues.result_verb.match(text, idxs[k]):
            out.append((name, _label(v, text, m.end(), name, cues)))
    return out


def _size_shape(word: str) -> str:
    """ "8B/70B-Judge" -> "#/#-judge": a name with its sizes and versions left out."""
    return _SIZE.sub("#", word).lower()


def _sized_variants(v: list[Tok], texts: tuple[str, ...], kept: list[tuple[Name, str]],
                    lex: Lexicon) -> list[tuple[Name, str]]:
    """ "our 8B/405B-Judge ... and 8B/70B-Judge", "FooLM-7B and FooLM-13B":
    a one-word name with a size or version in it that differs from a
    proposal's only by its numbers names a variant of it, the paper's own too."""
    shapes = {_size_shape(texts[a]): label for (a, b), label in kept if b - a == 1 and _SIZE.search(texts[a])}
    if not shapes:
        return []
    at = {name for name, _ in kept}
    out = []
    for k, word in enumerate(texts):
        if (k, k + 1) in at or not _SIZE.search(word) or not is_name_like(v[k], lex):
            continue
        label = shapes.get(_size_shape(word))
        if label is not None and word not in (texts[a] for a, _ in at):
            out.append(((k, k + 1), label))
    return out


def _initials(words: tuple[str, ...]) -> set[str]:
    """ "Deep Quill Term Weighting" -> {"DQTW", "DeepQTW", "DQT", "DeepQT", ...}:
    the short forms a name of capitalised words may be written as without a
    definition, its first word whole or as a letter, its last words left out
    (a head word: "Weighting") down to three words."""
    caps = [w for w in words if w[:1].isupper()]
    if len(caps) < 2 or len(caps) != len(words):
        return set()
    out = set()
    for n in range(min(3, len(caps)), len(caps) + 1):
        rest = "".join(w[0] for w in caps[1:n])
        out |= {caps[0][0] + rest, caps[0] + rest}
    return out


def _initials_used(v: list[Tok], texts: tuple[str, ...], kept: list[tuple[Name, str]],
                   lex: Lexicon, defined: set[str]) -> list[tuple[Name, str]]:
    """ "This paper proposes a Deep Quill Term Weighting framework ... DeepQT-Index
    produces ...", "FooBP (Foo Bar Pooling) ... FooBP-Lite": a name-like word
    that begins with a proposal's initials before a hyphen names a variant of
    it, the paper's own too; not a short form, defined (`defined`) or set
    right after the proposal ("Rank-1 Foo Bar; RFB-1" names the proposal)."""
    forms = {}
    for (a, b), label in kept:
        for form in _initials(texts[a:b]):
            forms.setdefault(form, label)
    if not forms:
        return []
    at = {name for name, _ in kept}
    out = []
    for k, word in enumerate(texts):
        head = word.split("-", 1)[0]
        # The initials alone would be a second entity for the proposal's own alias: only variants count.
        if (k, k + 1) not in at and head != word and head in forms and len(head) >= 3 and word not in defined \
                and is_name_like(v[k], lex) and not any(b <= k <= b + 2 and all(t.is_punct for t in v[b:k])
                                                        for (_, b), _ in kept):
            out.append(((k, k + 1), forms[head]))
    return out


def _repeated(texts: tuple[str, ...], kept: list[tuple[Name, str]]) -> list[tuple[Name, str]]:
    """ "... called Titans. Titans beat Transformers": every other place where
    a proposal's name is written again, word for word, names it too (a name
    with no inner capital, "Titans", is found by no other rule). Not a single
    lower-case word ("it", "ours")."""
    out = []
    at = {name for name, _ in kept}
    for (start, end), label in kept:
        words = texts[start:end]
        if end - start == 1 and words[0].islower() or any(a <= start and end <= b and b - a > end - start
                                                           for a, b in at):
            continue  # a lower-case word, or part of a longer proposal ("MDPs" in "delayed MDPs")
        for k in positions(texts, (words[0],)):
            if k != start and texts[k:k + len(words)] == words and (k, k + len(words)) not in at:
                at.add((k, k + len(words)))
                out.append(((k, k + len(words)), label))
    return out
