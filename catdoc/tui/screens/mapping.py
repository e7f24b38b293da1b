"""The functor view (object and morphism mapping side by side) and the transformation view
(its components); every failing entry is marked, and the highlighted one is explained.

A big mapping (10,000 rows at 10,000 objects) is read and validated on a worker thread and its
rows are added in batches under a progress bar, so the screen answers keys while it fills; `/`
filters the rows by id or title.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, Header, Input, ProgressBar, Static
from textual.worker import Worker, get_current_worker

from catdoc import results as r
from catdoc.errors import CatDocError
from catdoc.tui.annotations import titles
from catdoc.tui.refs import Ref
from catdoc.tui.screens.base import CatDocScreen
from catdoc.tui.widgets.document import path_text
from catdoc.tui.widgets.mapping import (
    MARKS,
    MappingTable,
    Row,
    entry_text,
    mapping_row,
    sort_entries,
)
from catdoc.visible import visible

LAW_STYLES = {"holds": "green", "fails": "bold red", "unknown": "yellow"}
SYNC_ROWS = 1_000
"""Mappings up to this many rows are shown at once; bigger ones fill in the background."""
FIRST_BATCH = 100
BATCH = 2_000
"""Rows added to a table per step of the background fill: the first step is small, so rows
show at once, and each next one twice the last, up to `BATCH` (each step costs the UI a
layout of the whole table, so few steps; but a long step is a pause of the UI)."""


def _law(name: str, status: str) -> Text:
    return Text.assemble((f"{name} ", "dim"), (status, LAW_STYLES.get(status, "")))


def _counts(shown: int, entries: list[r.MappingEntry]) -> str:
    bad = sum(e.status != "ok" for e in entries)
    total = f"{shown} of {len(entries)}" if shown != len(entries) else f"{len(entries)}"
    return f"{total} · {bad} failing" if bad else f"{total} · ok"


@dataclass(frozen=True, slots=True)
class Loaded:
    """A mapping read from the service: the title line and each table's entries, sorted."""

    title: Text
    sub_title: str
    tables: dict[str, tuple[str, list[r.MappingEntry]]]
    """table id → (border title's noun, entries)."""
    titles: dict[str, str]
    texts: dict[str, list[str]]
    """table id → the filter's text of each entry."""


