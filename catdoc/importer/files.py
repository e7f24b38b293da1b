"""Which files an import takes (named files, globs, directory walks, less what is excluded, what
a Sphinx project does not build, the fragments other documents include, and the files of an
Antora component that Antora makes no page of) and reading them."""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Any

from catdoc import results as r
from catdoc.antora import NAV, AntoraComponents, Place
from catdoc.documents import (
    DOCUMENT_SUFFIXES,
    FrontMatter,
    Kind,
    Structure,
    read_document,
    sniff_kind,
    split_front_matter,
    structure_of,
)
from catdoc.errors import NOT_FOUND, CatDocError
from catdoc.globs import Glob, parts_glob
from catdoc.importer.sphinx_conf import SphinxProjects
from catdoc.includes import Included, IncludeReader, fragments, included_by
from catdoc.model import DocObject
from catdoc.progress import Progress, no_progress
from catdoc.project_files import InsideResolver, resolve_inside

SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages"})
"""Folders a directory import never enters (besides hidden ones): installed code, not docs."""
READING = "Reading documents"

_GLOB_CHARS = re.compile(r"[*?\[]")


@dataclass
class _Doc:
    """One document on its way to becoming an object."""

    rel: str
    file: Path
    kind: Kind
    text: str
    front: FrontMatter
    included: Included = field(default_factory=Included)
    object_id: str = ""
    category: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    existing: DocObject | None = None
    notes: list[str] = field(default_factory=list)
    page: Place | None = None
    """Where it sits in an Antora component when it is one of its pages: it is named and
    grouped as Antora knows it (by resource id and component), not by folder."""

    @cached_property
    def structure(self) -> Structure:
        """The body's structure, scanned once for everything the import reads of it (title,
        references, labels)."""
        return structure_of(self.text, self.kind)

    @property
    def parts(self) -> list[str]:
        """The material of slug ids: the path's folders and stem, or an Antora page's resource
        id parts (`Place.name_parts`)."""
        if self.page is not None:
            return self.page.name_parts
        *folders, name = self.rel.split("/")
        return [*folders, Path(name).stem]

    @property
    def least_parts(self) -> int:
        """How many of the last `parts` every slug id has: the stem, or all of an Antora page's
        but its version, as a resource id without a version names the page in its component
        version (the version is added only to tell two versions in one tree apart)."""
        if self.page is None:
            return 1
        return len(self.parts) - (1 if self.page.component.version else 0)


def _skip(rel: str, reason: str) -> r.ImportItem:
    return r.ImportItem(path=rel, action="skipped", reason=reason)


@dataclass
class _Found:
    """What the paths of an import name: the candidate files (project-relative path, file),
    sorted; the files passed over, with the reason; the files named one by one (not through
    a glob or a folder); how many files and folders exclude patterns left out (a folder
    is not entered, so it counts once), and how many a Sphinx project's `conf.py` does not
    build; and the Sphinx projects of the tree."""

    files: list[tuple[str, Path]]
    skipped: list[r.ImportItem]
    named: set[str]
    excluded: int
    not_built: int
    sphinx: SphinxProjects


