"""The main screen: the navigator on the left, the selected entity on the right."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.timer import Timer
from textual.widgets import Footer, Header, Tree

from catdoc.errors import CatDocError
from catdoc.tui.editor import EditTarget, document_target, entity_target
from catdoc.tui.refs import Ref
from catdoc.tui.screens.base import CatDocScreen
from catdoc.tui.widgets.document import DocumentView
from catdoc.tui.widgets.navigator import NavData, Navigator
from catdoc.visible import visible

HIGHLIGHT_DELAY = 0.12
"""Seconds the cursor must rest on a node before its document is shown (keeps scrolling fast)."""
HISTORY = 100


class BrowserScreen(CatDocScreen):
    """Navigate the project; jumps (links, findings, hits, traces) land here."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "f", "mapping", "Mapping", tooltip="Mapping of the selected functor/transformation"
        ),
        Binding("b", "back", "Back", tooltip="The previously shown entity"),
        Binding("n", "focus('#navigator')", "Navigator", show=False, tooltip="Focus the navigator"),
        Binding(
            "l", "links", "Links", show=False, tooltip="Focus the links (when the entity has any)"
        ),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.current: Ref | None = None
        self.history: list[Ref] = []
        self._pending: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="browser"):
            yield Navigator(self.service, id="navigator")
            yield DocumentView(self.service, id="document")
        yield Footer()

    def on_mount(self) -> None:
        self.navigator.border_title = "Navigator"
        self.catdoc.sync_project()

    @property
    def navigator(self) -> Navigator:
        return self.query_one(Navigator)

    @property
    def document(self) -> DocumentView:
        return self.query_one(DocumentView)

    def project_changed(self) -> None:
        if self.current is not None and not self.catdoc.exists(self.current):
            self.current = None
        self.navigator.load()
        self.document.show(self.current)
        if self.current is not None:
            self.navigator.reveal(self.current)

    def check_document(self) -> None:
        """Re-read the shown document when its file changed on disk. The watch timer may tick
        while the screen's widgets are taken down (the app closing): there is nothing to do."""
        try:
            document = self.document
        except NoMatches:
            return
        if document.is_stale():
            document.show(self.current)

    # ------------------------------------------------------------------ showing
    def show(self, ref: Ref, *, reveal: bool = True, remember: bool = True) -> None:
        """Show `ref`, put the navigator's cursor on it, and remember where we came from."""
        if self._pending is not None:
            self._pending.stop()
            self._pending = None
        if ref != self.current and self.current is not None and remember:
            self.history = [*self.history[-HISTORY + 1 :], self.current]
        self.current = ref
        self.refresh_bindings()
        self.document.show(ref)
        if reveal:
            try:
                self.navigator.reveal(ref)
            except CatDocError as error:  # the files broke since the last look
                self.catdoc.show_problem(error)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NavData]) -> None:
        if self._pending is not None:
            self._pending.stop()
            self._pending = None
        ref = event.node.data.ref if event.node.data else None
        if ref is None or ref == self.current:
            return
        self._pending = self.set_timer(HIGHLIGHT_DELAY, lambda: self.show(ref, reveal=False))

    def on_tree_node_selected(self, event: Tree.NodeSelected[NavData]) -> None:
        ref = event.node.data.ref if event.node.data else None
        if ref is None:
            return
        if ref != self.current:
            self.show(ref, reveal=False)
        if ref.kind in ("functor", "naturalTransformation"):
            self.catdoc.open_mapping(ref)

    def on_document_view_jump(self, event: DocumentView.Jump) -> None:
        if self.catdoc.exists(event.ref):
            self.show(event.ref)
        else:
            self.notify(
                f"'{visible(event.ref.id)}' does not exist in the project.",
                severity="warning",
                markup=False,
            )

    def edit_target(self) -> EditTarget | None:
        """The shown entity's YAML entry; its document file while the document pane has focus."""
        if self.current is None:
            return None
        in_document = self.query_one("#doc-body").has_focus_within
        found = document_target(self.service, self.current) if in_document else None
        return found or entity_target(self.service, self.current)

    # ------------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`f` and `b` leave the footer while they have nothing to do (it is narrow at 80)."""
        if action == "mapping":
            return self.current is not None and self.current.kind in (
                "functor",
                "naturalTransformation",
            )
        if action == "back":
            return bool(self.history)
        return True

    def action_mapping(self) -> None:
        if self.current is None or self.current.kind not in ("functor", "naturalTransformation"):
            self.notify(
                "Select a functor or natural transformation first (or use Ctrl+P).",
                severity="warning",
            )
            return
        self.catdoc.open_mapping(self.current)

    def action_links(self) -> None:
        links = self.query_one("#doc-links")
        if links.display:
            links.focus()
        else:
            self.notify("No links here.", timeout=2)

    def action_back(self) -> None:
        if not self.history:
            self.notify("Nothing to go back to.", timeout=2)
            return
        self.show(self.history.pop(), remember=False)
