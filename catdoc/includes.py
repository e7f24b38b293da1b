"""Files a document pulls in: reST `.. include::` and `.. literalinclude::`, MyST
```` ```{include} ```` and ```` ```{literalinclude} ```` (also `:::{include}`, and reST in an
```` ```{eval-rst} ```` block), AsciiDoc `include::file.adoc[]`. Such a file is a fragment of the
document, not a document, unless a Sphinx project builds it: Sphinx makes a page of every source
file it finds, included or not; so does Antora of every file of a component's pages family
but those it hides by a `_` name (`IncludeReader.builds`).

Sphinx reads an included file as part of the including document: the labels it defines are the
document's (`:ref:` leads to the including page), so are the references written in it (at the
line of the document's include directive), and its first section title is the document's title
when nothing of the document's own comes first. A literal include (`literalinclude`, or
`include` with `:literal:` or `:code:`) inserts the file as code: it is a fragment too, but
defines nothing. A reST include reads the file as reST (as Markdown with a MyST `:parser:`), a
MyST include as Markdown, whatever the file's suffix; `:start-line:`, `:end-line:`,
`:start-after:` and `:end-before:` clip it as docutils does. A text's structure is read once, by
the scan that finds its titles: in reST an include counts at a directive line `markup.scan_rst`
finds outside code (`Structure.directives`: a `literalinclude`'s own line is code, so `code`
alone would hide it); in MyST where `markup.scan_markdown` finds a directive's fence (not in
code, an HTML comment or a directive's options), and an `{eval-rst}` body is reST up to the line
that closes it, or to the end when none does, as MyST reads an unclosed fence.

Paths are joined as Sphinx joins them: one starting with `/` from the docs root (Sphinx's source
folder), any other from the folder of the document, also in an included file (plain docutils
would take the included file's folder; Sphinx keeps its way, sphinx-doc/sphinx#6345). A
`<name>` path is one of docutils' own files, not the project's. A path that leaves the project is
never read; includes are followed `MAX_DEPTH` deep, and a file already on the chain is not read
again (docutils refuses circular inclusion). A file that one include of the document brings in
more than once (`a` includes `b` twice) counts once: docutils would insert it each time, and
files that include the next one N times each would make N^depth copies. A document's walk reads
`MAX_INCLUDES` include directives at most, at any depth.

AsciiDoc includes are read as Asciidoctor reads them: an `include::` line (at the start of a
line, not escaped) anywhere but in a comment block; in a listing, literal or passthrough block
(`----`, `....`, `++++`, ```` ``` ````) it inserts the file as code (a literal include). Its path
is taken from the folder of the file that holds the directive (an included file's own folder for
the includes in it); in a file of an Antora component a target with a family or a module
(`partial$note.adoc`, `ROOT:partial$note.adoc`, `shop:ops:example$app.js`) is a resource id,
resolved as Antora resolves it (`catdoc.antora`). A target made of attributes
(`{partialsdir}/x.adoc`) or a URL is not read. Only the lines an include selects count
(`Selection`): `lines=1..5;10` by number, `tag=x` or `tags=a;!b` by the regions that
`tag::a[]` and `end::a[]` lines mark, as Asciidoctor's reader selects them (in a file of an
Antora component, as Antora's include processor does); a selection made of attributes is not
known, and the whole file counts.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from catdoc.antora import AntoraComponents
from catdoc.documents import (
    Reference,
    extract_references,
    labels_of,
    may_define_labels,
    read_document,
)
from catdoc.errors import CatDocError
from catdoc.front_matter import body_lines
from catdoc.markup import (
    Fence,
    Heading,
    Kind,
    Structure,
    adoc_delimiter,
    directive_option,
    fence_directive,
    indent_of,
    scan_rst,
    scan_structure,
)
from catdoc.project_files import resolve_inside

MAX_DEPTH = 8
"""How deep includes nest before the rest is left unread: far more than docs trees use."""
MAX_INCLUDES = 10_000
"""Include directives one document's walk reads at most, at any depth, before the rest is left
unread: files that each include all the others make a walk of (files)^2 × depth directives per
document, however few the files are, since each include of the document is walked apart."""

_RST_INCLUDE = re.compile(r"[ \t]*\.\.[ \t]+(include|literalinclude)[ \t]*::(?:[ \t]+(.*))?$")
_RST_OPTION = re.compile(r":([\w-]+):(?:[ \t]+(.*))?$")
_MYST_OPTION = re.compile(r"([\w-]+)[ \t]*:[ \t]*(.*)$")
"""A MyST directive's option, `key: value`: a line of its YAML block, or a `:key: value` line
without its first colon (as MyST-Parser reads one)."""
_GATE = re.compile(r"include[ \t]*::|\{(?:literal)?include\}")
_ADOC_INCLUDE = re.compile(r"include::([^\[\s][^\[]*)\[([^\]\n]*)\][ \t]*$")
_ADOC_ATTRIBUTE = re.compile(
    r"""[ \t]*(?:(\w[\w.-]*)[ \t]*=[ \t]*)?("[^"]*"|'[^']*'|[^,]*)[ \t]*(?:,|$)"""
)
"""One entry of an AsciiDoc attribute list (`tags="a,b"`, `lines=1..5;10`, `leveloffset=+1`):
its name when it has one, and its value, quoted or not."""
_TAG_DIRECTIVE = re.compile(r"(?<![A-Za-z0-9_])(?:tag|(e)nd)::")
_NON_SPACE = re.compile(r"[^ \t\r\n\f\v]+")
"""A run of what Ruby's `\\S` matches (Asciidoctor's `TagDirectiveRx` reads a name as one)."""
_RUBY_INT = re.compile(r"[ \t\n\v\f\r]*([+-]?\d+(?:_\d+)*)")
_JS_INT = re.compile(r"\s*([+-]?\d+)")
_BIG = 10**18
"""A line number past any file's end (a longer one is read as this: the outcome is the same)."""
_ADOC_COMMENT = "////"
_MARKDOWN_PARSERS = ("myst", "mark")
"""A reST include's `:parser:` that reads Markdown (`myst_parser.sphinx_`, `commonmark` …)."""


