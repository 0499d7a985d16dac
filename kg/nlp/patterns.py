"""Patterns that find names no gazetteer holds.

- a noun phrase that ends in a task word ("motor imagery classification"),
  a metric word ("decoding accuracy") or a method word ("triplet loss",
  "graph neural networks"), its modifiers being content words of the same
  sentence (no determiners, verbs, generic adjectives: see lexicon.json);
- a Title Case phrase that ends in a method word ("Nearest Mean Classifier");
- "the X dataset", "on X, Y and Z benchmarks": Dataset;
- a CamelCase, acronym or alphanumeric name ("FairOPT", "TimeDRL", "R2D2"),
  as a Method unless a dataset word follows it.
Every rule adds candidates (kg.nlp.candidates); overlaps are settled later.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from spacy.language import Language
from spacy.tokens import Doc, Token

from kg.nlp.candidates import Candidate, candidates
from kg.nlp.lexicon import Lexicon, lexicon
from kg.nlp.tokens import Tok, doc_text, positions, token_view, view_columns, view_text
from kg.nlp.word_sets import WordSet

_MAX_MODIFIERS = 4
_CONJ = frozenset({",", "and", "or", "&", "/"})
_DATASET_NAME_SUFFIX = re.compile(r"(?:Bench|bench|BENCH|QA|Eval|EVAL|Set|Corpus|Suite|-\d+[KkMm])$")
_NUMBER = re.compile(r"^[+\-]?\d[\d,.]*%?$")
# A number with its unit ("2.24x", "3times") or a multiplier word: the value a name is measured by, never part of it.
_QUANTITY = re.compile(r"^[+\-]?\d[\d,.]*(?:x|×|times|fold|-fold|pp|points?)$|^(?:times|fold|×)$", re.I)
_NOT_IN_NAMES = re.compile(r"[{}()\\_'’$=<>|]|\+\d")
_ROMAN = re.compile(r"^(?:I|II|III|IV|V|VI|VII|VIII|IX|X)$")
_UNIT = re.compile(r"^\d+(?:\.\d+)?(?:[KMBT]|GB|MB|ms|s|x|×|B|k|h|M)$")
_ALLOWED_PARTICIPLES = frozenset({"supervised", "unsupervised", "self-supervised", "semi-supervised",
                                  "weakly-supervised", "weakly", "grained", "fine-grained", "coarse-grained",
                                  "connected", "distributed", "federated", "embedded", "structured",
                                  "unstructured", "augmented", "conditioned", "guided", "informed", "based",
                                  "constrained", "labeled", "labelled", "unlabeled", "unlabelled", "aligned",
                                  "masked", "quantized", "pretrained", "pre-trained", "retrieval-augmented",
                                  "gated", "mixed", "learned"})
_ALLOWED_GERUNDS = frozenset({"learning", "processing", "modeling", "modelling", "reasoning", "understanding",
                              "answering", "parsing", "tagging", "labeling", "clustering", "matching", "ranking",
                              "embedding", "computing", "tracking", "forecasting", "training", "writing",
                              "reading", "spelling", "speaking", "driving", "sensing", "imaging", "mining",
                              "retrieval", "routing", "coding", "streaming", "editing", "encoding", "decoding",
                              "planning", "filling", "spotting", "counting", "captioning", "denoising",
                              "inpainting", "recommending", "sampling", "scaling", "caching", "pruning",
                              "prompting", "voting", "pooling", "boosting", "hashing", "fine-tuning",
                              "pre-training", "pretraining", "tuning", "smoothing", "splatting", "testing",
                              "matting", "rendering", "grounding", "bidding", "pricing", "trading"})


def is_name_like(tok: Token | Tok, lex: Lexicon | None = None) -> bool:
    """A token shaped like a name: CamelCase, acronym, or letters with digits
    and a capital ("FairOPT", "TEAL", "GPT-4o", "Kestrel-7"); not a number, a
    unit, a generic acronym ("GPU", "AI") or a function word."""
    return _name_like_text(tok.text)


_PAIR_SPLIT = re.compile(r"-to-|→|->|-|–")


def _is_language_pair(text: str, lex: Lexicon) -> bool:
    """ "English-to-German", "En-De", "Zh→En": a translation direction, not a name."""
    parts = _PAIR_SPLIT.split(text)
    return len(parts) == 2 and all(p.capitalize() in lex.languages or p.lower() in lex.languages for p in parts)


@lru_cache(maxsize=65536)
def _name_like_text(text: str) -> bool:
    lex = lexicon()
    if len(text) < 2 or text in lex.not_names or _NUMBER.match(text) or _UNIT.match(text) or _ROMAN.match(text):
        return False
    if not text[0].isalnum() or not any(c.isalpha() for c in text) or _NOT_IN_NAMES.search(text):
        return False
    if text.lower() in lex.name_stop_words:
        return False
    if _is_language_pair(text, lex):
        return False
    if "-" in text:
        parts = text.split("-")
        # "transformer-based", "RNN-like": an adjective, not a name.
        if parts[-1].lower() in lex.adjective_suffixes:
            return False
        # "Yule-Walker", "Head-Count": capitalised words joined, no digits or inner capitals.
        if all(p[:1].isupper() and p[1:].islower() for p in parts if p):
            return False
        # "L2-regularized-target-loss": a compound of lower-case words.
        if len(parts) >= 3 and all(p.islower() for p in parts[1:]):
            return False
    inner_caps = sum(c.isupper() for c in text[1:])
    if inner_caps >= 1 and (text[0].isupper() or text[0].isdigit()):
        return True
    # "Kestrel-7", "Gemma2": a capitalised word with a number in it.
    if text[0].isupper() and any(c.isdigit() for c in text):
        return True
    # "wav2vec"-style lower-case names are left to the gazetteer.
    return False


def _word_ok(tok: Tok, lex: Lexicon, head_lower: bool) -> bool:
    """Can `tok` be a modifier inside a task, metric or method name?"""
    ok = _modifier_word(tok.text, tok.is_space, tok.is_punct, head_lower)
    return tok.is_sent_start if ok is None else ok


# Whether a word can be a modifier belongs to the word (judged once, like
# _name_like_text), but for a capitalised word's place: a sentence's first word.
@lru_cache(maxsize=65536)
def _modifier_word(text: str, is_space: bool, is_punct: bool, head_lower: bool) -> bool | None:
    """_word_ok for the word `text`; None: only as the first word of a sentence."""
    lex = lexicon()
    low = text.lower()
    if is_space or is_punct or low in lex.name_stop_words or low in lex.eval_verbs:
        return False
    if _NUMBER.match(text) or _QUANTITY.match(text):
        return False
    if not any(c.isalpha() for c in text):
        return False
    if low.endswith("ly") and "-" not in low:
        return False
    if low.endswith("ing") and "-" not in low and low not in _ALLOWED_GERUNDS and low not in lex.task_heads:
        return False
    if low.endswith("ed") and "-" not in low and low not in _ALLOWED_PARTICIPLES:
        return False
    if head_lower and any(c.isupper() for c in text):
        # A capitalised word inside a lower-case name: only a generic acronym
        # ("3D", "EEG", "AI-generated") or the sentence's first word.
        if text in lex.not_names:
            return True
        if "-" in text and text.split("-", 1)[1].islower():
            return True
        return None
    return True


def _modifiers(doc: Doc, v: list[Tok], head: int, lex: Lexicon, head_lower: bool, limit: int = _MAX_MODIFIERS) -> int:
    """Start index of the run of modifier words ending just before `head`."""
    sent_start = v[head].sent_start
    j = head
    while j - 1 >= sent_start and head - (j - 1) <= limit and _word_ok(v[j - 1], lex, head_lower):
        j -= 1
    return j


def _task_candidates(doc: Doc, v: list[Tok], lex: Lexicon, heads: list[int]) -> list[Candidate]:
    out: list[Candidate] = []
    bare: list[Candidate] = []
    for i in heads:
        tok = v[i]
        low = tok.lower_
        if tok.text[:1].isupper() and not tok.is_sent_start:
            continue  # a Title Case name ("Neural Architecture Search") is a method's, not a task's
        start = _modifiers(doc, v, tok.i, lex, True)
        if not _task_context(doc, v, start, tok.i, lex):
            continue
        nxt = v[tok.i + 1] if tok.i + 1 < len(v) else None
        if start == tok.i:
            if low in lex.task_heads_need_modifier or low in ("learning",):
                continue
            cand = Candidate(tok.i, tok.i + 1, "Task", "head")
            if nxt is not None and nxt.lower_ in lex.task_cues:
                out.append(cand)
            else:
                bare.append(cand)
            continue
        # "learning" after a method word names a method family, not a task.
        text = view_text(v, doc_text(doc), start, tok.i + 1).lower()
        if text in lex.generic_terms:
            continue
        out.append(Candidate(start, tok.i + 1, "Task", "head"))
    # A bare task word counts beside another task in a list:
    # "image classification, detection and segmentation".
    changed = True
    while changed and bare:
        changed = False
        ends = {c.end for c in out}
        starts = {c.start for c in out}
        for c in list(bare):
            left = c.start - 1
            while left >= 0 and v[left].text in _CONJ:
                left -= 1
            right = c.end
            while right < len(v) and v[right].text in _CONJ:
                right += 1
            if (left + 1 < c.start and left + 1 in ends) or (right > c.end and right in starts):
                out.append(c)
                bare.remove(c)
                changed = True
    return out


def _task_context(doc: Doc, v: list[Tok], start: int, head: int, lex: Lexicon) -> bool:
    """Is a task phrase at doc[start:head+1] where tasks are named: after
    "for", "on", "address", a comma in a list..., at the start of a sentence,
    or before "task", "problem" or an abbreviation in brackets?"""
    if v[start].is_sent_start:
        return True
    prev = v[start - 1]
    if prev.lower_ in lex.task_context_before:
        return True
    nxt = v[head + 1] if head + 1 < len(v) else None
    return nxt is not None and (nxt.lower_ in lex.task_cues or nxt.text == "(" or nxt.lower_ in _TOOL_NOUNS)


def _narrowed_tasks(doc: Doc, v: list[Tok], lex: Lexicon, found: list[Candidate]) -> list[Candidate]:
    """ "for graph representation learning": a known task narrowed by the words
    before it is the task the text names; the known name alone would miss it."""
    out = []
    for c in found:
        if c.label != "Task" or c.source != "gazetteer" or not v[c.start].text.islower():
            continue
        start = _modifiers(doc, v, c.start, lex, True)
        if start < c.start and _task_context(doc, v, start, c.end - 1, lex):
            out.append(Candidate(start, c.end, "Task", "head"))
    return out


# "a semantic data annotation system": a task named by what serves it.
_TOOL_NOUNS = frozenset({"system", "systems", "method", "methods", "framework", "frameworks", "approach",
                         "approaches", "model", "models", "pipeline", "technique", "techniques", "algorithm",
                         "algorithms", "tool", "tools"})
_GERUND_CONTEXT = frozenset({"for"})


def _gerund_candidates(doc: Doc, v: list[Tok], lex: Lexicon, contexts: list[int]) -> list[Candidate]:
    """ "for estimating passage quality": a task said with a verb in -ing
    after "for", and up to four content words after it."""
    out = []
    texts = view_columns(doc).texts
    # A gerund counts only right after "for" (`contexts`), a rarer word than the words in -ing: start from it.
    for k in contexts:
        if k + 1 >= len(v) or not _is_gerund(texts[k + 1]):
            continue
        tok = v[k + 1]
        low = tok.lower_
        if low in lex.name_stop_words or low in lex.eval_verbs:
            continue
        if low in lex.task_heads or low in _ALLOWED_GERUNDS:
            continue  # a noun in -ing ("learning"), handled as a head
        j = tok.i + 1
        end = tok.sent_end
        while j < end and j - tok.i <= 4 and _word_ok(v[j], lex, True):
            j += 1
        if j - tok.i >= 2 and (j >= end or v[j].is_punct or v[j].lower_ in _PHRASE_END):
            out.append(Candidate(tok.i, j, "Task", "head"))
    return out


def _is_gerund(text: str) -> bool:
    """A lower-case word in -ing, letters only ("estimating")."""
    return text.endswith("ing") and text.isalpha() and text.islower()


_PHRASE_END = frozenset({"and", "or", "with", "by", "using", "via", "from", "in", "on", "at", "without",
                         "while", "which", "that", "through"})


# "model accuracy" says whose score, not which: the metric is "accuracy".
_GENERIC_OWNERS = frozenset({"model", "models", "network", "networks", "method", "methods", "system", "systems",
                             "baseline", "baselines", "overall", "average", "final"})
_SCORE_HEADS = frozenset({"score", "scores"})
_METRIC_SKIP_HEADS = frozenset({"time", "size", "cost", "usage", "consumption", "loss", "return", "reward", "gap",
                                "efficiency", "fidelity", "agreement", "similarity", "likelihood"})


def _metric_candidates(doc: Doc, v: list[Tok], lex: Lexicon, heads: list[int]) -> list[Candidate]:
    out = []
    for i in heads:
        tok = v[i]
        low = tok.lower_
        if low in _METRIC_SKIP_HEADS or not tok.text.islower():
            continue
        if low in _SCORE_HEADS:
            # "VBench score", "CLIP score": a named measure, not "confidence score".
            if tok.i > 0 and is_name_like(v[tok.i - 1], lex) or (tok.i > 0 and v[tok.i - 1].text.isupper()):
                out.append(Candidate(tok.i - 1, tok.i + 1, "Metric", "head"))
            continue
        start = _modifiers(doc, v, tok.i, lex, True, limit=2)
        if start == tok.i and low in lex.metric_heads_need_modifier:
            continue
        text = view_text(v, doc_text(doc), start, tok.i + 1).lower()
        if text in lex.generic_terms or any(v[k].lower_ in _GENERIC_OWNERS for k in range(start, tok.i)):
            continue
        out.append(Candidate(start, tok.i + 1, "Metric", "head"))
    return out


def _is_title(tok: Tok, lex: Lexicon) -> bool:
    t = tok.text
    return (t[:1].isupper() and any(c.isalpha() for c in t) and t not in lex.not_names
            and t.lower() not in lex.name_stop_words) or t.lower() in ("of", "for", "and", "with")


def _method_candidates(doc: Doc, v: list[Tok], lex: Lexicon, heads: list[int]) -> list[Candidate]:
    out = []
    for i in heads:
        tok = v[i]
        low = tok.lower_
        # Title Case: "Nearest Mean Classifier", "Unified Factorized Framework".
        if tok.text[:1].isupper() and not tok.is_sent_start:
            j = tok.i
            sent_start = tok.sent_start
            while j - 1 >= sent_start and tok.i - (j - 1) <= 5 and _is_title(v[j - 1], lex):
                j -= 1
            while j < tok.i and v[j].lower_ in ("of", "for", "and", "with"):
                j += 1
            if tok.i - j >= 1 and v[j].text not in lex.not_names:
                out.append(Candidate(j, tok.i + 1, "Method", "head"))
            continue
        if not tok.text.islower():
            continue
        # "Kuramoto model", "Ising model": a proper name and a method word.
        prev = v[tok.i - 1] if tok.i > tok.sent_start else None
        if prev is not None and not prev.is_sent_start and prev.text[:1].isupper() and prev.text.isalpha() \
                and prev.text not in lex.not_names and prev.lower_ not in lex.name_stop_words \
                and low in ("model", "models", "algorithm", "network", "networks", "process", "processes"):
            out.append(Candidate(tok.i - 1, tok.i + 1, "Method", "head"))
            continue
        if low not in lex.method_heads_lowercase:
            continue
        start = _modifiers(doc, v, tok.i, lex, True, limit=3)
        if start == tok.i:
            continue
        mods = [v[k].lower_ for k in range(start, tok.i)]
        if any(m in lex.task_heads or m in lex.metric_heads for m in mods):
            continue
        text = view_text(v, doc_text(doc), start, tok.i + 1).lower()
        if text in lex.generic_terms:
            continue
        out.append(Candidate(start, tok.i + 1, "Method", "head"))
    return out


def _dataset_cue_candidates(doc: Doc, v: list[Tok], lex: Lexicon, cues: list[int]) -> list[Candidate]:
    """Names before "dataset(s)", "benchmark(s)", "corpus": "the VoxCeleb
    dataset", "on CIFAR-10 and SVHN benchmarks"."""
    out = []
    for i in cues:
        tok = v[i]
        k = tok.i - 1
        sent_start = tok.sent_start
        while k >= sent_start:
            end = k + 1
            while k >= sent_start and end - k <= 4 and _dataset_word(v[k], v, lex):
                k -= 1
            if k + 1 < end:
                out.append(Candidate(k + 1, end, "Dataset", "cue"))
            else:
                break
            if k >= sent_start and v[k].text in _CONJ:
                while k >= sent_start and v[k].text in _CONJ:
                    k -= 1
                continue
            break
    return out


