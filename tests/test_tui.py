"""The terminal browser driven by keys (Textual's Pilot), on copies of the example projects."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import DataTable, Markdown, OptionList, Static
from textual.widgets.markdown import MarkdownBlock
from tui_project import copy_example, make_big_project
from typer.testing import CliRunner

from catdoc.cli import app as cli
from catdoc.errors import CatDocError
from catdoc.results import SearchHit
from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref
from catdoc.tui.screens.help import HelpScreen, help_markdown
from catdoc.tui.screens.mapping import MappingScreen
from catdoc.tui.screens.problem import ProblemScreen
from catdoc.tui.screens.search import SNIPPET_CHARS, SearchScreen, hit_prompt
from catdoc.tui.screens.trace import TraceScreen
from catdoc.tui.screens.validation import ValidationScreen
from catdoc.tui.widgets.document import CODE_STYLE, PASSAGE_STYLE, DocumentView
from catdoc.tui.widgets.mapping import MappingTable
from catdoc.tui.widgets.navigator import PAGE, Navigator

SIZE = (80, 24)
anyio = pytest.mark.anyio


@pytest.fixture
def traceability(example_copy: Path) -> Path:
    return example_copy


@pytest.fixture
def searchable(tmp_path: Path) -> Path:
    """The traceability example set to plain-text search (no embedding model to warm up)."""
    root = copy_example("traceability", tmp_path)
    rewrite(root / ".catdoc" / "config.yaml", "mode: hybrid", "mode: text")
    return root


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    return copy_example("broken", tmp_path)


def make_app(root: Path, watch_interval: float | None = None) -> CatDocApp:
    return CatDocApp(CatDoc(root), watch_interval=watch_interval)


def cursor_ref(app: CatDocApp) -> Ref | None:
    node = app.browser.query_one(Navigator).cursor_node
    return node.data.ref if node and node.data else None


def rendered(app: CatDocApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


def rewrite(path: Path, old: str, new: str) -> None:
    """Edit a file and move its mtime on, so the change is seen even within one clock tick."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    before = path.stat().st_mtime_ns
    path.write_text(text.replace(old, new), encoding="utf-8")
    os.utime(path, ns=(before + 10**9, before + 10**9))


@anyio
async def test_navigate_the_tree_to_a_document(traceability: Path) -> None:
    app = make_app(traceability)
    async with app.run_test(size=SIZE) as pilot:
        # Categories ▸ Requirements ▸ Objects ▸ the first object
        await pilot.press("down", "enter", "down", "enter", "down")
        await pilot.pause(0.3)
        assert app.browser.current == Ref("object", "req-cart")
        assert cursor_ref(app) == Ref("object", "req-cart")
        assert "Shopping cart" in rendered(app, "#doc-title")
        assert "Mira Okafor" not in rendered(app, "#doc-meta")  # folded to one line at 80×24
        await pilot.click("#doc-meta")
        assert "Mira Okafor" in rendered(app, "#doc-meta")
        markdown = app.browser.query_one("#doc-markdown", Markdown)
        assert markdown.display and markdown.source.startswith("\n# Shopping cart")
        links = app.browser.query_one("#doc-links", OptionList)
        assert links.border_title == "Links: 0 out · 2 in"
        assert links.option_count == 3  # two incoming, one image under `specify`


@anyio
async def test_a_myst_page_reads_as_sphinx_shows_it(tmp_path: Path) -> None:
    CatDoc.init(tmp_path, bare=True)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "caching.md").write_text(
        "(wheel-caching)=\n# Caching\n\nSee {ref}`local installs <x>` and {class}`~pkg.Cache`."
        "\n\n```{versionchanged} 23.3\nA new format.\n```\n"
    )
    CatDoc(tmp_path).import_documents(["docs"])
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "caching"))
        shown: list[str] = []
        for _ in range(100):  # the Markdown widget builds its blocks as it gets to them
            await pilot.pause(0.05)
            blocks = app.browser.query_one("#doc-markdown", Markdown).query(MarkdownBlock)
            shown = [str(block.render()) for block in blocks]
            if "A new format." in shown:
                break
        assert "See local installs and Cache." in shown
        assert "Changed in version 23.3" in shown and "A new format." in shown
        assert not any("{" in text or "wheel-caching" in text for text in shown)


