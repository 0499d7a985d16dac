"""What a user is told about the library's own exceptions.

The command line and the Python API (kg.api.KGError) give the same text for
the same fault, so both take it from `user_message`.
"""

from __future__ import annotations


def user_message(err: BaseException, *, writing: bool = True) -> str | None:
    """The message for `err` when it is a fault of the user's input, files or
    settings; None when it is not one kg reports (a bug: let it surface).
    `writing`: an OSError that reaches here is an output that cannot be
    written (the readers report their own input faults)."""
    # Imported only when there is a fault to report: the store and the Dask
    # runner are heavy imports that a working command may never need.
    from kg.extract.dask_runner import DaskError
    from kg.io.fields import FieldMapError
    from kg.io.gazetteer_files import GazetteerError
    from kg.rules import RulesError
    from kg.store import StoreError

    if isinstance(err, GazetteerError):
        return f"gazetteer: {err}"
    if isinstance(err, RulesError):
        return f"rules: {err}"
    if isinstance(err, SyntaxError):
        return f"SPARQL syntax error: {err}"
    if isinstance(err, (StoreError, DaskError, FieldMapError)):
        return str(err)
    if isinstance(err, OSError) and writing:
        where = f" {err.filename}" if err.filename else ""
        return f"cannot write{where}: {err.strerror or err}"
    return None
