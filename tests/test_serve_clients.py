"""A running `kg serve` (the command, in its own process) as real clients use it:
SPARQLWrapper in each of its return formats for each query form, rdflib's
SPARQLStore, and plain HTTP through the cases of the SPARQL 1.1 Protocol that
apply to a read-only endpoint (the names are those of the W3C protocol tests)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
import warnings
from collections import Counter
from pathlib import Path
from xml.dom.minidom import Document

import pytest
import rdflib
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import CSV, JSON, JSONLD, N3, RDF, RDFXML, TSV, TURTLE, XML, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

import kg
from kg.cli import main

RETURN_FORMATS = [None, JSON, XML, TURTLE, N3, RDF, RDFXML, CSV, TSV, JSONLD]  # None: SPARQLWrapper's default
CIFAR = "https://w3id.org/mlkg/id/dataset/cifar-10"
SELECT_Q = 'SELECT ?e WHERE { ?e skos:prefLabel ?l FILTER(?l IN ("CIFAR-10", "ImageNet")) } ORDER BY ?e'
ASK_Q = 'ASK { ?e skos:prefLabel "LibriSpeech" }'
CONSTRUCT_Q = 'CONSTRUCT { ?e skos:prefLabel ?l } WHERE { ?e a mls:Dataset ; skos:prefLabel ?l }'
DESCRIBE_Q = f"DESCRIBE <{CIFAR}>"
# Every triple of the union five times over: more than 20,000 rows on the demo build.
MANY_Q = "SELECT ?s ?p ?o ?k WHERE { ?s ?p ?o VALUES ?k { 1 2 3 4 5 } }"
TYPO_LINE = "SPARQL syntax error: unknown keyword 'SELEC' at 1:1; a query begins with SELECT, CONSTRUCT, ASK or DESCRIBE"


class Served:
    """`kg serve` on a free port, as a user starts it."""

    def __init__(self, build_dir: Path, *extra: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "kg", "serve", "--store", str(build_dir), "--port", "0",
                                      "--quiet", "--workers", "2", *extra],
                                     stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        line = self.proc.stderr.readline()  # "kg: SPARQL endpoint at http://127.0.0.1:PORT/sparql, ..."
        if "SPARQL endpoint at " not in line:
            self.stop()
            raise RuntimeError(f"kg serve did not start: {line}")
        self.endpoint = line.split("SPARQL endpoint at ", 1)[1].split(",", 1)[0]
        self.banner = line

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stderr.close()


@pytest.fixture(scope="module")
def served(demo_build):
    srv = Served(demo_build)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def truth(demo_build):
    """What the store holds, through the Python API, to compare the clients' answers with."""
    with kg.open(demo_build) as g:
        return {
            "select": [r["e"] for r in g.query(SELECT_Q)],
            "construct": {(r["subject"], r["object"]) for r in g.query(CONSTRUCT_Q)},
            # distinct: the union states a triple once per graph that holds it
            "describe": len({(r["subject"], r["predicate"], r["object"]) for r in g.query(DESCRIBE_Q)}),
            "triples": g.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")[0]["n"],
        }


def wrapper(srv: Served, query: str, fmt: str | None, method: str = "GET") -> SPARQLWrapper:
    sw = SPARQLWrapper(srv.endpoint)
    if fmt is not None:
        sw.setReturnFormat(fmt)
    sw.setMethod(method)
    sw.setQuery(query)
    return sw


