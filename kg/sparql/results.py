"""Query results to bytes in the SPARQL 1.1 result formats, with an optional row cap.

Oxigraph can serialize whole result sets, but not the first N rows of one, so
the four result formats are written here; RDF results (CONSTRUCT, DESCRIBE)
go through Oxigraph's own serializers once capped. A capped result says so
in itself, not only in an HTTP header that few clients read: the `link` of a
JSON or XML result set's head, a comment opening Turtle, N-Triples or RDF/XML.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from itertools import islice
from xml.sax.saxutils import escape, quoteattr

import pyoxigraph as ox

XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"

# Media types by query form; the first of each list is the default.
SOLUTION_TYPES = ["application/sparql-results+json", "application/sparql-results+xml",
                  "text/csv", "text/tab-separated-values"]
GRAPH_TYPES = ["text/turtle", "application/n-triples", "application/rdf+xml", "application/ld+json",
               "application/n-quads"]
# Names that mean one format for a result set and another for a graph, as other
# SPARQL servers read them: "xml" is SPARQL XML results for SELECT and ASK and
# RDF/XML for CONSTRUCT and DESCRIBE; `choose` takes the one the query's form offers.
ALIASES: dict[str, list[str]] = {
    "application/json": ["application/sparql-results+json", "application/ld+json"],
    "application/xml": ["application/sparql-results+xml", "application/rdf+xml"],
    "text/xml": ["application/sparql-results+xml", "application/rdf+xml"],
    "application/x-turtle": ["text/turtle"],
    "application/turtle": ["text/turtle"],
    "text/n3": ["text/turtle"],  # kg's graphs are plain triples, which Turtle writes as N3 does
    "text/rdf+n3": ["text/turtle"],
    "application/x-json+ld": ["application/ld+json"],
    "text/plain": ["application/n-triples"],
}
# Short names for the `format` (or `output`, `results`) parameter many SPARQL
# clients send: SPARQLWrapper sends its return format's name there.
SHORT_NAMES: dict[str, list[str]] = {
    "json": ALIASES["application/json"], "xml": ALIASES["application/xml"],
    "csv": ["text/csv"], "tsv": ["text/tab-separated-values"],
    "turtle": ["text/turtle"], "ttl": ["text/turtle"], "n3": ["text/turtle"],
    "nt": ["application/n-triples"], "ntriples": ["application/n-triples"], "n-triples": ["application/n-triples"],
    "rdf": ["application/rdf+xml"], "rdfxml": ["application/rdf+xml"], "rdf+xml": ["application/rdf+xml"],
    "rdf/xml": ["application/rdf+xml"], "json-ld": ["application/ld+json"], "jsonld": ["application/ld+json"],
    "nq": ["application/n-quads"], "nquads": ["application/n-quads"], "n-quads": ["application/n-quads"],
}
_RDF_FORMATS = {
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "application/rdf+xml": ox.RdfFormat.RDF_XML,
    "application/ld+json": ox.RdfFormat.JSON_LD,
    "application/n-quads": ox.RdfFormat.N_QUADS,
}


def truncation_link(rows: int) -> str:
    """The URI that marks a result cut at `rows` rows, in the `link` of its head."""
    return f"urn:kg:truncated-after-{rows}-rows"


class NotAcceptable(ValueError):
    pass


@dataclass
class Serialized:
    content_type: str
    body: bytes
    rows: int
    truncated: bool


def parse_accept(header: str | None) -> list[str]:
    """Media ranges of an Accept header, best first (ties keep the client's order)."""
    if not header:
        return ["*/*"]
    ranked = []
    for i, part in enumerate(header.split(",")):
        fields = [f.strip() for f in part.split(";")]
        media = fields[0].lower()
        if not media:
            continue
        q = 1.0
        for f in fields[1:]:
            if f.lower().startswith("q="):
                try:
                    q = float(f[2:])
                except ValueError:
                    q = 0.0
        if q > 0:
            ranked.extend((-q, i, m) for m in ALIASES.get(media, [media]))
    return [m for _, _, m in sorted(ranked)] or ["*/*"]


def parse_format(values: list[str]) -> list[str]:
    """Media types named by `format=` parameters: short names (json, xml, turtle,
    rdf+xml, ...) or media types, several to a value when separated by commas."""
    out: list[str] = []
    for value in values:
        for part in value.split(","):
            name = part.split(";")[0].strip().lower()
            if name:
                out.extend(SHORT_NAMES.get(name) or ALIASES.get(name) or [name])
    return list(dict.fromkeys(out))


def choose(accepted: list[str], offered: list[str]) -> str:
    """The first offered media type that the accepted ranges allow."""
    for media in accepted:
        if media in offered:
            return media
        if media == "*/*":
            return offered[0]
        if media.endswith("/*"):
            for o in offered:
                if o.startswith(media[:-1]):
                    return o
    raise NotAcceptable(f"cannot answer in {', '.join(accepted)}; this result can be given as "
                        f"{', '.join(offered)}")


# -- terms ----------------------------------------------------------------------
def _json_term(t) -> dict:
    if isinstance(t, ox.NamedNode):
        return {"type": "uri", "value": t.value}
    if isinstance(t, ox.BlankNode):
        return {"type": "bnode", "value": t.value}
    if isinstance(t, ox.Literal):
        out = {"type": "literal", "value": t.value}
        if t.language:
            out["xml:lang"] = t.language
        elif t.datatype.value != XSD_STRING:
            out["datatype"] = t.datatype.value
        return out
    return {"type": "triple", "value": {"subject": _json_term(t.subject), "predicate": _json_term(t.predicate),
                                        "object": _json_term(t.object)}}


def _xml_term(t) -> str:
    if isinstance(t, ox.NamedNode):
        return f"<uri>{escape(t.value)}</uri>"
    if isinstance(t, ox.BlankNode):
        return f"<bnode>{escape(t.value)}</bnode>"
    if isinstance(t, ox.Literal):
        if t.language:
            return f"<literal xml:lang={quoteattr(t.language)}>{escape(t.value)}</literal>"
        if t.datatype.value not in (XSD_STRING, RDF_LANG_STRING):
            return f"<literal datatype={quoteattr(t.datatype.value)}>{escape(t.value)}</literal>"
        return f"<literal>{escape(t.value)}</literal>"
    return (f"<triple><subject>{_xml_term(t.subject)}</subject><predicate>{_xml_term(t.predicate)}"
            f"</predicate><object>{_xml_term(t.object)}</object></triple>")


def _csv_cell(t) -> str:
    if t is None:
        return ""
    if isinstance(t, ox.BlankNode):
        return "_:" + t.value
    return t.value if hasattr(t, "value") else str(t)


# -- result sets ----------------------------------------------------------------
def solutions_body(variables: list[str], rows: list[list], media: str, truncated: bool = False) -> bytes:
    """A result set in `media`; a cut one says so in its head's `link` (JSON, XML)."""
    link = [truncation_link(len(rows))] if truncated else []
    if media == "application/sparql-results+json":
        bindings = [{v: _json_term(t) for v, t in zip(variables, row) if t is not None} for row in rows]
        head = {"vars": variables, **({"link": link} if link else {})}
        doc = {"head": head, "results": {"bindings": bindings}}
        return json.dumps(doc, ensure_ascii=False).encode()
    if media == "application/sparql-results+xml":
        out = ['<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n<head>']
        out += [f"<variable name={quoteattr(v)}/>" for v in variables]
        out += [f"<link href={quoteattr(href)}/>" for href in link]
        out.append("</head>\n<results>")
        for row in rows:
            out.append("<result>" + "".join(f"<binding name={quoteattr(v)}>{_xml_term(t)}</binding>"
                                            for v, t in zip(variables, row) if t is not None) + "</result>")
        out.append("</results>\n</sparql>\n")
        return "\n".join(out).encode()
    if media == "text/csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\r\n")
        w.writerow(variables)
        w.writerows([_csv_cell(t) for t in row] for row in rows)
        return buf.getvalue().encode()
    if media == "text/tab-separated-values":
        # TSV cells are terms in SPARQL/Turtle syntax, which str() of an Oxigraph term gives.
        lines = ["\t".join("?" + v for v in variables)]
        lines += ["\t".join("" if t is None else str(t) for t in row) for row in rows]
        return ("\n".join(lines) + "\n").encode()
    raise NotAcceptable(media)


