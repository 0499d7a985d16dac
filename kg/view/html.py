"""The view as one self-contained HTML file: vis-network as pyvis installs it,
our own small controls, and the data, all inline; the page links nothing.

The nodes, edges and options (kg.view.payload) are the dicts pyvis would hand
vis-network, made directly: importing pyvis's Python module pulls in IPython,
which costs seconds on every build, while its vis-network build is plain
package data.

Safety: every text that came from an abstract travels only inside a JSON
block whose `<`, `>` and `&` are escaped, and the page's scripts put it on
screen with textContent (and vis-network draws labels on a canvas and sets
tooltips with innerText). A Content-Security-Policy allows exactly the two
inline scripts we wrote, by hash, and no network at all, so even text that
slipped through could neither run nor fetch anything.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import os
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from string import Template

from kg.io.atomic import atomic_write_text
from kg.store import KGStore
from kg.view.graphdata import add_evidence, named_with, read_summary
from kg.view.payload import asset, view_payload
from kg.view.select import DEFAULT_MAX_NODES, select


@lru_cache(maxsize=1)
def vis_network_js() -> str:
    """vis-network as pyvis installs it (never fetched, never copied into kg)."""
    spec = importlib.util.find_spec("pyvis")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("pyvis is not installed; the HTML view takes vis-network from it (pip install pyvis)")
    lib = Path(list(spec.submodule_search_locations)[0]) / "templates" / "lib"
    found = sorted((p for p in lib.iterdir() if p.name.startswith("vis-")),
                   key=lambda p: [int(x) for x in re.findall(r"\d+", p.name)]) if lib.is_dir() else []
    if not found:
        raise RuntimeError(f"vis-network not found in the installed pyvis ({lib}); reinstall pyvis")
    text = (found[-1] / "vis-network.min.js").read_text(encoding="utf-8")
    # A source-map comment would make developer tools ask for a file that is not there.
    text = re.sub(r"//# sourceMappingURL=\S*", "", text)
    return re.sub(r"</(script)", r"<\\/\1", text, flags=re.IGNORECASE)


def json_for_html(value) -> str:
    """JSON that cannot end the <script> element it sits in, or start a comment there."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def _csp_hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode() + "'"


def render_html(payload: dict) -> str:
    """The page for `payload`, with every script and style inside it."""
    vis_js, app_js = vis_network_js(), asset("view.js")
    csp = ("default-src 'none'; "
           f"script-src {_csp_hash(vis_js)} {_csp_hash(app_js)}; "
           "style-src 'unsafe-inline'; img-src data:; font-src data:; "
           "connect-src 'none'; form-action 'none'; base-uri 'none'")
    meta = payload["meta"]
    # string.Template fills only ${name} in our page; the inserted values are not scanned again.
    page = Template((resources.files("kg.view") / "templates" / "page.html").read_text(encoding="utf-8"))
    return page.substitute(
        csp=csp,
        title=f"kg view: {meta['nodes']:,} entities, {meta['edges']:,} relations",
        style=asset("view.css"),
        vis_js=vis_js,
        data=json_for_html(payload),
        app_js=app_js,
    )


def write_view(store: KGStore, out: str | os.PathLike, *, focus: str | None = None, hops: int = 1,
               types: list[str] | None = None, max_nodes: int = DEFAULT_MAX_NODES) -> Path:
    """Write the HTML view of `store` (or of a neighbourhood or some types of it) to `out`."""
    # The evidence of the nodes drawn only: a summary of a large graph reads
    # as much as its page shows, not the whole store.
    chosen = select(read_summary(store), focus=focus, hops=hops, types=types, max_nodes=max_nodes,
                    named_with=lambda iris: named_with(store, iris))
    vg = add_evidence(store, chosen)
    out = Path(out)
    atomic_write_text(out, render_html(view_payload(vg)))
    return out
