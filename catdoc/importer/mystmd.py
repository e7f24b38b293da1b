"""mystmd projects (Jupyter Book 2): which documents are pages of one, and what its `myst.yml`
says of them.

A document is a page of a mystmd project when the nearest `myst.yml` at or above its folder,
inside the project, has a `project:` mapping (a `myst.yml` with only `site:` configures a
website, not a project, and the search goes on upwards, as `myst` looks for its project). The
config is parsed as the model's YAML is (`catdoc.yaml_source.parse`); one that cannot be read is
passed over.

`extends:` (or `extend:`; a path or a list of them, relative to the config's folder) names
configs it inherits from, as myst-cli's `getValidatedConfigsFromFile` reads them: each
inherited `project:` (with what it inherits in turn) fills the keys the config's own `project:`
leaves out, key by key, a later one winning over an earlier one; a config with no `project:`
of its own but an inherited one is a project. A URL is not fetched, and a file outside the
project, one that cannot be read, or one already being read (a cycle) inherits nothing.

What is read of `project:`:

- `references:` names other MyST projects (`guide: https://mystmd.org/guide`): a link
  `[](xref:guide/page#label)` or `<xref:guide#label>` points at one of their pages, by design
  outside the tree (`external`, as an intersphinx inventory's role is in Sphinx).
- `toc:` lists the pages (`file:` relative to the config's folder, `children:` nested, sections
  with only a `title:`); a `file:` entry's `title:` is the page's short title in the navigation.
  mystmd titles a page by its front matter `title`, else its heading, and only then by the
  `toc` entry, else by its file name (myst-cli's `manifestPagesFromProject`: `fileInfo.title ??
  tocTitle ?? fileTitle`). A `file:` may leave out its suffix; one that leaves the config's
  folder is not read.

How mystmd reads a page's Markdown differs from MyST-Parser's, and `catdoc.references` follows
it where a page is a mystmd one: a directive's `:label:` option names a target (as `:name:`
does, `labels`); `@label` is a reference to a target (mystmd's citation syntax: `@x` that names
a target is a cross-reference, any other is a citation of a bibliography entry, which CatDoc does
not read, so no reference of its); and `[](#label)` finds a target anywhere in the project.

A page's own targets (myst-cli's `getPageFrontmatter`, myst-transforms' `headingLabelTransform`):

- Its front matter `label:` names the page itself: `[](#label)` and `@label` link to it.
- Every heading without a label of its own gets an implicit target, the slug of its text as
  myst-common's `createHtmlId` makes it: lower case, each character other than `a-z`, `0-9`
  and `-` a `-`, `id-` before a leading digit or `-`, runs of `-` as one, none at either end
  (`## 2. Set up` → `id-2-set-up`). The heading that opens the page as its level-1 title (after
  the front matter and `%` comments, when the front matter gives no other `title`) is lifted
  into the title and has none. mystmd looks a target up in every page of its project, so an
  implicit one is found only from the pages of the same project (`MystProject.folder`).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catdoc import yaml_source
from catdoc.documents import Structure, normalize_label, read_document
from catdoc.errors import CatDocError
from catdoc.front_matter import body_lines
from catdoc.markup import Heading
from catdoc.project_files import resolve_inside

CONFIG = "myst.yml"
MAX_TOC_ENTRIES = 100_000
MAX_TOC_DEPTH = 32
"""Entries and nesting read from one `toc` at most: YAML aliases can make a short file a huge
tree."""
MAX_EXTENDS = 16
"""Inherited configs read for one `myst.yml` at most (`extends:` of `extends:` … included)."""
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


@dataclass(frozen=True)
class MystProject:
    """A mystmd project: its folder (project-relative, '' for the root), the names of the other
    MyST projects its `references:` lists, and its `toc` titles (folder-relative file → title)."""

    folder: str
    references: frozenset[str] = frozenset()
    titles: dict[str, str] = field(default_factory=dict)

    def toc_title(self, rel: str) -> str | None:
        """The `toc` title of a project-relative document, or None."""
        inside = posixpath.relpath(rel, self.folder or ".")
        return self.titles.get(inside) or self.titles.get(posixpath.splitext(inside)[0])


class MystProjects:
    """The mystmd project, if any, of each imported document (see module doc); each folder's
    `myst.yml` is looked for, and read, once per import."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._of: dict[str, MystProject | None] = {}
        self._data: dict[str, Any] = {}
        """Each config file read (project-relative) as parsed (None: it cannot be read)."""

    def of(self, rel: str) -> MystProject | None:
        """The project a project-relative document path is a page of, or None."""
        return self._at(posixpath.dirname(rel))

    def _at(self, folder: str) -> MystProject | None:
        """The project of the nearest config at or above a project-relative folder."""
        if folder not in self._of:
            found = self._read(folder)
            if found is None and folder:
                found = self._at(posixpath.dirname(folder))
            self._of[folder] = found
        return self._of[folder]

    def _read(self, folder: str) -> MystProject | None:
        """The project the `myst.yml` in `folder` defines; None when there is none, it cannot
        be read, or it has no `project:` mapping."""
        rel = posixpath.join(folder, CONFIG) if folder else CONFIG
        project = self._project(rel, (), [MAX_EXTENDS])
        if project is None:
            return None
        references = project.get("references")
        names = (
            frozenset(str(key) for key in references if key)
            if isinstance(references, dict)
            else frozenset()
        )
        titles: dict[str, str] = {}
        _toc_titles(project.get("toc"), titles, [MAX_TOC_ENTRIES], 0)
        return MystProject(folder, names, titles)

    def _project(
        self, rel: str, reading: tuple[str, ...], budget: list[int]
    ) -> dict[Any, Any] | None:
        """The `project:` of the config at `rel` filled with what its `extends:` inherits (see
        module doc); None when it has none. `reading` are the configs whose `extends:` led here;
        `budget` the inherited configs still to be read for the one asked for."""
        data = self._parsed(rel)
        if not isinstance(data, dict):
            return None
        project: dict[Any, Any] | None = None
        for inherited in self._inherited(rel, data, (*reading, rel), budget):
            project = {**(project or {}), **inherited}
        own = data.get("project")
        if isinstance(own, dict):
            project = {**(project or {}), **own}
        return project

    def _parsed(self, rel: str) -> Any:
        """A config file as parsed, read once; None when it cannot be read."""
        if rel not in self._data:
            try:
                text = read_document(resolve_inside(self.root, rel), rel)
                self._data[rel] = yaml_source.parse(text, rel)
            except (CatDocError, ValueError):
                self._data[rel] = None
        return self._data[rel]

    def _inherited(
        self, rel: str, data: dict[Any, Any], reading: tuple[str, ...], budget: list[int]
    ) -> list[dict[Any, Any]]:
        """The `project:` mappings of the configs a config's `extends:` names, in order."""
        named = data.get("extend", data.get("extends"))
        names = [named] if isinstance(named, str) else named if isinstance(named, list) else []
        found: list[dict[Any, Any]] = []
        for name in names:
            if budget[0] <= 0:
                break
            name = name.strip() if isinstance(name, str) else ""
            if not name or _URL.match(name):
                continue
            try:
                path = resolve_inside(self.root, posixpath.join(posixpath.dirname(rel), name))
            except CatDocError:
                continue  # outside the project, or no path a file can have
            target = path.relative_to(self.root.resolve()).as_posix()
            if target in reading:
                continue  # a cycle: myst-cli stops it with an error
            budget[0] -= 1
            project = self._project(target, reading, budget)
            if project is not None:
                found.append(project)
        return found