def _dataset_word(tok: Tok, v: list[Tok], lex: Lexicon) -> bool:
    t = tok.text
    if is_name_like(tok, lex):
        return True
    if t in lex.not_names or t.lower() in lex.name_stop_words:
        return False
    if t[:1].isupper() and not tok.is_sent_start and t.isalpha():
        return True
    return bool(re.match(r"^v?\d+(?:\.\d+)*$", t)) and tok.i > 0 and _dataset_word_prev(tok, v, lex)


def _dataset_word_prev(tok: Tok, v: list[Tok], lex: Lexicon) -> bool:
    prev = v[tok.i - 1]
    return prev.text[:1].isupper() and prev.text not in lex.not_names


_NAME_WORDS = WordSet(_name_like_text)  # the name-like words, each judged once


def _name_candidates(doc: Doc, v: list[Tok], lex: Lexicon) -> list[Candidate]:
    out = []
    texts = view_columns(doc).texts
    for i in positions(texts, _NAME_WORDS.among(texts)):
        tok = v[i]
        nxt = v[tok.i + 1] if tok.i + 1 < len(v) else None
        label = "Method"
        if _DATASET_NAME_SUFFIX.search(tok.text) or (nxt is not None and nxt.lower_ in lex.dataset_cues_after):
            label = "Dataset"
        out.append(Candidate(tok.i, tok.i + 1, label, "name"))
    return out