@dataclass(frozen=True)
class Clip:
    """The part of an included file docutils takes (options as written)."""

    start_line: str | None = None
    end_line: str | None = None
    start_after: str | None = None
    end_before: str | None = None

    def apply(self, text: str) -> str | None:
        """The clipped text as docutils' `Include.read_file` clips it; None where docutils
        fails (a line number that is no number, a text that is not found): nothing included."""
        try:
            start = int(self.start_line) if self.start_line is not None else None
            end = int(self.end_line) if self.end_line is not None else None
        except ValueError:
            return None
        if start or end is not None:
            text = "\n".join(text.splitlines()[start:end])
        after = "\n\n" if self.start_after == "" else self.start_after
        if after:
            at = text.find(after)
            if at < 0:
                return None
            text = text[at + len(after) :]
        if self.end_before == "":
            at = text.find("\n\n")
            text = text[: at + 1] if at > 0 else text
        elif self.end_before:
            at = text.find(self.end_before)
            if at < 0:
                return None
            text = text[:at]
        return text


@dataclass(frozen=True)
class Selection:
    """The lines of a file an AsciiDoc include takes, its attributes as written: `lines`, else
    `tag`, else `tags` (the first one set rules, as in Asciidoctor's reader), selected as
    Asciidoctor 2 selects them, or as Antora's include processor does (`antora`: in a file of
    an Antora component, where they differ over odd values: a line number below 1 stops
    Asciidoctor's selection, Antora skips it; `tags=!*;a` keeps Antora's untagged lines)."""

    lines: str | None = None
    tag: str | None = None
    tags: str | None = None
    antora: bool = False

    @classmethod
    def of(cls, attributes: str, *, antora: bool) -> Selection | None:
        """The selection an include's attribute list asks for (None: the whole file, also for
        one made of attributes, whose value is not known here)."""
        if "=" not in attributes:
            return None
        named: dict[str, str] = {}
        for entry in _ADOC_ATTRIBUTE.finditer(attributes):
            if entry.group(1) in ("lines", "tag", "tags"):
                named[entry.group(1)] = _unquoted(entry.group(2).strip())
        if not named or any("{" in value for value in named.values()):
            return None
        return cls(named.get("lines"), named.get("tag"), named.get("tags"), antora)

    def apply(self, text: str) -> str | None:
        """The selected lines of `text`, or None when none is."""
        lines = text.split("\n")
        if self.lines is not None:
            numbers = _js_lines(self.lines) if self.antora else _ruby_lines(self.lines)
            if numbers is not None:
                return _joined_lines(_by_number(lines, *numbers))
            if not self.antora:
                return text  # Asciidoctor reads no tag beside a `lines=` that names no line
        tags = _tags(self.tag, self.tags)
        if tags is None:
            return text
        return _joined_lines(_by_tags(lines, tags, antora=self.antora))


