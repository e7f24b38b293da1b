"""Snapshots of the terminal browser's main screens at 80×24, on copies of the examples.

Update after an intended change with `pytest tests/test_tui_snapshots.py --snapshot-update` and
look at the report before committing the new SVGs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input
from tui_project import copy_example

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref

SIZE = (80, 24)
Compare = Callable[..., bool]


def app_showing(root: Path, ref: Ref | None = None) -> tuple[CatDocApp, Callable]:
    app = CatDocApp(CatDoc(root), watch_interval=None)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        if ref is not None:
            app.open(ref)
        await pilot.pause(0.2)

    return app, run_before


def test_browser(snap_compare: Compare, tmp_path: Path) -> None:
    app, before = app_showing(copy_example("traceability", tmp_path), Ref("object", "req-checkout"))
    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_functor_view(snap_compare: Compare, tmp_path: Path) -> None:
    ref = Ref("functor", "trace-sloppy-objects")
    app, before = app_showing(copy_example("broken", tmp_path), ref)
    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_validation(snap_compare: Compare, tmp_path: Path) -> None:
    app, before = app_showing(copy_example("broken", tmp_path))
    assert snap_compare(app, press=["v", "down", "down"], terminal_size=SIZE, run_before=before)


def test_help(snap_compare: Compare, tmp_path: Path) -> None:
    app, before = app_showing(copy_example("math", tmp_path))
    assert snap_compare(app, press=["question_mark"], terminal_size=SIZE, run_before=before)


def test_search(snap_compare: Compare, tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    config = root / ".catdoc" / "config.yaml"
    config.write_text(config.read_text("utf-8").replace("mode: hybrid", "mode: text"), "utf-8")
    app, opened = app_showing(root)

    async def run_before(pilot: Pilot) -> None:
        await opened(pilot)
        await pilot.press("slash")
        app.screen.query_one(Input).cursor_blink = False  # a blink mid-snapshot is not a change
        await pilot.press(*"card declined")
        # The debounce timer starts the query; on a loaded machine it fires late, so wait for the
        # answer itself rather than for a fixed time.
        for _ in range(400):
            await pilot.pause(0.05)
            await app.workers.wait_for_complete()
            if getattr(app.screen, "hits", None):
                break
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_trace(snap_compare: Compare, tmp_path: Path) -> None:
    app, opened = app_showing(copy_example("traceability", tmp_path), Ref("object", "req-checkout"))

    async def run_before(pilot: Pilot) -> None:
        await opened(pilot)
        await pilot.press("t", *"test-checkout-e", "right", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_concepts(snap_compare: Compare, tmp_path: Path) -> None:
    app, opened = app_showing(copy_example("traceability", tmp_path), Ref("object", "req-payment"))

    async def run_before(pilot: Pilot) -> None:
        await opened(pilot)
        await pilot.press("c")
        for _ in range(3):  # the concepts, then the documents of the first
            await app.workers.wait_for_complete()
            await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
