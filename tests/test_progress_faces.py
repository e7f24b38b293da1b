"""Progress in the faces: rich bars in the CLI (terminal only, never in JSON or piped output),
MCP progress notifications for a tool call that indexes, and the TUI's bar while it indexes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_project import data_of
from rich.console import Console
from test_progress import notes_project
from textual.widgets import ProgressBar, Static

from catdoc.cli import progress_bars as bars
from catdoc.cli.app import OutputFormat
from catdoc.mcp_server import build_server
from catdoc.service import CatDoc
from catdoc.tui import CatDocApp

anyio = pytest.mark.anyio


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    root = notes_project(tmp_path, 60)
    CatDoc(root).import_documents([str(root / "docs")])
    return root


# ---------------------------------------------------------------------- CLI
def drawn(reports: list[tuple[str, int, int | None]]) -> str:
    out = io.StringIO()
    progress = bars.ProgressBars(Console(force_terminal=True, file=out, width=100))
    for report in reports:
        progress(*report)
    progress.close()
    return out.getvalue()


def test_a_long_step_draws_a_bar_that_names_it() -> None:
    text = drawn([("Indexing documents", 1234, 5000), ("Loading the embedding model", 0, None)])
    assert "Indexing documents" in text and "1,234/5,000" in text and "━" in text
    assert "Loading the embedding model" in text


def test_a_handful_of_documents_draws_nothing() -> None:
    many = bars.HANDFUL
    assert drawn([("Reading documents", many, many), ("Writing the model", 0, None)]) == ""


def test_bars_only_for_text_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with bars.progress_bars(OutputFormat.text) as progress:
        assert isinstance(progress, bars.ProgressBars)
    with bars.progress_bars(OutputFormat.json) as progress:
        assert progress is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    with bars.progress_bars(OutputFormat.text) as progress:
        assert progress is None


def catdoc(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed entry point, with stdout and stderr piped."""
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    return subprocess.run(
        [sys.executable, "-m", "catdoc", "-C", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_piped_and_json_output_carry_no_progress(tmp_path: Path) -> None:
    root = notes_project(tmp_path, 40)
    imported = catdoc(root, "import", "docs", "--format", "json")
    assert imported.returncode == 0 and imported.stderr == ""
    assert json.loads(imported.stdout)["created"] == 40

    found = catdoc(root, "search", "payment retry", "--mode", "text", "--format", "json")
    assert found.returncode == 0 and found.stderr == ""
    assert json.loads(found.stdout)["total"] == 40

    (root / "docs" / "notes" / "note-001.md").write_text("# One\n\nRefund.\n", "utf-8")
    built = catdoc(root, "index", "--format", "json")
    assert built.returncode == 0 and built.stderr == ""
    assert {k: v for k, v in json.loads(built.stdout).items() if k != "seconds"} == {
        "documents": 40,
        "indexed": 1,
        "removed": 0,
        "vectors": [],
    }

    text = catdoc(root, "index")
    assert text.returncode == 0 and text.stderr == ""
    assert text.stdout.startswith("Search index up to date: 40 documents, 0 (re)indexed")


def test_index_scope_needs_vectors(tmp_path: Path) -> None:
    result = catdoc(notes_project(tmp_path, 1), "index", "--scope", "chunks")
    assert result.returncode == 2 and "add --vectors" in result.stderr


# ---------------------------------------------------------------------- MCP
@pytest.fixture(params=["legacy", "auto"])
async def client(request: pytest.FixtureRequest, imported: Path) -> Any:
    async with Client(build_server(CatDoc(imported)), mode=request.param) as connected:
        yield connected


def recorder() -> tuple[list[tuple[float, float | None, str | None]], Any]:
    heard: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        heard.append((progress, total, message))

    return heard, on_progress


@anyio
async def test_a_cold_search_notifies_progress_and_says_the_index_was_built(
    client: Client,
) -> None:
    heard, on_progress = recorder()
    result = await client.call_tool(
        "catdoc_search", {"query": "payment retry", "mode": "text"}, progress_callback=on_progress
    )
    notes = data_of(result)["notes"]
    assert any("index was built first: 60 documents indexed in" in note for note in notes)
    values = [progress for progress, _, _ in heard]
    assert values == sorted(set(values)), "MCP progress must rise with every notification"
    messages = [message or "" for _, _, message in heard]
    assert messages[0] == "Reading documents: 0 of 60"
    assert messages[-1] == "Indexing documents: 60 of 60"
    assert heard[-1][0] == heard[-1][1]

    heard.clear()
    again = await client.call_tool(
        "catdoc_search", {"query": "payment", "mode": "text"}, progress_callback=on_progress
    )
    assert heard == [] and not any("index was" in n for n in data_of(again)["notes"])


@anyio
async def test_an_import_notifies_each_step(client: Client, imported: Path) -> None:
    (imported / "docs" / "notes" / "extra.md").write_text("# Extra\n\nMore.\n", "utf-8")
    heard, on_progress = recorder()
    result = await client.call_tool(
        "catdoc_import_document", {"filePath": "docs/notes/extra.md"}, progress_callback=on_progress
    )
    assert data_of(result)["created"] == 1
    steps = [message.split(":")[0].rstrip("…") for _, _, message in heard if message]
    assert list(dict.fromkeys(steps)) == [
        "Finding documents",
        "Reading documents",
        "Planning objects",
        "Linking references",
        "Writing the model",
    ]
    values = [progress for progress, _, _ in heard]
    assert values == sorted(set(values))


@anyio
async def test_a_call_without_a_progress_token_just_answers(client: Client) -> None:
    result = await client.call_tool("catdoc_search", {"query": "payment", "mode": "text"})
    assert data_of(result)["total"] == 60


# ---------------------------------------------------------------------- TUI
@anyio
async def test_tui_search_shows_indexing_progress_while_it_waits(
    imported: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = CatDoc(imported)
    (imported / ".catdoc" / "config.yaml").write_text("search:\n  mode: text\n", "utf-8")
    indexing, release = threading.Event(), threading.Event()
    search = svc.search

    def held_search(query: str, **options: Any) -> Any:
        """The real search, held after its first progress report until the test has looked."""
        progress = options.pop("progress")

        def report(step: str, done: int, total: int | None) -> None:
            progress(step, done, total)
            if not indexing.is_set():
                indexing.set()
                release.wait(10)

        return search(query, progress=report, **options)

    monkeypatch.setattr(svc, "search", held_search)
    app = CatDocApp(svc, watch_interval=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash", *"payment")
        status = ""
        for _ in range(400):  # the debounce, the query, then its first progress on screen
            await pilot.pause(0.05)
            status = str(app.screen.query_one("#search-status", Static).render())
            if indexing.is_set() and status.startswith("Reading"):
                break
        bar = app.screen.query_one("#search-progress", ProgressBar)
        assert bar.display and (bar.progress, bar.total) == (0, 60)
        assert status == "Reading documents 0/60"
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.screen.query_one("#search-status", Static).render())
        assert not bar.display
        assert status.startswith("60 documents for 'payment'")
        assert "The search index was built first: 60 documents indexed" in status
