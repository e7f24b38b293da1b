"""The dashboard without a browser: pages, security headers, ports, the activity log and the
MCP server's side of it (server info, tool-call hook)."""

from __future__ import annotations

import json
import re
import socket
from html import unescape as html_unescape
from pathlib import Path

import pytest
from dashboard_project import make_dashboard_project
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import Client
from myst_samples import MYST_PAGE
from starlette.testclient import TestClient

from catdoc import results as r
from catdoc.errors import IO_ERROR, CatDocError
from catdoc.mcp_server import build_server
from catdoc.service import CatDoc
from catdoc.web.activity import ActivityLog
from catdoc.web.app import create_app
from catdoc.web.graphs import MAX_NODES, graph_drawing
from catdoc.web.server import open_dashboard, open_socket

PORT = 8000


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_dashboard_project(tmp_path_factory.mktemp("dash") / "proj")


@pytest.fixture(scope="module")
def client(root: Path) -> TestClient:
    app = create_app(CatDoc(root), activity=ActivityLog(), port=PORT)
    return TestClient(app, base_url=f"http://127.0.0.1:{PORT}")


@pytest.mark.parametrize(
    ("url", "texts"),
    [
        ("/", ["Requirements", "Requirements → Specifications", "unit suites ⇒ end-to-end"]),
        ("/categories/requirements", ["Checkout", "checkout-depends-on-cart", "specify"]),
        ("/objects/req-checkout", ["Mira Okafor", "Shopping cart", "Checkout API"]),
        ("/morphisms/checkout-depends-on-cart", ["depends-on", "Shopping cart"]),
        ("/functors/specify", ["identity preservation", "req-checkout", "spec-checkout-api"]),
        ("/transformations/unit-gates-e2e", ["impl-cart-module", "cart-unit-gates-e2e"]),
        ("/validation", ["Valid", "categories"]),
        ("/search?q=card+payment", ["Card payments", "<mark>"]),
        ("/search?q=card&scope=chunks", ["Card payments"]),
        ("/trace?source=req-checkout&target=test-checkout-e2e", ["paths from", "specify"]),
        (
            "/trace?source=test-checkout-e2e&target=req-checkout",
            ["functors lead only the other way", 'href="/objects/req-checkout"'],
        ),
        ("/activity", ["Activity"]),
    ],
)
def test_pages_render_the_example(client: TestClient, url: str, texts: list[str]) -> None:
    response = client.get(url)
    assert response.status_code == 200, response.text
    for text in texts:
        assert text in response.text
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"


def test_unknown_entity_is_a_404_with_suggestions(client: TestClient) -> None:
    response = client.get("/objects/req-checkot")
    assert response.status_code == 404
    assert 'href="/objects/req-checkout"' in response.text


def test_bad_search_is_explained_on_the_page(client: TestClient) -> None:
    response = client.get("/search?q=card&mode=nonsense")
    assert response.status_code == 200
    assert "error-box" in response.text


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1:1", "localhost.evil.example:8000"])
def test_foreign_host_header_is_refused(client: TestClient, host: str) -> None:
    response = client.get("/", headers={"host": host})
    assert response.status_code == 403
    assert "localhost" in response.text


def test_user_strings_are_escaped(client: TestClient) -> None:
    page = client.get("/objects/evil-doc").text
    assert "<img src=x" not in page and "<script>window" not in page
    assert "&lt;img src=x onerror=window.__xss=1&gt; Hostile" in page
    assert 'href="javascript:' not in page
    assert "<strong>bold text</strong>" in page  # Markdown itself is rendered
    assert "<script>window" not in client.get("/").text


def test_graph_drawings_are_bounded(tmp_path: Path) -> None:
    from benchmarks.generate import generate

    generate(1000, tmp_path / "big")
    svc = CatDoc(tmp_path / "big")
    client = TestClient(create_app(svc, port=PORT), base_url=f"http://localhost:{PORT}")
    category = svc.list_categories()[0]
    page = client.get(f"/categories/{category.id}?g=100").text
    assert f"{MAX_NODES} nodes" in page and f"101–{100 + MAX_NODES} of 250" in page
    obj = svc.list_objects(limit=1).items[0]
    assert client.get(f"/objects/{obj.id}").status_code == 200


