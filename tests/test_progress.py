"""The progress bar: drawn for a person at a terminal, silent for scripts."""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from kg.cli import main
from kg.progress import estimate_abstracts, track, wanted
from kg.timing import StageClock

ROOT = Path(__file__).resolve().parents[1]


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_bar_shows_count_total_rate_and_time_left_on_a_terminal():
    term = FakeTerminal()
    assert list(track(range(5), total=5, stream=term)) == [0, 1, 2, 3, 4]
    text = term.getvalue()
    assert "5/5" in text and "abstracts/s" in text and "<" in text  # elapsed<left


def test_no_bar_when_the_stream_is_not_a_terminal_or_when_quiet():
    pipe = io.StringIO()
    assert list(track(range(3), total=3, stream=pipe)) == [0, 1, 2]
    assert pipe.getvalue() == ""
    term = FakeTerminal()
    assert list(track(range(3), total=3, stream=term, quiet=True)) == [0, 1, 2]
    assert term.getvalue() == ""
    assert wanted(stream=term) and not wanted(stream=pipe) and not wanted(True, term)


def test_estimate_counts_rows_and_paragraphs(tmp_path):
    (tmp_path / "a.jsonl").write_text('{"abstract": "x"}\n{"abstract": "y"}\n{"abstract": "z"}', encoding="utf-8")
    (tmp_path / "b.csv").write_text('id,title,abstract\n1,t,"two\nlines"\n2,t,plain\n', encoding="utf-8")
    (tmp_path / "c.txt").write_text("First paragraph here.\n\nSecond one.\n  \nThird.\n", encoding="utf-8")
    assert estimate_abstracts([tmp_path / "a.jsonl"]) == 3
    assert estimate_abstracts([tmp_path / "b.csv"]) == 2
    assert estimate_abstracts([tmp_path / "c.txt"]) == 3
    assert estimate_abstracts([tmp_path / "a.jsonl", tmp_path / "c.txt"]) == 6
    assert estimate_abstracts([tmp_path / "missing.jsonl"]) is None


def test_stage_clock_charges_nested_stages_once():
    clock = StageClock()

    def slow_source():
        for i in range(3):
            _spin(0.01)
            yield i

    for _ in clock.iterate("extract", (x for x in clock.iterate("read", slow_source()))):
        with clock.stage("graph"):
            _spin(0.01)
    assert set(clock.seconds) == {"read", "extract", "graph"}
    assert clock.seconds["read"] >= 0.03 and clock.seconds["graph"] >= 0.03
    assert clock.seconds["extract"] < 0.02  # read time is not counted twice


def _spin(seconds: float) -> None:
    import time
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _corpus(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.jsonl"
    rows = [{"id": f"p{i}", "abstract": f"We train a model on ImageNet, run {i}. It reaches {60 + i}% accuracy."}
            for i in range(6)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _run_with_terminal_stderr(args: list[str], cwd: Path) -> str:
    """Run `kg` with stderr on a pseudo-terminal; return what it drew there."""
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a 100-column terminal
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "kg", *args], cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=secondary, env=env)
    os.close(secondary)
    chunks = []
    while True:
        try:
            data = os.read(primary, 4096)
        except OSError:  # the terminal closes when the process ends
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(primary)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.slow
def test_extract_draws_a_bar_when_stderr_is_a_terminal(tmp_path):
    drawn = _run_with_terminal_stderr(["extract", str(_corpus(tmp_path)), "-o", "r.jsonl"], tmp_path)
    assert "extract" in drawn and "6/6" in drawn and "abstracts/s" in drawn


def test_quiet_turns_the_bar_off_on_a_terminal(tmp_path, monkeypatch):
    term = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", term)
    corpus = _corpus(tmp_path)
    assert main(["extract", str(corpus), "-o", str(tmp_path / "r.jsonl"), "--quiet"]) == 0
    assert "6/6" not in term.getvalue() and "records written" in term.getvalue()
    assert main(["build", str(corpus), "-o", str(tmp_path / "out"), "--no-view", "--quiet"]) == 0
    assert "abstracts/s" not in term.getvalue()


def test_build_draws_nothing_when_stderr_is_not_a_terminal(tmp_path, capsys):
    assert main(["build", str(_corpus(tmp_path)), "-o", str(tmp_path / "out"), "--no-view"]) == 0
    out, err = capsys.readouterr()
    assert "abstracts/s" not in err and "\r" not in err
    assert "abstracts read: 6" in out
    assert "seconds by stage: " in out
