"""Validation: every finding with severity and code; Enter jumps to the entity it names.

A place to work from: the list can be narrowed by severity (1, 2, 3) and by text (/) that a code
or an id of the finding contains (what a user types: `FUN_` or `req-cart`), and what it showed
(filters and the highlighted finding) is kept on the app in a `FindingsView`, so going to a
finding and back (Escape in the browser, or v) finds the list as it was left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Header, Input, Static

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


SEVERITY_KEYS = {"1": "error", "2": "warning", "3": "info"}
LISTED = 1_000
"""Rows the table holds at most: thousands of rows take seconds to lay out, and past a
thousand the filters are the way through (the counts say how many there are)."""
TYPING_PAUSE = 0.2
"""Seconds of no typing in the text filter before the table is filled again."""
BY = Binding.Group("Severity", compact=True)
"""The footer shows the severity keys as one entry."""
ABOUT_WIDTH = 16
MESSAGE_MIN = 20
"""Columns the message keeps however narrow the table (the table scrolls sideways then)."""


@dataclass
class FindingsView:
    """What the findings list shows: the severities let through, the text filter (`code`, as
    it began), and the highlighted finding (by what it says, so a reload that moves it keeps it
    highlighted)."""

    severities: set[str] = field(default_factory=lambda: set(SEVERITY))
    code: str = ""
    row: int = 0
    finding: tuple[str, str, str | None, str] | None = None

    def lets_through(self, finding: Any) -> bool:
        return finding.severity in self.severities and self.text_matches(finding)

    def text_matches(self, finding: Any) -> bool:
        """Whether the finding's code, or an id it names (entities, their category, functor or
        transformation), contains the filter text (any case)."""
        needle = self.code.strip().casefold()
        if not needle:
            return True
        names = (finding.code, *finding.ids, finding.category, finding.functor)
        return any(
            needle in name.casefold() for name in (*names, finding.natural_transformation) if name
        )


def finding_key(finding: Any) -> tuple[str, str, str | None, str]:
    return (finding.severity, finding.code, finding.location, finding.message)


def _plural(count: int, word: str) -> str:
    if count == 1:
        return f"1 {word}"
    return f"{count} {'categories' if word == 'category' else word + 's'}"


def _cut(text: str, width: int) -> Text:
    """`text` on one line of at most `width` cells, the cut marked with an ellipsis."""
    line = Text(text, no_wrap=True, overflow="ellipsis")
    line.truncate(width, overflow="ellipsis")
    return line


def _subject(finding: Any) -> str:
    """The id a finding is mostly about: the first that is not its functor or transformation."""
    owners = {finding.functor, finding.natural_transformation}
    return next((i for i in finding.ids if i not in owners), finding.ids[0] if finding.ids else "")


class ValidationScreen(CatDocScreen):
    """The report of `catdoc validate`, as a table with the highlighted finding spelled out."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", tooltip="Back (from the filter: to the list)"),
        Binding(
            "enter",
            "go",
            "Go to",
            key_display="↵",  # narrower than "Enter": every key of the screen fits in 80 columns
            priority=True,  # before the table's own (hidden) Enter, so the footer names it
            tooltip="Go to the entity the finding names (Escape there comes back)",
        ),
        Binding("1", "severity('error')", "Errors", tooltip="Show or hide the errors", group=BY),
        Binding(
            "2", "severity('warning')", "Warnings", tooltip="Show or hide the warnings", group=BY
        ),
        Binding("3", "severity('info')", "Infos", tooltip="Show or hide the infos", group=BY),
        Binding(
            "slash",
            "filter_code",
            "Find",
            tooltip="Filter by code or entity id (part of it, any case)",
        ),
        Binding("0", "show_all", "All", tooltip="Every finding again (no filter)"),
    ]

    def __init__(self, view: FindingsView | None = None) -> None:
        super().__init__()
        self.view = view or FindingsView()
        self.all_findings: list[Any] = []
        self.findings: list[Any] = []
        """The findings listed, in table order."""
        self._typing: Timer | None = None
        self._message_cut = 0
        """The width the messages listed are cut at."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="validation-summary", markup=False)
        yield Input(
            self.view.code, placeholder="code or id contains…", id="findings-filter", compact=True
        )
        yield Static(id="findings-counts", markup=False)
        yield DataTable(id="findings", cursor_type="row", zebra_stripes=True)
        yield Static(id="finding-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "validation"
        table = self.query_one("#findings", DataTable)
        table.add_column("", key="severity")  # the mark alone: the detail below spells it out
        table.add_column("code", key="code")
        table.add_column("about", key="entity", width=ABOUT_WIDTH)
        table.add_column("message", key="message")
        self.query_one("#findings-filter", Input).display = bool(self.view.code)
        self.project_changed()
        table.focus()
        self.call_after_refresh(self._refit)  # the table has its size now

    def project_changed(self) -> None:
        try:
            report = self.service.validate()
        except CatDocError as error:  # the files broke since the last look
            self.all_findings = self.findings = []
            self.query_one("#findings", DataTable).clear()
            self.refresh_bindings()
            self.query_one("#validation-summary", Static).update(
                Text(visible(error.message, lines=True), "red")
            )
            self.catdoc.show_problem(error)
            return
        self.all_findings = [*report.errors, *report.warnings, *report.infos]
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
        self._fill()

    def _fill(self) -> None:
        """The table of the findings the view lets through, the highlighted one kept."""
        view = self.view
        if self._typing is not None:
            self._typing.stop()
            self._typing = None
        self.findings = [f for f in self.all_findings if view.lets_through(f)][:LISTED]
        self._count()
        table = self.query_one("#findings", DataTable)
        table.clear()
        self._message_cut = width = self._message_width()
        table.add_rows(
            (
                Text(SEVERITY[finding.severity][0].split()[0], SEVERITY[finding.severity][1]),
                Text(visible(finding.code)),
                Text(visible(_subject(finding)), overflow="ellipsis", no_wrap=True),
                _cut(visible(finding.message.splitlines()[0] if finding.message else ""), width),
            )
            for finding in self.findings
        )
        keys = [finding_key(f) for f in self.findings]
        row = keys.index(view.finding) if view.finding in keys else view.row
        if self.findings:
            table.move_cursor(row=min(max(row, 0), len(self.findings) - 1), scroll=False)
            self.call_after_refresh(self._scroll_to_cursor)
        self._explain(table.cursor_row)
        self.refresh_bindings()

    def _message_width(self) -> int:
        """What the other columns leave of the table's width for the message."""
        table = self.query_one("#findings", DataTable)
        code = max((cell_len(visible(f.code)) for f in self.findings), default=0)
        others = 1 + max(code, len("code")) + ABOUT_WIDTH + 2 * table.cell_padding * 4
        room = table.content_region.width - table.styles.scrollbar_size_vertical - others
        return max(room, MESSAGE_MIN)

    def _refit(self) -> None:
        """The table filled again when its width changed what the messages are cut at."""
        if self._message_width() != self._message_cut:
            self._fill()

    def on_resize(self) -> None:
        self.call_after_refresh(self._refit)

    def _scroll_to_cursor(self) -> None:
        """The highlighted row in the middle of the table, once the table has its size."""
        table = self.query_one("#findings", DataTable)
        table.scroll_to(
            y=max(table.cursor_row - table.scrollable_content_region.height // 2, 0),
            animate=False,
            immediate=True,
        )

    def _count(self) -> None:
        """How many findings are shown, and per severity how many the text filter lets through
        (dim: hidden by its key)."""
        view = self.view
        matching = [f for f in self.all_findings if view.text_matches(f)]
        shown = sum(1 for f in matching if f.severity in view.severities)
        text = Text(f"{shown:,} of {len(self.all_findings):,} shown ", "bold")
        if shown > LISTED:
            text.append(f"(the first {LISTED:,} listed) ", "yellow")
        for key, severity in SEVERITY_KEYS.items():
            count = sum(1 for f in matching if f.severity == severity)
            on = severity in view.severities
            text.append(f"  {key} ", "bold cyan" if on else "dim")
            text.append(f"{severity}s {count:,}", SEVERITY[severity][1] if on else "dim strike")
        if view.code.strip():
            text.append("   code or id ∋ ", "dim")
            text.append(repr(visible(view.code.strip())), "bold")
        self.query_one("#findings-counts", Static).update(text)

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
        row = event.cursor_row
        if 0 <= row < len(self.findings):
            self.view.row, self.view.finding = row, finding_key(self.findings[row])
        self._explain(row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._go(event.cursor_row)

    def action_go(self) -> None:
        """Enter: from the text filter into the list; in the list, to the finding's entity."""
        table = self.query_one("#findings", DataTable)
        if self.query_one("#findings-filter", Input).has_focus:
            if self._typing is not None:
                self._fill()
            table.focus()
        else:
            self._go(table.cursor_row)

    def _go(self, row: int) -> None:
        if not 0 <= row < len(self.findings):
            return
        ref = self.target(self.findings[row])
        if ref is None:
            self.notify("This finding names no entity to open.", severity="warning")
        else:
            self.catdoc.open(ref, back="validate")

    # ------------------------------------------------------------------ filters
    def action_severity(self, severity: str) -> None:
        """Show or hide one severity."""
        self.view.severities ^= {severity}
        self._fill()

    def action_show_all(self) -> None:
        self.view.severities = set(SEVERITY)
        self.view.code = ""
        field = self.query_one("#findings-filter", Input)
        with field.prevent(Input.Changed):
            field.value = ""
        field.display = False
        self._fill()
        self.query_one("#findings", DataTable).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`/` leaves the footer while the filter field has focus (it types there); Enter while
        the list shows no finding to go to; the filters when there is no finding at all."""
        if action == "go":
            return bool(self.findings) or isinstance(self.focused, Input)
        if action in ("severity", "filter_code", "show_all") and not self.all_findings:
            return False
        return not (action == "filter_code" and isinstance(self.focused, Input))

    def action_filter_code(self) -> None:
        field = self.query_one("#findings-filter", Input)
        field.display = True
        field.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        """Fill the table again once typing pauses (or at Enter)."""
        event.stop()
        self.view.code = event.value
        if self._typing is not None:
            self._typing.stop()
        self._typing = self.set_timer(TYPING_PAUSE, self._fill)

    def action_back(self) -> None:
        """From the text filter back to the list (the filter stays); from the list, away."""
        field = self.query_one("#findings-filter", Input)
        if field.has_focus:
            field.display = bool(self.view.code.strip())
            self.query_one("#findings", DataTable).focus()
        else:
            self.app.pop_screen()

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
