"""The `kg` command: sub-commands parse arguments, call the library, print.

Exit codes: 0 success; 1 the run finished but skipped input (see the summary);
2 usage or a fatal input/store error, among them a build whose input is
missing or unreadable or gave no abstract at all (earlier outputs are then
left as they were); 3 --strict and some input would be skipped, so nothing
was written (earlier outputs are left as they were).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import sys
from pathlib import Path

from kg.errors import user_message
from kg.extraction.dask_runner import DaskError
from kg.extraction.stream import record_stream
from kg.io import ReadReport, read_inputs
from kg.io.atomic import atomic_write
from kg.io.fields import FieldMap
from kg.io.readers import STDIN, InputError, NothingRead, check_inputs
from kg.learned.tagger_training import TaggerSettings
from kg.model import ExtractOptions
from kg.progress import estimate_abstracts, track, wanted
from kg.query import format_results, list_ready_questions, load_query, ready_query
from kg.serve import ServeConfig, default_workers, serve
from kg.sparql.guard import check_query
from kg.sparql.prefixes import query_prefixes
from kg.sparql.ready import parse_params
from kg.sparql.syntax import describe
from kg.sparql.timed import QueryFailed, QueryTimeout, query_with_timeout
from kg.version import __version__

DEFAULT_OUT = "outputs"


def _module_doc(module: str) -> str:
    """A module's docstring without importing it: importing kg.eval loads spaCy,
    which would cost every `kg` command seconds of start-up."""
    origin = importlib.util.find_spec(module).origin
    return ast.get_docstring(ast.parse(Path(origin).read_text(encoding="utf-8"))) or ""


def _err(msg: str) -> int:
    print(f"kg: error: {msg}", file=sys.stderr)
    return 2


def _confidence(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1: {text}")
    return value


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return n


def _field_map(args: argparse.Namespace):
    """The user's --map as a FieldMap (kg.io.fields); a bad one raises FieldMapError."""
    return FieldMap.parse(getattr(args, "map", None) or [])


def _strict_refusal(args: argparse.Namespace) -> int | None:
    """--strict: read every input once, before any extraction or writing; if
    anything would be skipped, list it all and fail with exit code 3."""
    if not getattr(args, "strict", False) or not args.inputs:
        return None

    if STDIN in map(str, args.inputs):
        return _err("--strict reads the input twice, which standard input cannot be; write it to a file first")
    report = ReadReport()
    for _ in read_inputs(args.inputs, report, args.format, _field_map(args)):
        pass
    if not report.skipped:
        return None
    for s in report.skipped:
        print(f"kg: skipped {s}", file=sys.stderr)
    print(f"kg: error: --strict: {len(report.skipped)} input record(s) cannot be used; nothing written",
          file=sys.stderr)
    return 3


def _scale_options(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--workers", type=_positive_int, default=1, metavar="N",
                    help="extract in N processes; the output is the same as with one (default: 1)")
    sp.add_argument("--dask", metavar="ADDRESS",
                    help="extract on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786); "
                         "needs the dask extra, and kg installed on the workers")
    sp.add_argument("-q", "--quiet", action="store_true",
                    help="no progress bar (it is drawn on stderr only when that is a terminal)")


def _rules_options(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--rules", action="append", default=[], metavar="FILE",
                    help="rules file that extends or replaces kg's word lists, cue phrases and patterns "
                         "(JSON: {family: {\"extend\"|\"replace\": {key: [...]}}}; see docs/rules.md); "
                         "may be repeated, applied in order")
    sp.add_argument("--min-confidence", type=_confidence, default=0.0, metavar="C",
                    help="leave out facts whose confidence is below C (0..1); docs/rules.md gives the "
                         "share of facts that are right at each setting (default: 0, keep all)")


def _model_options(sp: argparse.ArgumentParser) -> None:
    group = sp.add_mutually_exclusive_group()
    group.add_argument("--model", metavar="DIR",
                       help="learned model folder made by `kg train` (default: the model shipped with kg)")
    group.add_argument("--no-model", action="store_true", help="extract with the rules alone")


