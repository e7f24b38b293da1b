"""The concepts view of the terminal browser, driven with Textual's Pilot: `c` shows the concepts
of the selection's category, the documents of the highlighted concept, and Enter opens one."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui_project import copy_example

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref
from catdoc.tui.screens.concepts import ConceptsScreen

SIZE = (100, 30)
anyio = pytest.mark.anyio


async def settle(pilot: Pilot, app: CatDocApp) -> None:
    """Let the workers that read the index finish (the first one may build it)."""
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


@anyio
async def test_concepts_of_the_selected_category_and_their_documents(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    service = CatDoc(root)
    app = CatDocApp(service, watch_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open(Ref("object", "req-payment"))
        await pilot.pause()
        await pilot.press("c")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, ConceptsScreen)
        assert screen.category == "requirements"
        expected = service.list_concepts(category="requirements", limit=200).items
        assert [c.key for c in screen.concepts] == [c.key for c in expected]
        top = expected[0]
        sources = service.source_concepts([top.key], limit=100).items
        assert [s.id for s in screen.sources] == [s.id for s in sources]

        await pilot.press("s")  # by number of documents
        await settle(pilot, app)
        counts = [c.document_count for c in screen.concepts]
        assert screen.sort == "documentCount" and counts == sorted(counts, reverse=True)

        await pilot.press("enter")  # into the documents of the highlighted concept
        await settle(pilot, app)
        first = screen.sources[0].id
        await pilot.press("enter")
        assert app.screen is app.browser
        assert app.browser.current == Ref("object", first)


@anyio
async def test_concepts_without_a_selection_are_the_projects(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    app = CatDocApp(CatDoc(root), watch_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, ConceptsScreen) and screen.category is None
        assert screen.concepts
        await pilot.press("escape")
        assert app.screen is app.browser
