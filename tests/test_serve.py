"""`kg serve` through a standard SPARQL client (SPARQLWrapper) and plain HTTP."""

from __future__ import annotations

import csv
import io
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from SPARQLWrapper import CSV, JSON, TSV, TURTLE, XML, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

from kg.serve import ServeConfig, make_server

TIMEOUT = 2.0
MAX_ROWS = 50
# Four unbound patterns joined: billions of rows on any real graph, so it never ends by itself.
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
PREFIXES = ("PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n"
            "PREFIX mlkg: <https://w3id.org/mlkg/ontology#>\n")


def start(build_dir: Path, **kw):
    srv = make_server(ServeConfig(build_dir=build_dir, port=0, workers=2, timeout=TIMEOUT,
                                  max_rows=MAX_ROWS, quiet=True, **kw))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


@pytest.fixture(scope="module")
def server(demo_build):
    srv = start(demo_build)
    yield srv
    srv.shutdown()
    srv.server_close()


def client(srv, fmt=JSON, method="GET") -> SPARQLWrapper:
    sw = SPARQLWrapper(srv.url + "/sparql")
    sw.setReturnFormat(fmt)
    sw.setMethod(method)
    return sw


def http(srv, path: str, data: bytes | None = None, headers: dict | None = None) -> tuple[int, dict, bytes]:
    req = urllib.request.Request(srv.url + path, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


# -- the protocol, through SPARQLWrapper ---------------------------------------
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_select_as_json(server, method):
    sw = client(server, JSON, method)
    sw.setQuery(PREFIXES + 'SELECT ?e WHERE { ?e skos:prefLabel "CIFAR-10" }')
    out = sw.queryAndConvert()
    assert out["head"]["vars"] == ["e"]
    assert [b["e"]["type"] for b in out["results"]["bindings"]] == ["uri"]


def test_post_as_sparql_query_body(server):
    sw = client(server, JSON, "POST")
    sw.setRequestMethod("postdirectly")
    sw.setQuery(PREFIXES + 'SELECT ?l WHERE { ?e skos:prefLabel ?l FILTER(?l = "ImageNet") }')
    out = sw.queryAndConvert()
    assert [b["l"]["value"] for b in out["results"]["bindings"]] == ["ImageNet"]


def test_select_as_xml_csv_and_tsv(server):
    query = PREFIXES + 'SELECT ?e ?l WHERE { ?e skos:prefLabel ?l FILTER(?l = "CIFAR-10") }'
    sw = client(server, XML)
    sw.setQuery(query)
    doc = sw.queryAndConvert()  # an xml.dom Document
    assert doc.getElementsByTagName("literal")[0].firstChild.data == "CIFAR-10"
    sw = client(server, CSV)
    sw.setQuery(query)
    rows = list(csv.reader(io.StringIO(sw.queryAndConvert().decode())))
    assert rows[0] == ["e", "l"] and rows[1][1] == "CIFAR-10"
    sw = client(server, TSV)
    sw.setQuery(query)
    lines = sw.queryAndConvert().decode().splitlines()
    assert lines[0] == "?e\t?l" and lines[1].endswith('\t"CIFAR-10"') and lines[1].startswith("<https://")


def test_ask(server):
    sw = client(server, JSON)
    sw.setQuery(PREFIXES + 'ASK { ?e skos:prefLabel "LibriSpeech" }')
    assert sw.queryAndConvert()["boolean"] is True


def test_construct_as_turtle_and_ntriples(server):
    import rdflib

    query = PREFIXES + 'CONSTRUCT { ?e skos:prefLabel ?l } WHERE { ?e skos:prefLabel ?l FILTER(?l = "CIFAR-10") }'
    sw = client(server, TURTLE)
    sw.setQuery(query)
    g = sw.queryAndConvert()
    graph = g if isinstance(g, rdflib.Graph) else rdflib.Graph().parse(data=g, format="turtle")
    assert {str(o) for o in graph.objects()} == {"CIFAR-10"}
    status, headers, body = http(server, "/sparql?" + urllib.parse.urlencode({"query": query}),
                                 headers={"Accept": "application/n-triples"})
    assert status == 200 and headers["Content-Type"].startswith("application/n-triples")
    assert body.decode().strip().endswith('"CIFAR-10" .')


def test_describe(server):
    status, headers, body = http(server, "/sparql?" + urllib.parse.urlencode(
        {"query": "DESCRIBE <https://w3id.org/mlkg/id/dataset/cifar-10>"}), headers={"Accept": "text/turtle"})
    assert status == 200 and headers["Content-Type"].startswith("text/turtle") and b"CIFAR-10" in body


def test_unsupported_result_type_is_406(server):
    status, _, body = http(server, "/sparql?query=ASK%7B%7D", headers={"Accept": "image/png"})
    assert status == 406 and b"application/sparql-results+json" in body


# -- refusals ------------------------------------------------------------------
def test_update_is_refused_whichever_way_it_comes(server):
    sw = client(server, JSON, "POST")
    sw.setQuery("INSERT DATA { <http://example.org/a> <http://example.org/b> <http://example.org/c> }")
    with pytest.raises(urllib.error.HTTPError) as err:  # SPARQLWrapper passes 403 through as is
        sw.query()
    assert err.value.code == 403 and b"read-only" in err.value.read()
    update = "INSERT DATA { <http://example.org/a> <http://example.org/b> <http://example.org/c> }"
    for data, ctype in [(urllib.parse.urlencode({"update": update}).encode(), "application/x-www-form-urlencoded"),
                        (update.encode(), "application/sparql-update"),
                        (update.encode(), "application/sparql-query")]:
        status, _, body = http(server, "/sparql", data, {"Content-Type": ctype})
        assert status == 403 and b"read-only" in body
    status, _, _ = http(server, "/update", update.encode(), {"Content-Type": "application/sparql-update"})
    assert status in (403, 404)
    sw = client(server, JSON)
    sw.setQuery(PREFIXES + 'ASK { <http://example.org/a> ?p ?o }')
    assert sw.queryAndConvert()["boolean"] is False


def test_service_is_refused_before_anything_is_sent(server):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(1.0)
    port = listener.getsockname()[1]
    try:
        sw = client(server, JSON)
        sw.setQuery(f"SELECT * WHERE {{ SERVICE <http://127.0.0.1:{port}/sparql> {{ ?s ?p ?o }} }}")
        with pytest.raises(urllib.error.HTTPError) as err:
            sw.query()
        assert err.value.code == 403 and b"SERVICE" in err.value.read()
        with pytest.raises(socket.timeout):
            listener.accept()  # nobody called
    finally:
        listener.close()


def test_syntax_error_is_400_with_the_parser_message(server):
    sw = client(server, JSON)
    sw.setQuery("SELECT * WHERE { ?s ?p }")
    with pytest.raises(QueryBadFormed) as err:
        sw.query()
    assert "SPARQL syntax error: unexpected end of the query at 1:" in str(err.value)


def test_runaway_query_is_stopped_and_its_worker_replaced(server):
    before = set(server.pool.pids())
    t0 = time.monotonic()
    sw = client(server, JSON)
    sw.setQuery(RUNAWAY)
    with pytest.raises(urllib.error.HTTPError) as err:
        sw.query()
    took = time.monotonic() - t0
    assert err.value.code == 503 and b"time limit" in err.value.read()
    assert TIMEOUT <= took < TIMEOUT + 5
    killed = before - set(server.pool.pids())
    assert len(killed) == 1
    pid = killed.pop()
    # the killed worker is gone, not left computing
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
    sw = client(server, JSON)
    sw.setQuery("ASK { ?s ?p ?o }")
    assert sw.queryAndConvert()["boolean"] is True


def test_rows_stop_at_the_cap_and_the_results_say_so(server):
    query = "/sparql?query=" + urllib.parse.quote("SELECT * WHERE { ?s ?p ?o }")
    status, headers, body = http(server, query, headers={"Accept": "application/sparql-results+json"})
    assert status == 200
    doc = json.loads(body)
    assert len(doc["results"]["bindings"]) == MAX_ROWS
    assert headers["X-KG-Truncated"].startswith("true")
    assert doc["head"]["link"] == [f"urn:kg:truncated-after-{MAX_ROWS}-rows"]
    status, headers, body = http(server, query, headers={"Accept": "application/sparql-results+xml"})
    assert status == 200 and f'<link href="urn:kg:truncated-after-{MAX_ROWS}-rows"/>'.encode() in body
    assert body.count(b"<result>") == MAX_ROWS
    status, headers, body = http(server, "/sparql?query=" + urllib.parse.quote(
        "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"), headers={"Accept": "application/n-triples"})
    lines = body.decode().splitlines()
    assert lines[0].startswith("# kg: truncated: only the first 50 triples") and len(lines) == MAX_ROWS + 1
    # An answer under the cap carries no mark.
    status, headers, body = http(server, "/sparql?query=" + urllib.parse.quote("SELECT * WHERE { ?s ?p ?o } LIMIT 3"),
                                 headers={"Accept": "application/sparql-results+json"})
    assert "X-KG-Truncated" not in headers and "link" not in json.loads(body)["head"]


def test_concurrent_clients_all_get_answers(server):
    answers = []

    def one():
        sw = client(server, JSON)
        sw.setQuery(PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { ?e skos:prefLabel ?l }")
        answers.append(int(sw.queryAndConvert()["results"]["bindings"][0]["n"]["value"]))

    threads = [threading.Thread(target=one) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(answers) == 12 and len(set(answers)) == 1 and answers[0] > 0


# -- pages, ready questions, CORS, binding ----------------------------------------
def test_view_and_query_page_need_no_network(server):
    for path in ("/", "/query"):
        status, headers, body = http(server, path)
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert b"<script src=\"http" not in body and b"<link href=\"http" not in body
    _, _, page = http(server, "/query")
    assert b"leaderboard" in page and b"<textarea" in page


def test_ready_question_over_http(server):
    status, _, body = http(server, "/queries")
    assert status == 200 and "leaderboard" in {q["name"] for q in json.loads(body)}
    status, _, body = http(server, "/ask/methods-on-dataset?dataset=cifar10",
                           headers={"Accept": "application/sparql-results+json"})
    assert status == 200
    assert "HeliosNet" in {b["methodLabel"]["value"] for b in json.loads(body)["results"]["bindings"]}
    status, _, body = http(server, "/ask/methods-on-dataset?datset=x")
    assert status == 400 and b"no parameter" in body
    assert http(server, "/ask/nothing")[0] == 404


def test_no_cors_unless_asked(server, demo_build):
    _, headers, _ = http(server, "/sparql?query=ASK%7B%7D", headers={"Origin": "http://example.org"})
    assert "Access-Control-Allow-Origin" not in headers
    srv = start(demo_build, cors="*")
    try:
        _, headers, _ = http(srv, "/sparql?query=ASK%7B%7D", headers={"Origin": "http://example.org"})
        assert headers["Access-Control-Allow-Origin"] == "*"
    finally:
        srv.shutdown()
        srv.server_close()


def test_binds_to_loopback_by_default(server):
    assert server.server_address[0] == "127.0.0.1"
    assert ServeConfig(build_dir=Path(".")).host == "127.0.0.1"


def test_missing_store_is_a_clear_error(tmp_path):
    from kg.store import StoreError

    with pytest.raises(StoreError, match="kg build"):
        make_server(ServeConfig(build_dir=tmp_path, port=0))


def test_server_started_mid_commit_finishes_the_commit_and_serves(demo_build, tmp_path):
    """The instant of a build commit: the new store is staged and committed but
    not yet moved into place, and no store folder is where readers look."""
    import json
    import shutil

    from kg.io.outputs import COMMIT, STAGE_PREFIX

    stage = tmp_path / f"{STAGE_PREFIX}interrupted"
    shutil.copytree(demo_build / "store", stage / "store")
    (stage / COMMIT).write_text(json.dumps({"outputs": ["store"], "drop": []}), encoding="utf-8")
    assert not (tmp_path / "store").exists()
    srv = start(tmp_path)
    try:
        status, _, body = http(srv, "/sparql?query=" + urllib.parse.quote("ASK { ?s ?p ?o }"),
                               headers={"Accept": "application/sparql-results+json"})
        assert status == 200 and json.loads(body)["boolean"] is True
        assert (tmp_path / "store" / "CURRENT").exists() and not stage.exists()
    finally:
        srv.shutdown()
        srv.server_close()


def test_query_command_timeout_stops_the_work_like_the_server(demo_build, capsys):
    from kg.cli import main

    t0 = time.monotonic()
    code = main(["query", "--store", str(demo_build), "--timeout", "1", RUNAWAY])
    took = time.monotonic() - t0
    _, err = capsys.readouterr()
    assert code == 2 and "1 s time limit" in err and err.count("\n") == 1
    assert took < 10
    for query, fmt in [("SELECT ?s ?o WHERE { ?s skos:prefLabel ?o } ORDER BY ?s ?o LIMIT 5", "csv"),
                       ("ASK { ?s ?p ?o }", "table"),
                       ("CONSTRUCT { ?s skos:prefLabel ?o } WHERE { ?s skos:prefLabel ?o } ORDER BY ?s ?o LIMIT 3",
                        "table")]:
        assert main(["query", "--store", str(demo_build), "--format", fmt, PREFIXES + query]) == 0
        plain = capsys.readouterr().out
        assert main(["query", "--store", str(demo_build), "--format", fmt, "--timeout", "30", PREFIXES + query]) == 0
        limited = capsys.readouterr().out
        assert limited == plain and plain.strip()
    assert main(["query", "--store", str(demo_build), "--timeout", "30", "SELECT ?s WHERE { ?s ?p }"]) == 2
    assert "SPARQL syntax error: unexpected end of the query at 1:" in capsys.readouterr().err
