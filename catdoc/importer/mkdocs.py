"""MkDocs projects: which documents are pages of one, and the titles its `nav` gives them.

A document is a page of an MkDocs project when the nearest `mkdocs.yml` (or `mkdocs.yaml`) at or
above its folder, inside the project, has a `docs_dir` (default `docs`, relative to that file)
that holds it. Zensical, MkDocs' successor, reads the same settings from `zensical.yml` or from
the `[project]` table of `zensical.toml` (griffe's and pymdown-extensions' docs use them). The
page at the top of `docs_dir` (`index.md`, or `README.md` where there is no `index.md`) is the
site's homepage, which MkDocs titles "Home" when nothing else names it.

The config is parsed with PyYAML's safe loader (`zensical.toml` with `tomllib`), never run: MkDocs'
own tags (`!ENV [NAME, default]`, `!relative`, `!!python/name:pkg.func`) read as the plain value
they tag, so a config that uses them still gives its `nav`; one that cannot be parsed, or is longer
than `MAX_CONFIG_CHARS`, is passed over. `INHERIT: base.yml` is followed (inside the project, a few
levels deep): the file's own `docs_dir` and `nav` win over the base's, and a `docs_dir` is relative
to the file that inherits, as MkDocs merges them.

`nav` entries are `Title: path`, sections `Section: [entries]`, bare `path` strings (no title
of their own) and links (`Title: https://…`), as MkDocs reads them; the first entry of a page
gives its title. A path is relative to `docs_dir` (a leading `/` is dropped). A nav title is
HTML, which the theme writes into the nav as it is; the page's title is its text, as themes
show it (Jinja's `striptags` in MkDocs' and Material's `<title>`): tags and comments dropped,
whitespace runs made one space, entities decoded (Python-Markdown's
`<code>markdown.&#8203;util</code>: reference/markdown.util.md` is `markdown.\u200butil`).
"""

from __future__ import annotations

import html
import posixpath
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from catdoc.documents import read_document
from catdoc.errors import CatDocError
from catdoc.markup import URI_SCHEME, cut_spans
from catdoc.project_files import resolve_inside

CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml", "zensical.toml", "zensical.yml", "zensical.yaml")
HOMEPAGE_TITLE = "Home"
DEFAULT_DOCS_DIR = "docs"
MAX_CONFIG_CHARS = 1024 * 1024
"""The longest config read (real ones are kilobytes, a long `nav` included): PyYAML builds
12 MB of short lists in 37 s and 1.6 GB; a longer config is passed over."""
MAX_INHERIT = 4
"""How many `INHERIT:` files are followed from one config (MkDocs sets no limit; real chains
are one or two long, and a loop must end)."""
MAX_NAV_ENTRIES = 100_000
MAX_NAV_DEPTH = 32
"""Entries and nesting read from one `nav` at most: YAML aliases can make a short file a huge
tree, or one that holds itself."""

_SCHEME = re.compile(rf"{URI_SCHEME}:")


@dataclass(frozen=True)
class MkDocsPage:
    """A document that is a page of an MkDocs project, with the title its `nav` gives it."""

    nav_title: str | None
    homepage: bool = False
    """Whether it is the site's first page (see module doc)."""


@dataclass(frozen=True)
class _Site:
    docs_dir: str  # project-relative, '' for the root
    titles: dict[str, str]  # docs_dir-relative page path → nav title


