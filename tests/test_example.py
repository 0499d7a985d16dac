"""The worked example in docs/example.py runs as a user would run it: it
builds the demo corpus, answers its three questions and draws its chart."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_docs_example_runs(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "MPLBACKEND": "Agg"}
    run = subprocess.run([sys.executable, str(ROOT / "docs" / "example.py"), str(tmp_path)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Most used datasets:" in out and "Most reported dataset and metric pairs:" in out
    assert "Leaderboard, " in out and "(paper demo-" in out
    chart = tmp_path / "leaderboard.png"
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and chart.stat().st_size > 2000
    assert (tmp_path / "demo" / "store").is_dir()
