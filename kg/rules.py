"""Rule files: the word lists, cue phrases and patterns of kg's extractors.

Each rule family is one JSON file in kg/resources/rules/ (FAMILY.json), an
object whose keys hold lists of words or regular-expression pieces (or an
object of such lists); keys that begin with "_" are notes for the reader.
docs/rules.md says what each family does.

A user changes the rules without touching the package with a rules file,
given to `kg extract` or `kg build` as `--rules FILE` (repeatable). It names
families, and for each what to add to a packaged key ("extend") or put in its
place ("replace"):

    {"relation_cues": {"extend": {"improve_verbs": ["eclips\\\\w*"]}},
     "proposals": {"replace": {"openers": ["we propose"]}}}

A key or family that nothing reads is an error, not a silent no-op: a rule
added either works or fails loudly.
"""

from __future__ import annotations

import json
from copy import deepcopy
from functools import lru_cache, wraps
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence, TypeVar

from kg.errors import UserError
from kg.io.user_files import user_text

OPERATIONS = ("extend", "replace")


class RulesError(UserError, ValueError):
    """A rules file that cannot be used; the message names the file."""

    label = "rules"


def packaged_dir() -> Path:
    """The folder of the packaged rule families."""
    return Path(str(resources.files("kg.resources") / "rules"))


def families() -> list[str]:
    """The names of the packaged rule families."""
    return sorted(p.stem for p in packaged_dir().glob("*.json"))


def packaged_path(family: str) -> Path:
    path = packaged_dir() / f"{family}.json"
    if not path.is_file():
        raise RulesError(f"no rule family {family!r} (families: {', '.join(families())})")
    return path


def _read_json(path: Path) -> Any:
    text = user_text(path, "rules file", RulesError)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise RulesError(f"{path}:{err.lineno}: not valid JSON ({err.msg})") from None


@lru_cache(maxsize=64)
def _packaged(family: str, base: str) -> dict[str, Any]:
    path = Path(base) if base else packaged_path(family)
    data = _read_json(path)
    if not isinstance(data, dict):
        raise RulesError(f"{path}: a rule family file holds one JSON object")
    return data


def read_rules_file(path: str | Path) -> dict[str, dict[str, dict[str, Any]]]:
    """A user's rules file, checked: {family: {"extend"|"replace": {key: value}}}."""
    path = Path(path)
    data = _read_json(path)
    if not isinstance(data, dict):
        raise RulesError(f"{path}: a rules file holds one JSON object of rule families")
    known = families()
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for family, change in data.items():
        if family.startswith("_"):
            continue
        if family not in known:
            raise RulesError(f"{path}: no rule family {family!r} (families: {', '.join(known)})")
        if not isinstance(change, dict) or not change or set(change) - set(OPERATIONS) - {"_about"}:
            raise RulesError(f"{path}: {family}: give an object with \"extend\" and/or \"replace\"")
        packaged = _packaged(family, "")
        for op in OPERATIONS:
            for key, value in (change.get(op) or {}).items():
                if key.startswith("_") or key not in packaged:
                    keys = ", ".join(k for k in packaged if not k.startswith("_"))
                    raise RulesError(f"{path}: {family} has no key {key!r} (keys: {keys})")
                if not isinstance(value, type(packaged[key])):
                    raise RulesError(f"{path}: {family}.{key} must be a JSON "
                                     f"{'list' if isinstance(packaged[key], list) else 'object'}, "
                                     f"as in the packaged file")
        out[family] = {op: change.get(op) or {} for op in OPERATIONS}
    return out


def _extend(value: Any, more: Any) -> Any:
    if isinstance(value, list):
        return value + [x for x in more if x not in value]
    merged = dict(value)
    for k, v in more.items():
        merged[k] = _extend(merged[k], v) if k in merged and isinstance(v, (list, dict)) else v
    return merged


def load(family: str, extra: Iterable[str | Path] = (), base: str | Path | None = None) -> dict[str, Any]:
    """The rules of `family`: the packaged file (or `base`, a whole
    replacement file), then each `extra` rules file's changes in order.
    Keys beginning with "_" (notes) are left out."""
    return deepcopy(_load(family, tuple(str(p) for p in extra), str(base or "")))


@lru_cache(maxsize=64)
def _load(family: str, extra: tuple[str, ...], base: str) -> dict[str, Any]:
    rules = {k: v for k, v in _packaged(family, base).items() if not k.startswith("_")}
    for path in extra:
        change = read_rules_file(path).get(family)
        if change is None:
            continue
        for key, value in change["extend"].items():
            rules[key] = _extend(rules[key], value)
        for key, value in change["replace"].items():
            rules[key] = value
    return rules


def check_files(paths: Sequence[str | Path]) -> None:
    """Raise RulesError for the first rules file that cannot be used, before
    any work starts (workers would each meet the same error)."""
    for path in paths:
        read_rules_file(path)


def any_of(pieces: Iterable[str], *, longest_first: bool = False) -> str:
    """One regular-expression alternation of `pieces`, the one way kg joins a
    list of cues. Python's alternation takes the first piece that matches at
    a place, not the longest, so the order matters where one piece begins
    another ("state of the art" and "state"): by default the pieces are tried
    in the order the rules file writes them, so a rules file can put the
    piece it wants first; `longest_first` tries longer pieces first (a stable
    sort: pieces of one length keep their order), for lists whose writers
    should not have to think about it. No pieces match nothing: a rules file
    that replaces a list with [] turns its rule off, where an empty
    alternation would match everywhere."""
    pieces = sorted(pieces, key=len, reverse=True) if longest_first else list(pieces)
    return "(?:" + "|".join(pieces) + ")" if pieces else "(?!)"


T = TypeVar("T")


def compiled(build: Callable[[tuple[str, ...]], T]) -> Callable[..., T]:
    """Decorates `build(extra)`, which compiles rules from the packaged
    families and the user's rules files `extra` (kg.rules.load), so that it
    runs once per set of files: every component and worker asks for the same
    compiled rules many times. The decorated function takes any iterable of
    paths, or none for the packaged rules alone."""
    cached = lru_cache(maxsize=16)(build)

    @wraps(build)
    def get(extra: Iterable[str | Path] = ()) -> T:
        return cached(tuple(str(p) for p in extra))

    return get