def _input_options(sp: argparse.ArgumentParser, required: bool) -> None:
    sp.add_argument("inputs", nargs="+" if required else "*", metavar="INPUT",
                    help="abstract files: .jsonl (id, title, abstract and metadata; arXiv, Semantic Scholar "
                         "and OpenAlex rows too), .csv or .tsv (a header naming the columns, any case), or "
                         ".txt (one abstract per paragraph); .gz and .bz2 are read compressed; - is standard "
                         "input (docs/input.md)")
    sp.add_argument("--format", choices=["txt", "jsonl", "csv", "tsv"], default=None,
                    help="input format for every INPUT (default: from each file's extension; standard input "
                         "is told by its first line)")
    sp.add_argument("--map", action="append", default=[], metavar="FIELD=NAME,...",
                    help="read FIELD from the input's field or column NAME, e.g. "
                         "--map abstract=summary,id=paper_id (fields: id, title, abstract, date, year, authors, "
                         "venue, doi, arxiv, categories, url, collection); may be repeated")
    sp.add_argument("--gazetteer", action="append", default=[], metavar="FILE",
                    help="extra gazetteer (JSON Lines of {name, type, aliases}); may be repeated")
    _rules_options(sp)
    _model_options(sp)
    sp.add_argument("--strict", action="store_true",
                    help="fail (exit code 3, nothing written) if any input record would be skipped; "
                         "without it, skipped records are listed and the exit code is 1")


# -- extract ------------------------------------------------------------------
def _extract_options(args: argparse.Namespace) -> ExtractOptions:
    return ExtractOptions(gazetteers=tuple(args.gazetteer), rules=tuple(getattr(args, "rules", ())),
                          min_confidence=getattr(args, "min_confidence", 0.0), model=getattr(args, "model", None),
                          use_model=not getattr(args, "no_model", False))