def _expand(
    root: Path, paths: Sequence[str], *, recursive: bool, exclude: Sequence[str] = ()
) -> _Found:
    """The files an import takes (see `_Found`). A named file or glob match is a candidate
    whatever its suffix or kind (reading it tells whether it is a text document); a directory
    contributes its document files only. A path that exists as given is taken literally, even
    when its name has glob characters such as `[draft] notes.md`. A file or folder matching an
    `exclude` pattern (project-relative, `_exclude_patterns`) is left out of folders and globs;
    a file named explicitly is taken all the same. So is one that a folder or glob takes from
    a Sphinx project's source folder although Sphinx does not build it (`sphinx_conf`: its
    suffix is no source suffix, or `exclude_patterns` match it or a folder above it)."""
    found: dict[str, Path] = {}
    skipped: dict[str, r.ImportItem] = {}
    named: set[str] = set()
    inside = _Inside(root, skipped)
    excluded: set[str] = set()
    sphinx = SphinxProjects(root)
    not_built: set[str] = set()

    def left_out(rel: str) -> bool:
        if _excluded(rel, exclude):
            excluded.add(rel)
            return True
        return False

    def unbuilt(rel: str) -> bool:
        if sphinx.builds(rel) is False:
            not_built.add(rel)
            return True
        return False

    def skip_folder(rel: str) -> bool:
        if left_out(rel):
            return True
        if sphinx.excludes_folder(rel):
            not_built.add(rel)
            return True
        return False

    def add(file: Path, *, explicit: bool = False) -> None:
        rel = file.relative_to(root).as_posix()
        if explicit:
            named.add(rel)
        elif left_out(rel) or unbuilt(rel):
            return
        found[rel] = file
        skipped.pop(rel, None)

    def take(path: Path, *, explicit: bool = False) -> bool:
        """Add a file, or a directory's document files; False when nothing is there."""
        if path.is_dir():
            _walk(inside, path, recursive, add, found, skipped, left_out, skip_folder)
        elif path.exists():
            add(path, explicit=explicit)
        else:
            return False
        return True

    for raw in paths:
        text = str(raw)
        literal = _existing(root, text)
        if literal is None and _GLOB_CHARS.search(text):
            matches = _glob(inside, text)
            if not matches:
                raise CatDocError(
                    NOT_FOUND,
                    f"No files match {text!r} (relative to the project root {root}).",
                    "Check the pattern; `**` matches folders at any depth, e.g. 'docs/**/*.md'.",
                )
            for match in matches:
                take(match)
            continue
        if not take(literal or resolve_inside(root, text), explicit=True):
            raise CatDocError(
                NOT_FOUND,
                f"No such file or directory: {text!r}.",
                "Give paths that exist; relative paths are taken from the project root "
                "(the CLI takes them from the working directory).",
            )
    excluded -= named  # named explicitly after a folder or glob left it out
    not_built -= named
    return _Found(
        sorted(found.items()),
        list(skipped.values()),
        named,
        len(excluded),
        len(not_built),
        sphinx,
    )


def _exclude_patterns(root: Path, patterns: Sequence[str]) -> list[str]:
    """Exclude patterns as project-relative globs: the part before the first glob character is
    a path (absolute, or relative to the project root) that must stay inside the project."""
    out: list[str] = []
    for pattern in patterns:
        parts = Path(pattern).parts
        fixed = next((i for i, part in enumerate(parts) if _GLOB_CHARS.search(part)), len(parts))
        base = resolve_inside(root, Path(*parts[:fixed]) if fixed else ".")
        rel = base.relative_to(root).as_posix()
        out.append("/".join(part for part in (rel, *parts[fixed:]) if part not in ("", ".")))
    return out


def _excluded(rel: str, patterns: Sequence[str]) -> bool:
    """Whether a project-relative path, or a folder above it, matches one of the patterns
    (parts as in `_glob`: `*`, `?`, `[…]` within a name, `**` any number of folders)."""
    return bool(patterns) and _exclusion(tuple(patterns)).match(rel)


@functools.lru_cache(maxsize=16)
def _exclusion(patterns: tuple[str, ...]) -> Glob:
    """An import's exclude patterns compiled once (`catdoc.globs.parts_glob`): the walk asks
    about every file and folder it meets."""
    return parts_glob(patterns)


def _existing(root: Path, text: str) -> Path | None:
    """The path inside the project that `text` names as it is written, when something is there."""
    try:
        path = resolve_inside(root, text)
        return path if path.exists() else None
    except (CatDocError, OSError):
        return None


