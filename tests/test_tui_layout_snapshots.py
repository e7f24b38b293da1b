"""Snapshots of the screens whose layout is tightest, at the smallest supported terminal (80×24)
and a common larger one (120×36): the problem screen, the browser with its links pane focused,
and a natural transformation's view.

Update after an intended change with
`pytest tests/test_tui_layout_snapshots.py --snapshot-update -k <name>` and look at the report
before committing the new SVGs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui_project import copy_example

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]
Compare = Callable[..., bool]


async def settle(app: CatDocApp, pilot: Pilot[None]) -> None:
    """Until every worker (mapping tables, documents) is done and the screen is drawn."""
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


def showing(
    root: Path, ref: Ref | None = None, *keys: str
) -> tuple[CatDocApp, Callable[[Pilot[None]], Awaitable[None]]]:
    app = CatDocApp(CatDoc(root), watch_interval=None)

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        if ref is not None:
            app.open(ref)
        await settle(app, pilot)
        await pilot.press(*keys)
        await settle(app, pilot)

    return app, run_before


@pytest.mark.parametrize("size", SIZES)
def test_problem_screen(snap_compare: Compare, tmp_path: Path, size: tuple[int, int]) -> None:
    root = copy_example("traceability", tmp_path)
    (root / ".catdoc" / "categories" / "tests.yaml").write_text(
        "categories:\n  - id: [unclosed\n", "utf-8"
    )
    app, before = showing(root)
    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES)
def test_links(snap_compare: Compare, tmp_path: Path, size: tuple[int, int]) -> None:
    root = copy_example("traceability", tmp_path)
    app, before = showing(root, Ref("object", "req-checkout"), "l", "down")
    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES)
def test_transformation_view(snap_compare: Compare, tmp_path: Path, size: tuple[int, int]) -> None:
    root = copy_example("broken", tmp_path)
    app, before = showing(root, Ref("naturalTransformation", "eta-bad-square"), "down")
    assert snap_compare(app, terminal_size=size, run_before=before)
