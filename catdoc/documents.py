"""Document text: reading files safely, front matter, chunking along headings, titles.

Everything here is pure text processing over one document, shared by the importer and the search
index. Line numbers are 1-based and always relative to the whole file (front matter included), so
a chunk or a reference can be shown as `path:line` in any editor.

The parts live in their own modules and are importable from here too: `front_matter` (YAML
front matter), `markup` (the kind of a file, headings, code lines), `text_metadata` (PEP headers,
reST field lists) and `text_references` (references and labels).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catdoc.errors import IO_ERROR, NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.front_matter import (
    MAX_FRONT_MATTER_DEPTH,
    MAX_FRONT_MATTER_DIGITS,
    FrontMatter,
    body_lines,
    normalize_newlines,
    split_front_matter,
)
from catdoc.markup import (
    DOCUMENT_SUFFIXES,
    MARKDOWN_SUFFIXES,
    RST_SUFFIXES,
    Kind,
    Structure,
    kind_of,
    markdown_title,
    rst_module_title,
    scan_structure,
    sniff_kind,
)
from catdoc.model import DocObject
from catdoc.project_files import resolve_inside, special_kind
from catdoc.text_metadata import multimarkdown_meta, text_metadata
from catdoc.text_references import (
    TOCTREE,
    Reference,
    RefKind,
    extract_references,
    label_key,
    labels_of,
    may_define_labels,
    normalize_label,
    rename_mentions,
    written_as_id,
)

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
"""Larger files are refused (and never read past this): a document that big is data, not prose."""

DEFAULT_MAX_CHARS = 1500


@dataclass(frozen=True)
class Chunk:
    """A passage of a document: the headings above it and its inclusive line range."""

    index: int
    heading_path: list[str]
    start_line: int
    end_line: int
    text: str


# ---------------------------------------------------------------------------------- reading
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
        raise _not_regular(name, special_kind(info.st_mode))
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


def content_version(text: str) -> str:
    """The version of a document's text that an edit of it is checked against (an object's
    `contentVersion`): a digest of its UTF-8 bytes, so any change to the text changes it."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def read_object_text(
    root: Path, obj: DocObject, resolve: Callable[[str], Path] | None = None
) -> str | None:
    """The object's document: its `path` (inside the project), else inline `content`, else None.
    `resolve` confines the path (default `resolve_inside`; a batch passes an `InsideResolver`)."""
    if obj.path:
        target = resolve(obj.path) if resolve is not None else resolve_inside(root, obj.path)
        return read_document(target, obj.path)
    return obj.content


# ---------------------------------------------------------------------------------- chunking
def chunk_text(
    text: str,
    *,
    kind: Kind = "markdown",
    max_chars: int = DEFAULT_MAX_CHARS,
    front: FrontMatter | None = None,
) -> list[Chunk]:
    """Split a whole document into passages along headings, then paragraphs, then lines.

    Front matter (Markdown, plain text) is not part of any chunk. No chunk's text is longer than
    `max_chars`; a single line longer than that is cut (at a space when there is one). `front`:
    the text's `split_front_matter`, when the caller has it already (not read again).
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    if front is not None and kind != "rst":
        lines, offset = front.body.split("\n"), front.body_start_line - 1
    else:
        lines, offset = body_lines(text, kind)
    scan = scan_structure(lines, kind)
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
    meta: dict[str, Any],
    body: str,
    fallback: str,
    *,
    kind: Kind = "markdown",
    nav_title: str | None = None,
    mkdocs_meta: bool = False,
    structure: Structure | None = None,
) -> str:
    """A document's title, from the first of: front matter `title`; the title the text states
    itself (a PEP's `Title:` header, a reST `:title:` field: `text_metadata`); `nav_title`, the
    title an MkDocs `nav` gives the page; with `mkdocs_meta` (a page of an MkDocs project without
    YAML front matter), a `title:` in the MultiMarkdown meta-data opening it; its headings (for
    Markdown `markdown_title`: the first `#` title, else a lone first heading that opens it; for
    reST and AsciiDoc the first title, so a PEP is titled by its `Title:` header, not by its
    first section "Abstract"); for reST without a title, the module its `.. automodule::`
    documents; else `fallback`. `structure` is `body` as `scan_structure` reads it, when the
    caller has it."""
    for source in (meta, text_metadata(body, kind) if kind != "markdown" else {}):
        title = source.get("title")
        usable = isinstance(title, str | int | float) and not isinstance(title, bool)
        if usable and str(title).strip():
            return str(title).strip()
    if nav_title and nav_title.strip():
        return nav_title.strip()
    lines = normalize_newlines(body).split("\n")
    if mkdocs_meta and kind == "markdown":
        fields, end = multimarkdown_meta(lines)
        if fields.get("title"):
            return fields["title"]
        lines[:end] = [""] * end  # MkDocs takes them out of the page
        structure = None  # read without them
    scan = structure or scan_structure(lines, kind)
    if kind == "markdown":
        return markdown_title(lines, scan) or fallback
    for heading in scan.headings:
        if heading.title:
            return heading.title
    return (rst_module_title(lines, scan) if kind == "rst" else None) or fallback


def structure_of(text: str, kind: Kind) -> Structure:
    """The structure of a whole document's body (after any front matter): what a reader that
    reads several things of one document (its title, references, labels) scans once and hands
    to each (`document_title`, `extract_references`, `labels_of`)."""
    return scan_structure(body_lines(text, kind)[0], kind)


def headings_of(text: str, *, kind: Kind = "markdown") -> list[tuple[int, int, str]]:
    """(file line, level, title) of every heading of a whole document, outside code."""
    lines, offset = body_lines(text, kind)
    return [(h.last + offset + 1, h.level, h.title) for h in scan_structure(lines, kind).headings]


__all__ = [
    "DOCUMENT_SUFFIXES",
    "MARKDOWN_SUFFIXES",
    "MAX_DOCUMENT_BYTES",
    "MAX_FRONT_MATTER_DEPTH",
    "MAX_FRONT_MATTER_DIGITS",
    "RST_SUFFIXES",
    "TOCTREE",
    "Chunk",
    "FrontMatter",
    "Kind",
    "RefKind",
    "Reference",
    "Structure",
    "chunk_text",
    "content_version",
    "document_title",
    "extract_references",
    "headings_of",
    "kind_of",
    "label_key",
    "labels_of",
    "may_define_labels",
    "normalize_label",
    "normalize_newlines",
    "read_document",
    "read_object_text",
    "rename_mentions",
    "sniff_kind",
    "split_front_matter",
    "structure_of",
    "text_metadata",
    "written_as_id",
]
