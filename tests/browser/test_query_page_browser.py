"""The /query page of `kg serve` in headless Chromium, with every request to
another origin refused: a ready question and a typed query both fill the table."""

from __future__ import annotations

import threading

import pytest

from kg.serve import ServeConfig, make_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(demo_build):
    srv = make_server(ServeConfig(build_dir=demo_build, port=0, workers=2, quiet=True))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_query_page_runs_ready_and_typed_queries_offline(browser, server):
    ctx = browser.new_context(service_workers="block")
    outside, errors = [], []

    def route(r):
        if r.request.url.startswith(server.url + "/"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/query")
        page.select_option("#ready", "leaderboard")
        page.fill("#params input[name=dataset]", "librispeech")
        page.fill("#params input[name=metric]", "WER")
        page.click("#run")
        page.wait_for_selector("#results table td", timeout=30_000)
        assert page.inner_text("#results table tr:nth-child(2) td:first-child") == "LumaASR"

        page.select_option("#ready", "")
        page.fill("#text", 'PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n'
                           'SELECT ?l WHERE { ?e skos:prefLabel ?l FILTER(?l = "ImageNet") }')
        page.click("#run")
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('1 row')", timeout=30_000)
        assert page.inner_text("#results table td") == "ImageNet"

        page.fill("#text", "SELECT * WHERE { ?s ?p }")
        page.click("#run")
        page.wait_for_selector("#status.error", timeout=30_000)
        assert "400" in page.inner_text("#status")
    finally:
        ctx.close()
    assert outside == [] and errors == []
