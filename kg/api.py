"""kg from Python: the command line's operations as functions and a graph object.

    import kg
    record = kg.extract("We propose FooNet and evaluate it on CIFAR-10.")
    with kg.build(["abstracts.jsonl"], "out/") as g:        # or kg.open("out/")
        rows = g.query("SELECT ?s WHERE { ?s a <https://w3id.org/mlkg/ontology#Method> } LIMIT 5")
        board = g.ask("leaderboard", dataset="CIFAR-10", metric="accuracy")
        board.to_pandas()                                    # needs pandas; kg.frame(rows) is the same

Rows are dicts keyed by variable name. Values are Python values: IRIs and
strings as str, xsd:integer (and its sub-types) as int, xsd:decimal as
Decimal, xsd:double and xsd:float as float, xsd:boolean as bool; other
literals (dates, ...) as their text; an unbound variable as None.

Every failure the command line reports as `kg: error: MESSAGE` is raised
here as KGError(MESSAGE). Input records that cannot be read are skipped, as
by the command line, with a warning each (`strict=True` refuses the whole
input instead); a build's summary is `graph.summary`.

Queries know kg's prefixes (mlkg:, skos:, ... as `kg query` does) and a
syntax error is the command line's one line, `SPARQL syntax error: unknown
keyword 'SELEC' at 1:1; ...`. In a DataFrame, decimal numbers are floats
(the rows keep the exact Decimal).

This module imports only the standard library and kg's own light modules at
load time: spaCy loads when something is extracted, the store when a graph
is opened.
"""

from __future__ import annotations

import json
import os
import tempfile
import warnings
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from kg.errors import KGError, user_message
from kg.io import ReadReport, read_inputs
from kg.io.text import clean_text
from kg.model import Abstract, ExtractOptions, text_id
from kg.sparql.guard import check_query
from kg.sparql.prefixes import PREFIXES
from kg.sparql.ready import ready_questions
from kg.sparql.rows import Rows, frame, python_value, to_rows  # noqa: F401  (the API)
from kg.sparql.syntax import describe

__all__ = ["KGError", "Rows", "Graph", "extract", "build", "open", "frame", "questions"]

@contextmanager
def _cli_errors(writing: bool = False):
    """The library's exceptions that the command line turns into its error
    messages, raised as KGError with the same text. `writing`: an OSError is
    an output that cannot be written, as the command line reports it."""
    try:
        yield
    except KGError:
        raise
    except Exception as err:
        message = user_message(err, writing=writing)
        if message is None and isinstance(err, ValueError):  # ready questions, refused queries
            message = str(err)
        if message is None:
            raise
        raise KGError(message) from err


def _run(store, sparql: str):
    """The engine's results for `sparql` with kg's prefixes known, as `kg query`
    runs it; a syntax error is raised as the command line words it."""
    try:
        return store.query(sparql, prefixes=PREFIXES)
    except SyntaxError as err:
        raise SyntaxError(describe(str(err), sparql)) from None


# -- abstracts ------------------------------------------------------------------
def _abstract(item: Any, n: int):
    """One abstract given as text, a dict with `abstract` (and `id`, `title`), or an Abstract."""
    if isinstance(item, Abstract):
        return item
    if isinstance(item, str):
        text, rid, title, meta = item, None, "", {}
    elif isinstance(item, Mapping):
        text, rid, title = item.get("abstract"), item.get("id"), item.get("title") or ""
        meta = {k: v for k, v in item.items() if k not in ("abstract", "id", "title")}
    else:
        raise KGError(f"abstract {n}: expected a text or a dict with 'id', 'title', 'abstract', "
                      f"got {type(item).__name__}")
    if not isinstance(text, str):
        raise KGError(f"abstract {n}: field 'abstract' must be a string")
    text = clean_text(text)[0]
    if not text.strip():
        raise KGError(f"abstract {n}: empty abstract")
    if rid is not None and (isinstance(rid, bool) or not isinstance(rid, (str, int))):
        raise KGError(f"abstract {n}: field 'id' must be a string or integer")
    if not isinstance(title, str):
        raise KGError(f"abstract {n}: field 'title' must be a string")
    rid = " ".join(str(rid).split()) if rid is not None else ""
    return Abstract(id=rid or text_id(text), text=text, title=" ".join(title.split()), meta=meta)


