"""Document markup: which kind a file is, and its structure (headings, and lines that are code).

The kind comes from the suffix, then from the text itself for plain-text suffixes: Django's docs,
for one, are reStructuredText in `.txt` files (`sniff_kind`); `.adoc`/`.asciidoc` files are
AsciiDoc. The structure scans are linear in the text (no regex here can backtrack more than a
line's length) and never raise.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Literal

from catdoc.inline import role_text

Kind = Literal["markdown", "rst", "asciidoc", "text"]

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdx"})
RST_SUFFIXES = frozenset({".rst", ".rest"})
ASCIIDOC_SUFFIXES = frozenset({".adoc", ".asciidoc"})
DOCUMENT_SUFFIXES = MARKDOWN_SUFFIXES | RST_SUFFIXES | ASCIIDOC_SUFFIXES | {".txt", ".text"}
"""Suffixes a directory import picks up; an explicitly named file may be any text file."""

SNIFF_CHARS = 64 * 1024
"""How much of a plain-text file `sniff_kind` looks at: reST shows itself in its first lines."""


@dataclass(frozen=True)
class Heading:
    first: int  # index of the heading's first line (overline / title line)
    last: int  # index of its last line (underline for setext and rst titles)
    level: int
    title: str


@dataclass
class Structure:
    """A document's headings, and for each line whether it is code (never prose)."""

    headings: list[Heading] = field(default_factory=list)
    code: list[bool] = field(default_factory=list)
    names: list[tuple[int, str]] = field(default_factory=list)
    """(line index, name) of each reST or MyST directive's `:name:` option: a target `:ref:`
    names; in AsciiDoc each id an xref may name (`asciidoc_ids`), several to a line maybe."""
    labels: list[tuple[int, str]] = field(default_factory=list)
    """(line index, label) of each MyST directive's `:label:` option (`label:` in its YAML
    block): mystmd's name for a target, which MyST-Parser does not read
    (`catdoc.importer.mystmd`)."""
    substitutions: dict[str, str] = field(default_factory=dict)
    """reST `.. |name| replace:: text` definitions, by `substitution_key` of the name: what a
    `|name|` in a title or a docinfo field reads as."""
    fences: list[int] = field(default_factory=list)
    """Line index of each Markdown fence's opening line (a MyST directive's too: ```` ```{toctree}
    ````), told apart from a line of indented code or of another fence."""
    fence_ends: dict[int, int] = field(default_factory=dict)
    """Each fence's opening line → the line that closes it, or a fence around it (as MyST reads
    a directive's body to its closing line first); the number of lines for one never closed,
    which runs to the end as CommonMark reads it. Its body is the lines between."""
    directives: list[int] = field(default_factory=list)
    """Line index of each reST directive's opening line (`.. name::`) outside code: a code-like
    directive's line is code itself (`.. literalinclude::`), so `code` alone cannot tell it
    from a line of a code block."""


# ---------------------------------------------------------------------------------- kind
def kind_of(path: str | Path) -> Kind:
    """The markup of a file, from its suffix alone: markdown, rst, asciidoc, or plain text."""
    suffix = Path(path).suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix in RST_SUFFIXES:
        return "rst"
    if suffix in ASCIIDOC_SUFFIXES:
        return "asciidoc"
    return "text"


def sniff_kind(path: str | Path, text: str) -> Kind:
    """The markup of a file from its suffix, and for a plain-text file from its text: reST
    when it has a section title whose adornment is at least as long as the title, a
    `.. directive::` or `.. _label:` line, or a `:role:`target`` (looked for in the first
    `SNIFF_CHARS` characters). Every reader of documents (import, search) calls this one."""
    kind = kind_of(path)
    if kind != "text":
        return kind
    return "rst" if looks_like_rst(text) else "text"


_RST_EXPLICIT = re.compile(r"[ \t]*\.\.[ \t]+(?:_\S|[A-Za-z][\w:+.-]{0,60}::(?:[ \t]|$))")
_RST_ROLE = re.compile(r"(?<![\w`]):[A-Za-z][\w+.-]{0,40}(?::[A-Za-z][\w+.-]{0,40}){0,3}:`[^`\s]")


def looks_like_rst(text: str) -> bool:
    """Whether the start of a plain-text document has reST structure (see `sniff_kind`)."""
    head = text[:SNIFF_CHARS].replace("\r\n", "\n").replace("\r", "\n")
    if _RST_ROLE.search(head):
        return True
    lines = head.split("\n")
    for i, line in enumerate(lines):
        if line.startswith((".", " ", "\t")) and _RST_EXPLICIT.match(line):
            return True
        if i and _RST_ADORN.match(line):
            title = lines[i - 1].rstrip()
            if (
                title
                and title[0] not in " \t"
                and not _RST_ADORN.match(title)
                and len(line.rstrip()) >= max(3, len(title))
            ):
                return True
    return False


