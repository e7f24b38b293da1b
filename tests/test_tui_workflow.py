"""The terminal browser as a place to work from: the findings list kept across jumps and
filtered, search showing its indexing and opening passages where they are, Tab completing trace
ids, and every screen's footer naming that screen's keys (Textual's Pilot, small projects)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList
from textual.widgets._footer import FooterKey
from textual.widgets.markdown import MarkdownBlock
from tui_project import copy_example

from catdoc.search.semantic import SWITCHED_OFF_NOTE
from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref
from catdoc.tui.screens.problem import ProblemScreen
from catdoc.tui.screens.search import SearchScreen
from catdoc.tui.screens.trace import TraceScreen, shared_prefix
from catdoc.tui.screens.validation import LISTED, ValidationScreen

SIZE = (80, 24)
GENERATE = Path(__file__).resolve().parent.parent / "benchmarks" / "generate.py"
anyio = pytest.mark.anyio


def make_app(root: Path) -> CatDocApp:
    return CatDocApp(CatDoc(root), watch_interval=None)


def set_search(root: Path, old: str, new: str) -> Path:
    config = root / ".catdoc" / "config.yaml"
    text = config.read_text("utf-8")
    assert old in text
    config.write_text(text.replace(old, new), "utf-8")
    return root


def rendered(app: CatDocApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


def footer_keys(app: CatDocApp) -> dict[str, str]:
    """The keys the footer shows now (key as shown → description), each wholly visible."""
    keys = list(app.screen.query(FooterKey))
    palette = next((k for k in keys if k.has_class("-command-palette")), None)
    shown = [k for k in keys if k is not palette]
    edge = palette.region.x if palette is not None and palette.display else app.size.width
    for key in shown:  # nothing cut off by the screen's edge or the palette's entry
        assert key.region.right <= edge, key.description
    return {key.key_display: key.description for key in shown}


async def wait_for_hits(app: CatDocApp, pilot: Pilot[None]) -> None:
    """Until the search screen has its answer (the debounce fires late on a busy machine)."""
    for _ in range(400):
        await pilot.pause(0.05)
        await app.workers.wait_for_complete()
        if getattr(app.screen, "hits", None):
            return
    raise AssertionError("the search never answered")


# ---------------------------------------------------------------------- validation
@anyio
async def test_findings_keep_their_filter_and_cursor_across_a_jump(tmp_path: Path) -> None:
    app = make_app(copy_example("broken", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v", "1", "down")  # hide the errors; the second of the rest
        screen = app.screen
        assert isinstance(screen, ValidationScreen)
        assert {f.severity for f in screen.findings} == {"warning", "info"}
        table = screen.query_one("#findings", DataTable)
        assert screen.findings[table.cursor_row].code == "OBJ_FILE_MISSING"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.browser and app.browser.current == Ref("object", "s-draft")
        assert footer_keys(app)["esc"] == "List"
        await pilot.press("escape")
        await pilot.pause()
        back = app.screen
        assert isinstance(back, ValidationScreen) and back is not screen
        assert {f.severity for f in back.findings} == {"warning", "info"}
        row = back.query_one("#findings", DataTable).cursor_row
        assert back.findings[row].code == "OBJ_FILE_MISSING"
        assert "14 of 47 shown" in rendered(app, "#findings-counts")
        await pilot.press("escape")  # to the browser; Escape there has nowhere to return now
        assert app.screen is app.browser and "esc" not in footer_keys(app)


@anyio
async def test_findings_filter_by_severity_and_by_code_with_counts(tmp_path: Path) -> None:
    app = make_app(copy_example("broken", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        screen = app.screen
        assert isinstance(screen, ValidationScreen) and len(screen.findings) == 47
        keys_shown_with_findings = {"↵", "1", "2", "3", "/", "0", "e"}
        assert keys_shown_with_findings <= set(footer_keys(app))
        await pilot.press("2", "3")  # warnings and infos off: the errors alone
        assert {f.severity for f in screen.findings} == {"error"}
        assert "33 of 47 shown" in rendered(app, "#findings-counts")
        await pilot.press("slash", *"nat_square")
        assert screen.query_one("#findings-filter", Input).has_focus
        await pilot.press("enter")  # back into the list, the filter kept
        assert screen.query_one("#findings", DataTable).has_focus
        assert {f.code for f in screen.findings} == {"NAT_SQUARE_FAILS"}
        counts = rendered(app, "#findings-counts")
        # what the code lets through per severity, even where a severity is hidden
        assert "1 of 47 shown" in counts and "warnings 2" in counts and "infos 2" in counts
        await pilot.press("3")
        assert [f.code for f in screen.findings] == [
            "NAT_SQUARE_FAILS",
            *["NAT_SQUARE_NOT_CHECKED"] * 2,
        ]
        await pilot.press("1", "3")  # nothing shown: Enter and e have nothing to act on
        assert not screen.findings
        keys = footer_keys(app)
        assert "↵" not in keys and "e" not in keys and keys["0"] == "All" and "1" in keys
        await pilot.press("0")  # everything again
        assert len(screen.findings) == 47
        assert keys_shown_with_findings <= set(footer_keys(app))
        assert not screen.query_one("#findings-filter", Input).display


@anyio
async def test_the_findings_filter_matches_the_ids_a_finding_names(tmp_path: Path) -> None:
    """What a user types is as often an entity's id as a code: `/` finds both."""
    app = make_app(copy_example("broken", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v", "slash", *"Trace-Sloppy", "enter")  # a functor, any case
        screen = app.screen
        assert isinstance(screen, ValidationScreen)
        assert [f.code for f in screen.findings] == [
            "FUN_OBJECT_TARGET_MISSING",
            "FUN_OBJECT_UNMAPPED",
            "FUN_MAPPING_UNKNOWN_OBJECT",
            "FUN_MORPHISM_UNMAPPED",
            "FUN_MAPPING_UNKNOWN_MORPHISM",
            "FUN_NOT_CHECKED",
        ]
        assert "code or id ∋ 'Trace-Sloppy'" in rendered(app, "#findings-counts")
        await pilot.press("slash", *["backspace"] * 12, *"d-login", "enter")  # an object
        assert [(f.code, f.ids) for f in screen.findings] == [
            ("CAT_DANGLING_TARGET", ["m-dangle-target", "d-login"])
        ]
        await pilot.press("slash", *["backspace"] * 7, *"dangling", "enter")  # codes still
        assert {f.code for f in screen.findings} == {"CAT_DANGLING_SOURCE", "CAT_DANGLING_TARGET"}


@anyio
async def test_thousands_of_findings_list_the_first_thousand(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    objects = "".join(f"      - id: o{i}\n        path: docs/o{i}.md\n" for i in range(1_500))
    model = f"categories:\n  - id: big\n    name: Big\n    objects:\n{objects}"
    (tmp_path / ".catdoc" / "category.yaml").write_text(model, "utf-8")
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        screen = app.screen
        assert isinstance(screen, ValidationScreen)
        assert len(screen.findings) == LISTED
        assert screen.query_one("#findings", DataTable).row_count == LISTED
        counts = rendered(app, "#findings-counts")
        assert "1,500 of 1,500 shown (the first 1,000 listed)" in counts
        await pilot.press("slash", *"O149", "enter")  # an id: o149 and o1490 … o1499
        assert sorted(f.ids[0] for f in screen.findings) == [
            "o149",
            *(f"o149{i}" for i in range(10)),
        ]
        assert "11 of 1,500 shown" in rendered(app, "#findings-counts")
        await pilot.press("slash", "x", "enter")  # o149x: no finding left
        assert screen.findings == [] and "0 of 1,500 shown" in rendered(app, "#findings-counts")


# ---------------------------------------------------------------------- search
@anyio
async def test_the_first_search_shows_indexing_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "gen"
    subprocess.run(
        [sys.executable, str(GENERATE), "300", str(root)], check=True, capture_output=True
    )
    set_search(root, "name: benchmark-300", "name: benchmark-300\nsearch:\n  mode: text")
    shown: list[tuple[str, int, int | None, bool]] = []
    original = SearchScreen._show_progress

    def watched(screen: SearchScreen, step: str, done: int, total: int | None) -> None:
        original(screen, step, done, total)
        bar = screen.query_one("#search-progress")
        shown.append((step, done, total, bar.display))

    monkeypatch.setattr(SearchScreen, "_show_progress", watched)
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"requirement")
        await wait_for_hits(app, pilot)
        assert ("Indexing documents", 300, 300, True) in shown
        assert all(visible for *_, visible in shown)
        assert not app.screen.query_one("#search-progress").display  # gone with the answer
        assert "index was built first" in rendered(app, "#search-status")


@anyio
async def test_a_passage_opens_scrolled_to_its_lines_and_marked(tmp_path: Path) -> None:
    root = set_search(copy_example("traceability", tmp_path), "mode: hybrid", "mode: text")
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", "ctrl+t", *"card declined")
        await wait_for_hits(app, pilot)
        hit = app.screen.hits[0]
        assert hit.start_line is not None and hit.end_line is not None
        await pilot.press("down", "enter")  # into the results, open the first
        assert app.browser.current == Ref("object", hit.id)
        body = app.browser.query_one("#doc-body")
        for _ in range(200):  # until the document is laid out, scrolled and marked
            await app.workers.wait_for_complete()
            await pilot.pause(0.05)
            marked = list(app.browser.query("#doc-markdown .-passage").results(MarkdownBlock))
            if marked and body.scroll_y > 0:
                break
        assert marked, "no block of the passage is marked"
        assert "".join(b.source or "" for b in marked).strip()
        top = marked[0].region.y - body.region.y
        assert 0 <= top < body.region.height  # the passage's first block is in view
        await pilot.press("escape")  # back to the hits as they were
        await pilot.pause()
        assert isinstance(app.screen, SearchScreen)
        assert app.screen.query_one(Input).value == "card declined"
        assert app.screen.scope == "chunks"


@anyio
async def test_the_vectors_off_notice_is_shown_once(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    set_search(root, "mode: hybrid", "mode: hybrid\n  vectors: off")
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"payment")
        await wait_for_hits(app, pilot)
        assert "Vector similarity is off" in rendered(app, "#search-status")
        assert SWITCHED_OFF_NOTE in app.notes_seen
        query = app.screen.query_one(Input)
        query.value = "cart"
        await pilot.pause(0.1)
        for _ in range(200):
            await app.workers.wait_for_complete()
            await pilot.pause(0.05)
            if "'cart'" in rendered(app, "#search-status"):
                break
        status = rendered(app, "#search-status")
        assert "'cart'" in status and "Vector similarity is off" not in status


# ---------------------------------------------------------------------- trace
@anyio
async def test_tab_completes_trace_ids_and_cycles(tmp_path: Path) -> None:
    app = make_app(copy_example("traceability", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", *"req-checkou", "tab")
        screen = app.screen
        assert isinstance(screen, TraceScreen)
        source = screen.query_one("#trace-source", Input)
        target = screen.query_one("#trace-target", Input)
        assert source.value == "req-checkout" and source.has_focus
        await pilot.press("tab")  # a complete id: Tab moves on
        assert target.has_focus
        await pilot.press(*"tes", "tab")  # the prefix the matches share
        assert target.value == "test-"
        assert "6 ids start with 'tes'" in rendered(app, "#trace-status")
        await pilot.press("tab", "tab")  # then one match after the other
        assert target.value == "test-checkout-e2e"
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        steps = screen.query_one("#trace-steps", OptionList)
        first = str(steps.get_option_at_index(0).prompt)
        assert first == "req-checkout  Checkout"  # the id, and its title beside it


@anyio
async def test_tab_on_an_unknown_prefix_says_so(tmp_path: Path) -> None:
    app = make_app(copy_example("traceability", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", *"zz", "tab")
        assert app.screen.query_one("#trace-source", Input).value == "zz"
        assert "No object id starts with 'zz'" in rendered(app, "#trace-status")
        await pilot.press("ctrl+u", *"test-checkout-e", "tab")  # one match: said in the singular
        assert "1 id starts with 'test-checkout-e'" in rendered(app, "#trace-status")


@anyio
async def test_tab_on_an_id_that_starts_others_goes_through_them(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    objects = "".join(f"      - id: {i}\n        content: x\n" for i in ("o1", "o10", "o11"))
    model = f"categories:\n  - id: c\n    name: C\n    objects:\n{objects}"
    (tmp_path / ".catdoc" / "category.yaml").write_text(model, "utf-8")
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", "o", "tab")
        source = app.screen.query_one("#trace-source", Input)
        assert source.value == "o1"  # what o1, o10 and o11 share
        values = []
        for _ in range(3):
            await pilot.press("tab")
            values.append(source.value)
        assert values == ["o10", "o11", "o1"]


@given(st.text("ab", max_size=6), st.text("ab", max_size=6))
@settings(max_examples=60)
def test_shared_prefix_is_the_longest_common_start(first: str, second: str) -> None:
    prefix = shared_prefix(first, second)
    assert first.startswith(prefix) and second.startswith(prefix)
    rest = first[len(prefix) : len(prefix) + 1], second[len(prefix) : len(prefix) + 1]
    assert not rest[0] or not rest[1] or rest[0] != rest[1]


# ---------------------------------------------------------------------- footer and layout
@anyio
async def test_each_screen_footer_shows_its_own_keys(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        keys = footer_keys(app)  # no mapping to open, nothing to go back to
        assert set(keys) == {"/", "v", "t", "j", "e", "?", "q"}
        app.open(Ref("functor", "specify"))
        await pilot.pause()
        await pilot.press("escape")  # from its mapping to the browser
        app.open(Ref("object", "req-cart"))
        app.open(Ref("functor", "specify"), back="validate")
        await pilot.pause()
        await pilot.press("escape")
        keys = footer_keys(app)  # every key of the browser fits in 80 columns
        assert set(keys) == {"f", "b", "/", "v", "t", "j", "e", "?", "q", "esc"}
        await pilot.press("v")  # no findings: nothing to go to, filter or edit (`/` searches)
        keys = footer_keys(app)
        assert set(keys) == {"esc", "/", "t", "j", "?", "q"} and keys["esc"] == "Back"
        await pilot.press("escape", "slash")
        keys = footer_keys(app)
        assert keys["^t"] == "Documents/passages" and keys["esc"] == "Back"
        assert "j" not in keys and "/" not in keys  # the query field types them
        await pilot.press("escape", "t")
        keys = footer_keys(app)
        assert keys["tab"] == "Complete id" and "e" not in keys and "t" not in keys
        assert "j" not in keys  # an id field has focus


@anyio
async def test_a_broken_project_footer_offers_only_what_works(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    (root / ".catdoc" / "categories" / "tests.yaml").write_text("- [unclosed\n", "utf-8")
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ProblemScreen)
        assert set(footer_keys(app)) == {"^r", "?", "q"}


@anyio
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_browser_panes_are_balanced(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(copy_example("traceability", tmp_path))
    async with app.run_test(size=size) as pilot:
        app.open(Ref("object", "req-checkout"))
        links = app.browser.query_one("#doc-links")
        for _ in range(200):  # until the links are laid out (late on a busy machine)
            await pilot.pause(0.05)
            if links.region.height:
                break
        navigator = app.browser.query_one("#navigator").region
        document = app.browser.query_one("#document").region
        assert navigator.width >= 24 and document.width >= navigator.width
        assert app.browser.query_one("#doc-body").region.height >= size[1] // 3
        assert links.region.height >= 4


@anyio
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_findings_messages_are_cut_with_an_ellipsis_at_the_edge(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(copy_example("broken", tmp_path))
    async with app.run_test(size=size) as pilot:
        await pilot.press("v")
        await pilot.pause()
        table = app.screen.query_one("#findings", DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width  # no sideways
        messages = [str(table.get_cell_at((row, 3))) for row in range(table.row_count)]
        assert any(m.endswith("…") for m in messages)
        await pilot.resize_terminal(size[0] + 20, size[1])
        await pilot.pause()
        await pilot.pause()
        assert table.virtual_size.width <= table.scrollable_content_region.width
        wider = [str(table.get_cell_at((row, 3))) for row in range(table.row_count)]
        assert sum(map(len, wider)) > sum(map(len, messages))  # more of each shows