def _joined_lines(lines: list[str]) -> str | None:
    return "\n".join(lines) if lines else None


def _delimited(value: str) -> list[str]:
    """A `lines=` or `tags=` value's entries: split at commas when it has one, else at
    semicolons (Ruby's `split`, which drops trailing empty entries)."""
    parts = value.split("," if "," in value else ";")
    while parts and not parts[-1]:
        parts.pop()
    return parts


def _ruby_int(text: str) -> int:
    """`text.to_i`: the leading integer, 0 when none."""
    match = _RUBY_INT.match(text)
    if match is None:
        return 0
    digits = match.group(1).replace("_", "")
    return int(digits) if len(digits) <= 18 else (-_BIG if digits[0] == "-" else _BIG)


def _js_int(text: str) -> int:
    """`parseInt(text, 10) || -1`: the leading integer, -1 for none or 0."""
    match = _JS_INT.match(text)
    if match is None:
        return -1
    digits = match.group(1)
    number = int(digits) if len(digits) <= 18 else (-_BIG if digits[0] == "-" else _BIG)
    return number or -1


_Numbers = tuple[list[tuple[int, int]], bool]
"""Selected line numbers: ranges (first, last) and whether all lines after the last follow."""


def _ruby_lines(value: str) -> _Numbers | None:
    """Asciidoctor's reading of `lines=` (None: it names no line, and the whole file counts):
    `a..b`, `a` and `a..` or `a..-1` (from `a` to the end); a number below 1 among them takes
    nothing at all (`_by_number`)."""
    ranges: list[tuple[int, int]] = []
    rest = False
    for entry in _delimited(value):
        if ".." in entry:
            first, _, last = entry.partition("..")
            if not last or _ruby_int(last) < 0:
                ranges.append((_ruby_int(first), _ruby_int(first)))
                rest = True
            else:
                ranges.append((_ruby_int(first), _ruby_int(last)))
        else:
            ranges.append((_ruby_int(entry), _ruby_int(entry)))
    ranges = [(a, b) for a, b in ranges if a <= b]
    return (ranges, rest) if ranges else None


def _js_lines(value: str) -> _Numbers | None:
    """Antora's reading of `lines=`: as Asciidoctor's, but a number below 1 is skipped, and
    entries with no number select nothing (None: no entry at all, the tags are read)."""
    ranges: list[tuple[int, int]] = []
    rest = False
    entries = [part for part in value.split("," if "," in value else ";") if part]
    if not entries:
        return None
    for entry in entries:
        if ".." in entry:
            first, _, last = entry.partition("..")
            start, end = _js_int(first), _js_int(last)
            if end > 0 and start > 0:
                ranges.append((start, end))
            elif end == -1 and start > 0:
                ranges.append((start, start))
                rest = True
        elif (number := _js_int(entry)) > 0:
            ranges.append((number, number))
    return [(a, b) for a, b in ranges if a <= b], rest