def test_drawn_elements_have_ids_of_their_own() -> None:
    """Entity ids are free text: an object `e:m` beside a morphism `m`, or two functor hops
    named `a:b:c` (functor `a` at `b:c`, functor `a:b` at `c`), are all drawn, each element
    with an id Cytoscape has not seen (it refuses a second element with one id)."""
    nodes = [r.GraphNode(id=i, label=i, type="object") for i in ("e:m", "b:c", "c", "x")]
    edges = [
        r.GraphEdge(id="m", source="e:m", target="x", label="m"),
        r.GraphEdge(id="a:b:c", source="b:c", target="x", label="a", type="functor"),
        r.GraphEdge(id="a:b:c", source="c", target="x", label="a:b", type="functor"),
    ]
    elements = graph_drawing(r.GraphData(nodes=nodes, edges=edges)).elements()
    ids = [element["data"]["id"] for element in elements]
    assert len(ids) == 7 and len(set(ids)) == 7
    node_id = {e["data"]["title"]: e["data"]["id"] for e in elements if "source" not in e["data"]}
    drawn = {(e["data"]["source"], e["data"]["title"]) for e in elements if "source" in e["data"]}
    assert drawn == {(node_id["e:m"], "m"), (node_id["b:c"], "a"), (node_id["c"], "a:b")}


def test_ports_given_configured_or_free(root: Path) -> None:
    svc = CatDoc(root)
    taken = open_socket(svc, 0)
    try:
        port = taken.getsockname()[1]
        with pytest.raises(CatDocError) as caught:
            open_socket(svc, port)
        assert caught.value.code == IO_ERROR and "already in use" in caught.value.message
        config = root / ".catdoc" / "config.yaml"
        config.write_text(config.read_text().replace("port: 8765", f"port: {port}"))
        fallback = open_socket(svc, None)  # configured port taken: a free one instead
        assert fallback.getsockname()[1] not in (port, 0)
        fallback.close()
    finally:
        taken.close()
    with pytest.raises(CatDocError):
        open_dashboard(svc, 70000)


