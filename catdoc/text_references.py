"""References written in a document's text, as written (resolving them is `catdoc.references`).

| kind | Markdown | reST | AsciiDoc | plain text |
|---|---|---|---|---|
| `object`, `morphism` | `@id`, `#id` | `@id`, `#id` written the CatDoc way | as reST | as reST |
| `link` | `[t](a.md)`, `[r]: a.md` | `` `t <a.rst>`_ `` | `xref:`, `<<…>>`, `link:` | `[t](a.md)` |
| `wiki` | `[[Title]]` | — | — | `[[Title]]` |
| `role` | MyST `{doc}`path``, `{ref}`label`` | `:doc:`path``, `:py:class:`~a.B`` … | — | — |
| `role` `toctree` | a MyST toctree's entry | a `.. toctree::` entry | — | — |
| `field` | — | a value of a field asked for, in an opening RFC 2822 header | — | as reST |

**AsciiDoc links** (`xref:api.adoc[]`, `<<api.adoc#limits,text>>`, `link:guide.html[]`). An
`xref:` or `<<…>>` target names another document as Asciidoctor 2 reads it: when it has a path
before its `#` (`xref:api.adoc#limits[]`, `<<api#limits>>`, `<<api.adoc#>>`), and for the macro
alone when it ends in `.adoc` (`xref:api.adoc[]`) or names a file (`xref:guide.html[]`; one that
is no document, `xref:refcard.pdf[]`, is no reference). Anything else names an id of the same
document (`<<limits>>`, `xref:limits[]`, `xref:#limits[]`, and so `<<api.adoc>>`, the shorthand
without a `#`): one the document defines (`labels_of`), or a section title it has
(`<<Rate Limits>>`), is no reference; any other is a `link` to `#limits`, the link Asciidoctor
renders (`catdoc.references` tells whether it counts). Ids and titles compare as Asciidoctor
compares them, case and all (`label_key`). A `link:` names a relative file (with a
scheme it is a URL). Antora resource ids
(`xref:module:page.adoc[]`, `xref:2.0@component:module:page.adoc[]`) are returned as written,
marked `xref`: in a page of an Antora component the resolver reads them as resource ids
(`catdoc.antora`). Targets made of attribute references
(`link:{url-repo}/x[]`) are not read: their value is not known without rendering the document.

**The CatDoc way, in reST, AsciiDoc and plain text.** There `@` and `#` mostly mean something
else: decorators (`@property`, `@pytest.fixture`), handles, colours, footnotes. A mention counts
only when its id contains a `-` or a digit (CatDoc ids are slugs: `@req-auth`, `#auth-uses-db`,
`@adr-7`), has no `.` (a dotted name is code: `@app.route`), is not made only of hexadecimal
digits (`#8f5bb2` is a colour or a commit), and is not followed by `(` (a call). In Markdown every
`@id`/`#id` with a letter counts, as it always has. In every kind a decorator line (`@name` or
`@name(…)` on its own line, in a chain that ends at a `def` or `class` line) is code.

**Never references**: code (fenced and indented blocks, inline code, reST literal blocks after
`::`, code-like directives such as `.. code-block::` or `.. literalinclude::`, doctest blocks,
comments; AsciiDoc's listing, literal, passthrough and comment blocks, literal paragraphs, `//`
comments, `+passthrough+` text and the document header), AsciiDoc anchors and attribute lines
(`[[id]]`, `[#id.role]`, `[source,python]`, `:name: value`), AsciiDoc inline macros that link
nothing (`image:`, `kbd:` …), directive options (`:caption: …`), field names (`:param x:`),
footnotes and citations (`[#note]_`, `[1]_`, `[CIT2002]_` and their definitions' labels),
Markdown attribute lists (`## Title { #anchor }`, `{: .note }`: an element's own anchor and
classes), substitutions (`|name|`), URLs and e-mail addresses, `.. _label:` targets (those are
`labels_of`) and anonymous ones (`__ url`, the URL maybe continued on indented lines), links with
a URL's scheme (`https://`, `//`; in reST and AsciiDoc any scheme), images, hyperlinks to named
targets (`` `text`_ ``), and the text of a link, which labels where it points
(`[@tiangolo](https://github.com/tiangolo)`, `[@x][ref]`, a `[@x]` the document defines a link
for, an image's alt text, a Markdown page's HTML `<a href>…</a>` on one line, AsciiDoc's
`xref:a.adoc[@x]` and `https://x.org[@x]`): the link is the reference, or for a URL none.

**A Markdown link with a scheme but no `//`** (`[](source-files:repository)`, `[](project:a.md)`,
`[](mailto:x@y.org)`), also written as an autolink (`<project:a.md>`, `<xref:guide/page>`), is
returned as written, less its `#fragment`: MyST-Parser reads it as a label or a document unless
its scheme is one of the URL schemes it is configured with, which the resolver knows
(`Resolver.counts`); elsewhere it is a URL and does not count. So is a link to an anchor
(`[](#known-limitations)`), as written: MyST-Parser resolves one that names nothing of its own
page as a label of the project; elsewhere it points into the same page. `project:#label` is
the anchor `#label`, a target anywhere in the project.

**mystmd's citations.** In a page of a mystmd project (`extract_references(citations=True)`)
an `@` mention is read as mystmd reads a citation: after no letter, digit or `.`, a label that
may hold `:`, `/`, `.` and more but ends in a word character (`@code:ast`, `@fig:mountains.` is
`fig:mountains`), or such characters in braces, which mystmd drops (`@{fig:mountains}`); the
resolver tells a target's label from a bibliography key.

Every role is returned with its name (`role`, lower-cased, domain kept: `py:class`) and its
target as Sphinx reads it: the explicit title removed up to the final `<…>` (`:doc:`Read this
<../install>`` → `../install`; in reST a `\\<` is escaped and opens no target), a leading `~`
removed, whitespace collapsed. A role whose content starts with `!` is none: Sphinx makes no
cross-reference of it. reST interpreted text without a role (`` `text` ``) is a role only where
the caller gives a default role (Sphinx's `default_role`, setuptools' `any`): then it is
returned under that name; otherwise docutils makes it a title reference, no reference. Which
roles name documents is the resolver's business. Labels and `:ref:` targets compare after
`normalize_label` (lower case, whitespace collapsed), as Sphinx compares them; AsciiDoc ids as
written (`label_key`).

**Toctrees.** Each entry of a toctree is a `role` reference named `toctree` (`TOCTREE`) whose
target is the document it lists, read as Sphinx reads it (`path` or `Title <path>`; `self`, a
URL and, under `:glob:`, a pattern are none). A toctree's lines (options and entries) are no
prose.

Scanning is linear in the text: each backtick closes at most once, and once a closer is missing
no later opener looks for it again.
"""