def _by_number(lines: list[str], ranges: list[tuple[int, int]], rest: bool) -> list[str]:
    """The lines whose (1-based) numbers are selected, as the readers walk their sorted list of
    numbers: a number below 1 heads it for good, so nothing is taken; after the last number,
    the rest when it is open-ended."""
    if not ranges:
        return []
    if min(a for a, _ in ranges) < 1:
        return []
    last = max(b for _, b in ranges)
    wanted = sorted(ranges)
    out: list[str] = []
    at = 0
    for number, line in enumerate(lines, 1):
        while at < len(wanted) and wanted[at][1] < number:
            at += 1
        if (at < len(wanted) and wanted[at][0] <= number) or (rest and number > last):
            out.append(line)
    return out


def _tags(tag: str | None, tags: str | None) -> dict[str, bool] | None:
    """The tags an include selects (True) or leaves out (False), as `tag=x`, `tag=!x` or
    `tags=a;!b` name them; None when none is named (the whole file)."""
    if tag is not None:
        if not tag or tag == "!":
            return None
        return {tag[1:]: False} if tag.startswith("!") else {tag: True}
    if tags is None:
        return None
    named: dict[str, bool] = {}
    for entry in _delimited(tags):
        if entry and entry != "!":
            named[entry.removeprefix("!")] = not entry.startswith("!")
    return named or None


def _by_tags(lines: list[str], tags: dict[str, bool], *, antora: bool) -> list[str]:
    """The lines the tags select, as Asciidoctor's reader (or Antora's include processor) walks
    the `tag::name[]` and `end::name[]` lines, which are never taken themselves: `*` is every
    other tag, `**` every line; with no tag selected, the untagged lines are. An end that is
    not the innermost region's closes the innermost open region of its name, found without
    the readers' scan of the whole stack (quadratic in a file of thousands of tags)."""
    tags = dict(tags)
    wildcard: bool | None
    if "**" in tags:
        base = tags.pop("**")
        wildcard = tags.pop("*") if "*" in tags else base
    elif antora and "*" in tags:
        wildcard = tags.pop("*")
        base = not wildcard
    else:
        base = True not in tags.values()
        wildcard = tags.pop("*", None)
    select, active = base, None
    stack: list[tuple[str, bool] | None] = []  # None: a region that ended out of order
    opened: dict[str, list[int]] = {}  # where in `stack` each name's open regions are
    out: list[str] = []
    for line in lines:
        directive = _tag_directive(line)
        if directive is None:
            if select:
                out.append(line)
            continue
        end, name = directive
        if end:
            if name == active:
                stack.pop()
                opened[name].pop()
                while stack and stack[-1] is None:
                    stack.pop()
                active, select = stack[-1] or (None, base) if stack else (None, base)
            elif name in tags and opened.get(name):
                stack[opened[name].pop()] = None  # the readers' rindex, without a scan
        elif name in tags or wildcard is not None:
            select = tags.get(name, False if active and not select else wildcard)
            active = name
            opened.setdefault(name, []).append(len(stack))
            stack.append((name, select))
    return out


def _tag_directive(line: str) -> tuple[bool, str] | None:
    """(whether it ends a region, the tag's name) of a line that Asciidoctor's
    `TagDirectiveRx`, `\\b(?:tag|(e)nd)::(\\S+?)\\[\\](?=$|[ \\r])`, matches, found in one
    pass: the name and its `[]` are one run of non-space, ended by a space, a CR or the line's
    end."""
    if "::" not in line or "[]" not in line:
        return None
    for run in _NON_SPACE.finditer(line):
        end = run.end()
        if not run.group().endswith("[]") or line[end : end + 1] not in ("", " ", "\r"):
            continue
        found = _TAG_DIRECTIVE.search(line, run.start(), end)
        if found is not None and found.end() < end - 2:
            return found.group(1) is not None, line[found.end() : end - 2]
    return None


@dataclass(frozen=True)
class Include:
    """One include directive: the project-relative file, the directive's line (an index into
    the text's body lines), how the file is read (None: inserted as code) and its clip."""

    path: str
    line: int
    kind: Kind | None
    clip: Clip | Selection = Clip()


@dataclass
class Included:
    """What a document pulls in, at any depth: the files, the labels they define, and the
    title an include gives it (one that comes before the document's own first heading)."""

    files: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    title: str | None = None
    references: list[Reference] = field(default_factory=list)
    """The references written in the files it includes (not literally), each at the line of the
    document's own include directive that brings it in: Sphinx reads them as the document's."""


