"""Query text in, formatted results out (table, CSV, TSV, JSON)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pyoxigraph as ox


def load_query(text: str | None, file: str | None) -> str:
    if file:
        return Path(file).read_text(encoding="utf-8")
    if not text:
        raise ValueError("give a query as text or with -f FILE.rq")
    return text


def _cell(term) -> str:
    if term is None:
        return ""
    return term.value if hasattr(term, "value") else str(term)


def format_results(results, fmt: str = "table") -> str:
    if isinstance(results, bool) or isinstance(results, ox.QueryBoolean):
        return ("true" if bool(results) else "false") + "\n"
    if isinstance(results, ox.QueryTriples):
        return "".join(f"{t} .\n" for t in results)
    names = [v.value for v in results.variables]
    rows = [[_cell(sol[n]) for n in names] for sol in results]
    if fmt == "json":
        return json.dumps([dict(zip(names, r)) for r in rows], ensure_ascii=False, indent=1) + "\n"
    if fmt in ("csv", "tsv"):
        buf = io.StringIO()
        w = csv.writer(buf, delimiter="," if fmt == "csv" else "\t", lineterminator="\n")
        w.writerow(names)
        w.writerows(rows)
        return buf.getvalue()
    widths = [min(60, max([len(n)] + [len(r[i]) for r in rows])) for i, n in enumerate(names)]
    clip = lambda s, w: s if len(s) <= w else s[: w - 1] + "…"
    lines = [" | ".join(n.ljust(w) for n, w in zip(names, widths)), "-+-".join("-" * w for w in widths)]
    lines += [" | ".join(clip(c, w).ljust(w) for c, w in zip(r, widths)) for r in rows]
    lines.append(f"({len(rows)} rows)")
    return "\n".join(lines) + "\n"
