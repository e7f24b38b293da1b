"""The dashboard in a real headless browser (Debian's chromium driven by Playwright): pages draw
the example's data, links and graph nodes navigate, file changes and tool calls show up live,
and injected markup never runs. One browser and one server for the whole module."""

from __future__ import annotations

import http.client
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from dashboard_project import HOSTILE_TITLE, make_dashboard_project

from catdoc.mcp_server import build_server
from catdoc.service import CatDoc
from catdoc.web.activity import ActivityLog
from catdoc.web.server import Dashboard, open_dashboard

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 15_000

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is needed")
if CHROMIUM is None:
    pytest.skip(
        "no chromium found: install it (apt-get install chromium) to run the browser tests",
        allow_module_level=True,
    )
expect = sync_api.expect


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_dashboard_project(tmp_path_factory.mktemp("browser") / "proj")


@pytest.fixture(scope="module")
def board(root: Path) -> Iterator[Dashboard]:
    board = open_dashboard(CatDoc(root), 0, ActivityLog())
    thread = board.start_in_background()
    yield board
    board.stop()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, board: Dashboard) -> Iterator[Any]:
    """A fresh page; a script error on it fails the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors


def open_page(page: Any, board: Dashboard, path: str) -> None:
    page.goto(board.url.rstrip("/") + path)


def graph_nodes(page: Any) -> int:
    """Wait until the page's graph is drawn, then count its nodes (`window.cy`)."""
    page.wait_for_selector("body[data-graph-ready]", state="attached")
    return int(page.evaluate("window.cy.nodes().length"))


def click_node(page: Any, node_id: str) -> None:
    """Click a graph node with the mouse, where Cytoscape drew it."""
    x, y = page.evaluate(
        "(id) => { const p = window.cy.nodes().filter(n => n.data('entity') === id)"
        "[0].renderedPosition();"
        " const box = document.getElementById('graph').getBoundingClientRect();"
        " return [box.left + p.x, box.top + p.y]; }",
        node_id,
    )
    page.mouse.click(x, y)


def test_overview_draws_categories_and_links_navigate(page: Any, board: Dashboard) -> None:
    open_page(page, board, "/")
    assert graph_nodes(page) == 6  # five example layers and the hostile one
    expect(page.locator(".card.valid")).to_contain_text("valid")
    expect(page.locator("main")).to_contain_text("Requirements → Specifications")
    page.get_by_role("link", name="Requirements", exact=True).click()
    expect(page).to_have_url(board.url + "categories/requirements")
    assert graph_nodes(page) == 4
    expect(page.locator("#objects")).to_contain_text("Card payments")


def test_object_page_renders_document_and_graph_nodes_navigate(page: Any, board: Dashboard) -> None:
    open_page(page, board, "/objects/req-checkout")
    expect(page.locator("h1").first).to_have_text("Checkout")
    expect(page.locator("article.document h1")).to_be_visible()
    assert graph_nodes(page) == 5  # itself, three neighbours, its image under `specify`
    click_node(page, "req-cart")
    expect(page).to_have_url(board.url + "objects/req-cart")
    page.get_by_role("link", name="Checkout", exact=True).first.click()
    expect(page).to_have_url(board.url + "objects/req-checkout")


def test_functor_mapping_filters_and_validation(page: Any, board: Dashboard) -> None:
    open_page(page, board, "/functors/specify")
    expect(page.locator("#mapping-o tbody tr")).to_have_count(4)
    page.locator("select[name=status]").select_option("missing")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("#mapping-o")).to_contain_text("No entries match the filter")
    open_page(page, board, "/validation")
    expect(page.locator(".verdict")).to_contain_text("Valid")


def test_search_and_trace(page: Any, board: Dashboard) -> None:
    open_page(page, board, "/search")
    page.locator("input[name=q]").fill("card payment")
    page.get_by_role("button", name="Search").click()
    expect(page.locator(".hit").first).to_contain_text("Card payments")
    expect(page.locator(".snippet mark").first).to_be_visible()
    open_page(page, board, "/trace?source=req-checkout&target=test-checkout-e2e")
    expect(page.locator(".paths li").first).to_be_visible()
    assert graph_nodes(page) >= 5