@anyio
async def test_jump_along_morphisms_and_back(traceability: Path) -> None:
    app = make_app(traceability)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-checkout"))
        await pilot.press("l", "enter")  # depends-on → req-cart
        assert app.browser.current == Ref("object", "req-cart")
        assert cursor_ref(app) == Ref("object", "req-cart")
        await pilot.press("l", "down", "down", "enter")  # ↦ specify: spec-cart-api
        assert app.browser.current == Ref("object", "spec-cart-api")
        assert cursor_ref(app) == Ref("object", "spec-cart-api")
        await pilot.press("n", "b", "b")
        assert app.browser.current == Ref("object", "req-checkout")


@anyio
async def test_selecting_a_functor_opens_its_mapping(traceability: Path) -> None:
    app = make_app(traceability)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["down"] * 7, "enter")  # 5 categories, then Functors ▸ specify
        screen = app.screen
        assert isinstance(screen, MappingScreen) and screen.ref == Ref("functor", "specify")
        objects = screen.query_one("#object-mapping", MappingTable)
        assert objects.border_title == "Objects 4 · ok"
        assert {e.status for e in objects.entries} == {"ok"}
        assert "Consistent with the validation" in rendered(app, "#mapping-detail")
        await pilot.press("escape")
        assert app.screen is app.browser


@anyio
async def test_failing_mapping_entries_are_marked_and_explained(broken: Path) -> None:
    app = make_app(broken)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("functor", "trace-sloppy-objects"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MappingScreen)
        objects = screen.query_one("#object-mapping", MappingTable)
        assert app.focused is objects
        assert [e.status for e in objects.entries] == ["error", "error", "error", "ok"]
        assert objects.current is not None and objects.current.key == "s-logout"
        assert "Did you mean 'd-logout'?" in rendered(app, "#mapping-detail")
        await pilot.press("tab")
        morphisms = screen.query_one("#morphism-mapping", MappingTable)
        assert morphisms.current is not None and morphisms.current.status == "error"
        assert morphisms.current.key in rendered(app, "#mapping-detail")
        await pilot.press("enter")  # opens that morphism in the browser
        assert app.screen is app.browser
        assert app.browser.current == Ref("morphism", morphisms.entries[0].key)


@anyio
async def test_open_a_finding(broken: Path) -> None:
    app = make_app(broken)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        screen = app.screen
        assert isinstance(screen, ValidationScreen)
        table = screen.query_one("#findings", DataTable)
        assert table.row_count == len(screen.findings) > 40
        assert "invalid" in rendered(app, "#validation-summary")
        codes = [f.code for f in screen.findings]
        row = codes.index("FUN_OBJECT_TARGET_MISSING")
        table.move_cursor(row=row)
        await pilot.press("enter")  # a functor finding → the functor view, at its entry
        mapping = app.screen
        assert isinstance(mapping, MappingScreen)
        finding = screen.findings[row]
        assert mapping.ref.kind == "functor" and mapping.ref.id == finding.functor
        focused = app.focused
        assert isinstance(focused, MappingTable) and focused.current is not None
        assert focused.current.key in finding.ids and focused.current.status == "error"
        await pilot.press("v")
        screen = app.screen
        assert isinstance(screen, ValidationScreen)
        row = next(i for i, f in enumerate(screen.findings) if "m-dangle-target" in f.ids)
        screen.query_one("#findings", DataTable).move_cursor(row=row)
        await pilot.press("enter")  # a category finding → the morphism in the browser
        assert app.screen is app.browser
        assert app.browser.current == Ref("morphism", "m-dangle-target")
        assert cursor_ref(app) == Ref("morphism", "m-dangle-target")


@anyio
async def test_search_live_and_open_a_hit(searchable: Path) -> None:
    app = make_app(searchable)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await pilot.press(*"card declined")
        answered = "documents for 'card declined'"
        for _ in range(400):  # the debounce, then the query (late on a loaded machine, where a
            await pilot.pause(0.05)  # query of the half-typed words may answer first)
            await app.workers.wait_for_complete()
            if screen.hits and answered in rendered(app, "#search-status"):
                break
        await pilot.pause()
        assert screen.hits and screen.hits[0].id == "req-payment"
        assert answered in rendered(app, "#search-status")
        await pilot.press("ctrl+t")  # passages
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.scope == "chunks" and screen.hits[0].heading_path
        await pilot.press("down", "enter")
        assert app.screen is app.browser
        assert app.browser.current == Ref("object", "req-payment")


@anyio
async def test_enter_right_after_typing_opens_the_first_hit(searchable: Path) -> None:
    app = make_app(searchable)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"receipt email", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is app.browser
        assert app.browser.current == Ref("object", "spec-receipt-email")