def _options(gazetteers: Iterable[str | os.PathLike] = (), rules: Iterable[str | os.PathLike] = (),
             min_confidence: float = 0.0, model: str | os.PathLike | None = None, use_model: bool = True):

    if not 0.0 <= min_confidence <= 1.0:
        raise KGError(f"min_confidence must be between 0 and 1: {min_confidence}")
    if isinstance(gazetteers, (str, os.PathLike)):
        gazetteers = [gazetteers]
    if isinstance(rules, (str, os.PathLike)):
        rules = [rules]
    return ExtractOptions(gazetteers=tuple(map(str, gazetteers)), rules=tuple(map(str, rules)),
                          min_confidence=float(min_confidence), model=str(model) if model else None,
                          use_model=bool(use_model))


@lru_cache(maxsize=4)
def _extractor(options):
    """One pipeline per set of options, kept: loading it takes a moment."""
    from kg.extraction.record import Extractor  # lazy: spaCy
    from kg.extraction.stream import (
        record_stream,  # lazy: `import kg` loads no extraction engine
    )

    record_stream([], options)  # reports bad gazetteer or rules files as the command line does
    return Extractor.from_options(options)


def extract(abstracts: Any, *, gazetteers: Iterable[str | os.PathLike] = (),
            rules: Iterable[str | os.PathLike] = (), min_confidence: float = 0.0,
            workers: int = 1, model: str | os.PathLike | None = None, use_model: bool = True) -> dict | Iterator[dict]:
    """Extraction records (docs/record.md), as `kg extract` writes them.

    `abstracts` is one abstract, a text or a dict with `abstract` and optionally
    `id` and `title` (other keys are kept as metadata): the result is its record.
    Anything else is an iterable of abstracts: the result is an iterator of
    their records, in order, streamed. An abstract without an id gets the id
    the readers give (kg.model.text_id). `gazetteers` and `rules` are extra
    files as for `--gazetteer` and `--rules`; facts below `min_confidence` are
    left out; `workers` > 1 extracts a stream in that many processes;
    `model` is a folder made by `kg train` (default: the model shipped with
    kg), `use_model=False` runs the rules alone.
    A text that cannot be used raises KGError."""
    options = _options(gazetteers, rules, min_confidence, model, use_model)

    with _cli_errors():
        if isinstance(abstracts, (str, Mapping, Abstract)):
            ab = _abstract(abstracts, 1)
            return _extractor(options).record(ab)
        if isinstance(abstracts, (bytes, os.PathLike)) or not isinstance(abstracts, Iterable):
            raise KGError("extract wants a text, a dict with 'abstract', or an iterable of them; "
                          "for files use kg.build or read them first")
        if workers > 1:
            from kg.extraction.stream import (
                record_stream,  # lazy: `import kg` loads no extraction engine
            )

            pairs = record_stream((_abstract(x, n) for n, x in enumerate(abstracts, 1)), options, workers=workers)
        else:
            pairs = _extractor(options).records(_abstract(x, n) for n, x in enumerate(abstracts, 1))
    return (record for _, record in pairs)


# -- inputs ---------------------------------------------------------------------
@contextmanager
def _input_files(inputs: Any):
    """Input files as the readers take them: paths stay paths; runs of
    abstracts given as dicts are written to temporary JSON Lines files."""
    if isinstance(inputs, (str, os.PathLike, Mapping)):
        inputs = [inputs]
    with tempfile.TemporaryDirectory(prefix="kg-api-") as tmp:
        files: list[str] = []
        run: list[Mapping] = []

        def flush() -> None:
            if run:
                path = Path(tmp) / f"abstracts-{len(files)}.jsonl"
                with path.open("w", encoding="utf-8") as fh:
                    for item in run:
                        fh.write(json.dumps(dict(item), ensure_ascii=False, default=str) + "\n")
                files.append(str(path))
                run.clear()

        for item in inputs:
            if isinstance(item, Mapping):
                run.append(item)
            elif isinstance(item, (str, os.PathLike)):
                flush()
                files.append(os.fspath(item))
            else:
                raise KGError(f"an input is a file path or a dict with 'id', 'title', 'abstract'; "
                              f"got {type(item).__name__}")
        flush()
        yield files


