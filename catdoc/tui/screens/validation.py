"""Validation: every finding with severity and code; Enter jumps to the entity it names."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Footer, Header, Static

from catdoc.errors import CatDocError
from catdoc.tui.editor import EditTarget, at_location, entity_target
from catdoc.tui.refs import Ref
from catdoc.tui.screens.base import CatDocScreen
from catdoc.visible import visible

SEVERITY = {
    "error": ("✗ error", "bold red"),
    "warning": ("! warning", "yellow"),
    "info": ("i info", "cyan"),
}


def _plural(count: int, word: str) -> str:
    if count == 1:
        return f"1 {word}"
    return f"{count} {'categories' if word == 'category' else word + 's'}"


def _subject(finding: Any) -> str:
    """The id a finding is mostly about: the first that is not its functor or transformation."""
    owners = {finding.functor, finding.natural_transformation}
    return next((i for i in finding.ids if i not in owners), finding.ids[0] if finding.ids else "")


class ValidationScreen(CatDocScreen):
    """The report of `catdoc validate`, as a table with the highlighted finding spelled out."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.findings: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="validation-summary", markup=False)
        yield DataTable(id="findings", cursor_type="row", zebra_stripes=True)
        yield Static(id="finding-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "validation"
        table = self.query_one("#findings", DataTable)
        table.add_column("severity", key="severity")
        table.add_column("code", key="code")
        table.add_column("about", key="entity", width=16)
        table.add_column("message", key="message")
        self.project_changed()
        table.focus()

    def project_changed(self) -> None:
        try:
            report = self.service.validate()
        except CatDocError as error:  # the files broke since the last look
            self.findings = []
            self.query_one("#findings", DataTable).clear()
            self.query_one("#validation-summary", Static).update(
                Text(visible(error.message, lines=True), "red")
            )
            self.catdoc.show_problem(error)
            return
        self.findings = [*report.errors, *report.warnings, *report.infos]
        s = report.summary
        summary = Text()
        summary.append(
            "valid" if report.is_valid else "invalid",
            "bold green" if report.is_valid else "bold red",
        )
        for count, word, style in (
            (s.total_errors, "error", "red"),
            (s.total_warnings, "warning", "yellow"),
            (s.total_infos, "info", "cyan"),
        ):
            summary.append(f" · {_plural(count, word)}", style if count else "dim")
        checked = ", ".join(
            _plural(count, word)
            for count, word in (
                (s.categories_checked, "category"),
                (s.functors_checked, "functor"),
                (s.natural_transformations_checked, "natural transformation"),
            )
        )
        summary.append(f"\nchecked {checked}", "dim")
        self.query_one("#validation-summary", Static).update(summary)
        table = self.query_one("#findings", DataTable)
        row = table.cursor_row
        table.clear()
        for index, finding in enumerate(self.findings):
            label, style = SEVERITY[finding.severity]
            table.add_row(
                Text(label, style),
                Text(visible(finding.code)),
                Text(visible(_subject(finding)), overflow="ellipsis", no_wrap=True),
                Text(visible(finding.message.splitlines()[0] if finding.message else "")),
                key=str(index),
            )
        if self.findings:
            table.move_cursor(row=min(max(row, 0), len(self.findings) - 1))
        self._explain(table.cursor_row)

    def _explain(self, index: int) -> None:
        detail = self.query_one("#finding-detail", Static)
        if not 0 <= index < len(self.findings):
            detail.update(Text("No findings: the model is consistent.", "green"))
            return
        finding = self.findings[index]
        label, style = SEVERITY[finding.severity]
        text = Text.assemble((label, style), "  ", (visible(finding.code), "bold"))
        if finding.location:
            text.append(f"  {visible(finding.location)}", "dim")
        text.append(f"\n{visible(finding.message, lines=True)}")
        context = [
            (name, value)
            for name, value in (
                ("category", finding.category),
                ("functor", finding.functor),
                ("natural transformation", finding.natural_transformation),
            )
            if value
        ]
        if finding.ids or context:
            text.append("\n")
            text.append("ids ", "dim")
            text.append(visible(", ".join(finding.ids)))
            for name, value in context:
                text.append(f"  {name} ", "dim")
                text.append(visible(value))
        detail.update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._explain(event.cursor_row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if not 0 <= event.cursor_row < len(self.findings):
            return
        ref = self.target(self.findings[event.cursor_row])
        if ref is None:
            self.notify("This finding names no entity to open.", severity="warning")
        else:
            self.catdoc.open(ref)

    def edit_target(self) -> EditTarget | None:
        """The YAML node the highlighted finding names, else the entry of its entity."""
        row = self.query_one("#findings", DataTable).cursor_row
        if not 0 <= row < len(self.findings):
            return None
        finding = self.findings[row]
        found = at_location(self.service.root, finding.location)
        ref = None if found else self.target(finding)
        return found or (entity_target(self.service, ref) if ref else None)

    def target(self, finding: Any) -> Ref | None:
        """Where a finding leads: into its functor or transformation view at the entry it is
        about, else to the first id that names an entity, else to its category."""
        if finding.functor or finding.natural_transformation:
            kind = "functor" if finding.functor else "naturalTransformation"
            owner = finding.functor or finding.natural_transformation
            if self.catdoc.exists(Ref(kind, owner)):
                entry = next((i for i in finding.ids if i != owner), None)
                return Ref(kind, owner, focus=entry)
        for ident in finding.ids:
            try:
                where = self.service.locate_entity(ident)
            except CatDocError:
                continue
            return Ref(where.kind, where.id)
        if finding.category and self.catdoc.exists(Ref("category", finding.category)):
            return Ref("category", finding.category)
        return None
