"""`catdoc init`: create `.catdoc/` from the template that ships with the package.

The template is `.catdoc-template/` at the repository root; the wheel carries it as
`catdoc/_template`, so `catdoc init` works from a plain install outside the source tree.
`catdoc init --bare` writes its config.yaml and an empty model instead of the example, for a
project that will adopt an existing docs tree (`catdoc import`).
"""

from __future__ import annotations

import json
import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from catdoc import results as r
from catdoc.errors import ALREADY_EXISTS, IO_ERROR, CatDocError
from catdoc.journal import JOURNAL_NAME
from catdoc.lock import LOCK_NAME
from catdoc.project import CACHE_DIR, CATDOC_DIR, CONFIG_FILE, MODEL_FILE, inside_catdoc
from catdoc.writeback import atomic_write

EXAMPLE_DOCUMENT = "docs/example.md"
BARE_MODEL = """\
# The CatDoc model of this project: categories of documents, the morphisms between documents of
# one category, functors between categories. `catdoc import DIR --link` adopts a docs tree;
# `catdoc validate --suggest` proposes functors. The file format is in CatDoc's README.
categories: []
"""

_NAME_LINE = re.compile(r"^name:.*$", re.M)
_PLAIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9._ -]*[A-Za-z0-9._-]|[A-Za-z]")


def template_dir() -> Traversable:
    """The installed template (`catdoc/_template`), else the source tree's `.catdoc-template/`."""
    installed = resources.files("catdoc").joinpath("_template")
    if installed.is_dir():
        return installed
    source = Path(__file__).resolve().parent.parent / ".catdoc-template"
    if source.is_dir():
        return source
    raise CatDocError(
        IO_ERROR,
        "The CatDoc project template is missing from this installation.",
        "Reinstall CatDoc (`pip install --force-reinstall catdoc`).",
    )


def _template_files(base: Traversable, prefix: str = "") -> list[tuple[str, str]]:
    """(relative posix path, text) of every template file, in name order."""
    out: list[tuple[str, str]] = []
    for entry in sorted(base.iterdir(), key=lambda e: e.name):
        rel = f"{prefix}{entry.name}"
        if entry.is_dir():
            out += _template_files(entry, rel + "/")
        elif entry.is_file():
            out.append((rel, entry.read_text(encoding="utf-8")))
    return out


def template_text(rel: str) -> str:
    """The text of one template file (`category.yaml`, `docs/example.md` …) as init writes it."""
    return template_dir().joinpath(*rel.split("/")).read_text(encoding="utf-8")


def _yaml_scalar(text: str) -> str:
    """`text` as a YAML scalar: plain when unambiguous, else double-quoted (JSON is valid YAML)."""
    plain = _PLAIN_NAME.fullmatch(text) and text.lower() not in {
        "true",
        "false",
        "null",
        "yes",
        "no",
        "on",
        "off",
    }
    return text if plain else json.dumps(text, ensure_ascii=False)


def init_project(
    directory: Path, *, name: str | None = None, force: bool = False, bare: bool = False
) -> r.InitResult:
    """Write the template into `directory/.catdoc/` atomically; refuse to overwrite unless `force`.

    `bare`: config.yaml and an empty model, no example document.
    Only the template's files are (over)written; anything else already in `.catdoc/` is kept.
    Nothing is written when `.catdoc/` or any file to write leads outside the project (symlink).
    """
    root = directory.expanduser().resolve()
    if root.exists() and not root.is_dir():
        raise CatDocError(
            IO_ERROR,
            f"{root} is a file, not a directory.",
            "Pass the directory that should hold the project.",
        )
    catdoc = root / CATDOC_DIR
    existed = catdoc.exists() or catdoc.is_symlink()
    if existed:
        inside_catdoc(root, catdoc)
    if existed and not catdoc.is_dir():
        raise CatDocError(
            IO_ERROR,
            f"{catdoc} exists and is not a directory.",
            f"Move or remove that file, then run `catdoc init {directory}` again.",
        )
    if existed and not force:
        raise CatDocError(
            ALREADY_EXISTS,
            f"{catdoc} already exists; nothing was changed.",
            "Pass --force (MCP: force: true) to rewrite the template files (category.yaml, "
            "config.yaml, docs/example.md); other files in .catdoc/ are kept.",
        )
    project_name = name or root.name or "catdoc-project"
    name_line = f"name: {_yaml_scalar(project_name)}"
    created: list[str] = []
    files = _template_files(template_dir())
    if bare:
        files = [(CONFIG_FILE, text) for rel, text in files if rel == CONFIG_FILE]
        files.append((MODEL_FILE, BARE_MODEL))
    gitignore = catdoc / ".gitignore"
    for target in [*(catdoc / rel for rel, _ in files), gitignore]:
        inside_catdoc(root, target)
    for rel, text in files:
        if rel == CONFIG_FILE:
            text = _NAME_LINE.sub(lambda _: name_line, text, count=1)
        atomic_write(catdoc / rel, text)
        created.append(f"{CATDOC_DIR}/{rel}")
    lines = gitignore.read_text(encoding="utf-8").splitlines() if gitignore.is_file() else []
    missing = [entry for entry in _IGNORED if entry not in lines]
    if missing:
        atomic_write(gitignore, "\n".join([*lines, *missing]) + "\n")
        created.append(f"{CATDOC_DIR}/.gitignore")
    return r.InitResult(root=str(root), created=created, overwritten=existed)


_IGNORED = (f"{CACHE_DIR}/", LOCK_NAME, f"{JOURNAL_NAME}*")
"""Derived data, the writers' lock file and an interrupted write's journal: never committed."""

__all__ = ["init_project", "template_dir"]
