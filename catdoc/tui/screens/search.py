"""Search: a query box with live results (documents or passages); Enter opens the hit.

A query runs on a worker thread; when it first has to index documents or compute vectors, a
progress bar and a status line ("Indexing documents 1,234/5,000") show how far that is; the
vectors computed in the background (which no query waits for) have a line of their own. A
passage opens scrolled to its lines, marked; Escape in the browser comes back to the hits as
they were (the query, the scope and the highlighted hit are kept on the app in a `SearchView`).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.timer import Timer
from textual.widgets import Footer, Header, Input, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from catdoc import results as r
from catdoc.errors import CatDocError
from catdoc.search.index import MARK_CLOSE, MARK_OPEN
from catdoc.search.semantic import SWITCHED_OFF_NOTE, UNAVAILABLE_NOTE
from catdoc.tui.annotations import clip_words
from catdoc.tui.refs import Ref
from catdoc.tui.screens.base import CatDocScreen
from catdoc.visible import visible

DEBOUNCE = 0.25
"""Seconds of no typing before the query runs."""
LIMIT = 50
SCOPES = {"documents": "documents", "chunks": "passages"}
SNIPPET_CHARS = 160
ONCE_NOTES = frozenset({SWITCHED_OFF_NOTE, UNAVAILABLE_NOTE})
"""Notes said with the first answer of a session only (they hold for every query after)."""


@dataclass
class SearchView:
    """The search as it was left: the query, the scope and the highlighted hit."""

    query: str = ""
    scope: str = "documents"
    highlighted: int = 0


def hit_prompt(hit: r.SearchHit, scope: str) -> Text:
    """Title, where it is, and the snippet, on up to three lines."""
    text = Text.assemble((visible(hit.title), "bold"), (f"  {visible(hit.id)}", "dim"))
    where = [hit.category or "", hit.path or ""]
    if scope == "chunks":
        if hit.heading_path:
            where.append(" › ".join(hit.heading_path))
        if hit.start_line is not None:
            where.append(f"lines {hit.start_line}–{hit.end_line or hit.start_line}")
    text.append("\n" + visible("  ".join(w for w in where if w)), "italic dim")
    if hit.snippet:
        text.append("\n")
        text.append_text(marked(clip_words(" ".join(hit.snippet.split()), SNIPPET_CHARS)))
    return text


def marked(snippet: str) -> Text:
    """The snippet with the search's marked terms highlighted instead of bracketed."""
    text = Text()
    for index, part in enumerate(snippet.replace(MARK_CLOSE, MARK_OPEN).split(MARK_OPEN)):
        text.append(visible(part), "bold reverse" if index % 2 else "")
    return text


