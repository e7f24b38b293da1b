"""The right-hand pane: one entity with its metadata, its document, and links to jump along.

The header carries ✗ when the entity has validation errors; links name the other end by id and
title; on a short terminal the metadata folds to one line (a click unfolds it) so the document
keeps its room.
"""

from __future__ import annotations

from collections.abc import Iterable

from markdown_it import MarkdownIt
from rich.console import Console
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Markdown, OptionList, Static
from textual.widgets.markdown import MarkdownBlock
from textual.widgets.option_list import Option

from catdoc.documents import Kind, sniff_kind, split_front_matter
from catdoc.errors import CatDocError
from catdoc.inline import read_inline
from catdoc.markdown_extensions import extensions_plugin
from catdoc.project_files import resolve_inside
from catdoc.reflow import Block, display_blocks, shown_line
from catdoc.service import CatDoc
from catdoc.tui.annotations import ELLIPSIS, error_marks, title_of
from catdoc.tui.refs import Ref
from catdoc.visible import visible

PASSAGE_STYLE = "on #2d3b55"
"""How a passage opened from a search hit is marked in a plain-text document."""
HEADING_STYLE = "bold underline"
"""A section title of a reST or plain-text document."""
CODE_STYLE = "#ffc473"
"""Inline literals and roles that read as code in a reST document (as the Markdown view's
inline code in the dark theme)."""

MIN_ROW = 20
"""Cells a wrapped row keeps for its text however deep its hang (in a narrow pane)."""

SHORT_HEIGHT = 30
"""Below this many terminal lines the metadata shows as one line."""

KIND_TITLES = {
    "category": "category",
    "object": "object",
    "morphism": "morphism",
    "functor": "functor",
    "naturalTransformation": "natural transformation",
}


def meta_line(pairs: Iterable[tuple[str, object]]) -> Text:
    """`label value` pairs on wrapping lines; empty values are left out."""
    text = Text()
    for label, value in pairs:
        if value in (None, "", [], {}):
            continue
        if text:
            text.append("  ")
        text.append(f"{label}\u00a0", "dim")
        text.append(visible(_shown(value)), "bold")
    return text


