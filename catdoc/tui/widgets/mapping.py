"""A functor's or transformation's mapping as a table: one row per entry, failing rows marked."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from catdoc import results as r
from catdoc.tui.widgets.document import path_text
from catdoc.visible import visible

MARKS = {
    "ok": ("✓", "green"),
    "warning": ("!", "yellow"),
    "error": ("✗", "bold red"),
    "missing": ("?", "bold red"),
}
"""Status → (mark, style). `missing` is an error too: the entry must exist."""


class MappingTable(DataTable[Text]):
    """Rows `mark · key · value`; `entries` keeps the MappingEntry behind each row."""

    def __init__(self, key_title: str, value_title: str, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.key_title = key_title
        self.value_title = value_title
        self.entries: list[r.MappingEntry] = []

    def on_mount(self) -> None:
        self.add_column(" ", key="mark")
        self.add_column(self.key_title, key="key")
        self.add_column(self.value_title, key="value")

    def show(self, entries: list[r.MappingEntry]) -> None:
        """Replace the rows, failing entries first so they are seen without scrolling."""
        order = {"error": 0, "missing": 0, "warning": 1, "ok": 2}
        self.entries = sorted(entries, key=lambda e: order[e.status])
        self.clear()
        for entry in self.entries:
            mark, style = MARKS[entry.status]
            value = "(missing)" if entry.status == "missing" else path_text(entry.value)
            self.add_row(
                Text(mark, style),
                Text(visible(entry.key), style if entry.status != "ok" else ""),
                Text(visible(value), "dim" if entry.value is None else ""),
                key=entry.key,
            )

    @property
    def current(self) -> r.MappingEntry | None:
        if not self.entries or not 0 <= self.cursor_row < len(self.entries):
            return None
        return self.entries[self.cursor_row]

    def focus_key(self, key: str) -> bool:
        """Put the cursor on the entry for `key`; False if there is none."""
        for index, entry in enumerate(self.entries):
            if entry.key == key:
                self.move_cursor(row=index)
                return True
        return False