def convert(sw: SPARQLWrapper):
    """The converted result, with SPARQLWrapper's own warnings about formats that
    cannot fit a query form (it sends Accept */* for those) and rdflib's
    deprecation of the graph class SPARQLWrapper parses into set aside."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = sw.query()
        return result.convert(), result.info()["content-type"]


def http(srv: Served, path: str = "", data: bytes | None = None, headers: dict | None = None,
         method: str | None = None) -> tuple[int, dict, bytes]:
    base = srv.endpoint.rsplit("/sparql", 1)[0]
    req = urllib.request.Request(base + (path or "/sparql"), data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def get(srv: Served, params: dict | list, headers: dict | None = None) -> tuple[int, dict, bytes]:
    return http(srv, "/sparql?" + urllib.parse.urlencode(params), headers=headers)


# -- SPARQLWrapper: each query form in each return format --------------------------
def solutions(out, ctype: str) -> list[str]:
    """The ?e values of a SELECT answer in whatever format came back."""
    if isinstance(out, dict):
        return [b["e"]["value"] for b in out["results"]["bindings"]]
    if isinstance(out, Document):
        return [u.firstChild.data for u in out.getElementsByTagName("uri")]
    text = out.decode("utf-8")
    if ctype.startswith("text/csv"):
        return [row[0] for row in list(csv.reader(io.StringIO(text)))[1:]]
    assert ctype.startswith("text/tab-separated-values"), ctype
    return [line.strip("<>") for line in text.splitlines()[1:]]


@pytest.mark.parametrize("fmt", RETURN_FORMATS)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_select_in_each_return_format(served, truth, fmt, method):
    out, ctype = convert(wrapper(served, SELECT_Q, fmt, method))
    assert solutions(out, ctype) == truth["select"] and len(truth["select"]) == 2
    if fmt in (None, XML):
        assert ctype.startswith("application/sparql-results+xml")
    elif fmt in (CSV, TSV):
        assert ctype.startswith({CSV: "text/csv", TSV: "text/tab-separated-values"}[fmt])
    else:  # JSON, and the graph formats that a result set cannot be given in: the default, JSON
        assert ctype.startswith("application/sparql-results+json")


@pytest.mark.parametrize("fmt", RETURN_FORMATS)
def test_ask_in_each_return_format(served, fmt):
    out, ctype = convert(wrapper(served, ASK_Q, fmt))
    if isinstance(out, dict):
        assert out["boolean"] is True
    elif isinstance(out, Document):
        assert out.getElementsByTagName("boolean")[0].firstChild.data == "true"
    else:
        assert out.decode().strip() == "true" and ctype.startswith(("text/csv", "text/tab-separated-values"))


def graph_of(out, ctype: str) -> rdflib.Graph:
    if isinstance(out, rdflib.Graph):
        return out
    assert ctype.startswith("text/turtle"), ctype
    return rdflib.Graph().parse(data=out.decode("utf-8"), format="turtle")


@pytest.mark.parametrize("fmt", RETURN_FORMATS)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_construct_in_each_return_format(served, truth, fmt, method):
    out, ctype = convert(wrapper(served, CONSTRUCT_Q, fmt, method))
    expected = {None: "application/rdf+xml", XML: "application/rdf+xml", RDF: "application/rdf+xml",
                RDFXML: "application/rdf+xml", JSON: "application/ld+json", JSONLD: "application/ld+json"}
    assert ctype.startswith(expected.get(fmt, "text/turtle"))
    got = {(str(s), str(o)) for s, _, o in graph_of(out, ctype)}
    assert got == truth["construct"] and len(got) > 5


def test_construct_with_the_default_format_is_a_graph(served, truth):
    """SPARQLWrapper's default is XML, sent as format=xml: RDF/XML for a CONSTRUCT."""
    out, _ = convert(wrapper(served, CONSTRUCT_Q, None))
    assert isinstance(out, rdflib.Graph)
    assert {(str(s), str(o)) for s, _, o in out} == truth["construct"]


@pytest.mark.parametrize("fmt", RETURN_FORMATS)
def test_describe_in_each_return_format(served, truth, fmt):
    out, ctype = convert(wrapper(served, DESCRIBE_Q, fmt))
    graph = graph_of(out, ctype)
    assert len(graph) == truth["describe"] > 3
    assert (rdflib.URIRef(CIFAR), rdflib.SKOS.prefLabel, rdflib.Literal("CIFAR-10")) in graph


def test_a_typo_d_keyword_is_one_line_that_names_it(served, demo_build, capsys):
    with pytest.raises(QueryBadFormed) as err, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SPARQLWrapper cannot tell the query's form either, and says so
        wrapper(served, "SELEC ?e WHERE { ?e a mlkg:Method }", JSON).query()
    assert TYPO_LINE in str(err.value)
    status, _, body = get(served, {"query": "SELEC ?e WHERE { ?e a mlkg:Method }"})
    assert status == 400 and body.decode() == TYPO_LINE + "\n"
    # the same line from the command line and from Python
    assert main(["query", "--store", str(demo_build), "SELEC ?e WHERE { ?e a mlkg:Method }"]) == 2
    assert capsys.readouterr().err == f"kg: error: {TYPO_LINE}\n"
    with kg.open(demo_build) as g, pytest.raises(kg.KGError) as api_err:
        g.query("SELEC ?e WHERE { ?e a mlkg:Method }")
    assert str(api_err.value) == TYPO_LINE


