"""The dashboard's traceability pages over HTTP: coverage per functor with its uncovered ids,
suspect links with what changed (the diff from git), an object's chain from its page; escaping,
errors, and pages that stay one page of rows at 10,000 objects."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from dashboard_project import make_dashboard_project
from starlette.testclient import TestClient

from catdoc.service import CatDoc
from catdoc.web.app import create_app
from catdoc.web.pages import CHAIN_PER_GROUP, PAGE

PORT = 8000
CART = "docs/requirements/cart.md"


def client_for(root: Path) -> TestClient:
    return TestClient(create_app(CatDoc(root), port=PORT), base_url=f"http://127.0.0.1:{PORT}")


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=Ada", "-c", "user.email=ada@example.org", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example in git, every link reviewed and committed, then the cart requirement
    edited: the links touching it are suspect, with a diff since the review."""
    root = make_dashboard_project(tmp_path_factory.mktemp("trace") / "proj")
    git(root, "init", "-q")
    CatDoc(root).review(all=True, by="Ada")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "reviewed")
    path = root / CART
    path.write_text(path.read_text("utf-8") + "\nSaved carts expire after 30 days.\n", "utf-8")
    return root


@pytest.fixture(scope="module")
def client(root: Path) -> TestClient:
    return client_for(root)


def rows(html: str, table_class: str) -> list[str]:
    tables = re.findall(rf'<table class="{table_class}">(.*?)</table>', html, re.S)
    return [row for table in tables for row in re.findall(r"<tr class=.*?</tr>", table, re.S)]


def test_coverage_shares_and_the_orphans_of_each_functor(client: TestClient) -> None:
    page = client.get("/coverage")
    assert page.status_code == 200
    html = page.text
    assert '<a href="/coverage" aria-current="page">Coverage</a>' in html
    for functor in ("specify", "architect", "implement", "unit-test", "end-to-end"):
        assert f'href="/functors/{functor}"' in html
    # end-to-end reaches one of the six test suites: the other five are orphans
    assert '16.7%</span> <span class="muted">1 of 6</span>' in html
    assert '66.7%</span> <span class="muted">4 of 6</span>' in html
    section = html[html.index('href="/functors/end-to-end"') :]
    for orphan in ("test-cart-unit", "test-checkout-unit", "test-payment-contract"):
        assert f'href="/objects/{orphan}"' in section


def test_suspect_links_with_what_changed(client: TestClient) -> None:
    html = client.get("/suspects").text
    assert "need a review" in html
    assert '<code class="key">morphism:checkout-depends-on-cart</code>' in html
    assert "req-cart changed (target end)" in html
    assert '<span class="add">+Saved carts expire after 30 days.</span>' in html
    assert 'href="/objects/req-cart"' in html
    assert "catdoc review KEY" in html
    assert "<form" in html and 'method="post"' not in html  # the dashboard only reads
    only = client.get("/suspects?category=tests").text
    assert "morphism:checkout-depends-on-cart" not in only
    assert "All" in only and "are reviewed and current" in only


def test_the_chain_of_an_object_from_its_page(client: TestClient) -> None:
    page = client.get("/objects/req-checkout").text
    assert 'href="/chain/req-checkout"' in page
    html = client.get("/chain/req-checkout").text
    layers = re.findall(r'<h2><a href="/categories/([^"]+)"', html)
    assert layers == ["requirements", "specifications", "design", "implementation", "tests"]
    entries = rows(html, "chain")
    assert len(entries) == 1 + 1 + 15  # req-receipt above, the object, fifteen below
    start = next(r for r in entries if r.startswith('<tr class="start'))
    assert 'href="/objects/req-checkout"' in start
    cart = next(r for r in entries if 'href="/objects/req-cart"' in r.split("</td>")[1])
    assert 'class="down suspect"' in cart and "req-cart changed" in cart
    assert "morphism:checkout-depends-on-cart" in cart
    assert '<a href="/suspects" class="mark">⚠ 2</a>' in html
    receipt = next(r for r in entries if r.startswith('<tr class="up'))
    assert "←" in receipt and 'href="/morphisms/receipt-depends-on-checkout"' in receipt


def test_unknown_ids_and_categories_are_explained(client: TestClient) -> None:
    missing = client.get("/chain/req-checkot")
    assert missing.status_code == 404 and 'href="/objects/req-checkout"' in missing.text
    assert client.get("/suspects?category=nowhere").status_code == 404


def test_reviews_off_and_no_functors_say_so(tmp_path: Path) -> None:
    root = make_dashboard_project(tmp_path / "proj")
    client = client_for(root)
    assert "Reviews are off" in client.get("/suspects").text
    chain = client.get("/chain/req-cart").text
    assert "Reviews are off" in chain and "⚠" not in chain.split("<main>")[1]
    bare = tmp_path / "bare"
    (bare / ".catdoc").mkdir(parents=True)
    (bare / ".catdoc" / "category.yaml").write_text(
        "categories:\n  - id: a\n    name: A\n    objects:\n      - id: x\n", "utf-8"
    )
    assert "The project has no functors" in client_for(bare).get("/coverage").text


def test_hostile_titles_are_escaped_on_the_chain(client: TestClient) -> None:
    html = client.get("/chain/evil-doc").text
    assert "<img src=x" not in html and "<script>window" not in html
    assert "&lt;img src=x onerror=window.__xss=1&gt; Hostile" in html


def test_ten_thousand_objects_stay_one_page_of_rows(tmp_path: Path) -> None:
    """Whatever the project's size, a page lists at most a page of ids per list and
    CHAIN_PER_GROUP entries per category."""
    root = tmp_path / "big"
    (root / ".catdoc").mkdir(parents=True)
    reqs = "".join(f"      - id: r{i}\n        content: r {i}\n" for i in range(5000))
    tests = "".join(f"      - id: t{i}\n        content: t {i}\n" for i in range(5000))
    hub = "".join(
        f"      - id: m{i}\n        name: needs\n        source: r0\n        target: r{i}\n"
        for i in range(1, 5000)
    )
    mapping = "".join(f"      r{i}: t{i}\n" for i in range(0, 5000, 2))
    model = (
        f"categories:\n  - id: req\n    name: Req\n    objects:\n{reqs}    morphisms:\n{hub}"
        f"  - id: test\n    name: Test\n    objects:\n{tests}"
        "functors:\n  - id: check\n    name: Check\n    sourceCategory: req\n"
        f"    targetCategory: test\n    objectMapping:\n{mapping}"
    )
    (root / ".catdoc" / "category.yaml").write_text(model, "utf-8")
    client = client_for(root)
    coverage = client.get("/coverage").text
    assert '50.0%</span> <span class="muted">2500 of 5000</span>' in coverage
    ids = re.findall(r'<li><a href="/objects/(t\d+)"', coverage)
    assert len(ids) == PAGE and ids[0] == "t1"
    assert "1–50 of 2500" in coverage
    second = client.get("/coverage?check.orphans=50").text
    assert re.findall(r'<li><a href="/objects/(t\d+)"', second)[0] == "t101"
    chain = client.get("/chain/r0").text
    assert len(rows(chain, "chain")) == 1 + 2 * CHAIN_PER_GROUP
    assert f"the nearest {CHAIN_PER_GROUP} shown" in chain
