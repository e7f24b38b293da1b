"""A functor's or transformation's mapping as a table: one row per entry, failing rows marked.

A mapping at 10,000 objects has ~10,000 rows: the rows are prepared off the UI thread
(`mapping_rows`) and added in batches (`MappingTable.extend`), so the first ones show at once.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from catdoc import results as r
from catdoc.tui.annotations import clip
from catdoc.tui.widgets.document import path_text
from catdoc.visible import visible

MARKS = {
    "ok": ("✓", "green"),
    "warning": ("!", "yellow"),
    "error": ("✗", "bold red"),
    "missing": ("?", "bold red"),
}
"""Status → (mark, style). `missing` is an error too: the entry must exist."""

ORDER = {"error": 0, "missing": 0, "warning": 1, "ok": 2}
"""Failing entries first, so they are seen without scrolling."""

CELL_WIDTH = 48
"""Characters of a cell (`id  title`) when the table's width is unknown; longer ones are cut
with an ellipsis."""
MIN_TITLE = 8
"""A title squeezed into fewer characters than this says nothing: it is left out."""

Row = tuple[Text, Text, Text]


def sort_entries(entries: list[r.MappingEntry]) -> list[r.MappingEntry]:
    return sorted(entries, key=lambda e: ORDER[e.status])


def _labelled(ident: str, title: str | None, style: str, width: int) -> Text:
    """`id  title` in `width` characters: the id first, the title in what is left."""
    text = Text(clip(visible(ident), width), style)
    room = width - len(text) - 2
    if title and room >= MIN_TITLE:
        text.append(f"  {clip(visible(title), room)}", "dim")
    return text


def _value_title(value: list[str] | str | None, titles: dict[str, str]) -> str | None:
    """The title of an image that is one entity (an object, or a path of one morphism)."""
    if isinstance(value, str):
        return titles.get(value)
    if isinstance(value, list) and len(value) == 1:
        return titles.get(value[0])
    return None


def mapping_row(entry: r.MappingEntry, titles: dict[str, str], width: int = CELL_WIDTH) -> Row:
    """`mark · key and title · value and title` for one entry, each cell in `width`."""
    mark, style = MARKS[entry.status]
    key_style = style if entry.status != "ok" else ""
    key = _labelled(entry.key, titles.get(entry.key), key_style, width)
    if entry.status == "missing":
        value = Text("(missing)", "dim")
    elif entry.value is None:
        value = Text(path_text(None), "dim")
    else:
        value = _labelled(path_text(entry.value), _value_title(entry.value, titles), "", width)
    return Text(mark, style), key, value


def entry_text(entry: r.MappingEntry, titles: dict[str, str]) -> str:
    """What the `/` filter looks in: the key, the value and their titles, case-folded."""
    value = path_text(entry.value)
    parts = [entry.key, titles.get(entry.key, ""), value, _value_title(entry.value, titles) or ""]
    return " ".join(parts).casefold()


class MappingTable(DataTable[Text]):
    """Rows `mark · key · value`; `entries` keeps the MappingEntry behind each row shown."""

    def __init__(self, key_title: str, value_title: str, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.key_title = key_title
        self.value_title = value_title
        self.entries: list[r.MappingEntry] = []

    def on_mount(self) -> None:
        self.add_column(" ", key="mark")
        self.add_column(self.key_title, key="key")
        self.add_column(self.value_title, key="value")

    def reset(self) -> None:
        """No rows (a new load or filter starts)."""
        self.entries = []
        self.clear()

    def extend(self, entries: list[r.MappingEntry], rows: list[Row]) -> None:
        """Add one batch of rows (prepared by `mapping_row`, one per entry)."""
        self.entries += entries
        self.add_rows(rows)

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
