"""Chain: the shown object's whole chain, up to its requirements and down to its tests.

One list, grouped by category in layer order (`CatDoc.chain`): entries above the object
(farthest first), the object itself, entries below it (nearest first), each with its distance
and ⚠ when the link that reaches it needs a review. Below the list, the highlighted entry's path
and the reason of its mark. Enter opens an entry in the browser.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from catdoc.chain_results import ChainEntry, ChainGroup, ChainResult
from catdoc.change_results import ImpactPath
from catdoc.errors import CatDocError
from catdoc.tui.refs import Ref
from catdoc.tui.screens.base import CatDocScreen
from catdoc.visible import visible

PER_GROUP = 200
"""Entries listed per category (the nearest); the status line says how many were left out."""
ARROWS = {"up": "↑", "down": "↓", "start": "●"}


def path_text(path: ImpactPath) -> Text:
    """`a ─depends-on→ b ─specify⇒ c`; a hop walked against its direction points back."""
    text = Text(visible(path.nodes[0]))
    for hop, node in zip(path.hops, path.nodes[1:], strict=True):
        name = hop.id if hop.kind == "functor" else hop.label
        head = "⇒" if hop.kind == "functor" else "→"
        arrow = (
            f" ─{name}{head} "
            if hop.direction == "along"
            else f" {'⇐' if hop.kind == 'functor' else '←'}{name}─ "
        )
        text.append(visible(arrow), "magenta" if hop.kind == "functor" else "cyan")
        text.append(visible(node))
    return text


def group_prompt(group: ChainGroup) -> Text:
    more = f", {group.truncated} more" if group.truncated else ""
    return Text.assemble((visible(group.name), "bold underline"), (f"  {group.count}{more}", "dim"))


def entry_prompt(entry: ChainEntry) -> Text:
    """`↑2 req-receipt  Receipt  ⚠ changed`: direction, distance, id, title, mark."""
    if entry.direction == "start":
        text = Text.assemble(("  ● ", "bold"), (visible(entry.id), "bold reverse"))
    else:
        arrow = f"  {ARROWS[entry.direction]}{entry.distance} "
        text = Text.assemble((arrow, "dim"), (visible(entry.id), "bold"))
    text.append(f"  {visible(entry.title)}", "dim")
    if entry.suspect is not None:
        text.append(f"  ⚠ {entry.suspect.status}", "bold yellow")
    return text


def entry_detail(entry: ChainEntry) -> Text:
    if entry.direction == "start":
        return Text("The object itself. Enter opens it.", "dim")
    text = Text.assemble(
        (f"{ARROWS[entry.direction]}{entry.distance} ", "dim"), path_text(entry.path)
    )
    if entry.suspect is not None:
        text.append(f"\n⚠ {visible(entry.suspect.key)}: {visible(entry.suspect.reason)}", "yellow")
        text.append("\n  `catdoc review` after reading it clears the mark.", "dim")
    return text


class ChainScreen(CatDocScreen):
    """The chain of one object; Enter opens the highlighted entry."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("s", "next_suspect", "Next ⚠", tooltip="Next entry reached through a suspect link"),
    ]

    def __init__(self, object_id: str) -> None:
        super().__init__()
        self.object_id = object_id
        self.result: ChainResult | None = None
        self.rows: list[ChainEntry | None] = []
        """Per option: its entry, or None for a category heading."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="chain-status", markup=False)
        yield OptionList(id="chain-entries")
        yield Static(id="chain-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = visible(f"chain of {self.object_id}")
        self.query_one("#chain-entries", OptionList).border_title = "Chain, by layer"
        self.query_one("#chain-entries", OptionList).focus()
        self.load()

    def project_changed(self) -> None:
        self.load()

    def _status(self, text: Text) -> None:
        self.query_one("#chain-status", Static).update(text)

    @work(exclusive=True, group="chain")
    async def load(self) -> None:
        """Both walks and the review state, off the UI thread (large projects take a moment)."""
        self._status(Text(visible(f"Following the links of {self.object_id}…"), "dim"))
        try:
            result = await asyncio.to_thread(
                self.service.chain, self.object_id, per_group=PER_GROUP
            )
        except CatDocError as error:
            self.result, self.rows = None, []
            self.query_one("#chain-entries", OptionList).clear_options()
            self.query_one("#chain-detail", Static).update("")
            self._status(Text(visible(str(error), lines=True), "red"))
            return
        self.show(result)

    def show(self, result: ChainResult) -> None:
        self.result = result
        status = Text.assemble(
            (visible(result.title), "bold"),
            (f"  ↑{result.up:,} above · ↓{result.down:,} below", "dim"),
        )
        if result.suspects:
            status.append(f" · ⚠ {result.suspects:,}", "bold yellow")
        status.append(f"\n{visible(result.message)}", "italic dim")
        self._status(status)
        options: list[Option] = []
        self.rows = []
        for group in result.groups:
            options.append(Option(group_prompt(group), disabled=True))
            self.rows.append(None)
            for entry in group.entries:
                options.append(Option(entry_prompt(entry)))
                self.rows.append(entry)
        listing = self.query_one("#chain-entries", OptionList)
        listing.set_options(options)
        start = next(i for i, e in enumerate(self.rows) if e and e.direction == "start")
        listing.highlighted = start
        self._explain(start)

    def _explain(self, index: int | None) -> None:
        entry = self.rows[index] if index is not None and 0 <= index < len(self.rows) else None
        detail = self.query_one("#chain-detail", Static)
        detail.update(entry_detail(entry) if entry else Text(""))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._explain(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        entry = self.rows[event.option_index] if event.option_index < len(self.rows) else None
        if entry is not None:
            self.catdoc.open(Ref("object", entry.id))

    def action_next_suspect(self) -> None:
        listing = self.query_one("#chain-entries", OptionList)
        here = listing.highlighted if listing.highlighted is not None else -1
        count = len(self.rows)
        for step in range(1, count + 1):
            index = (here + step) % count
            entry = self.rows[index]
            if entry is not None and entry.suspect is not None:
                listing.highlighted = index
                return
        self.notify("No entry of this chain is reached through a suspect link.", timeout=3)
