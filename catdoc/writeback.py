"""Atomic replacement of one file (model edits go through `catdoc.edit` and `catdoc.journal`)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from catdoc.errors import IO_ERROR, CatDocError


def new_file_mode() -> int:
    """The mode `open()` would give a new file: mkstemp's 0600 would hide it from the group."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write(
    path: Path, text: str | bytes | Iterable[str | bytes], *, durable: bool = True
) -> None:
    """Write `text` (or its pieces, in turn; text as UTF-8) to `path` so readers see the old
    file or the new one, never half of it. `durable=False` skips the flush to disk, for derived
    data that a crash may lose (a reader must then check what it reads)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise _cannot_write(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            for piece in (text,) if isinstance(text, str | bytes) else text:
                handle.write(piece.encode("utf-8") if isinstance(piece, str) else piece)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else new_file_mode())
        os.replace(tmp, path)
    except BaseException as exc:  # the pieces may fail too: never leave the temporary file
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _cannot_write(path, exc) from None
        raise


def _cannot_write(path: Path, exc: OSError) -> CatDocError:
    return CatDocError(
        IO_ERROR,
        f"Cannot write {path}: {exc.strerror or exc}.",
        f"Check that {path.parent} is a folder you may write to (or can be created), and that "
        "the disk has space.",
    )
