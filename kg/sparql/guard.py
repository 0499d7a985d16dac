"""What a query may do before it reaches the engine: read, never write, never call out.

Oxigraph follows `SERVICE <url>` by sending the query to that URL, so an
exposed endpoint would make requests wherever a client points it. The check
here runs before the engine sees the text:

1. fast path: the letters "service" do not occur at all (after undoing
   \\u escapes) -> no SERVICE clause is possible;
2. otherwise the query is parsed with rdflib's full SPARQL grammar and its
   parse tree is searched for a SERVICE pattern. A keyword scan alone is not
   enough: whether `<` opens an IRI or is a comparison depends on the grammar,
   and a scan can be led to read a real SERVICE clause as part of a string;
3. a query that mentions "service" and that rdflib cannot parse is refused,
   since it cannot be shown to be harmless.
"""

from __future__ import annotations

import re

UPDATE_KEYWORDS = {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH"}

_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_COMMENT_OR_IRI = re.compile(r"<[^<>\"{}|^`\\\x00-\x20]*>|#[^\n\r]*")
_PROLOGUE = re.compile(r"\s*(?:BASE\s*<[^>]*>|PREFIX\s*[^\s:]*:\s*<[^>]*>)", re.IGNORECASE)
_FIRST_WORD = re.compile(r"\s*([A-Za-z]+)")


class QueryRefused(ValueError):
    """A query that this endpoint will not run; `reason` says why in one sentence."""
    def __init__(self, reason: str, kind: str):
        super().__init__(reason)
        self.kind = kind  # "update" or "service"


def _unescape(text: str) -> str:
    def repl(m: re.Match) -> str:
        try:
            return chr(int(m.group(1) or m.group(2), 16))
        except ValueError:
            return m.group(0)
    return _ESCAPE.sub(repl, text)


def is_update(text: str) -> bool:
    """True when the text is a SPARQL Update request rather than a query.

    Only the operation's first keyword matters, after the prologue and comments;
    the store is opened read-only anyway, this check only gives a clear answer."""
    body = _COMMENT_OR_IRI.sub(lambda m: m.group(0) if m.group(0).startswith("<") else " ", text)
    pos = 0
    while True:
        m = _PROLOGUE.match(body, pos)
        if not m:
            break
        pos = m.end()
    word = _FIRST_WORD.match(body, pos)
    return bool(word) and word.group(1).upper() in UPDATE_KEYWORDS


def _has_service(node) -> bool:
    from pyparsing import (
        ParseResults,  # lazy: rdflib, only for a query that names SERVICE
    )
    from rdflib.plugins.sparql.parserutils import (
        CompValue,  # lazy: rdflib, only for a query that names SERVICE
    )

    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, CompValue):
            if item.name == "ServiceGraphPattern":
                return True
            stack.extend(item.values())
        elif isinstance(item, (ParseResults, list, tuple)):
            stack.extend(item)
    return False


def check_query(text: str) -> None:
    """Raise QueryRefused for an update or for a query with a SERVICE clause."""
    if is_update(text):
        raise QueryRefused("this endpoint is read-only: SPARQL Update (INSERT, DELETE, LOAD, CLEAR, "
                           "DROP, ...) is not accepted", "update")
    if "service" not in _unescape(text).casefold():
        return
    from rdflib.plugins.sparql.parser import (
        parseQuery,  # lazy: rdflib, only for a query that names SERVICE
    )

    try:
        tree = parseQuery(text)
    except Exception:  # rdflib raises several parse error types; all mean "not verified"
        raise QueryRefused("the query mentions SERVICE and could not be checked to be free of "
                           "SERVICE clauses; federated queries are not allowed", "service") from None
    if _has_service(tree):
        raise QueryRefused("SERVICE (federated query) is not allowed: this endpoint makes no "
                           "outbound requests", "service")