def _coordinated_types(doc: Doc, v: list[Tok], found: list[Candidate]) -> None:
    """A name in a list with known datasets is a dataset too: "on CIFAR-10,
    SVHN and Foo-7" (same for methods)."""
    known = {}
    for c in found:
        if c.source in ("gazetteer", "variant", "cue") and c.label in ("Dataset", "Method"):
            known[c.start] = c.label
            known[c.end - 1] = c.label
    by_start = {c.start: c for c in found if c.source == "name" and c.end - c.start == 1}
    for start, c in by_start.items():
        for step in (-1, 1):
            k = start + step
            if not (0 <= k < len(v)) or v[k].text not in _CONJ:
                continue
            while 0 <= k < len(v) and v[k].text in _CONJ:
                k += step
            if k in known:
                c.label = known[k]
                break


def _listed_datasets(v: list[Tok], found: list[Candidate], lex: Lexicon) -> list[Candidate]:
    """ "on Caltech, INRIA and ETH": a capitalised word listed between known
    datasets is one too, though alone it would be too common a word to call a name."""
    known = sorted((c.start, c.end) for c in found if c.label == "Dataset" and c.source in ("gazetteer", "variant", "cue"))
    if len(known) < 2:
        return []
    taken = {i for c in found for i in range(c.start, c.end)}
    ends = {e for _, e in known}
    starts = {s for s, _ in known}
    out = []
    for i in _beside_separators(v, starts, ends):
        tok = v[i]
        if i in taken or tok.is_sent_start or not tok.text[:1].isupper() or tok.text in lex.not_names \
                or tok.lower_ in lex.name_stop_words or not tok.is_alpha:
            continue
        left = i - 1
        while left >= 0 and v[left].text in _CONJ:
            left -= 1
        right = i + 1
        while right < len(v) and v[right].text in _CONJ:
            right += 1
        # Listed: a known dataset on one side with a list separator between them.
        if (left < i - 1 and left + 1 in ends) or (right > i + 1 and right in starts):
            if i in ends:
                continue  # right after a known name, with no separator: part of it
            start = i
            # "Open Assistant": capitalised words before it belong to the same item.
            while start - 1 >= 0 and start - 1 not in taken and _capital_word(v[start - 1], lex):
                start -= 1
            prev = v[start - 1] if start > 0 else None
            if prev is not None and start - 1 not in taken and not prev.is_sent_start \
                    and prev.text[:1].isupper() and prev.is_alpha:
                continue  # "... Deep Learning Track": the end of a longer name we cannot delimit
            out.append(Candidate(start, i + 1, "Dataset", "name"))
    return out


