"""`kg serve`: a read-only SPARQL 1.1 Protocol endpoint over a built store.

Routes
  GET  /sparql?query=...            the SPARQL 1.1 Protocol, query operation only
  POST /sparql                      form-encoded `query=...`, or a body of type application/sparql-query
  GET  /                            the HTML view of the graph (graph.html of the build folder)
  GET  /query                       a small query page (text box, ready questions, results table)
  GET  /queries                     the ready questions as JSON
  GET  /ask/NAME?PARAM=VALUE        run a ready question with its parameters bound as literals

Safety: the store is opened read-only by the workers and no route accepts an
update; SERVICE is refused before the engine sees the query (kg.sparql.guard);
a malformed query is answered 400 in the request thread (kg.sparql.syntax);
each query runs in a worker process that is killed at the time limit, and
long queries get stand-in workers up to a cap, so runaway clients cannot
hold every worker (kg.sparql.workers.QueryPool); results are sent whole
unless a row cap is set, and a capped result says so in itself and in the
X-KG-Truncated header; the server binds to 127.0.0.1 unless told otherwise
and sends CORS headers only when asked to.
Nothing it serves loads anything from the network.

Following the store: the server answers from the newest committed build of
its folder. After `kg build`, `kg build --update` or `kg remove` on it, each
worker opens the new store at its next query, or within half a second when
idle; a query running at that moment finishes on the graph it began with, and
a store still being written is never opened (kg.sparql.follow). The view at
`/` is the build's graph.html, read at each request.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from kg.io.outputs import recover
from kg.sparql.follow import StoreIdentity, store_identity
from kg.sparql.guard import QueryRefused, check_query
from kg.sparql.prefixes import query_prefixes
from kg.sparql.ready import ReadyQuestionError, ready_questions
from kg.sparql.results import parse_accept, parse_format
from kg.sparql.syntax import syntax_error
from kg.sparql.workers import PoolBusy, QueryJob, QueryPool, QueryTimeout

MAX_BODY = 1_000_000  # bytes of a POSTed query; real queries are far smaller
TEXT = "text/plain; charset=utf-8"


@dataclass
class ServeConfig:
    build_dir: Path
    host: str = "127.0.0.1"
    port: int = 7878
    timeout: float = 10.0
    max_rows: int | None = None  # None: every row; the timeout is what bounds a query's work
    workers: int = 2
    # a query running this long is a long one and gets a stand-in worker (kg.sparql.workers.QueryPool)
    long_after: float = 2.0
    cors: str | None = None
    quiet: bool = False


def _store_dir(build_dir: Path) -> Path:
    """The store folder, found as KGStore.at finds it: finishing first a build commit
    that is under way or was interrupted, so that a server started in that instant
    does not find the store folder moved aside and report that there is none."""
    from kg.store import store_path  # lazy: rdflib
    recover(build_dir)
    return store_path(build_dir)


class SparqlServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # many clients may connect at once; queries then wait for a worker

    def __init__(self, config: ServeConfig):
        store = _store_dir(config.build_dir)
        if not (store / "CURRENT").exists():
            from kg.store import StoreError  # lazy: rdflib
            raise StoreError(f"no store at {store}; build one first with `kg build -o DIR`")
        self.config = config
        self.store_dir = store
        self.questions = ready_questions()
        self.pool = QueryPool(str(store), workers=config.workers, prefixes=query_prefixes(),
                              slow_after=min(config.long_after, config.timeout / 2))
        self._view_lock = threading.Lock()
        self._view_cache: tuple[StoreIdentity | None, bytes] | None = None
        try:
            super().__init__((config.host, config.port), SparqlHandler)
        except BaseException:
            self.pool.close()
            raise
        self._closing = threading.Event()
        threading.Thread(target=self._finish_interrupted_commits, daemon=True).start()

    def _finish_interrupted_commits(self) -> None:
        """A builder killed between the two renames of its commit leaves no store
        folder; finish its commit (as `kg` commands do on opening a store) so that
        the workers find the build it committed."""
        while not self._closing.wait(1.0):
            if store_identity(self.store_dir) is None and not self._closing.wait(1.0) \
                    and store_identity(self.store_dir) is None:
                recover(self.config.build_dir)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def view_html(self) -> bytes:
        """The build folder's graph.html, read at each request so that it follows the
        builds as the queries do; drawn from the store, once per build, if the build
        skipped it."""
        path = self.config.build_dir / "graph.html"
        try:
            return path.read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            pass
        with self._view_lock:
            identity = store_identity(self.store_dir)
            if self._view_cache is None or self._view_cache[0] != identity:
                from kg.store import KGStore  # lazy: rdflib
                from kg.view import write_view  # lazy: rdflib
                with tempfile.TemporaryDirectory(prefix="kg-view.") as tmp:
                    out = write_view(KGStore.at(self.config.build_dir, read_only=True), Path(tmp) / "graph.html")
                    self._view_cache = (identity, Path(out).read_bytes())
            return self._view_cache[1]

    def query_page(self) -> bytes:
        page = (resources.files("kg.sparql") / "page.html").read_text(encoding="utf-8")
        listing = json.dumps([q.as_dict() for q in self.questions.values()], ensure_ascii=False)
        # `</` cannot end the inline script early once escaped
        return page.replace("/*READY_QUESTIONS*/[]", listing.replace("</", "<\\/")).encode()

    def server_close(self) -> None:
        self._closing.set()
        super().server_close()
        self.pool.close()


class SparqlHandler(BaseHTTPRequestHandler):
    server: SparqlServer
    server_version = "kg-sparql/0.1"
    protocol_version = "HTTP/1.1"

    # -- plumbing -------------------------------------------------------------
    def log_message(self, fmt: str, *args) -> None:
        if not self.server.config.quiet:
            sys.stderr.write(f"kg serve: {self.address_string()} {fmt % args}\n")

    def _send(self, status: int, body: bytes, content_type: str = TEXT, headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        cors = self.server.config.cors
        if cors:
            self.send_header("Access-Control-Allow-Origin", cors)
            self.send_header("Access-Control-Expose-Headers", "X-KG-Rows, X-KG-Truncated")
            if cors != "*":
                self.send_header("Vary", "Origin")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, status: int, message: str, headers: dict | None = None) -> None:
        self._send(status, (message.rstrip() + "\n").encode(), TEXT, headers)

    def _read_body(self) -> bytes | None:
        """The request body, or None after answering 411/413 (the connection is then closed)."""
        length = self.headers.get("Content-Length")
        if length is None:
            if self.headers.get("Transfer-Encoding"):
                self.close_connection = True
                self._error(411, "send the body with a Content-Length header")
                return None
            return b""
        try:
            n = int(length)
        except ValueError:
            self.close_connection = True
            self._error(400, "bad Content-Length header")
            return None
        if n > MAX_BODY:
            self.close_connection = True
            self._error(413, f"request body too large: {n} bytes (at most {MAX_BODY})")
            return None
        return self.rfile.read(n)

    def _accepted(self, params: dict[str, list[str]]) -> list[str]:
        """The media types the client asked for, best first: those its `format`
        (or `output`, `results`) parameters name, then its Accept header, which
        decides when the query's form cannot be given in the named format
        (SPARQLWrapper names `turtle` for a SELECT, with Accept */*)."""
        named = parse_format([v for key in ("format", "output", "results") for v in params.get(key, [])])
        accept = parse_accept(self.headers.get("Accept"))
        return named + [m for m in accept if m not in named]

    # -- methods --------------------------------------------------------------
    def do_GET(self) -> None:
        url = urlsplit(self.path)
        params = parse_qs(url.query, keep_blank_values=True)
        path = url.path.rstrip("/") or "/"
        if path == "/sparql":
            if "update" in params:
                return self._error(403, "this endpoint is read-only: updates are not accepted")
            queries = params.get("query", [])
            if len(queries) != 1:
                return self._error(400, "give exactly one `query` parameter, e.g. /sparql?query=ASK{}")
            return self._run(queries[0], params)
        if path == "/":
            return self._send(200, self.server.view_html(), "text/html; charset=utf-8")
        if path == "/query":
            return self._send(200, self.server.query_page(), "text/html; charset=utf-8")
        if path == "/queries":
            listing = [q.as_dict() for q in self.server.questions.values()]
            return self._send(200, json.dumps(listing, ensure_ascii=False, indent=1).encode(), "application/json")
        if path.startswith("/ask/"):
            return self._ask(path[len("/ask/"):], params)
        self._error(404, f"no page {url.path}; try /sparql, /query, /queries or /")

    do_HEAD = do_GET

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        params = parse_qs(url.query, keep_blank_values=True)
        if (url.path.rstrip("/") or "/") != "/sparql":
            self._read_body()
            self.close_connection = True
            return self._error(404 if url.path != "/update" else 403,
                               "only /sparql takes POST, and only for queries: this endpoint is read-only")
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        body = self._read_body()
        if body is None:
            return
        if ctype == "application/sparql-update":
            return self._error(403, "this endpoint is read-only: updates are not accepted")
        if ctype == "application/x-www-form-urlencoded":
            try:
                form = parse_qs(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
            except UnicodeDecodeError:
                return self._error(400, "the form is not UTF-8")
            if "update" in form:
                return self._error(403, "this endpoint is read-only: updates are not accepted")
            for k, v in form.items():
                params.setdefault(k, []).extend(v)
            queries = form.get("query", [])
            if len(queries) != 1:
                return self._error(400, "give exactly one `query` field in the form")
            return self._run(queries[0], params)
        if ctype == "application/sparql-query":
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                return self._error(400, "the query is not UTF-8")
            return self._run(text, params)
        self._error(415, "POST a query as application/x-www-form-urlencoded (query=...) "
                         "or as application/sparql-query")

    def do_OPTIONS(self) -> None:
        if not self.server.config.cors:
            return self._error(405, "CORS is not enabled on this server (start it with --cors ORIGIN)")
        self._send(204, b"", TEXT, {"Access-Control-Allow-Methods": "GET, POST, OPTIONS",
                                    "Access-Control-Allow-Headers": "Content-Type, Accept",
                                    "Access-Control-Max-Age": "600"})

    def _refuse_write(self) -> None:
        self._read_body()
        self.close_connection = True
        self._error(405, "this endpoint is read-only", {"Allow": "GET, HEAD, POST"})

    do_PUT = do_DELETE = do_PATCH = _refuse_write

    # -- queries --------------------------------------------------------------
    def _ask(self, name: str, params: dict[str, list[str]]) -> None:
        question = self.server.questions.get(name)
        if question is None:
            return self._error(404, f"no ready question {name!r}; GET /queries lists them")
        values = {k: v[-1] for k, v in params.items() if k not in ("format", "output")}
        try:
            text = question.bind(values)  # checks the names now; the worker binds again with the store
        except ReadyQuestionError as err:
            return self._error(400, str(err))
        self._run(text, params, question=name, values=values)

    def _run(self, text: str, params: dict[str, list[str]], question: str | None = None,
             values: dict[str, str] | None = None) -> None:
        try:
            check_query(text)
        except QueryRefused as err:
            return self._error(403, str(err))
        # Here, not in a worker: a malformed query is a 400 even when every worker is busy.
        problem = syntax_error(text)
        if problem:
            return self._error(400, f"SPARQL syntax error: {problem}")
        cfg = self.server.config
        job = QueryJob(text=text, accepted=self._accepted(params), max_rows=cfg.max_rows,
                       default_graphs=params.get("default-graph-uri", []),
                       named_graphs=params.get("named-graph-uri", []),
                       question=question, params=dict(values or {}))
        try:
            answer = self.server.pool.run(job, cfg.timeout)
        except QueryTimeout as err:
            return self._error(503, f"{err}; simplify the query or add a LIMIT")
        except PoolBusy as err:
            return self._error(503, f"{err}; try again", {"Retry-After": "1"})
        except (EOFError, OSError) as err:
            return self._error(500, f"the query worker failed ({err}); it has been restarted")
        headers = {"X-KG-Rows": str(answer.rows)}
        if answer.truncated:  # the result itself says so too (kg.sparql.results)
            headers["X-KG-Truncated"] = f"true; only the first {cfg.max_rows} rows were sent"
        content_type = answer.content_type
        if content_type.startswith("text/") and "charset" not in content_type:
            content_type += "; charset=utf-8"
        self._send(answer.status, answer.body, content_type, headers)


def make_server(config: ServeConfig) -> SparqlServer:
    return SparqlServer(config)


def serve(config: ServeConfig) -> None:
    """Serve until interrupted."""
    server = make_server(config)
    print(f"kg: SPARQL endpoint at {server.url}/sparql, query page {server.url}/query, view {server.url}/ "
          f"(timeout {config.timeout:g} s, "
          + (f"at most {config.max_rows} rows" if config.max_rows else "every row") + f", {config.workers} workers"
          + (f", CORS {config.cors}" if config.cors else "") + "); Ctrl-C stops", file=sys.stderr)
    try:
        server.serve_forever()
    finally:
        server.server_close()


def default_workers() -> int:
    return max(2, min(8, os.cpu_count() or 2))