class MkDocsSites:
    """The MkDocs project, if any, of each imported document (see module doc); each folder's
    config is looked for, and each config read, once per import."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._of: dict[str, _Site | None] = {}

    def page(self, rel: str) -> MkDocsPage | None:
        """The page a project-relative document path is, or None outside an MkDocs project."""
        site = self._site(posixpath.dirname(rel))
        if site is None:
            return None
        if site.docs_dir and not rel.startswith(site.docs_dir + "/"):
            return None
        inside = rel[len(site.docs_dir) + 1 :] if site.docs_dir else rel
        homepage = inside.lower() == "index.md" or (
            inside.lower() == "readme.md" and not (self.root / site.docs_dir / "index.md").is_file()
        )
        return MkDocsPage(site.titles.get(inside), homepage)

    def _site(self, folder: str) -> _Site | None:
        """The site of the nearest config at or above a project-relative folder ('' the root)."""
        if folder not in self._of:
            for name in CONFIG_NAMES:
                config = _read_config(self.root, posixpath.join(folder, name))
                if config is not None:
                    site = _site_of(config, folder)
                    break
            else:
                site = self._site(posixpath.dirname(folder)) if folder else None
            self._of[folder] = site
        return self._of[folder]


def _read_config(root: Path, rel: str, depth: int = 0) -> dict[str, Any] | None:
    """A config's keys, its `INHERIT:` base's merged under them; None when there is no config
    at `rel` or it cannot be read as a mapping."""
    try:
        text = read_document(resolve_inside(root, rel), rel)
    except CatDocError:
        return None
    if len(text) > MAX_CONFIG_CHARS:
        return None
    if rel.endswith(".toml"):
        try:
            config = tomllib.loads(text).get("project")
        except (tomllib.TOMLDecodeError, RecursionError, ValueError):
            return None
        return config if isinstance(config, dict) else None
    try:
        config = yaml.load(text, Loader=_ConfigLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    if not isinstance(config, dict):
        return None
    base = config.get("INHERIT")
    if isinstance(base, str) and depth < MAX_INHERIT:
        parent = posixpath.normpath(posixpath.join(posixpath.dirname(rel), base))
        inherited = _read_config(root, parent, depth + 1) if not parent.startswith("..") else None
        if inherited is not None:
            config = {**inherited, **config}
    return config


def _site_of(config: dict[str, Any], folder: str) -> _Site | None:
    """The docs folder and nav titles of a config in a project-relative folder; None when its
    `docs_dir` is not a folder path inside the project."""
    docs_dir = config.get("docs_dir", DEFAULT_DOCS_DIR)
    if not isinstance(docs_dir, str) or not docs_dir.strip() or posixpath.isabs(docs_dir):
        return None
    docs = posixpath.normpath(posixpath.join(folder, docs_dir.strip()))
    if docs == ".." or docs.startswith("../"):
        return None
    titles: dict[str, str] = {}
    _nav_titles(config.get("nav"), None, titles, [MAX_NAV_ENTRIES], 0)
    return _Site("" if docs == "." else docs, titles)


def _nav_titles(
    entry: Any, title: str | None, titles: dict[str, str], budget: list[int], depth: int
) -> None:
    """Add the page titles of a `nav` entry (a list, a `Title: path` or `Section: [...]` mapping,
    or a path under `title`) to `titles`, the first entry of a page winning."""
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_NAV_DEPTH:
        return
    if isinstance(entry, list):
        for item in entry:
            _nav_titles(item, None, titles, budget, depth + 1)
    elif isinstance(entry, dict):
        for key, value in entry.items():
            name = _text_of(str(key)) if key is not None else None
            _nav_titles(value, name if isinstance(value, str) else None, titles, budget, depth + 1)
    elif isinstance(entry, str) and title and not _SCHEME.match(entry):
        path = posixpath.normpath(entry.strip().lstrip("/"))
        if path != "." and not path.startswith("../") and path != "..":
            titles.setdefault(path, title)


def _text_of(title: str) -> str:
    """A nav title's text, as Jinja's `striptags` gives it (see module doc)."""
    if "<" in title:
        title = cut_spans(cut_spans(title, "<!--", "-->"), "<", ">")  # MarkupSafe's order
    return html.unescape(" ".join(title.split())) if "&" in title else " ".join(title.split())


class _ConfigLoader(yaml.CSafeLoader):
    """PyYAML's safe loader that reads any tag it does not know (MkDocs' `!ENV`, `!relative`,
    `!!python/name:…`) as the plain scalar, list or mapping it tags."""


def _untagged(loader: _ConfigLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node)
    return loader.construct_scalar(node)


for _prefix in ("!", "tag:yaml.org,2002:python/"):
    _ConfigLoader.add_multi_constructor(_prefix, _untagged)


__all__ = ["CONFIG_NAMES", "MkDocsPage", "MkDocsSites"]