def _extract_parser(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("extract", help="abstracts -> extraction records (JSON Lines)",
                        description="Extract entities and relations from abstracts and write one extraction "
                                    "record per abstract, in input order, as JSON Lines.")
    _input_options(sp, required=True)
    sp.add_argument("-o", "--output", metavar="FILE", help="write records here (default: stdout)")
    _scale_options(sp)
    sp.set_defaults(func=cmd_extract)


def cmd_extract(args: argparse.Namespace) -> int:
    refused = _strict_refusal(args)
    if refused is not None:
        return refused
    report = ReadReport()
    stream = record_stream(read_inputs(args.inputs, report, args.format, _field_map(args)), _extract_options(args),
                           workers=args.workers, dask=args.dask)
    if wanted(args.quiet):
        stream = track(stream, total=estimate_abstracts(args.inputs, args.format), desc="extract")
    try:
        if args.output:
            with atomic_write(args.output) as fh:
                for _, rec in stream:
                    fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        else:
            for _, rec in stream:
                sys.stdout.write(json.dumps(rec, ensure_ascii=False) + "\n")
    except DaskError as err:
        return _err(str(err))
    for s in report.skipped:
        print(f"kg: skipped {s}", file=sys.stderr)
    for w in report.warnings:
        print(f"kg: warning: {w}", file=sys.stderr)
    print(f"kg: {report.read} records written, {len(report.skipped)} skipped", file=sys.stderr)
    return 1 if report.skipped else 0


# -- build --------------------------------------------------------------------
def _build_parser(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("build", help="abstracts -> records, Turtle graph, HTML view and SPARQL store",
                        description="Build the knowledge graph. Writes DIR/records.jsonl, DIR/graph.ttl, "
                                    "DIR/graph.html and a SPARQL store in DIR/store, then prints a summary. "
                                    "With no INPUT it builds the demo corpus shipped with kg.")
    _input_options(sp, required=False)
    sp.add_argument("-o", "--output", default=DEFAULT_OUT, metavar="DIR", help=f"output folder (default: {DEFAULT_OUT}/)")
    sp.add_argument("--no-view", action="store_true", help="skip writing graph.html")
    _scale_options(sp)
    sp.add_argument("--update", action="store_true",
                    help="add INPUT to the build in DIR instead of rebuilding: new ids are added, known ids "
                         "with new text replaced, known ids with the same text left alone")
    sp.set_defaults(func=cmd_build)


def cmd_build(args: argparse.Namespace) -> int:
    from kg.builder import build, demo_corpus  # lazy: rdflib

    inputs = args.inputs or [demo_corpus()]
    if not args.inputs:
        print(f"kg: no input given; building the demo corpus {inputs[0]}", file=sys.stderr)
    if args.update and not args.inputs:
        return _err("--update needs the INPUT files to add")
    kept = f"nothing written; {args.output} left as it was"
    # A build replaces every output: an input that cannot be read at all (a typo
    # in its name, say) must stop it before anything is replaced.
    try:
        fields = _field_map(args)
        check_inputs(inputs, args.format)
    except InputError as err:
        return _err(f"{err}; {kept}")
    refused = _strict_refusal(args)
    if refused is not None:
        return refused
    if args.update:
        from kg.update import update  # lazy: rdflib
        try:
            summary = update(inputs, args.output, fmt=args.format, options=_extract_options(args),
                             view=not args.no_view, workers=args.workers, dask=args.dask, fields=fields)
        except DaskError as err:
            return _err(str(err))
        print("\n".join(summary.lines()))
        if summary.read == 0 and not summary.changed:
            return _err(f"no abstract could be read from the input; {kept}")
        return 1 if summary.skipped else 0
    try:
        summary = build(inputs, args.output, fmt=args.format, options=_extract_options(args), view=not args.no_view,
                        workers=args.workers, dask=args.dask, progress=not args.quiet, fields=fields)
    except DaskError as err:
        return _err(str(err))
    except NothingRead as err:
        for s in err.report.skipped:
            print(f"kg: skipped {s}", file=sys.stderr)
        return _err(f"{err}; {kept}")
    print("\n".join(summary.lines()))
    return 1 if summary.skipped else 0


# -- remove -------------------------------------------------------------------
def _remove_parser(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("remove", help="take papers out of a build, with all their facts",
                        description="Remove papers by id from the build in DIR: their named graphs go, entities "
                                    "no other paper mentions go with them, and records.jsonl, graph.ttl and "
                                    "graph.html are rewritten. Exit code 1 if some id was not in the store.")
    sp.add_argument("ids", nargs="+", metavar="ID", help="paper ids, as in records.jsonl")
    sp.add_argument("-o", "--output", "--store", dest="output", default=DEFAULT_OUT, metavar="DIR",
                    help=f"build folder (default: {DEFAULT_OUT}/)")
    sp.add_argument("--gazetteer", action="append", default=[], metavar="FILE",
                    help="extra gazetteer the build used (JSON Lines of {name, type, aliases}); may be repeated")
    sp.add_argument("--no-view", action="store_true", help="skip writing graph.html")
    sp.set_defaults(func=cmd_remove)


def cmd_remove(args: argparse.Namespace) -> int:
    from kg.update import remove  # lazy: rdflib

    summary = remove(args.ids, args.output, gazetteers=args.gazetteer, view=not args.no_view)
    print("\n".join(summary.lines()))
    return 1 if summary.not_found else 0


# -- query --------------------------------------------------------------------
def _query_parser(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("query", help="run a SPARQL query over a built store",
                        description="Run SPARQL over a store built by `kg build`. The default graph is the "
                                    "union of all papers' graphs.")
    sp.add_argument("query", nargs="?", help="the SPARQL query text")
    sp.add_argument("-f", "--file", metavar="FILE.rq", help="read the query from a file")
    sp.add_argument("--list", action="store_true", help="list the ready questions and their parameters")
    sp.add_argument("--ask", metavar="NAME", help="run a ready question (see --list)")
    sp.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a ready question's parameter, bound as a literal; names match in any case; may be repeated")
    sp.add_argument("--store", default=DEFAULT_OUT, metavar="DIR", help=f"build folder or store (default: {DEFAULT_OUT}/)")
    sp.add_argument("--format", dest="output_format", choices=["table", "csv", "tsv", "json"], default="table",
                    help="result format (default: table)")
    sp.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                    help="stop the query after this long; it then runs in a worker process that is killed "
                         "at the limit (default: no limit)")
    sp.set_defaults(func=cmd_query)


def cmd_query(args: argparse.Namespace) -> int:
    from kg.store import KGStore  # lazy: rdflib

    if args.list:
        sys.stdout.write(list_ready_questions())
        return 0
    try:
        if args.ask:
            params = parse_params(args.param)
            store = KGStore.at(args.store, read_only=True)
            text = ready_query(store, args.ask, params)
        else:
            if args.param:
                return _err("--param goes with --ask NAME")
            text = load_query(args.query, args.file)
            check_query(text)
            store = KGStore.at(args.store, read_only=True)
    except ValueError as err:  # a bad parameter, an unknown ready question, a refused query
        return _err(str(err))
    except OSError as err:  # the -f file
        return _err(f"cannot read {err.filename}: {err.strerror}")
    if args.timeout is not None and args.timeout <= 0:
        return _err("--timeout must be positive")
    try:
        if args.timeout is None:
            try:
                results = store.query(text, prefixes=query_prefixes())
            except SyntaxError as err:
                raise SyntaxError(describe(str(err), text)) from None
        else:  # in a worker process that is killed at the limit: the work really stops
            results = query_with_timeout(str(store.path), text, args.timeout)
        sys.stdout.write(results if isinstance(results, str) else format_results(results, args.output_format))
    except SyntaxError as err:
        return _err(f"SPARQL syntax error: {err}")
    except QueryTimeout as err:
        return _err(f"{err}; simplify the query or add a LIMIT")
    except QueryFailed as err:
        return _err(str(err))
    return 0


# -- serve --------------------------------------------------------------------
def _serve_parser(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("serve", help="serve the store as a read-only SPARQL endpoint, with the view and a query page",
                        description="Serve a built store over HTTP: the SPARQL 1.1 Protocol at /sparql (queries only; "
                                    "updates and SERVICE are refused), the graph view at /, a query page with the "
                                    "ready questions at /query. Nothing is fetched from the network.")
    sp.add_argument("--store", default=DEFAULT_OUT, metavar="DIR", help=f"build folder or store (default: {DEFAULT_OUT}/)")
    sp.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    sp.add_argument("--port", type=int, default=7878, help="port (default: 7878)")
    sp.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                    help="stop a query after this long, killing its worker (default: 10)")
    sp.add_argument("--max-rows", type=int, default=None, metavar="N",
                    help="send at most N result rows or triples; a cut result says so in itself and in the "
                         "X-KG-Truncated header (default: every row; --timeout bounds the work)")
    sp.add_argument("--workers", type=int, default=None, metavar="N",
                    help="query worker processes, each able to run one query at a time (default: CPUs, 2 to 8)")
    sp.add_argument("--cors", metavar="ORIGIN", help="send CORS headers allowing ORIGIN (e.g. '*'); off by default")
    sp.add_argument("--quiet", action="store_true", help="do not log each request")
    sp.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    if args.workers is None:
        args.workers = default_workers()
    if args.timeout <= 0 or (args.max_rows is not None and args.max_rows <= 0) or args.workers <= 0:
        return _err("--timeout, --max-rows and --workers must be positive")
    config = ServeConfig(build_dir=Path(args.store), host=args.host, port=args.port, timeout=args.timeout,
                         max_rows=args.max_rows, workers=args.workers, cors=args.cors, quiet=args.quiet)
    try:
        serve(config)
    except OSError as err:  # port in use, address not available
        return _err(f"cannot listen on {args.host}:{args.port}: {err.strerror or err}")
    return 0


# -- export -------------------------------------------------------------------
EXPORT_FORMATS = {"ttl": "Turtle", "nt": "N-Triples", "nq": "N-Quads", "trig": "TriG", "jsonld": "JSON-LD",
                  "graphml": "GraphML", "gexf": "GEXF"}
EXPORT_EXTENSIONS = {".ttl": "ttl", ".turtle": "ttl", ".nt": "nt", ".nq": "nq", ".trig": "trig",
                     ".jsonld": "jsonld", ".json": "jsonld", ".graphml": "graphml", ".gexf": "gexf"}


def export_format(output: str | None, given: str | None) -> str:
    """The export format: the output file's extension decides, --format must
    agree with it; to stdout --format decides (default Turtle)."""
    if not output:
        return given or "ttl"
    ext = Path(output).suffix.lower()
    implied = EXPORT_EXTENSIONS.get(ext)
    if implied is None:
        if given:
            return given
        known = ", ".join(EXPORT_EXTENSIONS)
        raise ValueError(f"cannot tell the export format from the name {output} (extensions: {known}); "
                         "pass --format")
    if given and given != implied:
        raise ValueError(f"--format {given} ({EXPORT_FORMATS[given]}) disagrees with the extension {ext} of "
                         f"{output} ({EXPORT_FORMATS[implied]}); drop --format or rename the file")
    return implied


def _export_parser(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("export", help="write the graph as Turtle, N-Triples, N-Quads, TriG, JSON-LD, GraphML or GEXF",
                        description="Export the store. Turtle and N-Triples get the union of all papers; "
                                    "N-Quads, TriG and JSON-LD keep each paper in its named graph; GraphML and "
                                    "GEXF give entities and relations as a property graph for Gephi or Cytoscape.")
    sp.add_argument("--store", default=DEFAULT_OUT, metavar="DIR", help=f"build folder or store (default: {DEFAULT_OUT}/)")
    sp.add_argument("--format", dest="export_format", choices=list(EXPORT_FORMATS), default=None,
                    help="output format; with -o the file's extension gives it (.ttl, .nt, .nq, .trig, .jsonld, "
                         ".graphml, .gexf) and --format must agree; to stdout the default is ttl")
    sp.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    sp.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from kg.store import KGStore  # lazy: rdflib

    try:
        fmt = export_format(args.output, args.export_format)
    except ValueError as err:
        return _err(str(err))
    store = KGStore.at(args.store, read_only=True)
    if fmt in ("graphml", "gexf"):
        from kg.graph import networkx_export  # lazy: rdflib
        write = lambda fh: networkx_export.write(store, fh, fmt)
    else:
        write = lambda fh: store.dump(fh, fmt)
    if args.output:
        with atomic_write(args.output, "wb", encoding=None) as fh:
            write(fh)
        print(f"kg: wrote {args.output} ({EXPORT_FORMATS[fmt]})", file=sys.stderr)
    else:
        write(sys.stdout.buffer)
    return 0


# -- view ---------------------------------------------------------------------
def _view_parser(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("view", help="write an HTML view of the graph, or of a part of it",
                        description="Write a self-contained HTML page (no network needed) drawing the entities "
                                    "and relations of a built store: search by any name, filters by type, and "
                                    "the papers, sentences and results behind each node and edge.")
    sp.add_argument("--store", default=DEFAULT_OUT, metavar="DIR", help=f"build folder or store (default: {DEFAULT_OUT}/)")
    sp.add_argument("--focus", metavar="NAME", help="show only this entity (any of its names) and its neighbourhood")
    sp.add_argument("--hops", type=int, default=1, metavar="N",
                    help="with --focus: how many relations away to reach (default: 1)")
    sp.add_argument("--types", metavar="T1,T2", help="show only these entity types, e.g. Method,Dataset")
    sp.add_argument("--max-nodes", type=_positive_int, default=4000, metavar="N",
                    help="above this many entities draw a summary of the best-connected ones (default: 4000)")
    sp.add_argument("-o", "--output", metavar="FILE", help="write here (default: DIR/view.html)")
    sp.set_defaults(func=cmd_view)


def cmd_view(args: argparse.Namespace) -> int:
    from kg.store import KGStore  # lazy: rdflib
    from kg.view import ViewError, parse_types, write_view  # lazy: rdflib

    store = KGStore.at(args.store, read_only=True)
    out = Path(args.output) if args.output else store.path.parent / "view.html"
    try:
        write_view(store, out, focus=args.focus, hops=args.hops, types=parse_types(args.types),
                   max_nodes=args.max_nodes)
    except ViewError as err:
        return _err(str(err))
    print(f"kg: wrote {out}", file=sys.stderr)
    return 0


# -- report -------------------------------------------------------------------
def _report_parser(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("report", help="write an HTML page of charts about the graph, each with its SPARQL",
                        description="Write one self-contained HTML page (no script, no network) with charts of a "
                                    "built store: the corpus in figures, the most named datasets, methods, tasks "
                                    "and metrics, leaderboards, proposals per task, datasets used together and "
                                    "how much rests on low-confidence facts. Under each chart is the SPARQL query "
                                    "that makes it, which runs as it stands with `kg query`.")
    sp.add_argument("--store", default=DEFAULT_OUT, metavar="DIR", help=f"build folder or store (default: {DEFAULT_OUT}/)")
    sp.add_argument("-o", "--output", metavar="FILE", help="write here (default: DIR/report.html)")
    sp.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from kg.report.page import write_report  # lazy: matplotlib
    from kg.store import KGStore  # lazy: rdflib

    store = KGStore.at(args.store, read_only=True)
    out = Path(args.output) if args.output else store.path.parent / "report.html"
    write_report(store, out)
    print(f"kg: wrote {out}", file=sys.stderr)
    return 0


# -- eval ---------------------------------------------------------------------
def _eval_parser(sub: argparse._SubParsersAction) -> None:
    eval_rules = _module_doc("kg.eval")
    error_kinds = _module_doc("kg.eval_kinds")
    sp = sub.add_parser("eval", help="score extraction records against gold records (P, R, F1)",
                        description="Score predicted extraction records against gold records: precision, recall "
                                    "and F1 per entity type, for proposed methods and per relation type. "
                                    "Either give PRED.jsonl, or --input to extract from the abstracts first.",
                        epilog=eval_rules.split("\n", 2)[2] + "\n\nKinds of error, in a table after the scores "
                               "(--kinds adds examples):\n" + error_kinds.split("\n", 2)[2],
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("gold", metavar="GOLD.jsonl", help="gold extraction records")
    sp.add_argument("pred", nargs="?", metavar="PRED.jsonl", help="predicted extraction records (same ids)")
    sp.add_argument("--input", metavar="INPUT.jsonl", help="abstracts to extract from instead of PRED.jsonl")
    sp.add_argument("--gazetteer", action="append", default=[], metavar="FILE",
                    help="extra gazetteer for --input (JSON Lines of {name, type, aliases}); may be repeated")
    _rules_options(sp)
    _model_options(sp)
    sp.add_argument("--kinds", type=_positive_int, nargs="?", const=3, default=None, metavar="N",
                    help="show N examples (default 3) of each kind of error (paper, gold, predicted) under the "
                         "table of error kinds (the kinds are described below)")
    sp.add_argument("--errors", action="store_true", help="also list misses and false hits, one per line")
    sp.add_argument("--json", action="store_true", help="print the figures as JSON")
    sp.set_defaults(func=cmd_eval)


def cmd_eval(args: argparse.Namespace) -> int:
    from kg.eval import EvalError, evaluate, read_records  # lazy: spaCy
    from kg.eval_kinds import error_kinds  # lazy: spaCy

    if (args.pred is None) == (args.input is None):
        return _err("give either PRED.jsonl or --input INPUT.jsonl (not both, not neither)")
    skipped = 0
    try:
        gold = list(read_records(args.gold))
        if args.pred is not None:
            pred = list(read_records(args.pred))
        else:
            from kg.extraction.record import Extractor  # lazy: spaCy

            report = ReadReport()
            extractor = Extractor.from_options(_extract_options(args))
            pred = [rec for _, rec in extractor.records(read_inputs([args.input], report, None))]
            for s in report.skipped:
                print(f"kg: skipped {s}", file=sys.stderr)
            skipped = len(report.skipped)
    except (EvalError, ValueError, FileNotFoundError) as err:
        return _err(str(err))
    result = evaluate(gold, pred)
    kinds = error_kinds(gold, pred, examples=args.kinds or 0)
    if args.json:
        out = result.as_dict()
        out["error_kinds"] = kinds.as_dict()
        if args.errors:
            out["errors"] = [vars(e) for e in result.errors]
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        lines = result.lines() + kinds.lines(examples=bool(args.kinds))
        if args.errors:
            lines += result.error_lines()
        print("\n".join(lines))
    return 1 if skipped else 0


# -- train --------------------------------------------------------------------
def _train_parser(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("train", help="gold records + their abstracts -> a learned model folder",
                        description="Train kg's learned parts (a tagger, an entity scorer, a relation linker) on "
                                    "gold records (docs/record.md; ids matched to the abstracts of --input), holding "
                                    "back one record in ten as a validation part that chooses, per entity type and "
                                    "relation, whether the rules, the learned parts or both run. Writes MODEL_DIR, "
                                    "a spaCy pipeline folder that --model loads (training/README.md).")
    sp.add_argument("gold", nargs="+", metavar="GOLD", help="gold record files (JSON Lines)")
    sp.add_argument("--input", nargs="+", required=True, metavar="TEXTS",
                    help="the abstracts the gold records describe (any input format kg reads)")
    sp.add_argument("-o", "--output", required=True, metavar="MODEL_DIR", help="model folder to write")
    sp.add_argument("--epochs", type=_positive_int, default=TaggerSettings.epochs, metavar="N",
                    help=f"passes over the gold for each tagger (default: {TaggerSettings.epochs})")
    sp.add_argument("--gazetteer", action="append", default=[], metavar="FILE",
                    help="extra gazetteer the rules use while training (and must use with the model)")
    sp.add_argument("--rules", action="append", default=[], metavar="FILE",
                    help="rules file the rules use while training (and must use with the model); may be repeated")
    sp.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    sp.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    from kg.trainer import report_lines, train  # lazy: spaCy

    say = (lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr))
    report = train(args.gold, args.input, args.output, TaggerSettings(epochs=args.epochs), rules=args.rules,
                   gazetteers=args.gazetteer, say=say, quiet=args.quiet)
    print(f"kg train: wrote {args.output} in {report.seconds:.0f} s")
    for line in report_lines(report):
        print(line)
    return 0


# -- parser -------------------------------------------------------------------
SUBCOMMANDS = (_extract_parser, _build_parser, _remove_parser, _query_parser, _serve_parser, _export_parser,
               _view_parser, _report_parser, _eval_parser, _train_parser)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kg",
        description="Build a knowledge graph of methods, datasets, tasks, metrics and results "
                    "from machine-learning paper abstracts, then query, view and export it.",
        epilog="Typical use:  kg build abstracts.jsonl -o out/   then   kg query --store out/ -f q.rq\n"
               "Each sub-command has its own --help.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"kg {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except (RuntimeError, ValueError, OSError) as err:
        # Input files are opened by the readers, which report their own faults;
        # an OSError that reaches here is an output that cannot be written.
        message = user_message(err)
        if message is None:
            raise
        return _err(message)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