def _glob(inside: _Inside, pattern: str) -> list[Path]:
    """Matches of a glob, each resolved inside the project. Names match one pattern part each
    (`*`, `?`, `[…]`; hidden names only for a part that starts with a dot) and `**` matches any
    number of folders. The walk enters each real folder once per pattern part, however many
    symbolic links lead to it, so link loops end; links that leave the project are skipped."""
    parts = Path(pattern).parts
    fixed = next((i for i, part in enumerate(parts) if _GLOB_CHARS.search(part)), len(parts))
    base = resolve_inside(inside.root, Path(*parts[:fixed]) if fixed else ".")
    rest = parts[fixed:]
    hits: set[Path] = set()
    seen: set[tuple[int, int, int]] = set()
    todo = [(base, 0)]
    while todo:
        folder, at = todo.pop()
        try:
            info = folder.stat()
        except OSError:
            continue
        if (info.st_dev, info.st_ino, at) in seen:
            continue
        seen.add((info.st_dev, info.st_ino, at))
        if at == len(rest):
            hits.add(folder)
            continue
        part, last = rest[at], at + 1 == len(rest)
        for entry in _entries(folder, part):
            resolved = inside(entry)
            if resolved is None:
                continue
            if part == "**":
                if resolved.is_dir():
                    todo.append((entry, at))
                elif last:
                    hits.add(entry)
            elif last:
                hits.add(entry)
            elif resolved.is_dir():
                todo.append((entry, at + 1))
        if part == "**":
            todo.append((folder, at + 1))
    return sorted({resolved for hit in hits if (resolved := inside(hit))})