def _toc_titles(entry: Any, titles: dict[str, str], budget: list[int], depth: int) -> None:
    """Add the titles of a `toc` entry (a list, or a mapping with `file`, `title`, `children`)
    to `titles`, the first entry of a file winning."""
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_TOC_DEPTH:
        return
    if isinstance(entry, list):
        for item in entry:
            _toc_titles(item, titles, budget, depth + 1)
        return
    if not isinstance(entry, dict):
        return
    file, title = entry.get("file"), entry.get("title")
    if isinstance(file, str) and isinstance(title, str) and title.strip():
        path = posixpath.normpath(file.strip().lstrip("/"))
        if path not in (".", "..") and not path.startswith("../"):
            titles.setdefault(path, " ".join(title.split()))
    _toc_titles(entry.get("children"), titles, budget, depth + 1)


def labels(structure: Structure) -> tuple[str, ...]:
    """The targets a page's directives name with `:label:` (see module doc), normalised."""
    return tuple(normal for _, name in structure.labels if (normal := normalize_label(name)))


def page_label(meta: dict[str, Any]) -> tuple[str, ...]:
    """The page's own label from its front matter `label:` (a text), normalised; none else."""
    label = meta.get("label")
    normal = normalize_label(label) if isinstance(label, str) else ""
    return (normal,) if normal else ()


