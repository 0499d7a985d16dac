"""Gold records: read from JSON Lines and checked against the abstracts they
describe, so that a learned component is never trained on a record that
does not fit its text. What makes a gold record is in training/README.md."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Mapping

from kg.errors import UserError
from kg.io.user_files import user_lines

ENTITY_TYPES = ("Method", "Dataset", "Task", "Metric")
PREDICATES = ("evaluatedOn", "addresses", "improvesOver", "achieves")
# The object of these is an entity of the record; improvesOver's may be the text's own words.
OBJECT_IS_ENTITY = ("evaluatedOn", "addresses")
_SPACE = re.compile(r"\s+")


class GoldError(UserError, ValueError):
    """A gold line that cannot be used; the message names the file and line."""

    label = "gold"


@dataclass(frozen=True)
class GoldRecord:
    """One gold record with where it was read."""

    record: dict
    source: str
    line: int


def squashed(text: str) -> str:
    """Lower case with every run of white space one space: how a name is
    looked for in its text (an abstract breaks lines where the name does not)."""
    return _SPACE.sub(" ", text).strip().lower()


def record_problems(record: object, text: str | None) -> list[str]:
    """What is wrong with one gold record, given the title and abstract it
    describes (None: its id is not among the texts)."""
    if not isinstance(record, dict) or not isinstance(record.get("id"), str):
        return ["not a JSON object with an \"id\""]
    if text is None:
        return [f"id {record['id']} is not among the abstracts"]
    entities = record.get("entities")
    if not isinstance(entities, dict) or set(entities) != set(ENTITY_TYPES):
        return [f"\"entities\" must have exactly the keys {', '.join(ENTITY_TYPES)}"]
    problems: list[str] = []
    names: set[str] = set()
    where = squashed(text)
    for etype in ENTITY_TYPES:
        if not isinstance(entities[etype], list):
            problems.append(f"entities.{etype} is not a list")
            continue
        for entity in entities[etype]:
            if not isinstance(entity, dict) or not isinstance(entity.get("name"), str) or not entity["name"].strip():
                problems.append(f"a {etype} without a name")
                continue
            names.add(entity["name"])
            for form in [entity["name"], *(entity.get("aliases") or [])]:
                if not isinstance(form, str) or squashed(form) not in where:
                    problems.append(f"{etype} {form!r} does not occur in the title or abstract")
    relations = record.get("relations")
    if not isinstance(relations, list):
        return problems + ["\"relations\" is not a list"]
    for rel in relations:
        if not isinstance(rel, dict) or rel.get("p") not in PREDICATES:
            problems.append(f"not a relation: {rel!r}")
            continue
        if rel.get("s") not in names:
            problems.append(f"{rel['p']}: s {rel.get('s')!r} is not an entity name of the record")
        if rel["p"] in OBJECT_IS_ENTITY and rel.get("o") not in names:
            problems.append(f"{rel['p']}: o {rel.get('o')!r} is not an entity name of the record")
    return problems


def read_gold(paths: Iterable[str | Path], texts: Mapping[str, str]) -> Iterator[GoldRecord]:
    """The gold records of `paths`, in order, each checked against its text in
    `texts` (id -> title and abstract). The first broken line raises
    GoldError with its file, line and what is wrong."""
    for path in paths:
        for n, line in user_lines(path, "gold file", GoldError):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise GoldError(f"{path}:{n}: not valid JSON ({err.msg})") from None
            problems = record_problems(record, texts.get(record.get("id")) if isinstance(record, dict) else None)
            if problems:
                raise GoldError(f"{path}:{n}: {problems[0]}")
            yield GoldRecord(record, str(path), n)


def is_check(record_id: str) -> bool:
    """Is this pool id in the check set (ids beginning e or f): never trained
    on, never read to write a rule, only scored."""
    return record_id[:1] in ("e", "f")
