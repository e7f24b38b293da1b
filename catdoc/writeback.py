"""Atomic replacement of one file (model edits go through `catdoc.edit` and `catdoc.journal`)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from catdoc.errors import IO_ERROR, CatDocError


def new_file_mode() -> int:
    """The mode `open()` would give a new file: mkstemp's 0600 would hide it from the group."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write(path: Path, text: str) -> None:
    """Write `text` to `path` so readers see the old file or the new one, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else new_file_mode())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise CatDocError(
            IO_ERROR, f"Cannot write {path}: {exc.strerror}.", "Check permissions and disk space."
        ) from None