def may_include(text: str) -> bool:
    """Whether `text` may hold an include directive: a cheap test that spares most documents
    (prose says "include" often) a scan of their structure."""
    return "include" in text and _GATE.search(text) is not None


def includes_in(text: str, kind: Kind, folder: str, docs_root: str) -> list[Include]:
    """The include directives of a document's text, outside code, in text order; `folder` is
    the document's (project-relative), `docs_root` where `/` paths start. Directives whose
    path is a docutils standard file or leaves the project are left out."""
    if kind not in ("rst", "markdown") or not may_include(text):
        return []
    lines, _ = body_lines(text, kind)
    written = _directives(lines, kind, scan_structure(lines, kind))
    return list(_joined(written, folder, _normal_root(docs_root)))


@dataclass(frozen=True)
class _Directive:
    """An include directive as written: its path not yet joined (see `_joined`), unless the
    file it is written in decides it (`path`: an AsciiDoc include's)."""

    argument: str
    line: int
    kind: Kind | None
    clip: Clip | Selection
    path: str | None = None


def _joined(directives: Iterable[_Directive], folder: str, root: str) -> Iterator[Include]:
    """The directives with their paths joined from `folder` (see module doc), but those whose
    path names no file of the project; joined as they are read (a walk may stop early)."""
    for written in directives:
        path = written.path or _target(written.argument, folder, root)
        if path is not None:
            yield Include(path, written.line, written.kind, written.clip)


def _directives(lines: list[str], kind: Kind, structure: Structure) -> list[_Directive]:
    """The include directives of `lines` (whose `structure` tells a MyST text's fences)."""
    if kind == "rst":
        return _rst_includes(lines, 0, structure)
    found: list[_Directive] = []
    for i in structure.fences:
        directive = fence_directive(lines[i])
        if directive is None:
            continue
        name, argument = directive
        end = structure.fence_ends[i]
        if name == "eval-rst":
            body = lines[i + 1 : end]
            found += _rst_includes(body, i + 1, scan_rst(body))
        elif name in ("include", "literalinclude"):
            options = _myst_options(lines[i + 1 : end], indent_of(lines[i]))
            literal = name == "literalinclude" or "literal" in options or "code" in options
            kind_read: Kind | None = None if literal else "markdown"
            found.append(_Directive(argument.strip(), i, kind_read, _clip(options)))
    return found


def _adoc_includes(lines: list[str], file: str, antora: AntoraComponents) -> list[_Directive]:
    """The AsciiDoc include directives of the lines of the file at `file` (project-relative),
    outside comment blocks, literal in a verbatim block, their paths resolved from that file
    (see module doc)."""
    found: list[_Directive] = []
    closer: str | None = None  # the line that closes the verbatim block the line is in
    for i, line in enumerate(lines):
        stripped = line.rstrip()
        if closer is not None:
            if stripped == closer:
                closer = None
                continue
            if closer == _ADOC_COMMENT:
                continue
        elif adoc_delimiter(stripped):
            closer = "```" if stripped.startswith("```") else stripped
            continue
        match = _ADOC_INCLUDE.match(line) if line.startswith("include::") else None
        argument = match.group(1).strip() if match else ""
        path = _adoc_include_path(argument, file, antora) if argument else None
        if match is not None and path is not None:
            kind: Kind | None = None if closer else "asciidoc"
            place = antora.place(file) is not None
            selection = Selection.of(match.group(2), antora=place) or Clip()
            found.append(_Directive(argument, i, kind, selection, path))
    return found


def _adoc_include_path(target: str, file: str, antora: AntoraComponents) -> str | None:
    """The project-relative file an AsciiDoc include names (see module doc), or None."""
    if "{" in target or "://" in target or target.startswith("/"):
        return None
    if ("$" in target or ":" in target) and antora.place(file) is not None:
        return antora.resolve(file, target)
    path = posixpath.normpath(posixpath.join(posixpath.dirname(file) or ".", target))
    return None if path in (".", "..") or path.startswith("../") else path


