"""Which input field is which: the id, title, abstract and the paper's
metadata, found under the names common exports use (arXiv metadata snapshot,
Semantic Scholar, OpenAlex, spreadsheets), or under the names a user maps
with `--map abstract=summary,id=paper_id`.

Names are compared without case, `_`, `-` or spaces, so `publicationDate`,
`publication_date` and `Publication Date` are one name. docs/input.md lists
every name read here; a new alias goes into FIELD_NAMES and that list together.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from email.utils import parsedate_to_datetime
from typing import Any, Iterable

from kg.errors import UserError
from kg.model import PaperMeta

# Canonical field -> names tried in order (normalised: see `norm`).
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "id": ("id", "paperid", "docid", "identifier"),
    "title": ("title", "displayname", "papertitle"),
    "abstract": ("abstract", "text", "abstracttext", "paperabstract", "abstractinvertedindex"),
    "date": ("publicationdate", "date", "published", "pubdate", "versions", "updatedate"),
    "year": ("year", "publicationyear", "pubyear"),
    "authors": ("authorsparsed", "authors", "author", "authorships", "creators"),
    "venue": ("venue", "journalref", "journal", "booktitle", "containertitle", "publicationvenue",
              "primarylocation"),
    "doi": ("doi", "externalids"),
    "arxiv": ("arxivid", "arxiv", "externalids"),
    "categories": ("categories", "fieldsofstudy", "subjects"),
    "url": ("url", "link", "landingpageurl", "primarylocation"),
    "collection": ("collection",),
}
MAPPABLE = tuple(FIELD_NAMES)

_NORM = re.compile(r"[\s_\-]+")
_ARXIV_NEW = re.compile(r"^\d{4}\.\d{4,5}(v\d+)?$")
_ARXIV_OLD = re.compile(r"^[a-z][a-z\-]*(\.[A-Z]{2})?/\d{7}(v\d+)?$")
# Fields only arXiv metadata rows have: with one of them, an id of arXiv shape is the arXiv id.
_ARXIV_ROW = ("authorsparsed", "versions", "journalref", "submitter")
_ISO_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[T ].*)?$")


def norm(name: str) -> str:
    """A field name as compared: lower case, no spaces, `_` or `-`."""
    return _NORM.sub("", name).lower()


class FieldMapError(UserError, ValueError):
    """A --map that names no field, or names one twice."""


@dataclass
class FieldMap:
    """The user's `--map FIELD=NAME` choices over the common names."""

    mapped: dict[str, str] = field(default_factory=dict)  # canonical field -> the input's name (or a.b path)

    @classmethod
    def parse(cls, specs: Iterable[str]) -> "FieldMap":
        """From `--map` values, each `field=name[,field=name...]`."""
        mapped: dict[str, str] = {}
        for spec in specs:
            for pair in filter(None, (p.strip() for p in spec.split(","))):
                key, sep, name = pair.partition("=")
                key, name = key.strip().lower(), name.strip()
                if not sep or not name:
                    raise FieldMapError(f"--map wants FIELD=NAME, got {pair!r}")
                if key not in FIELD_NAMES:
                    raise FieldMapError(f"--map: unknown field {key!r}; the fields are {', '.join(MAPPABLE)}")
                mapped[key] = name
        return cls(mapped)

    def columns(self, names: Iterable[str]) -> dict[str, str]:
        """canonical field -> which of `names` (a row's keys or a header) holds it."""
        by_norm: dict[str, str] = {}
        for name in names:
            if isinstance(name, str):
                by_norm.setdefault(norm(name), name)
        out: dict[str, str] = {}
        for key, aliases in FIELD_NAMES.items():
            if key in self.mapped:
                wanted = self.mapped[key]
                found = by_norm.get(norm(wanted))
                if found is not None:
                    out[key] = found
                elif "." in wanted:
                    out[key] = wanted  # a path into a nested object, looked up per row
                continue
            for alias in aliases:
                if alias in by_norm:
                    out[key] = by_norm[alias]
                    break
        return out


def value(row: dict, cols: dict[str, str], key: str) -> Any:
    """The row's value for canonical field `key` (None when absent)."""
    name = cols.get(key)
    if name is None:
        return None
    if name in row:
        return row[name]
    node: Any = row
    for part in name.split("."):
        if not isinstance(node, dict):
            return None
        node = next((v for k, v in node.items() if isinstance(k, str) and norm(k) == norm(part)), None)
    return node


def abstract_text(raw: Any) -> Any:
    """The abstract; OpenAlex's inverted index ({word: [positions]}) is put back in order."""
    if isinstance(raw, dict) and raw and all(isinstance(v, list) for v in raw.values()):
        places: dict[int, str] = {}
        for word, positions in raw.items():
            for p in positions:
                if isinstance(p, int) and 0 <= p < 100_000:
                    places[p] = word
        return " ".join(places[p] for p in sorted(places))
    return raw


# -- metadata ------------------------------------------------------------------

