"""Safe loading of RDF that users hand to kg (gazetteers, updates in Turtle,
N-Triples, N-Quads, TriG, JSON-LD or RDF/XML).

Every RDF file a user gives kg goes through `parse_rdf`:
- it is parsed by pyoxigraph, which fetches nothing: a JSON-LD `@context`
  given as a URL is refused with a clear error (rdflib's JSON-LD parser would
  download it, so rdflib is never used on user JSON-LD);
- RDF/XML that declares entities (`<!ENTITY ...>` in a DOCTYPE) is refused
  before parsing: both pyoxigraph and rdflib expand nested internal entities
  (a few hundred bytes become gigabytes, "billion laughs"), and external
  entities would read local files or URLs;
- a syntax error names the file and the line.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pyoxigraph as ox

RDF_INPUT_FORMATS = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".nq": ox.RdfFormat.N_QUADS,
    ".trig": ox.RdfFormat.TRIG,
    ".jsonld": ox.RdfFormat.JSON_LD,
    ".json": ox.RdfFormat.JSON_LD,
    ".rdf": ox.RdfFormat.RDF_XML,
    ".owl": ox.RdfFormat.RDF_XML,
    ".xml": ox.RdfFormat.RDF_XML,
}
# A DTD that declares anything: entities, or external subsets that could.
_XML_DTD = re.compile(rb"<!DOCTYPE[^>\[]*(\[|SYSTEM|PUBLIC)|<!ENTITY", re.I)
_LINE_COL = re.compile(r"line (\d+)", re.I)


class RDFInputError(ValueError):
    """An RDF file kg will not or cannot load; the message names the file."""


def rdf_format(path: Path, fmt: str | None = None) -> ox.RdfFormat:
    if fmt:
        by_name = {"ttl": ".ttl", "turtle": ".ttl", "nt": ".nt", "nq": ".nq", "trig": ".trig",
                   "jsonld": ".jsonld", "json-ld": ".jsonld", "xml": ".rdf", "rdfxml": ".rdf"}
        if fmt.lower() not in by_name:
            raise RDFInputError(f"{path}: unknown RDF format {fmt!r}; use one of {', '.join(sorted(by_name))}")
        return RDF_INPUT_FORMATS[by_name[fmt.lower()]]
    try:
        return RDF_INPUT_FORMATS[path.suffix.lower()]
    except KeyError:
        raise RDFInputError(f"{path}: cannot tell the RDF format from the extension {path.suffix!r}; "
                            f"use one of {', '.join(sorted(RDF_INPUT_FORMATS))}") from None


def parse_rdf(path: str | os.PathLike, fmt: str | None = None, base_iri: str | None = None) -> list[ox.Quad]:
    """The quads of an RDF file, parsed without any network or file access
    beyond the file itself. Raises RDFInputError with file and line."""
    path = Path(path)
    rdf_fmt = rdf_format(path, fmt)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise RDFInputError(f"{path}: no such file") from None
    except OSError as err:
        raise RDFInputError(f"{path}: cannot read: {err.strerror or err}") from None
    if rdf_fmt == ox.RdfFormat.RDF_XML:
        m = _XML_DTD.search(data)
        if m:
            line = data.count(b"\n", 0, m.start()) + 1
            raise RDFInputError(f"{path}:{line}: RDF/XML with a DOCTYPE declaring entities is refused "
                                "(entity expansion and external entities are unsafe); write the IRIs out in full")
    try:
        return list(ox.parse(data, rdf_fmt, base_iri=base_iri or path.resolve().as_uri()))
    except SyntaxError as err:
        msg = str(err)
        if "LoadDocumentCallback" in msg or "remote context" in msg.lower():
            raise RDFInputError(f"{path}: JSON-LD with a remote @context (a URL) is refused: kg never fetches "
                                "from the network; put the context inline in the file") from None
        m = _LINE_COL.search(msg)
        where = f"{path}:{m.group(1)}" if m else str(path)
        raise RDFInputError(f"{where}: not valid {rdf_fmt.name}: {msg}") from None
    except (ValueError, OSError) as err:
        raise RDFInputError(f"{path}: cannot parse as {rdf_fmt.name}: {err}") from None


def parse_rdf_to_rdflib(path: str | os.PathLike, fmt: str | None = None):
    """The same, as an rdflib Dataset, for code that works with rdflib: the file
    is parsed safely by `parse_rdf`, and rdflib only reads the N-Quads of it."""
    import rdflib  # lazy: rdflib, start-up

    quads = parse_rdf(path, fmt)
    ds = rdflib.Dataset()
    ds.parse(data=ox.serialize(quads, format=ox.RdfFormat.N_QUADS).decode("utf-8"), format="nquads")
    return ds