def _rst_includes(lines: list[str], first: int, structure: Structure) -> list[_Directive]:
    """reST include directives, at the directive lines `structure` (the scan of `lines`) finds
    outside code: a `literalinclude`'s own line is code, only code around it hides it. `first`
    is the index of `lines[0]` in the document (an `{eval-rst}` body's in a MyST one)."""
    found: list[_Directive] = []
    for i in structure.directives:
        match = _RST_INCLUDE.match(lines[i])
        if match is None:
            continue
        argument, options = _rst_directive_block(lines, i, match.group(2) or "")
        literal = match.group(1) == "literalinclude" or "literal" in options or "code" in options
        parser = (options.get("parser") or "").lower()
        markdown = any(name in parser for name in _MARKDOWN_PARSERS)
        kind: Kind | None = None if literal else "markdown" if markdown else "rst"
        found.append(_Directive(argument, first + i, kind, _clip(options)))
    return found


def _rst_directive_block(lines: list[str], at: int, head: str) -> tuple[str, dict[str, str]]:
    """A directive's argument (its lines joined as docutils joins a path) and its options."""
    indent = indent_of(lines[at])
    argument = [head.strip()]
    options: dict[str, str] = {}
    last: str | None = None
    for j in range(at + 1, len(lines)):  # no slice: a copy of the rest per directive
        line = lines[j]
        if not line.strip() or indent_of(line) <= indent:
            break
        option = _RST_OPTION.match(line.strip())
        if option is not None:
            last = option.group(1).lower()
            options[last] = (option.group(2) or "").strip()
        elif last is not None:
            options[last] = f"{options[last]} {line.strip()}".strip()
        else:
            argument.append(line.strip())
    return "".join(argument), options


def _myst_options(body: list[str], base: int) -> dict[str, str]:
    """A MyST directive's options: `key: value` on the lines at the start of its `body` that
    the scanner reads as its options (`markup.directive_option`: `:key: value` lines, or a YAML
    block between `---` lines), so that both agree on where they end; `base` is the indent of
    the directive's opening fence, which its body is read without."""
    fence = Fence("`", 3, 0, base, options="start")
    options: dict[str, str] = {}
    for line in body:
        if not fence.options or not directive_option(fence, line[min(indent_of(line), base) :]):
            break
        pair = _MYST_OPTION.match(line.strip().removeprefix(":"))
        if pair is not None:
            options[pair.group(1).lower()] = _unquoted(pair.group(2).strip())
    return options


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _clip(options: Mapping[str, str]) -> Clip:
    return Clip(
        options.get("start-line"),
        options.get("end-line"),
        options.get("start-after"),
        options.get("end-before"),
    )


def _normal_root(docs_root: str) -> str:
    """The docs root as `catdoc.references` reads it: project-relative, `.` for the root."""
    return posixpath.normpath(docs_root.strip("/") or ".")


def _target(argument: str, folder: str, root: str) -> str | None:
    """The project-relative path an include names (see module doc), or None for a docutils
    standard file (`<isonum.txt>`), an empty path or one that leaves the project."""
    if not argument or (argument.startswith("<") and argument.endswith(">")):
        return None
    joined = (
        posixpath.join(root, argument.lstrip("/"))
        if argument.startswith("/")
        else posixpath.join(folder or ".", argument)
    )
    path = posixpath.normpath(joined)
    if path in (".", "..") or path.startswith(("../", "/")):
        return None
    return path


@dataclass
class _Part:
    """A text as includes are followed through it: its first titled heading, and its include
    directives as written (their paths are joined per document that includes the text: a
    relative one is read from that document's folder)."""

    heading: Heading | None
    directives: list[_Directive]

    @classmethod
    def read(
        cls,
        text: str,
        lines: list[str],
        kind: Kind,
        file: str,
        antora: AntoraComponents,
        structure: Structure | None = None,
    ) -> _Part:
        """The part of `text` (whose body `lines` are read as `kind`), the text of the file at
        `file` (an AsciiDoc include's path is taken from there, `antora` its components);
        `structure` is the structure of `lines` when the caller has it."""
        if structure is None or len(structure.code) != len(lines):
            structure = scan_structure(lines, kind)
        heading = next((h for h in structure.headings if h.title), None)
        if not may_include(text):
            return cls(heading, [])
        if kind == "asciidoc":
            return cls(heading, _adoc_includes(lines, file, antora))
        return cls(heading, _directives(lines, kind, structure))


