"""A reST or plain-text document as it reads, for a face to show: prose paragraphs joined into
one line each (as reST reads them, so a terminal wraps them at its own width), section titles
without their adornment, and everything else line for line as written (literal blocks, doctests,
directives with their bodies, lists, tables, field lists, line blocks, indented blocks).

Each block keeps the source lines it shows, so a passage given by its source lines can be found
among the lines shown (`shown_line`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from catdoc.markup import scan_rst

BlockKind = Literal["prose", "heading", "verbatim"]

_STRUCTURED = re.compile(
    r"(?:[-*+•]|\(?(?:\d{1,9}|[A-Za-z]|#)[.)])(?:[ \t]|$)"  # a list item
    r"|:[^:\s][^:]*:(?:[ \t]|$)"  # a field
    r"|\|(?:[ \t]|$)"  # a line block, a grid table's row
    r"|[=+-][ \t=+-]*$"  # a table's border
    r"|\.\."  # explicit markup: a directive, a target, a comment
)
"""How a line starts when its paragraph is not prose to join."""


@dataclass(frozen=True, slots=True)
class Block:
    """Source lines `start` to `end` (from 0, end excluded) and the lines that show them: one
    line for prose and headings, the source lines themselves for verbatim blocks."""

    kind: BlockKind
    lines: tuple[str, ...]
    start: int
    end: int


def display_blocks(text: str) -> list[Block]:
    """The blocks of a reST or plain-text document, covering its lines (split at `\\n`) in
    order; every word of the source is in them, in order, but for a title's adornment."""
    lines = text.split("\n")
    scan = scan_rst(lines)
    titles = {h.first: h for h in scan.headings}
    paragraph = [
        bool(line.strip()) and not code for line, code in zip(lines, scan.code, strict=True)
    ]
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
        while end < len(lines) and end not in titles and paragraph[end] == paragraph[i]:
            end += 1
        run = lines[i:end]
        if paragraph[i] and all(_prose(line) for line in run):
            blocks.append(Block("prose", (" ".join(line.strip() for line in run),), i, end))
        else:  # blank lines and code, a run at a time; paragraphs not prose
            blocks.append(Block("verbatim", tuple(run), i, end))
        i = end
    return blocks


def _prose(line: str) -> bool:
    """Whether a line of a paragraph may be joined with the others: flush left, and not the
    start of a list item, field, line block, table border or explicit markup."""
    return line[:1] not in (" ", "\t") and not _STRUCTURED.match(line)


def shown_line(blocks: list[Block], line: int) -> int:
    """The line shown (from 0, counting every block's lines) that holds source line `line`
    (from 0; before the first line: the first, past the last: the last)."""
    shown = 0
    for block in blocks:
        if line < block.end:
            return shown + (max(line - block.start, 0) if block.kind == "verbatim" else 0)
        shown += len(block.lines)
    return max(shown - 1, 0)
