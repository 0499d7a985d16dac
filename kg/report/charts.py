"""Charts as inline SVG, drawn by matplotlib.

Figures are made as matplotlib.figure.Figure objects, never through pyplot,
so no global figure state or GUI backend is involved and drawing is safe in
any thread. Text stays text in the SVG (svg.fonttype "none"): the page is
smaller, the labels can be searched and copied, and the browser's own sans-
serif font draws them. Element ids are salted with a fixed string and the date
left out, so the same graph gives the same page.
"""

from __future__ import annotations

import io
import re
from typing import Sequence

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

BAR = "#4e79a7"          # the view's Method blue
LOW = "#e15759"          # the view's evaluatedOn red, for facts more often wrong than right
OK = "#59a14f"
MUTED = "#9c9c9c"
WIDTH = 7.5              # inches; the page shows charts at up to 720 px wide
_RC = {"svg.fonttype": "none", "svg.hashsalt": "kg-report", "font.family": "sans-serif", "font.size": 10,
       "axes.spines.top": False, "axes.spines.right": False, "axes.titlesize": 11}


def svg(fig: Figure) -> str:
    """The figure as an <svg> element to put inside HTML (no XML prolog or doctype)."""
    buf = io.StringIO()
    with matplotlib.rc_context(_RC):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _figure(rows: int) -> tuple[Figure, object]:
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(WIDTH, 0.8 + 0.32 * max(rows, 2)))
        ax = fig.add_subplot()
    return fig, ax


def _short(label: str, limit: int = 48) -> str:
    """A label as plain text: cut to `limit` characters, and its `$` escaped,
    since matplotlib would read text between two `$` as mathematics."""
    return _plain(label if len(label) <= limit else label[: limit - 1] + "…")


def _plain(text: str) -> str:
    return text.replace("$", r"\$")


def bars(labels: Sequence[str], values: Sequence[float], *, xlabel: str, color: str = BAR,
         value_text: Sequence[str] | None = None) -> str:
    """Horizontal bars, the first label at the top, each bar with its value written after it."""
    with matplotlib.rc_context(_RC):
        fig, ax = _figure(len(labels))
        y = list(range(len(labels)))[::-1]
        ax.barh(y, [float(v) for v in values], color=color, height=0.7)
        ax.set_yticks(y, [_short(str(l)) for l in labels])
        ax.set_xlabel(xlabel)
        if value_text is None:  # counts: no tick between two whole numbers
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        texts = value_text if value_text is not None else [number(v) for v in values]
        for yi, v, t in zip(y, values, texts):
            ax.annotate(_plain(t), (max(float(v), 0.0), yi), xytext=(3, 0), textcoords="offset points",
                        va="center", fontsize=9)
        ax.margins(x=0.12)
        return svg(fig)


def stacked(labels: Sequence[str], parts: dict[str, Sequence[float]], colors: Sequence[str], *, xlabel: str) -> str:
    """Horizontal bars split into parts (in the order of `parts`), with a legend."""
    with matplotlib.rc_context(_RC):
        fig, ax = _figure(len(labels) + 1)
        y = list(range(len(labels)))[::-1]
        left = [0.0] * len(labels)
        for (name, values), color in zip(parts.items(), colors):
            values = [float(v) for v in values]
            ax.barh(y, values, left=left, color=color, height=0.6, label=_plain(name))
            for yi, l, v in zip(y, left, values):
                if v:
                    ax.annotate(number(v), (l + v / 2, yi), ha="center", va="center", fontsize=9, color="white")
            left = [a + b for a, b in zip(left, values)]
        ax.set_yticks(y, [_short(str(l)) for l in labels])
        ax.set_xlabel(xlabel)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=len(parts), frameon=False)
        return svg(fig)


def columns(labels: Sequence[str], values: Sequence[float], colors: Sequence[str], *, xlabel: str,
            ylabel: str) -> str:
    """Vertical bars, one colour each, with the value on top."""
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(WIDTH, 3.2))
        ax = fig.add_subplot()
        x = list(range(len(labels)))
        ax.bar(x, [float(v) for v in values], color=list(colors), width=0.75)
        ax.set_xticks(x, [_short(str(l)) for l in labels])
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        for xi, v in zip(x, values):
            ax.annotate(number(v), (xi, float(v)), xytext=(0, 2), textcoords="offset points", ha="center",
                        fontsize=9)
        ax.margins(y=0.12)
        return svg(fig)


def number(v) -> str:
    """A count with thousands separators, or a value with no trailing zeros."""
    f = float(v)
    if f == int(f) and abs(f) < 1e15:
        return f"{int(f):,}"
    return re.sub(r"\.?0+$", "", f"{f:.4f}")
