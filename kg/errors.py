"""What a user is told about the library's own exceptions.

The command line and the Python API (kg.api.KGError) give the same text for
the same fault, so both take it from `user_message`. A fault of the user's
input, files or settings is a UserError; its `label` goes before the message.
"""

from __future__ import annotations


class KGError(Exception):
    """A failure, with the message the command line prints after `kg: error:`
    (the Python API raises it; kg.api)."""


class UserError(Exception):
    """A fault of the user's input, files or settings, told as it stands."""
    label = ""


def user_message(err: BaseException, *, writing: bool = True) -> str | None:
    """The message for `err` when it is a fault of the user's input, files or
    settings; None when it is not one kg reports (a bug: let it surface).
    `writing`: an OSError that reaches here is an output that cannot be
    written (the readers report their own input faults)."""
    if isinstance(err, UserError):
        return f"{err.label}: {err}" if err.label else str(err)
    if isinstance(err, SyntaxError):
        return f"SPARQL syntax error: {err}"
    if isinstance(err, OSError) and writing:
        where = f" {err.filename}" if err.filename else ""
        return f"cannot write{where}: {err.strerror or err}"
    return None