def _entries(folder: Path, part: str) -> list[Path]:
    """The entries of a folder whose names match one pattern part (`**`: every visible one)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    hidden = part.startswith(".")
    return [
        folder / name
        for name in sorted(names)
        if (hidden or not name.startswith("."))
        and (part == "**" or fnmatch.fnmatchcase(name, part))
    ]


class _Inside:
    """Paths under the root resolved, or None (and a skipped item) when one leads outside the
    project; each folder is resolved once for the whole import (`InsideResolver`)."""

    def __init__(self, root: Path, skipped: dict[str, r.ImportItem]) -> None:
        self.root = root
        self._resolve = InsideResolver(root)
        self._skipped = skipped

    def __call__(self, path: Path) -> Path | None:
        rel = path.relative_to(self.root).as_posix()
        try:
            return self._resolve(rel)
        except CatDocError as exc:
            self._skipped.setdefault(rel, _skip(rel, exc.message))
            return None


def _walk(
    inside: _Inside,
    directory: Path,
    recursive: bool,
    add: Callable[[Path], None],
    found: dict[str, Path],
    skipped: dict[str, r.ImportItem],
    left_out: Callable[[str], bool],
    skip_folder: Callable[[str], bool],
) -> None:
    """Document files under a directory (hidden files and folders, installed packages such as
    node_modules, files `left_out` names and folders `skip_folder` names are left out)."""
    for current, dirnames, filenames in os.walk(directory):
        folder = Path(current).relative_to(inside.root).as_posix()
        here = "" if folder == "." else f"{folder}/"
        dirnames[:] = (
            sorted(
                d
                for d in dirnames
                if not d.startswith(".") and d not in SKIPPED_FOLDERS and not skip_folder(here + d)
            )
            if recursive
            else []
        )
        for name in sorted(filenames):
            if name.startswith(".") or left_out(here + name):
                continue
            file = inside(Path(current) / name)
            if file is None:
                continue
            rel = file.relative_to(inside.root).as_posix()
            if file.suffix.lower() in DOCUMENT_SUFFIXES:
                add(file)
                continue
            if rel in found:
                continue
            skipped.setdefault(
                rel,
                _skip(
                    rel,
                    f"not a document type ({file.suffix or 'no suffix'}); folders are imported "
                    "for .md, .markdown, .rst, .txt, .adoc … (name a text file explicitly to "
                    "import it anyway).",
                ),
            )


def _read_documents(
    files: list[tuple[str, Path]], skipped: list[r.ImportItem], progress: Progress = no_progress
) -> list[_Doc]:
    """Each file's text and front matter; unreadable files and bad front matter are skipped.
    `progress` hears of each file read."""
    docs: list[_Doc] = []
    for done, (rel, file) in enumerate(files):
        progress(READING, done, len(files))
        try:
            text = read_document(file, rel)
        except CatDocError as exc:
            skipped.append(_skip(rel, f"{exc.message} {exc.hint}".strip()))
            continue
        kind = sniff_kind(file, text)
        front = split_front_matter(text) if kind != "rst" else FrontMatter({}, text, 1)
        if front.error:
            skipped.append(_skip(rel, f"{rel}: {front.error}"))
            continue
        docs.append(_Doc(rel, file, kind, text, front))
    progress(READING, len(files), len(files))
    return docs


_RESOURCES = {
    "page": "a hidden page",
    NAV: "a navigation file",
    "partial": "a partial",
    "example": "an example",
    "attachment": "an attachment",
    "image": "an image",
}
"""How a reason names a file of each Antora family that is no page."""


def _antora_pages(
    docs: list[_Doc],
    named: set[str],
    antora: AntoraComponents,
    existing: Mapping[str, DocObject],
    skipped: list[r.ImportItem],
) -> list[_Doc]:
    """The documents less the files of an Antora component that Antora publishes no page of:
    every family but `pages` (a navigation file such as `modules/ROOT/nav.adoc`, a partial no
    page includes …) and the pages it hides (`Place.published`), skipped unless named
    explicitly; each published page keeps its `Place`."""
    kept: list[_Doc] = []
    for doc in docs:
        place = antora.place(doc.rel)
        if place is None or place.published:
            doc.page = place
            kept.append(doc)
            continue
        what = f"{_RESOURCES[place.family]} of Antora component {place.component.name!r}"
        if doc.rel in named:
            doc.notes.append(f"{what}, no page: imported as named.")
            kept.append(doc)
            continue
        reason = (
            f"{what}: Antora publishes pages only of a module's `pages` folder, none whose "
            "path there has a name starting with `_` (name the file explicitly to import it "
            "anyway)."
        )
        obj = existing.get(doc.rel)
        if obj is not None:
            reason += f" Its object {obj.id!r} from an earlier import stays as it is."
        skipped.append(_skip(doc.rel, reason))
    return kept


def _leave_out_fragments(
    docs: list[_Doc],
    named: set[str],
    sphinx: SphinxProjects,
    reader: IncludeReader,
    existing: Mapping[str, DocObject],
    skipped: list[r.ImportItem],
) -> tuple[list[_Doc], dict[str, list[str]]]:
    """The documents that are no fragment of another (`catdoc.includes`), each with what it
    includes; and every fragment with the documents that include it. A file a Sphinx project
    builds is no fragment: Sphinx makes it a page of its own too. A fragment is skipped unless
    it was named explicitly; an object an earlier import made of one stays as it is."""
    for doc in docs:
        doc.included = reader.of(
            doc.rel,
            doc.text,
            doc.kind,
            structure=doc.structure,
            default_role=sphinx.default_role(doc.rel, doc.kind),
        )
    builds = partial(reader.builds, sphinx=sphinx.builds)
    found = fragments({doc.rel: doc.included for doc in docs}, builds)
    kept: list[_Doc] = []
    for doc in docs:
        includers = found.get(doc.rel)
        if includers is not None and doc.rel in named:
            doc.notes.append(
                f"included by {included_by(includers)}: imported as named, but its labels "
                "are the including document's, as in Sphinx."
            )
        if includers is None or doc.rel in named:
            kept.append(doc)
            continue
        reason = (
            f"included by {included_by(includers)}: a fragment, not a document of its own "
            "(name the file explicitly to import it anyway)."
        )
        obj = existing.get(doc.rel)
        if obj is not None:
            reason += f" Its object {obj.id!r} from an earlier import stays as it is."
        skipped.append(_skip(doc.rel, reason))
    return kept, found