def _refuse_if_strict(files: list[str], fmt: str | None) -> None:
    """strict: read every input once, before anything is written, and refuse the
    whole input if any record would be skipped (`kg build --strict`)."""
    report = ReadReport()
    for _ in read_inputs(files, report, fmt):
        pass
    if report.skipped:
        listed = "\n".join(f"skipped {s}" for s in report.skipped)
        raise KGError(f"strict: {len(report.skipped)} input record(s) cannot be used; nothing written\n{listed}")


def _warn_read(summary) -> None:
    for s in summary.skipped:
        warnings.warn(f"kg: skipped {s}", stacklevel=3)
    for w in summary.warnings:
        warnings.warn(f"kg: warning: {w}", stacklevel=3)


def build(inputs: Any = None, out_dir: str | os.PathLike = "outputs", *, fmt: str | None = None,
          gazetteers: Iterable[str | os.PathLike] = (), rules: Iterable[str | os.PathLike] = (),
          min_confidence: float = 0.0, view: bool = True, workers: int = 1, dask: Any = None,
          strict: bool = False, model: str | os.PathLike | None = None, use_model: bool = True) -> "Graph":
    """Build the graph of `inputs` into `out_dir` as `kg build` does (records.jsonl,
    graph.ttl, graph.html and the store, replacing an earlier build there) and
    open it. `inputs`: file paths (.jsonl, .csv, .txt; `fmt` overrides the
    extension) and/or abstracts as dicts with `id`, `title`, `abstract`; None
    builds the demo corpus. The keywords are the command's options:
    `gazetteers`, `rules`, `min_confidence`, `view=False` for --no-view,
    `workers`, `dask` (a scheduler address or a distributed.Client), `strict`,
    `model` (--model) and `use_model=False` (--no-model)."""
    from kg.builder import build as run_build  # lazy: rdflib
    from kg.builder import demo_corpus  # lazy: rdflib

    options = _options(gazetteers, rules, min_confidence, model, use_model)
    with _cli_errors(writing=True), _input_files(inputs if inputs is not None else [demo_corpus()]) as files:
        if strict:
            _refuse_if_strict(files, fmt)
        summary = run_build(files, out_dir, fmt=fmt, options=options, view=view, workers=workers, dask=dask)
    _warn_read(summary)
    graph = Graph(out_dir, options=options, view=view)
    graph.summary = summary
    return graph


def open(out_dir: str | os.PathLike = "outputs", *, gazetteers: Iterable[str | os.PathLike] = (),
         rules: Iterable[str | os.PathLike] = (), min_confidence: float = 0.0) -> "Graph":
    """The graph of an earlier build in `out_dir` (the build folder or its store).
    Give the gazetteer and rules files the build used if you will `update` it."""
    graph = Graph(out_dir, options=_options(gazetteers, rules, min_confidence))
    graph._open_store()  # a missing store is an error now, not at the first query
    return graph


def questions() -> dict[str, dict]:
    """The ready questions for `Graph.ask`, by name: title, about, text and parameters."""
    return {name: q.as_dict() for name, q in ready_questions().items()}


