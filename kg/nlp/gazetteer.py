"""Gazetteers: well-known names of datasets, metrics, tasks and methods,
and the spaCy component that marks them in a Doc.

Each file is JSON Lines, one entry a line: {"name": ..., "aliases": [...],
"type": ..., "exactMatch": IRI or [IRIs], "case": "sensitive"}. The package
ships one file per type in kg/resources/gazetteers; users add their own with
--gazetteer FILE (each entry then needs "type", unless the file is named
datasets/metrics/tasks/methods.jsonl).

Matching: a form with a capital or a digit ("BERT", "ImageNet") matches as
written, since folding case would make words of "GLUE" or "Replica"; an
all-lower-case form ("semantic segmentation") matches in any case; so do a
multi-word form and a CamelCase name of seven letters or more ("Imagenet"). A plural "s" is accepted.
Names that extend a known one at a hyphen or a digit ("Llama-3-8B-Instruct",
"CIFAR-10-LT", "MATH500", "Split-CIFAR100") are variants of the same type.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Iterable

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc

from kg.nlp.candidates import Candidate, candidates
from kg.nlp.lexicon import lexicon
from kg.nlp.tokens import positions, view_columns
from kg.nlp.word_sets import WordSet

FILE_TYPES = {"datasets": "Dataset", "metrics": "Metric", "tasks": "Task", "methods": "Method"}


@dataclass
class Entry:
    name: str
    type: str
    aliases: list[str] = field(default_factory=list)
    exact_match: list[str] = field(default_factory=list)
    case_sensitive: bool = False

    @property
    def forms(self) -> list[str]:
        return [self.name, *self.aliases]


class GazetteerError(ValueError):
    pass


def _parse(lines: Iterable[str], source: str, default_type: str | None) -> list[Entry]:
    out = []
    for n, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise GazetteerError(f"{source}:{n}: malformed JSON: {err.msg}") from None
        if not isinstance(row, dict) or not isinstance(row.get("name"), str) or not row["name"].strip():
            raise GazetteerError(f"{source}:{n}: each entry needs a non-empty string 'name'")
        etype = row.get("type", default_type)
        if etype not in FILE_TYPES.values():
            raise GazetteerError(f"{source}:{n}: 'type' must be one of {', '.join(FILE_TYPES.values())}")
        aliases = row.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise GazetteerError(f"{source}:{n}: 'aliases' must be a list of strings")
        em = row.get("exactMatch", [])
        em = [em] if isinstance(em, str) else list(em)
        case = row.get("case", "auto")
        if case not in ("auto", "sensitive"):
            raise GazetteerError(f"{source}:{n}: 'case' must be \"auto\" or \"sensitive\"")
        out.append(Entry(row["name"].strip(), etype, [a.strip() for a in aliases if a.strip()], em, case == "sensitive"))
    return out


def load_builtin() -> list[Entry]:
    entries: list[Entry] = []
    root = resources.files("kg.resources") / "gazetteers"
    for stem, etype in FILE_TYPES.items():
        res = root / f"{stem}.jsonl"
        if res.is_file():
            entries += _parse(res.read_text(encoding="utf-8").splitlines(), f"kg/resources/gazetteers/{stem}.jsonl", etype)
    return entries


def load_file(path: str | Path) -> list[Entry]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GazetteerError(f"{path}: no such gazetteer file") from None
    except UnicodeDecodeError:
        raise GazetteerError(f"{path}: gazetteer is not UTF-8 text") from None
    stem_type = FILE_TYPES.get(path.stem)
    return _parse(text.splitlines(), str(path), stem_type)


def load(extra: Iterable[str | Path] = ()) -> list[Entry]:
    entries = load_builtin()
    for p in extra:
        entries += load_file(p)
    return entries


# -- the component -------------------------------------------------------------
_VARIANT_SPLIT = re.compile(r"-")
# "transformer-based" is not a variant of Transformer.
_ADJECTIVE_TAILS = frozenset({"based", "like", "style", "level", "wise", "aware", "free", "specific", "driven",
                              "guided", "generated", "related", "oriented", "centric", "only", "scale", "size",
                              "sized", "type", "powered", "friendly", "agnostic", "inspired", "compatible",
                              "equivalent", "conditioned", "dependent", "tuned", "trained", "encoded", "derived"})
_TRAILING_DIGITS = re.compile(r"^([A-Za-z][A-Za-z]+?)(\d+)$")
_MAX_VARIANTS = 100_000


def _plural(form: str) -> str | None:
    last = form[-1:]
    return form + "s" if last.isalpha() and not form.endswith("s") else None


class GazetteerMatcher:
    """Marks every gazetteer name or alias as a candidate of the entry's type."""

    def __init__(self, nlp: Language, entries: list[Entry]):
        self.exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.lower = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.entries = entries
        self.by_form: dict[str, int] = {}  # exact form -> entry index, for variants
        words = lexicon().name_stop_words
        self._variants: dict[str, int | None] = {}  # word -> _variant(word)
        for i, e in enumerate(entries):
            key = str(i)
            exact_patterns, lower_patterns = [], []
            for form in e.forms:
                self.by_form.setdefault(form, i)
                # A task is an activity: "recommendations" or "translations" are its outputs, not the task.
                plural = _plural(form) if e.type != "Task" else None
                variants = [form] + ([plural] if plural else [])
                cased = e.case_sensitive or any(c.isupper() or c.isdigit() for c in form)
                # A long CamelCase name ("ImageNet") is no English word in any case ("MuTual" would be,
                # and so would "LargeST").
                camel = len(form) >= 7 and any(c.islower() for c in form) and any(c.isupper() for c in form[1:]) \
                    and form.lower() not in words
                for v in variants:
                    pattern = nlp.make_doc(v)  # both matchers take the Doc, each reading its own attribute
                    exact_patterns.append(pattern)
                    if not e.case_sensitive and (not cased or " " in v or camel):
                        lower_patterns.append(pattern)
            if exact_patterns:
                self.exact.add(key, exact_patterns)
            if lower_patterns:
                self.lower.add(key, lower_patterns)

    def _variant(self, text: str) -> int | None:
        """The entry a hyphenated or numbered name extends, if any."""
        parts = _VARIANT_SPLIT.split(text)
        if parts[-1].lower() in _ADJECTIVE_TAILS:
            return None
        if len(parts) > 1:
            for k in range(len(parts) - 1, 0, -1):  # longest known prefix first
                hit = self.by_form.get("-".join(parts[:k]))
                if hit is not None and len("-".join(parts[:k])) >= 2:
                    return hit
            for k in range(1, len(parts)):  # then a known suffix: "Split-CIFAR100"
                tail = "-".join(parts[k:])
                hit = self.by_form.get(tail)
                if hit is not None and len(tail) >= 4 and any(c.isdigit() or c.isupper() for c in tail):
                    return hit
        m = _TRAILING_DIGITS.match(text)
        if m and m.group(1).isupper() and len(m.group(1)) >= 3:
            return self.by_form.get(m.group(1))
        return None

    def __call__(self, doc: Doc) -> Doc:
        found = candidates(doc)
        seen = set()
        for matcher in (self.exact, self.lower):
            for mid, start, end in matcher(doc):
                i = int(doc.vocab.strings[mid])
                if (start, end, i) in seen:
                    continue
                seen.add((start, end, i))
                e = self.entries[i]
                found.append(Candidate(start, end, e.type, "gazetteer", canonical=e.name,
                                       exact_match=list(e.exact_match)))
        matched = {s for s, _, _ in seen}
        texts = view_columns(doc).texts
        # The few words that are variants are found first; only their tokens are visited.
        variants = {w for w in _SHAPED.among(texts) if self._variant_of(w) is not None}
        for k in positions(texts, variants):
            if k in matched:
                continue
            e = self.entries[self._variant_of(texts[k])]
            found.append(Candidate(k, k + 1, e.type, "variant", canonical=None))
        return doc

    def _variant_of(self, text: str) -> int | None:
        """_variant(text), remembered per word: the same names recur in every abstract."""
        try:
            return self._variants[text]
        except KeyError:
            pass
        if len(self._variants) >= _MAX_VARIANTS:
            self._variants.clear()  # a bound on memory for endless streams
        i = self._variants[text] = self._variant(text)
        return i


# Only words of four characters or more with a hyphen or a final digit can be variants.
_SHAPED = WordSet(lambda t: len(t) >= 4 and ("-" in t or t[-1].isdigit()))


@Language.factory("kg_gazetteer", default_config={"extra": []})
def make_gazetteer(nlp: Language, name: str, extra: list[str]) -> GazetteerMatcher:
    return GazetteerMatcher(nlp, load(extra))