@anyio
async def test_trace_between_two_objects(traceability: Path) -> None:
    app = make_app(traceability)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-checkout"))
        await pilot.press("t")  # From is the shown object
        screen = app.screen
        assert isinstance(screen, TraceScreen)
        await pilot.press(*"test-checkout-e", "right", "enter")  # completed, then traced
        result = screen.result
        assert result is not None and result.found
        lengths = [p.length for p in result.paths]
        assert lengths == sorted(lengths) and lengths[0] == 4
        assert app.focused is screen.query_one("#trace-paths", OptionList)
        await pilot.press("enter", "down", "down", "enter")  # steps: node, hop, node → open
        assert app.screen is app.browser
        assert app.browser.current == Ref("object", result.paths[0].nodes[1])


@anyio
async def test_trace_without_a_path_shows_why(traceability: Path) -> None:
    """The status line is the core's message: functors lead the other way, so trace that way."""
    app = make_app(traceability)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", *"test-checkout-e2e", "enter", *"req-checkout", "enter")
        screen = app.screen
        assert isinstance(screen, TraceScreen)
        assert screen.result is not None and not screen.result.found
        status = " ".join(rendered(app, "#trace-status").split())
        assert status == screen.result.message
        assert "functors lead only the other way" in status


@anyio
async def test_trace_explains_an_unknown_id(traceability: Path) -> None:
    app = make_app(traceability)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", *"req-checkot", "enter", *"req-cart", "enter")
        status = rendered(app, "#trace-status")
        assert "Object not found: 'req-checkot'" in status and "req-checkout" in status


@anyio
async def test_reload_after_a_file_change_keeps_the_selection(traceability: Path) -> None:
    app = make_app(traceability)
    model = traceability / ".catdoc" / "category.yaml"
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-checkout"))
        await pilot.pause()
        rewrite(
            model,
            "id: req-checkout\n        title: Checkout\n",
            "id: req-checkout\n        title: Checkout in three steps\n",
        )
        app.sync_project()
        await pilot.pause()
        assert app.browser.current == Ref("object", "req-checkout")
        assert cursor_ref(app) == Ref("object", "req-checkout")
        assert "Checkout in three steps" in rendered(app, "#doc-title")
        # The selected object disappears: the browser lets go of it without an error.
        rewrite(model, "- id: req-checkout\n", "- id: req-checkout-v2\n")
        app.sync_project()
        await pilot.pause()
        assert app.browser.current is None
        assert app.screen is app.browser


@anyio
async def test_document_edits_are_noticed(traceability: Path) -> None:
    app = make_app(traceability, watch_interval=0.05)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-cart"))
        await pilot.pause()
        rewrite(traceability / "docs/requirements/cart.md", "# Shopping cart", "# Basket")
        # Watch ticks until the edit shows; a loaded machine may need several.
        for _ in range(200):
            await pilot.pause(0.05)
            if "# Basket" in app.browser.query_one("#doc-markdown", Markdown).source:
                break
        assert "# Basket" in app.browser.query_one("#doc-markdown", Markdown).source


@anyio
async def test_a_watch_tick_after_the_screens_went_does_nothing(traceability: Path) -> None:
    """The watch timer can fire while the app closes, after its last screen is gone."""
    app = make_app(traceability, watch_interval=0.05)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
    assert not app.screen_stack
    app.sync_project()


@anyio
async def test_a_watch_tick_while_the_browser_is_taken_down_does_nothing(
    traceability: Path,
) -> None:
    """As the app closes, its screens' widgets go before the screens: a tick in between found
    no document view and stopped the app with NoMatches."""
    app = make_app(traceability, watch_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-cart"))
        await pilot.pause()
        await app.browser.query_one(DocumentView).remove()
        app.sync_project()
        await pilot.pause()


@anyio
async def test_broken_yaml_shows_the_problem_until_fixed(traceability: Path) -> None:
    tests_yaml = traceability / ".catdoc" / "categories" / "tests.yaml"
    good = tests_yaml.read_text(encoding="utf-8")
    tests_yaml.write_text("categories:\n  - id: [unclosed\n", encoding="utf-8")
    app = make_app(traceability)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ProblemScreen)
        text = rendered(app, "#problem-text")
        assert "categories/tests.yaml:" in text and "YAML syntax error" in text
        await pilot.press("v")  # nothing opens over a broken project
        assert isinstance(app.screen, ProblemScreen)
        tests_yaml.write_text(good, encoding="utf-8")
        os.utime(tests_yaml, ns=(time.time_ns() + 10**9,) * 2)
        app.sync_project()
        await pilot.pause()
        assert app.screen is app.browser
        assert len(app.browser.query_one(Navigator).root.children[0].children) == 5


