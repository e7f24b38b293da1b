"""A reST or plain-text document as it reads, for a face to show: each paragraph joined into one
line (as reST reads it, so a face wraps it at its own width) wherever it stands — flush left, in
a block quote, in a list item, a field, a definition, a footnote or the body of an admonition —
keeping its indent, with the column its wrapped rows continue at (`Block.hang`: the indent, or
the text after a list item's bullet or number); section titles without their adornment; and
everything whose line breaks matter line for line as written: literal blocks, doctests, code and
comments, directives with their options (and the bodies of those whose body is not prose, as a
`toctree`'s entries), tables, line blocks, substitution definitions and targets. An AsciiDoc
document likewise: titles without their `=` marks, each run of prose lines joined, and listing
blocks, lists, tables and attribute lines as written.

Each block keeps the source lines it shows, so a passage given by its source lines can be found
among the lines shown (`shown_line`). The words are the source's: a face reads the roles and
inline literals of prose and titles, a line at a time, with `catdoc.inline`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from catdoc.markup import Kind, Structure, scan_asciidoc, scan_rst

BlockKind = Literal["prose", "heading", "verbatim"]

_MARKER = re.compile(
    r"(?:[-*+•‣⁃]"  # a bullet
    r"|\(?(?:\d{1,9}|[A-Za-z]|#)[.)]"  # an enumerator: `1.`, `a)`, `(i)`, `#.`
    r"|:[^:\s][^:]*:"  # a field
    r"|(?:-\w|--\w[\w-]*|/\w)(?:[ =][^\s,]+)?(?:, (?:-\w|--\w[\w-]*|/\w)(?:[ =][^\s,]+)?)*"
    r"(?=[ \t]{2}|$)"  # an option (`-o FILE, --output=FILE`) then two spaces
    r"|\.\.[ \t]+(?:\[[^\]\s]+\]|(?:attention|caution|danger|error|hint|important|note|tip"
    r"|warning|seealso|todo)[ \t]*::)"  # a footnote or citation, an admonition
    r")(?:[ \t]+|$)"
)
"""How a list item, field, option, footnote or admonition starts: the text after it is its
first paragraph (a line that starts so starts a block of its own)."""

_KEPT = re.compile(
    r"\|(?:[ \t]|$)"  # a line block, a grid table's row
    r"|[=+-][ \t=+-]*$"  # a table's border, a transition
    r"|>>>(?:[ \t]|$)"  # a doctest that scan_rst did not see (no blank line above)
)
"""A line that keeps its whole paragraph line for line."""

_SIMPLE_BORDER = re.compile(r"={2,}(?:[ \t]+={2,})*[ \t]*$")
"""A simple table's border (the table may hold blank lines)."""

PROSE_DIRECTIVES = frozenset(
    {
        *("attention", "caution", "danger", "error", "hint", "important", "note", "tip"),
        *("warning", "admonition", "seealso", "todo", "versionadded", "versionchanged"),
        *("deprecated", "versionremoved", "topic", "sidebar", "epigraph", "highlights"),
        *("pull-quote", "compound", "container", "only", "glossary", "hlist", "figure"),
        *("card", "dropdown", "tab", "tab-set", "tab-item", "grid", "grid-item"),
        "grid-item-card",
    }
)
"""Directives whose body is prose and other body elements, to read as such; a directive not
here keeps its body line for line (a `toctree`'s or `autosummary`'s entries, a `plot`'s code, a
`csv-table`'s rows, an `index`'s entries …) unless it documents an object (`_OBJECT`)."""

_OBJECT = re.compile(
    r"(?:[a-z]+:)?(?:auto)?(?:function|class|method|attribute|data|exception|module|decorator"
    r"|decoratormethod|classmethod|staticmethod|property|macro|type|member|var|struct|union"
    r"|enum|enumerator|concept|envvar|option|cmdoption|describe|object)"
)
"""A directive describing an object (`.. py:function::`, `.. c:macro::`, `.. autoclass::` …):
its signatures are kept line for line, its body is prose."""

_DIRECTIVE = re.compile(r"\.\.[ \t]+(?:\|[^|]+\|[ \t]+)?([A-Za-z0-9][\w:+.-]*?)[ \t]*::(?:[ \t]|$)")


@dataclass(frozen=True, slots=True)
class Block:
    """Source lines `start` to `end` (from 0, end excluded) and the lines that show them: one
    line for prose and headings, the source lines themselves for verbatim blocks. A prose line's
    `hang` is the column its wrapped rows continue at (its indent, or where the text of its list
    item, field, option or footnote starts): the characters before it hold no words but a
    bullet, number, field name, option or footnote label."""

    kind: BlockKind
    lines: tuple[str, ...]
    start: int
    end: int
    hang: int = 0


