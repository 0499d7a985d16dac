"""Only text we wrote goes into the project: no file of it shares a run of
six words with an abstract of the team's corpora (../shared), so that test
sentences, comments, docs and rule files illustrate their rules with our own
examples, not with phrases lifted from the papers we develop against.

Facts may be shared (dataset, metric and method names); a six-word run is
longer than any such name. The phrases in _COMMON are how the field (and
the record spec) names a baseline in its own words, and stay allowed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT, shared_file

RUN = 6
_ABSTRACTS = ("corpus/seed-abstracts.jsonl", "gold/train.input.jsonl", "gold/dev.input.jsonl",
              "bench/scirex/dev.input.jsonl")
_COMMON = ("the previous state of the art", "the current state of the art", "a new state of the art")
_PROJECT_PARTS = ("kg", "tests", "docs", "benchmarks", "schemas", ".ci", "README.md", "pyproject.toml")
_TEXT_SUFFIXES = {".py", ".md", ".json", ".jsonl", ".txt", ".rq", ".ttl", ".toml", ".html", ".js", ".css", ""}


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9][\w\-]*", text.lower())


def _runs(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}


@pytest.fixture(scope="module")
def abstract_runs() -> set[tuple[str, ...]]:
    runs: set[tuple[str, ...]] = set()
    for rel in _ABSTRACTS:
        with open(shared_file(rel), encoding="utf-8") as fh:
            for line in fh:
                record = json.loads(line)
                runs |= _runs(_words(" ".join(str(record.get(k, "")) for k in ("title", "abstract"))))
    return runs - {tuple(_words(phrase)) for phrase in _COMMON}


def _project_files() -> list[Path]:
    files = []
    for part in _PROJECT_PARTS:
        path = ROOT / part
        found = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        files += [p for p in found if p.suffix in _TEXT_SUFFIXES and "__pycache__" not in p.parts]
    return files


def test_the_checker_finds_a_run_of_six_words():
    runs = _runs(_words("We train FooNet on ten tasks and report gains."))
    assert ("train", "foonet", "on", "ten", "tasks", "and") in runs
    assert not _runs(_words("five words are not enough"))


def test_no_project_file_shares_six_words_in_a_row_with_an_abstract(abstract_runs):
    hits = []
    for path in _project_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            # In JSON each string is a text of its own: a gazetteer's names side by side are no phrase.
            pieces = re.findall(r'"((?:[^"\\]|\\.)*)"', line) if path.suffix in (".json", ".jsonl") else [line]
            shared = sorted(set().union(*(_runs(_words(piece)) for piece in pieces)) & abstract_runs)
            if shared:
                hits.append(f"{path.relative_to(ROOT)}:{number}: {' '.join(shared[0])}")
    assert not hits, "text taken from the corpus; write our own example:\n" + "\n".join(hits)