@anyio
async def test_help_and_command_palette_cover_every_action(traceability: Path) -> None:
    app = make_app(traceability)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert app.screen is app.browser
        titles = {c.title for c in app.get_system_commands(app.screen)}
        for title in ("Search", "Validate", "Trace", "Help", "Reload", "Back"):
            assert title in titles
        assert "Functor: Requirements → Specifications" in titles
        assert any(t.startswith("Transformation: ") for t in titles)
        text = help_markdown(app)
        for key in ("`/`", "`v`", "`t`", "`? / f1`", "`f`", "`b`", "`esc`", "`^t`", "`^p`"):
            assert key in text


@anyio
async def test_ten_thousand_objects_load_one_page(tmp_path: Path) -> None:
    app = make_app(make_big_project(tmp_path / "big"))
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "o9876"))
        await pilot.pause()
        assert cursor_ref(app) == Ref("object", "o9876")
        loaded = sum(1 for _ in app.browser.query_one(Navigator)._walk())
        assert loaded < 10_000 // PAGE + PAGE + 10  # page nodes and one page of objects


def test_locate_entity_names_kind_category_and_position(traceability: Path) -> None:
    service = CatDoc(traceability)
    where = service.locate_entity("req-payment")
    assert (where.kind, where.category, where.index) == ("object", "requirements", 2)
    where = service.locate_entity("checkout-depends-on-payment")
    assert (where.kind, where.category, where.index) == ("morphism", "requirements", 1)
    assert service.locate_entity("specify").kind == "functor"
    assert service.locate_entity("design").kind == "category"
    with pytest.raises(CatDocError) as info:
        service.locate_entity("req-paymnt")
    assert "req-payment" in info.value.suggestions


def test_cli_without_a_project_says_so(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["tui", "--project", str(tmp_path)])
    assert result.exit_code == 2
    assert "No CatDoc project found" in result.output
    assert "catdoc init" in result.output
    assert "Traceback" not in result.output


def test_a_long_snippet_is_cut_between_words_with_an_ellipsis() -> None:
    words = " ".join(f"word{i:03}" for i in range(40))  # 319 characters
    hit = SearchHit(id="a", title="A", score=1.0, snippet=f"«{words[:7]}»{words[7:]}")
    snippet = hit_prompt(hit, "documents").plain.splitlines()[-1]
    assert snippet.endswith("word018…") and len(snippet) <= SNIPPET_CHARS  # the marks count
    short = SearchHit(id="a", title="A", score=1.0, snippet="two  words")
    assert hit_prompt(short, "documents").plain.splitlines()[-1] == "two words"


@anyio
async def test_l_focuses_the_links_only_where_there_are_some(broken: Path) -> None:
    app = make_app(broken)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.browser.show(Ref("object", "s-draft"))  # no morphism, no image: no links
        await pilot.pause()
        focused = app.focused
        await pilot.press("l")
        assert app.focused is focused
        assert [n.message for n in app._notifications] == ["No links here."]
        app.browser.show(Ref("object", "s1"))
        await pilot.pause()
        await pilot.press("l")
        assert app.focused is app.browser.query_one("#doc-links")
        app.browser.show(Ref("object", "s-draft"))  # the links list goes: so does the focus
        await pilot.pause()
        assert app.focused is app.browser.query_one("#doc-body")


def rest_project(root: Path) -> tuple[Path, int]:
    """One object whose reST document has long lines; the file line (from 1) where the
    paragraph `Paragraph 20` starts."""
    (root / ".catdoc").mkdir(parents=True)
    model = "categories:\n- id: c\n  name: C\n  objects:\n  - id: doc\n    path: doc.rst\n"
    (root / ".catdoc" / "category.yaml").write_text(model, encoding="utf-8")
    lines = ["Long lines", "==========", ""]
    for n in range(40):
        if n == 20:
            start = len(lines) + 1
        lines += [f"Paragraph {n} " + "word " * 22, "more " * 25, "end of it " * 8, ""]
        if n % 10 == 9:
            lines += ["Section", "-------", "", "::", "", "    code " * 12, ""]
    (root / "doc.rst").write_text("\n".join(lines), encoding="utf-8")
    return root, start