# -- rdflib's SPARQLStore -------------------------------------------------------------
def test_sparqlstore_gets_every_row_of_a_20000_row_answer(served, truth):
    store = SPARQLStore(served.endpoint)
    assert len(list(store.query(MANY_Q + " LIMIT 20000"))) == 20_000
    everything = list(store.query(MANY_Q))
    assert len(everything) == 5 * truth["triples"] > 20_000
    assert Counter(int(row[3]) for row in everything) == {k: truth["triples"] for k in range(1, 6)}
    graph = rdflib.Graph(store=SPARQLStore(served.endpoint))
    assert sum(1 for _ in graph.triples((None, None, None))) == truth["triples"]


def test_a_row_cap_is_opt_in_and_shows_in_the_results(demo_build):
    srv = Served(demo_build, "--max-rows", "100")
    try:
        assert "at most 100 rows" in srv.banner
        out, _ = convert(wrapper(srv, MANY_Q, JSON))
        assert len(out["results"]["bindings"]) == 100
        assert out["head"]["link"] == ["urn:kg:truncated-after-100-rows"]
        doc, _ = convert(wrapper(srv, MANY_Q, XML))
        links = [link.getAttribute("href") for link in doc.getElementsByTagName("link")]
        assert links == ["urn:kg:truncated-after-100-rows"] and len(doc.getElementsByTagName("result")) == 100
        status, headers, _ = get(srv, {"query": MANY_Q})
        assert status == 200 and headers["X-KG-Truncated"].startswith("true") and headers["X-KG-Rows"] == "100"
    finally:
        srv.stop()


# -- plain HTTP: the SPARQL 1.1 Protocol's cases for a read-only endpoint ---------------
SELECT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
DIRECT = {"Content-Type": "application/sparql-query"}
PAPER1 = "https://w3id.org/mlkg/graph/paper/demo-01"
PAPER2 = "https://w3id.org/mlkg/graph/paper/demo-02"


def count(body: bytes) -> int:
    return int(json.loads(body)["results"]["bindings"][0]["n"]["value"])


def graph_size(srv, name: str) -> int:
    _, _, body = get(srv, {"query": f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{name}> {{ ?s ?p ?o }} }}"})
    return count(body)


def test_query_get_post_form_and_post_direct(served, truth):
    ok = [get(served, {"query": SELECT_ALL}),
          http(served, data=urllib.parse.urlencode({"query": SELECT_ALL}).encode(), headers=FORM),
          http(served, data=SELECT_ALL.encode(), headers=DIRECT)]
    for status, headers, body in ok:
        assert status == 200 and headers["Content-Type"].startswith("application/sparql-results+json")
        assert count(body) == truth["triples"]


def test_query_dataset_default_and_named_graphs(served):
    one, two = graph_size(served, PAPER1), graph_size(served, PAPER2)
    # query-dataset-default-graph(s): the default graph is the merge of the graphs named
    _, _, body = get(served, [("query", SELECT_ALL), ("default-graph-uri", PAPER1)])
    assert count(body) == one
    _, _, body = get(served, [("query", SELECT_ALL), ("default-graph-uri", PAPER1), ("default-graph-uri", PAPER2)])
    assert one < count(body) <= one + two
    # query-dataset-named-graphs: GRAPH ?g sees the named graphs given, and only those
    named = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g"
    status, _, body = http(served, data=urllib.parse.urlencode(
        [("query", named), ("named-graph-uri", PAPER1), ("named-graph-uri", PAPER2)]).encode(), headers=FORM)
    assert status == 200
    assert [b["g"]["value"] for b in json.loads(body)["results"]["bindings"]] == [PAPER1, PAPER2]
    # a FROM clause sets the dataset (kg's default, the union of all graphs, gives way) ...
    from_one = f"SELECT (COUNT(*) AS ?n) FROM <{PAPER1}> WHERE {{ ?s ?p ?o }}"
    assert count(get(served, {"query": from_one})[2]) == one
    # ... and query-multiple-dataset: the protocol's dataset wins over the query's
    assert count(get(served, [("query", from_one), ("default-graph-uri", PAPER2)])[2]) == two
    # query-dataset-full: both at once
    _, _, body = get(served, [("query", "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o . GRAPH ?g { ?s ?p ?o } }"),
                              ("default-graph-uri", PAPER1), ("named-graph-uri", PAPER1)])
    assert count(body) == one


