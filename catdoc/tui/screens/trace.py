"""Trace: pick two objects and see the paths between them, shortest first.

The id fields complete: → takes the suggestion shown, Tab completes to the longest prefix the
matching ids share and, pressed again, cycles through them (the status line lists them). What
the screen showed (both ids, the paths found, the highlighted path and step) is kept on the app
in a `TraceView`, so opening a step and coming back (Escape in the browser, or t) finds the
trace as it was left, without tracing again unless the model changed meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Footer, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from catdoc import results as r
from catdoc.errors import CatDocError
from catdoc.project import Project
from catdoc.service import CatDoc
from catdoc.tui.refs import Ref
from catdoc.tui.screens.base import CatDocScreen
from catdoc.visible import visible

LIMIT = 20
LISTED = 8
"""Matching ids named in the status line when Tab finds several."""
FOCUSABLE = ("trace-source", "trace-target", "trace-paths", "trace-steps")


@dataclass
class TraceView:
    """The trace as it was left: the ids in both fields, the answer with the model it was
    traced on, the highlighted path and step, and the widget that had focus."""

    source: str = ""
    target: str = ""
    result: r.TraceResult | None = None
    traced_on: Project | None = None
    path: int = 0
    step: int = 0
    focus: str = ""


class ObjectIdSuggester(Suggester):
    """Completes an object id from the ids the project has (first match in file order)."""

    def __init__(self, service: CatDoc) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.service = service

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        try:
            ids = self.service.project().object_by_id
        except CatDocError:
            return None
        return next((ident for ident in ids if ident.startswith(value)), None)


class IdInput(Input):
    """An object id field: Tab completes (longest shared prefix, then cycles); an empty or
    complete field lets Tab move on as usual."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "complete", "Complete id", tooltip="Complete the id; again: next match"),
    ]

    class Completed(Message):
        """Tab found these ids for what was typed."""

        def __init__(self, typed: str, matches: list[str]) -> None:
            super().__init__()
            self.typed = typed
            self.matches = matches

    def __init__(self, service: CatDoc, value: str = "", *, id: str) -> None:
        super().__init__(
            value, placeholder="object id", id=id, suggester=ObjectIdSuggester(service)
        )
        self.service = service
        self._cycle: list[str] = []
        """The matches Tab cycles through, while the field shows the one it put there."""
        self._cycled = ""

    def action_complete(self) -> None:
        value = self.value
        if self._cycle and value == self._cycled:
            self._set(self._cycle[(self._cycle.index(value) + 1) % len(self._cycle)])
            return
        self._cycle = []
        try:
            ids = self.service.project().object_by_id
        except CatDocError:
            ids = {}
        matches = sorted(ident for ident in ids if ident.startswith(value)) if value else []
        if not value or matches == [value]:
            self.screen.focus_next()
            return
        self.post_message(self.Completed(value, matches))
        if not matches:
            self.app.bell()
            return
        prefix = shared_prefix(matches[0], matches[-1])  # sorted: theirs is everyone's
        if len(prefix) > len(value):
            self._set(prefix)
        else:  # a complete id that starts others too goes on to the next of them
            self._cycle = matches
            self._set(matches[(matches.index(value) + 1) if value in matches else 0])

    def _set(self, value: str) -> None:
        self.value = self._cycled = value
        self.cursor_position = len(value)


def shared_prefix(first: str, second: str) -> str:
    """The longest start the two strings have in common."""
    for index, (a, b) in enumerate(zip(first, second, strict=False)):
        if a != b:
            return first[:index]
    return first if len(first) <= len(second) else second


def path_prompt(number: int, path: r.TracePath) -> Text:
    steps = "identity" if path.length == 0 else f"{path.length} step{'s' * (path.length != 1)}"
    text = Text.assemble((f"{number}", "bold"), (f" · {steps}\n", "dim"), visible(path.nodes[0]))
    for hop in path.hops:
        arrow = f" ─{hop.id}⇒ " if hop.kind == "functor" else f" ─{hop.label}→ "
        text.append(visible(arrow), "magenta" if hop.kind == "functor" else "cyan")
        text.append(visible(hop.target))
    return text


