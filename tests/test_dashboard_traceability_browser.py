"""The traceability pages in a real headless browser (Debian's chromium driven by Playwright):
from an object's page to its chain, from a chain entry to its object, the coverage page's
orphans and the suspect links' diffs, with no script error on the way."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from dashboard_project import make_dashboard_project

from catdoc.service import CatDoc
from catdoc.web.server import open_dashboard

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is needed")
if CHROMIUM is None:
    pytest.skip(
        "no chromium found: install it (apt-get install chromium) to run the browser tests",
        allow_module_level=True,
    )
expect = sync_api.expect


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A dashboard on the example in git, every link reviewed, then the cart edited."""
    root = make_dashboard_project(tmp_path_factory.mktemp("browser") / "proj")

    def git(*args: str) -> None:
        ident = ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"]
        subprocess.run(["git", *ident, *args], cwd=root, check=True, capture_output=True)

    git("init", "-q")
    CatDoc(root).review(all=True, by="Ada")
    git("add", "-A")
    git("commit", "-q", "-m", "reviewed")
    cart = root / "docs" / "requirements" / "cart.md"
    cart.write_text(cart.read_text("utf-8") + "\nSaved carts expire.\n", "utf-8")
    board = open_dashboard(CatDoc(root), 0, None)
    thread = board.start_in_background()
    yield board.url.rstrip("/")
    board.stop()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def page(url: str) -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
        browser.close()
        assert not errors


def test_traceability_pages_render_and_link(page: Any, url: str) -> None:
    page.goto(url + "/objects/req-checkout")
    page.get_by_role("link", name="Chain: up to its requirements, down to its tests →").click()
    expect(page).to_have_url(url + "/chain/req-checkout")
    expect(page.locator("h1")).to_contain_text("Chain of Checkout")
    expect(page.locator("section.layer h2")).to_have_count(5)
    suspect = page.locator("table.chain tr.suspect")
    expect(suspect).to_have_count(2)
    expect(suspect.first).to_contain_text("req-cart changed")
    page.locator("table.chain tr.down").last.locator("td").nth(1).get_by_role("link").click()
    expect(page).to_have_url(url + "/objects/test-payment-unit")

    page.get_by_role("link", name="Coverage", exact=True).click()
    expect(page).to_have_url(url + "/coverage")
    expect(page.locator("#coverage tbody tr")).to_have_count(5)
    expect(page.locator("#coverage")).to_contain_text("16.7%")
    page.get_by_role("link", name="test-payment-contract").first.click()
    expect(page).to_have_url(url + "/objects/test-payment-contract")

    page.get_by_role("link", name="Suspects", exact=True).click()
    expect(page).to_have_url(url + "/suspects")
    expect(page.locator("li.suspect")).to_have_count(5)
    expect(page.locator("pre.diff .add", has_text="Saved carts").first).to_have_text(
        "+Saved carts expire."
    )
    page.locator("li.suspect").first.get_by_role("link", name="checkout-depends-on-cart").click()
    expect(page).to_have_url(url + "/morphisms/checkout-depends-on-cart")
