"""reST and plain text as it reads (`catdoc.reflow`): prose joined, the rest kept line for line,
every block knowing its source lines."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.reflow import Block, display_blocks, shown_line

DOC = """\
=====
Title
=====

A paragraph cut
across lines.

Example::

    code kept
    as written

- an item
- another

>>> 1 + 1
2

Section
-------

.. note::
   A note body.

:field: value
"""


def kinds(blocks: list[Block]) -> list[tuple[str, tuple[str, ...]]]:
    return [(b.kind, b.lines) for b in blocks if b.lines != ("",)]


def test_prose_is_joined_and_the_rest_kept_as_written() -> None:
    assert kinds(display_blocks(DOC)) == [
        ("heading", ("Title",)),
        ("prose", ("A paragraph cut across lines.",)),
        ("prose", ("Example::",)),
        ("verbatim", ("", "    code kept", "    as written", "")),
        ("verbatim", ("- an item", "- another")),
        ("verbatim", ("", ">>> 1 + 1", "2", "")),  # blank lines and code: one run
        ("heading", ("Section",)),
        ("verbatim", (".. note::", "   A note body.")),
        ("verbatim", (":field: value",)),
    ]


def test_shown_line_finds_a_source_line_among_the_lines_shown() -> None:
    blocks = display_blocks(DOC)
    lines = [line for b in blocks for line in b.lines]
    assert lines[shown_line(blocks, 1)] == "Title"
    assert lines[shown_line(blocks, 5)] == "A paragraph cut across lines."  # its second line
    assert lines[shown_line(blocks, 10)] == "    as written"
    assert shown_line(blocks, -3) == 0 and shown_line(blocks, 999) == len(lines) - 1


LINES = st.sampled_from(
    [
        "",
        "Some words here",
        "more text.",
        "Title",
        "=====",
        "-----",
        "A paragraph ending::",
        "::",
        "    indented code",
        "  inset",
        ">>> x = 1",
        ".. note::",
        ".. code-block:: python",
        "   body",
        "- item",
        "1. first",
        ":field: value",
        "| line block",
        "+----+----+",
        "===  ===",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(LINES, st.text(" abc=-:.>|\t", max_size=12)), max_size=40))
def test_no_text_is_lost_and_the_blocks_cover_the_lines_in_order(source: list[str]) -> None:
    text = "\n".join(source)
    lines = text.split("\n")
    blocks = display_blocks(text)
    assert blocks[0].start == 0 and blocks[-1].end == len(lines)
    for before, after in itertools.pairwise(blocks):
        assert before.end == after.start
    for block in blocks:
        assert block.start < block.end
        shown = " ".join(block.lines).split()
        source_lines = lines[block.start : block.end]
        if block.kind == "heading":  # the title; every other line an adornment
            (title,) = block.lines
            assert title.strip() in (line.strip() for line in source_lines)
            assert all(
                len(set(line.strip())) == 1 for line in source_lines if line.strip() != title
            )
        else:
            assert shown == " ".join(source_lines).split()
    rows = [shown_line(blocks, line) for line in range(len(lines))]
    assert rows == sorted(rows)
