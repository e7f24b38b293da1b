"""Coverage: per functor, the share of its source objects mapped, of its target objects reached
and of its source morphisms mapped (`CatDoc.coverage`); for the highlighted functor, the
objects it leaves unmapped, the orphans it never reaches and the unmapped morphisms. Enter on
an id opens it in the browser.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from catdoc import results as r
from catdoc.errors import CatDocError
from catdoc.tui.refs import Ref
from catdoc.tui.screens.base import CatDocScreen
from catdoc.visible import visible

IDS_SHOWN = 300
"""Ids listed per kind (unmapped, orphans, unmapped morphisms); the heading gives the total."""
SHARES = (("objects", "mapped"), ("reached", "reached"), ("morphisms", "morphisms"))


def share_text(share: r.CoverageShare) -> Text:
    """`3/4 75.0%`, green when complete; `—` when there is nothing to cover."""
    if share.percent is None:
        return Text("—", "dim")
    style = "green" if share.covered == share.total else "yellow" if share.percent >= 50 else "red"
    return Text.assemble(
        (f"{share.covered}/{share.total} ", "dim"), (f"{share.percent:.1f}%", style)
    )


class CoverageScreen(CatDocScreen):
    """Every functor's coverage; Tab moves to the ids of the highlighted one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("f", "mapping", "Mapping", tooltip="Mapping of the highlighted functor"),
    ]

    def __init__(self, functor: str | None = None) -> None:
        super().__init__()
        self.functor = functor
        self.report: r.CoverageReport | None = None
        self.ids: list[Ref | None] = []
        """Per option of the id list: what Enter opens, or None for a heading."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="coverage-status", markup=False)
        with Vertical(id="coverage"):
            yield DataTable(id="coverage-table", cursor_type="row", zebra_stripes=True)
            yield OptionList(id="coverage-ids")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "coverage"
        table = self.query_one("#coverage-table", DataTable)
        table.border_title = "Functors"
        table.add_columns("functor", *(label for _, label in SHARES))
        self.query_one("#coverage-ids", OptionList).border_title = "Not covered"
        table.focus()
        self.load()

    def project_changed(self) -> None:
        self.load()

    def _status(self, text: Text) -> None:
        self.query_one("#coverage-status", Static).update(text)

    @work(exclusive=True, group="coverage")
    async def load(self) -> None:
        self._status(Text("Measuring the functors…", "dim"))
        try:
            report = await asyncio.to_thread(self.service.coverage)
        except CatDocError as error:
            self._status(Text(visible(str(error), lines=True), "red"))
            return
        self.show(report)

    def show(self, report: r.CoverageReport) -> None:
        table = self.query_one("#coverage-table", DataTable)
        keep = self.current.functor if self.current else self.functor
        self.report = report
        table.clear()
        for item in report.functors:
            name = Text.assemble(
                (visible(item.functor), "bold"),
                "\n",
                (visible(f"{item.source_category} → {item.target_category}"), "dim"),
            )
            table.add_row(name, *(share_text(getattr(item, key)) for key, _ in SHARES), height=2)
        count = len(report.functors)
        status = Text(f"{count} functor{'s' * (count != 1)}", "bold")
        status.append(" · mapped: sources with an image · reached: targets that are one", "dim")
        self._status(status if count else Text("The project has no functors.", "yellow"))
        rows = [f.functor for f in report.functors]
        if rows:
            table.move_cursor(row=rows.index(keep) if keep in rows else 0)
            self._show_ids(self.current)
        else:
            self._show_ids(None)

    @property
    def current(self) -> r.FunctorCoverage | None:
        """The highlighted functor's coverage."""
        if self.report is None or not self.report.functors:
            return None
        row = self.query_one("#coverage-table", DataTable).cursor_row
        return self.report.functors[min(max(row, 0), len(self.report.functors) - 1)]

    def _show_ids(self, item: r.FunctorCoverage | None) -> None:
        listing = self.query_one("#coverage-ids", OptionList)
        options: list[Option] = []
        self.ids = []
        if item is not None:
            for title, ids, kind in (
                (f"Unmapped {item.source_category} objects", item.unmapped_objects, "object"),
                (f"Orphans in {item.target_category}", item.orphans, "object"),
                ("Unmapped morphisms", item.unmapped_morphisms, "morphism"),
            ):
                more = f" (first {IDS_SHOWN})" if len(ids) > IDS_SHOWN else ""
                heading = Text.assemble((visible(title), "bold"), (f"  {len(ids):,}{more}", "dim"))
                options.append(Option(heading, disabled=True))
                self.ids.append(None)
                for ident in ids[:IDS_SHOWN]:
                    options.append(Option(Text(f"  {visible(ident)}")))
                    self.ids.append(Ref(kind, ident))
            listing.border_title = visible(f"Not covered by {item.functor}")
        listing.set_options(options)
        first = next((i for i, ref in enumerate(self.ids) if ref is not None), None)
        listing.highlighted = first

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_ids(self.current)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.query_one("#coverage-ids", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.ids) and (ref := self.ids[event.option_index]):
            self.catdoc.open(ref)

    def action_mapping(self) -> None:
        if self.current is not None:
            self.catdoc.open_mapping(Ref("functor", self.current.functor))
