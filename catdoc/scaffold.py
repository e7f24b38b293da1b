"""`catdoc init`: create `.catdoc/` from the template that ships with the package.

The template is `.catdoc-template/` at the repository root; the wheel carries it as
`catdoc/_template`, so `catdoc init` works from a plain install outside the source tree.
`catdoc init --bare` writes its config.yaml and an empty model instead of the example, for a
project that will adopt an existing docs tree (`catdoc import`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import re
import shutil
from collections.abc import Iterator
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from catdoc import results as r
from catdoc.errors import ALREADY_EXISTS, IO_ERROR, CatDocError
from catdoc.journal import JOURNAL_NAME
from catdoc.lock import LOCK_NAME
from catdoc.project_files import (
    CACHE_DIR,
    CATDOC_DIR,
    CONFIG_FILE,
    EXTRA_DIR,
    MODEL_FILE,
    inside_catdoc,
    model_files,
)
from catdoc.writeback import atomic_write

EXAMPLE_DOCUMENT = "docs/example.md"
BARE_MODEL = """\
# The CatDoc model of this project: categories of documents, the morphisms between documents of
# one category, functors between categories. `catdoc import DIR --link` adopts a docs tree;
# `catdoc validate --suggest` proposes functors. The file format is in CatDoc's README.
categories: []
"""

BARE_CONFIG_TAIL = """\
validation:
  # An adopted tree's references (A cites B, B cites C) are not meant to compose: with the
  # lint on, every such pair would ask for a morphism A → C. `warning` turns it back on.
  compositionClosure: off
