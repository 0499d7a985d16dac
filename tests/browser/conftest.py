"""Headless Chromium for the view's browser tests, with every request that is
not the page's own file refused and recorded.

Needs Debian's `chromium` at /usr/bin/chromium and the playwright Python
package (its own browser downloads are never used); skips without them."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# The view corpus lives beside test_view.py, one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@dataclass
class OpenView:
    page: object
    url: str
    requests: list[str] = field(default_factory=list)   # every request the page made
    refused: list[str] = field(default_factory=list)    # those that were not the page itself
    errors: list[str] = field(default_factory=list)     # console errors and uncaught exceptions


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
    pw = sync_api.sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    except Exception as err:  # a broken Chromium install is an environment fault, not a test failure
        pw.stop()
        pytest.skip(f"Chromium does not start: {err}")
    yield b
    b.close()
    pw.stop()


@pytest.fixture
def open_view(browser):
    """Open an HTML file offline and wait for its first drawing (the view), or
    only for its load event with `drawn=False` (pages with no graph, such as the report)."""
    contexts = []

    def _open(path: Path, width: int = 1400, height: int = 900, drawn: bool = True) -> OpenView:
        ctx = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
        contexts.append(ctx)
        page = ctx.new_page()
        view = OpenView(page=page, url=Path(path).resolve().as_uri())

        def route(r):
            if r.request.url == view.url:
                r.continue_()
            else:
                view.refused.append(r.request.url)
                r.abort()

        ctx.route("**/*", route)
        page.on("request", lambda r: view.requests.append(r.url))
        page.on("console", lambda m: m.type == "error" and view.errors.append(m.text))
        page.on("pageerror", lambda e: view.errors.append(str(e)))
        page.on("requestfailed", lambda r: r.url not in view.refused and view.refused.append(r.url))
        page.goto(view.url, wait_until="load")
        if drawn:
            page.wait_for_function("document.documentElement.getAttribute('data-kg-drawn') === '1'", timeout=60_000)
        return view

    yield _open
    for ctx in contexts:
        ctx.close()
