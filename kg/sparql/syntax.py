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

The query is parsed with kg's prefixes (kg.sparql.prefixes), as it runs.
The engine's message lists every character class the grammar allowed, in
Rust notation; `describe` turns it into one line a person can read: what is
wrong, where (line:column) and what was expected, naming a misspelt keyword
itself (kg.sparql.words) rather than the place the grammar gave up.
The command line, the Python API and the server all report syntax errors
through `describe`, so a query gets the same message from each.
"""

from __future__ import annotations

import re

from kg.sparql.prefixes import PREFIXES
from kg.sparql.words import unknown_word

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
    import pyoxigraph as ox  # lazy: `import kg` loads no store

    lazy = _lazy_form(text)
    try:
        ox.Store().query(lazy, prefixes=PREFIXES)
    except SyntaxError as err:
        if lazy == text:
            return describe(str(err), text)
    except Exception:  # anything else is for the engine to report when it runs the query
        return None
    else:
        return None
    # The ASK failed as a SELECT: it fails to parse as written too, before any
    # evaluation, and the parser's positions then refer to the client's own text.
    try:
        ox.Store().query(text, prefixes=PREFIXES)
    except SyntaxError as err:
        return describe(str(err), text)
    except Exception:
        return None
    return None


_POSITION = re.compile(r"error at (\d+):(\d+):\s*(.*)", re.DOTALL)
# A character class of the grammar, e.g. ['A' ..= 'Z' | 'a' ..= 'z' | ...] or [_]
_CLASS = re.compile(r"\[(?:'(?:[^'\\]|\\.)*'|[^\]'])*\]")
# One item of the list: a quoted token, a character class, or a word
_ITEM = re.compile(r'"(?:[^"\\]|\\.)*"|' + _CLASS.pattern + r"|[^,\s][^,]*")
_PREFIXED = re.compile(r"([A-Za-z][\w.\-]*)?:[\w.\-]*$")
_SHOWN = 12


def describe(message: str, text: str) -> str:
    """The engine's syntax error as one line in a user's words: what is wrong,
    where (`at LINE:COLUMN`) and what would be right, e.g. `unknown keyword
    'SELEC' at 1:1; a query begins with SELECT, CONSTRUCT, ASK or DESCRIBE`
    or `unexpected end of the query at 1:22 after '?'; expected a number or a name`."""
    m = _POSITION.match(message.strip())
    if not m:
        return " ".join(message.split())
    line, column, rest = int(m[1]), int(m[2]), m[3]
    lines = text.splitlines() or [""]
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    if "Prefix not found" in rest:
        name = _PREFIXED.search(row[: column - 1])
        prefix = (name[1] or "") if name else "?"
        if name:  # the engine stops after the name; point at its start
            column -= len(name[0])
        return (f"unknown prefix '{prefix}:' at {line}:{column}; declare it with PREFIX {prefix}: <...> "
                f"(known without PREFIX: {', '.join(PREFIXES)})")
    if "IRI parsing failed" in rest:
        start = row.rfind("<", 0, column - 1)  # the engine stops after the IRI; point at its start
        return f"not a valid IRI at {line}:{start + 1 if start >= 0 else column}"
    # Elsewhere the engine stops where its grammar ran out of choices, often well past a
    # misspelt keyword; a word SPARQL does not know, at or before that point, is the mistake.
    word = unknown_word(text)
    if word and (word.line, word.column) <= (line, column):
        return word.message()
    after = row[column - 1:].split()
    before = row[: column - 1].split()
    if after:
        found = f"'{after[0][:30]}'"
    elif line >= len(lines):
        found = "end of the query"
    else:
        found = "end of the line"
    where = f"at {line}:{column}" + (f" after '{before[-1][-30:]}'" if before else "")
    return f"unexpected {found} {where}; expected {_expected(rest)}"


def _expected(rest: str) -> str:
    """The grammar's list of what may come next, without character classes."""
    rest = rest.removeprefix("expected one of ").removeprefix("expected ")
    kinds: list[str] = []
    words = []
    for m in _ITEM.finditer(rest):
        item = " ".join(m[0].split())
        if item.startswith("["):
            if "'A'" in item or "'a'" in item:
                kinds.append("a name")
            elif "'0'" in item:
                kinds.append("a number")
            continue
        if len(item) >= 2 and item[0] == item[-1] == '"':
            item = item[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        if item:
            # punctuation is quoted, so that ',' reads as a token, not a separator
            words.append(item if item.replace("_", "").isalnum() else f"'{item}'")
    words = list(dict.fromkeys(words + kinds))
    if not words:
        return "something else"
    more = f" (and {len(words) - _SHOWN} more)" if len(words) > _SHOWN else ""
    words = words[:_SHOWN]
    return (", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]) + more
