"""`e` in the terminal browser: the editor opens at the selection's file and line, and the view
reads the files again when it closes. The editor is a small script named `vim` that records its
arguments and edits the model, so nothing interactive runs."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import pytest
from textual.widgets import DataTable
from tui_project import copy_example

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.editor import EditTarget, at_location, editor_command
from catdoc.tui.refs import Ref
from catdoc.tui.screens.validation import ValidationScreen

SIZE = (80, 24)
anyio = pytest.mark.anyio

FAKE_EDITOR = """#!{python}
import json, pathlib, sys
pathlib.Path({record!r}).write_text(json.dumps(sys.argv[1:]))
target = pathlib.Path(sys.argv[-1])
if target.suffix == ".yaml":
    text = target.read_text().replace("title: Shopping cart", "title: Basket")
    target.write_text(text + "# edited in the editor\\n")
"""


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake `vim` as EDITOR; returns the file its arguments are recorded in."""
    record = tmp_path / "argv.json"
    script = tmp_path / "bin" / "vim"
    script.parent.mkdir()
    script.write_text(FAKE_EDITOR.format(python=sys.executable, record=str(record)))
    script.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(script))
    monkeypatch.delenv("VISUAL", raising=False)
    return record


def make_app(root: Path) -> CatDocApp:
    app = CatDocApp(CatDoc(root), watch_interval=None)
    # The test driver has no terminal to hand over; the editor runs all the same.
    app.suspend = contextlib.nullcontext  # type: ignore[method-assign]
    return app


def title_shown(app: CatDocApp) -> str:
    return str(app.browser.query_one("#doc-title").render())


# --------------------------------------------------------------------------- the command
def test_editor_command_puts_the_line_first_for_editors_that_take_it() -> None:
    target = EditTarget(Path("/p/.catdoc/category.yaml"), 24)
    path = str(target.path)
    assert editor_command(target, {"EDITOR": "vim"}) == ["vim", "+24", path]
    assert editor_command(target, {"EDITOR": "/usr/bin/nvim -u NONE"}) == [
        "/usr/bin/nvim",
        "-u",
        "NONE",
        "+24",
        path,
    ]
    assert editor_command(target, {"EDITOR": "code --wait"}) == ["code", "--wait", path]
    assert editor_command(target, {"EDITOR": "", "VISUAL": "emacs"}) == ["emacs", "+24", path]
    assert editor_command(EditTarget(target.path), {"EDITOR": "nano"}) == ["nano", path]
    assert editor_command(target, {}) is None
    assert editor_command(target, {"EDITOR": "  ", "VISUAL": ""}) is None


def test_locations_resolve_inside_the_project(tmp_path: Path) -> None:
    assert at_location(tmp_path, ".catdoc/category.yaml:12") == EditTarget(
        (tmp_path / ".catdoc/category.yaml").resolve(), 12
    )
    assert at_location(tmp_path, "docs/a.md") == EditTarget((tmp_path / "docs/a.md").resolve())
    assert at_location(tmp_path, "../outside.yaml:3") is None
    assert at_location(tmp_path, "") is None


# --------------------------------------------------------------------------- in the app
@anyio
async def test_e_opens_the_yaml_entry_and_the_view_reloads(tmp_path: Path, editor: Path) -> None:
    root = copy_example("traceability", tmp_path)
    model = root / ".catdoc" / "category.yaml"
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-cart"))
        await pilot.pause()
        assert "Shopping cart" in title_shown(app)
        await pilot.press("e")
        await pilot.pause()
        line = next(
            n for n, text in enumerate(model.read_text().splitlines(), 1) if "req-cart" in text
        )
        assert json.loads(editor.read_text()) == [f"+{line}", str(model.resolve())]
        assert model.read_text().endswith("# edited in the editor\n")
        assert "Basket" in title_shown(app)  # read again when the editor closed
        assert app.browser.current == Ref("object", "req-cart")


@anyio
async def test_e_in_the_document_pane_opens_the_document(tmp_path: Path, editor: Path) -> None:
    root = copy_example("traceability", tmp_path)
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-cart"))
        await pilot.pause()
        app.browser.query_one("#doc-body").focus()
        await pilot.press("e")
        await pilot.pause()
        document = (root / "docs/requirements/cart.md").resolve()
        assert json.loads(editor.read_text()) == [str(document)]


@anyio
async def test_e_on_a_finding_opens_its_yaml_node(tmp_path: Path, editor: Path) -> None:
    root = copy_example("broken", tmp_path)
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        screen = app.screen
        assert isinstance(screen, ValidationScreen)
        row = next(i for i, f in enumerate(screen.findings) if f.location.count(":") == 1)
        screen.query_one("#findings", DataTable).move_cursor(row=row)
        file, line = screen.findings[row].location.split(":")
        await pilot.press("e")
        await pilot.pause()
        assert json.loads(editor.read_text()) == [f"+{line}", str((root / file).resolve())]
        assert isinstance(app.screen, ValidationScreen)


@anyio
async def test_no_editor_set_is_a_notification(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    app = make_app(copy_example("traceability", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")  # nothing selected yet
        app.open(Ref("category", "requirements"))
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert any("Nothing to edit here" in m for m in messages)
        assert any("Set EDITOR" in m for m in messages)
        assert app.is_running and app.screen is app.browser


@anyio
async def test_a_terminal_that_cannot_suspend_says_where_to_edit(
    tmp_path: Path, editor: Path
) -> None:
    root = copy_example("traceability", tmp_path)
    app = CatDocApp(CatDoc(root), watch_interval=None)  # the test driver cannot suspend
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("functor", "specify"))
        await pilot.pause()
        app.pop_screen()  # back from the mapping view to the browser
        await pilot.press("e")
        await pilot.pause()
        assert not editor.exists()
        messages = [n.message for n in app._notifications]
        assert any("category.yaml:251 yourself" in m for m in messages)


@anyio
async def test_a_missing_editor_program_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDITOR", str(tmp_path / "no-such-editor"))
    app = make_app(copy_example("traceability", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-cart"))
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert any("Cannot run the editor" in n.message for n in app._notifications)
        assert app.is_running
