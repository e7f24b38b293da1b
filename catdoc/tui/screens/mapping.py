"""The functor view (object and morphism mapping side by side) and the transformation view
(its components); every failing entry is marked, and the highlighted one is explained."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, Header, Static

from catdoc import results as r
from catdoc.errors import CatDocError
from catdoc.tui.refs import Ref
from catdoc.tui.screens.base import CatDocScreen
from catdoc.tui.widgets.document import path_text
from catdoc.tui.widgets.mapping import MARKS, MappingTable
from catdoc.visible import visible

LAW_STYLES = {"holds": "green", "fails": "bold red", "unknown": "yellow"}


def _law(name: str, status: str) -> Text:
    return Text.assemble((f"{name} ", "dim"), (status, LAW_STYLES.get(status, "")))


def _counts(entries: list[r.MappingEntry]) -> str:
    bad = sum(e.status != "ok" for e in entries)
    return f"{len(entries)} · {bad} failing" if bad else f"{len(entries)} · ok"


class MappingScreen(CatDocScreen):
    """One functor or natural transformation; Enter opens the entry's source in the browser."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, ref: Ref) -> None:
        super().__init__()
        self.ref = ref

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="mapping-title", markup=False)
        with Horizontal(id="mapping-tables"):
            if self.ref.kind == "functor":
                yield MappingTable("A", "F(A)", id="object-mapping")
                yield MappingTable("f", "F(f)", id="morphism-mapping")
            else:
                yield MappingTable("A", "η_A: F(A) → G(A)", id="components")
        yield Static(id="mapping-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.project_changed()
        tables = list(self.query(MappingTable))
        chosen = next((t for t in tables if self.ref.focus and t.focus_key(self.ref.focus)), None)
        chosen = chosen or next((t for t in tables if t.current and t.current.status != "ok"), None)
        (chosen or tables[0]).focus()

    def project_changed(self) -> None:
        try:
            if self.ref.kind == "functor":
                self._show_functor(self.service.show_functor(self.ref.id))
            else:
                self._show_nat(self.service.show_natural_transformation(self.ref.id))
        except CatDocError as error:
            self.query_one("#mapping-title", Static).update(Text(visible(error.message), "red"))
            for table in self.query(MappingTable):
                table.show([])
        self._explain(self.focused if isinstance(self.focused, MappingTable) else None)

    def _show_functor(self, fun: r.FunctorDetail) -> None:
        self.sub_title = visible(f"functor {fun.id}")
        title = Text.assemble(
            (visible(fun.name), "bold"),
            (visible(f"  {fun.source_category} → {fun.target_category}") + "\n", "dim"),
            _law("identity preservation", fun.identity_preservation),
            "   ",
            _law("composition preservation", fun.composition_preservation),
        )
        self.query_one("#mapping-title", Static).update(title)
        objects = self.query_one("#object-mapping", MappingTable)
        morphisms = self.query_one("#morphism-mapping", MappingTable)
        objects.show(fun.object_mapping)
        morphisms.show(fun.morphism_mapping)
        objects.border_title = f"Objects {_counts(fun.object_mapping)}"
        morphisms.border_title = f"Morphisms {_counts(fun.morphism_mapping)}"

    def _show_nat(self, nat: r.NaturalTransformationDetail) -> None:
        self.sub_title = visible(f"natural transformation {nat.id}")
        title = Text.assemble(
            (visible(nat.name), "bold"),
            (visible(f"  {nat.source_functor} ⇒ {nat.target_functor}"), "dim"),
            (visible(f"  ({nat.source_category} → {nat.target_category})"), "dim"),
        )
        self.query_one("#mapping-title", Static).update(title)
        table = self.query_one("#components", MappingTable)
        table.show(nat.components)
        table.border_title = f"Components {_counts(nat.components)}"

    # ------------------------------------------------------------------ explaining
    def _explain(self, table: MappingTable | None) -> None:
        detail = self.query_one("#mapping-detail", Static)
        entry = table.current if table is not None else None
        if entry is None:
            detail.update(Text("Highlight an entry to see its verdict; Enter opens it.", "dim"))
            return
        mark, style = MARKS[entry.status]
        text = Text.assemble((f"{mark} ", style), (visible(entry.key), "bold"), " ↦ ")
        text.append("(missing)" if entry.status == "missing" else visible(path_text(entry.value)))
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
