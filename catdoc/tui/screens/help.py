"""Help: what each screen shows and its keys, built from the bindings so it cannot drift."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from catdoc.tui.screens.browser import BrowserScreen
from catdoc.tui.screens.chain import ChainScreen
from catdoc.tui.screens.concepts import ConceptsScreen
from catdoc.tui.screens.coverage import CoverageScreen
from catdoc.tui.screens.mapping import MappingScreen
from catdoc.tui.screens.search import SearchScreen
from catdoc.tui.screens.trace import TraceScreen
from catdoc.tui.screens.validation import ValidationScreen

SCREENS: list[tuple[str, str, type, list[tuple[str, str]]]] = [
    (
        "Browser",
        "Navigator on the left (categories along their hierarchy, with their objects and "
        "morphisms; functors; natural transformations), the selected entity on the right: "
        "title, metadata, the document, and links to the other ends of its morphisms.",
        BrowserScreen,
        [
            ("↑ ↓", "Move (the document follows the cursor)"),
            ("Enter", "Expand a branch; on a functor or transformation, open its mapping"),
            ("Tab", "Next pane: navigator → document → links"),
            ("Enter (links)", "Jump to the other end"),
        ],
    ),
    (
        "Functor / transformation",
        "Object mapping and morphism mapping side by side (a transformation: its components); "
        "✗ error, ? missing, ! warning, ✓ ok; the highlighted entry is explained below.",
        MappingScreen,
        [("Tab", "Other table"), ("Enter", "Open the entry's source in the browser")],
    ),
    (
        "Validation",
        "Every finding with severity and code; the highlighted one in full below. The filters "
        "and the highlighted finding stay as they are when you go to a finding and come back.",
        ValidationScreen,
        [],
    ),
    (
        "Search",
        "Live results while you type (documents, or passages with Ctrl+T); the first search of "
        "a project shows how far its indexing is, and a line how far the vectors computed in "
        "the background are.",
        SearchScreen,
        [
            ("Enter", "Open the highlighted (or first) hit; a passage opens at its lines, marked"),
            ("esc (browser)", "Back to the hits, as they were"),
        ],
    ),
    (
        "Concepts",
        "The key phrases and tags of a category's documents (of the selection's category), "
        "and the documents of the highlighted one.",
        ConceptsScreen,
        [("Enter", "On a concept: its documents; on a document: open it")],
    ),
    (
        "Trace",
        "Paths between two objects, shortest first, along morphisms and functors. The ids, the "
        "paths and the highlighted step stay as they are when you open a step and come back.",
        TraceScreen,
        [
            ("tab", "Complete the id to what the matches share; again: the next match"),
            ("→", "Accept the suggestion shown"),
            ("Enter", "From → To → trace; on a step, open it"),
            ("esc / t (browser)", "Back to the trace, as it was"),
        ],
    ),
    (
        "Chain",
        "The shown object's whole chain by layer: above it (up to its requirements), the object, "
        "below it (down to its tests), each entry with its distance; ⚠ marks an entry whose "
        "link needs a review, and the highlighted entry's path and reason are below.",
        ChainScreen,
        [("Enter", "Open the highlighted entry in the browser")],
    ),
    (
        "Coverage",
        "Per functor the share of source objects mapped, of target objects reached and of "
        "morphisms mapped; for the highlighted functor the unmapped objects, the orphans and "
        "the unmapped morphisms.",
        CoverageScreen,
        [("Enter", "On a functor: its ids; on an id: open it"), ("Tab", "Other pane")],
    ),
]


def key_rows(app: App[object], bindings: list[BindingType]) -> list[tuple[str, str]]:
    """(keys, description) per described action, alternative keys joined by `/`."""
    rows: dict[tuple[str, str], list[str]] = {}
    for item in bindings:
        binding = item if isinstance(item, Binding) else Binding(*item)
        if not binding.description:
            continue
        keys = rows.setdefault((binding.action, binding.tooltip or binding.description), [])
        for single in Binding.make_bindings([binding]):
            shown = app.get_key_display(single)
            if shown not in keys:
                keys.append(shown)
    return [(" / ".join(keys), description) for (_, description), keys in rows.items()]


def help_sections(app: App[object]) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(title, what the screen shows, key rows) for every screen, "Everywhere" first."""
    everywhere = [*key_rows(app, app.BINDINGS), ("^p", "Command palette: every action by name")]
    sections = [("Everywhere", "", everywhere)]
    for title, about, screen, extra in SCREENS:
        sections.append((title, about, [*key_rows(app, screen.BINDINGS), *extra]))
    return sections


def help_markdown(app: App[object]) -> str:
    """The help as Markdown tables (the README's key table is this text)."""
    lines: list[str] = []
    for title, about, rows in help_sections(app):
        lines += [f"**{title}**" + (f": {about}" if about else ""), ""]
        lines += ["| key | action |", "|---|---|"]
        lines += [f"| `{key}` | {what} |" for key, what in rows]
        lines.append("")
    return "\n".join(lines)


def help_text(app: App[object]) -> Group:
    """The help as compact terminal text: a heading, a sentence, and aligned keys per screen."""
    parts: list[Text | Table] = []
    for title, about, rows in help_sections(app):
        parts.append(Text(title, "bold underline"))
        if about:
            parts.append(Text(about, "dim"))
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        for key, what in rows:
            table.add_row(key, what)
        parts += [table, Text()]
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    """Keys and screens; Escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(help_text(self.app))

    def on_mount(self) -> None:
        self.query_one("#help").border_title = "Help"
        self.query_one("#help").border_subtitle = "Esc closes · ↑↓ scroll"
