"""`import kg` means the installed package from any working folder (issue 18),
also from the folder that holds a clone named `kg`: there `kg/` is the
clone's top folder, which has no __init__.py and so is a namespace package
to Python. setuptools' default editable install puts an import hook after
the path search, so that folder won; the `compat` editable mode puts the
project folder on sys.path, where a regular package beats a namespace one.
README and .ci/run install that way."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIX = "pip install -e '.[test]' --config-settings editable_mode=compat"


def test_import_kg_from_the_folder_that_holds_a_clone_named_kg(tmp_path):
    try:
        importlib.metadata.distribution("kg-abstracts")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("kg is not installed in this interpreter (run through PYTHONPATH)")
    clone = tmp_path / "kg"  # the shape of a clone: project files, the package one level down
    (clone / "kg").mkdir(parents=True)
    (clone / "pyproject.toml").write_text("[project]\nname = 'elsewhere'\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = ("import kg, kg.sparql.ready as ready; "
            "print(kg.__file__); print(len(ready.ready_questions()))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, (f"`import kg` failed next to a folder named kg; reinstall with {FIX}\n"
                                  + proc.stderr[-2000:])
    where, questions = proc.stdout.split()
    assert where.endswith(os.path.join("kg", "__init__.py")) and not where.startswith(str(tmp_path)), (
        f"`import kg` found {where}, not the installed package; reinstall with {FIX}")
    assert int(questions) >= 5


def test_readme_and_ci_install_in_the_mode_that_wins():
    assert "editable_mode=compat" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "editable_mode=compat" in (ROOT / "README.md").read_text(encoding="utf-8")