def test_free_port_when_nothing_is_configured(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    board = open_dashboard(CatDoc(tmp_path), None)
    assert board.port > 0 and board.url == f"http://127.0.0.1:{board.port}/"
    with socket.create_connection(("127.0.0.1", board.port)):
        pass
    board.sock.close()


def test_activity_log_is_a_ring_of_summaries() -> None:
    from mcp.types import CallToolResult, TextContent

    log = ActivityLog(size=3)
    ok = CallToolResult(content=[], structured_content={"total": 7, "items": []})
    failed = CallToolResult(
        content=[TextContent(type="text", text='{"error":{"code":"NOT_FOUND","message":"No x."}}')],
        is_error=True,
    )
    for index in range(4):
        log.record("catdoc_list_objects", {"limit": index}, 0.002, ok)
    log.record("catdoc_show_object", {"objectId": "x" * 1000}, 0.001, failed)
    calls = log.latest(10)
    assert [c.seq for c in calls] == [5, 4, 3]
    assert calls[0].summary == "NOT_FOUND: No x." and not calls[0].ok
    assert len(calls[0].arguments) <= 300
    assert calls[1].summary == "7 total" and calls[1].duration_ms == 2.0
    assert [c.seq for c in log.since(4)] == [5]


@pytest.mark.anyio
async def test_mcp_server_records_tool_calls_and_names_the_dashboard(root: Path) -> None:
    url = "http://127.0.0.1:9999/"
    server = build_server(CatDoc(root), dashboard_url=url)
    server.activity = ActivityLog()
    async with Client(server) as connected:
        assert connected.server_info.website_url == url
        assert url in (connected.instructions or "")
        await connected.call_tool("catdoc_show_category", {"categoryId": "requirements"})
        await connected.call_tool("catdoc_show_object", {"objectId": "nope"})
    first, second = server.activity.since(0)
    assert (first.tool, first.ok, first.summary) == ("catdoc_show_category", True, "requirements")
    assert '"requirements"' in first.arguments
    assert second.tool == "catdoc_show_object" and second.summary.startswith("NOT_FOUND")


@pytest.mark.anyio
async def test_without_dashboard_nothing_is_recorded_or_advertised(root: Path) -> None:
    server = build_server(CatDoc(root))
    async with Client(server) as connected:
        assert connected.server_info.website_url is None
        assert "dashboard" not in (connected.instructions or "")
        await connected.call_tool("catdoc_list_categories", {})
    assert server.activity is None


def test_restructuredtext_is_rendered_and_cleaned() -> None:
    from catdoc.web.render import document_html

    text = (
        "Title\n=====\n\nSome *emphasis* and a `link <https://example.org>`_.\n\n"
        ".. raw:: html\n\n   <script>alert(1)</script>\n\n"
        "`bad <javascript:alert(1)>`_\n\n.. include:: /etc/passwd\n"
    )
    html = str(document_html(text, "docs/a.rst"))
    assert "<em>emphasis</em>" in html
    assert 'href="https://example.org"' in html
    assert "<script" not in html and "javascript:" not in html
    assert "root:" not in html


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "<script>alert(1)</script>",
                "<img src=x onerror=alert(1)>",
                "<!-- c -->",
                "<!--",
                "-->",
                "<div>",
                "</div>",
                "\n",
                "\n\n",
                "text",
                "`code`",
                "<b>",
                "<?php x ?>",
                "<![CDATA[x]]>",
                "<!DOCTYPE x>",
                "<a href='javascript:x'>",
                "```{note}\n",
                "```\n",
                ":::{warning}\n",
                ":::\n",
                "{ref}`<b>x</b>`",
                "(label)=\n",
                "% comment\n",
                "```{code-block} <script>\n",
            ]
        ),
        max_size=12,
    )
)
def test_raw_html_in_markdown_never_reaches_the_page(parts: list[str]) -> None:
    from catdoc.web.render import document_html

    html = str(document_html("".join(parts), "docs/a.md"))
    assert "<script" not in html and "<img" not in html and "<div" not in html
    assert "<b>" not in html and "<?" not in html and "<!" not in html and "<a " not in html


def test_markdown_comments_are_left_out_and_other_html_shown_as_text() -> None:
    from catdoc.web.render import document_html

    text = (
        "# T\n\n<!-- [[[cog\nprint(sponsors)\n]]] -->\n\n"
        "Text <!-- hidden --> and <b>bold</b> <script>alert(1)</script>\n"
    )
    html = str(document_html(text, "docs/a.md"))
    assert "cog" not in html and "sponsors" not in html and "hidden" not in html
    assert "&lt;b&gt;bold&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_myst_documents_read_as_sphinx_shows_them() -> None:
    from catdoc.web.render import document_html

    html = str(document_html(MYST_PAGE, "docs/caching.md"))
    for hidden in ("(wheel-caching)=", "a comment", "{ref}", "{class}", ":class:", ":caption:"):
        assert hidden not in html
    assert "See local installs and <code>Cache</code>." in html
    assert "<p><strong>Changed in version 23.3</strong></p>" in html
    assert "<code>http-v2</code>" in html and "<strong>not</strong>" in html
    assert '<code class="language-python">print(1)' in html
    assert "<pre><code>$ pip cache dir" in html  # another directive: its content as code


def test_an_object_page_notices_its_own_document_changing(root: Path) -> None:
    from catdoc.web.app import project_token

    svc = CatDoc(root)
    obj = svc.show_object("req-checkout")
    assert obj.path
    before = project_token(svc, obj.id)
    assert project_token(svc) == project_token(svc)  # stable while nothing changes
    document = root / obj.path
    document.write_text(document.read_text() + "\nOne more line.\n")
    assert project_token(svc, obj.id) != before