class Graph:
    """A built graph: query it, change it, hand it to rdflib or networkx.
    Use it in a `with` block, or call `close()`: the store stays open in
    between. Changes (`update`, `remove`) rewrite the build's outputs as
    `kg build --update` and `kg remove` do."""
    def __init__(self, out_dir: str | os.PathLike, *, options=None, view: bool = True):
        self.out_dir = Path(out_dir)
        self.options = options if options is not None else _options()
        self.view = view
        self.summary = None  # what the last build or change did (kg.builder.BuildSummary, kg.update.UpdateSummary)
        self._store = None
        self._closed = False

    def __repr__(self) -> str:
        return f"<kg.Graph {str(self.out_dir)!r}{' closed' if self._closed else ''}>"

    def __enter__(self) -> "Graph":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _open_store(self):
        if self._closed:
            raise KGError(f"the graph of {self.out_dir} is closed")
        if self._store is None:
            from kg.store import KGStore  # lazy: rdflib
            with _cli_errors():
                self._store = KGStore.at(self.out_dir, read_only=True)
        return self._store

    def _release_store(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    @property
    def store(self):
        """The kg.store.KGStore underneath (read-only)."""
        return self._open_store()

    # -- questions --------------------------------------------------------------
    def query(self, sparql: str) -> Rows | bool:
        """Run SPARQL over the union of the papers' graphs, as `kg query` does.
        SELECT gives Rows; ASK a bool; CONSTRUCT and DESCRIBE Rows of subject,
        predicate, object. Updates and SERVICE are refused (KGError)."""
        store = self._open_store()
        with _cli_errors():
            check_query(sparql)
            return to_rows(_run(store, sparql))

    def ask(self, question: str, /, **params: Any) -> Rows:
        """Run the ready question named `question` (`kg query --list`, or kg.questions())
        with its parameters as keywords: g.ask("leaderboard", dataset="CIFAR-10", metric="accuracy").
        Names of entities match in any case, as with `--param`. `question` is
        positional-only, since find-entity has a parameter called `name`."""
        from kg.query import ready_query  # lazy: `import kg` loads no store

        store = self._open_store()
        with _cli_errors():
            text = ready_query(store, question, {k: str(v) for k, v in params.items()})
            return to_rows(_run(store, text))

    # -- other libraries ---------------------------------------------------------
    def to_rdflib(self):
        """The whole graph as an rdflib Dataset: each paper in its named graph,
        the entities in theirs, and the default graph their union (as in kg query)."""
        import io  # lazy: rdflib

        import rdflib  # lazy: rdflib

        buf = io.BytesIO()
        self._open_store().dump(buf, "nq")
        ds = rdflib.Dataset(default_union=True)
        with warnings.catch_warnings():
            # rdflib's own N-Quads parser uses a Dataset attribute that rdflib deprecates.
            warnings.simplefilter("ignore", DeprecationWarning)
            ds.parse(data=buf.getvalue().decode("utf-8"), format="nquads")
        return ds

    def to_networkx(self):
        """Entities and their relations as a networkx MultiDiGraph, keyed by IRI,
        as `kg export --format graphml` writes it (kg.graph.networkx_export)."""
        from kg.graph.networkx_export import to_networkx  # lazy: networkx
        return to_networkx(self._open_store())

    # -- changes ----------------------------------------------------------------
    def update(self, inputs: Any, *, fmt: str | None = None, workers: int = 1, dask: Any = None,
               strict: bool = False):
        """Add abstracts (files, or dicts with `id`, `title`, `abstract`) as
        `kg build --update` does: new ids added, known ids with a new text
        replaced, the rest left alone. Returns the kg.update.UpdateSummary."""
        from kg.update import update as run_update  # lazy: rdflib

        self._open_store()
        self._release_store()  # the change swaps the store folder
        with _cli_errors(writing=True), _input_files(inputs) as files:
            if strict:
                _refuse_if_strict(files, fmt)
            summary = run_update(files, self.out_dir, fmt=fmt, options=self.options, view=self.view,
                                 workers=workers, dask=dask)
        _warn_read(summary)
        self.summary = summary
        return summary

    def remove(self, ids: str | Iterable[str]):
        """Take papers out by id, with all their facts, as `kg remove` does.
        Returns the kg.update.UpdateSummary; its `not_found` lists unknown ids."""
        from kg.update import remove as run_remove  # lazy: rdflib

        if isinstance(ids, str):
            ids = [ids]
        self._open_store()
        self._release_store()
        with _cli_errors(writing=True):
            summary = run_remove(list(ids), self.out_dir, gazetteers=self.options.gazetteers, view=self.view)
        self.summary = summary
        return summary

    def report(self, out: str | os.PathLike) -> Path:
        """Write the HTML report with charts, as `kg report` does; returns its path."""
        from kg.report.page import write_report  # lazy: matplotlib
        with _cli_errors(writing=True):
            return write_report(self._open_store(), out)

    def close(self) -> None:
        """Close the store; the graph cannot be used after."""
        self._release_store()
        self._closed = True
