"""A document's text as a snippet shows it: the words a reader of the rendered page sees, not the
markup around them. Without this a hit on a reST section shows `.. _guide-beat: ================
«Periodic» «Tasks» ================ .. contents:: :local:`.

Line by line, and but for attribute lists (below) whatever the document's kind (a snippet shows
a few lines, and a rule that reads both reST and Markdown costs nothing there): lines made only
of adornment or table-border characters, reST targets, comments and substitution definitions, a
directive's option lines, MyST labels and fence lines are left out; a directive line keeps its
argument (`.. function:: parse(text)` → `parse(text)`), a Markdown heading loses its `#` marks,
and reST roles and inline literals read as their text (`catdoc.inline`). Code keeps its lines: a
query may be answered by a name in it.

In Markdown alone, whose pages do not show them, attribute lists are left out too, where
Python-Markdown's attr_list (or Pandoc) reads them: at a line's end (`## Title { #anchor }`, a
line `{: #id }`) or right after an inline element (`[a](b){: .c }`); but not in code, where the
page shows them as written: a code span, or a code block as `markup.scan_markdown` reads it. In
another kind the same characters are text or code (a regular expression's `{.*?}` in a reST
doctest)."""

from __future__ import annotations

import re

from catdoc.inline import read_inline
from catdoc.markup import ATTRIBUTE_LIST, Kind, scan_markdown

_BORDER = re.compile(r"[ \t]*[-=~^\"'`#*+:_|<>.]{2,}(?:[ \t]+[-=~^\"'`#*+:_|<>.]+)*[ \t]*$")
"""A title's adornment, a transition, a table's border, a Markdown rule or table separator."""
_DROPPED = re.compile(
    r"[ \t]*(?:"
    r"\.\.[ \t]+(?:_[^:]*|__):(?:[ \t].*)?"  # a reST target: `.. _label:`, `.. __: url`
    r"|\.\.[ \t]+\|[^|]+\|.*"  # a substitution definition
    r"|\.\.(?:[ \t]+(?![\w:.+-]+::)\S.*)?"  # a comment
    r"|\([^()\s]+\)=[ \t]*"  # a MyST label: `(label)=`
    r"|(?:`{3,}|~{3,}|:{3,}).*"  # a fence, opening or closing
    r")$"
)
_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+[\w:.+-]+::[ \t]*(?P<argument>.*)$")
_OPTION = re.compile(r"[ \t]*:[^:\s][^:]*:(?:[ \t].*)?$")
"""A directive's option (`:local:`, `:maxdepth: 2`), right under the directive."""
_MYST_OPENING = re.compile(r"[ \t]*(?:`{3,}|~{3,}|:{3,})[ \t]*\{")
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}[ \t]+(?P<text>.*?)(?:[ \t]+#+)?[ \t]*$")
_SPAN_OR_ATTRIBUTES = re.compile(
    r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)"  # a code span: kept as written
    rf"|(?<=[)\]`*])(?:{ATTRIBUTE_LIST.pattern})"  # right after a link, code span, emphasis
    rf"|(?:{ATTRIBUTE_LIST.pattern})(?=[ \t]*$)"  # ending a heading's or a block's line
)
"""A code span, or an attribute list where Python-Markdown's attr_list reads one: right after
an inline element, or at the end of a line (elsewhere, as in the math `x_{c=1}^{C}`, the braces
are shown)."""


def readable(text: str, kind: Kind) -> str:
    """`text`, of markup `kind`, with its markup lines left out and its inline markup read (see
    the module)."""
    kept: list[str] = []
    options = False  # the lines right under a directive are its options
    lines = text.splitlines()
    attributes = kind == "markdown" and "}" in text
    code = scan_markdown(lines).code if attributes else []
    for at, line in enumerate(lines):
        if options and _OPTION.match(line):
            continue
        options = False
        directive = _DIRECTIVE.match(line)
        if directive is not None:
            options = True
            line = directive.group("argument")
        elif _BORDER.match(line) or _DROPPED.match(line):
            options = _MYST_OPENING.match(line) is not None
            continue
        elif (heading := _HEADING.match(line)) is not None:
            line = heading.group("text")
        if attributes and "}" in line and not code[at]:
            line = _without_attribute_lists(line)
        if line.strip():
            kept.append(read_inline(line).text)
    return "\n".join(kept)


def _without_attribute_lists(line: str) -> str:
    """A Markdown line without its attribute lists, but those in code spans (shown as written)."""
    shown = _SPAN_OR_ATTRIBUTES.sub(lambda span: span.group() if span.group(1) else "", line)
    return shown.rstrip() if shown != line else line
