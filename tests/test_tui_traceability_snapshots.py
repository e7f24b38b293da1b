"""Snapshots of the chain and coverage views at 80×24, on copies of the traceability example.

Update after an intended change with
`pytest tests/test_tui_traceability_snapshots.py --snapshot-update` and look at the report
before committing the new SVGs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from tui_project import copy_example

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref

SIZE = (80, 24)
Compare = Callable[..., bool]


def showing(service: CatDoc, ref: Ref, *keys: str) -> tuple[CatDocApp, Callable]:
    """The app with `ref` shown, then `keys` pressed, every worker done before the snapshot."""
    app = CatDocApp(service, watch_interval=None)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        app.open(ref)
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()

    return app, run_before


def test_chain_with_suspect_links(snap_compare: Compare, tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    service = CatDoc(root)
    service.review(all=True, by="Ada")
    cart = root / "docs" / "requirements" / "cart.md"
    cart.write_text(cart.read_text("utf-8") + "\nSaved carts expire.\n", "utf-8")
    app, before = showing(service, Ref("object", "req-checkout"), "i")
    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_coverage_of_a_functor_with_orphans(snap_compare: Compare, tmp_path: Path) -> None:
    service = CatDoc(copy_example("traceability", tmp_path))
    app, before = showing(service, Ref("functor", "end-to-end"), "g")
    assert snap_compare(app, terminal_size=SIZE, run_before=before)
