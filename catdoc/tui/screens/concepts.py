"""Concepts of a category: its documents' key phrases and tags, and the documents of each.

The left list holds the category's concepts (with its subcategories'), the right one the
documents holding the highlighted concept; Enter on a document opens it in the browser. The
concepts come from the search index, which the first look may have to build: that runs on a
worker thread, with a status line saying so.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from catdoc import results as r
from catdoc.errors import CatDocError
from catdoc.tui.refs import Ref
from catdoc.tui.screens.base import CatDocScreen
from catdoc.visible import visible

CONCEPTS_SHOWN = 200
DOCUMENTS_SHOWN = 100
SORTS = ("weight", "documentCount", "name")
SORT_NAMES = {"weight": "weight", "documentCount": "documents", "name": "name"}


def concept_prompt(concept: r.ConceptSummary) -> Text:
    """The concept's label, then how many documents hold it and its summed weight."""
    return Text.assemble(
        (visible(concept.label), "bold"),
        (f"  {concept.document_count} doc{'s' if concept.document_count != 1 else ''}", "dim"),
        (f" · {concept.weight:.2f}", "dim"),
    )


def source_prompt(source: r.ConceptSource) -> Text:
    return Text.assemble(
        (visible(source.title), "bold"),
        (f"  {visible(source.id)}", "dim"),
        (f"\n{visible(source.category or '')}", "italic dim"),
    )


class ConceptsScreen(CatDocScreen):
    """Concepts of one category (or of the project); Tab moves to the documents."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("s", "cycle_sort", "Sort", tooltip="Sort by weight, documents or name"),
    ]

    def __init__(self, category: str | None = None) -> None:
        super().__init__()
        self.category = category
        self.sort = SORTS[0]
        self.concepts: list[r.ConceptSummary] = []
        self.sources: list[r.ConceptSource] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="concepts-status", markup=False)
        with Horizontal(id="concepts"):
            yield OptionList(id="concept-list")
            yield OptionList(id="concept-sources")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"concepts of {self.category}" if self.category else "concepts"
        self.query_one("#concept-list", OptionList).border_title = "Concepts"
        self.query_one("#concept-sources", OptionList).border_title = "Documents"
        self.query_one("#concept-list", OptionList).focus()
        self.load()

    def project_changed(self) -> None:
        self.load()

    def _status(self, text: Text) -> None:
        self.query_one("#concepts-status", Static).update(text)

    @work(exclusive=True, group="concepts")
    async def load(self) -> None:
        """The category's concepts, read off the UI thread (the index may need building)."""
        self._status(Text("Reading the concepts (the first look may index the documents)…", "dim"))
        try:
            page = await asyncio.to_thread(
                self.service.list_concepts,
                category=self.category,
                sort=self.sort,
                limit=CONCEPTS_SHOWN,
            )
        except CatDocError as error:
            self._status(Text(visible(str(error), lines=True), "red"))
            return
        self.concepts = page.items
        listing = self.query_one("#concept-list", OptionList)
        listing.set_options(Option(concept_prompt(c)) for c in self.concepts)
        shown = f" (the first {CONCEPTS_SHOWN})" if page.total > CONCEPTS_SHOWN else ""
        status = Text(
            f"{page.total:,} concepts of {self.category or 'the project'}, by "
            f"{SORT_NAMES[self.sort]}{shown}",
            "dim",
        )
        status.append("  s: sort · Tab: documents · Enter: open", "dim")
        if page.message:
            status.append(f"\n{visible(page.message)}", "italic dim")
        self._status(status)
        if self.concepts:
            listing.highlighted = 0
        else:
            self.query_one("#concept-sources", OptionList).clear_options()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "concept-list" and 0 <= event.option_index < len(self.concepts):
            self.show_sources(self.concepts[event.option_index].key)

    @work(exclusive=True, group="sources")
    async def show_sources(self, key: str) -> None:
        try:
            page = await asyncio.to_thread(
                self.service.source_concepts, [key], limit=DOCUMENTS_SHOWN
            )
        except CatDocError as error:
            self.notify(visible(error.message), severity="warning", markup=False)
            return
        self.sources = page.items
        listing = self.query_one("#concept-sources", OptionList)
        listing.set_options(Option(source_prompt(s)) for s in self.sources)
        if self.sources:
            listing.highlighted = 0
        listing.border_subtitle = f"{page.total:,}"

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "concept-list":
            self.query_one("#concept-sources", OptionList).focus()
        elif 0 <= event.option_index < len(self.sources):
            self.catdoc.open(Ref("object", self.sources[event.option_index].id))

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.load()
