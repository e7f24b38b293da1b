"""All-or-nothing writes of several files, with recovery after a crash.

One file is made atomic by writing a temporary file beside it and renaming it over the old one.
Several files are not: a kill between two renames leaves one new and one old. So a write of
several files goes through a journal, `.catdoc/journal.json`:

1. the journal is written (atomically) in state `prepared`, naming every target and its temp file,
   and every file to delete;
2. every temp file is written and fsynced;
3. the journal is rewritten in state `committed` — this rename is the commit point;
4. every temp file is renamed over its target, every file to delete is removed; the journal is
   removed.

Recovery (run before every load and every edit) finishes a `committed` journal (renames the temps
that are still there, removes the files to delete that are still there) and undoes a `prepared`
one (removes its temps). Either way the files end as wholly before or wholly after the write.

A journal is data, and data can be planted (committed to a repository, say): recovery acts only
on a journal every entry of which this module could have written, a target inside the project
and outside any version control folder (`.git/` holds hooks and configuration that run
commands), its temp file beside it and named as `commit_files` names it, a file to delete under
`.catdoc/`. Any other journal is set aside (`journal.json.refused`) and nothing is done.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from collections.abc import Collection, Mapping
from pathlib import Path

from catdoc.errors import IO_ERROR, PATH_OUTSIDE_PROJECT, CatDocError
from catdoc.vcs_paths import in_vcs_metadata
from catdoc.writeback import new_file_mode

JOURNAL_NAME = "journal.json"
_TEMP_SUFFIX = ".catdoc-tmp"
_CATDOC_DIR = ".catdoc"


def journal_path(root: Path) -> Path:
    return root / _CATDOC_DIR / JOURNAL_NAME


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_file(path: Path, data: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _write_journal(root: Path, state: str, entries: list[dict[str, str | bool]]) -> None:
    path = journal_path(root)
    tmp = path.with_name(f".{JOURNAL_NAME}.{secrets.token_hex(4)}{_TEMP_SUFFIX}")
    body = json.dumps({"version": 1, "state": state, "entries": entries}).encode()
    _write_file(tmp, body, 0o644)
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _inside(root: Path, rel: str) -> Path | None:
    """`root / rel` if it stays inside the root and out of version control folders; `rel` as
    `commit_files` writes it (no `.` or `..` step, no empty one)."""
    if "\0" in rel or os.path.isabs(rel) or in_vcs_metadata(rel) is not None:
        return None
    if any(step in ("", ".", "..") for step in rel.split("/")):
        return None
    path = root / rel
    try:
        parent = path.parent.resolve()
    except (OSError, RuntimeError):
        return None
    return path if parent.is_relative_to(root.resolve()) else None


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def commit_files(root: Path, writes: Mapping[Path, str], deletes: Collection[Path] = ()) -> None:
    """Replace every file in `writes` (absolute paths inside `root`) with its text and remove
    every file in `deletes`, all or none.

    Call it holding the project lock. A single file skips the journal: its rename (or its
    removal) is atomic. A file to delete that is already gone is no error.
    """
    for target in writes:
        vcs = in_vcs_metadata(target.relative_to(root))
        if vcs is not None:
            raise CatDocError(
                PATH_OUTSIDE_PROJECT,
                f"{_rel(root, target)} is in {vcs}; nothing was changed.",
                f"CatDoc writes no file in {vcs}, the version control system's own files.",
            )
    gone = _deletable(root, deletes, writes)
    if not writes and not gone:
        return
    if not writes and len(gone) == 1:
        _delete(gone[0])
        _fsync_dir(gone[0].parent)
        return
    targets = sorted(writes)
    temps = {
        target: target.with_name(f".{target.name}.{secrets.token_hex(4)}{_TEMP_SUFFIX}")
        for target in targets
    }
    entries: list[dict[str, str | bool]] = [
        {"target": _rel(root, target), "temp": _rel(root, temps[target])} for target in targets
    ]
    entries += [{"target": _rel(root, path), "delete": True} for path in gone]
    journaled = len(entries) > 1
    try:
        if journaled:
            _write_journal(root, "prepared", entries)
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            mode = target.stat().st_mode & 0o777 if target.exists() else new_file_mode()
            _write_file(temps[target], writes[target].encode("utf-8"), mode)
        if journaled:
            _write_journal(root, "committed", entries)
    except OSError as exc:
        for temp in temps.values():
            temp.unlink(missing_ok=True)
        journal_path(root).unlink(missing_ok=True)
        raise CatDocError(
            IO_ERROR,
            f"Cannot write {exc.filename or 'the model files'}: {exc.strerror}; "
            "nothing was changed.",
            "Check permissions and free disk space, then try again.",
        ) from None
    for target in targets:
        os.replace(temps[target], target)
    for path in gone:
        _delete(path)
    for directory in {target.parent for target in [*targets, *gone]}:
        _fsync_dir(directory)
    if journaled:
        journal_path(root).unlink(missing_ok=True)
        _fsync_dir(journal_path(root).parent)


def _deletable(root: Path, deletes: Collection[Path], writes: Mapping[Path, str]) -> list[Path]:
    """The files of `deletes` that exist, after checking each stays inside `root` (its folder
    resolved) and is not also written."""
    out = []
    for path in sorted(set(deletes)):
        try:
            rel = _rel(root, path)
        except ValueError:
            rel = None
        if rel is None or _inside(root, rel) is None or not rel.startswith(f"{_CATDOC_DIR}/"):
            raise CatDocError(
                PATH_OUTSIDE_PROJECT,
                f"{path} is not a file of the project's {_CATDOC_DIR}/; nothing was changed.",
                f"An edit deletes only CatDoc's own files, under {_CATDOC_DIR}/ (a recovered "
                "write may delete nothing else).",
            )
        if path in writes:
            raise ValueError(f"{rel} is both written and deleted")
        if os.path.lexists(path):
            out.append(path)
    return out


def _delete(path: Path) -> None:
    """Remove a file (a link itself, never what it points at); gone already is fine, and so is a
    path that cannot exist (a file where one of its folders should be)."""
    if path.is_dir() and not path.is_symlink():
        return
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        path.unlink()


def pending(root: Path) -> bool:
    """Whether a journal is waiting for recovery (one `stat`)."""
    return os.path.lexists(journal_path(root))


def recover(root: Path) -> str | None:
    """Finish or undo an interrupted `commit_files`; returns what was done, or None.

    Call it holding the project lock: a journal may belong to a writer that is still running.
    """
    path = journal_path(root)
    try:
        record = json.loads(path.read_bytes())
        state = record["state"]
        entries = [
            (str(e["target"]), None if e.get("delete") is True else str(e["temp"]))
            for e in record["entries"]
        ]
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        # Written atomically, so a journal we cannot read was never ours: set it aside.
        path.replace(path.with_name(f"{JOURNAL_NAME}.unreadable"))
        return "set aside an unreadable journal"
    checked = [_checked(root, target, temp) for target, temp in entries]
    if state not in ("prepared", "committed") or None in checked:
        path.replace(path.with_name(f"{JOURNAL_NAME}.refused"))
        return "set aside a journal naming files CatDoc does not write"
    for target, temp in (pair for pair in checked if pair is not None):
        if temp is None:
            if state == "committed":
                _delete(target)
            continue
        if state == "committed" and temp.is_file() and not temp.is_symlink():
            os.replace(temp, target)
        else:
            _delete(temp)
    path.unlink(missing_ok=True)
    _fsync_dir(path.parent)
    return "finished an interrupted write" if state == "committed" else "undid an interrupted write"


def _checked(root: Path, target_rel: str, temp_rel: str | None) -> tuple[Path, Path | None] | None:
    """(target, temp) of an entry `commit_files` could have written, else None: a target in
    the project, out of version control folders and not a folder, its temp beside it and named
    for it, a file to delete (no temp) under `.catdoc/`."""
    target = _inside(root, target_rel)
    if target is None or (target.is_dir() and not target.is_symlink()):
        return None  # CatDoc writes and deletes files; a folder there is someone else's
    if temp_rel is None:
        return (target, None) if target_rel.startswith(f"{_CATDOC_DIR}/") else None
    temp = _inside(root, temp_rel)
    named = re.fullmatch(
        rf"\.{re.escape(target.name)}\.[0-9a-f]{{8}}{re.escape(_TEMP_SUFFIX)}",
        temp.name if temp else "",
    )
    if temp is None or temp.parent != target.parent or named is None:
        return None
    return target, temp


__all__ = ["commit_files", "journal_path", "pending", "recover"]
