"""The terminal browser on a generated project: a big mapping fills in the background under a
progress bar and `/` filters it, rows and links carry titles, the navigator names its pages by
id range and marks errors with ✗, and at 80×24 the metadata folds. The sizes are lowered
(`SYNC_ROWS`, batches, `PAGE`) so a 400-object project takes the paths of a 10,000-object one.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.annotations import clip
from catdoc.tui.refs import Ref
from catdoc.tui.screens import mapping as mapping_screen
from catdoc.tui.screens.mapping import MappingScreen
from catdoc.tui.widgets import navigator
from catdoc.tui.widgets.document import DocumentView
from catdoc.tui.widgets.mapping import MappingTable
from catdoc.tui.widgets.navigator import Navigator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.generate import generate

SIZE = (80, 24)
anyio = pytest.mark.anyio
Compare = Callable[..., bool]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """400 objects: 100 per layer, 300 morphisms per layer, functors between the layers."""
    return generate(400, tmp_path_factory.mktemp("scale") / "p400")


@pytest.fixture
def project(generated: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(generated, tmp_path / "p"))


@pytest.fixture
def broken(project: Path) -> Path:
    """The generated project with one object mapped to an object that does not exist."""
    model = project / ".catdoc" / "category.yaml"
    text = model.read_text("utf-8")
    assert "      req-00003: spec-00003\n" in text
    model.write_text(text.replace("req-00003: spec-00003", "req-00003: spec-99999"), "utf-8")
    return project


@pytest.fixture
def small_sizes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mappings over 50 rows fill in the background, 10 rows then 60 per step; pages of 30."""
    monkeypatch.setattr(mapping_screen, "SYNC_ROWS", 50)
    monkeypatch.setattr(mapping_screen, "FIRST_BATCH", 10)
    monkeypatch.setattr(mapping_screen, "BATCH", 60)
    monkeypatch.setattr(navigator, "PAGE", 30)


def make_app(root: Path) -> CatDocApp:
    return CatDocApp(CatDoc(root), watch_interval=None)


async def settle(pilot: Pilot) -> None:
    """Until every worker (mapping fill, error marks) has finished and its results are shown."""
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def tables(app: CatDocApp) -> dict[str, MappingTable]:
    return {str(t.id): t for t in app.screen.query(MappingTable)}


def plain(app: CatDocApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


@anyio
@pytest.mark.usefixtures("small_sizes")
async def test_a_big_mapping_fills_in_batches_under_a_progress_bar(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches: list[int] = []
    labels: list[str] = []
    extend, progress = MappingTable.extend, MappingScreen._progress

    def counting(table: MappingTable, entries: list, rows: list) -> None:
        batches.append(len(rows))
        extend(table, entries, rows)

    def noting(screen: MappingScreen, label: str, total: int | None, done: int) -> None:
        labels.append(label)
        progress(screen, label, total, done)

    monkeypatch.setattr(MappingTable, "extend", counting)
    monkeypatch.setattr(MappingScreen, "_progress", noting)
    app = make_app(project)
    async with app.run_test(size=SIZE) as pilot:
        app.browser.show(Ref("functor", "req-to-spec"))
        await pilot.press("f")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MappingScreen) and not screen.filling
        shown = tables(app)
        assert len(shown["object-mapping"].entries) == 100
        assert len(shown["morphism-mapping"].entries) == 300
        assert shown["object-mapping"].border_title == "Objects 100 · ok"
        assert batches[0] == 10 and max(batches) == 60 and sum(batches) == 400
        assert labels[0].startswith("Reading and validating 400 entries")
        assert "10 of 400 rows" in labels and labels[-1] == "400 of 400 rows"
        assert not screen.query_one("#mapping-progress").display
        assert app.focused is shown["object-mapping"]
        assert "Consistent with the validation" in plain(app, "#mapping-detail")


@anyio
@pytest.mark.usefixtures("small_sizes")
async def test_slash_filters_the_rows_by_id_or_title(project: Path) -> None:
    app = make_app(project)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("functor", "req-to-spec"))
        await settle(pilot)
        await pilot.press("slash")
        screen = app.screen
        assert isinstance(screen, MappingScreen)  # `/` filters here; it does not search
        box = screen.query_one("#mapping-filter", Input)
        assert box.display and app.focused is box
        await pilot.press(*"requirement 00042")  # a title: req-00042's
        await settle(pilot)
        objects = tables(app)["object-mapping"]
        assert [e.key for e in objects.entries] == ["req-00042"]
        assert objects.border_title == "Objects 1 of 100 · ok"
        box.value = "SPEC-0004"  # an id on the right, in any case
        await settle(pilot)
        assert {e.value for e in objects.entries} == {f"spec-0004{i}" for i in range(10)}
        await pilot.press("enter")  # to the rows
        assert app.focused is objects
        await pilot.press("escape")  # clears the filter
        await settle(pilot)
        assert not box.display and box.value == ""
        assert len(objects.entries) == 100
        await pilot.press("escape")
        assert app.screen is app.browser


