"""RDF that users import is parsed without fetching anything and without
expanding XML entities. A local HTTP server records every request, so "not
fetched" is observed, not assumed."""

from __future__ import annotations

import http.server
import json
import threading
import time

import pytest

from kg.io.rdf_input import RDFInputError, parse_rdf, parse_rdf_to_rdflib


@pytest.fixture
def server():
    """(base URL, list of requested paths) of a throwaway local server."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            body = json.dumps({"@context": {"name": "http://attacker.example/name"}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/ld+json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}", hits
    srv.shutdown()
    srv.server_close()


@pytest.mark.parametrize("context", [
    "{url}/ctx.jsonld",
    [{"ex": "http://example.org/"}, "{url}/ctx.jsonld"],
    {"@import": "{url}/ctx.jsonld", "ex": "http://example.org/"},
])
def test_remote_jsonld_context_is_refused_and_not_fetched(tmp_path, server, context):
    url, hits = server
    doc = {"@context": json.loads(json.dumps(context).replace("{url}", url)),
           "@id": "http://example.org/a", "name": "GridNet"}
    path = tmp_path / "gaz.jsonld"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(RDFInputError, match=r"gaz\.jsonld: JSON-LD with a remote @context"):
        parse_rdf(path)
    with pytest.raises(RDFInputError):
        parse_rdf_to_rdflib(path)
    assert hits == []


def test_inline_jsonld_context_loads(tmp_path):
    path = tmp_path / "gaz.jsonld"
    path.write_text(json.dumps({"@context": {"name": "http://example.org/name"},
                                "@id": "http://example.org/gridnet", "name": "GridNet"}), encoding="utf-8")
    (quad,) = parse_rdf(path)
    assert (quad.subject.value, quad.predicate.value, quad.object.value) == \
        ("http://example.org/gridnet", "http://example.org/name", "GridNet")
    assert len(parse_rdf_to_rdflib(path)) == 1


def test_external_xml_entities_are_refused_and_not_fetched(tmp_path, server):
    url, hits = server
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-CONTENT", encoding="utf-8")
    path = tmp_path / "upd.rdf"
    path.write_text(f"""<?xml version="1.0"?>
<!DOCTYPE rdf:RDF [
  <!ENTITY remote SYSTEM "{url}/entity">
  <!ENTITY local SYSTEM "{secret.as_uri()}">
]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
  <rdf:Description rdf:about="http://example.org/a"><ex:p>&remote;</ex:p><ex:q>&local;</ex:q></rdf:Description>
</rdf:RDF>""", encoding="utf-8")
    with pytest.raises(RDFInputError, match=r"upd\.rdf:2: RDF/XML with a DOCTYPE declaring entities is refused"):
        parse_rdf(path)
    assert hits == []


def test_entity_expansion_bomb_is_refused_quickly(tmp_path):
    # Ten levels of ten-fold expansion: 10^10 characters if a parser expanded it.
    decls = '<!ENTITY e0 "laugh">' + "".join(
        f'<!ENTITY e{i} "{("&e" + str(i - 1) + ";") * 10}">' for i in range(1, 11))
    path = tmp_path / "bomb.xml"
    path.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [{decls}]>\n'
                    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">'
                    '<rdf:Description rdf:about="http://example.org/a"><ex:p>&e10;</ex:p></rdf:Description></rdf:RDF>',
                    encoding="utf-8")
    t0 = time.perf_counter()
    with pytest.raises(RDFInputError, match="entities is refused"):
        parse_rdf(path)
    assert time.perf_counter() - t0 < 1.0


def test_plain_rdfxml_loads(tmp_path):
    path = tmp_path / "ok.rdf"
    path.write_text('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
                    'xmlns:ex="http://example.org/"><rdf:Description rdf:about="http://example.org/a">'
                    '<ex:p>v</ex:p></rdf:Description></rdf:RDF>', encoding="utf-8")
    assert [q.object.value for q in parse_rdf(path)] == ["v"]


def test_turtle_errors_name_file_and_line(tmp_path):
    path = tmp_path / "upd.ttl"
    path.write_text("@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:a ex:b .\n", encoding="utf-8")
    with pytest.raises(RDFInputError, match=r"upd\.ttl:3: not valid Turtle"):
        parse_rdf(path)
    with pytest.raises(RDFInputError, match="no such file"):
        parse_rdf(tmp_path / "missing.ttl")
    with pytest.raises(RDFInputError, match="cannot tell the RDF format"):
        parse_rdf(tmp_path / "x.docx")


def test_relative_iris_resolve_against_the_file_not_the_network(tmp_path):
    path = tmp_path / "rel.ttl"
    path.write_text("<a> <http://example.org/p> <b> .\n", encoding="utf-8")
    (quad,) = parse_rdf(path)
    assert quad.subject.value == (tmp_path / "a").as_uri()