def test_pages_notice_a_review(root: Path) -> None:
    from catdoc.web.app import project_token

    svc = CatDoc(root)
    svc.review(all=True, by="Ada")
    document = root / svc.show_object("req-checkout").path  # type: ignore[operator]
    document.write_text(document.read_text() + "\nOne more line.\n")
    before = project_token(svc)
    svc.review(["req-checkout"], by="Bob")  # only reviews.yaml changes: the suspects page does
    assert project_token(svc) != before


def test_every_link_on_mapping_pages_resolves(client: TestClient, root: Path) -> None:
    """Functor pages link object images to object pages and morphism images to morphism pages;
    natural transformations link their components (morphisms) likewise."""
    svc = CatDoc(root)
    pages = [f"/functors/{f.id}" for f in svc.list_functors()]
    pages += [f"/transformations/{n.id}" for n in svc.list_natural_transformations()]
    for page in pages:
        html = client.get(page).text
        assert "/morphisms/" in html
        for href in sorted(set(re.findall(r'href="(/[^"?]+)"', html))):
            assert client.get(html_unescape(href)).status_code == 200, (page, href)


DOTS_MODEL = """\
categories:
  - id: dots
    name: Dots
    objects:
      - {id: "..", title: Two dots}
      - {id: ".", title: One dot}
      - {id: "a/b", title: Slashed}
    morphisms:
      - {id: "..", name: up, source: "..", target: "."}
"""


def test_dot_ids_have_pages(tmp_path: Path) -> None:
    """`/objects/..` would be `/` to a browser (so would `%2E%2E`): such ids go in the query."""
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / ".catdoc" / "category.yaml").write_text(DOTS_MODEL, encoding="utf-8")
    client = TestClient(
        create_app(CatDoc(tmp_path), port=PORT), base_url=f"http://127.0.0.1:{PORT}"
    )
    listing = client.get("/categories/dots").text
    hrefs = set(re.findall(r'href="(/(?:objects|morphisms)/[^"]*)"', listing))
    assert {"/objects/?id=..", "/objects/?id=.", "/objects/a%2Fb", "/morphisms/?id=.."} <= hrefs
    for href, title in [("/objects/?id=..", "Two dots"), ("/objects/?id=.", "One dot")]:
        page = client.get(href)
        assert page.status_code == 200 and f"<h1>{title}</h1>" in page.text
    assert 'href="/chain/?id=.."' in client.get("/objects/?id=..").text
    assert client.get("/chain/?id=..").status_code == 200
    assert "up" in client.get("/morphisms/?id=..").text


def test_pages_past_the_end_show_the_last_page(tmp_path: Path) -> None:
    """`?o=500` of 123 rows shows rows 101-123, labelled so, on category, functor and
    validation pages (the label said 123-123 over an empty table)."""
    ids = [f"o{i}" for i in range(123)]
    model = {
        "categories": [
            {
                "id": "big",
                "name": "Big",
                "objects": [{"id": i, "title": i} for i in ids],
                "morphisms": [
                    {"id": f"m{i}", "name": "to", "source": i, "target": f"ghost{i}"} for i in ids
                ],
            }
        ],
        "functors": [
            {
                "id": "same",
                "name": "Same",
                "sourceCategory": "big",
                "targetCategory": "big",
                "objectMapping": {i: i for i in ids},
            }
        ],
    }
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / ".catdoc" / "category.yaml").write_text(json.dumps(model), encoding="utf-8")
    client = TestClient(
        create_app(CatDoc(tmp_path), port=PORT), base_url=f"http://127.0.0.1:{PORT}"
    )
    for url, table in [
        ("/categories/big?o=500", r'<table id="objects">'),
        ("/functors/same?o=500", r'<table class="mapping" id="mapping-o">'),
        (
            "/validation?severity=error&code=CAT_DANGLING_TARGET&offset=500",
            r'<table class="findings">',
        ),
    ]:
        html = client.get(url).text
        rows = re.search(
            table + r".*?<tbody>(.*?)</tbody>.*?<p class=\"pager\">([^<]*)", html, re.S
        )
        assert rows, url
        count = rows[1].count("<tr")
        label = re.match(r"(\d+)–(\d+) of (\d+)", rows[2].strip())
        assert label, url
        start, end, _total = map(int, label.groups())
        assert count == end - start + 1 > 0, (url, count, label[0])
        assert end == int(label[3]), url


