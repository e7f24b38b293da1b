"""The chain and coverage views of the terminal browser, driven with Textual's Pilot on copies of
the traceability example: what they list is what `CatDoc.chain` and `CatDoc.coverage` answer,
suspect links are marked, Enter opens entries, and the README's key tables are the help's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, Static

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref
from catdoc.tui.screens.chain import ChainScreen
from catdoc.tui.screens.coverage import CoverageScreen
from catdoc.tui.screens.help import help_markdown
from catdoc.tui.screens.mapping import MappingScreen

SIZE = (80, 24)
README = Path(__file__).resolve().parent.parent / "README.md"
anyio = pytest.mark.anyio


@pytest.fixture
def root(example_copy: Path) -> Path:
    return example_copy


async def settle(pilot: Pilot, app: CatDocApp) -> None:
    """Let the screen's worker finish and its answer be drawn."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def open_chain(pilot: Pilot, app: CatDocApp, object_id: str) -> ChainScreen:
    await pilot.pause()
    app.open(Ref("object", object_id))
    await pilot.pause()
    await pilot.press("i")
    await settle(pilot, app)
    screen = app.screen
    assert isinstance(screen, ChainScreen)
    return screen


def highlighted(screen: ChainScreen) -> int:
    index = screen.query_one("#chain-entries", OptionList).highlighted
    assert index is not None
    return index