def paper_meta(row: dict, cols: dict[str, str], rid: str = "") -> tuple[PaperMeta, list[str]]:
    """The paper's metadata in `row`, and notes on values that were not understood."""
    notes: list[str] = []
    day, year = _date(value(row, cols, "date"), notes)
    given_year = _year(value(row, cols, "year"))
    if given_year is not None:
        year = given_year
    arxiv = _arxiv(value(row, cols, "arxiv"))
    if not arxiv and rid and (_ARXIV_NEW.match(rid) or _ARXIV_OLD.match(rid)) \
            and any(norm(k) in _ARXIV_ROW for k in row if isinstance(k, str)):
        arxiv = rid
    meta = PaperMeta(
        date=day, year=year, authors=_authors(value(row, cols, "authors")),
        venue=_venue(value(row, cols, "venue")), doi=_doi(value(row, cols, "doi")), arxiv=arxiv,
        categories=_categories(value(row, cols, "categories")), url=_url(value(row, cols, "url")),
    )
    return meta, notes


def _text(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return ""
    if isinstance(v, (int, float)):
        return str(v)
    return " ".join(v.split()) if isinstance(v, str) else ""


def _date(v: Any, notes: list[str]) -> tuple[str, int | None]:
    """(ISO date, year) of a date as exports write it: 2023-04-05, 2023-04,
    2023-04-05T10:00:00Z, an RFC 2822 date, or arXiv's versions list (the
    first version's `created` is the date the paper appeared)."""
    if isinstance(v, list):  # arXiv versions: [{"version": "v1", "created": "Mon, 2 Apr 2007 ..."}]
        first = v[0] if v else None
        v = first.get("created") if isinstance(first, dict) else first
    text = _text(v)
    if not text:
        return "", None
    m = _ISO_DATE.match(text)
    if m:
        y, mo, d = int(m[1]), m[2], m[3]
        try:
            if d:
                return date(y, int(mo), int(d)).isoformat(), y
            if mo and 1 <= int(mo) <= 12:
                return f"{y:04d}-{int(mo):02d}", y
            return "", y
        except ValueError:
            pass
    else:
        try:
            return parsedate_to_datetime(text).date().isoformat(), parsedate_to_datetime(text).year
        except (TypeError, ValueError, IndexError):
            pass
    notes.append("date not understood; left out")
    return "", None


def _year(v: Any) -> int | None:
    text = _text(v)
    return int(text) if re.fullmatch(r"\d{4}", text) else None


_AUTHOR_SPLIT = re.compile(r"\s*;\s*|\s*,?\s+and\s+|\s*,\s*")


def _person(v: Any) -> str:
    if isinstance(v, str):
        return " ".join(v.split())
    if isinstance(v, list):  # arXiv authors_parsed: [last, first, suffix]
        parts = [p for p in v if isinstance(p, str)]
        if parts:
            last, rest = parts[0], parts[1:]
            return " ".join(" ".join([*rest[:1], last, *rest[1:]]).split())
        return ""
    if isinstance(v, dict):  # {name}, {display_name}, OpenAlex {author: {display_name}}, {given, family}
        for key in ("name", "display_name", "displayName", "full_name"):
            if isinstance(v.get(key), str):
                return " ".join(v[key].split())
        if isinstance(v.get("author"), dict):
            return _person(v["author"])
        given, family = v.get("given"), v.get("family")
        if isinstance(family, str):
            return " ".join(f"{given if isinstance(given, str) else ''} {family}".split())
    return ""


def _authors(v: Any) -> tuple[str, ...]:
    """Authors in order. A string is split at `;`, or else at commas and `and`
    (arXiv writes "A. Smith, B. Jones and C. Lee")."""
    if isinstance(v, str):
        parts = re.split(r"\s*;\s*", v) if ";" in v else _AUTHOR_SPLIT.split(v)
        names = [" ".join(p.split()) for p in parts]
    elif isinstance(v, list):
        names = [_person(a) for a in v]
    else:
        return ()
    return tuple(dict.fromkeys(n for n in names if n and len(n) <= 200))


def _venue(v: Any) -> str:
    if isinstance(v, dict):  # S2 publicationVenue {name}, OpenAlex primary_location {source: {display_name}}
        if isinstance(v.get("source"), dict):
            return _venue(v["source"])
        return _text(v.get("name") or v.get("display_name"))
    return _text(v)


def _doi(v: Any) -> str:
    if isinstance(v, dict):  # Semantic Scholar externalIds
        v = next((x for k, x in v.items() if isinstance(k, str) and k.lower() == "doi"), None)
    text = _text(v)
    text = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", text, flags=re.IGNORECASE)
    return text if text.startswith("10.") else ""


def _arxiv(v: Any) -> str:
    if isinstance(v, dict):  # Semantic Scholar externalIds
        v = next((x for k, x in v.items() if isinstance(k, str) and k.lower() == "arxiv"), None)
    text = re.sub(r"^(?:arxiv:\s*|https?://arxiv\.org/abs/)", "", _text(v), flags=re.IGNORECASE)
    return text if _ARXIV_NEW.match(text) or _ARXIV_OLD.match(text) else ""


def _categories(v: Any) -> tuple[str, ...]:
    if isinstance(v, str):  # arXiv: "cs.LG stat.ML"; spreadsheets: "cs.LG; cs.CL"
        parts = re.split(r"[;,]\s*", v) if re.search(r"[;,]", v) else v.split()
    elif isinstance(v, list):
        parts = [x if isinstance(x, str) else _text(x.get("category") if isinstance(x, dict) else None) for x in v]
    else:
        return ()
    return tuple(dict.fromkeys(" ".join(p.split()) for p in parts if p and p.strip()))


def _url(v: Any) -> str:
    if isinstance(v, dict):  # OpenAlex primary_location
        v = v.get("landing_page_url")
    text = _text(v)
    return text if re.match(r"https?://\S+$", text) else ""
