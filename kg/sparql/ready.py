"""Ready questions: the `.rq` files in kg/queries/, with their parameters.

A ready question is a plain SPARQL file that runs as it stands in any SPARQL
tool. Its header comments name it and declare its parameters:

    # title: Methods evaluated on a dataset
    # param: dataset = CIFAR-10 -- the dataset, by its name or any alias

and for each parameter its body holds one line

    VALUES ?dataset { "CIFAR-10" }

which fixes the example value. Binding a parameter replaces that one line's
value with the user's text written as an RDF string literal (quotes, back-
slashes and control characters escaped), so user text can only ever be a
value, never SPARQL syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Callable

_HEADER = re.compile(r"^#\s*(title|param|about):\s*(.*?)\s*$")
_PARAM = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?:=\s*(?P<default>.*?))?\s*(?:--\s*(?P<help>.*))?$")


def _values_line(name: str) -> re.Pattern:
    return re.compile(r"^(?P<indent>[ \t]*)VALUES[ \t]+\?" + re.escape(name) + r"[ \t]*\{[^}\n]*\}[ \t]*$",
                      re.MULTILINE)


class ReadyQuestionError(ValueError):
    pass


@dataclass
class Param:
    name: str
    default: str | None
    help: str


@dataclass
class ReadyQuestion:
    name: str
    title: str
    text: str
    about: str = ""
    params: list[Param] = field(default_factory=list)

    def bind(self, values: dict[str, str] | None = None,
             spellings: Callable[[str], list[str]] | None = None) -> str:
        """The query text with each parameter set to a given value or its default.

        `spellings(value)` may give the names in the store that equal `value` but
        for case; the VALUES line then lists them all, so "cifar-10" finds
        "CIFAR-10" while the query itself stays an exact, indexed label match."""
        values = dict(values or {})
        unknown = sorted(set(values) - {p.name for p in self.params})
        if unknown:
            known = ", ".join(p.name for p in self.params) or "none"
            raise ReadyQuestionError(f"ready question {self.name!r} has no parameter {unknown[0]!r} "
                                     f"(its parameters: {known})")
        text = self.text
        for p in self.params:
            value = values.get(p.name, p.default)
            if value is None:
                raise ReadyQuestionError(f"ready question {self.name!r} needs a value: --param {p.name}=VALUE")
            forms = [value] + [s for s in (spellings(value) if spellings else []) if s != value]
            literals = " ".join(sparql_string(f) for f in forms)
            text = _values_line(p.name).sub(
                lambda m: f"{m.group('indent')}VALUES ?{p.name} {{ {literals} }}", text, count=1)
        return text

    def as_dict(self) -> dict:
        return {"name": self.name, "title": self.title, "about": self.about, "text": self.text,
                "params": [{"name": p.name, "default": p.default, "help": p.help} for p in self.params]}


def sparql_string(value: str) -> str:
    """`value` as a SPARQL string literal that reads back as exactly `value`."""
    out = ['"']
    for ch in value:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def parse_ready_question(name: str, text: str) -> ReadyQuestion:
    q = ReadyQuestion(name=name, title=name, text=text)
    about = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        m = _HEADER.match(line)
        if not m:
            continue
        key, value = m.groups()
        if key == "title":
            q.title = value
        elif key == "about":
            about.append(value)
        else:
            pm = _PARAM.match(value)
            if not pm:
                raise ReadyQuestionError(f"{name}.rq: bad param line {line!r}; write "
                                         "'# param: NAME = EXAMPLE -- help'")
            q.params.append(Param(pm["name"], pm["default"], pm["help"] or ""))
    q.about = " ".join(about)
    for p in q.params:
        if len(_values_line(p.name).findall(text)) != 1:
            raise ReadyQuestionError(f"{name}.rq: parameter {p.name!r} needs exactly one line "
                                     f'VALUES ?{p.name} {{ "..." }}')
    return q


def queries_dir() -> Path:
    return Path(str(resources.files("kg") / "queries"))


def ready_questions() -> dict[str, ReadyQuestion]:
    """Every ready question shipped with kg, by name, in name order."""
    out = {}
    for path in sorted(queries_dir().glob("*.rq")):
        out[path.stem] = parse_ready_question(path.stem, path.read_text(encoding="utf-8"))
    return out


def ready_question(name: str) -> ReadyQuestion:
    questions = ready_questions()
    if name not in questions:
        raise ReadyQuestionError(f"no ready question {name!r}; `kg query --list` shows them: "
                                 + ", ".join(questions))
    return questions[name]


def parse_params(pairs: list[str]) -> dict[str, str]:
    """`NAME=VALUE` strings from the command line as a dict."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ReadyQuestionError(f"--param wants NAME=VALUE, got {pair!r}")
        out[name.strip()] = value
    return out


_SKOS = "http://www.w3.org/2004/02/skos/core#"
# The build stores each name's lowercase form as a name or a skos:hiddenLabel
# (kg.graph.entities), so the names that differ from the wanted one only in case
# are found through one indexed lookup of its lowercase form.
SPELLINGS_QUERY = f"""
SELECT DISTINCT ?label WHERE {{
  VALUES (?wanted ?key) {{ (%s %s) }}
  ?e <{_SKOS}prefLabel>|<{_SKOS}altLabel>|<{_SKOS}hiddenLabel> ?key .
  ?e <{_SKOS}prefLabel>|<{_SKOS}altLabel> ?label .
  FILTER(LCASE(STR(?label)) = LCASE(?wanted))
}}
"""
# Stores built before hidden labels: every label is compared.
SPELLINGS_SCAN_QUERY = f"""
SELECT DISTINCT ?label WHERE {{
  VALUES ?wanted {{ %s }}
  {{ ?e <{_SKOS}prefLabel> ?label }}
  UNION {{ ?e <{_SKOS}altLabel> ?label }}
  FILTER(LCASE(STR(?label)) = LCASE(?wanted))
}}
"""
_HAS_HIDDEN = f"ASK {{ ?e <{_SKOS}hiddenLabel> ?key }}"


def store_spellings(store) -> Callable[[str], list[str]]:
    """`spellings` for `bind`, looked up in an open pyoxigraph Store (default graph = union)."""
    indexed = bool(store.query(_HAS_HIDDEN, use_default_graph_as_union=True))

    def spellings(value: str) -> list[str]:
        if indexed:
            query = SPELLINGS_QUERY % (sparql_string(value), sparql_string(value.lower()))
        else:
            query = SPELLINGS_SCAN_QUERY % sparql_string(value)
        rows = store.query(query, use_default_graph_as_union=True)
        return sorted(row[0].value for row in rows)
    return spellings