from __future__ import annotations

import html
import posixpath
import re
from bisect import bisect_right
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import partial
from typing import Literal
from urllib.parse import unquote

from catdoc.front_matter import body_lines, normalize_newlines, split_front_matter
from catdoc.markup import (
    ATTRIBUTE_LIST,
    DOCUMENT_SUFFIXES,
    MYST_PROJECT,
    RST_LIST_MARKER,
    URI_SCHEME,
    Kind,
    Structure,
    explicit_kind,
    fence_directive,
    indent_of,
    scan_structure,
    without_html_comments,
)
from catdoc.text_metadata import header_fields

RefKind = Literal["object", "morphism", "link", "wiki", "role", "field"]


@dataclass(frozen=True)
class Reference:
    """A mention of another entity in a document's text, as written (not yet resolved)."""

    kind: RefKind
    target: str
    line: int
    role: str | None = None
    pattern: bool = False
    """A toctree `:glob:` entry: its target is a pattern of document names (`pr/*`)."""
    xref: bool = False
    """An AsciiDoc cross reference (`xref:`, `<<…>>`) to another document: in a page of an
    Antora component its target is a resource id (`catdoc.antora`), not a path."""


@dataclass(frozen=True)
class _Found:
    """A reference and, for `@`/`#` mentions, the columns of its id in its line."""

    ref: Reference
    start: int = -1
    end: int = -1
    offset: int = 0  # order within a reST paragraph


