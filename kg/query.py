"""Query text in, formatted results out (table, CSV, TSV, JSON); the ready questions' listing."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pyoxigraph as ox

from kg.sparql.ready import ready_question, ready_questions, store_spellings


def load_query(text: str | None, file: str | None) -> str:
    if file:
        try:
            return Path(file).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{file}: not UTF-8 text") from None
    if not text:
        raise ValueError("give a query as text, with -f FILE.rq, or a ready question with --ask NAME "
                         "(--list shows them)")
    return text


def ready_query(store, name: str, params: dict[str, str]) -> str:
    """The text of ready question `name` with `params` bound, names matched in any case in `store`."""
    return ready_question(name).bind(params, store_spellings(store.db))


def list_ready_questions() -> str:
    """The ready questions as the text `kg query --list` prints."""
    out = []
    for q in ready_questions().values():
        out.append(f"{q.name}: {q.title}")
        if q.about:
            out.append(f"    {q.about}")
        for p in q.params:
            example = f" (example: {p.default})" if p.default is not None else ""
            out.append(f"    --param {p.name}=...  {p.help}{example}")
    out.append("")
    out.append("Run one with: kg query --store DIR --ask NAME --param NAME=VALUE")
    return "\n".join(out) + "\n"


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