@anyio
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_a_passage_of_a_rest_document_opens_at_its_first_line(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    root, start = rest_project(tmp_path / "p")
    app = make_app(root)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.browser.show(Ref("object", "doc"))
        await pilot.pause()
        text = app.browser.query_one("#doc-text", Static)
        plain = text.content.plain
        assert "Paragraph 20 word word" in plain and "word \nmore" not in plain  # joined
        assert "Long lines\n" in plain and "====" not in plain  # the title, without underline
        app.browser.document.show_lines(start + 1, start + 2)  # its second and third lines
        body = app.browser.query_one("#doc-body")
        for _ in range(50):
            await app.workers.wait_for_complete()
            await pilot.pause(0.05)
            if body.scroll_y:
                break
        row = round(body.scroll_y) - text.virtual_region.y
        top = text.render_lines(Region(0, row, text.size.width, 1))[0].text
        assert top.strip().startswith("Paragraph 20 word")  # the passage's paragraph at the top
        marked = [s for s in text.content.spans if s.style == PASSAGE_STYLE]
        assert [plain[s.start : s.end].split()[:2] for s in marked] == [["Paragraph", "20"]]


def indented_project(root: Path) -> tuple[Path, int]:
    """One object whose reST document holds long list items, block quotes and a literal block;
    the file line (from 1) where the list item `Item 20` starts."""
    (root / ".catdoc").mkdir(parents=True)
    model = "categories:\n- id: c\n  name: C\n  objects:\n  - id: doc\n    path: doc.rst\n"
    (root / ".catdoc" / "category.yaml").write_text(model, encoding="utf-8")
    lines = ["Lists", "=====", ""]
    for n in range(30):
        if n == 20:
            start = len(lines) + 1
        lines += [f"- Item {n} " + "word " * 16, "  and more " * 9, "  its end", ""]
        if n % 10 == 9:
            lines += ["   A quote " + "quoted " * 14, "   ends here.", "", "::", ""]
            lines += ["    code line kept " * 6, ""]
    (root / "doc.rst").write_text("\n".join(lines), encoding="utf-8")
    return root, start


def shown_rows(text: Static) -> list[str]:
    """The rows a text widget shows, without its padding."""
    region = Region(0, 0, text.size.width, text.virtual_size.height)
    return [strip.text[1:].rstrip() for strip in text.render_lines(region)]


async def hung_rows(pilot: Pilot[None], text: Static) -> list[str]:
    """The rows shown once "- Item 7"'s paragraph hangs under its text: on a loaded machine the
    first rows may still be those of the width the pane had before its layout settled (the
    widget wraps anew on its resize), so they are looked at again for a while."""
    for _ in range(100):
        rows = shown_rows(text)
        item = next((i for i, row in enumerate(rows) if row.startswith("- Item 7 ")), None)
        end = next((i for i in range(item or 0, len(rows)) if rows[i].endswith("end")), None)
        body = rows[item + 1 : end + 1] if item is not None and end is not None else []
        if body and all(row.startswith("  ") and row[2] != " " for row in body):
            return rows
        await pilot.pause(0.05)
    return shown_rows(text)


@anyio
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_indented_paragraphs_wrap_under_their_text(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    root, start = indented_project(tmp_path / "p")
    app = make_app(root)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.browser.show(Ref("object", "doc"))
        await pilot.pause()
        text = app.browser.query_one("#doc-text", Static)
        for width in (size[0], size[0] + 30):  # and wrapped anew at another width
            rows = await hung_rows(pilot, text)
            item = rows.index(next(row for row in rows if row.startswith("- Item 7 ")))
            end = next(i for i in range(item, len(rows)) if rows[i].endswith("end"))
            assert end > item + 1  # one paragraph, wrapped
            assert all(row.startswith("  ") and row[2] != " " for row in rows[item + 1 : end + 1])
            assert " ".join(row.strip() for row in rows[item : end + 1]).split() == [
                "-", "Item", "7", *["word"] * 16, *["and", "more"] * 9, "its", "end"
            ]  # fmt: skip
            quote = next(i for i, row in enumerate(rows) if row.startswith("   A quote"))
            assert rows[quote + 1].startswith("   quoted") or rows[quote + 1].startswith("   ends")
            assert "\n" + "    code line kept " * 6 + "\n" in text.content.plain  # as written
            assert max(len(row) for row in rows) <= text.content_region.width
            await pilot.resize_terminal(width + 30, size[1])
            await pilot.pause()
        await pilot.resize_terminal(*size)
        await pilot.pause()
        app.browser.document.show_lines(start + 1, start + 1)  # the item's second line
        body = app.browser.query_one("#doc-body")
        for _ in range(50):
            await app.workers.wait_for_complete()
            await pilot.pause(0.05)
            if body.scroll_y:
                break
        row = round(body.scroll_y) - text.virtual_region.y
        assert shown_rows(text)[row].startswith("- Item 20 word")  # the item at the top
        plain = text.content.plain
        (marked,) = [s for s in text.content.spans if s.style == PASSAGE_STYLE]
        assert plain[marked.start : marked.end].split()[:3] == ["-", "Item", "20"]
        assert plain[marked.start : marked.end].split()[-2:] == ["its", "end"]


ROLES = """\
The :mod:`numpy.linalg` module
==============================

See :ref:`the guide <user-guide>` and :pep:`8`; use
:func:`~numpy.linalg.norm` or ``np.dot``.

- An item naming :class:`numpy.ndarray`
  and :doc:`reference/index`.

Example::

    :ref:`kept <as-written>` in ``code``

.. code-block:: rst

   :pep:`8` stays

=========  =====
:pep:`8`   table
=========  =====
"""


@anyio
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_roles_read_as_in_rendered_docs_and_code_stays_as_written(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    root = tmp_path / "p"
    (root / ".catdoc").mkdir(parents=True)
    model = "categories:\n- id: c\n  name: C\n  objects:\n  - id: doc\n    path: doc.rst\n"
    (root / ".catdoc" / "category.yaml").write_text(model, encoding="utf-8")
    (root / "doc.rst").write_text(ROLES, encoding="utf-8")
    app = make_app(root)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.browser.show(Ref("object", "doc"))
        await pilot.pause()
        text = app.browser.query_one("#doc-text", Static)
        plain = text.content.plain
        assert plain.startswith("The numpy.linalg module\n")
        assert "See the guide and PEP 8; use norm or np.dot." in " ".join(plain.split())
        assert "- An item naming numpy.ndarray and reference/index." in " ".join(plain.split())
        for written in (
            "\n    :ref:`kept <as-written>` in ``code``\n",
            "\n   :pep:`8` stays\n",
            "\n:pep:`8`   table\n",
        ):
            assert written in plain  # code and tables as written
        code = [plain[s.start : s.end] for s in text.content.spans if s.style == CODE_STYLE]
        assert code == ["numpy.linalg", "norm", "np.dot", "numpy.ndarray"]
        app.browser.document.show_lines(8, 8)  # the list item's second line
        for _ in range(50):
            await app.workers.wait_for_complete()
            await pilot.pause(0.05)
            if any(s.style == PASSAGE_STYLE for s in text.content.spans):
                break
        plain = text.content.plain
        (marked,) = [s for s in text.content.spans if s.style == PASSAGE_STYLE]
        assert " ".join(plain[marked.start : marked.end].split()) == (
            "- An item naming numpy.ndarray and reference/index."
        )


@anyio
async def test_an_asciidoc_document_reads_with_its_titles_and_its_code_as_written(
    tmp_path: Path,
) -> None:
    root = tmp_path / "p"
    (root / ".catdoc").mkdir(parents=True)
    model = "categories:\n- id: c\n  name: C\n  objects:\n  - id: doc\n    path: doc.adoc\n"
    (root / ".catdoc" / "category.yaml").write_text(model, encoding="utf-8")
    (root / "doc.adoc").write_text(
        "= Payment Service\n:author: Ada\n\n== Overview\n\nA paragraph cut\nacross lines.\n\n"
        "[source,python]\n----\ndef pay():\n    return 1\n----\n",
        encoding="utf-8",
    )
    app = make_app(root)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.browser.show(Ref("object", "doc"))
        await pilot.pause()
        plain = app.browser.query_one("#doc-text", Static).content.plain
        assert "Payment Service\n" in plain and "= Payment" not in plain
        assert "Overview\n" in plain and "== " not in plain
        assert "A paragraph cut across lines." in plain
        assert "----\ndef pay():\n    return 1\n----" in plain


def test_metadata_values_read_as_text_at_any_depth() -> None:
    from catdoc.tui.widgets.document import meta_line

    shown = meta_line([("metadata", {"related": ["a", "b"], "owner": {"team": "x"}})]).plain
    assert "related=a, b" in shown and "owner=team=x" in shown and "[" not in shown
