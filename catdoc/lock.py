"""The project lock: one writer at a time, across threads and processes.

Every change to the model holds it from reading the files to the last rename, so two writers can
never plan against the same old state and overwrite each other. A second writer waits up to a
bounded time, then gets `BUSY` and has written nothing.
"""

from __future__ import annotations

import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from catdoc.errors import BUSY, IO_ERROR, PATH_OUTSIDE_PROJECT, CatDocError

LOCK_NAME = "lock"
DEFAULT_TIMEOUT = 10.0
"""Seconds a writer waits for another one to finish before it answers BUSY."""


_held = threading.local()


def lock_path(root: Path) -> Path:
    return root / ".catdoc" / LOCK_NAME


def held_here(root: Path) -> bool:
    """Whether this thread holds the project's lock (so it must not wait for it again)."""
    return root in getattr(_held, "roots", ())


@contextmanager
def project_lock(root: Path, timeout: float = DEFAULT_TIMEOUT) -> Iterator[None]:
    """Hold the exclusive lock of the project at `root` (a lock file under `.catdoc/`)."""
    _refuse_planted(root)
    # A fresh, non-thread-local lock object per use: two threads of one process then exclude
    # each other exactly like two processes do (flock is per open file description).
    from filelock import FileLock, Timeout  # on first use: a read-only command never locks

    lock = FileLock(lock_path(root), timeout=timeout, thread_local=False, is_singleton=False)
    try:
        lock.acquire()
    except Timeout:
        raise CatDocError(
            BUSY,
            f"Another change to this project is still being written (waited {timeout:g} s for "
            "the project lock); nothing was changed.",
            "Try again in a moment. If no other CatDoc process is running, a stuck one holds "
            "the lock: stop it (the lock is released when its process ends).",
        ) from None
    except OSError as exc:
        raise CatDocError(
            IO_ERROR,
            f"Cannot take the project lock {lock_path(root)}: {exc.strerror}.",
            "Check that `.catdoc/` is writable.",
        ) from None
    roots = getattr(_held, "roots", None)
    if roots is None:
        roots = _held.roots = set()
    roots.add(root)
    try:
        yield
    finally:
        roots.discard(root)
        lock.release()


def _refuse_planted(root: Path) -> None:
    """The lock file is opened for writing (and truncated): a symlink or special file planted
    in its place, e.g. committed to a repository, must not lead that write anywhere."""
    path = lock_path(root)
    try:
        info = path.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CatDocError(IO_ERROR, f"Cannot check {path}: {exc.strerror}.") from None
    if not stat.S_ISREG(info.st_mode):
        raise CatDocError(
            PATH_OUTSIDE_PROJECT,
            f"{path} is not a regular file (a symlink or special file); CatDoc will not write "
            "through it.",
            "Delete it: it is CatDoc's lock file and is created again when needed.",
        )


__all__ = ["DEFAULT_TIMEOUT", "held_here", "lock_path", "project_lock"]