def display_blocks(text: str, kind: Kind = "rst") -> list[Block]:
    """The blocks of a reST or plain-text document (or an AsciiDoc one, `kind` "asciidoc"),
    covering its lines (split at `\\n`) in order; every word of the source is in them, in
    order, but for a title's adornment, and every line of code (as `catdoc.markup.scan_rst` or
    `scan_asciidoc` finds it) is shown as written."""
    lines = text.split("\n")
    if kind == "asciidoc":
        return _asciidoc_blocks(lines)
    scan = scan_rst(lines)
    titles = {h.first: h for h in scan.headings}
    prose = _prose_lines(lines, scan)
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        heading = titles.get(i)
        if heading is not None:
            title = lines[heading.last - 1].strip()
            blocks.append(Block("heading", (title,), i, heading.last + 1))
            i = heading.last + 1
            continue
        end = i + 1
        while end < len(lines) and end not in titles and prose[end] == prose[i]:
            end += 1
        if prose[i]:
            for first, last, hang in _paragraphs(lines, i, end):
                joined = " ".join(line.strip() for line in lines[first:last])
                blocks.append(
                    Block("prose", (" " * _indent(lines[first]) + joined,), first, last, hang)
                )
        else:  # blank lines, code, and what keeps its lines: a run at a time
            blocks.append(Block("verbatim", tuple(lines[i:end]), i, end))
        i = end
    return blocks


def _asciidoc_blocks(lines: list[str]) -> list[Block]:
    """AsciiDoc's blocks: titles without their `=` marks, each run of prose lines joined, the
    rest (listing blocks, lists, tables, attribute lines) line for line."""
    scan = scan_asciidoc(lines)
    titles = {h.first: h for h in scan.headings}
    paragraph = [
        bool(line.strip()) and not code for line, code in zip(lines, scan.code, strict=True)
    ]
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        heading = titles.get(i)
        if heading is not None:
            blocks.append(Block("heading", (heading.title,), i, heading.last + 1))
            i = heading.last + 1
            continue
        end = i + 1
        while end < len(lines) and end not in titles and paragraph[end] == paragraph[i]:
            end += 1
        run = lines[i:end]
        if paragraph[i] and all(_adoc_prose(line) for line in run):
            blocks.append(Block("prose", (" ".join(line.strip() for line in run),), i, end))
        else:  # blank lines and code, a run at a time; paragraphs not prose
            blocks.append(Block("verbatim", tuple(run), i, end))
        i = end
    return blocks


def _adoc_prose(line: str) -> bool:
    """Whether a line of an AsciiDoc paragraph may be joined with the others: flush left, not
    the start of a list item, block title, table cell or description list term, and not ending
    in a hard line break (` +`)."""
    return (
        line[:1] not in (" ", "\t") and not line.endswith(" +") and not _ADOC_STRUCTURED.match(line)
    )


_ADOC_STRUCTURED = re.compile(
    r"(?:[-*]{1,5}|\.{1,5}|\d{1,9}\.|[A-Za-z]\.|<\d{1,3}>)(?:[ \t]|$)"  # a list item, a callout
    r"|\.(?=[^\s.])"  # a block title (`.Example`)
    r"|[|!]"  # a table's cell
    r"|[^\n]*?(?::{2,4}|;;)(?:[ \t]|$)"  # a description list's term
)
"""How a line starts when its AsciiDoc paragraph is not prose to join."""


def _indent(line: str) -> int:
    """The columns a line's indent takes (a tab to the next multiple of 8, as reST reads it)."""
    return len(line[: len(line) - len(line.lstrip(" \t"))].expandtabs(8))


