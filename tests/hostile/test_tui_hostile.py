"""The terminal browser on hostile and broken input, driven by keys (Textual's Pilot): no key on
any screen crashes it when the project breaks or vanishes under it, and titles, ids and
documents that carry escape sequences or markup reach the screen escaped."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import OptionList

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref
from catdoc.tui.screens.problem import ProblemScreen

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
SIZE = (100, 30)
anyio = pytest.mark.anyio

ESC_ID = "req-cart\x1b]0;PWNED\x07\x1b[31m\x9b2J[/]"
MARKUP_TITLE = "[bold red]x[/] [link=file:///etc/passwd]y\x1b[2J\x7f\u202e"
HOSTILE_TYPE = "depends\x1b[8m-on [/]"
HOSTILE_FUNCTOR = "Req \x1b]8;;http://x\x07→\x1b]8;;\x07 [b]Spec"
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def copy_example(name: str, parent: Path) -> Path:
    target = parent / name
    shutil.copytree(EXAMPLES / name, target, ignore=shutil.ignore_patterns("cache"))
    config = target / ".catdoc" / "config.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("mode: hybrid", "mode: text"))
    return target


def make_app(root: Path) -> CatDocApp:
    return CatDocApp(CatDoc(root), watch_interval=None)


# --------------------------------------------------------------------------- broken, vanished
def break_yaml(root: Path) -> None:
    model = root / ".catdoc" / "category.yaml"
    before = model.stat().st_mtime_ns
    model.write_text("categories:\n  - id: [unclosed\n", encoding="utf-8")
    os.utime(model, ns=(before + 10**9, before + 10**9))


def vanish(root: Path) -> None:
    shutil.rmtree(root)


BREAKS: dict[str, Callable[[Path], None]] = {"broken yaml": break_yaml, "vanished": vanish}

OPEN_SCREEN = {
    "browser": [],
    "search": ["slash", "c", "a", "r", "t"],
    "validation": ["v"],
    "trace": ["t"],
    "mapping": ["down", "down", "enter", "down", "enter"],  # Functors ▸ the first one
}
KEYS_BEFORE_NOTICED = ["down", "enter", "tab", "f", "b", "ctrl+t", "up", "enter", "x"]
"""Keys that act on the open screen before the watcher has seen the files break."""
KEYS_AFTER_NOTICED = ["v", "t", "slash", "question_mark", "escape", "ctrl+r", "enter", "n", "l"]
"""Every app binding, and the keys that submit and go back, on the problem screen."""


CASES = [
    ("browser", "broken yaml"),
    ("browser", "vanished"),
    ("search", "vanished"),
    ("validation", "broken yaml"),
    ("validation", "vanished"),
    ("trace", "vanished"),
    ("mapping", "broken yaml"),
]
"""Every screen, each way of breaking at least twice (every pair costs seconds)."""


@anyio
@pytest.mark.parametrize(("screen", "breaking"), CASES, ids=[" ".join(c) for c in CASES])
async def test_no_key_crashes_on_a_broken_or_vanished_project(
    tmp_path: Path, screen: str, breaking: str
) -> None:
    root = copy_example("traceability", tmp_path)
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*OPEN_SCREEN[screen])
        await pilot.pause(0.3)
        BREAKS[breaking](root)
        for key in KEYS_BEFORE_NOTICED:
            await pilot.press(key)
            assert app.is_running, f"{key!r} ended the app"
        await pilot.pause(0.3)
        app.sync_project()
        await pilot.pause()
        assert isinstance(app.screen, ProblemScreen)
        for key in KEYS_AFTER_NOTICED:
            await pilot.press(key)
            assert app.is_running, f"{key!r} ended the app"
        app.sync_project()
        await pilot.pause()
        assert isinstance(app.screen, ProblemScreen)


@anyio
async def test_validate_on_the_problem_screen_after_a_break(tmp_path: Path) -> None:
    """The reported case: the model breaks while the browser is open, then `v`."""
    root = copy_example("traceability", tmp_path)
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        break_yaml(root)
        app.sync_project()
        await pilot.pause()
        assert isinstance(app.screen, ProblemScreen)
        await pilot.press("v")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ProblemScreen)


# --------------------------------------------------------------------------- escape payloads
def _yaml(text: str) -> str:
    return json.dumps(text)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    root = copy_example("traceability", tmp_path)
    for path in (root / ".catdoc").rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        text = text.replace("title: Shopping cart", f"title: {_yaml(MARKUP_TITLE)}")
        text = text.replace("req-cart", _yaml(ESC_ID))
        functor = "name: Requirements → Specifications"
        text = text.replace(functor, f"name: {_yaml(HOSTILE_FUNCTOR)}")
        text = text.replace("name: depends-on", f"name: {_yaml(HOSTILE_TYPE)}", 1)
        path.write_text(text, encoding="utf-8")
    cart = root / "docs" / "requirements" / "cart.md"
    cart.write_text(
        cart.read_text(encoding="utf-8") + "\nEvil cart \x1b[41mred\x1b[0m [b]bold[/b]\n",
        encoding="utf-8",
    )
    config = root / ".catdoc" / "config.yaml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("name:", f"name: {_yaml('X[/]')} #", 1)
    )
    return root


def screen_text(app: CatDocApp) -> str:
    """Everything the screen shows, as the characters sent to the terminal."""
    return app.export_screenshot()


def assert_clean(app: CatDocApp) -> str:
    """The screen's text, after checking it holds no raw control character."""
    shown = screen_text(app)
    found = RAW_CONTROL.search(shown)
    assert found is None, f"raw {found.group()!r} on {type(app.screen).__name__}"
    return shown


@anyio
async def test_every_screen_shows_payloads_escaped(hostile: Path) -> None:
    app = make_app(hostile)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("down", "enter", "down", "enter")  # Requirements ▸ Objects open
        await pilot.pause(0.3)
        assert_clean(app)
        app.open(Ref("object", ESC_ID))
        await pilot.pause(0.3)
        assert app.browser.current == Ref("object", ESC_ID)
        assert "\\x1b]0;PWNED" in assert_clean(app)
        app.open(Ref("morphism", "checkout-depends-on-cart"))
        await pilot.pause()
        assert_clean(app)
        app.open(Ref("functor", "specify"))  # the mapping view, over the browser
        await pilot.pause(0.3)
        assert_clean(app)
        await pilot.press("escape", "v")
        await pilot.pause(0.3)
        assert_clean(app)
        await pilot.press("escape", "slash", *"cart")
        await pilot.pause(0.8)
        assert app.screen.query_one("#search-results", OptionList).option_count
        assert_clean(app)
        await pilot.press("escape", "t", *"req-checkout", "enter", *ESC_ID, "enter")
        await pilot.pause(0.3)
        assert_clean(app)
        await pilot.press("escape")
        app.open(Ref("object", ESC_ID + "[/]gone"))  # a notification naming a missing id
        await pilot.pause()
        assert app.is_running
        assert_clean(app)
