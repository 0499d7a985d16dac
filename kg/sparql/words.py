"""The words of SPARQL, for telling a user which word of a query is wrong.

Oxigraph's parser reports the point where its grammar last had a choice, which
for a misspelt keyword is often far from the word itself: `SELEC * WHERE`
fails "at 1:10, expected CONSTRUCT". A bare word in SPARQL (no `?`, `$`,
colon, quotes or angle brackets) can only be a keyword, a built-in function or
`a`, so a query's first bare word that is none of these is the mistake, and
`unknown_word` finds it with a small scanner that knows where strings, IRIs,
comments, variables and prefixed names begin and end.

The scanner is only asked after the engine has refused a query: it shapes the
message, never decides whether a query runs.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

# SPARQL 1.1 Query and Update keywords, and the words of SPARQL 1.2 and of
# Oxigraph's extensions, so that none of them is ever called unknown.
KEYWORDS = frozenset("""
BASE PREFIX SELECT DISTINCT REDUCED AS CONSTRUCT WHERE DESCRIBE ASK FROM NAMED GROUP BY HAVING ORDER
ASC DESC LIMIT OFFSET VALUES LOAD SILENT INTO CLEAR DROP CREATE ADD MOVE COPY TO INSERT DATA DELETE
WITH USING DEFAULT GRAPH ALL OPTIONAL SERVICE BIND UNDEF MINUS UNION FILTER NOT IN EXISTS A TRUE FALSE
LATERAL VERSION SEPARATOR
""".split())
FUNCTIONS = frozenset("""
STR LANG LANGMATCHES DATATYPE BOUND IRI URI BNODE RAND ABS CEIL FLOOR ROUND CONCAT STRLEN UCASE LCASE
ENCODE_FOR_URI CONTAINS STRSTARTS STRENDS STRBEFORE STRAFTER YEAR MONTH DAY HOURS MINUTES SECONDS
TIMEZONE TZ NOW UUID STRUUID MD5 SHA1 SHA256 SHA384 SHA512 COALESCE IF STRLANG STRDT SAMETERM ISIRI
ISURI ISBLANK ISLITERAL ISNUMERIC REGEX SUBSTR REPLACE COUNT SUM MIN MAX AVG SAMPLE GROUP_CONCAT
TRIPLE SUBJECT PREDICATE OBJECT ISTRIPLE LANGDIR STRLANGDIR HASLANG HASLANGDIR ADJUST
""".split())
QUERY_FORMS = ("SELECT", "CONSTRUCT", "ASK", "DESCRIBE")

# One token a match, in the order the grammar tells them apart; only `word`
# is looked at, the other kinds are there so that their insides are skipped.
_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<comment>\#[^\n\r]*)
  | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
  | (?P<string>\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'''(?:[^'\\]|\\.|'(?!''))*'''
              |"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*')
  | (?P<var>[?$][^\W]+)
  | (?P<bnode>_:[^\W][\w.\-]*)
  | (?P<pname>(?:[^\W\d_][\w.\-]*)?:(?:[\w\-:%]|\\.|\.(?=[\w\-:%]))*)
  | (?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
  | (?P<number>\d*\.\d+(?:[eE][+-]?\d+)?|\d+(?:\.\d*)?[eE][+-]?\d+|\d+)
  | (?P<word>[^\W\d][\w]*)
  | (?P<other>.)
""", re.VERBOSE | re.DOTALL)


@dataclass(frozen=True)
class UnknownWord:
    word: str
    line: int
    column: int
    first: bool  # the query's first word after its PREFIX and BASE lines

    def message(self) -> str:
        """`unknown keyword 'SELEC' at 1:1; a query begins with SELECT, ...`."""
        where = f"'{self.word}' at {self.line}:{self.column}"
        guess = closest(self.word)
        if self.first and guess not in ("PREFIX", "BASE"):
            return (f"unknown keyword {where}; a query begins with "
                    f"{', '.join(QUERY_FORMS[:-1])} or {QUERY_FORMS[-1]}")
        if guess:
            return f"unknown keyword {where}; did you mean {guess}?"
        return (f"unknown word {where}; a variable begins with '?' (?x), a name has a prefix "
                f"(mlkg:Method) and an IRI is written <...>")


def closest(word: str) -> str | None:
    """The SPARQL keyword or function that `word` most likely misspells."""
    found = difflib.get_close_matches(word.upper(), sorted(KEYWORDS | FUNCTIONS), n=1, cutoff=0.8)
    return found[0] if found else None


def unknown_word(text: str) -> UnknownWord | None:
    """The first bare word of `text` that SPARQL does not know, with its 1-based line and column."""
    first = True
    after_prologue_word = False  # PREFIX and BASE take a name and an IRI, then the prologue goes on
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind in ("space", "comment"):
            continue
        if kind == "word":
            upper = m.group().upper()
            if upper not in KEYWORDS and upper not in FUNCTIONS:
                line = text.count("\n", 0, m.start()) + 1
                column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                return UnknownWord(m.group(), line, column, first)
            after_prologue_word = upper in ("PREFIX", "BASE")
            first = first and after_prologue_word
            continue
        if not after_prologue_word and kind != "iri":
            first = False
    return None


def names_a_dataset(text: str) -> bool:
    """True when the query has a FROM or FROM NAMED clause, which sets its dataset:
    the union of all graphs, kg's default, must then not replace it."""
    if "from" not in text.casefold():  # the common case, without scanning
        return False
    return any(m.lastgroup == "word" and m.group().upper() == "FROM" for m in _TOKEN.finditer(text))