@pytest.mark.parametrize("query,accept,media", [
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 2", "application/sparql-results+xml", "application/sparql-results+xml"),
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 2", "application/sparql-results+json", "application/sparql-results+json"),
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 2", "text/csv", "text/csv"),
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 2", "text/tab-separated-values", "text/tab-separated-values"),
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 2", "text/csv;q=0.5, application/sparql-results+xml",
     "application/sparql-results+xml"),
    (ASK_Q, "application/sparql-results+xml", "application/sparql-results+xml"),
    (ASK_Q, "*/*", "application/sparql-results+json"),
    (DESCRIBE_Q, "application/rdf+xml", "application/rdf+xml"),
    (DESCRIBE_Q, "text/turtle", "text/turtle"),
    (CONSTRUCT_Q, "application/n-triples", "application/n-triples"),
    (CONSTRUCT_Q, "application/ld+json", "application/ld+json"),
    (CONSTRUCT_Q, "application/xml", "application/rdf+xml"),
    (CONSTRUCT_Q, "*/*", "text/turtle"),
], ids=lambda v: v.split()[0] if " " in v else v)
def test_query_content_type_follows_accept(served, query, accept, media):
    status, headers, body = get(served, {"query": query}, {"Accept": accept})
    assert status == 200 and headers["Content-Type"].split(";")[0] == media and body


@pytest.mark.parametrize("fmt,select_media,graph_media", [
    ("xml", "application/sparql-results+xml", "application/rdf+xml"),
    ("json", "application/sparql-results+json", "application/ld+json"),
    ("rdf+xml", "application/sparql-results+json", "application/rdf+xml"),
    ("turtle", "application/sparql-results+json", "text/turtle"),
    ("csv", "text/csv", "text/turtle"),
])
def test_the_format_parameter_means_what_the_query_form_can_give(served, fmt, select_media, graph_media):
    """format=xml is SPARQL XML results for SELECT and RDF/XML for CONSTRUCT, as other
    servers read it; a format the form cannot take falls back to the Accept header (here none)."""
    status, headers, _ = get(served, {"query": SELECT_ALL, "format": fmt})
    assert status == 200 and headers["Content-Type"].split(";")[0] == select_media
    status, headers, body = get(served, {"query": CONSTRUCT_Q, "format": fmt})
    assert status == 200 and headers["Content-Type"].split(";")[0] == graph_media
    fmt_name = {"application/rdf+xml": "xml", "application/ld+json": "json-ld", "text/turtle": "turtle"}[graph_media]
    assert len(rdflib.Graph().parse(data=body, format=fmt_name)) > 5


@pytest.mark.parametrize("name,request_args,status", [
    ("bad-query-method", {"method": "PUT", "data": SELECT_ALL.encode(), "headers": DIRECT}, 405),
    ("bad-multiple-queries", {"path": "/sparql?query=ASK%7B%7D&query=ASK%7B%7D"}, 400),
    ("bad-query-missing-query", {"path": "/sparql"}, 400),
    ("bad-query-wrong-media-type", {"data": SELECT_ALL.encode(), "headers": {"Content-Type": "text/plain"}}, 415),
    ("bad-query-missing-form-type", {"data": b"query=ASK%7B%7D", "headers": {"Content-Type": ""}}, 415),
    ("bad-query-non-utf8", {"data": "ASK { ?s ?p \"caf\u00e9\" }".encode("latin-1"), "headers": DIRECT}, 400),
    ("bad-query-syntax", {"path": "/sparql?query=ASK%20%7B"}, 400),
    ("bad-update-get", {"path": "/sparql?update=" + urllib.parse.quote("CLEAR ALL")}, 403),
    ("bad-update-post-direct", {"data": b"CLEAR ALL", "headers": {"Content-Type": "application/sparql-update"}}, 403),
    ("bad-update-post-form", {"data": b"update=CLEAR%20ALL", "headers": FORM}, 403),
    ("bad-update-as-query", {"data": b"DROP ALL", "headers": DIRECT}, 403),
    ("unacceptable-result-type", {"path": "/sparql?query=ASK%7B%7D", "headers": {"Accept": "image/png"}}, 406),
], ids=lambda v: v if isinstance(v, str) else None)
def test_bad_requests_are_refused_with_the_protocol_status(served, name, request_args, status):
    got, headers, body = http(served, **request_args)
    assert got == status, (name, body)
    assert headers["Content-Type"].startswith("text/plain") and body.count(b"\n") == 1 and body.strip()


def test_head_and_charset(served):
    status, headers, body = http(served, "/sparql?" + urllib.parse.urlencode({"query": SELECT_ALL}), method="HEAD")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 0
    _, headers, _ = get(served, {"query": SELECT_ALL}, {"Accept": "text/csv"})
    assert headers["Content-Type"] == "text/csv; charset=utf-8"