class TraceScreen(CatDocScreen):
    """Enter in *From* moves to *To*; Enter in *To* traces. Enter on a step opens it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, view: TraceView | None = None) -> None:
        super().__init__()
        self.view = view or TraceView()
        self._steps: list[Ref] = []
        self._shown_path: int | None = None
        """The path whose steps are listed."""

    @property
    def result(self) -> r.TraceResult | None:
        return self.view.result

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="trace-form"):
            yield Label("From")
            yield IdInput(self.service, self.view.source, id="trace-source")
            yield Label("To")
            yield IdInput(self.service, self.view.target, id="trace-target")
        yield Static(id="trace-status", markup=False)
        yield OptionList(id="trace-paths")
        yield OptionList(id="trace-steps")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "trace"
        self.query_one("#trace-paths").border_title = "Paths, shortest first"
        self.query_one("#trace-steps").border_title = "Steps"
        view = self.view
        if view.result is None:
            self._status(Text("Enter two object ids (Tab completes), then Enter.", "dim"))
            self.query_one("#trace-target" if view.source else "#trace-source", Input).focus()
            return
        try:
            current = self.service.project()
        except CatDocError:
            current = None
        if view.traced_on is current:
            self._show_result(view.path, view.step)
        else:  # the model changed while the trace was not shown: the same ids, traced anew
            self.trace(keep=True)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if event.widget.id in FOCUSABLE:
            self.view.focus = event.widget.id or ""

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "trace-source":
            self.view.source = event.value
        elif event.input.id == "trace-target":
            self.view.target = event.value

    def _status(self, text: Text) -> None:
        self.query_one("#trace-status", Static).update(text)

    def on_id_input_completed(self, event: IdInput.Completed) -> None:
        """Say which ids Tab found, so the next Tab's choice is not a surprise."""
        typed, matches = visible(event.typed), event.matches
        if not matches:
            self._status(Text(f"No object id starts with {typed!r}.", "yellow"))
            return
        shown = ", ".join(visible(m) for m in matches[:LISTED])
        more = f" … ({len(matches) - LISTED} more)" if len(matches) > LISTED else ""
        many = len(matches) != 1
        count = f"{len(matches)} {'ids start' if many else 'id starts'}"
        self._status(Text(f"{count} with {typed!r}: {shown}{more}", "dim"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "trace-source":
            self.query_one("#trace-target", Input).focus()
        else:
            self.trace()

    def project_changed(self) -> None:
        if self.result is not None:
            self.trace(keep=True)

    def trace(self, *, keep: bool = False) -> None:
        """Ask the service for the paths and list them, the first one's steps below; `keep`
        (tracing again after a change of the model): the highlighted path, step and focus
        stay where that path is still found."""
        source = self.query_one("#trace-source", Input).value.strip()
        target = self.query_one("#trace-target", Input).value.strip()
        paths = self.query_one("#trace-paths", OptionList)
        if not source or not target:
            self._status(Text("Both ends are needed: an object id in From and in To.", "yellow"))
            return
        view = self.view
        shown = view.result.paths[view.path : view.path + 1] if keep and view.result else []
        try:
            view.result = self.service.trace(source, target, limit=LIMIT)
            view.traced_on = self.service.project()
        except CatDocError as error:
            view.result = view.traced_on = None
            paths.clear_options()
            self._show_steps(None)
            self._status(Text(visible(str(error), lines=True), "red"))
            return
        if shown and shown[0] in view.result.paths:
            self._show_result(view.result.paths.index(shown[0]), view.step)
            return
        if view.result.found:
            view.focus = "trace-paths"
        self._show_result(0, 0)

    def _show_result(self, path: int, step: int) -> None:
        """The view's answer: its paths, `path` highlighted and its steps listed, `step`
        highlighted there; focus where the view had it."""
        result, view = self.view.result, self.view
        if result is None:
            return
        paths = self.query_one("#trace-paths", OptionList)
        paths.set_options(Option(path_prompt(n, p)) for n, p in enumerate(result.paths, start=1))
        source, target = result.source, result.target
        if result.found:
            more = " (more exist; the shortest are shown)" if result.truncated else ""
            count = len(result.paths)
            found = f"{count} path{'s' * (count != 1)} from {source} to {target}{more}"
            self._status(Text(visible(found)))
            path = min(path, len(result.paths) - 1)
            self._show_steps(result.paths[path], path)
            paths.highlighted = path
            if self._steps:
                self.query_one("#trace-steps", OptionList).highlighted = min(
                    step, len(self._steps) - 1
                )
        else:
            self._status(Text(visible(result.message or ""), "yellow"))
            self._show_steps(None)
        self.query_one(f"#{view.focus if view.focus in FOCUSABLE else 'trace-target'}").focus()

    def _show_steps(self, path: r.TracePath | None, index: int | None = None) -> None:
        """List the steps of `path` (the `index`-th path found)."""
        self._shown_path = index
        self.view.path, self.view.step = index or 0, 0
        steps = self.query_one("#trace-steps", OptionList)
        items: list[tuple[Text, Ref]] = []
        if path is not None:
            items.append((self._object_step(path.nodes[0]), Ref("object", path.nodes[0])))
            for hop in path.hops:
                kind = "functor" if hop.kind == "functor" else "morphism"
                arrow = "⇒" if hop.kind == "functor" else "→"
                step = Text(visible(f"  ─{hop.label}{arrow}  "), "dim")
                step.append(visible(f"{kind} {hop.id}"), "italic")
                items.append((step, Ref(kind, hop.id)))
                items.append((self._object_step(hop.target), Ref("object", hop.target)))
        steps.set_options(Option(label) for label, _ in items)
        steps.highlighted = 0 if items else None
        self._steps = [ref for _, ref in items]

    def _object_step(self, ident: str) -> Text:
        """An object of a path: its id, and its title beside it when it has another."""
        text = Text(visible(ident), "bold")
        try:
            obj = self.service.project().object_by_id.get(ident)
        except CatDocError:
            obj = None
        if obj is not None and obj.title and obj.title != ident:
            text.append(f"  {visible(obj.title)}", "dim")
        return text

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        index = event.option_index
        if event.option_list.id == "trace-steps":
            self.view.step = index
        elif self.result is not None and index != self._shown_path:
            self._show_steps(self.result.paths[index], index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "trace-paths":
            self.query_one("#trace-steps", OptionList).focus()
        elif 0 <= event.option_index < len(self._steps):
            self.catdoc.open(self._steps[event.option_index], back="trace")