def _beside_separators(v: list[Tok], starts: set[int], ends: set[int]) -> list[int]:
    """The tokens a list separator parts from a known name: past the separators
    after one of `ends`, or before those before one of `starts`; ascending.
    Only these can be listed with it, so no other token need be looked at."""
    at = set()
    for e in ends:
        k = e
        while k < len(v) and v[k].text in _CONJ:
            k += 1
        if e < k < len(v):
            at.add(k)
    for s in starts:
        k = s - 1
        while k >= 0 and v[k].text in _CONJ:
            k -= 1
        if 0 <= k < s - 1:
            at.add(k)
    return sorted(at)


def _capital_word(tok: Tok, lex: Lexicon) -> bool:
    return not tok.is_sent_start and tok.text[:1].isupper() and tok.is_alpha and tok.text not in lex.not_names \
        and tok.lower_ not in lex.name_stop_words


def _joined_list_items(v: list[Tok], found: list[Candidate]) -> list[Candidate]:
    """ "VIPeR, QMUL GRID, CUHK Campus and CUHK03": capitalised names side by
    side inside a list of datasets are one item, not two datasets."""
    single = {c.start for c in found if c.label == "Dataset" and c.end - c.start == 1}
    out = []
    end = -1
    for i in sorted(single):
        if i < end or i - 1 in single and v[i - 1].text[:1].isupper():
            continue  # inside a run already seen
        j = i
        while j in single and v[j].text[:1].isupper():
            j += 1
        end = j
        if j - i >= 2 and (i > 0 and v[i - 1].text in _CONJ or j < len(v) and v[j].text in _CONJ):
            out.append(Candidate(i, j, "Dataset", "name"))
    return out