_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_WIKI = re.compile(r"(!?)\[\[([^\[\]\n|#]*)(?:#[^\[\]\n|]*)?(?:\|[^\[\]\n]*)?\]\]")
_LINK_END = (
    r"\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"
)
"""`](destination "title")`: the end of an inline link, its destination the first group."""
_LINK_TEXT = r"\[((?:[^\[\]\n]|\[[^\[\]\n]*+\])*+)"
"""A link's `[text` (one level of brackets inside), its text the first group."""
_LINK = re.compile(r"(!?)" + _LINK_TEXT + _LINK_END)
_LINK_TAIL = re.compile(_LINK_END)
"""The end of a link whose text began on an earlier line (`[UML Diagram` then `Example](#uml)`)."""
_REF_LINK = re.compile(r"(?:!?" + _LINK_TEXT + r"\])?(?<=\])\[[^\[\]\n]*\]")
"""A reference link (`[text][label]`, `[text][]`), or the label of one whose text began on an
earlier line: its text labels the link, its label names a link definition; neither is prose."""
_SHORTCUT = re.compile(r"!?" + _LINK_TEXT + r"\]")
"""A `[label]` that may be a shortcut reference link, when the document defines that label."""
_LINK_DEF = re.compile(r"^ {0,3}\[([^\]\n^][^\]\n]*)\]:[ \t]*<?([^\s>]+)>?")
_URL = re.compile(
    rf"<{URI_SCHEME}:[^\s<>]*>|<[^\s<>@]+@[^\s<>]+>"
    rf"|(?<!@)\b{URI_SCHEME}://[^\s<>]*|\bmailto:[^\s<>]*|\bwww\.[^\s<>]*"
)
"""What reads as a URL, where no mention is looked for. Right after an `@`, `x://y` is the
rest of an `@` label (mystmd cites `@a://b` as `a://b`; a plain mention stops before `:/`)."""
_SCHEME = re.compile(rf"^(?:{URI_SCHEME}:|//)")
_NO_AUTHORITY = re.compile(rf"{URI_SCHEME}:(?!//)")
"""A scheme not followed by `//` (MyST-Parser's `REGEX_SCHEME`, less what only URLs write)."""
_ID = r"(?>([A-Za-z0-9_](?:[\w.-]*\w)?))"
# the sigil comes first so the regex engine can skip ahead to it; the look-behind then checks the
# character before it (a word character means an e-mail address, `/` or `.` a URL or path, …)
_NOT_AFTER = r"[\w@#&./:+=\\`-]"
# nor may a word, `/`, `@`, `#` or `:` and more (`@bitbucket:ned/repo`, a shorthand) follow it
_OBJECT_REF = re.compile(r"@(?<!" + _NOT_AFTER + r"@)" + _ID + r"(?![\w/@#]|:[^\s:])")
_MORPHISM_REF = re.compile(r"#(?<!" + _NOT_AFTER + r"#)" + _ID + r"(?![\w/@#]|:[^\s:])")
_CITATION = re.compile(
    r"(?<![A-Za-z0-9.])@\{?((?<=@\{)[\w:.#$%&+?~/-]*(?=\})|(?<=@)\w(?:[\w:.#$%&+?~/-]*\w)?)",
    re.ASCII,
)
"""An `@label` as mystmd reads a citation (markdown-it-myst's `inText`): after no letter, digit
or `.`, a label of word characters and `:.#$%&-+?~/`, ending in a word character
(`@code:ast.` is `code:ast`), or the same characters in braces, which mystmd drops
(`@{doi:10.1/x.}` is `doi:10.1/x.`: pandoc's form for a key that ends in punctuation). mystmd
also takes `<` and `>` into a label; here HTML is masked before mentions are read, so a `<X>`
in one is a tag, and the label ends before it. Each `@` scans at most to the next character
outside the label's, so a line of openers stays linear."""
_AUTOLINK = re.compile(rf"<()()({URI_SCHEME}:[^\s<>]*)>")
"""A Markdown autolink (`<project:#label>`, `<xref:guide/page>`, `<https://…>`): the groups
`_link` reads, its destination the third."""
_HEX = re.compile(r"[0-9A-Fa-f]+")
_HTML_TAG = re.compile(
    r"""<([A-Za-z][\w-]*+)(?=[\s/>])(?:[^<>"']++|"[^"<>\n]*+"|'[^'<>\n]*+')*+>"""
)
_HTML_HREF = re.compile(r"""\shref[ \t]*=[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'<>=`]+))""", re.I)
"""An HTML start tag in Markdown (`<a href="#anchor">`, `<img alt="@x">`): its attributes are
no mentions, and an `<a>` tag's `href` is a link like `[text](href)`. No part of it crosses a
`<`, so each `<` starts one scan that ends at the next: linear on any line."""
_HTML_LINK = re.compile(
    r"""<(a)(?=[\s/>])(?:[^<>"']++|"[^"<>\n]*+"|'[^'<>\n]*+')*+>(?:[^<\n]++|<(?!/?a[\s/>]))*+</a\s*>""",
    re.IGNORECASE,
)
"""An HTML link on one line, its text and all (`<a href="https://github.com/ada">@ada</a>`): the
text labels where it points, as a Markdown link's does; the tags inside it are read with it.
Its text ends at the next `<a`, so each `<a` scans at most to the next: linear on any line."""
_DECORATOR = re.compile(r"[ \t]*@[A-Za-z_][\w.]*(?:[ \t]*\(.*|[ \t]*(?:#.*)?)$")
_DEF = re.compile(r"[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]")
_MYST_ROLE = re.compile(r"\{([A-Za-z][\w:+.-]{0,63})\}\Z")
_MYST_TARGET = re.compile(r" {0,3}\(([^()\n]+)\)=[ \t]*$")
_ESCAPE = re.compile(r"\\(.?)", re.DOTALL)
_NULL_ESCAPE = re.compile(r"\x00[ \n]?")
"""What docutils' `unescape` removes: the NUL of an escape, and an escaped space or newline."""
_ROLE_NAME = re.compile(r":([A-Za-z0-9][\w+.-]*(?::[A-Za-z0-9][\w+.-]*)*):")
_RST_INLINE_NOISE = re.compile(
    r"\[(?:#[\w.:-]*|\*|\d+|[A-Za-z_][\w.:-]*)\]_"  # footnote and citation references
    r"|\|(?![\s|])[^|\n]*(?<![\s\\])\|_{0,2}"  # substitution references
)
_FIELD_MARK = re.compile(r"[ \t]*:[^:\s`](?:[^:`\n]{0,100}[^:\s`])?:(?=[ \t]|$)")
_RST_TARGET = re.compile(rf"[ \t]*(?:{RST_LIST_MARKER})?(\.\.)[ \t]+_")
"""A `.. _label:` line, also as the first thing in a bullet or enumerated list item (`-   .. _x:`,
`1. .. _x:`), where docutils reads explicit markup as the item's first body element."""
_RST_LABEL = re.compile(r"((?:[^:\\`]|\\.|:(?![ \t]|$))+):(?:[ \t]|$)")
_NOT_NEWLINE = re.compile(r"[^\n]")
_FRONT_ID = re.compile(r"(id:[ \t]*)(['\"]?)([\w.\-/:+]+)\2([ \t]*(?:#.*)?)")
"""A front matter line `id: value` (plain or quoted), as `catdoc import` reads ids."""
_SPACES = re.compile(r"\s+")
_ADOC_MACRO_LINK = re.compile(r"(?<![\w\\:])(xref|link):([^\s\[\]]{1,500}+)\[[^\]\n]*+\]?")
"""An `xref:target[text]` or `link:target[text]` macro: its text (to the line's end when the
`]` is on a later line) labels the target, it is not prose."""
_ADOC_URL_TEXT = re.compile(
    r"(?<![\w\\])(?:(?:https?|ftp|irc)://|mailto:)[^\s\[\]]*+\[[^\]\n]*+\]?"
)
"""A URL with its link text (`https://github.com/ada[@ada]`): a link out, text and all."""
_ADOC_ANGLE = re.compile(r"(?<![\\<])<<([^<>,\n]+)(?:,[^<>\n]*)?>>")
_ADOC_ANCHOR = re.compile(r"\[\[[^\[\]\n]*\]\]|\[[#.%][^\[\]\n]*\]#{0,2}")
"""An anchor (`[[id]]`, `[[id,text]]`) or an inline attribute list and the mark it opens
(`[#id.role]#text#`): they name the element's own id and role."""
_ADOC_INERT_MACRO = re.compile(
    r"(?<![\w\\])(?:image|icon|kbd|btn|menu|pass|stem|latexmath|asciimath|anchor|indexterm2?)"
    r":[^\s\[\]]{0,500}+\[[^\]\n]*\]?"
)
_ADOC_PASSTHROUGH = re.compile(
    r"\+\+\+[^\n]{0,1000}?\+\+\+"  # +++raw+++
    r"|\+\+(?!\+)[^\n]{0,1000}?\+\+"  # ++unconstrained++
    r"|(?<![\w+\\])\+(?![\s+])[^+\n]{0,1000}(?<![\s\\])\+(?![\w+])"  # +constrained+
)
_DEFAULT_ROLE = re.compile(r"[ \t]*\.\.[ \t]+default-role[ \t]*::[ \t]*(\S*)[ \t]*$", re.IGNORECASE)
"""docutils' `.. default-role:: name` (no name: back to title references)."""
_RST_TOCTREE = re.compile(r"[ \t]*\.\.[ \t]+toctree[ \t]*::[ \t]*$", re.IGNORECASE)
_YAML_GLOB = re.compile(r"[ \t]*glob[ \t]*:")
_GLOB = re.compile(r"[*?\[]")
TOCTREE = "toctree"
"""The role a toctree entry is reported under: a reference to a child document, resolved as
`import.roles` says (`path`, by default, as `:doc:`)."""
Entry = tuple[int, str, bool]
"""A toctree entry: (line, the document it names, whether that is a `:glob:` pattern)."""
_ROLE_LOOKBACK = 100
"""A role name (`:py:class:`) longer than this is not looked for before a backtick."""


# ---------------------------------------------------------------------------------- public
def extract_references(
    text: str,
    *,
    kind: Kind = "markdown",
    fields: Collection[str] = (),
    structure: Structure | None = None,
    citations: bool = False,
    default_role: str | None = None,
) -> list[Reference]:
    """The references of a whole document, in text order by line (see module doc); with them,
    in reST and plain text, the values of the opening RFC 2822 header block's `fields` (lower
    case names; a PEP's `Requires: 484, 526` gives two `field` references named `requires`).
    `structure` is the text's body as `scan_structure` reads it, when the caller has it. With
    `citations` (a page of a mystmd project) a Markdown `@` mention is read as mystmd reads a
    citation (see module doc). `default_role` is the role of reST interpreted text written
    without one (Sphinx's `default_role`)."""
    return [found.ref for found in _find(text, kind, fields, structure, citations, default_role)]


