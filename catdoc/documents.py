"""Document text: reading files safely, front matter, chunking along headings, references.

Everything here is pure text processing over one document, shared by the importer and the search
index. Line numbers are 1-based and always relative to the whole file (front matter included), so
a chunk or a reference can be shown as `path:line` in any editor.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote

import yaml_rs

from catdoc.errors import IO_ERROR, NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.model import DocObject
from catdoc.project import resolve_inside

Kind = Literal["markdown", "rst", "text"]
RefKind = Literal["object", "morphism", "link", "wiki"]

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdx"})
RST_SUFFIXES = frozenset({".rst", ".rest"})
DOCUMENT_SUFFIXES = MARKDOWN_SUFFIXES | RST_SUFFIXES | {".txt", ".text", ".adoc", ".asciidoc"}
"""Suffixes a directory import picks up; an explicitly named file may be any text file."""

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
"""Larger files are refused (and never read past this): a document that big is data, not prose."""
MAX_FRONT_MATTER_DEPTH = 64
MAX_FRONT_MATTER_DIGITS = 1000
"""Front matter nested deeper, or holding an integer with more digits, is refused as bad front
matter: no real metadata looks like that, and such values break printing and hashing."""

DEFAULT_MAX_CHARS = 1500


@dataclass(frozen=True)
class FrontMatter:
    """A document split into its YAML front matter and its body.

    A broken front matter leaves `meta` empty and says why in `error`: readers (search) go on
    with the body, the importer refuses the file so no metadata is silently dropped.
    """

    meta: dict[str, Any]
    body: str
    body_start_line: int
    error: str | None = None


@dataclass(frozen=True)
class Chunk:
    """A passage of a document: the headings above it and its inclusive line range."""

    index: int
    heading_path: list[str]
    start_line: int
    end_line: int
    text: str


@dataclass(frozen=True)
class Reference:
    """A mention of another entity in a document's text, as written (not yet resolved)."""

    kind: RefKind
    target: str
    line: int


@dataclass(frozen=True)
class _Heading:
    first: int  # index of the heading's first line (overline / title line)
    last: int  # index of its last line (underline for setext and rst titles)
    level: int
    title: str


@dataclass
class _Scan:
    headings: list[_Heading] = field(default_factory=list)
    code: list[bool] = field(default_factory=list)


# ---------------------------------------------------------------------------------- reading
def kind_of(path: str | Path) -> Kind:
    """The markup of a file, from its suffix: markdown, rst, or plain text."""
    suffix = Path(path).suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix in RST_SUFFIXES:
        return "rst"
    return "text"