def test_quotes_in_a_document_do_not_break_snippet_marks(tmp_path: Path) -> None:
    root = make_dashboard_project(tmp_path / "proj")
    cart = root / "docs" / "requirements" / "cart.md"
    cart.write_text(cart.read_text("utf-8") + "\nThe «unbalanced marmalade.\n", "utf-8")
    client = TestClient(create_app(CatDoc(root), port=PORT), base_url=f"http://127.0.0.1:{PORT}")
    html = client.get("/search?q=marmalade").text
    assert "‹unbalanced <mark>marmalade</mark>." in html
    assert html.count("<mark>") == html.count("</mark>") == 1


def test_errors_and_counts_in_the_pages_own_words(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def error(url: str) -> str:
        found = re.search(r'<div class="error-box">(.*?)</div>', client.get(url).text, re.S)
        assert found, url
        return found[1]

    scope = error("/search?q=card&scope=nonsense")
    assert "passages" in scope and "chunks" not in scope
    monkeypatch.setattr("catdoc.search.semantic.available", lambda: False)
    vector = error("/search?q=card&mode=vector")
    assert "hybrid or text mode" in vector and "--mode" not in vector
    (tmp_path / ".catdoc").mkdir()
    one = "categories:\n  - {id: one, name: One, objects: [{id: only}]}\n"
    (tmp_path / ".catdoc" / "category.yaml").write_text(one, encoding="utf-8")
    small = TestClient(create_app(CatDoc(tmp_path), port=PORT), base_url=f"http://127.0.0.1:{PORT}")
    overview = small.get("/").text
    assert '1 object"' in overview and "1 objects" not in overview


def test_relative_links_and_images_of_a_document(tmp_path: Path) -> None:
    """A link to another object's document opens that object's page; other relative links and
    images, which the dashboard does not serve, keep their text and lose their target."""
    root = make_dashboard_project(tmp_path / "proj")
    checkout = root / "docs" / "requirements" / "checkout.md"
    checkout.write_text(
        checkout.read_text("utf-8")
        + "\nSee [the cart](cart.md#saved), [the API](../specifications/checkout-api.md),"
        " [a note](notes/todo.md), [out](../../../etc/passwd), [web](https://example.org)"
        " and [here](#top).\n\n![flow diagram](img/flow.png)\n",
        "utf-8",
    )
    svc = CatDoc(root)
    spec = svc.show_object("spec-checkout-api").path
    assert spec == "docs/specifications/checkout-api.md"
    client = TestClient(create_app(svc, port=PORT), base_url=f"http://127.0.0.1:{PORT}")
    html = client.get("/objects/req-checkout").text
    article = html.split('<article class="document">', 1)[1]
    assert '<a href="/objects/req-cart#saved">the cart</a>' in article
    assert '<a href="/objects/spec-checkout-api">the API</a>' in article
    assert "<a>a note</a>" in article and "<a>out</a>" in article
    assert '<a href="https://example.org">web</a>' in article
    assert '<a href="#top">here</a>' in article
    assert '<img alt="flow diagram" />' in article
    for href in re.findall(r'href="(/objects/[^"#]*)', article):
        assert client.get(href).status_code == 200

    from catdoc.web.render import document_html

    rst = "See `cart <../requirements/cart.md>`_.\n\n.. image:: _static/x.png\n   :alt: x\n"
    page_of = {"docs/requirements/cart.md": "/objects/req-cart"}.get
    html = str(document_html(rst, "docs/design/a.rst", page_of))
    assert 'href="/objects/req-cart"' in html
    assert "<img" in html and "src=" not in html and 'alt="x"' in html
