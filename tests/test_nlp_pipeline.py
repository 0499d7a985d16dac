"""The pipeline's vocab computes only the lexical attributes kg reads
(kg.nlp.pipeline.LEXICAL_ATTRIBUTES): those must read as with spaCy's own
vocab, and no code of kg may read one of the others."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
import spacy
from spacy.attrs import IDS

import kg
from kg.nlp.pipeline import LEXICAL_ATTRIBUTES, make_vocab

WORDS = ["Ten", "twenty", "models", ",", ".", "e.g.", "BERT-base", "81.3%", "3/4", "1,000", "-5", " ", "  ", "\n",
         "ImageNet", "naïve", "(", "—", "’", "x2", "F1", "", "state-of-the-art", "#", "..."]
KEPT = ("lower_", "is_space", "is_punct", "is_alpha", "like_num")

# Every attribute spaCy's English vocab computes that ours does not, by name.
_FULL_GETTERS = spacy.blank("en").vocab.lex_attr_getters
DROPPED = sorted(name for name, attr in IDS.items() if attr in _FULL_GETTERS and attr not in LEXICAL_ATTRIBUTES)


def test_kept_attributes_read_as_with_spacys_vocab() -> None:
    full, ours = spacy.blank("en").vocab, make_vocab()
    for word in WORDS:
        assert [getattr(ours[word], a) for a in KEPT] == [getattr(full[word], a) for a in KEPT], word
    assert ours.lang == "en"


def test_the_pipeline_keeps_the_attributes_kg_reads() -> None:
    from kg.nlp import make_pipeline

    nlp = make_pipeline()
    assert set(nlp.vocab.lex_attr_getters) == LEXICAL_ATTRIBUTES
    assert {"LOWER", "IS_SPACE", "IS_PUNCT", "IS_ALPHA", "LIKE_NUM", "LANG"} == {
        name for name, attr in IDS.items() if attr in LEXICAL_ATTRIBUTES}
    assert "NORM" in DROPPED and "IS_DIGIT" in DROPPED


def _python_files() -> list[Path]:
    """The modules that handle spaCy's tokens: the pipeline and the extraction."""
    root = Path(kg.__file__).parent
    return sorted(p for package in ("nlp", "extract") for p in (root / package).rglob("*.py"))


@pytest.mark.parametrize("path", _python_files(), ids=lambda p: str(p.relative_to(Path(kg.__file__).parent)))
def test_no_code_reads_a_dropped_lexical_attribute(path: Path) -> None:
    """A dropped attribute reads as empty or False, silently: code that needs
    one must add it to LEXICAL_ATTRIBUTES. Property reads (tok.is_digit,
    tok.norm_) and names in strings ("SHAPE" in a Matcher pattern) are found;
    the bare integer properties (tok.norm, tok.shape) are not told apart from
    other objects' attributes (an array's shape) and are not looked for."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    banned_attrs = {n.lower() if n.startswith(("IS_", "LIKE_")) else n.lower() + "_" for n in DROPPED}
    banned_strings = {s for n in DROPPED for s in (n, n.lower())}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in banned_attrs:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Constant) and node.value in banned_strings:
            found.append(f"line {node.lineno}: {node.value!r}")
        elif isinstance(node, ast.ImportFrom) and node.module == "spacy.attrs":
            found += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name in DROPPED]
    assert not found, f"{path.name} reads lexical attributes the vocab does not compute: {found}"


def test_no_resource_names_a_dropped_lexical_attribute() -> None:
    """Patterns in kg/resources name token attributes as keys ({"NORM": ...})."""
    banned = {s for n in DROPPED for s in (n, n.lower())}

    def keys(value) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    for path in (Path(kg.__file__).parent / "resources").rglob("*.json"):
        assert not keys(json.loads(path.read_text(encoding="utf-8"))) & banned, path.name