class _RuleStarts(NamedTuple):
    """Where the rules start: token indices (ascending) of their head or cue words."""

    task: list[int]
    metric: list[int]
    method: list[int]
    dataset_cue: list[int]
    gerund_context: list[int]


@lru_cache(maxsize=1)
def _start_words() -> frozenset[str]:
    lex = lexicon()
    return lex.task_heads | lex.metric_heads | lex.method_heads | lex.dataset_cues_after | _GERUND_CONTEXT


def _rule_starts(lowers: tuple[str, ...], lex: Lexicon) -> _RuleStarts:
    """The start words of all rules are found together, in one scan of the
    words that runs in C; each rule's own are then picked from those few."""
    hits = positions(lowers, _start_words())

    def among(words: frozenset[str]) -> list[int]:
        return [i for i in hits if lowers[i] in words]

    return _RuleStarts(among(lex.task_heads), among(lex.metric_heads), among(lex.method_heads),
                       among(lex.dataset_cues_after), among(_GERUND_CONTEXT))


@Language.component("kg_entity_patterns")
def find_pattern_entities(doc: Doc) -> Doc:
    lex = lexicon()
    v = token_view(doc)
    at = _rule_starts(view_columns(doc).lowers, lex)
    found = candidates(doc)
    found += _task_candidates(doc, v, lex, at.task)
    found += _narrowed_tasks(doc, v, lex, found)
    found += _gerund_candidates(doc, v, lex, at.gerund_context)
    found += _metric_candidates(doc, v, lex, at.metric)
    found += _method_candidates(doc, v, lex, at.method)
    found += _dataset_cue_candidates(doc, v, lex, at.dataset_cue)
    found += _name_candidates(doc, v, lex)
    _coordinated_types(doc, v, found)
    found += _listed_datasets(v, found, lex)
    found += _joined_list_items(v, found)
    return doc
