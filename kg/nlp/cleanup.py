"""Clean markup out of an abstract without moving any character.

Abstracts arrive with LaTeX (`\\textit{X}`, `$x$`, `~`, `\\%`), Markdown
emphasis (`**X**`, `*X*`, `_X_`, `` `X` ``) and HTML entities (`&amp;`).
Every piece of markup is replaced by spaces of the same length (an escape
such as `\\%` or `&amp;` by its character followed by spaces), so the cleaned
text has exactly the length of the original and every offset into one is an
offset into the other.
"""

from __future__ import annotations

import html
import re
from typing import Callable, NamedTuple

# \textit{, \textbf{, \emph{ ... : the command and its braces go, the argument stays.
_LATEX_WRAP = re.compile(r"\\(?:text(?:it|bf|tt|sc|sf|rm|normal)|emph|mathrm|mathbf|mathit|mathcal|mathbb|"
                         r"mathsf|mathtt|operatorname|boldsymbol|bm|underline|url|textsuperscript|"
                         r"textsubscript)\s*\{([^{}]*)\}")
_LATEX_ESCAPE = re.compile(r"\\([%&_#$])")
_LATEX_CMD = re.compile(r"\\[A-Za-z]+\*?")
_MATH_DOLLAR = re.compile(r"(?<!\\)\$")
_LATEX_BRACE = re.compile(r"(?<=[\s(])\{([^{}]*)\}")
_TILDE = re.compile(r"(?<=\S)~(?=\S)")
_MD_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_MD_EM = re.compile(r"(?<![\w*])([*_])(?=[^\s*_])(.+?)(?<=[^\s*_])\1(?![\w*])")
_MD_CODE = re.compile(r"`([^`\n]+)`")
_HTML_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_HTML_TAG = re.compile(r"</?(?:i|b|em|strong|sub|sup|u|tt|code|span|br|p)\b[^<>]{0,200}>", re.I)
_ODD_SPACES = "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\t"
_ODD_SPACE = re.compile(f"[{_ODD_SPACES}]")


def _blank(m: re.Match) -> str:
    return " " * (m.end() - m.start())


def _keep_group(m: re.Match, group: int) -> str:
    """Spaces for the whole match except the kept group, which stays in place."""
    start, end = m.start(), m.end()
    gs, ge = m.start(group), m.end(group)
    return " " * (gs - start) + m.group(group) + " " * (end - ge)


def _entity(m: re.Match) -> str:
    char = html.unescape(m.group(0))
    if len(char) != 1:  # unknown entity: leave it as written
        return m.group(0)
    return (" " if char in "\u00a0" else char) + " " * (len(m.group(0)) - 1)


class _Step(NamedTuple):
    """One kind of markup: its pattern, what replaces a match, and `needs`,
    characters one of which every match contains. Most abstracts hold one
    or two kinds of markup, so a step is run only on a text that has one of
    its characters (as the earlier steps left the text: "\\$" becomes "$ ")."""

    needs: str
    pattern: re.Pattern
    replace: str | Callable[[re.Match], str]


_STEPS = (
    _Step("~", _TILDE, " "),
    _Step("\\", _LATEX_WRAP, lambda m: _keep_group(m, 1)),
    _Step("\\", _LATEX_ESCAPE, lambda m: m.group(1) + " "),
    _Step("\\", _LATEX_CMD, _blank),
    _Step("$", _MATH_DOLLAR, " "),
    _Step("{", _LATEX_BRACE, lambda m: _keep_group(m, 1)),
    _Step("*_", _MD_STRONG, lambda m: _keep_group(m, 2)),
    _Step("*_", _MD_EM, lambda m: _keep_group(m, 2)),
    _Step("`", _MD_CODE, lambda m: _keep_group(m, 1)),
    _Step("<", _HTML_TAG, _blank),
    _Step("&", _HTML_ENTITY, _entity),
    _Step(_ODD_SPACES, _ODD_SPACE, " "),
)


def clean(text: str) -> str:
    """`text` with markup blanked out; same length, same offsets."""
    out = text
    for step in _STEPS:
        if any(c in out for c in step.needs):
            out = step.pattern.sub(step.replace, out)
    assert len(out) == len(text)
    return out
