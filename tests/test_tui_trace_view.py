"""The trace screen as a place to work from: opening a step and coming back (Escape in the
browser, or t) finds both ids, the paths, the highlighted path and step and the focus as they
were left, without tracing again unless the model changed; t on another object starts a new
trace from it (Textual's Pilot, the traceability example)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tui_workflow import SIZE, footer_keys, make_app
from textual.pilot import Pilot
from textual.widgets import Input, OptionList
from tui_project import copy_example

from catdoc import results as r
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref
from catdoc.tui.screens.trace import TraceScreen

anyio = pytest.mark.anyio


async def trace_and_open_a_step(app: CatDocApp, pilot: Pilot[None]) -> r.TraceResult:
    """Trace req-checkout → test-checkout-e2e, then open the third step of the second path."""
    app.open(Ref("object", "req-checkout"))
    await pilot.press("t", *"test-checkout-e", "right", "enter")
    screen = app.screen
    assert isinstance(screen, TraceScreen) and screen.result is not None
    result = screen.result
    assert len(result.paths) >= 2
    await pilot.press("down", "enter", "down", "down")  # the second path; its steps; the third
    await pilot.pause()
    assert screen.view.path == 1 and screen.view.step == 2
    await pilot.press("enter")
    assert app.screen is app.browser
    assert app.browser.current == Ref("object", result.paths[1].nodes[1])
    return result


def assert_as_left(app: CatDocApp, result: r.TraceResult) -> TraceScreen:
    screen = app.screen
    assert isinstance(screen, TraceScreen)
    assert screen.query_one("#trace-source", Input).value == "req-checkout"
    assert screen.query_one("#trace-target", Input).value == "test-checkout-e2e"
    paths = screen.query_one("#trace-paths", OptionList)
    steps = screen.query_one("#trace-steps", OptionList)
    assert paths.option_count == len(result.paths) and paths.highlighted == 1
    assert steps.highlighted == 2 and app.focused is steps
    assert str(steps.get_option_at_index(2).prompt).startswith(result.paths[1].nodes[1])
    return screen


@anyio
async def test_escape_after_opening_a_step_comes_back_to_the_trace_as_left(
    tmp_path: Path,
) -> None:
    app = make_app(copy_example("traceability", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        result = await trace_and_open_a_step(app, pilot)
        assert footer_keys(app)["esc"] == "List"
        await pilot.press("escape")
        await pilot.pause()
        assert assert_as_left(app, result).result is result  # not traced again


@anyio
async def test_t_after_opening_a_step_comes_back_to_the_trace_too(tmp_path: Path) -> None:
    app = make_app(copy_example("traceability", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        result = await trace_and_open_a_step(app, pilot)
        await pilot.press("t")
        await pilot.pause()
        assert assert_as_left(app, result).result is result


@anyio
async def test_a_model_changed_meanwhile_is_traced_again(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        result = await trace_and_open_a_step(app, pilot)
        model = root / ".catdoc" / "category.yaml"
        model.write_text(model.read_text("utf-8") + "# a comment changes the model's files\n")
        await pilot.press("escape")
        await pilot.pause()
        screen = assert_as_left(app, result)
        assert screen.result is not result and screen.result == result


@anyio
async def test_t_on_another_object_starts_a_new_trace_from_it(tmp_path: Path) -> None:
    app = make_app(copy_example("traceability", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await trace_and_open_a_step(app, pilot)
        app.open(Ref("object", "req-cart"))  # reached some other way than from the trace
        await pilot.press("t")
        screen = app.screen
        assert isinstance(screen, TraceScreen) and screen.result is None
        assert screen.query_one("#trace-source", Input).value == "req-cart"
        assert screen.query_one("#trace-target", Input).value == ""
        assert app.focused is screen.query_one("#trace-target", Input)


@anyio
async def test_ids_typed_but_not_traced_are_kept(tmp_path: Path) -> None:
    app = make_app(copy_example("traceability", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", *"req-cart", "enter", *"spec-")
        await pilot.press("escape", "t")
        screen = app.screen
        assert isinstance(screen, TraceScreen) and screen.result is None
        assert screen.query_one("#trace-source", Input).value == "req-cart"
        assert screen.query_one("#trace-target", Input).value == "spec-"
