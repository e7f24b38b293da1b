"""The Textual app: holds the service, watches the project's files and the work the service
does in the background, and routes jumps between screens. Every number, verdict and path it
shows comes from `catdoc.service.CatDoc`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from functools import partial
from typing import ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.screen import Screen
from textual.widgets import Input

from catdoc.errors import CatDocError
from catdoc.progress import BackgroundWork
from catdoc.project import Project
from catdoc.service import CatDoc
from catdoc.tui.editor import edit_selection
from catdoc.tui.jump import JumpProvider, SystemCommands, open_jump
from catdoc.tui.refs import Ref
from catdoc.tui.screens.base import CatDocScreen
from catdoc.tui.screens.browser import BrowserScreen
from catdoc.tui.screens.chain import ChainScreen
from catdoc.tui.screens.concepts import ConceptsScreen
from catdoc.tui.screens.coverage import CoverageScreen
from catdoc.tui.screens.help import HelpScreen
from catdoc.tui.screens.mapping import MappingScreen
from catdoc.tui.screens.problem import ProblemScreen
from catdoc.tui.screens.search import SearchScreen, SearchView
from catdoc.tui.screens.trace import TraceScreen, TraceView
from catdoc.tui.screens.validation import FindingsView, ValidationScreen
from catdoc.visible import visible

WATCH_INTERVAL = 1.0
"""Seconds between the cheap stat checks that notice edited files."""
PROJECT_ACTIONS = frozenset(
    {"search", "validate", "trace", "jump", "chain", "coverage", "concepts"}
)
"""App actions that open a view of the project (or jump into it): nothing to do while it
cannot be loaded."""


class CatDocApp(App[None]):
    """`catdoc tui`: browse a project; reads only, never writes."""

    TITLE = "CatDoc"
    CSS_PATH = "catdoc.tcss"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {
        SystemCommands,
        JumpProvider,
    }
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-narrow"),
        (100, "-wide"),
    ]
    """Every screen gets `-narrow` below 100 columns, `-wide` from there (for catdoc.tcss)."""
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-short"), (30, "-tall")]
    """Every screen gets `-short` below 30 lines, `-tall` from there."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "search", "Find", tooltip="Search documents and passages"),
        Binding("v", "validate", "Validate", tooltip="All findings; Enter goes to one"),
        Binding("t", "trace", "Trace", tooltip="Paths between two objects"),
        Binding("j", "jump", "Jump", tooltip="Jump to any object by id or title"),
        Binding(
            "i",
            "chain",
            "Chain",
            show=False,
            tooltip="The shown object's chain, up and down, with ⚠",
        ),
        Binding("g", "coverage", "Coverage", show=False, tooltip="Coverage of every functor"),
        Binding(
            "c", "concepts", "Concepts", show=False, tooltip="Concepts of the selection's category"
        ),
        Binding("e", "edit", "Edit", tooltip="Open the selection in $EDITOR at its file and line"),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="This help"),
        Binding("f1", "help", "Help", show=False, tooltip="This help"),
        Binding("ctrl+r", "reload", "Reload", show=False, tooltip="Read the files again now"),
        Binding("q", "quit", "Quit"),
        Binding(
            "escape",
            "return",
            "List",
            tooltip="In the browser after a jump from findings or hits: back to that list",
        ),
    ]

    def __init__(self, service: CatDoc, *, watch_interval: float | None = WATCH_INTERVAL) -> None:
        super().__init__()
        self.service = service
        self.watch_interval = watch_interval
        self.browser = BrowserScreen()
        self._project: Project | None = None
        self.findings_view = FindingsView()
        """The findings list as it was left: filters and the highlighted finding."""
        self.search_view = SearchView()
        """The search as it was left: the query, the scope and the highlighted hit."""
        self.trace_view = TraceView()
        """The trace as it was left: both ids, the paths found, the highlighted path and step."""
        self.notes_seen: set[str] = set()
        """Notices said once a session (the search's "vectors are off")."""
        self.background = BackgroundWork()
        """The steps of background work under way (vectors for search)."""
        self._stop_watching: Callable[[], None] | None = None
        self._return: str | None = None
        """The list (an action: "validate", "search") the shown entity was opened from."""

    def get_default_screen(self) -> Screen[None]:
        return self.browser

    def on_mount(self) -> None:
        self.theme = "textual-dark"
        if self.watch_interval:
            self.set_interval(self.watch_interval, self.sync_project)
        loop = asyncio.get_running_loop()

        def hear(step: str, done: int, total: int | None) -> None:
            """From a worker's thread: on to the UI thread, without waiting for it."""
            with contextlib.suppress(RuntimeError):  # the app closed meanwhile
                loop.call_soon_threadsafe(self.background_moved, step, done, total)

        self._stop_watching = self.service.watch_vectors(hear)

    def on_unmount(self) -> None:
        if self._stop_watching is not None:
            self._stop_watching()

    def background_moved(self, step: str, done: int, total: int | None) -> None:
        """A step of background work moved: every screen that shows it redraws it, and a
        finished one is announced (search ranks with the vectors from then on)."""
        if self.background.report(step, done, total):
            self.notify(f"Done: {step[0].lower()}{step[1:]} ({done:,}).", timeout=4)
        for screen in self.screen_stack:
            if isinstance(screen, CatDocScreen):
                screen.background_changed()

    # ------------------------------------------------------------------ watching
    def sync_project(self) -> None:
        """Reload when the project's files changed and refresh every screen; while the project
        cannot be loaded, show why (and keep watching for the fix)."""
        if not self.screen_stack:
            return  # the app is closing: the watch timer fired after its screens went
        try:
            project = self.service.project()
        except CatDocError as error:
            self.show_problem(error)
            return
        if isinstance(self.screen, ProblemScreen):
            self.pop_screen()
            self.refresh_bindings()
        if project is self._project:
            self.browser.check_document()
            return
        self._project = project
        self.sub_title = visible(project.config.name or project.root.name)
        for screen in self.screen_stack:
            if isinstance(screen, CatDocScreen):
                try:
                    screen.project_changed()
                except CatDocError as error:  # the files broke again while they were read
                    self.show_problem(error)
                    return

    def show_problem(self, error: CatDocError) -> None:
        """The project cannot be loaded (broken, or gone): say why, over everything, until the
        files load again. Any screen that meets such an error hands it here."""
        self._project = None
        if isinstance(self.screen, ProblemScreen):
            self.screen.show(error)
        else:
            self.push_screen(ProblemScreen(error))
        self.refresh_bindings()

    # ------------------------------------------------------------------ navigation
    def exists(self, ref: Ref) -> bool:
        """Whether the current project has `ref` (a jump may point at something gone)."""
        lookup = {
            "category": self.service.category,
            "object": self.service.object,
            "morphism": self.service.morphism,
            "functor": self.service.functor,
            "naturalTransformation": self.service.natural_transformation,
        }[ref.kind]
        try:
            lookup(ref.id)
        except CatDocError:
            return False
        return True

    def open(self, ref: Ref, *, back: str | None = None) -> bool:
        """Go to `ref` in the browser; functors and transformations also open their mapping.
        `back` names the list it was picked from (Escape in the browser returns there). False
        when `ref` is gone."""
        if not self.exists(ref):
            missing = f"'{visible(ref.id)}' is not in the project."
            self.notify(missing, severity="warning", markup=False)
            return False
        self._back_to_browser()
        self._return = back
        self.refresh_bindings()
        self.browser.show(ref)
        if ref.kind in ("functor", "naturalTransformation"):
            self.open_mapping(ref)
        return True

    def open_mapping(self, ref: Ref) -> None:
        self.push_screen(MappingScreen(ref))

    def _back_to_browser(self) -> None:
        while len(self.screen_stack) > 1 and self.screen is not self.browser:
            self.pop_screen()

    def _over_browser(self, screen: CatDocScreen) -> None:
        """One view at a time over the browser, and none while the project cannot load (checked
        now: the files may have broken since the last look)."""
        self.sync_project()
        if self._project is None:
            return
        self._back_to_browser()
        self._return = None
        self.push_screen(screen)

    def action_search(self) -> None:
        self._over_browser(SearchScreen(self.search_view))

    def action_validate(self) -> None:
        self._over_browser(ValidationScreen(self.findings_view))

    def action_return(self) -> None:
        """Back to the list the shown entity was picked from, as it was left."""
        if self._return == "validate":
            self.action_validate()
        elif self._return == "search":
            self.action_search()
        elif self._return == "trace":
            self.action_trace()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide (and disable) the app's keys that do nothing on the screen shown: the views
        while the project cannot load, the view already shown, `e` where nothing can be
        edited (an empty findings list among them), `/` and `j` while a field takes them as
        text, and Escape unless the browser was reached from a list. Under a modal (the help),
        the screen below it counts."""
        screen = next(s for s in reversed(self.screen_stack) if not s.is_modal)
        if action == "return":
            return self._return is not None and screen is self.browser
        if action in PROJECT_ACTIONS and isinstance(screen, ProblemScreen):
            return False
        if action in ("search", "jump") and isinstance(self.focused, Input):
            return False  # a field takes `/` and `j` as text (its own key, not the app's)
        if action == "edit":
            if isinstance(screen, ValidationScreen) and not screen.findings:
                return False
            edits = getattr(type(screen), "edit_target", CatDocScreen.edit_target)
            return edits is not CatDocScreen.edit_target
        shown = {"search": SearchScreen, "validate": ValidationScreen, "trace": TraceScreen}
        return not (action in shown and isinstance(screen, shown[action]))

    def action_trace(self) -> None:
        """The trace as it was left; a new one from the object shown instead, when that is not
        the trace's *From* and was not reached from the trace."""
        current, view = self.browser.current, self.trace_view
        shown = current.id if current is not None and current.kind == "object" else None
        if self._return != "trace" and shown is not None and shown != view.source:
            view = self.trace_view = TraceView(source=shown)
        self._over_browser(TraceScreen(view))

    def action_chain(self) -> None:
        current = self.browser.current
        if current is None or current.kind != "object":
            self.notify("Show an object first: its chain is what `i` lists.", severity="warning")
            return
        self._over_browser(ChainScreen(current.id))

    def action_coverage(self) -> None:
        """Every functor's coverage, at the functor shown (in its mapping or the browser)."""
        shown = self.screen.ref if isinstance(self.screen, MappingScreen) else self.browser.current
        functor = shown.id if shown is not None and shown.kind == "functor" else None
        self._over_browser(CoverageScreen(functor))

    def action_concepts(self) -> None:
        self._over_browser(ConceptsScreen(self._selected_category()))

    def _selected_category(self) -> str | None:
        """The category shown, or the shown object's or morphism's (None: the whole project)."""
        current = self.browser.current
        if current is None:
            return None
        try:
            if current.kind == "category":
                return self.service.category(current.id).id
            if current.kind in ("object", "morphism"):
                return self.service.locate_entity(current.id).category
        except CatDocError:
            return None
        return None

    def action_edit(self) -> None:
        edit_selection(self)

    def action_jump(self) -> None:
        open_jump(self)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_back(self) -> None:
        self._back_to_browser()
        self.browser.action_back()

    def action_reload(self) -> None:
        self._project = None
        self.sync_project()
        self.notify("Reloaded.", timeout=2)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """A palette entry for every action, and one per functor and transformation."""
        yield from super().get_system_commands(screen)
        yield SystemCommand("Search", "Search documents and passages (/)", self.action_search)
        yield SystemCommand(
            "Validate", "All findings, with severity and code (v)", self.action_validate
        )
        yield SystemCommand(
            "Trace", "Paths between two objects, shortest first (t)", self.action_trace
        )
        yield SystemCommand(
            "Concepts", "Key phrases and tags of a category's documents (c)", self.action_concepts
        )
        yield SystemCommand(
            "Chain",
            "The shown object's chain, up and down, suspect links marked (i)",
            self.action_chain,
        )
        yield SystemCommand(
            "Coverage",
            "Per functor: objects mapped and reached, orphans (g)",
            self.action_coverage,
        )
        yield SystemCommand("Help", "Screens and key bindings (?)", self.action_help)
        yield SystemCommand("Reload", "Read the project's files again (Ctrl+R)", self.action_reload)
        yield SystemCommand("Back", "The previously shown entity (b)", self.action_back)
        try:
            functors = self.service.list_functors()
            nats = self.service.list_natural_transformations()
        except CatDocError:
            return
        for fun in functors:
            ref = Ref("functor", fun.id)
            help_text = f"{fun.source_category} → {fun.target_category}: the mapping side by side"
            title = f"Functor: {fun.name}"
            yield SystemCommand(visible(title), visible(help_text), partial(self.open, ref))
        for nat in nats:
            ref = Ref("naturalTransformation", nat.id)
            help_text = f"{nat.source_functor} ⇒ {nat.target_functor}: components and squares"
            title = f"Transformation: {nat.name}"
            yield SystemCommand(visible(title), visible(help_text), partial(self.open, ref))