@dataclass
class _Fragment:
    """An included file as one include reads it (clipped, as a kind): what it defines is read
    once, however many documents include it, and its references only once someone wants them,
    all from one scan of its structure."""

    text: str
    kind: Kind
    part: _Part
    labels: list[str]
    structure: Structure
    _references: dict[str | None, list[Reference]] = field(default_factory=dict)

    def references(self, default_role: str | None = None) -> list[Reference]:
        """The references written in it, read on first use (labels alone cost none), its
        interpreted text without a role being `default_role`, the includer's (Sphinx reads an
        included file as part of the document that includes it)."""
        found = self._references.get(default_role)
        if found is None:
            found = self._references[default_role] = extract_references(
                self.text, kind=self.kind, structure=self.structure, default_role=default_role
            )
        return found


_Seen = tuple[str, Kind, Clip | Selection, int]
"""A fragment as one include of a document brings it in: file, kind, clip, and the line of the
document's directive (where its references are reported)."""


@dataclass
class _Walk:
    """One document's walk through its includes: its folder (where relative paths start), where
    its body starts in its file, whether references are wanted, and what it gathers. `followed`
    holds each fragment the walk followed, with the depth it was followed at and the titles it
    gave: one that an include brings in again gives nothing more; `left`, the include directives
    it may still read (`MAX_INCLUDES`)."""

    folder: str
    offset: int
    references: bool
    out: Included
    default_role: str | None = None
    followed: dict[_Seen, tuple[int, tuple[str | None, str | None]]] = field(default_factory=dict)
    listed: set[str] = field(default_factory=set)
    """The files in `out.files`: a document of many includes is not a quadratic walk."""
    left: int = MAX_INCLUDES