def labels_of(text: str, kind: Kind, structure: Structure | None = None) -> list[tuple[str, int]]:
    """(label, file line) of every reST `.. _label:` target (internal ones: a target with a URL
    is a link, not a label; also one that opens a list item, `-   .. _label:`) and directive
    `:name:` option, MyST `(label)=` target and directive `:name:` option (or `name:` in its
    YAML block), and AsciiDoc id (anchors, block ids, section ids: `markup.scan_asciidoc`),
    outside code; labels as `label_key` compares them. `structure` is the text's body as
    `scan_structure` reads it, when the caller has it already."""
    lines, offset = body_lines(text, kind)
    structure = _structure(lines, kind, structure)
    code = structure.code
    names: dict[int, list[str]] = {}
    for at, name in structure.names:
        names.setdefault(at, []).append(name)
    out: list[tuple[str, int]] = []
    for i, line in enumerate(lines):
        labels = names.get(i, [])
        if not labels and not code[i]:
            label = None
            target = _RST_TARGET.match(line) if kind == "rst" and ".. " in line else None
            if target is not None:
                label = _rst_label(target, lines[i + 1] if i + 1 < len(lines) else "")
            elif kind == "markdown" and ")=" in line:
                match = _MYST_TARGET.match(line)
                label = match.group(1) if match else None
            labels = [label] if label else []
        for label in labels:
            normal = label_key(label, kind)
            if normal:
                out.append((normal, i + offset + 1))
    return out


def may_define_labels(text: str, kind: Kind = "markdown") -> bool:
    """Whether `text` may define a label `labels_of` finds: a cheap test that lets a reader skip
    scanning the structure of most documents (not AsciiDoc ones: each section has an id)."""
    return kind == "asciidoc" or ".. _" in text or ")=" in text or "name:" in text


def normalize_label(label: str) -> str:
    """A label as Sphinx compares them: lower case, runs of whitespace as one space."""
    return " ".join(label.split()).lower()


def label_key(label: str, kind: Kind) -> str:
    """A label of a document of `kind` as its tool compares it: an AsciiDoc id (or section title)
    as written, Asciidoctor's catalog being case-sensitive (`<<Limits>>` does not find
    `[[limits]]`); any other as Sphinx compares labels (`normalize_label`)."""
    return " ".join(label.split()) if kind == "asciidoc" else normalize_label(label)


def rename_mentions(
    text: str, old: str, new: str, *, kind: Kind = "markdown", sigil: str = "@"
) -> str:
    """`text` with each `@old` (`sigil` "@", an object) or `#old` ("#", a morphism) reference
    that `extract_references` finds written with the new id, and a front matter `id: old` too.
    Mentions in code, URLs and e-mail addresses are left as they are, like everything else."""
    if sigil + old not in text and "id:" not in text:
        return text
    if "\r" in text.replace("\r\n", ""):
        text = normalize_newlines(text)  # lone CRs: lines must split as the scanner splits them
    wanted = "object" if sigil == "@" else "morphism"
    lines = text.split("\n")
    hits = [f for f in _find(text, kind) if f.ref.kind == wanted and f.ref.target == old]
    for found in sorted(hits, key=lambda f: (f.ref.line, f.start), reverse=True):
        line = lines[found.ref.line - 1]
        lines[found.ref.line - 1] = line[: found.start] + new + line[found.end :]
    if sigil == "@" and kind != "rst":
        front = split_front_matter(text)
        for index in range(1, max(front.body_start_line - 2, 1)):
            match = _FRONT_ID.fullmatch(lines[index])
            if match and match[3] == old:
                lines[index] = f"{match[1]}{match[2]}{new}{match[2]}{match[4]}"
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- scanning
def _find(
    text: str,
    kind: Kind,
    fields: Collection[str] = (),
    structure: Structure | None = None,
    citations: bool = False,
    default_role: str | None = None,
) -> list[_Found]:
    lines, offset = body_lines(text, kind)
    rfc2822 = fields and kind in ("rst", "text")
    headers = _header_references(lines, offset, fields) if rfc2822 else []
    scan = _structure(lines, kind, structure)
    return headers + _find_body(lines, offset, kind, scan, citations, default_role)


def _structure(lines: list[str], kind: Kind, given: Structure | None) -> Structure:
    """The structure of `lines`: the one a caller scanned already, when it is theirs."""
    if given is not None and len(given.code) == len(lines):
        return given
    return scan_structure(lines, kind)


def _header_references(lines: list[str], offset: int, fields: Collection[str]) -> list[_Found]:
    """Each comma-separated value of the `fields` of an opening RFC 2822 header block."""
    found: list[_Found] = []
    for name, value, at in header_fields(lines, 0):
        field = name.lower()
        if field not in fields:
            continue
        for target in value.split(","):
            if target.strip():
                ref = Reference("field", " ".join(target.split()), at + offset + 1, field)
                found.append(_Found(ref))
    return found


def _find_body(
    lines: list[str],
    offset: int,
    kind: Kind,
    structure: Structure,
    citations: bool = False,
    default_role: str | None = None,
) -> list[_Found]:
    code = structure.code
    skip = _decorator_lines(lines)
    for i, is_code in enumerate(code):
        skip[i] = skip[i] or is_code
    entries: list[_Found] = []
    if kind in ("rst", "markdown"):
        for start, end, rows in _toctrees(lines, structure, kind):
            skip[start:end] = [True] * (end - start)  # a toctree's lines are no prose
            entries += [
                _Found(Reference("role", t, at + offset + 1, TOCTREE, pattern=glob))
                for at, t, glob in rows
            ]
    if kind == "rst":
        found = _find_rst(lines, offset, skip, default_role)
    elif kind == "asciidoc":
        found = _find_asciidoc(lines, offset, skip, _adoc_own(structure))
    else:
        found = _find_lines(lines, offset, skip, kind, citations)
    return sorted(found + entries, key=lambda f: f.ref.line) if entries else found


