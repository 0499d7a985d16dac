"""Query results to bytes in the SPARQL 1.1 result formats, with a row cap.

Oxigraph can serialize whole result sets, but not the first N rows of one, so
the four result formats are written here; RDF results (CONSTRUCT, DESCRIBE)
go through Oxigraph's own serializers once capped.
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
GRAPH_TYPES = ["text/turtle", "application/n-triples", "application/rdf+xml", "application/n-quads"]
ALIASES = {
    "application/json": "application/sparql-results+json",
    "application/xml": "application/sparql-results+xml",
    "text/xml": "application/sparql-results+xml",
    "application/x-turtle": "text/turtle",
    "text/plain": "application/n-triples",
}
# Short names for the `format=` parameter many SPARQL clients send.
SHORT_NAMES = {
    "json": "application/sparql-results+json", "xml": "application/sparql-results+xml",
    "csv": "text/csv", "tsv": "text/tab-separated-values",
    "turtle": "text/turtle", "ttl": "text/turtle", "nt": "application/n-triples",
    "ntriples": "application/n-triples", "n-triples": "application/n-triples", "rdfxml": "application/rdf+xml",
}
_RDF_FORMATS = {
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "application/rdf+xml": ox.RdfFormat.RDF_XML,
    "application/n-quads": ox.RdfFormat.N_QUADS,
}


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
            ranked.append((-q, i, ALIASES.get(media, media)))
    return [m for _, _, m in sorted(ranked)] or ["*/*"]


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
def solutions_body(variables: list[str], rows: list[list], media: str) -> bytes:
    if media == "application/sparql-results+json":
        bindings = [{v: _json_term(t) for v, t in zip(variables, row) if t is not None} for row in rows]
        doc = {"head": {"vars": variables}, "results": {"bindings": bindings}}
        return json.dumps(doc, ensure_ascii=False).encode()
    if media == "application/sparql-results+xml":
        out = ['<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n<head>']
        out += [f"<variable name={quoteattr(v)}/>" for v in variables]
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


def serialize(results, accepted: list[str], max_rows: int, prefixes: dict[str, str] | None = None) -> Serialized:
    """Run through an Oxigraph result up to `max_rows` rows and write it in the best accepted type."""
    if isinstance(results, ox.QueryBoolean):
        media = choose(accepted, SOLUTION_TYPES)
        return Serialized(media, boolean_body(bool(results), media), 1, False)
    if isinstance(results, ox.QueryTriples):
        media = choose(accepted, GRAPH_TYPES)
        triples = list(islice(results, max_rows + 1))
        truncated = len(triples) > max_rows
        del triples[max_rows:]
        if media == "application/n-quads":
            triples = [ox.Quad(t.subject, t.predicate, t.object) for t in triples]
        kw = {"prefixes": prefixes} if media == "text/turtle" and prefixes else {}
        body = ox.serialize(triples, format=_RDF_FORMATS[media], **kw)
        return Serialized(media, body, len(triples), truncated)
    media = choose(accepted, SOLUTION_TYPES)
    variables = [v.value for v in results.variables]
    rows = [[sol[i] for i in range(len(variables))] for sol in islice(results, max_rows + 1)]
    truncated = len(rows) > max_rows
    del rows[max_rows:]
    return Serialized(media, solutions_body(variables, rows, media), len(rows), truncated)