def test_open_page_updates_when_a_file_changes(page: Any, board: Dashboard, root: Path) -> None:
    model = root / ".catdoc" / "category.yaml"
    original = model.read_text(encoding="utf-8")
    open_page(page, board, "/objects/req-cart")
    expect(page.locator("#live")).to_have_class("live on")
    expect(page.locator("h1").first).to_have_text("Shopping cart")
    try:
        model.write_text(original.replace("Shopping cart", "Shopping basket"), encoding="utf-8")
        expect(page.locator("h1").first).to_have_text("Shopping basket")
    finally:
        model.write_text(original, encoding="utf-8")
    expect(page.locator("h1").first).to_have_text("Shopping cart")


def test_tool_calls_appear_in_the_activity_panel(page: Any, board: Dashboard) -> None:
    open_page(page, board, "/")
    expect(page.locator("#live")).to_have_class("live on")
    server = build_server(board.svc)
    server.activity = board.activity

    async def call() -> None:
        await server.call_tool("catdoc_show_object", {"objectId": "req-payment"})

    caller = threading.Thread(target=anyio.run, args=(call,))  # Playwright owns this thread's loop
    caller.start()
    caller.join(timeout=30)
    first = page.locator("#activity-list li").first
    expect(first).to_contain_text("catdoc_show_object")
    expect(first).to_contain_text("req-payment")


def test_background_vectors_show_in_the_header_while_they_last(page: Any, board: Dashboard) -> None:
    """What the background workers report (through `CatDoc.watch_vectors`, to the hook the
    search engine hands them) shows live in the header, and on every page drawn meanwhile."""
    step = "Computing vectors of documents in the background"
    report = board.svc.search_engine().background_progress
    open_page(page, board, "/")
    expect(page.locator("#live")).to_have_class("live on")
    shown = page.locator("#background")
    expect(shown).to_be_hidden()
    report(step, 30, 60)
    expect(shown).to_have_text(f"{step}: 30 of 60")
    assert shown.locator("progress").evaluate("bar => [bar.value, bar.max]") == [30, 60]
    open_page(page, board, "/validation")
    expect(shown).to_contain_text(f"{step}: 30 of 60")
    expect(page.locator("#live")).to_have_class("live on")
    report(step, 60, 60)
    expect(shown).to_be_hidden()


def test_injected_markup_does_not_run(page: Any, board: Dashboard) -> None:
    page.on("dialog", lambda dialog: pytest.fail(f"a dialog opened: {dialog.message}"))
    for path in ("/objects/evil-doc", "/categories/hostile", "/", "/search?q=evil"):
        open_page(page, board, path)
        page.wait_for_load_state("load")
        assert page.evaluate("window.__xss") is None
    open_page(page, board, "/objects/evil-doc")
    expect(page.locator("h1").first).to_have_text(HOSTILE_TITLE)
    expect(page.locator("article.document")).to_contain_text("<script>window.__xss=2</script>")
    assert page.locator("article.document a[href^='javascript']").count() == 0


def test_foreign_host_is_refused(board: Dashboard) -> None:
    def status(host: str) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", board.port, timeout=10)
        connection.request("GET", "/", headers={"Host": host})
        code = connection.getresponse().status
        connection.close()
        return code

    assert status(f"127.0.0.1:{board.port}") == 200
    assert status(f"localhost:{board.port}") == 200
    assert status("attacker.example") == 403
    assert status(f"attacker.example:{board.port}") == 403


LONG = "x" * 3000
LONG_MODEL = f"""\
categories:
  - id: long
    name: Long{LONG}
    description: {LONG}
    objects:
      - {{id: a, title: "{LONG}", tags: ["{LONG}"]}}
      - {{id: b, title: B}}
    morphisms:
      - {{id: ab, name: "{LONG}", source: a, target: b}}
"""