@anyio
async def test_chain_lists_the_shown_objects_chain_by_layer(root: Path) -> None:
    service = CatDoc(root)
    app = CatDocApp(service, watch_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chain(pilot, app, "spec-checkout-api")
        assert screen.object_id == "spec-checkout-api"
        expected = service.chain("spec-checkout-api")
        groups = [g for g in screen.rows if g is None]
        assert len(groups) == len(expected.groups)  # one heading per category
        listed = [e.id for e in screen.rows if e is not None]
        assert listed == [e.id for g in expected.groups for e in g.entries]
        start = screen.rows[highlighted(screen)]
        assert start is not None and start.direction == "start"
        listing = screen.query_one("#chain-entries", OptionList)
        assert listing.has_focus
        text = str(listing.get_option_at_index(1).prompt)
        assert text.strip().startswith("↑2 req-receipt")
        status = str(screen.query_one("#chain-status", Static).render())
        assert "↑3 above · ↓12 below" in status and "Reviews are off" in status

        await pilot.press("down")  # the first entry below: spec-cart-api
        entry = screen.rows[highlighted(screen)]
        assert entry is not None and entry.id == "spec-cart-api"
        detail = str(screen.query_one("#chain-detail", Static).render())
        assert "spec-checkout-api ─spec-checkout-refs-cart" not in detail  # labels, not ids
        assert detail.startswith("↓1 spec-checkout-api ─references→ spec-cart-api")
        await pilot.press("up", "up")  # headings are skipped: spec-receipt-email, above
        entry = screen.rows[highlighted(screen)]
        assert entry is not None and entry.id == "spec-receipt-email"
        detail = str(screen.query_one("#chain-detail", Static).render())
        assert "spec-checkout-api ←" in detail  # walked against the morphism

        await pilot.press("enter")
        assert app.screen is app.browser
        assert app.browser.current == Ref("object", "spec-receipt-email")


@anyio
async def test_suspect_links_are_marked_and_s_finds_them(root: Path) -> None:
    service = CatDoc(root)
    service.review(all=True, by="Ada")
    cart = root / "docs" / "requirements" / "cart.md"
    cart.write_text(cart.read_text("utf-8") + "\nSaved carts expire.\n", "utf-8")
    app = CatDocApp(service, watch_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chain(pilot, app, "req-checkout")
        expected = service.chain("req-checkout")
        marked = {e.id for g in expected.groups for e in g.entries if e.suspect}
        assert marked and marked == {e.id for e in screen.rows if e and e.suspect}
        listing = screen.query_one("#chain-entries", OptionList)
        for index, entry in enumerate(screen.rows):
            if entry is not None:
                prompt = str(listing.get_option_at_index(index).prompt)
                assert ("⚠" in prompt) == (entry.id in marked)
        found = []
        for _ in marked:
            await pilot.press("s")
            entry = screen.rows[highlighted(screen)]
            assert entry is not None and entry.suspect is not None
            found.append(entry.id)
            detail = str(screen.query_one("#chain-detail", Static).render())
            assert f"⚠ {entry.suspect.key}: req-cart changed" in detail
        assert set(found) == marked
        await pilot.press("s")  # round again to the first
        assert screen.rows[highlighted(screen)].id == found[0]  # type: ignore[union-attr]


@anyio
async def test_a_chain_needs_an_object_and_follows_reloads(root: Path) -> None:
    app = CatDocApp(CatDoc(root), watch_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open(Ref("category", "requirements"))
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        assert app.screen is app.browser  # a category has no chain: a notification says so
        screen = await open_chain(pilot, app, "req-cart")
        assert "req-lonely" not in {e.id for e in screen.rows if e}
        model = root / ".catdoc" / "category.yaml"
        anchor = "      - id: checkout-depends-on-cart\n"
        added = "      - id: cart-needs-lonely\n        name: needs\n        source: req-cart\n"
        added += "        target: req-lonely\n"
        lonely = "      - id: req-lonely\n        title: Lonely\n        content: alone\n"
        text = model.read_text("utf-8").replace(anchor, added + anchor, 1)
        text = text.replace("      - id: req-cart\n", lonely + "      - id: req-cart\n", 1)
        model.write_text(text, "utf-8")
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        assert app.screen is screen
        assert "req-lonely" in {e.id for e in screen.rows if e}


@anyio
async def test_coverage_per_functor_and_its_orphans(root: Path) -> None:
    service = CatDoc(root)
    app = CatDocApp(service, watch_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, CoverageScreen)
        report = service.coverage()
        table = screen.query_one("#coverage-table", DataTable)
        assert table.row_count == len(report.functors)
        first = [str(c) for c in table.get_row_at(0)]
        assert first[0].startswith("specify") and first[1:] == ["4/4 100.0%"] * 2 + ["5/5 100.0%"]

        await pilot.press("down", "down", "down", "down")  # end-to-end: most tests orphaned
        item = screen.current
        assert item is not None and item.functor == "end-to-end"
        assert "1/6 16.7%" in [str(c) for c in table.get_row_at(4)]
        expected = next(f for f in report.functors if f.functor == "end-to-end")
        assert [ref.id for ref in screen.ids if ref] == [
            *expected.unmapped_objects,
            *expected.orphans,
            *expected.unmapped_morphisms,
        ]
        ids = screen.query_one("#coverage-ids", OptionList)
        assert f"Orphans in tests  {len(expected.orphans)}" in str(
            ids.get_option_at_index(1).prompt
        )

        await pilot.press("enter")  # into the ids
        assert ids.has_focus
        orphan = screen.ids[ids.highlighted or 0]
        assert orphan == Ref("object", expected.orphans[0])
        await pilot.press("enter")
        assert app.screen is app.browser and app.browser.current == orphan


@anyio
async def test_coverage_from_a_functor_mapping_and_back_to_it(root: Path) -> None:
    app = CatDocApp(CatDoc(root), watch_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open(Ref("functor", "unit-test"))
        await pilot.pause()
        assert isinstance(app.screen, MappingScreen)
        await pilot.press("g")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, CoverageScreen)
        assert screen.current is not None and screen.current.functor == "unit-test"
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, MappingScreen) and app.screen.ref.id == "unit-test"
        await pilot.press("escape")
        assert app.screen is screen


@anyio
async def test_help_lists_both_views_and_the_readme_keys_are_the_help(root: Path) -> None:
    app = CatDocApp(CatDoc(root), watch_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = help_markdown(app)
        for line in ("| `i` |", "| `g` |", "**Chain**: ", "**Coverage**: ", "| `s` | Next entry"):
            assert line in text
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Chain", "Coverage"} <= titles
    readme = README.read_text("utf-8")
    keys = re.search(r"### Keys\n\n(.*?)<!-- /section:tui -->", readme, re.S)
    assert keys is not None and keys.group(1) == text