"""
"""What a bare project's config.yaml adds to the template's."""

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

    `bare`: config.yaml (with the composition-closure lint off, see `BARE_CONFIG_TAIL`) and an
    empty model, no example document.
    Only the template's files are (over)written, and every file whose content `force` replaces
    is first copied to `.catdoc/backups/init-<UTC time>/`; the model's other files
    (`categories/*.yaml`) are moved there, so the new model is the template alone; anything
    else already in `.catdoc/` is kept. Refused without `force` inside another project (a nested
    project is rarely meant).
    Nothing is written when `.catdoc/` or any file to write leads outside the project (symlink)
    or is not a file; a write that fails puts back every file as it was.
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
            f"{root} is a CatDoc project already ({catdoc} exists); nothing was changed.",
            "Pass --force (MCP: force: true) to rewrite the template files (category.yaml, "
            "config.yaml, docs/example.md); the ones it replaces, and the model's other files "
            f"(categories/*.yaml), are kept in .catdoc/{BACKUP_DIR}/; other files in .catdoc/ "
            "are left alone.",
        )
    outer = None if existed else enclosing_project(root)
    if outer is not None and not force:
        raise CatDocError(
            ALREADY_EXISTS,
            f"{root} is inside the CatDoc project at {outer}; nothing was changed.",
            f"Work in that project (`catdoc -C {outer} …`, its model is {outer / CATDOC_DIR}), "
            "or pass --force (MCP: force: true) to create a separate project nested in it.",
        )
    project_name = name or root.name or "catdoc-project"
    name_line = f"name: {_yaml_scalar(project_name)}"
    files = _template_files(template_dir())
    if bare:
        config = next(text for rel, text in files if rel == CONFIG_FILE)
        files = [(CONFIG_FILE, config + BARE_CONFIG_TAIL), (MODEL_FILE, BARE_MODEL)]
    plan = [
        (rel, _NAME_LINE.sub(lambda _: name_line, text, count=1) if rel == CONFIG_FILE else text)
        for rel, text in files
    ]
    gitignore = catdoc / ".gitignore"
    for target in [*(catdoc / rel for rel, _ in plan), gitignore]:
        inside_catdoc(root, target)
        if target.exists() and not target.is_file():
            raise CatDocError(
                IO_ERROR,
                f"{target} is in the way: it is not a file; nothing was changed.",
                "Move or remove it, then run `catdoc init` again.",
            )
    lines = gitignore.read_text(encoding="utf-8").splitlines() if gitignore.is_file() else []
    missing = [entry for entry in _IGNORED if entry not in lines]
    if missing:
        plan.append((".gitignore", "\n".join([*lines, *missing]) + "\n"))
    extra = [  # the model's other files: left in place, they would join the template's model
        path.relative_to(catdoc).as_posix()
        for path in (model_files(root) if existed else [])
        if path.parent.name == EXTRA_DIR
    ]
    with _undone_on_failure(catdoc, [catdoc / rel for rel, _ in plan]) as undo:
        replaced = [rel for rel, text in plan if _replaces(catdoc / rel, text)]
        backup = undo.back_up(replaced + extra) if replaced or extra else None
        for rel in extra:
            (catdoc / rel).unlink()
        for rel, text in plan:
            if rel in replaced or not (catdoc / rel).is_file():  # the same bytes stay as they are
                atomic_write(catdoc / rel, text)
    return r.InitResult(
        root=str(root),
        created=[f"{CATDOC_DIR}/{rel}" for rel, _ in plan],
        overwritten=existed,
        backup=None if backup is None else backup.relative_to(root).as_posix(),
        set_aside=[f"{CATDOC_DIR}/{rel}" for rel in extra],
    )


BACKUP_DIR = "backups"
"""Under `.catdoc/`: one folder per forced init (`init-20250101T120000Z/`) holding the files it
replaced, at their paths relative to `.catdoc/`."""


def enclosing_project(directory: Path) -> Path | None:
    """The nearest project above `directory` (not `directory` itself), or None."""
    for candidate in directory.parents:
        if (candidate / CATDOC_DIR).is_dir():
            return candidate
    return None


def _replaces(path: Path, text: str) -> bool:
    """Whether writing `text` to `path` loses what the file holds now."""
    return path.is_file() and path.read_bytes() != text.encode("utf-8")


class _Undo:
    """What an init changed, so a failed one can put everything back."""

    def __init__(self, catdoc: Path, targets: list[Path]) -> None:
        self.catdoc = catdoc
        self.new_files = [path for path in targets if not path.exists()]
        folders = {d for path in targets for d in path.parents if d.is_relative_to(catdoc)}
        self.new_dirs = sorted(
            (d for d in folders if not d.exists()), key=lambda d: len(d.parts), reverse=True
        )
        """Folders init will make, deepest first (so each is empty when its turn comes)."""
        self.backup: Path | None = None
        self.saved: list[str] = []

    def back_up(self, rels: list[str]) -> Path:
        """Copy the files at `rels` (relative to `.catdoc/`) into a new backup folder."""
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        base = self.catdoc / BACKUP_DIR / f"init-{stamp}"
        folder, number = base, 1
        while folder.exists():
            number += 1
            folder = base.with_name(f"{base.name}-{number}")
        if not (self.catdoc / BACKUP_DIR).exists():
            self.new_dirs.insert(0, self.catdoc / BACKUP_DIR)
        self.backup = folder
        try:
            for rel in rels:
                copy = folder / rel
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(self.catdoc / rel, copy)
                self.saved.append(rel)
        except OSError as exc:
            raise CatDocError(
                IO_ERROR,
                f"Cannot keep a backup in {folder}: {exc.strerror}; nothing was changed.",
                "Check permissions and disk space.",
            ) from None
        return folder

    def undo(self) -> None:
        """Put back every replaced file (byte for byte, with its times), remove what was new."""
        for rel in self.saved:
            assert self.backup is not None
            os.replace(self.backup / rel, self.catdoc / rel)
        if self.backup is not None:
            shutil.rmtree(self.backup, ignore_errors=True)
        for path in self.new_files:
            with contextlib.suppress(OSError):  # never made (its folder could not be)
                path.unlink()
        for folder in self.new_dirs:
            with contextlib.suppress(OSError):
                folder.rmdir()


@contextlib.contextmanager
def _undone_on_failure(catdoc: Path, targets: list[Path]) -> Iterator[_Undo]:
    undo = _Undo(catdoc, targets)
    try:
        yield undo
    except BaseException:
        undo.undo()
        raise


_IGNORED = (f"{CACHE_DIR}/", LOCK_NAME, f"{JOURNAL_NAME}*")
"""Derived data, the writers' lock file and an interrupted write's journal: never committed."""

__all__ = ["BACKUP_DIR", "enclosing_project", "init_project", "template_dir"]
