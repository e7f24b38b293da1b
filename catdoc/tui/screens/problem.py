"""Shown while the project cannot be loaded: what is wrong, how to fix it, and that CatDoc is
watching the files and will continue by itself once they load."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from catdoc.errors import CatDocError
from catdoc.visible import visible


class ProblemScreen(Screen[None]):
    """The load error in full; it goes away as soon as the files load again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "app.reload", "Retry"),
    ]

    def __init__(self, error: CatDocError) -> None:
        super().__init__()
        self.error = error

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="problem"), Center():
            yield Static(id="problem-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "cannot load the project"
        self.show(self.error)

    def show(self, error: CatDocError) -> None:
        self.error = error
        text = Text("The project cannot be loaded\n\n", "bold red")
        text.append(visible(error.message, lines=True))
        if error.hint:
            text.append("\n\nHow to fix it: ", "bold")
            text.append(visible(error.hint, lines=True))
        text.append(
            "\n\nCatDoc is watching the project's files and continues as soon as they load. "
            "q quits.",
            "dim",
        )
        self.query_one("#problem-text", Static).update(text)
