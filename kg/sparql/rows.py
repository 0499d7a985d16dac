"""Query results as rows of plain Python values.

A row is a dict keyed by the query's variables: IRIs and strings are `str`,
xsd integers `int`, xsd:decimal (every result value, mls:hasValue) `Decimal`,
xsd:double and xsd:float `float`, xsd:boolean `bool`; an ill-typed literal
keeps its text. The API's queries and the report read results this way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from kg.errors import KGError

_XSD = "http://www.w3.org/2001/XMLSchema#"
_INTEGER_TYPES = {_XSD + t for t in (
    "integer", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger", "nonPositiveInteger",
    "negativeInteger", "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte")}
_FLOAT_TYPES = {_XSD + "double", _XSD + "float"}


class Rows(list):
    """Query results: a list of dicts keyed by variable name, in the query's
    order; `variables` lists the names as the query's SELECT gives them."""

    def __init__(self, rows: Iterable[dict] = (), variables: Iterable[str] = ()):
        super().__init__(rows)
        self.variables = list(variables)

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame, one column per variable (needs pandas);
        a column of decimal numbers is float64 (see `frame`)."""
        return frame(self)


def _numeric(values: list) -> bool:
    """True when a column holds numbers only, at least one of them a Decimal."""
    seen_decimal = False
    for v in values:
        if v is None:
            continue
        if isinstance(v, Decimal):
            seen_decimal = True
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            return False
    return seen_decimal


def frame(rows: Iterable[Mapping]) -> Any:
    """Rows as a pandas DataFrame, columns in the query's order. A column of
    numbers with decimals among them (every result value, mls:hasValue, is an
    xsd:decimal) is float64, so that `df.value.mean()` and plotting work as
    they stand; an unbound value is NaN there. The rows themselves keep the
    exact Decimal. pandas is not a dependency of kg: install it (`pip install
    pandas`) to use this."""
    try:
        import pandas as pd  # optional: only DataFrames need it
    except ImportError:
        raise KGError("a DataFrame needs pandas, which is not installed: pip install pandas") from None
    columns = getattr(rows, "variables", None) or None
    df = pd.DataFrame(list(rows), columns=columns)
    for name in df.columns:
        if df[name].dtype == object and _numeric(df[name].tolist()):
            df[name] = df[name].astype("float64")
    return df


def python_value(term: Any) -> Any:
    """An Oxigraph term (or None) as a plain Python value (see the module doc)."""
    if term is None:
        return None
    import pyoxigraph as ox  # lazy: `import kg` loads no store

    if isinstance(term, ox.NamedNode):
        return term.value
    if isinstance(term, ox.BlankNode):
        return "_:" + term.value
    if isinstance(term, ox.Literal):
        dtype = term.datatype.value
        text = term.value
        try:
            if dtype in _INTEGER_TYPES:
                return int(text)
            if dtype == _XSD + "decimal":
                return Decimal(text)
            if dtype in _FLOAT_TYPES:
                return float(text)  # INF, -INF and NaN read as float does
            if dtype == _XSD + "boolean" and text in ("true", "false", "1", "0"):
                return text in ("true", "1")
        except (ValueError, InvalidOperation):
            pass  # an ill-typed literal keeps its text
        return text
    return str(term)  # an RDF-star triple


def to_rows(results: Any) -> Rows | bool:
    """Oxigraph's results as Rows (a SELECT, or a CONSTRUCT as subject,
    predicate, object), or a bool (an ASK)."""
    import pyoxigraph as ox  # lazy: `import kg` loads no store

    if isinstance(results, bool) or isinstance(results, ox.QueryBoolean):
        return bool(results)
    if isinstance(results, ox.QueryTriples):
        names = ["subject", "predicate", "object"]
        return Rows(({n: python_value(t) for n, t in zip(names, (tr.subject, tr.predicate, tr.object))}
                     for tr in results), names)
    names = [v.value for v in results.variables]
    return Rows(({n: python_value(sol[n]) for n in names} for sol in results), names)
