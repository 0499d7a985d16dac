"""Shared fixtures. Tests that read ../shared skip where it is absent, so the
suite passes on a clone that has only the project."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def shared_file(rel: str) -> Path:
    """A file under ../shared, or skip the calling test with the reason."""
    path = SHARED / rel
    if not path.exists():
        pytest.skip(f"../shared/{rel} is not here (only present in the team's workplace)")
    return path


@pytest.fixture(scope="module")
def nlp():
    """kg's pipeline up to the settled entities, built once per test module
    (a module that needs another pipeline defines its own `nlp`)."""
    from kg.pipeline import entity_pipeline

    return entity_pipeline()


@pytest.fixture
def shared() -> callable:
    return shared_file


@pytest.fixture(scope="session")
def demo_build(tmp_path_factory) -> Path:
    """The demo corpus built once for all the tests (records, graph, store; no view)."""
    from kg.builder import build, demo_corpus

    out = tmp_path_factory.mktemp("demo-build")
    build([demo_corpus()], out, view=False)
    return out
