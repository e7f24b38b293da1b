"""The terminal browser shows the vectors the service computes in the background: the search
screen has a line per step under way, and a finished step is announced. The reports come from
another thread, as the workers' do (Textual's Pilot; the fake model of test_progress)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_progress import fake_model, imported, notes_project
from test_tui_workflow import SIZE, rendered, wait_for_hits
from textual.pilot import Pilot
from textual.widgets import Static

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.screens.search import SearchScreen

__all__ = ["fake_model", "imported"]  # fixtures, used by name

anyio = pytest.mark.anyio
STEP = "Computing vectors of documents in the background"
PASSAGES = "Computing vectors of passages in the background"


def from_a_worker(svc: CatDoc, step: str, done: int, total: int | None) -> None:
    """Report as a background worker does: from its own thread, to the engine's hook."""
    worker = threading.Thread(
        target=svc.search_engine().background_progress, args=(step, done, total)
    )
    worker.start()
    worker.join(10)


def recorded_notifications(app: CatDocApp, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []

    def notify(message: str, **options: Any) -> None:
        said.append(message)

    monkeypatch.setattr(app, "notify", notify)
    return said


def under_way(app: CatDocApp) -> list[str]:
    return [step.step for step in app.background.running()[1]]


async def until(pilot: Pilot[None], done: Any, seconds: float = 30.0) -> None:
    """Wait for the state `done` tells, however slowly a loaded machine gets there."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await pilot.pause(0.02)
        if done():
            return
    raise AssertionError("the screen never got there")


@anyio
async def test_the_search_screen_shows_background_steps_while_they_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = CatDoc(notes_project(tmp_path, 3))
    app = CatDocApp(svc, watch_interval=None)
    said = recorded_notifications(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        from_a_worker(svc, STEP, 1234, 5000)  # under way before the screen opens
        await until(pilot, lambda: STEP in under_way(app))
        await pilot.press("slash")
        line = app.screen.query_one("#search-background", Static)
        assert line.display and rendered(app, "#search-background") == f"{STEP} 1,234/5,000"
        from_a_worker(svc, PASSAGES, 0, 90)
        await until(pilot, lambda: PASSAGES in str(line.render()))
        assert rendered(app, "#search-background") == f"{STEP} 1,234/5,000\n{PASSAGES} 0/90"
        from_a_worker(svc, STEP, 5000, 5000)
        from_a_worker(svc, PASSAGES, 90, 90)
        await until(pilot, lambda: not line.display)
        assert under_way(app) == []
        assert said == [
            "Done: computing vectors of documents in the background (5,000).",
            "Done: computing vectors of passages in the background (90).",
        ]


@anyio
async def test_a_hybrid_search_leaves_vectors_to_the_background_and_says_when_done(
    imported: Path, fake_model: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    (imported / ".catdoc" / "config.yaml").write_text("search:\n  vectors: auto\n", "utf-8")
    svc = CatDoc(imported)
    app = CatDocApp(svc, watch_interval=None)
    said = recorded_notifications(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"payment")
        await wait_for_hits(app, pilot)
        assert "computed in the background" in rendered(app, "#search-status")
        for worker in list(svc.search_engine()._workers.values()):
            worker.thread.join(60)
        await until(pilot, lambda: not under_way(app) and said)
        assert "Done: computing vectors of documents in the background (60)." in said
        assert isinstance(app.screen, SearchScreen)
        assert not app.screen.query_one("#search-background", Static).display


@anyio
async def test_a_closed_app_stops_listening(tmp_path: Path) -> None:
    svc = CatDoc(notes_project(tmp_path, 3))
    app = CatDocApp(svc, watch_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert len(svc._vector_listeners) == 1
    assert svc._vector_listeners == ()
    from_a_worker(svc, STEP, 1, 2)  # nobody to tell, nothing fails