_NOT_IN_ID = re.compile(r"[^a-z0-9-]")
_QUOTES = re.compile(r"['\u2018\u2019\"\u201c\u201d]+")
_DASHES = re.compile(r"-{2,}")


def heading_slug(title: str) -> str:
    """The implicit target of a heading's text, as mystmd makes it (see module doc): its label
    normalised (`normalizeLabel`: whitespace as one space, quotes dropped, lower case), then
    made an HTML id (`createHtmlId`)."""
    text = _QUOTES.sub("", " ".join(title.split())).strip().lower()
    if not text:
        return ""
    slug = _NOT_IN_ID.sub("-", text)
    if slug[0] == "-" or slug[0].isdigit():
        slug = "id-" + slug
    return _DASHES.sub("-", slug).strip("-")


def implicit_targets(text: str, structure: Structure, meta: dict[str, Any]) -> tuple[str, ...]:
    """The implicit targets of a page's headings (see module doc): those with no `(label)=`
    before them, less the level-1 heading mystmd lifts into the title."""
    lines, _ = body_lines(text, "markdown")
    if len(structure.code) != len(lines) or not structure.headings:
        return ()
    lifted = _lifted_title(lines, structure, meta)
    labelled = _labelled(lines, structure.code)
    slugs: list[str] = []
    for heading in structure.headings:
        if heading is lifted or heading.first in labelled:
            continue
        slug = heading_slug(heading.title)
        if slug:
            slugs.append(slug)
    return tuple(dict.fromkeys(slugs))


def _lifted_title(lines: list[str], structure: Structure, meta: dict[str, Any]) -> Heading | None:
    """The heading mystmd lifts into the page's title (`getFrontmatter`): a level-1 heading
    that comes first (after `(label)=` targets and `%` comments), when the front matter's
    `title` is not null and, where given, is its text; None when there is none."""
    first = structure.headings[0]
    title = meta.get("title", "")
    if first.level != 1 or title is None or (title and title != first.title):
        return None
    for line in lines[: first.first]:
        rest = line.strip()
        if rest and not rest.startswith("%") and not _TARGET.fullmatch(rest):
            return None
    return first


_TARGET = re.compile(r"\([^()\n]+\)=")


def _labelled(lines: list[str], code: list[bool]) -> set[int]:
    """The lines that open a block with a `(label)=` target before it (blank lines between):
    mystmd gives the target's label to the next block, and a heading with a label has no
    implicit one."""
    found: set[int] = set()
    after_target = False
    for i, line in enumerate(lines):
        rest = line.strip()
        if not rest:
            continue
        if after_target:
            found.add(i)
        after_target = not code[i] and _TARGET.fullmatch(rest) is not None
    return found


__all__ = [
    "CONFIG",
    "MystProject",
    "MystProjects",
    "heading_slug",
    "implicit_targets",
    "labels",
    "page_label",
]
