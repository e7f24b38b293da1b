"""reST and plain text as it reads (`catdoc.reflow`): prose joined, the rest kept line for line,
every block knowing its source lines."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.markup import scan_rst
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
        ("prose", ("- an item",)),
        ("prose", ("- another",)),
        ("verbatim", ("", ">>> 1 + 1", "2", "")),  # blank lines and code: one run
        ("heading", ("Section",)),
        ("verbatim", ("", ".. note::")),
        ("prose", ("   A note body.",)),
        ("prose", (":field: value",)),
    ]


INDENTED = """- a long item
  that continues here
- another

1. item
   continued
#. next

   A block quote
   cut across lines.

term
    Its definition
    on two lines.

:field: a body
    that goes on
:empty:
    a body below

-o FILE, --output=FILE  where the
                        output goes

.. [1] A footnote
   continued.

.. note:: Noted
   here.

.. warning::

   A warning
   body.
"""


def test_indented_paragraphs_are_joined_keeping_their_indent_and_hang() -> None:
    blocks = [(b.kind, b.lines, b.hang) for b in display_blocks(INDENTED) if b.lines != ("",)]
    assert blocks == [
        ("prose", ("- a long item that continues here",), 2),
        ("prose", ("- another",), 2),
        ("prose", ("1. item continued",), 3),
        ("prose", ("#. next",), 3),
        ("prose", ("   A block quote cut across lines.",), 3),
        ("prose", ("term",), 0),
        ("prose", ("    Its definition on two lines.",), 4),
        ("prose", (":field: a body that goes on",), 8),
        ("prose", (":empty:",), 7),
        ("prose", ("    a body below",), 4),
        ("prose", ("-o FILE, --output=FILE  where the output goes",), 24),
        ("prose", (".. [1] A footnote continued.",), 7),
        ("prose", (".. note:: Noted here.",), 10),
        ("verbatim", ("", ".. warning::", ""), 0),
        ("prose", ("   A warning body.",), 3),
    ]


KEPT = """Paragraph::

    literal
    block

.. code-block:: python

   code
   here

.. toctree::
   :maxdepth: 1

   first
   second

.. autosummary::

   numpy.sum
   numpy.prod

+-----+-----+
| a   | b   |
+-----+-----+

=====  =====
A      B
=====  =====
1      one

2      two
=====  =====

| a line
| block
    continued

.. |name| replace:: some
   text

.. c:function:: int f(int a,
                      int b)

   Its body
   is prose.

.. plot::

   import numpy
   numpy.sum
"""


def test_line_breaks_that_matter_are_kept_as_written() -> None:
    blocks = display_blocks(KEPT)
    prose = [b.lines[0] for b in blocks if b.kind == "prose"]
    assert prose == ["Paragraph::", "   Its body is prose."]
    shown = [line for b in blocks if b.kind == "verbatim" for line in b.lines]
    assert shown == [
        line
        for line in KEPT.split("\n")
        if line not in ("Paragraph::", "   Its body", "   is prose.")
    ]


def test_shown_line_finds_a_source_line_among_the_lines_shown() -> None:
    blocks = display_blocks(DOC)
    lines = [line for b in blocks for line in b.lines]
    assert lines[shown_line(blocks, 1)] == "Title"
    assert lines[shown_line(blocks, 5)] == "A paragraph cut across lines."  # its second line
    assert lines[shown_line(blocks, 10)] == "    as written"
    assert shown_line(blocks, -3) == 0 and shown_line(blocks, 999) == len(lines) - 1


TABLE_OR_LINE_BLOCK = re.compile(r"\|(?:\s|$)|[=+-][\s=+-]*$")

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
        "  continued here",
        "   continued too",
        "    deeper words",
        "\tafter a tab",
        ">>> x = 1",
        ".. note::",
        ".. note:: noted",
        ".. code-block:: python",
        ".. toctree::",
        ".. function:: f(x)",
        ".. [1] a footnote",
        ".. _target:",
        ".. |sub| replace:: this",
        "__ https://example.org",
        "   body",
        "   :option: value",
        "- item",
        "* item",
        "1. first",
        "#. next",
        "(a) letter",
        "term",
        ":field: value",
        ":field:",
        "-v, --verbose  say more",
        "| line block",
        "+----+----+",
        "===  ===",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(LINES, st.text(" abc=-:.>|*\t", max_size=12)), max_size=40))
def test_no_word_is_lost_or_moved_and_code_is_kept_as_written(source: list[str]) -> None:
    text = "\n".join(source)
    lines = text.split("\n")
    scan = scan_rst(lines)
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
        if block.kind == "verbatim":
            assert block.lines == tuple(source_lines) and block.hang == 0
        else:  # no line of code, table or line block is joined with others
            assert len(block.lines) == 1
            assert not any(scan.code[block.start : block.end])
        if block.kind == "prose":
            assert block.end - block.start == 1 or not any(
                TABLE_OR_LINE_BLOCK.match(line.strip()) for line in source_lines
            )
            (line,) = block.lines
            assert len(line) - len(line.lstrip(" ")) <= block.hang <= len(line)  # at its indent
    rows = [shown_line(blocks, line) for line in range(len(lines))]
    assert rows == sorted(rows)
    shown_lines = [line for block in blocks for line in block.lines]
    titles = {
        line
        for block in blocks
        if block.kind == "heading"
        for line in range(block.start, block.end)
    }
    for line, row in enumerate(rows):  # a source line is found where its words are shown
        if lines[line].split() and line not in titles:
            assert lines[line].split()[0] in shown_lines[row].split()


ADOC_LINES = st.sampled_from(
    [
        "",
        "Some words here",
        "= Title",
        "== Section ==",
        "Legacy",
        "------",
        "----",
        "....",
        "====",
        "--",
        "[source,python]",
        "[[anchor]]",
        ":attr: value",
        "// comment",
        "  indented literal",
        "* item",
        ". step",
        "Term:: definition",
        "|===",
        "| cell",
        ".Block title",
        "Hard +",
        "+",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(ADOC_LINES, st.text(" ab=-.:[]/+*|\t", max_size=12)), max_size=40))
def test_asciidoc_blocks_cover_the_lines_and_keep_every_word_but_title_marks(
    source: list[str],
) -> None:
    text = "\n".join(source)
    lines = text.split("\n")
    blocks = display_blocks(text, "asciidoc")
    assert blocks[0].start == 0 and blocks[-1].end == len(lines)
    for before, after in itertools.pairwise(blocks):
        assert before.end == after.start
    for block in blocks:
        assert block.start < block.end
        if block.kind != "heading":
            shown = " ".join(block.lines).split()
            assert shown == " ".join(lines[block.start : block.end]).split()
    rows = [shown_line(blocks, line) for line in range(len(lines))]
    assert rows == sorted(rows)


def test_asciidoc_code_is_kept_as_written() -> None:
    text = "= Title\n\nSome\nprose.\n\n----\n  def f():\n      return 1\n\nafter blank\n----\n"
    assert kinds(display_blocks(text, "asciidoc")) == [
        ("heading", ("Title",)),
        ("prose", ("Some prose.",)),
        ("verbatim", ("", "----", "  def f():", "      return 1", "", "after blank", "----", "")),
    ]
