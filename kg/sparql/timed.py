"""`kg query --timeout`: one query in a worker process that is killed at the time limit.

The same mechanism as the server's (kg.sparql.workers): Oxigraph cannot
cancel a running query, so the only way to really stop one is to end the
process running it. The worker sends its results serialized, and they are
read back here so the command line formats them as it does without a limit.
"""

from __future__ import annotations

import pyoxigraph as ox

from kg.sparql.workers import QueryJob, QueryPool, QueryTimeout

_SOLUTIONS = "application/sparql-results+json"
_TRIPLES = "application/n-triples"


class QueryFailed(RuntimeError):
    """The engine could not evaluate the query; the message is its own."""


def query_with_timeout(store_path: str, text: str, timeout: float):
    """The results of `text` over the store at `store_path`: a QuerySolutions or
    QueryBoolean, or for CONSTRUCT and DESCRIBE the N-Triples text. Raises
    QueryTimeout after `timeout` seconds (the work is then stopped), SyntaxError
    for a malformed query and QueryFailed when evaluation fails."""
    # slow_after = timeout: one worker is enough for one query, no stand-in is wanted
    pool = QueryPool(store_path, workers=1, slow_after=timeout, max_slow=0)
    try:
        answer = pool.run(QueryJob(text=text, accepted=[_SOLUTIONS, _TRIPLES], max_rows=None), timeout)
    finally:
        pool.close()
    message = answer.body.decode("utf-8", "replace").strip()
    if answer.status == 400 and message.startswith("SPARQL syntax error: "):
        raise SyntaxError(message.removeprefix("SPARQL syntax error: "))
    if answer.status != 200:
        raise QueryFailed(message)
    if answer.content_type.startswith(_TRIPLES):
        return answer.body.decode("utf-8")
    return ox.parse_query_results(answer.body, ox.QueryResultsFormat.JSON)


__all__ = ["QueryFailed", "QueryTimeout", "query_with_timeout"]
