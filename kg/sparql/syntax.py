"""Tell a malformed query from a well-formed one without touching the data.

The server checks syntax in the request thread, before a query waits for a
worker, so that a syntax error is a 400 with the parser's message even when
every worker is busy. pyoxigraph has no parse-only call, so the query is
prepared against an empty in-memory store: parsing happens then, and
SELECT, CONSTRUCT and DESCRIBE results are lazy, so nothing is evaluated.
ASK is evaluated at once, and on an empty store VALUES clauses alone can make
that a long computation; so an ASK is checked as the SELECT with the same
grammar after the keyword (`ASK` and `SELECT (1 AS ?v)` take the same
dataset, WHERE, modifier and VALUES clauses).
"""

from __future__ import annotations

import re

# The prologue holds no string literals, so `#` there always starts a comment.
_SKIP = re.compile(r"\s+|#[^\n\r]*|BASE\s*<[^>]*>|PREFIX\s*[^\s:]*:\s*<[^>]*>", re.IGNORECASE)
_ASK = re.compile(r"ASK(?![A-Za-z0-9_])", re.IGNORECASE)
_PROBE = "SELECT (1 AS ?kg_syntax_probe_7f3a)"


def _lazy_form(text: str) -> str:
    """`text` with a leading ASK keyword turned into a SELECT, so preparing it evaluates nothing."""
    pos = 0
    while m := _SKIP.match(text, pos):
        if m.end() == pos:
            break
        pos = m.end()
    if _ASK.match(text, pos):
        return text[:pos] + _PROBE + text[pos + 3:]
    return text


def syntax_error(text: str) -> str | None:
    """The parser's message when `text` is not a valid SPARQL query, else None."""
    import pyoxigraph as ox

    lazy = _lazy_form(text)
    try:
        ox.Store().query(lazy)
    except SyntaxError as err:
        if lazy == text:
            return str(err)
    except Exception:  # anything else is for the engine to report when it runs the query
        return None
    else:
        return None
    # The ASK failed as a SELECT: it fails to parse as written too, before any
    # evaluation, and the parser's positions then refer to the client's own text.
    try:
        ox.Store().query(text)
    except SyntaxError as err:
        return str(err)
    except Exception:
        return None
    return None
