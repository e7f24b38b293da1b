"""Safe writes: atomic replacement, and YAML edits that keep the user's comments and key order."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from catdoc.errors import IO_ERROR, LOAD_ERROR, CatDocError


def _new_file_mode() -> int:
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
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else _new_file_mode())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise CatDocError(
            IO_ERROR, f"Cannot write {path}: {exc.strerror}.", "Check permissions and disk space."
        ) from None


def roundtrip_yaml() -> YAML:
    """A ruamel.yaml instance that round-trips comments, key order and quoting."""
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096
    return yaml


def edit_yaml(path: Path, edit: Callable[[Any], Any], *, empty: Any = None) -> Any:
    """Load `path` round-trip, let `edit` change the document in place, write it back atomically.

    `empty` is the document to start from when the file does not exist or is empty. `edit` may
    return a value; it is passed through. Nothing is written if `edit` raises.
    """
    yaml = roundtrip_yaml()
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        doc = yaml.load(text) if text.strip() else None
    except YAMLError as exc:
        raise CatDocError(
            LOAD_ERROR,
            f"{path.name}: cannot be edited, it is not valid YAML: {exc}",
            "Fix the YAML first (`catdoc validate` shows where).",
        ) from None
    if doc is None:
        doc = empty
    outcome = edit(doc)
    buffer = io.StringIO()
    yaml.dump(doc, buffer)
    atomic_write(path, buffer.getvalue())
    return outcome
