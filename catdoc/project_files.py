"""Where a project's files are: its root, the paths users give (kept inside the root), and the
files under `.catdoc/` (the model's, the settings, the cache), none of which may lead outside it.

Every face and the core take paths through here, so one place refuses `..`, absolute paths
elsewhere, symlinks that leave the project, the version control system's own files and names no
file can have.
"""

from __future__ import annotations

import os
import stat as stat_module
from contextlib import suppress
from pathlib import Path

from catdoc import yaml_source
from catdoc.errors import (
    LOAD_ERROR,
    PATH_OUTSIDE_PROJECT,
    PROJECT_NOT_FOUND,
    VALIDATION_ERROR,
    CatDocError,
)
from catdoc.vcs_paths import VCS_METADATA, in_vcs_metadata

CATDOC_DIR = ".catdoc"
MODEL_FILE = "category.yaml"
CONFIG_FILE = "config.yaml"
REVIEWS_FILE = "reviews.yaml"
"""The review stamps (`catdoc.reviews`): part of the version, so that a review is a change."""
EXTRA_DIR = "categories"
CACHE_DIR = "cache"
NAME_MAX = 255
"""Longest file or directory name, in bytes, on common file systems; longer ones cannot exist."""
PATH_MAX = 4096
"""Longest whole path, in bytes, the system accepts."""


def find_root(start: Path | str | None = None) -> Path:
    """The nearest ancestor of `start` (default: the working directory) holding `.catdoc/`."""
    here = Path(start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / CATDOC_DIR).is_dir():
            return candidate
    raise CatDocError(
        PROJECT_NOT_FOUND,
        f"No CatDoc project found at or above {here} (no {CATDOC_DIR}/ directory).",
        "Run `catdoc init` in the project's root, or pass --project DIR.",
    )


def resolve_inside(root: Path, user_path: str | Path) -> Path:
    """Resolve a user-given path against the root; refuse anything that lands outside it, and
    any path no file can have (a NUL byte, a name over `NAME_MAX` bytes, an unreadable link)."""
    base = root.resolve()
    raw = Path(_usable(user_path))
    try:
        target = (raw if raw.is_absolute() else base / raw).resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python < 3.13)
        raise CatDocError(
            VALIDATION_ERROR,
            f"Path {str(user_path)!r} cannot be resolved: {getattr(exc, 'strerror', None) or exc}.",
            "Fix the path, or the symlink it goes through.",
        ) from None
    if len(os.fsencode(target)) >= PATH_MAX:
        raise CatDocError(
            VALIDATION_ERROR,
            f"Path {str(user_path)[:80]!r}… is longer than the system allows ({PATH_MAX} bytes).",
            "Use a shorter path.",
        )
    if not target.is_relative_to(base):
        raise CatDocError(
            PATH_OUTSIDE_PROJECT,
            f"Path {str(user_path)!r} resolves outside the project root {base}.",
            "Give a path inside the project (relative to its root); `..`, absolute paths "
            "elsewhere and symlinks that leave the project are refused.",
        )
    vcs = in_vcs_metadata(target.relative_to(base))
    if vcs is not None:
        raise CatDocError(
            PATH_OUTSIDE_PROJECT,
            f"Path {str(user_path)!r} is in {vcs}, the version control system's own files.",
            f"Documents live outside {vcs}: its configuration and hooks are not documents, "
            "and CatDoc neither reads nor writes them.",
        )
    return target