class SearchScreen(CatDocScreen):
    """Type to search; ↓ moves into the results; Enter opens the highlighted (or first) hit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding(
            "ctrl+t",
            "toggle_scope",
            "Documents/passages",
            tooltip="Search whole documents or passages",
        ),
        Binding("down", "focus_results", "Results", show=False, tooltip="Into the results"),
    ]

    def __init__(self, view: SearchView | None = None) -> None:
        super().__init__()
        self.view = view or SearchView()
        self.query_text = self.view.query
        self.scope = self.view.scope
        self.hits: list[r.SearchHit] = []
        self._timer: Timer | None = None
        self._typed = False
        self._open_when_done = False

    def compose(self) -> ComposeResult:
        yield Header()
        placeholder = f"Search {SCOPES[self.scope]}…"
        yield Input(self.query_text, placeholder=placeholder, id="search-input")
        yield Static(id="search-status", markup=False)
        bar = ProgressBar(id="search-progress", show_eta=False)
        bar.display = False
        yield bar
        yield Static(id="search-background", markup=False)
        yield OptionList(id="search-results")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "search"
        self._status(Text("Type to search; Ctrl+T switches documents/passages.", "dim"))
        self.query_one("#search-input", Input).focus()
        self.background_changed()
        if self.query_text:
            self.run_search()

    def background_changed(self) -> None:
        """One line per step of background work under way (none: no line)."""
        line = self.query_one("#search-background", Static)
        steps = self.catdoc.background.running()[1]
        line.display = bool(steps)
        line.update(
            Text(
                "\n".join(
                    f"{s.step} {s.done:,}/{s.total:,}" if s.total else f"{s.step}…" for s in steps
                ),
                "dim",
            )
        )

    def _status(self, text: Text) -> None:
        self.query_one("#search-status", Static).update(text)

    def _show_progress(self, step: str, done: int, total: int | None) -> None:
        """A step of the indexing (or embedding) the query waits for, on the UI thread."""
        if not self.is_attached:
            return
        bar = self.query_one("#search-progress", ProgressBar)
        bar.display = True
        bar.update(total=total, progress=done)
        self._status(Text(f"{step} {done:,}/{total:,}" if total else f"{step}…", "dim"))

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.value == self.query_text:
            return  # the kept query put back on mount
        self.query_text = self.view.query = event.value
        self.view.highlighted = 0
        self._typed = True
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self.run_search)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._typed:
            if self._timer is not None:
                self._timer.stop()
            self._open_when_done = True
            self.run_search()
        else:
            self._open(self.query_one("#search-results", OptionList).highlighted or 0)

    def project_changed(self) -> None:
        if self.query_text.strip():
            self.run_search()

    @work(exclusive=True, group="search")
    async def run_search(self) -> None:
        """Ask the service off the UI thread; a newer query cancels this one."""
        query, scope = self.query_text, self.scope
        self._typed = False
        results = self.query_one("#search-results", OptionList)
        if not query.strip():
            self.hits = []
            results.clear_options()
            self._status(Text("Type to search; Ctrl+T switches documents/passages.", "dim"))
            return
        loop = asyncio.get_running_loop()

        def progress(step: str, done: int, total: int | None) -> None:
            with contextlib.suppress(RuntimeError):  # the app closed meanwhile
                loop.call_soon_threadsafe(self._show_progress, step, done, total)

        if not self.hits:  # the wait until the first progress report (loading the model)
            self._status(Text("Searching…", "dim"))
        try:
            mode = self.service.project().config.search.mode  # the project's chosen default
            response = await asyncio.to_thread(
                self.service.search, query, mode=mode, scope=scope, limit=LIMIT, progress=progress
            )
        except CatDocError as error:
            if self.is_attached:
                self.hits = []
                results.clear_options()
                self._status(Text(visible(str(error), lines=True), "red"))
            return
        finally:
            if self.is_attached:  # the screen may have been left while the thread ran
                self.query_one("#search-progress", ProgressBar).display = False
        if not self.is_attached:
            return
        self.hits = response.results
        results.set_options(Option(hit_prompt(hit, scope)) for hit in self.hits)
        if self.hits:
            results.highlighted = min(self.view.highlighted, len(self.hits) - 1)
        noun = SCOPES[scope] if response.total != 1 else SCOPES[scope].removesuffix("s")
        status = Text(f"{response.total} {noun} for ", "dim")
        status.append(repr(visible(response.query)), "bold")
        status.append(f"  ({response.mode} · Ctrl+T: {SCOPES[self._other_scope()]})", "dim")
        seen = self.catdoc.notes_seen
        for note in response.notes:
            if note not in seen:
                status.append(f"\n{visible(note)}", "italic dim")
            if note in ONCE_NOTES:
                seen.add(note)
        self._status(status)
        if self._open_when_done:
            self._open_when_done = False
            self._open(0)

    def _other_scope(self) -> str:
        return "chunks" if self.scope == "documents" else "documents"

    def _open(self, index: int) -> None:
        """Open the hit; a passage opens scrolled to its lines, marked."""
        if not 0 <= index < len(self.hits):
            return
        hit = self.hits[index]
        self.view.highlighted = index
        try:
            where = self.service.locate_entity(hit.id)
        except CatDocError as error:
            self.notify(visible(error.message), severity="warning", markup=False)
            return
        app = self.catdoc
        if app.open(Ref(where.kind, where.id), back="search") and hit.start_line is not None:
            app.browser.document.show_lines(hit.start_line, hit.end_line or hit.start_line)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.view.highlighted = event.option_index

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._open(event.option_index)

    def action_toggle_scope(self) -> None:
        self.scope = self.view.scope = self._other_scope()
        self.view.highlighted = 0
        self.query_one("#search-input", Input).placeholder = f"Search {SCOPES[self.scope]}…"
        self.run_search()

    def action_focus_results(self) -> None:
        results = self.query_one("#search-results", OptionList)
        if self.focused is not results and self.hits:
            results.focus()
