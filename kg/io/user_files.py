"""Files a user names on the command line besides the abstracts (rules,
gazetteers, gold and predicted records): read as UTF-8 text, line by line,
with every way of failing turned into one error of the caller's kind that
names the file (and the line, where a line is at fault)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator


def user_lines(path: str | Path, what: str, error: type[Exception]) -> Iterator[tuple[int, str]]:
    """(line number, line) of the file at `path`, from 1. `what` names the
    kind of file in messages ("rules file"); a file that is missing, a
    folder, unreadable or not UTF-8 raises `error`, whose message begins
    with the path. Lines are read as they are asked for, so a large file is
    never held whole."""
    path = Path(path)
    try:
        fh = path.open(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{path}: is a folder, not a {what}") from None
    except OSError as err:
        raise error(f"{path}: cannot read {what} ({err.strerror})") from None
    with fh:
        n = 0
        try:
            for n, line in enumerate(fh, start=1):
                yield n, line
        except UnicodeDecodeError:
            raise error(f"{path}:{n + 1}: {what} is not UTF-8 text") from None


def user_text(path: str | Path, what: str, error: type[Exception]) -> str:
    """The whole text of the file at `path`, failing as `user_lines` does."""
    return "".join(line for _, line in user_lines(path, what, error))
