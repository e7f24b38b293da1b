"""Large model files' parsed YAML, kept as JSON in `.catdoc/cache/parsed/` for the next read.

Parsing YAML is the largest part of loading a big model: 2 s of CPU for the 55 MB file of a
100,000-object project, where reading the same tree back from JSON takes a quarter of that.
Files under `MIN_CHARS` parse in milliseconds and are never kept.

A kept tree is used only when its header names both the file's `stat` (modification time in
nanoseconds, size, inode, device) and the digest of the text just read: the digest makes a
changed file a miss even within one tick of the file system's clock, and the `stat` makes a
cache committed to a repository useless to whoever committed it (a checkout gets its own inodes
and times). A file is kept only the second time it is read unchanged, so a one-off run (a fresh
CI checkout) pays nothing for writing it, and only when JSON can hold its tree (no binary data,
no keys other than text; dates are listed apart and put back), so that it reads back exactly as
it was parsed. It is derived data: deleting `.catdoc/cache/` only makes the next load parse
again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from catdoc import yaml_source
from catdoc.errors import CatDocError
from catdoc.writeback import atomic_write

FORMAT = 1
MIN_CHARS = 1 << 20
"""Files shorter than this are parsed every time."""
MAX_HEADER = 4096
_READ_FLAGS = (
    os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
)


def parse(path: Path, rel: str, text: str, data: bytes, folder: Callable[[], Path]) -> Any:
    """The YAML data of `text` (read from `path`; `data` is its UTF-8, which the loader hashes
    for the model's version too), from the kept tree when it is current. `folder` gives the
    cache's folder, made and checked to be inside the project (it may raise: the file is then
    parsed and nothing kept)."""
    if len(text) < MIN_CHARS:
        return yaml_source.parse(text, rel)
    try:
        st = os.stat(path)
        name = hashlib.blake2b(rel.encode("utf-8", "surrogatepass"), digest_size=10).hexdigest()
        place = folder() / f"{name}.json"
    except (OSError, CatDocError):
        return yaml_source.parse(text, rel)
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    header = {
        "format": FORMAT,
        "file": rel,
        "stat": [st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev],
        "digest": digest,
    }
    held, body = _read(place)
    if held == header and body is not None:
        try:
            return _restored(body)
        except (ValueError, TypeError, KeyError, IndexError, RecursionError):
            pass
    data = yaml_source.parse(text, rel)
    _write(place, header, data if held == header else None)
    return data


def _read(place: Path) -> tuple[dict[str, Any] | None, bytes | None]:
    """(the header, what follows it or None when only the header was kept)."""
    try:
        fd = os.open(place, _READ_FLAGS)
    except OSError:
        return None, None
    try:
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > 4 * yaml_source.MAX_FILE_BYTES:
                return None, None
            header = json.loads(handle.readline(MAX_HEADER))
            if not isinstance(header, dict):
                return None, None
            stored = header.pop("stored", False)
            return header, handle.read() if stored is True else None
    except (OSError, ValueError, RecursionError):
        return None, None


def _write(place: Path, header: dict[str, Any], data: Any) -> None:
    """Keep the header (the file was seen), and the tree when given and JSON can hold it."""
    dates: list[list[Any]] = []
    stored = type(data) is dict and _plain(data, [], dates)
    try:
        parts = [json.dumps({**header, "stored": stored})]
        if stored:
            parts.append(json.dumps(dates, ensure_ascii=False))
            parts.append(json.dumps(data, ensure_ascii=False, allow_nan=False, default=_iso))
        atomic_write(place, "\n".join(parts) + "\n")
    except (OSError, ValueError, TypeError, RecursionError, CatDocError):
        return


def _iso(value: Any) -> str:
    """A date's place in the tree (the date itself is put back from the list of dates)."""
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not kept")


def _restored(body: bytes) -> Any:
    """The tree kept after a header: a line of dates (path, kind, ISO text), then the tree."""
    first, _, rest = body.partition(b"\n")
    data = json.loads(rest)
    for path, kind, iso in json.loads(first):
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = _DATE_KINDS[kind].fromisoformat(iso)
    return data


_DATE_KINDS = {"date": dt.date, "datetime": dt.datetime}


def _plain(value: Any, path: list[Any], dates: list[list[Any]]) -> bool:
    """Whether JSON holds `value` exactly once its dates (listed in `dates` with their paths)
    are put back: text keys only, and text, numbers, booleans, null, dates, lists and mappings
    inside (YAML's binary data or keys of other kinds would come back changed)."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                return False
            path.append(key)
            if not _plain(item, path, dates):
                return False
            path.pop()
        return True
    if kind is list:
        for index, item in enumerate(value):
            path.append(index)
            if not _plain(item, path, dates):
                return False
            path.pop()
        return True
    if kind is dt.date or kind is dt.datetime:
        dates.append([list(path), kind.__name__, value.isoformat()])
        return True
    return kind in _SCALARS


_SCALARS = {str, int, float, bool, type(None)}