def _shown(value: object) -> str:
    """A metadata value as a person reads it: lists as `a, b`, mappings as `k=v`, at any depth
    (a list inside a mapping too, not Python's `['a', 'b']`)."""
    if isinstance(value, list | tuple):
        return ", ".join(_shown(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={_shown(v)}" for k, v in value.items())
    return str(value)


def path_text(path: list[str] | str | None) -> str:
    """A mapping value as text: a path of ids, the identity, or nothing."""
    if path is None:
        return "—"
    if isinstance(path, str):
        return path
    return " · ".join(path) if path else "id"


def hanging_rows(line: Text, hang: int, width: int, console: Console) -> list[Text]:
    """`line` cut into rows of at most `width` cells, the rows after the first starting under
    column `hang` (the text of a list item, a block quote's indent …: `catdoc.reflow.Block`);
    the line itself when it fits, has no hang, or the width is not known yet (0)."""
    hang = min(hang, width - MIN_ROW)
    if hang <= 0 or line.cell_len <= width:
        return [line]
    head, body = line[:hang], line[hang:]
    rows = list(body.wrap(console, width - head.cell_len, overflow="fold")) or [Text()]
    pad = " " * head.cell_len
    return [head + rows[0], *(Text(pad) + row for row in rows[1:])]


def _parser() -> MarkdownIt:
    """Textual's own Markdown reading, with MyST and MkDocs' admonitions shown as Sphinx and
    MkDocs show them (`catdoc.markdown_extensions`)."""
    return MarkdownIt("gfm-like").use(extensions_plugin)


class ReadingText(Static):
    """A reST or plain-text document as it reads: its lines (`catdoc.reflow`), each wrapped at
    the width shown with its rows after the first under its hang column, wrapped anew when the
    width changes; a passage's lines may be marked."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self._lines: list[tuple[Text, int]] = []
        """The lines shown and their hang (none when the text is shown as it is)."""
        self._starts: list[int] = []
        """Where each line starts in the text shown (its rows joined by newlines)."""
        self._marked: tuple[int, int] | None = None
        self._width = 0

    def set_text(self, text: str | Text) -> None:
        """A text shown as it is (a problem, a note), wrapped at the width like any."""
        self._lines, self._starts, self._marked = [], [], None
        self.update(text)

    def set_lines(self, lines: list[tuple[Text, int]]) -> None:
        """Lines and their hang, each wrapped at the width shown."""
        self._lines, self._marked = lines, None
        self._lay_out()

    def mark(self, top: int, bottom: int) -> None:
        """Mark lines `top` to `bottom` (from 0, both shown) with `PASSAGE_STYLE`."""
        if self._lines:
            self._marked = (top, bottom)
            self._lay_out()

    def offset_of(self, line: int) -> int:
        """Where line `line` (from 0) starts in the text shown, wrapped at the width shown now."""
        if self._lines and self._width != self.content_region.width:
            self._lay_out()
        return self._starts[line] if 0 <= line < len(self._starts) else 0

    def on_resize(self, event: events.Resize) -> None:
        if self._lines and self._width != self.content_region.width:
            self._lay_out()

    def _lay_out(self) -> None:
        self._width = width = self.content_region.width
        text = Text()
        self._starts = []
        for index, (line, hang) in enumerate(self._lines):
            if index:
                text.append("\n")
            self._starts.append(len(text))
            text.append_text(Text("\n").join(hanging_rows(line, hang, width, self.app.console)))
        if self._marked is not None:
            top, bottom = self._marked
            stop = self._starts[bottom + 1] if bottom + 1 < len(self._starts) else len(text)
            text.stylize(PASSAGE_STYLE, self._starts[top], stop)
        self.update(text)


class DocumentView(Vertical):
    """Shows one `Ref`; the links list posts `Jump` when the user picks the other end."""

    class Jump(Message):
        """Go to another entity (the other end of a morphism, a functor's image …)."""

        def __init__(self, ref: Ref) -> None:
            super().__init__()
            self.ref = ref

    def __init__(self, service: CatDoc, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.service = service
        self.ref: Ref | None = None
        self._links: list[Ref] = []
        self._path: str | None = None
        self._file_stamp: tuple[int, int] | None = None
        self._title = Text()
        self._meta = Text()
        self._meta_open = False
        """Unfolded by a click while the terminal is short."""
        self._first_line = 1
        """The file line (from 1) the body shown starts at (after any front matter)."""
        self._blocks: list[Block] = []
        """The blocks of the reST or plain-text document shown (none for Markdown)."""

    def compose(self) -> ComposeResult:
        yield Static(id="doc-title", markup=False)
        yield Static(id="doc-meta", markup=False)
        with VerticalScroll(id="doc-body"):
            yield Markdown(id="doc-markdown", open_links=False, parser_factory=_parser)
            yield ReadingText(id="doc-text")
        yield OptionList(id="doc-links")

    def on_mount(self) -> None:
        self.query_one("#doc-body").border_title = "Document"
        self.query_one("#doc-links").border_title = "Links"
        self.show(None)

    # ------------------------------------------------------------------ showing
    def show(self, ref: Ref | None) -> None:
        """Render `ref` fresh from the service (or a welcome text when nothing is selected)."""
        self.ref = ref
        self._path = None
        self._first_line = 1
        self._blocks = []
        if ref is None:
            self._fill(
                Text("Nothing selected", "bold"),
                Text("Pick a category, object or morphism in the navigator.", "dim"),
                "Document",
                markdown=WELCOME,
            )
            self._set_links("Links", [])
            return
        try:
            show = {
                "category": self._show_category,
                "object": self._show_object,
                "morphism": self._show_morphism,
                "functor": self._show_functor,
                "naturalTransformation": self._show_nat,
            }[ref.kind]
            show(ref.id)
            self._mark_errors(ref.id)
        except CatDocError as exc:
            title = Text(visible(ref.id), "bold")
            self._fill(title, Text(KIND_TITLES[ref.kind]), "Problem", text=str(exc))
            self._set_links("Links", [])

    def is_stale(self) -> bool:
        """Whether the shown document's file changed since it was read."""
        return self._path is not None and self._stamp() != self._file_stamp

    def _stamp(self) -> tuple[int, int] | None:
        if self._path is None:
            return None
        try:
            stat = resolve_inside(self.service.root, self._path).stat()
        except (CatDocError, OSError):
            return None
        return (stat.st_mtime_ns, stat.st_size)

    def _fill(
        self,
        title: Text,
        meta: Text,
        body_title: str,
        *,
        markdown: str | None = None,
        text: str | Text | None = None,
        lines: list[tuple[Text, int]] | None = None,
    ) -> None:
        """Show one entity; `markdown`, a plain `text` and the body title come from the
        project's files, so their control characters are escaped here; `lines` (with their
        hang) are a document's as it reads (`_show_text`)."""
        self.query_one("#doc-title", Static).update(title)
        self._title = title
        self._meta = meta
        self._meta_open = False
        self._show_meta()
        body = self.query_one("#doc-body", VerticalScroll)
        body.border_title = Text(visible(body_title))
        body.scroll_home(animate=False)
        view_md = self.query_one("#doc-markdown", Markdown)
        view_text = self.query_one("#doc-text", ReadingText)
        view_md.display = markdown is not None
        view_text.display = markdown is None
        if markdown is not None:
            view_md.update(visible(markdown, lines=True))
        elif lines is not None:
            view_text.set_lines(lines)
        elif isinstance(text, str):
            view_text.set_text(Text(visible(text, lines=True)))
        else:
            view_text.set_text(text or "")

    def _mark_errors(self, ident: str) -> None:
        """✗ and the count in the header when the entity has validation errors."""
        try:
            count = error_marks(self.service).count(ident, self.service)
        except CatDocError:  # e.g. an unreadable reviews.yaml: the validation screen says why
            return
        if count:
            title = self._title.copy()
            title.append(f"  ✗ {count} error{'s' if count > 1 else ''}", "bold red")
            self.query_one("#doc-title", Static).update(title)

    def _show_meta(self) -> None:
        """The metadata in full, or folded to one line cut with an ellipsis when short."""
        meta = self.query_one("#doc-meta", Static)
        if self.app.size.height >= SHORT_HEIGHT or self._meta_open:
            meta.update(self._meta)
            return
        width = max(self.size.width - 2, 10)
        lines = self._meta.split("\n")
        folded = Text.assemble(("▸ ", "dim"), lines[0] if lines else "")
        if folded.cell_len > width or len(lines) > 1:
            folded.truncate(width - 1)
            folded.append(ELLIPSIS, "dim")
        meta.update(folded)

    def on_resize(self, event: events.Resize) -> None:
        self._show_meta()

    def on_click(self, event: events.Click) -> None:
        if event.widget is not None and event.widget.id == "doc-meta":
            self._meta_open = not self._meta_open
            self._show_meta()

    def show_lines(self, start: int, end: int) -> None:
        """Scroll the document to file lines `start`–`end` (from 1, as search passages give them)
        and mark them, once the document shown last has been laid out."""
        self.run_worker(self._mark_lines(start, end), group="passage", exclusive=True)

    async def _mark_lines(self, start: int, end: int) -> None:
        body = self.query_one("#doc-body", VerticalScroll)
        first, last = start - self._first_line, end - self._first_line  # body lines, from 0
        view_md = self.query_one("#doc-markdown", Markdown)
        if not view_md.display:
            if self._blocks:
                top, bottom = shown_line(self._blocks, first), shown_line(self._blocks, last)
                self.query_one("#doc-text", ReadingText).mark(top, bottom)
                self.call_after_refresh(self._scroll_to_line, top)
            return
        async with view_md.lock:  # the document's blocks are mounted
            blocks = [
                block
                for block in view_md.query_children(MarkdownBlock)
                if block.source_range[0] <= last and block.source_range[1] > first
            ]
        for block in blocks:
            block.add_class("-passage")
        if blocks:
            self.call_after_refresh(body.scroll_to_widget, blocks[0], top=True, animate=False)

    def _scroll_to_line(self, line: int) -> None:
        """The plain-text document scrolled so that its line `line` (from 0) is at the top: past
        the rows the text before it takes at the width shown."""
        text = self.query_one("#doc-text", ReadingText)
        offset = text.offset_of(line)
        before = Content(text.content.plain[:offset].removesuffix("\n")) if offset else None
        rows = before.get_height(text.styles, text.content_region.width) if before else 0
        y = text.virtual_region.y + text.gutter.top + rows
        self.query_one("#doc-body", VerticalScroll).scroll_to(y=y, animate=False)

    def _show_text(self, content: str, kind: Kind) -> list[tuple[Text, int]]:
        """A reST, AsciiDoc or plain-text document as it reads (`catdoc.reflow`): prose
        paragraphs one line each with their hang, for the pane to wrap, and section titles as
        headings, both (but in AsciiDoc) with their roles and inline literals as they read
        (`catdoc.inline`); the rest line for line as written."""
        self._blocks = display_blocks(visible(content, lines=True), kind)
        lines: list[tuple[Text, int]] = []
        for block in self._blocks:
            if block.kind == "verbatim":
                lines += [(Text(line), 0) for line in block.lines]
                continue
            (line,) = block.lines
            style = HEADING_STYLE if block.kind == "heading" else ""
            if kind == "asciidoc":  # reST's roles and literals are no markup there
                lines.append((Text(line, style), block.hang))
                continue
            inline = read_inline(line[block.hang :])  # what precedes the hang holds no markup
            text = Text(line[: block.hang], style)
            text.append(inline.text)
            for start, end in inline.code:
                text.stylize(CODE_STYLE, block.hang + start, block.hang + end)
            lines.append((text, block.hang))
        return lines

    def _set_links(self, title: str, links: list[tuple[Text, Ref]]) -> None:
        options = self.query_one("#doc-links", OptionList)
        options.border_title = title
        options.set_options(Option(label) for label, _ in links)
        options.highlighted = 0 if links else None
        options.display = bool(links)
        if not links and options.has_focus:  # hidden now: the document takes the focus
            self.query_one("#doc-body").focus()
        self._links = [ref for _, ref in links]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self._links):
            self.post_message(self.Jump(self._links[event.option_index]))

    # ------------------------------------------------------------------ one per kind
    def _named(self, ident: str) -> str | None:
        return title_of(self.service, ident)

    def _show_object(self, ident: str) -> None:
        obj = self.service.show_object(ident)
        self._path = obj.path
        self._file_stamp = self._stamp()
        title = _title(obj.title, "object", obj.id)
        meta = meta_line(
            [
                ("id", obj.id),
                ("category", obj.category),
                ("domain", obj.domain),
                ("path", obj.path),
                ("tags", obj.tags),
                ("author", obj.author),
                ("created", obj.created),
                ("updated", obj.updated),
                ("url", obj.url),
                ("metadata", obj.metadata),
                ("at", obj.location),
            ]
        )
        if obj.summary:
            meta.append("\n")
            meta.append(visible(obj.summary, lines=True), "italic")
        body_title = obj.path or ("inline content" if obj.content is not None else "no document")
        if obj.content_error:
            self._fill(title, meta, body_title, text=Text(visible(obj.content_error), "red"))
        elif obj.content is None:
            note = "This object has neither a document path nor inline content."
            self._fill(title, meta, body_title, text=Text(note, "dim"))
        else:
            content = obj.content
            if obj.truncated:
                content += (
                    f"\n\n… cut at {len(obj.content):,} of {obj.content_length:,} characters."
                )
            kind = sniff_kind(obj.path, content) if obj.path else "text"
            if kind == "markdown":
                front = split_front_matter(content)
                body = front.body if front.error is None else f"> {front.error}\n\n{front.body}"
                self._first_line = front.body_start_line - body.count(
                    "\n", 0, len(body) - len(front.body)
                )
                self._fill(title, meta, body_title, markdown=body)
            else:
                self._fill(title, meta, body_title, lines=self._show_text(content, kind))
        try:
            marks = self.service.suspect_marks(obj.id)
        except CatDocError:  # an unreadable reviews.yaml: the validation screen says why
            marks = {}
        links: list[tuple[Text, Ref]] = []
        for arrow, morphisms in (("→", obj.outgoing), ("←", obj.incoming)):
            for m in morphisms:
                other = m.target if arrow == "→" else m.source
                mark = marks.get(f"morphism:{m.id}")
                links.append(
                    (
                        _link(arrow, m.name, other, self._named(other), suspect=mark),
                        Ref("object", other),
                    )
                )
        links += [
            (
                _link(
                    "↦",
                    fun,
                    image,
                    self._named(image),
                    suspect=marks.get(f"functor:{fun}:object:{obj.id}"),
                ),
                Ref("object", image),
            )
            for fun, image in obj.images.items()
        ]
        self._set_links(f"Links: {len(obj.outgoing)} out · {len(obj.incoming)} in", links)

    def _show_morphism(self, ident: str) -> None:
        mor = self.service.show_morphism(ident)
        title = _title(mor.name, "identity" if mor.is_identity else "morphism", mor.id)
        meta = meta_line(
            [
                ("id", mor.id),
                ("category", mor.category),
                ("from", mor.source),
                ("to", mor.target),
                ("metadata", mor.metadata),
                ("at", mor.location),
            ]
        )
        lines = [f"**{mor.source_title}** → **{mor.target_title}**", ""]
        lines += [f"- under `{fun}`: `{path_text(path)}`" for fun, path in mor.images.items()]
        self._fill(title, meta, "Morphism", markdown="\n".join(lines))
        links = [
            (_link("from", "", mor.source, mor.source_title), Ref("object", mor.source)),
            (_link("to", "", mor.target, mor.target_title), Ref("object", mor.target)),
            (
                _link("in", "", mor.category, self._named(mor.category)),
                Ref("category", mor.category),
            ),
        ]
        self._set_links("Links", links)

    def _show_category(self, ident: str) -> None:
        cat = self.service.show_category(ident)
        title = _title(cat.name, "category", cat.id)
        meta = meta_line(
            [
                ("id", cat.id),
                ("parent", cat.parent),
                ("semantics", cat.semantics),
                ("objects", cat.object_count),
                ("morphisms", cat.morphism_count),
                ("equations", cat.equation_count),
                ("aliases", cat.aliases),
                ("at", cat.location),
            ]
        )
        lines = [cat.description or "*No description.*", ""]
        if cat.hierarchy:
            lines += [f"Hierarchy: {' › '.join(cat.hierarchy)}", ""]
        for lhs, rhs in cat.equations:
            lines.append(f"- equation: `{path_text(lhs)}` = `{path_text(rhs)}`")
        self._fill(title, meta, "Category", markdown="\n".join(lines))
        links = [
            (_link("↑", "parent", p, self._named(p)), Ref("category", p)) for p in [cat.parent] if p
        ]
        links += [
            (_link("↓", "child", c, self._named(c)), Ref("category", c)) for c in cat.children
        ]
        links += [
            (_link("~", "related", c, self._named(c)), Ref("category", c)) for c in cat.related
        ]
        links += [
            (_link("→", "functor", f, self._named(f)), Ref("functor", f)) for f in cat.functors_out
        ]
        links += [
            (_link("←", "functor", f, self._named(f)), Ref("functor", f)) for f in cat.functors_in
        ]
        self._set_links("Links", links)

    def _show_functor(self, ident: str) -> None:
        fun = self.service.show_functor(ident)
        failing = [e for e in [*fun.object_mapping, *fun.morphism_mapping] if e.status != "ok"]
        meta = meta_line(
            [
                ("id", fun.id),
                ("from", fun.source_category),
                ("to", fun.target_category),
                ("objects mapped", fun.objects_mapped),
                ("morphisms mapped", fun.morphisms_mapped),
                ("at", fun.location),
            ]
        )
        lines = [
            f"- identity preservation: **{fun.identity_preservation}**",
            f"- composition preservation: **{fun.composition_preservation}**",
            f"- entries with problems: **{len(failing)}**",
            "",
            "Press **f** or **Enter** for the object and morphism mapping side by side.",
        ]
        self._fill(_title(fun.name, "functor", fun.id), meta, "Functor", markdown="\n".join(lines))
        links = [
            (
                _link("from", "", fun.source_category, self._named(fun.source_category)),
                Ref("category", fun.source_category),
            ),
            (
                _link("to", "", fun.target_category, self._named(fun.target_category)),
                Ref("category", fun.target_category),
            ),
        ]
        self._set_links("Links", links)

    def _show_nat(self, ident: str) -> None:
        nat = self.service.show_natural_transformation(ident)
        failing = [e for e in nat.components if e.status != "ok"]
        meta = meta_line(
            [
                ("id", nat.id),
                ("from", nat.source_functor),
                ("to", nat.target_functor),
                ("components", nat.component_count),
                ("at", nat.location),
            ]
        )
        lines = [
            f"`{nat.source_functor}` ⇒ `{nat.target_functor}` between "
            f"`{nat.source_category}` and `{nat.target_category}`.",
            "",
            f"- components with problems: **{len(failing)}**",
            "",
            "Press **f** or **Enter** for the components and their naturality squares.",
        ]
        title = _title(nat.name, "natural transformation", nat.id)
        self._fill(title, meta, "Natural transformation", markdown="\n".join(lines))
        links = [
            (
                _link("from", "", nat.source_functor, self._named(nat.source_functor)),
                Ref("functor", nat.source_functor),
            ),
            (
                _link("to", "", nat.target_functor, self._named(nat.target_functor)),
                Ref("functor", nat.target_functor),
            ),
        ]
        self._set_links("Links", links)


WELCOME = """\
# CatDoc

Walk the documentation graph: pick an entry on the left, press **Tab** to reach the links
below a document and **Enter** to jump to the other end.

**/** search · **v** validate · **t** trace · **?** help · **Ctrl+P** commands
"""


def _title(name: str, kind: str, ident: str) -> Text:
    title = Text(visible(name), "bold")
    title.append(f"  {kind}", "dim italic")
    if name != ident:
        title.append(f"  {visible(ident)}", "dim")
    return title


def _link(
    arrow: str, label: str, ident: str, title: str | None = None, *, suspect: str | None = None
) -> Text:
    text = Text(f"{arrow} ", "bold")
    if label:
        text.append(f"{visible(label)}  ", "italic")
    text.append(visible(ident))
    if title and title != ident:
        text.append(f"  {visible(title)}", "dim")
    if suspect:
        text.append(f"  ⚠ suspect: {visible(suspect)}", "yellow")
    return text