def _toctrees(
    lines: list[str], structure: Structure, kind: Kind
) -> list[tuple[int, int, list[Entry]]]:
    """(first line, end line, entries) of each reST `.. toctree::` or MyST `{toctree}` fence
    (```` ``` ```` or `:::`, also in another directive's Markdown body) outside code; each entry
    (line, the document it names)."""
    code, fences = structure.code, set(structure.fences)
    out: list[tuple[int, int, list[Entry]]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        end = None
        if kind == "rst" and "::" in line and not code[i] and _RST_TOCTREE.match(line):
            end, rows = _rst_toctree(lines, i)
        elif kind == "markdown" and i in fences and (directive := fence_directive(line)):
            name, head = directive
            if name == "toctree":
                end, rows = _myst_toctree(lines, i, structure.fence_ends[i], head)
        if end is None:
            i += 1
            continue
        out.append((i, end, rows))
        i = end
    return out


def _rst_toctree(lines: list[str], at: int) -> tuple[int, list[Entry]]:
    """The end of the `.. toctree::` at line `at` and its entries, the directive split as
    docutils splits one: up to the first blank line its options (from the first `:name:` line;
    lines before it are content), then its content. An option block that holds any other line
    is an error, and Sphinx reads no entry."""
    indent = indent_of(lines[at])
    end = at + 1
    while end < len(lines) and (not lines[end].strip() or indent_of(lines[end]) > indent):
        end += 1
    blank = next((k for k in range(at + 1, end) if not lines[k].strip()), end)
    options = next((k for k in range(at + 1, blank) if _FIELD_MARK.match(lines[k])), blank)
    if options < blank:
        base = indent_of(lines[options])
        for k in range(options, blank):
            if indent_of(lines[k]) < base or (
                indent_of(lines[k]) == base and not _FIELD_MARK.match(lines[k])
            ):
                return end, []
    glob = any(lines[k].strip().startswith(":glob:") for k in range(options, blank))
    rows = [*range(at + 1, options), *range(blank + 1, end)]
    return end, _toctree_entries([(k, lines[k]) for k in rows], glob)


def _myst_toctree(lines: list[str], at: int, end: int, head: str) -> tuple[int, list[Entry]]:
    """The end of the MyST toctree fence opened at line `at` and closed at line `end`
    (`Structure.fence_ends`) and its entries, read as MyST reads a directive: options first, as
    a `---` YAML block or `:name: value` lines, then the content; `head`, the text after
    `{toctree}` (a directive without arguments), is the content's first line."""
    first, glob = at + 1, False
    if first < end and lines[first].lstrip().startswith("---"):
        stop = next((k for k in range(first + 1, end) if lines[k].lstrip().startswith("---")), end)
        glob = any(_YAML_GLOB.match(lines[k]) for k in range(first + 1, stop))
        first = stop + 1
    else:
        while first < end and lines[first].lstrip().startswith(":"):
            option = lines[first].lstrip()
            if option.startswith(":::"):
                break
            glob = glob or option.startswith(":glob:")
            first += 1
    rows = [(at, head), *((k, lines[k]) for k in range(first, end))]
    return min(end + 1, len(lines)), _toctree_entries(rows, glob)


def _toctree_entries(rows: list[tuple[int, str]], glob: bool) -> list[Entry]:
    """(line, document, is a pattern) of each entry of the (line, text) `rows`, as Sphinx reads
    an entry: `path` or `Title <path>`; with `glob`, an entry with `*`, `?` or `[` is a pattern
    of document names (Sphinx lists every document it matches); `self` and a URL name no one
    document and are left out."""
    out: list[Entry] = []
    for row, text in rows:
        entry = text.strip()
        explicit = _explicit_target(entry)
        if not entry or entry.find("://") > 0:  # Sphinx's url_re: a link out
            continue
        target = (entry if explicit is None else explicit).strip()
        if target and target != "self":
            out.append((row, target, glob and explicit is None and bool(_GLOB.search(entry))))
    return out


def _decorator_lines(lines: list[str]) -> list[bool]:
    """Which lines are Python decorators: `@name…` lines in a chain that ends at `def`/`class`."""
    flags = [False] * len(lines)
    before_def = False
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if ("def" in line or "class" in line) and _DEF.match(line):
            before_def = True
            continue
        if "@" in line and _DECORATOR.match(line):
            flags[i] = before_def
            continue
        before_def = False
    return flags


def _find_lines(
    lines: list[str], offset: int, skip: list[bool], kind: Kind, citations: bool = False
) -> list[_Found]:
    """Markdown and plain text, line by line (their inline markup does not span lines here, but
    for the end of a link whose text began on an earlier line and Markdown's code spans,
    `_SpanCarry`); `citations` reads `@` as mystmd does."""
    strict = kind != "markdown"
    citations = citations and not strict
    defined = _defined_labels(lines, skip)
    found: list[_Found] = []
    spans = None if strict else _SpanCarry(lines, skip)
    for i, line in enumerate(lines):
        if spans is not None and spans.closes_at is not None:
            line = spans.rest(i, line)
        if skip[i] or not (
            "@" in line or "#" in line or "[" in line or "]" in line or "{" in line or "<" in line
        ):
            if spans is not None and not skip[i] and "`" in line:
                spans.opens(i, _CODE_SPAN.sub(_blank, line))
            continue
        number = i + offset + 1
        if not strict and "<!--" in line:
            line = without_html_comments(line)
        if "`" in line:
            myst = kind == "markdown" and "}`" in line
            line = _CODE_SPAN.sub(partial(_code_span, found=found, line=number, myst=myst), line)
            if spans is not None:
                line = spans.opens(i, line)
        if "[" in line or "](" in line:
            definition = _LINK_DEF.match(line)
            if definition:
                target = _markdown_target(definition.group(2))
                if target:
                    found.append(_Found(Reference("link", target, number)))
                continue
            if "[[" in line:
                line = _WIKI.sub(partial(_wiki, found=found, line=number), line)
            if "](" in line:
                line = _LINK.sub(partial(_link, found=found, line=number), line)
            if "](" in line:
                line = _LINK_TAIL.sub(partial(_link_tail, found=found, line=number), line)
            if "][" in line:
                line = _REF_LINK.sub(_blank, line)
            if defined and "[" in line:
                line = _SHORTCUT.sub(partial(_shortcut, defined=defined), line)
        if not strict and "<" in line:
            if ":" in line:
                line = _AUTOLINK.sub(partial(_link, found=found, line=number), line)
            if "</" in line:
                line = _HTML_LINK.sub(partial(_html_tag, found=found, line=number), line)
            line = _HTML_TAG.sub(partial(_html_tag, found=found, line=number), line)
        if ":" in line or "www." in line:
            line = _URL.sub(_blank, line)
        if not strict and "{" in line:
            line = ATTRIBUTE_LIST.sub(_blank, line)
        for ref_kind, match in _mentions(line, strict, citations):
            found.append(_mention(ref_kind, match.group(1), number, match.start(1)))
    return found


_BACKTICKS = re.compile(r"(?<!`)`+(?!`)")


class _SpanCarry:
    """Markdown code spans that run over a line break (CommonMark: a backtick string opens a
    span when one of the same length closes it later in the paragraph), for a line-by-line
    reading: the rest of the opening line and every line up to the closing string are code.
    Each paragraph is searched at most once per string length with no closer from a line on,
    so a paragraph of unclosed backticks stays linear."""

    def __init__(self, lines: list[str], skip: list[bool]) -> None:
        self.lines, self.skip = lines, skip
        self.closes_at: int | None = None
        self.closer: re.Pattern[str] | None = None
        """The backtick string that closes the open span (as long as the one that opened it)."""
        self.unclosed: dict[int, int] = {}
        """A string length → the line up to which no string of it closes one (a paragraph's end)."""

    def opens(self, i: int, line: str) -> str:
        """`line` (its whole spans already blanked) without the span its first unclosed string
        opens, when a string of the same length closes it on a later line of the paragraph."""
        match = _BACKTICKS.search(line)
        if match is None:
            return line
        run = match.group()
        if self.unclosed.get(len(run), -1) > i:
            return line
        closer = re.compile(rf"(?<!`){run}(?!`)")
        j = i + 1
        while j < len(self.lines) and not self.skip[j] and self.lines[j].strip():
            if closer.search(self.lines[j]):
                self.closes_at, self.closer = j, closer
                return line[: match.start()] + " " * (len(line) - match.start())
            j += 1
        self.unclosed[len(run)] = j
        return line

    def rest(self, i: int, line: str) -> str:
        """A line inside a span: code up to its closing string (then read on), or all code."""
        if i < (self.closes_at or 0):
            return " " * len(line)
        self.closes_at = None
        end = self.closer.search(line) if self.closer is not None else None
        assert end is not None  # `opens` found it there
        return " " * end.end() + line[end.end() :]


def _defined_labels(lines: list[str], skip: list[bool]) -> set[str]:
    """The labels of the link reference definitions (`[label]: url`) outside code, compared as
    CommonMark compares them (case and runs of whitespace ignored)."""
    labels: set[str] = set()
    for i, line in enumerate(lines):
        if "]:" in line and not skip[i]:
            definition = _LINK_DEF.match(line)
            if definition:
                labels.add(normalize_label(definition.group(1)))
    return labels


def _shortcut(match: re.Match[str], defined: set[str]) -> str:
    """A `[label]`, blanked when it is a shortcut reference link (the document defines the
    label), else left to be read as prose."""
    return _blank(match) if normalize_label(match.group(1)) in defined else match.group()


def _adoc_own(structure: Structure) -> set[str]:
    """What an internal cross reference may name in the document itself, normalised: its ids,
    and marked `_NATURAL` its section titles (a natural xref, `<<Section Title>>`), as
    `label_key` compares them."""
    ids = {label_key(name, "asciidoc") for _, name in structure.names}
    return ids | {_NATURAL + label_key(h.title, "asciidoc") for h in structure.headings}


_NATURAL = "\x00"
"""What `_adoc_own` puts before a section title to tell it from an id (no id holds a NUL)."""


def _find_asciidoc(lines: list[str], offset: int, skip: list[bool], own: set[str]) -> list[_Found]:
    """AsciiDoc, line by line: a macro's target and a cross reference are on one line even when
    the text in their brackets goes on to the next. An internal cross reference to an id that
    is not in `own` (the document's) is a link to `#id`: Asciidoctor renders it as one."""
    found: list[_Found] = []
    for i, line in enumerate(lines):
        if skip[i] or not ("@" in line or "#" in line or ":" in line or "<<" in line):
            continue
        number = i + offset + 1
        if "`" in line:
            line = _CODE_SPAN.sub(_blank, line)
        if "+" in line:
            line = _ADOC_PASSTHROUGH.sub(_blank, line)
        if "xref:" in line or "link:" in line:
            macro = partial(_adoc_macro, found=found, line=number, own=own)
            line = _ADOC_MACRO_LINK.sub(macro, line)
        if "<<" in line:
            line = _ADOC_ANGLE.sub(partial(_adoc_xref, found=found, line=number, own=own), line)
        if "[" in line:
            line = _ADOC_ANCHOR.sub(_blank, line)
        if ":" in line or "www." in line:
            if "[" in line:
                line = _ADOC_URL_TEXT.sub(_blank, _ADOC_INERT_MACRO.sub(_blank, line))
            line = _URL.sub(_blank, line)
        for ref_kind, match in _mentions(line, True):
            found.append(_mention(ref_kind, match.group(1), number, match.start(1)))
    return found


def _adoc_macro(match: re.Match[str], found: list[_Found], line: int, own: set[str]) -> str:
    """An `xref:target[text]` or `link:target[text]`, blanked; added when it names a document,
    or an id the document does not define."""
    target = match.group(2)
    if "{" in target:
        pass  # an attribute reference: its value is not known here
    elif match.group(1) == "link":
        _add_link(found, _link_target(target), line)
    else:
        _add_link(found, _adoc_target(target, own, macro=True), line, xref=True)
    return " " * len(match.group())


def _adoc_xref(match: re.Match[str], found: list[_Found], line: int, own: set[str]) -> str:
    """A `<<target,text>>` cross reference, blanked; added when it names another document, or
    an id the document does not define."""
    target = match.group(1)
    if "{" not in target:
        _add_link(found, _adoc_target(target, own, macro=False), line, xref=True)
    return " " * len(match.group())


def _adoc_target(target: str, own: set[str], *, macro: bool) -> str | None:
    """What an AsciiDoc cross reference (an `xref:` `macro`, else `<<…>>`) names, as Asciidoctor
    2's `sub_macros` reads it: another document when a path comes before its first `#`
    (`api.adoc#limits` → `api.adoc`, `api#` → `api`), or, for the macro, when it ends in `.adoc`
    or has another extension (a file: a document's, `guide.html`, else None, no document); an
    id as `#id` when the document does not define it (`limits`, `#limits`, and `<<api.adoc>>`,
    which Asciidoctor takes for the id `api.adoc`: it links to `#limits` all the same); None
    for one of its own ids, an empty target or a URL."""
    path, hashed, fragment = target.strip().partition("#")
    path = path.strip()
    if "://" in path:
        return None
    if path and hashed:
        return unquote(path)
    if macro and not hashed and "." in posixpath.basename(path):
        if path.lower().endswith(_LINKED_SUFFIXES):
            return unquote(path)
        return None  # a file that is no document: Asciidoctor links it as it is
    ident = (fragment if hashed else path).strip()
    if not ident or label_key(ident, "asciidoc") in own:
        return None
    natural = " " in ident or ident.lower() != ident  # Asciidoctor then looks for a title
    return None if natural and _NATURAL + label_key(ident, "asciidoc") in own else f"#{ident}"


_LINKED_SUFFIXES = tuple(sorted(DOCUMENT_SUFFIXES | {".html", ".htm"}))
"""What a file an `xref:` names ends in when it is a document (`.html` names the page built of
its source, as `catdoc.references` reads a link)."""


def _add_link(found: list[_Found], target: str | None, line: int, *, xref: bool = False) -> None:
    if target:
        ref = Reference("link", target, line, xref=xref and not target.startswith("#"))
        found.append(_Found(ref))


def _find_rst(
    lines: list[str], offset: int, skip: list[bool], default_role: str | None = None
) -> list[_Found]:
    """reST, paragraph by paragraph: inline markup (roles, literals, hyperlinks) may span the
    lines of a paragraph, never a blank line or a block of code; interpreted text without a
    role has `default_role` (none: a title reference, no reference) until a `.. default-role::`
    directive names another for the rest of the document (none named: a title reference again,
    as docutils and Sphinx restore it)."""
    found: list[_Found] = []
    i, count = 0, len(lines)
    while i < count:
        if skip[i] or not lines[i].strip():
            i += 1
            continue
        if "default-role" in lines[i] and (chosen := _DEFAULT_ROLE.match(lines[i])):
            default_role = chosen.group(1).lower() or None
        j = i
        while j < count and not skip[j] and lines[j].strip():
            j += 1
        _paragraph([_prose_of(line) for line in lines[i:j]], i + offset + 1, found, default_role)
        i = j
    return found


def _prose_of(line: str) -> str:
    """The line with what is markup rather than prose blanked out (same length): a target, the
    label of a footnote or citation, the `.. name::` of a directive or substitution definition,
    the name of a field."""
    lead = line.lstrip()
    if lead.startswith(".."):
        kind = explicit_kind(lead.rstrip())
        cut = 0
        if kind == "target":
            cut = len(line)
        elif kind == "footnote":
            cut = line.find("]") + 1 or len(line)
        elif kind in ("directive", "substitution"):
            cut = line.find("::") + 2
        return " " * cut + line[cut:]
    if lead.startswith(":"):
        match = _FIELD_MARK.match(line)
        if match:
            return " " * match.end() + line[match.end() :]
    elif ".. _" in line and _RST_TARGET.match(line):
        return " " * len(line)  # a target that opens a list item, marker and all
    return line


def _paragraph(
    lines: list[str], first: int, found: list[_Found], default_role: str | None = None
) -> None:
    """The references of one reST paragraph whose first line is file line `first`."""
    text = "\n".join(lines)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    hits: list[_Found] = []

    def where(offset: int) -> tuple[int, int]:
        index = bisect_right(starts, offset) - 1
        return first + index, offset - starts[index]

    masked = _inline_rst(text, hits, where, default_role) if "`" in text else text
    if "[" in masked or "|" in masked:
        masked = _RST_INLINE_NOISE.sub(_blank, masked)
    if ":" in masked or "www." in masked:
        masked = _URL.sub(_blank, masked)

    for ref_kind, match in _mentions(masked, True):
        number, column = where(match.start(1))
        hits.append(_mention(ref_kind, match.group(1), number, column, match.start(1)))
    found.extend(sorted(hits, key=lambda f: f.offset))


def _inline_rst(
    text: str,
    hits: list[_Found],
    where: Callable[[int], tuple[int, int]],
    default_role: str | None = None,
) -> str:
    """`text` with inline literals, interpreted text, roles and hyperlink references blanked out;
    roles and hyperlinks to relative files are added to `hits`, and interpreted text without a
    role (`` `x` ``, not `` `x`:role: ``) as a role named `default_role` when there is one."""
    spans: list[tuple[int, int]] = []
    pos, size = 0, len(text)
    no_double = no_single = False  # once a closer is missing, it is missing for every opener
    while True:
        start = text.find("`", pos)
        if start < 0:
            break
        run = start
        while run < size and text[run] == "`":
            run += 1
        if run - start >= 2:
            close = -1 if no_double else text.find("``", run)
            if close < 0:
                no_double, pos = True, run
                continue
            end = close + 2
            while end < size and text[end] == "`":
                end += 1
            spans.append((start, end))
            pos = end
            continue
        close = -1 if no_single else text.find("`", run)
        if close < 0:
            no_single, pos = True, run
            continue
        content, end = text[run:close], close + 1
        if text.startswith("__", end):
            end += 2
        elif text.startswith("_", end):
            end += 1
        role_at = _role_start(text, start)
        if role_at is not None:
            name = text[role_at + 1 : start - 1].lower()
            target = _role_target(content, escapes=True)
            if target:
                number, _ = where(role_at)
                hits.append(_Found(Reference("role", target, number, name), offset=role_at))
            spans.append((role_at, end))
        else:
            if text[end - 1] == "_":
                target = _embedded_target(content)
                if target:
                    number, _ = where(start)
                    hits.append(_Found(Reference("link", target, number), offset=start))
            elif default_role and not _ROLE_NAME.match(text, end):
                target = _role_target(content, escapes=True)
                if target:
                    number, _ = where(start)
                    ref = Reference("role", target, number, default_role)
                    hits.append(_Found(ref, offset=start))
            spans.append((start, end))
        pos = end
    if not spans:
        return text
    parts, last = [], 0
    for a, b in spans:
        parts.append(text[last:a])
        parts.append(_NOT_NEWLINE.sub(" ", text[a:b]))
        last = b
    parts.append(text[last:])
    return "".join(parts)


def _role_start(text: str, backtick: int) -> int | None:
    """Where the role name (`:name:`) right before a backtick starts, or None."""
    if backtick == 0 or text[backtick - 1] != ":":
        return None
    low = max(0, backtick - _ROLE_LOOKBACK)
    k = backtick - 1
    while k > low and (text[k - 1].isalnum() or text[k - 1] in "_+.-:"):
        k -= 1
    colon = text.find(":", k, backtick)
    if colon != k or (k > 0 and (text[k - 1].isalnum() or text[k - 1] in "_`\\")):
        return None
    return k if _ROLE_NAME.fullmatch(text, k, backtick) else None


def _role_target(content: str, *, escapes: bool = False) -> str:
    """A role's target as Sphinx reads it, or "" for none: content that starts with `!` makes
    no cross-reference at all; of `title <target>` the target is the final `<…>` (with
    `escapes`, reST's, a backslash-escaped `\\<` opens none, and escapes are then removed, as
    docutils does before Sphinx sees the text); a leading `~` is dropped, whitespace collapsed."""
    content = content.strip()
    if content.startswith("!"):
        return ""
    if escapes and "\\" in content:
        content = _ESCAPE.sub("\x00\\1", content)
    explicit = _explicit_target(content)
    target = content if explicit is None else explicit
    if escapes and "\x00" in target:
        target = _NULL_ESCAPE.sub("", target)
    return _SPACES.sub(" ", target.strip().removeprefix("~")).strip()


def _explicit_target(content: str) -> str | None:
    """The target of `title <target>`, as Sphinx's `explicit_title_re` reads it: the final
    `<…>` after some title, its `<` not escaped (a NUL before it, as docutils marks an escape);
    None when there is no explicit title."""
    opening = content.rfind("<")
    if opening < 1 or not content.endswith(">") or content[opening - 1] == "\x00":
        return None
    return content[opening + 1 : -1]


def _embedded_target(content: str) -> str | None:
    """The relative file a reST hyperlink `` `text <file.rst>`_ `` embeds, or None (no embedded
    target, a URL, an e-mail address, or a named target `<name_>`)."""
    content = content.rstrip()
    opening = content.rfind("<")
    if not content.endswith(">") or opening < 0:
        return None
    if opening > 0 and not content[opening - 1].isspace():
        return None
    target = _SPACES.sub("", content[opening + 1 : -1])
    if not target or target.endswith("_") or ("@" in target and "/" not in target):
        return None
    return _link_target(target)


def _rst_label(target: re.Match[str], following: str) -> str | None:
    """The label of an internal `.. _label:` target line (`target`, matched by `_RST_TARGET`),
    or None (anonymous, or a target naming a URL, on this line or the next one indented deeper
    than its `..`)."""
    rest = target.string[target.end() :]
    if rest.startswith("`"):
        close = rest.find("`", 1)
        if close < 0 or not rest.startswith(":", close + 1):
            return None
        name, tail = rest[1:close], rest[close + 2 :]
    else:
        match = _RST_LABEL.match(rest)
        if match is None:
            return None
        name, tail = match.group(1).replace("\\", ""), rest[match.end() :]
    indent = target.start(1)  # in a list item: the column its text starts at
    if name == "_" or tail.strip():
        return None
    if following.strip() and len(following) - len(following.lstrip()) > indent:
        return None
    return name


def _mentions(
    text: str, strict: bool, citations: bool = False
) -> list[tuple[RefKind, re.Match[str]]]:
    """The `@id` (object) and `#id` (morphism) mentions of a masked text; `strict` in reST and
    plain text (the CatDoc way, see module doc); with `citations`, `@` as mystmd reads it."""
    out: list[tuple[RefKind, re.Match[str]]] = []
    for sigil, pattern, kind in _MENTION_PATTERNS:
        if sigil not in text:
            continue
        if citations and sigil == "@":
            pattern = _CITATION
        for match in pattern.finditer(text):
            ident = match.group(1)
            if _has_letter(ident) and (not strict or _catdoc_way(ident, text, match.end())):
                out.append((kind, match))
    return out


_MENTION_PATTERNS: tuple[tuple[str, re.Pattern[str], RefKind], ...] = (
    ("@", _OBJECT_REF, "object"),
    ("#", _MORPHISM_REF, "morphism"),
)


def _catdoc_way(ident: str, text: str, end: int) -> bool:
    """Whether a reST or plain-text mention is written the CatDoc way (see module doc)."""
    return not text.startswith("(", end) and written_as_id(ident)


def written_as_id(ident: str) -> bool:
    """Whether a mention's id is written as CatDoc writes ids, not as code, a colour or a commit:
    with a `-` or a digit, no `.`, not only hexadecimal digits (see module doc)."""
    if "." in ident or _HEX.fullmatch(ident):
        return False
    return "-" in ident or any(c.isdigit() for c in ident)


def _mention(kind: RefKind, ident: str, number: int, column: int, offset: int = 0) -> _Found:
    return _Found(Reference(kind, ident, number), column, column + len(ident), offset)


def _has_letter(ident: str) -> bool:
    return any(c.isalpha() for c in ident)


def _blank(match: re.Match[str]) -> str:
    return _NOT_NEWLINE.sub(" ", match.group())


def _link_target(dest: str) -> str | None:
    """A relative document link's path (fragment and query dropped), or None for anything else."""
    dest = dest.strip().removeprefix("<").removesuffix(">")
    if not dest or dest.startswith(("#", "?")) or _SCHEME.match(dest):
        return None
    dest = dest.split("#", 1)[0].split("?", 1)[0]
    return unquote(dest) or None


def _markdown_target(dest: str) -> str | None:
    """A Markdown link's target: a relative path as `_link_target` reads it, an anchor as
    written, or one written with a scheme and no `//` as written, less its fragment (see module
    doc)."""
    target = _link_target(dest)
    if target is not None:
        return target
    dest = dest.strip().removeprefix("<").removesuffix(">")
    if dest.startswith("#"):
        return unquote(dest) if len(dest) > 1 else None
    if not _NO_AUTHORITY.match(dest):
        return None
    written, _, fragment = dest.partition("#")
    if written == MYST_PROJECT and fragment:
        return "#" + unquote(fragment)  # a target anywhere in the project, as `#target`
    written = unquote(written)
    return None if written.endswith(":") else written


def _code_span(match: re.Match[str], found: list[_Found], line: int, myst: bool) -> str:
    """A Markdown code span, blanked; right after `{name}` it is a MyST role, and added."""
    if myst:
        role = _MYST_ROLE.search(match.string, max(0, match.start() - 66), match.start())
        if role is not None:
            target = _role_target(match.group().strip("`"))
            if target:
                found.append(_Found(Reference("role", target, line, role.group(1).lower())))
    return " " * len(match.group())


def _wiki(match: re.Match[str], found: list[_Found], line: int) -> str:
    target = match.group(2).strip()
    if target and not match.group(1):
        found.append(_Found(Reference("wiki", target, line)))
    return " " * len(match.group())


def _link_tail(match: re.Match[str], found: list[_Found], line: int) -> str:
    target = _markdown_target(match.group(1))
    if target:
        found.append(_Found(Reference("link", target, line)))
    return " " * len(match.group())


def _html_tag(match: re.Match[str], found: list[_Found], line: int) -> str:
    """An HTML start tag (or a whole `<a>` link, `_HTML_LINK`), blanked; an `<a href>`'s
    document link is added."""
    tag = match.group()
    if match.group(1).lower() == "a":
        href = _HTML_HREF.search(tag)
        target = _link_target(next(g for g in href.groups() if g is not None)) if href else None
        if target:
            found.append(_Found(Reference("link", html.unescape(target), line)))
    return " " * len(tag)


def _link(match: re.Match[str], found: list[_Found], line: int) -> str:
    """An inline link or image, blanked, text and all (the text labels the destination, as an
    image's alt text describes it: `[@tiangolo](https://github.com/tiangolo)` mentions no one);
    a link to a document is added."""
    target = _markdown_target(match.group(3))
    if target and not match.group(1):
        found.append(_Found(Reference("link", target, line)))
    return " " * len(match.group())


__all__ = [
    "TOCTREE",
    "RefKind",
    "Reference",
    "extract_references",
    "label_key",
    "labels_of",
    "may_define_labels",
    "normalize_label",
    "rename_mentions",
    "written_as_id",
]