# ---------------------------------------------------------------------------------- structure
_ATX = re.compile(r"(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"(=+|-+)[ \t]*$")
_FENCE = re.compile(r"(`{3,}|~{3,}|:{3,})(.*)$")
FENCE_STARTS = ("```", "~~~", ":::")
"""How a line that opens or closes a fence starts (colons: a MyST directive's)."""
_MYST_DIRECTIVE = re.compile(r"[ \t]*\{([A-Za-z][\w:+.-]{0,63})\}(?:[ \t]|$)")
"""A fence's info string naming a MyST directive (```` ```{note} ````, ```` ```{figure} a.png ````);
`{.python}` and `{#id}` are Pandoc-style attributes of a code block, not directives."""
_MYST_NAME = re.compile(r":?name:[ \t]*(.*)$")
"""A MyST directive's `:name:` option (`name:` in its YAML block): a target `{ref}` names."""
_MYST_LABEL = re.compile(r":?label:[ \t]*(.*)$")
"""A MyST directive's `:label:` option (`label:` in its YAML block): mystmd's target name."""
_ATTRIBUTE = r"""(?:[#.][^\s{}"'=#.][^\s{}"'=]*|[\w-]+=(?:"[^"\n]*"|'[^'\n]*'|[^\s"'}]+))"""
ATTRIBUTE_LIST = re.compile(r"\{:?[ \t]*" + _ATTRIBUTE + r"(?:[ \t]+" + _ATTRIBUTE + r")*[ \t]*\}")
"""A Markdown attribute list (`## Title { #anchor .class }`, `{: #id }`, `[a](b){: .c }`:
Python-Markdown's attr_list, Pandoc, kramdown, MyST): it gives the element before it an anchor,
classes or attributes, is not shown, and refers to nothing."""
_LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_ADMONITION = re.compile(r"(?:!!!|\?\?\?\+?)[ \t]+[A-Za-z]")
"""An MkDocs admonition (`!!! note "Title"`, `??? tip`): Markdown indented under it follows."""
_RST_ADORN = re.compile(r"([!-/:-@\[-`{-~])\1*[ \t]*$")
"""A reST adornment line: one punctuation character repeated (docutils' `line` pattern), of any
length; whether it makes a title depends on the title's width (`scan_rst`)."""
RST_SHORT_ADORNMENT = 4
"""An adornment narrower than its title still makes it a title (docutils warns) from this
length on; a shorter one is ordinary text, so `--` under a sentence is no title but `if`/`==`
is one."""
_RST_DIRECTIVE = re.compile(
    r"\.\.[ \t]+(?:\|[^|\n]{1,200}\|[ \t]+)?([A-Za-z0-9][\w:+.-]{0,100}?)[ \t]*::(?:[ \t]|$)"
)
_RST_OPTION = re.compile(r":[^:\s][^:\n]{0,100}:(?:[ \t]|$)")
URI_SCHEME = r"[a-zA-Z][a-zA-Z0-9+.-]*"
"""A URI's scheme (RFC 3986: `https`, `mailto`, MyST's `project`, mystmd's `xref`), before `:`."""
MYST_PROJECT = "project:"
"""MyST's scheme for a path or target in the project (`[](project:usage.md)`, `project:#x`)."""
_RST_ENUMERATOR = r"(?:\d+|#|[A-Za-z]|[ivxlcdm]+|[IVXLCDM]+)"
RST_LIST_MARKER = rf"(?:[-*+\u2022\u2023\u2043]|\({_RST_ENUMERATOR}\)|{_RST_ENUMERATOR}[.)])[ \t]+"
"""A list item's bullet (`-`, `*`, `+`, `•`, `‣`, `⁃`) or enumerator (`1.`, `a)`, `(iv)`, `#.`)
and the space after it."""
_RST_ITEM_MARKUP = re.compile(RST_LIST_MARKER + r"(?=\.\.(?:[ \t]|$))")
"""A list item's marker followed by explicit markup (`- .. code-block:: python`): docutils
reads the markup as the item's first body element, at the column after the marker."""
_RST_REPLACE = re.compile(r"\.\.[ \t]+\|([^|\n]{1,200})\|[ \t]+replace[ \t]*::(.*)$")
RST_CODE_DIRECTIVES = frozenset(
    {
        "code",
        "code-block",
        "sourcecode",
        "literalinclude",
        "highlight",
        "doctest",
        "testcode",
        "testoutput",
        "testsetup",
        "testcleanup",
        "raw",
        "math",
        "productionlist",
        "parsed-literal",
        "console",
        "prompt",
        "ipython",
        "code-cell",
        "jupyter-execute",
        "graphviz",
        "digraph",
        "graph",
        "mermaid",
        "plantuml",
        "uml",
    }
)
"""Directives whose content (and arguments, and options) is code or data, never prose."""
MYST_VERBATIM_DIRECTIVES = RST_CODE_DIRECTIVES | {"eval-rst", "toctree", "autosummary", "include"}
"""MyST directives whose body is not Markdown: the code-like ones of reST, `eval-rst` (its body
is reST, whose references a Markdown reading would not see), the lists of entries (a `toctree`'s,
an `autosummary`'s) and `include` (which shows no body). Every other directive's body is Markdown
(MyST parses it as a nested document: admonitions, figures, `list-table`, `csv-table` cells,
autodoc bodies …)."""
MAX_DIRECTIVE_NESTING = 20
"""MyST directives inside directives read as Markdown; a deeper one's body is read as code, so
that a line is compared with at most this many open fences and the scan stays linear."""


@dataclass
class Fence:
    """An open fence of a Markdown text: a code block, or a MyST directive (```` ```{note} ````,
    `:::{note}`) whose body is Markdown unless it is `verbatim`."""

    char: str  # "`", "~" or ":"
    size: int  # a closing fence is at least this long
    limit: int  # … and indented less than this
    base: int  # the indent its body is read without (its opening line's)
    verbatim: bool = True  # its body is code, never prose
    options: Literal["", "start", ":", "---"] = ""  # where a directive's options stand, if
    # they may still follow: before its first line, in its `:key:` lines, in its YAML block
    in_list: bool = False  # whether its opening line was in a list item (back when it closes)


def open_fence(stripped: str, base: int, limit: int, depth: int) -> Fence | None:
    """The fence a line (`stripped`: without its indent `base`) opens, inside `depth` directives:
    a code fence, or a MyST directive, its body verbatim when the directive's is not Markdown
    (`MYST_VERBATIM_DIRECTIVES`) or it is nested too deep; None for anything else. A colon fence
    opens only a directive (`:::{note}`): without one it is a container of Markdown, as MyST's
    `colon_fence` makes it, or plain text without that extension."""
    match = _FENCE.match(stripped) if stripped[:3] in FENCE_STARTS else None
    if match is None:
        return None
    fence, info = match.groups()
    if fence[0] == "`" and "`" in info:
        return None  # a code span, as CommonMark reads it
    directive = _MYST_DIRECTIVE.match(info)
    if directive is None:
        return None if fence[0] == ":" else Fence(fence[0], len(fence), limit, base)
    verbatim = (
        directive.group(1).lower() in MYST_VERBATIM_DIRECTIVES or depth >= MAX_DIRECTIVE_NESTING
    )
    return Fence(fence[0], len(fence), limit, base, verbatim, "start")


def fence_directive(line: str) -> tuple[str, str] | None:
    """The MyST directive a fence's opening line (one of `Structure.fences`) names, lowercased as
    docutils looks names up, and the text after it (its argument); None for a code fence."""
    match = _FENCE.match(line.lstrip(" "))
    directive = _MYST_DIRECTIVE.match(match.group(2)) if match is not None else None
    if match is None or directive is None:
        return None
    return directive.group(1).lower(), match.group(2)[directive.end() :]


def closed_fence(fences: list[Fence], stripped: str, indent: int) -> int | None:
    """The index in `fences` (the open ones, outermost first) of the outermost fence a line
    closes: a fence of the same character, at least as long, with nothing after it. Those inside
    it end with it, as MyST reads a directive's body up to its closing line before it reads
    what the body holds (so a nested fence must be shorter than its directive's)."""
    if stripped[:3] not in FENCE_STARTS:
        return None
    char = stripped[0]
    size = len(stripped) - len(stripped.lstrip(char))
    if stripped[size:].strip():
        return None
    for at, fence in enumerate(fences):
        if fence.char == char and fence.size <= size and indent < fence.limit:
            return at
    return None


def directive_option(fence: Fence, text: str) -> bool:
    """Whether a line of a directive's body (`text`: without the directive's own indent) is one
    of the options MyST reads at the body's start: a YAML block between `---` lines, or the
    lines starting with `:` (`:class: tip`, but not a `:::{note}` fence). Moves `fence.options`
    on, to "" once the options have ended."""
    if fence.options == "---":
        if text.startswith("---"):  # the YAML block's closing line
            fence.options = ""
        return True
    if fence.options == "start" and text.startswith("---"):
        fence.options = "---"
        return True
    lead = text.lstrip()
    if lead.startswith(":") and not lead.lstrip(":").startswith("{"):
        fence.options = ":"
        return True
    fence.options = ""
    return False


def _autodoc_name(heading: str) -> str:
    """A heading's text, or the object an mkdocstrings heading documents (`# ::: griffe.Alias`
    renders as the object's name, `griffe.Alias`)."""
    return heading[3:].strip() if heading.startswith(":::") else heading


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def scan_markdown(lines: list[str]) -> Structure:
    """Headings (ATX and setext, never inside code) and which lines are code (fences, also
    inside list items, indented blocks and HTML comments; the indented content of a list item
    or an MkDocs admonition is not code).

    A fence whose info string names a MyST directive (```` ```{note} ````, `~~~{tip}`,
    `:::{note}`) holds Markdown, as MyST parses it: its opening and closing lines and the
    options at its start (`:key: value` lines, a `---` YAML block) are not prose, its body is
    read as a document of its own (fences, lists and indented code in it, not its container's),
    whose headings are no sections (MyST makes them rubrics). A directive whose body is not
    Markdown (`MYST_VERBATIM_DIRECTIVES`) is code like any other fence."""
    scan = Structure(code=[False] * len(lines))
    fences: list[Fence] = []  # the open ones, outermost first; only the last may be verbatim
    opened: list[int] = []  # their opening lines
    prev_para, prev_blank = False, True
    in_list = in_indented = in_comment = False
    for i, line in enumerate(lines):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        base = 0
        if fences:
            closed = closed_fence(fences, stripped, indent)
            if closed is not None:
                in_list = fences[closed].in_list
                scan.fence_ends.update(dict.fromkeys(opened[closed:], i))
                del fences[closed:], opened[closed:]
                scan.code[i] = True
                prev_para = prev_blank = in_indented = in_comment = False
                continue
            top = fences[-1]
            if top.options and directive_option(top, line[min(indent, top.base) :]):
                scan.code[i] = True
                name = _MYST_NAME.match(stripped) if "name" in stripped else None
                value = name.group(1).strip().strip("'\"") if name is not None else ""
                if value:
                    scan.names.append((i, value))
                label = _MYST_LABEL.match(stripped) if "label" in stripped else None
                value = label.group(1).strip().strip("'\"") if label is not None else ""
                if value:
                    scan.labels.append((i, value))
                continue
            if top.verbatim:
                scan.code[i] = True
                continue
            base = top.base
        if in_comment:  # an HTML comment: not shown, so not prose
            scan.code[i] = True
            in_comment = "-->" not in line
            continue
        indent = max(indent - base, 0)  # a directive's body is read without the fence's indent
        if not stripped.strip():
            prev_para, prev_blank = False, True
            continue
        if (indent >= 4 or line.startswith("\t")) and (in_indented or prev_blank) and not in_list:
            scan.code[i] = in_indented = True
            prev_para = prev_blank = False
            continue
        in_indented = False
        was_blank, prev_blank = prev_blank, False
        if (indent < 4 or in_list) and stripped[:3] in FENCE_STARTS:
            # a closing fence may be indented 3 more than its container's content
            limit = base + (indent if in_list else 0) + 4
            fence = open_fence(stripped, base + indent, limit, len(fences))
            if fence is not None:
                scan.code[i] = True
                scan.fences.append(i)
                prev_para = False
                fence.in_list = in_list
                fences.append(fence)
                opened.append(i)
                if not fence.verbatim:  # its body: a document of its own
                    in_list, prev_blank = False, True
                continue
        if indent < 4 and stripped.startswith("<!--"):
            end = stripped.find("-->", 4)
            if end == -1 or not stripped[end + 3 :].strip():  # text after it is shown
                scan.code[i] = True
                in_comment = end == -1
                prev_para = False
                continue
        if indent < 4 and stripped[0] == "#":
            match = _ATX.match(stripped)
            if match:
                if not fences:
                    title = plain_markdown(_autodoc_name(match.group(2) or ""))
                    scan.headings.append(Heading(i, i, len(match.group(1)), title))
                prev_para = False
                continue
        if indent < 4 and prev_para and stripped[0] in "=-" and _SETEXT.match(stripped):
            if not fences:
                title = plain_markdown(lines[i - 1])
                scan.headings.append(Heading(i - 1, i, 1 if stripped[0] == "=" else 2, title))
            prev_para = False
            continue
        if indent < 4 and (_LIST_ITEM.match(stripped) or _ADMONITION.match(stripped)):
            in_list, prev_para = True, False  # its indented lines are its content, not code
            continue
        if indent == 0 and was_blank:
            in_list = False
        prev_para = indent < 4 and stripped[0] not in ">|<"
    scan.fence_ends.update(dict.fromkeys(opened, len(lines)))
    return scan


_MD_LINK_DEFINITION = re.compile(r" {0,3}\[[^\]\n]{1,999}\]:[ \t]*\S")
_MD_DECORATION = re.compile(
    r"\[?!\[[^\]\n]{0,999}\][ \t]*(?:\([^()\n]{0,2000}\)|\[[^\]\n]{0,999}\])"  # an image
    r"(?:\][ \t]*(?:\([^()\n]{0,2000}\)|\[[^\]\n]{0,999}\]))?"  # … maybe linked
    r"|</?(?:img|a|p|div|picture|source|br|span)(?:[ \t][^<>\n]{0,2000})?/?>"  # the HTML of one
)


def markdown_title(lines: list[str], scan: Structure) -> str | None:
    """A Markdown document's title from its headings: the first level-1 heading (`#` or `===`),
    else the first heading when it opens the document (`opens_markdown`) and no later heading
    is of its level or above (a lone `## Title` over `###` sections reads
    as the page's title; the first of several `##` sections, or of a changelog's `## 1.2`
    releases, does not); else None."""
    headings = [h for h in scan.headings if h.title]
    for heading in headings:
        if heading.level == 1:
            return heading.title
    if not headings or not opens_markdown(lines, headings[0].first):
        return None
    first = headings[0]
    return first.title if all(h.level > first.level for h in headings[1:]) else None


def opens_markdown(lines: list[str], at: int) -> bool:
    """Whether line `at` opens a Markdown document: nothing shown comes before it but images and
    badges (`[![build](badge.svg)](ci)`, `<img …>`, `<p align=…>` and
    `<a>` around them). Blank lines, HTML comments and link definitions show nothing."""
    comment = False
    for line in lines[:at]:
        rest = line.strip()
        if comment or rest.startswith("<!--"):
            end = rest.find("-->")
            comment = end == -1
            rest = "" if comment else rest[end + 3 :].strip()
        if rest and not _MD_LINK_DEFINITION.match(line) and _MD_DECORATION.sub("", rest).strip():
            return False
    return True


_RST_MODULE = re.compile(
    r"\.\.[ \t]+(?:py:)?(?:auto|current)?module[ \t]*::[ \t]+([^\s:][^\s]{0,200})[ \t]*$"
)


def rst_module_title(lines: list[str], scan: Structure) -> str | None:
    """The module a reST document without a title documents, as Sphinx's API pages name it:
    the argument of its first top-level `.. module::`, `.. automodule::` or `.. currentmodule::`
    (`py:` prefixed too), `celery.app.amqp` for a page that is only `.. automodule::` output."""
    for i, line in enumerate(lines):
        if line.startswith(".."):
            match = _RST_MODULE.match(line)
            if match and not scan.code[i]:
                return match.group(1)
    return None


def scan_rst(lines: list[str]) -> Structure:
    """Section titles (underlined, optionally overlined), and the lines that are not prose:
    literal blocks (after `::`), code-like directives with their options and content
    (`RST_CODE_DIRECTIVES`), comments, doctest blocks (`>>>` to the next blank line), anonymous
    targets (`__ url`) and the continued URLs of targets, and the
    option lines (`:caption: …`) right under any directive, whose `:name:` is kept.

    A title is a line under an adornment (`_RST_ADORN`), or between an overline and the same
    underline, as docutils reads them: an adornment at least as wide as the title, or of
    `RST_SHORT_ADORNMENT` characters or more; a substitution reference in it reads as its
    `replace::` text, or as nothing (`substitute_rst`)."""
    scan = Structure(code=[False] * len(lines))
    titles: list[tuple[int, int, int, str]] = []  # first, last, level, title as written
    prose = [False] * len(lines)  # flush-left paragraph text: no title or overline right under
    styles: list[tuple[str, bool]] = []
    code_indent: int | None = None  # lines indented deeper than this are code
    code_options = False  # whether a code-like directive's option lines may follow
    options_of: int | None = None  # indent of the directive whose option lines may follow
    option_at: int | None = None  # indent of the option lines seen under that directive
    target_of: int | None = None  # indent of a `.. _name: url` or `__ url` target continued
    doctest = False
    prev_blank = True
    for i, line in enumerate(lines):
        blank = not line.strip()
        if code_indent is not None:
            if blank or indent_of(line) > code_indent:
                scan.code[i] = not blank
                if code_options:
                    option_at = _option_indent(scan, i, line, option_at)
                    code_options = option_at is not None
                continue
            code_indent = None
        if doctest:
            if not blank:
                scan.code[i] = True
                continue
            doctest = False
        if blank:
            options_of = target_of = None
            prev_blank = True
            continue
        was_blank, prev_blank = prev_blank, False
        stripped = line.rstrip()
        lead = stripped.lstrip()
        indent = len(stripped) - len(lead)
        if options_of is not None:
            if indent > options_of:
                option_at = _option_indent(scan, i, line, option_at)
                if option_at is not None:
                    scan.code[i] = True
                    continue
            options_of = None
        after_target = target_of is not None
        if target_of is not None:
            if indent > target_of:
                scan.code[i] = True
                continue
            target_of = None
        if (lead == "__" or lead.startswith("__ ")) and (was_blank or after_target):
            scan.code[i] = True  # an anonymous target (`__ url`): a URL, no prose, no label
            target_of = indent  # its URL may go on, indented, below
            continue
        if was_blank and (lead == ">>>" or lead.startswith(">>> ")):
            scan.code[i] = doctest = True
            continue
        item = _RST_ITEM_MARKUP.match(lead) if ".." in lead else None
        if item is not None:  # explicit markup opens a list item: its body's column counts
            indent += item.end()
            lead = lead[item.end() :]
        kind = explicit_kind(lead) if lead.startswith("..") else "text"
        if kind in ("code", "directive"):
            scan.directives.append(i)
        if kind in ("code", "comment"):
            scan.code[i] = True
            code_indent = indent
            code_options, option_at = kind == "code", None
            continue
        if kind != "text":
            if kind == "directive":
                options_of, option_at = indent, None
                _replacement(scan.substitutions, lines, i, indent)
            elif kind == "target":
                target_of = indent
            elif stripped.endswith("::"):
                code_indent = indent
            continue
        if stripped.endswith("::"):
            code_indent = indent
        prose[i] = not indent
        if i == 0 or not _RST_ADORN.match(line):
            continue
        title = lines[i - 1]
        if not title.strip() or _RST_ADORN.match(title) or scan.code[i - 1]:
            continue
        over = i >= 2 and lines[i - 2].rstrip() == stripped and (i == 2 or not prose[i - 3])
        if title[0] in " \t" and not over:
            continue  # only a title between two adornment lines may be inset
        if not over and i >= 2 and prose[i - 2]:
            continue  # the title line goes on a paragraph
        if len(stripped) < RST_SHORT_ADORNMENT and len(stripped) < column_width(title.rstrip()):
            continue  # too short for its title: docutils reads both lines as text
        prose[i] = prose[i - 1] = False
        style = (stripped[0], over)
        if style not in styles:
            styles.append(style)
        titles.append((i - 2 if over else i - 1, i, styles.index(style) + 1, title))
    subs = scan.substitutions
    scan.headings = [
        Heading(first, last, level, plain_rst(substitute_rst(title, subs)))
        for first, last, level, title in titles
    ]
    return scan


def column_width(text: str) -> int:
    """The columns `text` takes, as docutils counts them for a title's adornment: East Asian
    wide and full-width characters take two, combining characters none."""
    if text.isascii():
        return len(text)
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def substitution_key(name: str) -> str:
    """A substitution's name as docutils matches a reference to it: whitespace collapsed, and
    case ignored (docutils tries the exact case first; two names differing only in case are
    rare enough to share one key)."""
    return " ".join(name.split()).casefold()


def _replacement(subs: dict[str, str], lines: list[str], i: int, indent: int) -> None:
    """Keep the text of a `.. |name| replace:: text` at line `i` (continued on the lines indented
    under it, up to a blank line); the first definition of a name wins, as in docutils."""
    match = _RST_REPLACE.match(lines[i].strip())
    if match is None:
        return
    parts = [match.group(2).strip()]
    for line in lines[i + 1 : i + 1 + _MAX_REPLACEMENT_LINES]:
        if not line.strip() or indent_of(line) <= indent:
            break
        parts.append(line.strip())
    subs.setdefault(substitution_key(match.group(1)), " ".join(p for p in parts if p))


_MAX_REPLACEMENT_LINES = 50
_RST_SUBSTITUTION_REF = re.compile(
    r"(``[^`\n]+``)"  # an inline literal: kept as written
    r"|(?<![\w|])\|(?![\s|])([^|\n]{1,200}?)(?<!\s)\|(?:__?)?(?![\w|])"  # |name|, |name|_
)
_SPACE_RUNS = re.compile(r"[ \t]{2,}")


def substitute_rst(text: str, substitutions: Mapping[str, str], depth: int = 0) -> str:
    """reST text with each substitution reference (`|name|`, `|name|_`) replaced by its
    `replace::` text (itself substituted, to depth 3), or dropped when the document defines no
    text for it (Sphinx's `|version|`, `|today|`, an image), runs of spaces then collapsed:
    `Scrapy |version| documentation` → `Scrapy documentation`. Inline literals are kept."""
    if "|" not in text:
        return text

    def replaced(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return match.group(1)
        value = substitutions.get(substitution_key(match.group(2)), "")
        return substitute_rst(value, substitutions, depth + 1) if depth < 3 else value

    result = _RST_SUBSTITUTION_REF.sub(replaced, text)
    return _SPACE_RUNS.sub(" ", result).strip() if result != text else text


def _option_indent(scan: Structure, i: int, line: str, option_at: int | None) -> int | None:
    """Under a directive whose option lines so far stand at `option_at`: their indent while line
    `i` is one of them (a `:name:` is kept in `scan.names`) or continues one's value on a deeper
    line, else None (the options have ended)."""
    lead = line.strip()
    indent = len(line) - len(line.lstrip())
    if not lead:
        return None
    if option_at is not None and indent > option_at:
        return option_at
    if not _RST_OPTION.match(lead):
        return None
    if lead.startswith(":name:") and lead[6:].strip():
        scan.names.append((i, lead[6:].strip()))
    return indent


_MD_TITLE_MARKUP = re.compile(
    r"\{([A-Za-z][\w:+.-]{0,63})\}`([^`\n]{1,300})`"  # a MyST role: what it shows
    r"|(`{1,8}+)(?!`)([^\n]{1,300}?)(?<!`)\3(?!`)"  # a code span: its text
    r"|!?\[((?:[^\[\]\n]|\[[^\[\]\n]{0,300}\]){0,300})\]"  # a link, an image: their text
    r"(?:\([^()\n]{0,300}\)|\[[^\[\]\n]{0,300}\])"
    r"|(?<![\w\\])(\*\*|__|\*|_)(?=\S)([^\n]{1,300}?)(?<=\S)(?<!\\)\6(?!\w)"  # emphasis
    r"|\\([!-/:-@\[-`{-~])"  # an escaped character: itself
    r"|(&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"  # an entity
)
_MD_TITLE_ATTRS = re.compile(rf"(?<=[ \t])(?:{ATTRIBUTE_LIST.pattern})[ \t]*$")
"""A heading's trailing attribute list (`ATTRIBUTE_LIST`) after a space: its anchor and
classes, not shown. The space is looked behind, not matched, so a run of spaces is not scanned
again from each of its characters."""
_MD_CLOSING_HASHES = re.compile(r"(?<=[ \t])#+[ \t]*$")
"""A heading's closing `#`s, after a space (looked behind, as above; the spaces before them go
with the title's final strip)."""
_MD_TITLE_MARK = re.compile(r"[`*_\[{\\&<]")
_MD_TITLE_MAX = 2000
"""Longer headings are taken as written: every span of markup is bounded, so this bounds the
work on a line written to be slow."""


def without_html_comments(line: str) -> str:
    """A Markdown line with its HTML comments (`<!-- … -->`) blanked, in one pass."""
    return cut_spans(line, "<!--", "-->", blank=True)


def cut_spans(text: str, start: str, end: str, *, blank: bool = False) -> str:
    """`text` without each `start`…`end` span (blanked instead, keeping columns, with `blank`),
    the first `end` after a `start` closing it, in one pass: where an expression such as
    `<!--.*?-->` retries from every later `start` of a text with no `end` after it, no later
    `start` can find one either."""
    kept: list[str] = []
    at = 0
    while (opened := text.find(start, at)) != -1:
        closed = text.find(end, opened + len(start))
        if closed == -1:
            break
        kept.append(text[at:opened])
        if blank:
            kept.append(" " * (closed + len(end) - opened))
        at = closed + len(end)
    kept.append(text[at:])
    return "".join(kept)


def plain_markdown(title: str) -> str:
    """A Markdown heading as it reads: code spans, links, images, MyST roles and emphasis
    replaced by their text, entities by their character, a trailing attribute list (`{ #anchor }`)
    and escapes dropped
    (`` `pyproject.toml` `` → `pyproject.toml`, `[The *guide*](g.md)` → `The guide`)."""
    title = title.strip()
    if len(title) > _MD_TITLE_MAX:
        return title
    if _MD_TITLE_MARK.search(title) is None:  # most headings: plain words
        return title
    if "<!--" in title:
        title = without_html_comments(title).strip()
    if "{" in title:  # and the closing #s it may follow (`## Title ## {: #id }`)
        title = _MD_CLOSING_HASHES.sub("", _MD_TITLE_ATTRS.sub("", title))
    return _md_plain(title, 0).strip()


def _md_plain(text: str, depth: int) -> str:
    """One pass over `text`; a link's or emphasis's own text is read again (to depth 3), a code
    span's never, so `` `*x*` `` keeps its stars."""
    if depth > 3:
        return text
    return _MD_TITLE_MARKUP.sub(partial(_md_markup_text, depth=depth), text)


def _md_markup_text(match: re.Match[str], depth: int) -> str:
    role, _, code, code_text, link, _, emphasis, escaped, entity = match.groups()
    if entity is not None:
        return html.unescape(entity)
    if role is not None:
        return role_text(role, match.group(2))[0].strip()
    if code is not None:
        return code_text.strip() or code_text
    if escaped is not None:
        return escaped
    return _md_plain(link if link is not None else emphasis, depth + 1)


_RST_TITLE_MARKUP = re.compile(
    r":([A-Za-z0-9][\w:+.-]{0,100}):`([^`]*)`"  # a role: what it shows
    r"|``([^`]+)``"  # an inline literal: its text
    r"|`([^`]+)`_{0,2}"  # interpreted text or a hyperlink reference: its text
    r"|(?<!\w)\*{1,2}([^*\s][^*]*)\*{1,2}(?!\w)"  # emphasis, strong
    r"|(?<![\w`])([A-Za-z0-9](?:[\w.+-]*[A-Za-z0-9])?)__?(?![\w`])"  # a reference: `Docutils_`
)


def plain_rst(title: str) -> str:
    """A reST title as it reads: roles, literals, emphasis and hyperlink references replaced
    by their text (`:mod:`sphinx.ext.todo` -- Todo` → `sphinx.ext.todo -- Todo`, `Docutils_
    Hacker's Guide` → `Docutils Hacker's Guide`)."""
    title = title.strip()
    if "`" not in title and "*" not in title and "_" not in title:
        return title
    return _RST_TITLE_MARKUP.sub(_markup_text, title).strip()


def _markup_text(match: re.Match[str]) -> str:
    if match.group(1) is not None:
        return role_text(match.group(1), match.group(2))[0].strip()
    text = next(group for group in match.groups()[2:] if group is not None)
    if match.group(4) is not None and text.endswith(">") and text.find("<", 1) > 0:
        return text[: text.find("<", 1)].strip()
    return text


def explicit_kind(lead: str) -> str:
    """What an explicit markup line (`..` at its start) opens: a code-like directive ("code"),
    another directive, a target, a footnote or citation, a substitution, or a comment."""
    if lead == "..":
        return "comment"
    if not lead.startswith((".. ", "..\t")):
        return "text"  # `...` or `..word`: an ellipsis in prose
    rest = lead[3:].lstrip()
    directive = _RST_DIRECTIVE.match(lead)
    if directive:
        return "code" if directive.group(1).lower() in RST_CODE_DIRECTIVES else "directive"
    if rest.startswith("_"):
        return "target"
    if rest.startswith("["):
        return "footnote"
    if rest.startswith("|"):
        return "substitution"
    return "comment"


ADOC_VERBATIM_STYLES = frozenset(
    {
        "source",
        "listing",
        "literal",
        "pass",
        "stem",
        "latexmath",
        "asciimath",
        "comment",
        "plantuml",
        "graphviz",
        "ditaa",
        "mermaid",
    }
)
"""AsciiDoc block styles (`[source,python]`, `[comment]` …) whose block is code or data: on a
paragraph, or on an open block (`--`), they make it verbatim as a `----` block is."""
_ADOC_SETEXT_LEVELS = {"=": 1, "-": 2, "~": 3, "^": 4, "+": 5}
_ADOC_ATTRIBUTE_ENTRY = re.compile(r":(!?\w[\w-]{0,100}!?):(?:[ \t]+(.*)|[ \t]*)$")
_ADOC_BLOCK_MACRO = re.compile(r"[A-Za-z][\w-]{0,40}::[^\s\[]*\[")
_ADOC_PREPROCESSOR = ("include::", "ifdef::", "ifndef::", "ifeval::", "endif::")
"""Lines that look like block macros but make no block: block attributes before one are the
next block's."""


_ADOC_ID = r"[A-Za-z_:][\w:.-]{0,255}+"
_ADOC_INLINE_ID = re.compile(
    rf"\[\[\[?({_ADOC_ID})(?:,[^\]\n]{{0,500}}+)?\]\]\]?"  # [[id]], [[id,reftext]], [[[bib]]]
    rf"|(?<![\w\\])anchor:({_ADOC_ID})\["  # anchor:id[reftext]
    r"|\[#([A-Za-z_:][\w:-]{0,255}+)[^\]\n]{0,500}+\]#"  # [#id.role]#marked text#
)
"""An anchor inside a line of prose or a title: each names the id an xref may point to. Ids,
roles and reference texts are bounded and never given back: a line of many openings with no
close (`[#a[#a…`, `anchor:a` over and over) would otherwise be scanned to its end from each."""
_ADOC_SHORTHAND_ID = re.compile(r"[^,#\[\]]*#([A-Za-z_:][\w:-]*)")
"""The id of a block attribute list's shorthand (`[source#id.role%option]`): up to a role."""
_ADOC_NAMED_ID = re.compile(rf"(?:^|,)[ \t]*id[ \t]*=[ \t]*[\"']?({_ADOC_ID})")
_ADOC_SECTION_ID_DROP = re.compile(
    r"<[^>]+>|&(?:[a-z][a-z]+\d{0,2}|#\d\d\d{0,4}|#x[\da-f][\da-f][\da-f]{0,3});|[^ \w\-.]+?"
)


@dataclass
class _AdocIds:
    """The ids an AsciiDoc document defines as Asciidoctor registers them: explicit anchors and
    block ids, and each section's id, generated from its title unless one is given
    (`_section_title`, shaped by the `idprefix` and `idseparator` attributes, `_2` … for a
    repeat; none under `:sectids!:`)."""

    found: list[tuple[int, str]]
    pending: list[str] = field(default_factory=list)  # block ids waiting for their block
    taken: set[str] = field(default_factory=set)
    repeats: dict[str, int] = field(default_factory=dict)
    """The count to try next for a repeated id (`_a_` → 3 once `_a_2` is taken): ids are never
    given back, so counting from 2 again would only make many repeats quadratic."""
    prefix: str = "_"
    separator: str = "_"
    sectids: bool = True

    def add(self, i: int, ident: str) -> None:
        if "{" not in ident:
            self.found.append((i, ident))
            self.taken.add(ident)

    def entry(self, line: str) -> None:
        """An attribute entry that shapes section ids."""
        match = _ADOC_ATTRIBUTE_ENTRY.match(line)
        if match is None:
            return
        name, value = match.group(1), (match.group(2) or "").strip()
        unset = name.startswith("!") or name.endswith("!")
        name = name.strip("!")
        if name == "sectids":
            self.sectids = not unset
        elif name == "idprefix":
            self.prefix = "_" if unset else value
        elif name == "idseparator":
            self.separator = "_" if unset else value[:1]

    def block(self, line: str) -> None:
        """A block attribute line or anchor (`[[id]]`, `[#id]`, `[source#id]`, `[id=x]`)."""
        match = _ADOC_INLINE_ID.fullmatch(line)
        if match is not None and match.group(1):
            self.pending.append(match.group(1))
            return
        inner = line[1:-1]
        first = inner.split(",", 1)[0]
        shorthand = _ADOC_SHORTHAND_ID.match(first) if "#" in first else None
        named = _ADOC_NAMED_ID.search(inner) if "id" in inner else None
        for found in (shorthand, named):
            if found is not None:
                self.pending.append(found.group(1))

    def flush(self, i: int) -> bool:
        """Give the waiting block ids to the block at line `i`; whether there were any."""
        ids, self.pending = self.pending, []
        for ident in ids:
            self.add(i, ident)
        return bool(ids)

    def inline(self, i: int, line: str) -> None:
        if "[" in line or "anchor:" in line:
            for match in _ADOC_INLINE_ID.finditer(line):
                self.add(i, next(group for group in match.groups() if group))

    def section(self, i: int, title: str) -> None:
        """A section title's id: its block id, else one generated from its title."""
        if self.flush(i) or not self.sectids:
            return
        sep = self.separator
        ident = self.prefix + _ADOC_SECTION_ID_DROP.sub("", title.lower())
        if sep:
            ident = re.sub(f"[ {re.escape(sep)}.-]+", sep, ident).removesuffix(sep)
            if not self.prefix:
                ident = ident.removeprefix(sep)
        else:
            ident = ident.replace(" ", "")
        if ident in self.taken:
            stem = f"{ident}{sep}"
            count = self.repeats.get(stem, 2)
            while f"{stem}{count}" in self.taken:
                count += 1
            self.repeats[stem] = count + 1
            ident = f"{stem}{count}"
        self.add(i, ident)


def scan_asciidoc(lines: list[str]) -> Structure:
    """Section titles (`= Title` to `====== Title`, Markdown-style `## Title`, and the legacy
    two-line titles underlined with `=-~^+` as long as the title, give or take one), and the
    lines that are not prose: the document header (the lines right under the document title:
    author, revision, attribute entries), delimited listing, literal, passthrough and comment
    blocks (`----`, `....`, `++++`, `////`, fenced ```` ``` ````; each closed only by its very
    opening line, as AsciiDoc requires), every block delimiter line (the content of example,
    sidebar, quote, open blocks and tables is prose), `//` comments, attribute entries
    (`:name: value`) and block attribute lines (`[source,python]`, `[[anchor]]`, `[#id]`), block
    macros (`include::…[]`, `image::…[]`, `ifdef::…[]`), breaks (`'''`, `<<<`), list
    continuations (`+`), literal paragraphs (indented at their first line), and paragraphs and
    open blocks styled verbatim (`ADOC_VERBATIM_STYLES`). The ids an xref may name are its
    `names` (`_AdocIds`)."""
    scan = Structure(code=[False] * len(lines))
    ids = _AdocIds(scan.names)
    closer: str | None = None  # the line that closes the open verbatim block
    verbatim_paragraph = False  # in a literal paragraph or one styled verbatim, to a blank line
    continued = False  # an attribute entry's value goes on (it ended in `\`)
    in_paragraph = False  # the line before was prose of a paragraph
    styled = False  # a block attribute line asked for a verbatim next block
    underline: int | None = None  # the index of a two-line title's underline
    header = False  # under the document title, before the first blank line
    prose = False  # a paragraph came before: a title now is a section's, with no header
    for i, line in enumerate(lines):
        stripped = line.rstrip()
        if closer is not None:
            scan.code[i] = True
            if stripped == closer:
                closer = None
            continue
        if i == underline:
            scan.code[i] = True
            continue
        if not stripped:
            verbatim_paragraph = continued = in_paragraph = header = False
            continue
        if verbatim_paragraph or continued or header:
            scan.code[i] = True
            if header and not continued and stripped[0] == ":":
                ids.entry(stripped)
            continued = continued and stripped.endswith("\\")
            continue
        delimiter = adoc_delimiter(stripped)
        if delimiter is not None:
            ids.flush(i)
            scan.code[i] = True
            if delimiter or (styled and stripped == "--"):
                closer = "```" if stripped.startswith("```") else stripped
            in_paragraph = styled = False
            continue
        if stripped.startswith("//"):
            scan.code[i] = True  # a comment, even amid a paragraph
            continue
        if in_paragraph:
            if stripped == "+":
                scan.code[i], in_paragraph = True, False
            else:
                ids.inline(i, stripped)
            continue
        scan.code[i] = True
        if line[0] in " \t":
            ids.flush(i)
            verbatim_paragraph, styled = True, False
            continue
        if stripped[0] == "[" and stripped[-1] == "]" and _adoc_block_attributes(stripped):
            styled = styled or _adoc_style(stripped) in ADOC_VERBATIM_STYLES
            ids.block(stripped)
            continue
        if stripped[0] == ":" and _ADOC_ATTRIBUTE_ENTRY.match(stripped):
            ids.entry(stripped)
            continued = stripped.endswith("\\")
            continue
        if stripped in ("'''", "<<<", "+") or (
            "::" in stripped and stripped[-1] == "]" and _ADOC_BLOCK_MACRO.match(stripped)
        ):
            if not stripped.startswith(_ADOC_PREPROCESSOR):
                ids.flush(i)  # an image's, a break's id: not the next block's
            continue
        title, last = _adoc_title(stripped) if stripped[0] in "=#" else None, i
        if title is None and i + 1 < len(lines):
            title, last = _adoc_setext(stripped, lines[i + 1].rstrip()), i + 1
        if title is not None:
            scan.headings.append(Heading(i, last, *title))
            scan.code[i], underline, styled = False, last, False
            header = title[0] == 1 and not prose and len(scan.headings) == 1
            ids.inline(i, stripped)
            if header:
                ids.flush(i)  # the document's title: an id it is given, none generated
            else:
                ids.section(i, title[1])
            continue
        ids.flush(i)
        if styled:
            verbatim_paragraph, styled = True, False
            continue
        ids.inline(i, stripped)
        scan.code[i], prose = False, True
        in_paragraph = stripped[0] != "." or stripped[1:2] in (" ", ".", "")  # not a `.Title`
    return scan


def adoc_delimiter(line: str) -> bool | None:
    """Whether a line (right-stripped) opens or closes a verbatim block (True: listing,
    literal, passthrough, comment, fenced code) or another delimited block (False: example,
    sidebar, quote, open block, table), or None when it delimits no block."""
    if line == "--":
        return False
    if line.startswith("```"):
        return "`" not in line[3:]
    if len(line) >= 4 and line.count(line[0]) == len(line):
        return True if line[0] in "-.+/" else False if line[0] in "=*_" else None
    if len(line) >= 4 and line[0] in "|,:!" and line.count("=") == len(line) - 1:
        return False  # a table: |=== (or ,=== :=== !=== for delimited data)
    return None


def _adoc_block_attributes(line: str) -> bool:
    """Whether a `[…]` line is a block attribute list or anchor (`[source,python]`, `[[id]]`,
    `[#id.role]`, `[]`), as AsciiDoc tells them from prose that happens to be bracketed."""
    return len(line) == 2 or line[1].isalnum() or line[1] in "_.#%{,\"'["


def _adoc_style(line: str) -> str:
    """The block style a block attribute line names (`[source#id,python]` → `source`)."""
    first = line[1:-1].split(",", 1)[0].strip()
    for mark in "#.%":
        first = first.split(mark, 1)[0]
    return first.strip().lower()


def _adoc_title(line: str) -> tuple[int, str] | None:
    """(level, title) of a one-line section title (`== Title`, `== Title ==`, `## Title`)."""
    marker = line[0]
    level = len(line) - len(line.lstrip(marker))
    if level > 6 or len(line) <= level or line[level] not in " \t":
        return None
    title = line[level:].strip()
    if marker == "=" and title.endswith(" " + "=" * level):
        title = title[:-level].rstrip()
    return (level, plain_asciidoc(title)) if title else None


def _adoc_setext(title: str, underline: str) -> tuple[int, str] | None:
    """(level, title) of a legacy two-line section title: a line with a letter or digit, not a
    `.Title`, over a line of one of `=-~^+` within one character of its length."""
    level = _ADOC_SETEXT_LEVELS.get(underline[:1])
    if level is None or abs(len(title) - len(underline)) > 1 or title[0] in ". \t":
        return None
    if underline.count(underline[0]) != len(underline) or not any(c.isalnum() for c in title):
        return None
    return level, plain_asciidoc(title)


_ADOC_TITLE_MARKUP = re.compile(
    r"(?<![\w\\])(\*\*|__|``|\+\+|##|[*_`+#])([^\s*_`+#](?:[^\n]{0,120}?[^\s\\])?)\1(?!\w)"
    r"|<<[^<>,\n]{1,300},[ \t]*([^<>\n]{1,300}?)>>"  # <<target,text>>: its text
    r"|(?:xref|link):[^\s\[\]]{1,300}\[([^\]\n]{1,300})\]"  # xref:target[text]: its text
)


def plain_asciidoc(title: str) -> str:
    """An AsciiDoc title as it reads: strong, emphasis, monospace, passthrough and marked text
    without their marks, cross references and links as their text (`The `+catdoc+` *tool*` →
    `The catdoc tool`)."""
    if not any(mark in title for mark in "*_`+#<:"):
        return title
    return _ADOC_TITLE_MARKUP.sub(_adoc_markup_text, title).strip()


def _adoc_markup_text(match: re.Match[str]) -> str:
    return next(group for group in match.groups()[1:] if group is not None)


def scan_structure(lines: list[str], kind: Kind) -> Structure:
    if kind == "markdown":
        return scan_markdown(lines)
    if kind == "rst":
        return scan_rst(lines)
    if kind == "asciidoc":
        return scan_asciidoc(lines)
    return Structure(code=[False] * len(lines))


__all__ = [
    "ADOC_VERBATIM_STYLES",
    "ASCIIDOC_SUFFIXES",
    "ATTRIBUTE_LIST",
    "DOCUMENT_SUFFIXES",
    "FENCE_STARTS",
    "MARKDOWN_SUFFIXES",
    "MAX_DIRECTIVE_NESTING",
    "MYST_VERBATIM_DIRECTIVES",
    "RST_CODE_DIRECTIVES",
    "RST_LIST_MARKER",
    "RST_SHORT_ADORNMENT",
    "RST_SUFFIXES",
    "Fence",
    "Heading",
    "Kind",
    "Structure",
    "adoc_delimiter",
    "closed_fence",
    "column_width",
    "directive_option",
    "explicit_kind",
    "fence_directive",
    "indent_of",
    "kind_of",
    "looks_like_rst",
    "markdown_title",
    "open_fence",
    "opens_markdown",
    "plain_asciidoc",
    "plain_markdown",
    "plain_rst",
    "rst_module_title",
    "scan_asciidoc",
    "scan_markdown",
    "scan_rst",
    "scan_structure",
    "sniff_kind",
    "substitute_rst",
    "substitution_key",
    "without_html_comments",
]