def normalize_newlines(text: str) -> str:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_document(path: Path, label: str | None = None) -> str:
    """The text of a document file (UTF-8, newlines normalised); binary files are refused.

    Only regular files are read, at most `MAX_DOCUMENT_BYTES` of them: the file is opened without
    blocking and without following a last symbolic link (the caller resolved the path inside the
    project already), so a FIFO, a device, a socket or a directory gets a clear error instead of
    hanging the reader. `label` names the file in messages (the project-relative path).
    """
    name = label or str(path)
    try:
        fd = os.open(path, _READ_FLAGS)
    except FileNotFoundError:
        raise CatDocError(
            NOT_FOUND,
            f"Document file not found: {name}.",
            "Restore the file, or fix the object's `path` (relative to the project root).",
        ) from None
    except ValueError:  # a NUL character: `resolve_inside` refuses those before we get here
        raise CatDocError(
            VALIDATION_ERROR,
            f"{name} contains a NUL character; no file has such a name.",
            "Fix the object's `path`.",
        ) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise CatDocError(
                VALIDATION_ERROR,
                f"{name} is a symbolic link that changed while it was being read.",
                "Point the object's `path` at the file itself, and read it again.",
            ) from None
        if exc.errno == errno.ENXIO:
            raise _not_regular(name, "a socket or a device without a reader") from None
        raise CatDocError(
            IO_ERROR, f"Cannot read {name}: {exc.strerror}.", "Check the file's permissions."
        ) from None
    try:
        data = _read_regular(fd, name)
    except OSError as exc:
        raise CatDocError(
            IO_ERROR, f"Cannot read {name}: {exc.strerror}.", "Check the file's permissions."
        ) from None
    finally:
        os.close(fd)
    if b"\x00" in data[:65536]:
        raise CatDocError(
            VALIDATION_ERROR,
            f"{name} is a binary file, not a text document.",
            "Only text documents (.md, .rst, .txt, …) can be objects' files; link binary files "
            "with the object's `url` or describe them in a text document.",
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CatDocError(
            VALIDATION_ERROR,
            f"{name} is not UTF-8 text (undecodable byte at offset {exc.start}).",
            "Convert the file to UTF-8 (e.g. `iconv -f latin1 -t utf-8`), or leave it out.",
        ) from None
    return normalize_newlines(text)


_READ_FLAGS = (
    os.O_RDONLY
    | os.O_NONBLOCK
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_FILE_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _read_regular(fd: int, name: str) -> bytes:
    """At most `MAX_DOCUMENT_BYTES` of an open file, after checking that it is a regular file."""
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        raise CatDocError(
            VALIDATION_ERROR,
            f"{name} is a directory, not a document.",
            "Point the path at a text file (for whole folders use `catdoc import DIR`).",
        )
    if not stat.S_ISREG(info.st_mode):
        kind = next((k for test, k in _FILE_KINDS if test(info.st_mode)), "a special file")
        raise _not_regular(name, kind)
    chunks, size = [], 0
    if info.st_size <= MAX_DOCUMENT_BYTES:
        while size <= MAX_DOCUMENT_BYTES:
            chunk = os.read(fd, MAX_DOCUMENT_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    if info.st_size > MAX_DOCUMENT_BYTES or size > MAX_DOCUMENT_BYTES:
        raise CatDocError(
            VALIDATION_ERROR,
            f"{name} is larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MB; larger documents "
            "are refused.",
            "Split the document, or link to it with the object's `url` instead of `path`.",
        )
    return b"".join(chunks)


def _not_regular(name: str, kind: str) -> CatDocError:
    return CatDocError(
        VALIDATION_ERROR,
        f"{name} is not a regular file (it is {kind}); only regular files are read as documents.",
        "Point the object's `path` at an ordinary text file.",
    )


def read_object_text(root: Path, obj: DocObject) -> str | None:
    """The object's document: its `path` (inside the project), else inline `content`, else None."""
    if obj.path:
        return read_document(resolve_inside(root, obj.path), obj.path)
    return obj.content


# ---------------------------------------------------------------------------------- front matter
_FM_OPEN = re.compile(r"\A\ufeff?---[ \t]*\n")
_FM_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.M)
_YAML_LINE = re.compile(r"line (\d+)")


def split_front_matter(text: str) -> FrontMatter:
    """Split YAML front matter (between `---` lines at the very top) from the body."""
    text = normalize_newlines(text)
    opening = _FM_OPEN.match(text)
    closing = _FM_CLOSE.search(text, opening.end()) if opening else None
    if opening is None or closing is None:
        return FrontMatter({}, text, 1)
    end = closing.end() + (1 if text[closing.end() : closing.end() + 1] == "\n" else 0)
    body, body_start = text[end:], text.count("\n", 0, end) + 1
    raw = text[opening.end() : closing.start()]
    if not raw.strip():
        return FrontMatter({}, body, body_start)
    last = body_start - 1
    try:
        meta = yaml_rs.loads(raw)
    except yaml_rs.YAMLDecodeError as exc:
        detail = str(exc).strip()
        pos = _YAML_LINE.search(detail)
        where = f"line {int(pos.group(1)) + 1}" if pos else f"lines 1–{last}"
        reason = detail.splitlines()[-1].strip() if detail else "syntax error"
        return FrontMatter(
            {},
            body,
            body_start,
            f"front matter (lines 1–{last}) is not valid YAML at {where}: {reason}. Fix the YAML "
            "between the `---` lines (quote values that contain `: ` or start with `@`, `#`, `[`).",
        )
    except Exception as exc:  # the parser's own failures (recursion, value conversion, …)
        reason = _first_line(exc)
        return FrontMatter(
            {}, body, body_start, f"front matter (lines 1–{last}) cannot be read: {reason}."
        )
    if not isinstance(meta, dict):
        return FrontMatter(
            {},
            body,
            body_start,
            f"front matter (lines 1–{last}) must be a mapping of keys such as `title: …`, "
            f"not a {type(meta).__name__}. Write one `key: value` per line.",
        )
    problem = _unusable_value(meta)
    if problem:
        return FrontMatter(
            {},
            body,
            body_start,
            f"front matter (lines 1–{last}) {problem}. Quote the value to keep it as text, or "
            "remove it.",
        )
    return FrontMatter({str(k): v for k, v in meta.items()}, body, body_start)


def _first_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:200] if lines else type(exc).__name__


_BIG_INT = 10**MAX_FRONT_MATTER_DIGITS


def _unusable_value(meta: dict[Any, Any]) -> str | None:
    """What makes parsed front matter unsafe to use (a key or value nested too deeply, an integer
    too long to print), or None. Iterative, so depth itself cannot overflow the stack."""
    stack: list[tuple[Any, int, Any]] = [(meta, 0, None)]
    seen: set[int] = set()
    while stack:
        value, depth, top = stack.pop()
        if isinstance(value, int) and not isinstance(value, bool):
            if not -_BIG_INT < value < _BIG_INT:
                where = f" under `{top}`" if isinstance(top, str) else ""
                return f"holds an integer of more than {MAX_FRONT_MATTER_DIGITS:,} digits{where}"
            continue
        if not isinstance(value, dict | list | tuple | set | frozenset) or id(value) in seen:
            continue
        if depth >= MAX_FRONT_MATTER_DEPTH:
            return f"is nested more than {MAX_FRONT_MATTER_DEPTH} levels deep"
        seen.add(id(value))
        if isinstance(value, dict):
            pairs = [(k, k) for k in value] + [(v, k) for k, v in value.items()]
        else:
            pairs = [(item, None) for item in value]
        for child, key in pairs:
            stack.append((child, depth + 1, key if depth == 0 and isinstance(key, str) else top))
    return None


# ---------------------------------------------------------------------------------- structure
_ATX = re.compile(r"(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"(=+|-+)[ \t]*$")
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)$")
_LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_RST_ADORN = re.compile(r"([!-/:-@\[-`{-~])\1{2,}[ \t]*$")
_RST_CODE_DIRECTIVE = re.compile(r"\.\.[ \t]+(?:code|code-block|sourcecode)::")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _scan_markdown(lines: list[str]) -> _Scan:
    """Headings (ATX and setext, never inside code) and which lines are code."""
    scan = _Scan(code=[False] * len(lines))
    fence: str | None = None
    prev_para, prev_blank = False, True
    in_list = in_indented = False
    for i, line in enumerate(lines):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if fence is not None:
            scan.code[i] = True
            if indent < 4 and stripped.startswith(fence) and not stripped.strip(fence[0]).strip():
                fence = None
            continue
        if not stripped.strip():
            prev_para, prev_blank = False, True
            continue
        if (indent >= 4 or line.startswith("\t")) and (in_indented or prev_blank) and not in_list:
            scan.code[i] = in_indented = True
            prev_para = prev_blank = False
            continue
        in_indented = False
        was_blank, prev_blank = prev_blank, False
        if indent < 4 and stripped[:3] in ("```", "~~~"):
            match = _FENCE.match(stripped)
            if match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
                fence = match.group(1)
                scan.code[i] = True
                prev_para = False
                continue
        if indent < 4 and stripped[0] == "#":
            match = _ATX.match(stripped)
            if match:
                title = (match.group(2) or "").strip()
                scan.headings.append(_Heading(i, i, len(match.group(1)), title))
                prev_para = False
                continue
        if indent < 4 and prev_para and stripped[0] in "=-" and _SETEXT.match(stripped):
            title = lines[i - 1].strip()
            scan.headings.append(_Heading(i - 1, i, 1 if stripped[0] == "=" else 2, title))
            prev_para = False
            continue
        if indent < 4 and _LIST_ITEM.match(stripped):
            in_list, prev_para = True, False
            continue
        if indent == 0 and was_blank:
            in_list = False
        prev_para = indent < 4 and stripped[0] not in ">|<"
    return scan


def _scan_rst(lines: list[str]) -> _Scan:
    """Section titles (underlined, optionally overlined) and literal/code blocks."""
    scan = _Scan(code=[False] * len(lines))
    styles: list[tuple[str, bool]] = []
    code_indent: int | None = None
    for i, line in enumerate(lines):
        blank = not line.strip()
        if code_indent is not None:
            if blank or _indent(line) > code_indent:
                scan.code[i] = not blank
                continue
            code_indent = None
        if blank:
            continue
        stripped = line.rstrip()
        lead = stripped.lstrip()
        if _RST_CODE_DIRECTIVE.match(lead) or (
            stripped.endswith("::") and not lead.startswith("..")
        ):
            code_indent = _indent(line)
        if i == 0 or not _RST_ADORN.match(line):
            continue
        title = lines[i - 1]
        if not title.strip() or title[0] in " \t" or _RST_ADORN.match(title):
            continue
        over = i >= 2 and lines[i - 2].rstrip() == stripped
        if not over and i >= 2 and lines[i - 2].strip():
            continue
        style = (stripped[0], over)
        if style not in styles:
            styles.append(style)
        first = i - 2 if over else i - 1
        scan.headings.append(_Heading(first, i, styles.index(style) + 1, title.strip()))
    return scan


def _scan(lines: list[str], kind: Kind) -> _Scan:
    if kind == "markdown":
        return _scan_markdown(lines)
    if kind == "rst":
        return _scan_rst(lines)
    return _Scan(code=[False] * len(lines))


def _body_lines(text: str, kind: Kind) -> tuple[list[str], int]:
    """The lines after any front matter (not for rst) and the 0-based file line of the first."""
    if kind == "rst":
        return normalize_newlines(text).split("\n"), 0
    front = split_front_matter(text)
    return front.body.split("\n"), front.body_start_line - 1


# ---------------------------------------------------------------------------------- chunking
def chunk_text(
    text: str, *, kind: Kind = "markdown", max_chars: int = DEFAULT_MAX_CHARS
) -> list[Chunk]:
    """Split a whole document into passages along headings, then paragraphs, then lines.

    Front matter (Markdown, plain text) is not part of any chunk. No chunk's text is longer than
    `max_chars`; a single line longer than that is cut (at a space when there is one).
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    lines, offset = _body_lines(text, kind)
    scan = _scan(lines, kind)
    cum = [0]
    for line in lines:
        cum.append(cum[-1] + len(line) + 1)

    # sections: (first line index, end index exclusive, heading path); a heading with no text
    # of its own is merged into its first subsection so no chunk is a bare title
    sections: list[tuple[int, int, list[str]]] = []
    path: list[tuple[int, str]] = []
    heads = scan.headings
    if not heads or heads[0].first > 0:
        sections.append((0, heads[0].first if heads else len(lines), []))
    pending: int | None = None
    for n, heading in enumerate(heads):
        while path and path[-1][0] >= heading.level:
            path.pop()
        path.append((heading.level, heading.title))
        first, end = heading.first, heads[n + 1].first if n + 1 < len(heads) else len(lines)
        if pending is not None:
            first, pending = pending, None
        deeper_next = n + 1 < len(heads) and heads[n + 1].level > heading.level
        if deeper_next and not any(line.strip() for line in lines[heading.last + 1 : end]):
            pending = first
            continue
        sections.append((first, end, [title for _, title in path]))

    chunks: list[Chunk] = []
    for start, end, heading_path in sections:
        for a, b in _pieces(lines, cum, start, end, max_chars):
            piece = "\n".join(lines[a:b])
            if len(piece) <= max_chars:
                chunks.append(Chunk(len(chunks), heading_path, a + offset + 1, b + offset, piece))
                continue
            for cut in _cut_line(piece, max_chars):
                chunks.append(Chunk(len(chunks), heading_path, a + offset + 1, b + offset, cut))
    return chunks


def _pieces(
    lines: list[str], cum: list[int], start: int, end: int, max_chars: int
) -> list[tuple[int, int]]:
    """Line ranges [a, b) covering the non-blank lines of a section, each within the bound
    where possible: whole section, else packed paragraphs, else packed lines (a single
    over-long line comes back alone and is cut by the caller)."""
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    if start >= end:
        return []

    def size(a: int, b: int) -> int:
        return cum[b] - cum[a] - 1

    if size(start, end) <= max_chars:
        return [(start, end)]
    paragraphs: list[tuple[int, int]] = []
    i = start
    while i < end:
        j = i
        while j < end and lines[j].strip():
            j += 1
        paragraphs.append((i, j))
        while j < end and not lines[j].strip():
            j += 1
        i = j
    units: list[tuple[int, int]] = []
    for a, b in paragraphs:
        if size(a, b) <= max_chars:
            units.append((a, b))
        else:
            units.extend((k, k + 1) for k in range(a, b))
    out: list[tuple[int, int]] = []
    cur_a, cur_b = units[0]
    for a, b in units[1:]:
        if size(cur_a, b) <= max_chars:
            cur_b = b
        else:
            out.append((cur_a, cur_b))
            cur_a, cur_b = a, b
    out.append((cur_a, cur_b))
    return out


def _cut_line(text: str, max_chars: int) -> list[str]:
    """Cut an over-long line into pieces of at most `max_chars`, preferring spaces."""
    out: list[str] = []
    while len(text) > max_chars:
        cut = text.rfind(" ", max_chars // 2, max_chars + 1)
        if cut <= 0:
            cut = max_chars
        if text[:cut].strip():
            out.append(text[:cut])
        text = text[cut:].lstrip(" ")
    if text.strip():
        out.append(text)
    return out


def document_title(
    meta: dict[str, Any], body: str, fallback: str, *, kind: Kind = "markdown"
) -> str:
    """Front matter `title`, else the first heading of the body, else `fallback`."""
    title = meta.get("title")
    if isinstance(title, str | int | float) and not isinstance(title, bool) and str(title).strip():
        return str(title).strip()
    for heading in _scan(normalize_newlines(body).split("\n"), kind).headings:
        if heading.title:
            return heading.title
    return fallback


def headings_of(text: str, *, kind: Kind = "markdown") -> list[tuple[int, int, str]]:
    """(file line, level, title) of every heading of a whole document, outside code."""
    lines, offset = _body_lines(text, kind)
    return [(h.last + offset + 1, h.level, h.title) for h in _scan(lines, kind).headings]


# ---------------------------------------------------------------------------------- references
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_WIKI = re.compile(r"(!?)\[\[([^\[\]\n|#]*)(?:#[^\[\]\n|]*)?(?:\|[^\[\]\n]*)?\]\]")
_LINK = re.compile(
    r"(!?)\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"
)
_LINK_DEF = re.compile(r"^ {0,3}\[([^\]\n^][^\]\n]*)\]:[ \t]*<?([^\s>]+)>?")
_URL = re.compile(
    r"<[a-zA-Z][a-zA-Z0-9+.-]*:[^\s<>]*>|<[^\s<>@]+@[^\s<>]+>"
    r"|\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s<>]*|\bmailto:[^\s<>]*|\bwww\.[^\s<>]*"
)
_SCHEME = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
_ID = r"(?>([A-Za-z0-9_](?:[\w.-]*\w)?))"
# the sigil comes first so the regex engine can skip ahead to it; the look-behind then checks the
# character before it (a word character means an e-mail address, `/` or `.` a URL or path, …)
_NOT_AFTER = r"[\w@#&./:+=\\`-]"
_OBJECT_REF = re.compile(r"@(?<!" + _NOT_AFTER + r"@)" + _ID + r"(?![\w/@#])")
_MORPHISM_REF = re.compile(r"#(?<!" + _NOT_AFTER + r"#)" + _ID + r"(?![\w/@#])")


def _link_target(dest: str) -> str | None:
    """A relative document link's path (fragment and query dropped), or None for anything else."""
    dest = dest.strip().removeprefix("<").removesuffix(">")
    if not dest or dest.startswith(("#", "?")) or _SCHEME.match(dest):
        return None
    dest = dest.split("#", 1)[0].split("?", 1)[0]
    return unquote(dest) or None


def extract_references(text: str, *, kind: Kind = "markdown") -> list[Reference]:
    """`@object-id`, `#morphism-id`, `[text](relative.md)` and `[[wiki link]]` mentions.

    Code (fenced, indented, inline), URLs, e-mail addresses, headings and link anchors are not
    references. Ids must contain a letter, so `#123` (an issue number) is not a morphism. Links
    with a scheme (http:, mailto:, …) and images are ignored.
    """
    lines, offset = _body_lines(text, kind)
    code = _scan(lines, kind).code
    refs: list[Reference] = []
    for i, line in enumerate(lines):
        if code[i] or not ("@" in line or "#" in line or "[" in line):
            continue
        number = i + offset + 1
        if "`" in line:
            line = _CODE_SPAN.sub(" ", line)
        if "[" in line:
            definition = _LINK_DEF.match(line)
            if definition:
                target = _link_target(definition.group(2))
                if target:
                    refs.append(Reference("link", target, number))
                continue
            if "[[" in line:
                line = _WIKI.sub(partial(_wiki, refs=refs, line=number), line)
            if "](" in line:
                line = _LINK.sub(partial(_link, refs=refs, line=number), line)
        if ":" in line or "www." in line:
            line = _URL.sub(" ", line)
        if "@" in line:
            refs += [
                Reference("object", m.group(1), number)
                for m in _OBJECT_REF.finditer(line)
                if _has_letter(m.group(1))
            ]
        if "#" in line:
            refs += [
                Reference("morphism", m.group(1), number)
                for m in _MORPHISM_REF.finditer(line)
                if _has_letter(m.group(1))
            ]
    return refs


def rename_mentions(
    text: str, old: str, new: str, *, kind: Kind = "markdown", sigil: str = "@"
) -> str:
    """`text` with each `@old` (`sigil` "@", an object) or `#old` ("#", a morphism) reference
    that `extract_references` finds written with the new id, and a front matter `id: old` too.
    Mentions in code, URLs and e-mail addresses are left as they are, like everything else."""
    if sigil + old not in text and "id:" not in text:
        return text
    wanted = "object" if sigil == "@" else "morphism"
    numbers = {
        ref.line
        for ref in extract_references(text, kind=kind)
        if ref.kind == wanted and ref.target == old
    }
    pattern = _OBJECT_REF if sigil == "@" else _MORPHISM_REF
    lines = text.split("\n")
    for number in numbers:
        line = lines[number - 1]
        kept = [m.span() for m in (*_CODE_SPAN.finditer(line), *_URL.finditer(line))]
        hits = [
            m
            for m in pattern.finditer(line)
            if m.group(1) == old and not any(a <= m.start() < b for a, b in kept)
        ]
        for m in reversed(hits):
            line = line[: m.start(1)] + new + line[m.end(1) :]
        lines[number - 1] = line
    if sigil == "@" and kind != "rst":
        front = split_front_matter(text)
        for index in range(1, max(front.body_start_line - 2, 1)):
            match = _FRONT_ID.fullmatch(lines[index])
            if match and match[3] == old:
                lines[index] = f"{match[1]}{match[2]}{new}{match[2]}{match[4]}"
    return "\n".join(lines)


_FRONT_ID = re.compile(r"(id:[ \t]*)(['\"]?)([\w.\-/:+]+)\2([ \t]*(?:#.*)?)")
"""A front matter line `id: value` (plain or quoted), as `catdoc import` reads ids."""


def _has_letter(ident: str) -> bool:
    return any(c.isalpha() for c in ident)


def _wiki(match: re.Match[str], refs: list[Reference], line: int) -> str:
    target = match.group(2).strip()
    if target and not match.group(1):
        refs.append(Reference("wiki", target, line))
    return " "


def _link(match: re.Match[str], refs: list[Reference], line: int) -> str:
    target = _link_target(match.group(3))
    if target and not match.group(1):
        refs.append(Reference("link", target, line))
    return f" {match.group(2)} "


__all__ = [
    "DOCUMENT_SUFFIXES",
    "Chunk",
    "FrontMatter",
    "Reference",
    "chunk_text",
    "document_title",
    "extract_references",
    "headings_of",
    "kind_of",
    "read_document",
    "read_object_text",
    "split_front_matter",
]