class InsideResolver:
    """`resolve_inside` for many project-relative paths at once: each directory's real path is
    looked up once, and a file is taken as it stands in it unless it is a symlink (resolved in
    full then). A folder asked about `LIST_AFTER` times is listed once (`os.scandir`, no `stat`
    per entry) and answered from the listing; a name not in it is looked up on its own (a
    case-insensitive file system finds names a listing spells otherwise). Checking or reading
    100,000 documents otherwise spends most of its time on the same few directories. Use one
    for one batch only: a change to the tree afterwards is not seen."""

    LIST_AFTER = 32

    def __init__(self, root: Path) -> None:
        self.root = root
        self._dirs: dict[str, Path] = {}
        self._asked: dict[str, int] = {}
        self._listed: dict[str, dict[str, int]] = {}

    def __call__(self, rel: str) -> Path:
        """The path `resolve_inside` gives (raising as it does)."""
        found = self._entry(rel)
        if found is None or found[1] is None or stat_module.S_ISLNK(found[1]):
            return resolve_inside(self.root, rel)
        return found[0] / found[2]

    def is_file(self, rel: str) -> bool:
        """Whether `rel` names a regular file, following a symlink that stays inside; raises
        as `resolve_inside` for a path that leaves the project or that no file can have."""
        found = self._entry(rel)
        if found is None:
            return _is_file(resolve_inside(self.root, rel))
        mode = found[1]
        if mode is None:
            resolve_inside(self.root, rel)  # explains a name no file can have
            return False
        if stat_module.S_ISLNK(mode):
            return _is_file(resolve_inside(self.root, rel))
        return stat_module.S_ISREG(mode)

    def _entry(self, rel: str) -> tuple[Path, int | None, str] | None:
        """(the file's resolved folder, its `lstat` mode or None, its name), or None when `rel`
        is not a plain name in a folder (it is then resolved whole)."""
        parent, _, name = rel.rpartition("/")
        if name in ("", ".", "..") or rel.startswith("/") or "\0" in rel:
            return None
        if name.casefold() in VCS_METADATA:
            return None  # resolved whole, which refuses it
        folder = self._dirs.get(parent)
        if folder is None:
            try:
                folder = resolve_inside(self.root, parent or ".")
            except CatDocError:
                return None  # resolved whole, the error names the whole path
            self._dirs[parent] = folder
        listing = self._listed.get(parent)
        if listing is None:
            asked = self._asked[parent] = self._asked.get(parent, 0) + 1
            if asked >= self.LIST_AFTER:
                listing = self._listed[parent] = _listing(folder)
        mode = listing.get(name) if listing is not None else None
        if mode is None:
            with suppress(OSError, ValueError):
                mode = os.lstat(os.path.join(folder, name)).st_mode
        return folder, mode, name


def _listing(folder: Path) -> dict[str, int]:
    """The entries of a folder by name: their `lstat` file type, from the directory itself
    where the file system says (no `stat` per entry); empty when it cannot be listed."""
    kinds: dict[str, int] = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_symlink():
                    kinds[entry.name] = stat_module.S_IFLNK
                elif entry.is_file(follow_symlinks=False):
                    kinds[entry.name] = stat_module.S_IFREG
                elif entry.is_dir(follow_symlinks=False):
                    kinds[entry.name] = stat_module.S_IFDIR
                else:
                    kinds[entry.name] = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return {}
    return kinds


def _is_file(path: os.PathLike[str]) -> bool:
    """`Path.is_file`, with errors it does not swallow (such as EACCES) read as "no file"."""
    try:
        return stat_module.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


_SPECIAL_KINDS = (
    (stat_module.S_ISDIR, "a folder"),
    (stat_module.S_ISFIFO, "a FIFO (named pipe)"),
    (stat_module.S_ISSOCK, "a socket"),
    (stat_module.S_ISCHR, "a character device"),
    (stat_module.S_ISBLK, "a block device"),
)


def special_kind(mode: int) -> str:
    """What an entry of `mode` that is not a regular file is: "a folder", "a FIFO (named pipe)" …"""
    return next((kind for test, kind in _SPECIAL_KINDS if test(mode)), "a special file")


def _usable(user_path: str | Path) -> str:
    """`user_path` as text, when some file could have that name."""
    text = os.fspath(user_path)
    problem = ""
    if "\0" in text:
        problem = "contains a NUL byte"
    else:
        try:
            names = os.fsencode(text).split(b"/")
        except UnicodeError:
            names, problem = [], "contains characters no file name can hold"
        if any(len(name) > NAME_MAX for name in names):
            problem = f"has a name longer than {NAME_MAX} bytes"
    if problem:
        shown = text[:80] + ("…" if len(text) > 80 else "")
        raise CatDocError(
            VALIDATION_ERROR,
            f"Path {shown!r} {problem}; no file has such a name.",
            "Give the path of an existing file, relative to the project root.",
        )
    return text