def boolean_body(value: bool, media: str) -> bytes:
    if media == "application/sparql-results+json":
        return json.dumps({"head": {}, "boolean": value}).encode()
    if media == "application/sparql-results+xml":
        return ('<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n'
                f"<head/>\n<boolean>{'true' if value else 'false'}</boolean>\n</sparql>\n").encode()
    return (("true" if value else "false") + "\n").encode()


def _graph_note(media: str, count: int) -> bytes:
    """A comment that opens a cut graph, in the formats that have comments."""
    text = f"kg: truncated: only the first {count} triples were sent (the server's --max-rows)"
    if media in ("text/turtle", "application/n-triples", "application/n-quads"):
        return f"# {text}\n".encode()
    if media == "application/rdf+xml":
        return f"<!-- {text} -->\n".encode()
    return b""


def _first(results, max_rows: int | None) -> tuple[list, bool]:
    """The first `max_rows` items of `results` (all of them for None), and whether there were more."""
    if max_rows is None:
        return list(results), False
    items = list(islice(results, max_rows + 1))
    truncated = len(items) > max_rows
    del items[max_rows:]
    return items, truncated


def serialize(results, accepted: list[str], max_rows: int | None = None,
              prefixes: dict[str, str] | None = None) -> Serialized:
    """Write an Oxigraph result in the best accepted type, up to `max_rows` rows
    or triples (None: all); a cut result says so in itself where its format can."""
    if isinstance(results, ox.QueryBoolean):
        media = choose(accepted, SOLUTION_TYPES)
        return Serialized(media, boolean_body(bool(results), media), 1, False)
    if isinstance(results, ox.QueryTriples):
        media = choose(accepted, GRAPH_TYPES)
        triples, truncated = _first(results, max_rows)
        if media == "application/n-quads":
            triples = [ox.Quad(t.subject, t.predicate, t.object) for t in triples]
        kw = {"prefixes": prefixes} if media == "text/turtle" and prefixes else {}
        body = ox.serialize(triples, format=_RDF_FORMATS[media], **kw)
        if truncated:
            note = _graph_note(media, len(triples))
            if media == "application/rdf+xml" and body.startswith(b"<?xml"):
                end = body.index(b"?>") + 2  # the XML declaration must stay first
                body = body[:end] + b"\n" + note + body[end:].lstrip(b"\n")
            else:
                body = note + body
        return Serialized(media, body, len(triples), truncated)
    media = choose(accepted, SOLUTION_TYPES)
    variables = [v.value for v in results.variables]
    solutions, truncated = _first(results, max_rows)
    rows = [[sol[i] for i in range(len(variables))] for sol in solutions]
    return Serialized(media, solutions_body(variables, rows, media, truncated), len(rows), truncated)