def test_long_words_wrap_and_graph_labels_are_cut(browser: Any, tmp_path: Path) -> None:
    """A 3,000-character word wraps on the page, and the graph cuts it (whole on hover)."""
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / ".catdoc" / "category.yaml").write_text(LONG_MODEL, encoding="utf-8")
    board = open_dashboard(CatDoc(tmp_path), 0)
    thread = board.start_in_background()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        for path in ("/morphisms/ab", "/", "/categories/long", "/objects/a"):
            open_page(page, board, path)
            page.wait_for_load_state("load")
            assert page.evaluate("document.documentElement.scrollWidth") <= 1280, path
            if path != "/morphisms/ab":
                graph_nodes(page)
                assert page.evaluate("window.cy.zoom()") >= 0.5, path
                labels = page.evaluate("window.cy.elements().map(e => e.data('label'))")
                assert all(len(label) < 100 for label in labels), path
        title = "window.cy.nodes().filter(n => n.data('entity') === 'a')[0].data('title')"
        assert page.evaluate(title) == LONG
    finally:
        context.close()
        board.stop()
        thread.join(timeout=10)


PHONE_PAGES = [
    "/",
    "/categories/requirements",
    "/objects/req-checkout",
    "/functors/specify",
    "/transformations/unit-gates-e2e",
    "/validation",
    "/search?q=card",
    "/trace?source=req-checkout&target=test-checkout-e2e",
    "/coverage",
    "/activity",
]


def test_pages_fit_a_phone(browser: Any, board: Dashboard) -> None:
    """At 390 px the header's links wrap and the tool-call panel goes below the content."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        for path in PHONE_PAGES:
            open_page(page, board, path)
            page.wait_for_load_state("load")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
            assert page.locator("main").evaluate("m => m.getBoundingClientRect().width") >= 360
            nav = page.locator(".top nav a").last.evaluate("a => a.getBoundingClientRect().right")
            assert nav <= 390, path
    finally:
        context.close()


def test_many_tabs_share_one_stream(browser: Any, board: Dashboard, root: Path) -> None:
    """Eight tabs (a browser opens 6 connections to a host, and each stream held one) all load
    and all follow a change; so does a tab without SharedWorker, on a stream of its own."""
    model = root / ".catdoc" / "category.yaml"
    original = model.read_text(encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    alone = browser.new_context(viewport={"width": 1280, "height": 900})
    alone.set_default_timeout(TIMEOUT_MS)
    alone.add_init_script("delete window.SharedWorker;")
    try:
        pages = []
        for path in ["/objects/req-cart", "/categories/requirements"] * 4:
            page = context.new_page()
            open_page(page, board, path)
            expect(page.locator("#live")).to_have_class("live on")
            pages.append(page)
        pages.append(alone.new_page())
        open_page(pages[-1], board, "/objects/req-cart")
        expect(pages[-1].locator("#live")).to_have_class("live on")
        model.write_text(original.replace("Shopping cart", "Shopping basket"), encoding="utf-8")
        for page in pages:
            expect(page.locator("main")).to_contain_text("Shopping basket")
    finally:
        model.write_text(original, encoding="utf-8")
        context.close()
        alone.close()


def test_one_stream_follows_at_most_max_watches_objects(board: Dashboard) -> None:
    from catdoc.web.app import MAX_WATCHES

    query = "&".join(f"watch=o{n}" for n in range(MAX_WATCHES * 3))
    connection = http.client.HTTPConnection("127.0.0.1", board.port, timeout=10)
    connection.request("GET", f"/events?{query}", headers={"Host": f"127.0.0.1:{board.port}"})
    response = connection.getresponse()
    assert response.status == 200
    event = b""
    while not event.endswith(b"\r\n\r\n") and not event.endswith(b"\n\n"):
        event += response.read1(4096)  # the first event: the tokens, sent on connecting
    connection.close()
    data = next(line for line in event.decode().splitlines() if line.startswith("data:"))
    tokens = json.loads(data.removeprefix("data:").strip())
    assert "" in tokens and len(tokens) == MAX_WATCHES + 1