class IncludeReader:
    """Follows the includes of the documents of one batch (an import, a suggestion run),
    reading each included file once, and each way it is included (as a kind, clipped) once.
    `texts` are documents already read (project-relative path → text); other files are read
    inside the project only (`resolve_inside`)."""

    def __init__(self, root: Path, docs_root: str, texts: Mapping[str, str] | None = None) -> None:
        self.root = root
        self.docs_root = _normal_root(docs_root)
        self._texts: dict[str, str | None] = dict(texts or {})
        self._fragments: dict[tuple[str, Kind, Clip | Selection], _Fragment | None] = {}
        self.antora = AntoraComponents(root)
        """The Antora components of the documents read: where their resource ids lead."""
        self.antora.learn(self._texts)

    def of(
        self,
        rel: str,
        text: str,
        kind: Kind,
        *,
        references: bool = True,
        structure: Structure | None = None,
        default_role: str | None = None,
    ) -> Included:
        """What the document at `rel` pulls in (see module doc); without `references`, not
        the references of the files it includes (a caller that wants labels pays for none).
        `structure` is the structure of its body when the caller has it; `default_role` the
        role of its interpreted text without one (Sphinx's `default_role`), in what it includes
        too."""
        out = Included()
        if kind in ("rst", "markdown", "asciidoc") and may_include(text):
            lines, offset = body_lines(text, kind)
            part = _Part.read(text, lines, kind, rel, self.antora, structure)
            walk = _Walk(posixpath.dirname(rel), offset, references, out, default_role)
            out.title = self._follow(part, (rel,), walk, None)[0]
        return out

    def _follow(
        self, part: _Part, chain: tuple[str, ...], walk: _Walk, at: int | None
    ) -> tuple[str | None, str | None]:
        """Adds to the walk's `out` what `part` pulls in; returns (the title an include before
        its first heading gives, its own first heading's title). `at` is the file line of the
        document's include directive that brought `part` in (None for the document's own)."""
        own = part.heading
        given: str | None = None
        for inc in _joined(part.directives, walk.folder, self.docs_root):
            walk.left -= 1
            if walk.left < 0:
                break
            if inc.path in chain:
                continue
            if inc.path not in walk.listed:
                walk.listed.add(inc.path)
                walk.out.files.append(inc.path)
            if len(chain) > MAX_DEPTH or inc.kind is None:
                continue
            line = at if at is not None else inc.line + walk.offset + 1
            seen = (inc.path, inc.kind, inc.clip, line)
            done = walk.followed.get(seen)
            if done is not None and done[0] <= len(chain):
                sub = done[1]
            else:
                fragment = self._fragment(inc.path, inc.kind, inc.clip)
                if fragment is None:
                    continue
                if done is None:
                    walk.out.labels += fragment.labels
                    if walk.references:
                        walk.out.references += [
                            replace(ref, line=line)
                            for ref in fragment.references(walk.default_role)
                        ]
                sub = self._follow(fragment.part, (*chain, inc.path), walk, line)
                walk.followed[seen] = (len(chain), sub)
            title = sub[0] or sub[1]
            if given is None and title and (own is None or inc.line < own.first):
                given = title
        return given, own.title if own else None

    def _fragment(self, rel: str, kind: Kind, clip: Clip | Selection) -> _Fragment | None:
        """The file at `rel` as an include reads it, or None when nothing of it is included
        (it cannot be read, the clip fails, or the selection takes no line). Its reading is the
        same whoever includes it, from any folder: only the paths of its own includes depend on
        that (`_joined`)."""
        key = (rel, kind, clip)
        if key not in self._fragments:
            text = self._text(rel)
            clipped = clip.apply(text) if text is not None else None
            if clipped is None:
                self._fragments[key] = None
            else:
                lines = body_lines(clipped, kind)[0]
                structure = scan_structure(lines, kind)
                labels = (
                    [label for label, _ in labels_of(clipped, kind, structure)]
                    if may_define_labels(clipped, kind)
                    else []
                )
                part = _Part.read(clipped, lines, kind, rel, self.antora, structure)
                self._fragments[key] = _Fragment(clipped, kind, part, labels, structure)
        return self._fragments[key]

    def builds(self, rel: str, sphinx: Callable[[str], bool | None]) -> bool | None:
        """Whether the file at `rel` is made a page of its own whoever includes it: a page of an
        Antora component that Antora publishes (`Place.published`), else as `sphinx`
        (a Sphinx project's `builds`) says."""
        place = self.antora.place(rel)
        return True if place is not None and place.published else sphinx(rel)

    def _text(self, rel: str) -> str | None:
        """The text of a file inside the project, or None when it cannot be read."""
        if rel not in self._texts:
            try:
                self._texts[rel] = read_document(resolve_inside(self.root, rel), rel)
            except CatDocError:
                self._texts[rel] = None
        return self._texts[rel]


def fragments(
    included: Mapping[str, Included], builds: Callable[[str], bool | None] = lambda _: None
) -> dict[str, list[str]]:
    """Each file a document of `included` (path → what it pulls in) includes, with the
    documents that include it, sorted. A document that the file includes in turn is not
    counted: two files that include each other (a loop docutils refuses) stay documents; nor is
    a file that `builds` says a Sphinx project builds (`importer.sphinx_conf`)."""
    out: dict[str, list[str]] = {}
    for rel in sorted(included):
        for path in included[rel].files:
            if path == rel or builds(path) is True:
                continue
            back = included.get(path)
            if back is not None and rel in back.files:
                continue
            out.setdefault(path, []).append(rel)
    return out


def included_by(paths: Iterable[str], limit: int = 3) -> str:
    """`a.rst, b.rst and 2 more`: the documents that include a fragment, for a message."""
    names = list(paths)
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


__all__ = [
    "MAX_DEPTH",
    "MAX_INCLUDES",
    "Clip",
    "Include",
    "IncludeReader",
    "Included",
    "Selection",
    "fragments",
    "included_by",
    "includes_in",
    "may_include",
]