def _prose_lines(lines: list[str], scan: Structure) -> list[bool]:
    """For each line, whether it is a line of prose to join: not blank, not code, not a title
    or its adornment, not in a table or line block, not a directive's first line, arguments or
    options, nor in the body of a directive whose body is not prose (`PROSE_DIRECTIVES`), a
    substitution definition or a target."""
    prose = [bool(line.strip()) and not code for line, code in zip(lines, scan.code, strict=True)]
    for heading in scan.headings:
        prose[heading.first : heading.last + 1] = [False] * (heading.last + 1 - heading.first)
    kept_under: int | None = None  # deeper lines, and blank ones, are a body kept as written
    head: tuple[int, bool] | None = None  # a prose directive's indent; whether its content
    # may follow right under it (an admonition's) rather than arguments (a signature's)
    for i, line in enumerate(lines):
        if not line.strip():
            head = None
            continue
        indent = _indent(line)
        if kept_under is not None and indent <= kept_under:
            kept_under = None
        if head is not None and indent <= head[0]:
            head = None
        if not prose[i]:
            continue
        if kept_under is not None or (head is not None and not head[1]):
            prose[i] = False
            continue
        lead = line.strip()
        if not lead.startswith(("..", "__ ")) or lead.startswith("..."):
            continue
        if lead.startswith(("__ ", ".. _")):  # a target (scan_rst has its URL's lines as code)
            prose[i] = False
            continue
        if lead.startswith(".. |"):  # a substitution definition, and its body
            prose[i], kept_under = False, indent
            continue
        directive = _DIRECTIVE.match(lead)
        if directive is None:  # a footnote or citation: prose; a comment: code already
            continue
        name = directive.group(1).lower()
        if name in PROSE_DIRECTIVES or _OBJECT.fullmatch(name):
            admonition = _MARKER.match(lead) is not None
            head = (indent, admonition)
            prose[i] = admonition and lead[directive.end() :].strip() != ""
        else:
            prose[i], kept_under = False, indent
    _keep_tables(lines, scan, prose)
    return prose


def _keep_tables(lines: list[str], scan: Structure, prose: list[bool]) -> None:
    """Lines of tables and line blocks are not prose: a paragraph holding a line that keeps its
    lines (`_KEPT`), and a simple table from its first border to its last (a border before a
    blank line or the end), blank lines and all."""
    i = 0
    while i < len(lines):
        if not prose[i]:
            i += 1
            continue
        end = i
        while end < len(lines) and prose[end]:
            end += 1
        run = range(i, end)
        if any(_KEPT.match(lines[j].strip()) for j in run):
            prose[i:end] = [False] * (end - i)
            border = next((j for j in run if _SIMPLE_BORDER.match(lines[j].strip())), None)
            if border is not None:
                end = _simple_table_end(lines, scan, border)
                prose[i:end] = [False] * (end - i)
        i = max(end, i + 1)


def _simple_table_end(lines: list[str], scan: Structure, border: int) -> int:
    """Past the last line of the simple table whose border is line `border`: its closing border
    is one followed by a blank line or the end; without one, the paragraph of `border`."""
    titles = {line for h in scan.headings for line in range(h.first, h.last + 1)}
    indent = _indent(lines[border])
    j = border
    while j < len(lines) and j not in titles:
        line = lines[j]
        if line.strip() and (_indent(line) < indent or (scan.code[j] and _indent(line) == indent)):
            break
        if _SIMPLE_BORDER.match(line.strip()) and (j + 1 == len(lines) or not lines[j + 1].strip()):
            return j + 1
        j += 1
    j = border
    while j < len(lines) and lines[j].strip():
        j += 1
    return j


def _paragraphs(lines: list[str], start: int, end: int) -> list[tuple[int, int, int]]:
    """The paragraphs of prose lines `start` to `end`, as (first line, past its last, hang).

    A line that starts a list item, field, option, footnote or admonition (`_MARKER`) starts a
    paragraph; the lines after it that are indented deeper, alike, continue it (when it has text
    on its first line). Any other line is continued by the lines at its own indent: a line
    indented deeper starts a paragraph of its own (a definition under its term, a quote)."""
    paragraphs: list[tuple[int, int, int]] = []
    i = start
    while i < end:
        line = lines[i]
        indent = _indent(line)
        lead = line.strip()
        marker = _MARKER.match(lead)
        if marker is None:
            hang, joins, at = indent, True, indent
        else:
            hang, joins, at = indent + marker.end(), marker.end() < len(lead), None
        last = i + 1
        while joins and last < end:
            below = lines[last]
            column = _indent(below)
            if _MARKER.match(below.strip()) or column != (at if at is not None else column):
                break
            if column <= indent and marker is not None:
                break
            at = column
            last += 1
        paragraphs.append((i, last, hang))
        i = last
    return paragraphs


def shown_line(blocks: list[Block], line: int) -> int:
    """The line shown (from 0, counting every block's lines) that holds source line `line`
    (from 0; before the first line: the first, past the last: the last)."""
    shown = 0
    for block in blocks:
        if line < block.end:
            return shown + (max(line - block.start, 0) if block.kind == "verbatim" else 0)
        shown += len(block.lines)
    return max(shown - 1, 0)