class MappingScreen(CatDocScreen):
    """One functor or natural transformation; Enter opens the entry's source in the browser."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", tooltip="Clear the filter, or back to the browser"),
        Binding("slash", "filter", "Filter", key_display="/", tooltip="Filter rows by id or title"),
    ]

    def __init__(self, ref: Ref) -> None:
        super().__init__()
        self.ref = ref
        self.loaded: Loaded | None = None
        self.filling = False
        """True while rows are being added in the background."""
        self._placed = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="mapping-title", markup=False)
        with Horizontal(id="mapping-progress"):
            yield ProgressBar(id="mapping-bar", show_eta=False)
            yield Static(id="mapping-status", markup=False)
        yield Input(
            placeholder="Filter by id or title · Enter: to the rows · Esc: clear",
            id="mapping-filter",
        )
        with Horizontal(id="mapping-tables"):
            if self.ref.kind == "functor":
                yield MappingTable("A", "F(A)", id="object-mapping")
                yield MappingTable("f", "F(f)", id="morphism-mapping")
            else:
                yield MappingTable("A", "η_A: F(A) → G(A)", id="components")
        yield Static(id="mapping-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#mapping-filter").display = False
        self.query_one("#mapping-progress").display = False
        self.query(MappingTable).first().focus()
        self.project_changed()

    # ------------------------------------------------------------------ loading
    def project_changed(self) -> None:
        """Read the mapping again: at once when small, else on a worker with progress."""
        try:
            size = self._rows_expected()
        except CatDocError as error:
            self._failed(error)
            return
        if size <= SYNC_ROWS:
            try:
                self._show(self._read())
            except CatDocError as error:
                self._failed(error)
            return
        self._progress(f"Reading and validating {size:,} entries…", None, 0)
        # after the first paint: the worker thread would share the interpreter with it
        self.call_after_refresh(self._read_in_background)

    def _rows_expected(self) -> int:
        """Rows the mapping will have (entries of every source object and morphism)."""
        if self.ref.kind == "functor":
            source = self.service.functor(self.ref.id).source_category
            cat = self.service.project().category_by_id.get(source)
            return len(cat.objects) + len(cat.morphisms) if cat else 0
        nat = self.service.natural_transformation(self.ref.id)
        fun = self.service.project().functor_by_id.get(nat.source_functor)
        cat = self.service.project().category_by_id.get(fun.source_category) if fun else None
        return len(cat.objects) if cat else 0

    def _read(self) -> Loaded:
        names = titles(self.service)
        if self.ref.kind == "functor":
            fun = self.service.show_functor(self.ref.id)
            title = Text.assemble(
                (visible(fun.name), "bold"),
                (visible(f"  {fun.source_category} → {fun.target_category}") + "\n", "dim"),
                _law("identity preservation", fun.identity_preservation),
                "   ",
                _law("composition preservation", fun.composition_preservation),
            )
            tables = {
                "object-mapping": ("Objects", sort_entries(fun.object_mapping)),
                "morphism-mapping": ("Morphisms", sort_entries(fun.morphism_mapping)),
            }
            sub_title = f"functor {fun.id}"
        else:
            nat = self.service.show_natural_transformation(self.ref.id)
            title = Text.assemble(
                (visible(nat.name), "bold"),
                (visible(f"  {nat.source_functor} ⇒ {nat.target_functor}"), "dim"),
                (visible(f"  ({nat.source_category} → {nat.target_category})"), "dim"),
            )
            tables = {"components": ("Components", sort_entries(nat.components))}
            sub_title = f"natural transformation {nat.id}"
        texts = {
            tid: [entry_text(e, names) for e in entries] for tid, (_, entries) in tables.items()
        }
        return Loaded(title, visible(sub_title), tables, names, texts)

    @work(thread=True, exclusive=True, group="mapping-read")
    def _read_in_background(self) -> None:
        try:
            loaded = self._read()
        except CatDocError as error:
            self.app.call_from_thread(self._failed, error)
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._start_fill, loaded)

    def _cell_width(self) -> int:
        """Characters per key or value cell so that a row fits its table (two tables side by
        side for a functor): borders, scrollbar, the mark column and paddings take ~12."""
        tables = len(self.query(MappingTable))
        return max(12, (self.app.size.width // max(tables, 1) - 12) // 2)

    def _start_fill(self, loaded: Loaded) -> None:
        self._set_loaded(loaded)
        self._fill(self._needle(), self._cell_width())

    @work(thread=True, exclusive=True, group="mapping-fill")
    def _fill(self, needle: str, width: int) -> None:
        """Add the rows matching `needle` batch by batch (rows are built here, off the UI)."""
        worker = get_current_worker()
        loaded = self.loaded
        if loaded is None:
            return
        chosen = {
            tid: [e for e, text in zip(entries, loaded.texts[tid], strict=True) if needle in text]
            for tid, (_, entries) in loaded.tables.items()
        }
        total = sum(len(entries) for entries in chosen.values())
        done, size = 0, FIRST_BATCH
        self.app.call_from_thread(self._begin_fill, worker, total)
        for tid, entries in chosen.items():
            start = 0
            while start < len(entries):
                batch = entries[start : start + size]
                start, size = start + size, min(BATCH, 2 * size)
                rows = [mapping_row(e, loaded.titles, width) for e in batch]
                if worker.is_cancelled:
                    return
                done += len(batch)
                self.app.call_from_thread(self._add_batch, worker, tid, batch, rows, done, total)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._end_fill, worker)

    def _begin_fill(self, worker: Worker[None], total: int) -> None:
        if worker.is_cancelled:
            return
        self.filling = True
        for table in self.query(MappingTable):
            table.reset()
        self._progress(f"0 of {total:,} rows", total, 0)

    def _add_batch(
        self,
        worker: Worker[None],
        tid: str,
        entries: list[r.MappingEntry],
        rows: list[Row],
        done: int,
        total: int,
    ) -> None:
        if worker.is_cancelled:  # a newer filter took over; its rows are being added
            return
        self.query_one(f"#{tid}", MappingTable).extend(entries, rows)
        self._progress(f"{done:,} of {total:,} rows", total, done)

    def _end_fill(self, worker: Worker[None]) -> None:
        if worker.is_cancelled:
            return
        self.filling = False
        self.query_one("#mapping-progress").display = False
        self._titles()
        self._place_cursor()

    def _progress(self, label: str, total: int | None, done: int) -> None:
        line = self.query_one("#mapping-progress")
        if not line.display:  # set only on a change: each set restyles the screen
            line.display = True
        self.query_one("#mapping-bar", ProgressBar).update(total=total, progress=done)
        self.query_one("#mapping-status", Static).update(Text(label, "dim"))

    # ------------------------------------------------------------------ showing
    def _set_loaded(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.sub_title = loaded.sub_title
        self.query_one("#mapping-title", Static).update(loaded.title)

    def _show(self, loaded: Loaded) -> None:
        """Everything at once (a small mapping), filtered by the current needle."""
        self._set_loaded(loaded)
        needle, width = self._needle(), self._cell_width()
        for tid, (_, entries) in loaded.tables.items():
            texts = loaded.texts[tid]
            shown = [e for e, text in zip(entries, texts, strict=True) if needle in text]
            table = self.query_one(f"#{tid}", MappingTable)
            table.reset()
            table.extend(shown, [mapping_row(e, loaded.titles, width) for e in shown])
        self._titles()
        self._place_cursor()

    def _failed(self, error: CatDocError) -> None:
        self.loaded = None
        self.filling = False
        self.query_one("#mapping-progress").display = False
        self.query_one("#mapping-title", Static).update(Text(visible(error.message), "red"))
        for table in self.query(MappingTable):
            table.reset()
        self._explain(None)

    def _titles(self) -> None:
        if self.loaded is None:
            return
        for tid, (noun, entries) in self.loaded.tables.items():
            table = self.query_one(f"#{tid}", MappingTable)
            table.border_title = f"{noun} {_counts(len(table.entries), entries)}"

    def _place_cursor(self) -> None:
        """The first time the rows are in: on the entry asked for, else on the first failing
        one; afterwards the focused table keeps its place."""
        tables = list(self.query(MappingTable))
        if not self._placed:
            self._placed = True
            focus = self.ref.focus
            chosen = next((t for t in tables if focus and t.focus_key(focus)), None)
            chosen = chosen or next(
                (t for t in tables if t.current and t.current.status != "ok"), None
            )
            if chosen is not None or not isinstance(self.focused, Input):
                (chosen or tables[0]).focus()
        self._explain(self.focused if isinstance(self.focused, MappingTable) else None)

    # ------------------------------------------------------------------ filtering
    def _needle(self) -> str:
        return self.query_one("#mapping-filter", Input).value.strip().casefold()

    def action_filter(self) -> None:
        box = self.query_one("#mapping-filter", Input)
        box.display = True
        box.focus()

    def action_back(self) -> None:
        box = self.query_one("#mapping-filter", Input)
        if box.display:
            box.value = ""
            box.display = False
            self.query(MappingTable).first().focus()
            return
        self.app.pop_screen()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self.loaded is None:
            return  # the read under way fills with the filter as it is then
        if sum(len(entries) for _, entries in self.loaded.tables.values()) <= SYNC_ROWS:
            self._show(self.loaded)
        else:
            self._fill(self._needle(), self._cell_width())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        table = next((t for t in self.query(MappingTable) if t.entries), None)
        (table or self.query(MappingTable).first()).focus()

    # ------------------------------------------------------------------ explaining
    def _explain(self, table: MappingTable | None) -> None:
        detail = self.query_one("#mapping-detail", Static)
        entry = table.current if table is not None else None
        if entry is None:
            detail.update(Text("Highlight an entry to see its verdict; Enter opens it.", "dim"))
            return
        names = self.loaded.titles if self.loaded else {}
        mark, style = MARKS[entry.status]
        text = Text.assemble((f"{mark} ", style), (visible(entry.key), "bold"))
        if entry.key in names:
            text.append(f"  {visible(names[entry.key])}", "dim")
        text.append(" ↦ ")
        text.append("(missing)" if entry.status == "missing" else visible(path_text(entry.value)))
        if isinstance(entry.value, str) and entry.value in names:
            text.append(f"  {visible(names[entry.value])}", "dim")
        if entry.status == "missing":
            text.append("\nNo entry: every object and generator of the source needs an image.")
        for problem in entry.problems:
            text.append(f"\n{visible(problem)}")
        if entry.status == "ok":
            text.append("\nConsistent with the validation.", "dim")
        detail.update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if isinstance(event.data_table, MappingTable) and event.data_table is self.focused:
            self._explain(event.data_table)

    def on_descendant_focus(self) -> None:
        if isinstance(self.focused, MappingTable):
            self._explain(self.focused)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        table = event.data_table
        if not isinstance(table, MappingTable) or table.current is None:
            return
        kind = "morphism" if table.id == "morphism-mapping" else "object"
        self.catdoc.open(Ref(kind, table.current.key))