@anyio
async def test_rows_and_links_carry_titles_cut_with_an_ellipsis(project: Path) -> None:
    app = make_app(project)
    async with app.run_test(size=(120, 36)) as pilot:
        app.open(Ref("functor", "req-to-spec"))
        await settle(pilot)
        objects = tables(app)["object-mapping"]
        key, value = (str(cell) for cell in objects.get_row_at(0)[1:])
        width = (120 // 2 - 12) // 2  # two tables side by side share the 120 columns
        assert key.startswith("req-00000  Requirement") and key.endswith("…")
        assert value.startswith("spec-00000  Specifica") and value.endswith("…")
        assert len(key) == len(value) == width
        detail = plain(app, "#mapping-detail")  # the highlighted entry's titles in full
        assert "req-00000  Requirement 00000" in detail and "spec-00000  Specification" in detail
        await pilot.press("escape")
        app.open(Ref("object", "req-00001"))
        await pilot.pause()
        links = app.browser.query_one("#doc-links", OptionList)
        prompts = [str(links.get_option_at_index(i).prompt) for i in range(links.option_count)]
        assert any("spec-00001  Specification 00001" in p for p in prompts)
    assert clip("abcdef", 4) == "abc…" and clip("abc", 4) == "abc"


@anyio
@pytest.mark.usefixtures("small_sizes")
async def test_navigator_pages_are_named_by_id_range(project: Path) -> None:
    app = make_app(project)
    async with app.run_test(size=(120, 36)) as pilot:
        app.open(Ref("object", "req-00045"))
        await pilot.pause()
        tree = app.browser.query_one(Navigator)
        node = tree.cursor_node
        assert node is not None and node.parent is not None
        page = node.parent
        assert str(page.label) == "req-00030 … req-00059 30"
        assert [str(p.label) for p in page.parent.children][-1] == "req-00090 … req-00099 10"


@anyio
@pytest.mark.usefixtures("small_sizes")
async def test_errors_are_marked_on_nodes_and_on_the_header(broken: Path) -> None:
    app = make_app(broken)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.browser.show(Ref("object", "req-00003"))
        await settle(pilot)
        tree = app.browser.query_one(Navigator)
        marked = [n.data.key for n in tree._walk() if n.data and tree.has_errors(n.data)]
        assert ("object", "req-00003", 0) in marked
        assert ("objects-page", "requirements", 0) in marked
        assert ("category", "requirements", 0) in marked
        assert ("objects-page", "requirements", 30) not in marked
        assert ("object", "req-00004", 0) not in marked
        node = tree.cursor_node
        assert node is not None
        label = tree.render_label(node, tree.rich_style, tree.rich_style)
        assert label.plain.startswith("✗ ")
        errors = len(CatDoc(broken).findings(severity="error", entity="req-00003"))
        assert f"✗ {errors} error" in plain(app, "#doc-title")
        app.browser.show(Ref("object", "req-00004"))
        await pilot.pause()
        assert "✗" not in plain(app, "#doc-title")


@anyio
async def test_long_labels_end_in_an_ellipsis(project: Path) -> None:
    model = project / ".catdoc" / "category.yaml"
    long = "Requirement 00000 " + "very " * 30 + "long"
    text = model.read_text("utf-8").replace('"Requirement 00000 version session retry"', repr(long))
    model.write_text(text, "utf-8")
    app = make_app(project)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-00000"))
        await pilot.pause()
        tree = app.browser.query_one(Navigator)
        assert tree.cursor_node is not None
        label = tree.render_label(tree.cursor_node, tree.rich_style, tree.rich_style)
        assert label.plain.endswith("…") and label.cell_len < tree.size.width


@anyio
async def test_metadata_folds_on_a_short_terminal(project: Path) -> None:
    for size, folded in ((SIZE, True), ((120, 36), False)):
        app = make_app(project)
        async with app.run_test(size=size) as pilot:
            app.open(Ref("object", "req-00001"))
            await pilot.pause()
            meta = plain(app, "#doc-meta")
            assert ("\n" not in meta and meta.startswith("▸")) is folded
            assert ("barbara" in meta or "linus" in meta or "author" in meta) is not folded
            assert app.browser.query_one(DocumentView).ref == Ref("object", "req-00001")


# ---------------------------------------------------------------------- snapshots at 80×24
def test_snapshot_mapping_filtered(snap_compare: Compare, project: Path, small_sizes: None) -> None:
    app = make_app(project)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        app.open(Ref("functor", "req-to-spec"))
        await settle(pilot)
        await pilot.press("slash")
        app.screen.query_one(Input).cursor_blink = False
        await pilot.press(*"0004")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_navigator_error_marks(
    snap_compare: Compare, broken: Path, small_sizes: None
) -> None:
    app = make_app(broken)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        app.open(Ref("object", "req-00003"))
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