def inside_catdoc(root: Path, path: Path) -> Path:
    """`path` under `.catdoc/`, checked not to lead outside the project through a symlink."""
    base = root.resolve()
    try:
        target = path.resolve()
    except (OSError, RuntimeError) as exc:
        raise CatDocError(
            LOAD_ERROR,
            f"{path}: cannot be resolved ({getattr(exc, 'strerror', None) or exc}).",
            "Fix or remove the symlink.",
        ) from None
    if not target.is_relative_to(base):
        rel = path.relative_to(base).as_posix() if path.is_relative_to(base) else str(path)
        raise CatDocError(
            PATH_OUTSIDE_PROJECT,
            f"{rel} leads outside the project (to {target}); CatDoc neither reads nor writes it.",
            f"Nothing under {CATDOC_DIR}/ may point outside the project: replace the symlink by "
            "a copy of what it points to, or move that into the project.",
        )
    return target


def model_files(root: Path) -> list[Path]:
    """`category.yaml` first, then `categories/*.yaml` in name order; none may lead outside
    the project or exceed the size limit (so nothing reads a file the loader would refuse)."""
    catdoc = root / CATDOC_DIR
    inside_catdoc(root, catdoc)
    model = catdoc / MODEL_FILE
    files = [model] if model.is_file() else []
    extra = catdoc / EXTRA_DIR
    if extra.is_dir():
        inside_catdoc(root, extra)
        files += sorted(p for p in extra.iterdir() if p.suffix in {".yaml", ".yml"} and p.is_file())
    for path in files:
        inside_catdoc(root, path)
        yaml_source.check_size(path, path.relative_to(root).as_posix())
    return files


def stamp(root: Path) -> tuple[tuple[str, int, int], ...]:
    """A cheap fingerprint of the model's files: changes when any is added, removed or edited.

    Long-running faces call it on every request, so it uses `os` calls on strings rather than
    pathlib (which spends more time building paths than the system spends on the `stat`s).
    Same files, same order as `model_files`, plus the config and the `categories/` directory.
    """
    catdoc = os.path.join(root, CATDOC_DIR)
    extra = os.path.join(catdoc, EXTRA_DIR)
    model = os.path.join(catdoc, MODEL_FILE)
    parts: list[tuple[str, int, int]] = []
    extra_is_dir = False
    for path in (os.path.join(catdoc, CONFIG_FILE), extra, model):
        try:
            st = os.stat(path)
        except OSError:
            continue
        if path == extra:
            extra_is_dir = stat_module.S_ISDIR(st.st_mode)
        elif path == model and not stat_module.S_ISREG(st.st_mode):
            continue
        parts.append((path, st.st_mtime_ns, st.st_size))
    if extra_is_dir:
        try:
            entries = sorted(os.scandir(extra), key=lambda entry: entry.name)
        except OSError:
            entries = []
        for entry in entries:
            if os.path.splitext(entry.name)[1] not in {".yaml", ".yml"}:
                continue
            try:
                if entry.is_file():
                    st = entry.stat()
                    parts.append((entry.path, st.st_mtime_ns, st.st_size))
            except OSError:
                continue
    return tuple(parts)


def cache_dir(root: Path) -> Path:
    """`.catdoc/cache/`, created when missing; refused when it leads outside the project."""
    path = root / CATDOC_DIR / CACHE_DIR
    inside_catdoc(root, path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CatDocError(
            LOAD_ERROR,
            f"{CATDOC_DIR}/{CACHE_DIR}: cannot be created ({exc.strerror}).",
            "Check the permissions of .catdoc/, or remove what is in the way.",
        ) from None
    inside_catdoc(root, path)
    return path
