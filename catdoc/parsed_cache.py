"""Large model files' parsed YAML, kept as JSON in `.catdoc/cache/parsed/` for the next read.

Parsing YAML is the largest part of loading a big model: 2 s of CPU for the 55 MB file of a
100,000-object project, where reading the same tree back from JSON takes a quarter of that.
Files under `MIN_CHARS` parse in milliseconds and are never kept.

A kept tree is used only when its header names both the file's `stat` (modification time in
nanoseconds, size, inode, device) and the digest of the text just read: the digest makes a
changed file a miss even within one tick of the file system's clock, and the `stat` makes a
cache committed to a repository useless to whoever committed it (a checkout gets its own inodes
and times). A file is kept the first time it is read, whatever reads it next then gains (a
one-off run, as in a fresh CI checkout, pays for the write: about a fifth of a parse), and only
when JSON can hold its tree (no binary data, no keys other than text; dates are listed apart and
put back), so that it reads back exactly as it was parsed. It is derived data: deleting
`.catdoc/cache/` only makes the next load parse again.

Each item of a top-level list (a category, a functor …) is kept on a line of its own, so the
loader can validate it straight from its JSON (`Kept`): building models from JSON in pydantic's
own parser skips the Python tree between them, a third of a 100,000-object load's time and a
sixth of its memory.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catdoc import yaml_source
from catdoc.errors import CatDocError
from catdoc.writeback import atomic_write

FORMAT = 3
MIN_CHARS = 1 << 20
"""Files shorter than this are parsed every time."""
MAX_HEADER = 4096
_READ_FLAGS = (
    os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
)


@dataclass(slots=True)
class Entry:
    """One item of a top-level list, as kept: its JSON and what it holds that JSON does not."""

    json: bytes
    exact: bool
    """Whether its numbers are all integers of 64 bits: then any JSON reader gives back the
    values the YAML reader gave (a float's text is written differently by each)."""
    date_shapes: list[tuple[list[str | None], str]]
    """Where its dates stand (each path inside the item, list positions as None) and their
    kinds (`date`, `datetime`): a reader that takes dates at those places from their ISO text
    can read the JSON as it is."""
    dates: str
    """The dates the JSON holds as text, as JSON: (path, kind, ISO text) each, read by `tree`."""

    def tree(self) -> Any:
        return _put_dates(json.loads(self.json), json.loads(self.dates))


@dataclass(slots=True)
class Kept:
    """A kept tree: the top-level mapping without its lists, and each list's items apart."""

    top: dict[str, Any]
    lists: dict[str, list[Entry]]
    order: list[str]
    """The top-level keys in the file's order."""

    def tree(self) -> dict[str, Any]:
        """The tree as the YAML reader gave it."""
        lists = {key: [entry.tree() for entry in entries] for key, entries in self.lists.items()}
        return {key: lists[key] if key in lists else self.top[key] for key in self.order}


def parse(path: Path, rel: str, text: str, digest: str, folder: Callable[[], Path]) -> Any:
    """The YAML data of `text` (read from `path`; `digest` is its UTF-8's `file_digest`, which
    the model's version is made of too), from the kept tree when it is current. `folder` gives the
    cache's folder, made and checked to be inside the project (it may raise: the file is then
    parsed and nothing kept)."""
    found = load(path, rel, text, digest, folder)
    return found.tree() if isinstance(found, Kept) else found


def load(path: Path, rel: str, text: str, digest: str, folder: Callable[[], Path]) -> Any:
    """As `parse`, but a current kept tree comes back as it is kept (`Kept`), its items not
    read yet."""
    if len(text) < MIN_CHARS:
        return yaml_source.parse(text, rel)
    where = _where(path, rel, digest, folder)
    if where is None:
        return yaml_source.parse(text, rel)
    place, header = where
    held, body = _read(place)
    if held == header and body is not None:
        try:
            return _restored(body)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
            pass
    known = held == header and body is None  # seen already, and JSON cannot hold its tree
    del body
    tree = yaml_source.parse(text, rel)
    if known or not _write(place, header, tree):
        return tree
    del tree  # kept: read it back as kept, so the whole tree and the models never meet
    held, body = _read(place)
    if held == header and body is not None:
        try:
            return _restored(body)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
            pass
    return yaml_source.parse(text, rel)


def current(
    path: Path, rel: str, text: str, digest: str, folder: Callable[[], Path]
) -> Kept | None:
    """The kept tree of `text` (as `load` takes it) when it is current, else None; never
    parses nor writes. An edit checks its result against the file's tree as it was: a file it
    is about to change is not worth keeping."""
    where = None if len(text) < MIN_CHARS else _where(path, rel, digest, folder)
    if where is None:
        return None
    held, body = _read(where[0])
    if held != where[1] or body is None:
        return None
    try:
        return _restored(body)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        return None


def _where(
    path: Path, rel: str, digest: str, folder: Callable[[], Path]
) -> tuple[Path, dict[str, Any]] | None:
    """(where `rel`'s tree is kept, the header it must carry), or None when the file or the
    folder cannot be had."""
    try:
        st = os.stat(path)
        name = hashlib.blake2b(rel.encode("utf-8", "surrogatepass"), digest_size=10).hexdigest()
        place = folder() / f"{name}.json"
    except (OSError, CatDocError):
        return None
    header = {
        "format": FORMAT,
        "file": rel,
        "stat": [st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev],
        "digest": digest,
    }
    return place, header


def _read(place: Path) -> tuple[dict[str, Any] | None, bytes | None]:
    """(the header, what follows it or None when the tree could not be kept)."""
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


def _write(place: Path, header: dict[str, Any], data: Any) -> bool:
    """Keep the header, and the tree when JSON can hold it (else the header says it cannot):
    a line about the tree (its keys in order, the dates of its top level, and per list item
    whether its numbers are exact, where its dates stand and the dates themselves), the top
    level without its lists, then each list's items, one a line. Written piece by piece and
    not flushed to disk: a torn file fails `_restored`'s checks and is parsed again. Whether
    the tree was kept."""
    dates: list[list[Any]] = []
    loose: list[list[Any]] = []
    stored = type(data) is dict and _plain(data, [], dates, loose)
    try:
        atomic_write(place, _pieces(header, data if stored else None, dates, loose), durable=False)
    except (OSError, ValueError, TypeError, RecursionError, CatDocError):
        return False
    return stored


def _pieces(
    header: dict[str, Any], data: Any, dates: list[list[Any]], loose: list[list[Any]]
) -> Iterator[str]:
    yield json.dumps({**header, "stored": data is not None}) + "\n"
    if data is None:
        return
    lists = [key for key, value in data.items() if type(value) is list]
    top_dates: list[list[Any]] = []
    item_dates: dict[tuple[str, int], list[list[Any]]] = {}
    for path, kind, iso in dates:
        if path[0] in lists:
            item_dates.setdefault((path[0], path[1]), []).append([path[2:], kind, iso])
        else:
            top_dates.append([path, kind, iso])
    inexact = {(key, index) for key, index in loose}
    items = {
        key: [
            _about_item(item_dates.get((key, n), []), (key, n) not in inexact)
            for n in range(len(data[key]))
        ]
        for key in lists
    }
    about = {"order": list(data), "dates": top_dates, "items": items}
    yield json.dumps(about, ensure_ascii=False) + "\n"
    yield _dumped({key: value for key, value in data.items() if key not in lists}) + "\n"
    for key in lists:
        for item in data[key]:
            yield _dumped(item) + "\n"


def _about_item(dates: list[list[Any]], exact: bool) -> list[Any]:
    shapes = {
        (tuple(None if type(step) is int else step for step in path), kind)
        for path, kind, _ in dates
    }
    return [exact, sorted(shapes, key=repr), json.dumps(dates, ensure_ascii=False)]


def _dumped(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, default=_iso)


def _iso(value: Any) -> str:
    """A date's place in the tree (the date itself is put back from the list of dates)."""
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not kept")


def _restored(body: bytes) -> Kept:
    """The tree kept after a header (see `_write`)."""
    about_line, top_line, *item_lines = body.split(b"\n")
    about = json.loads(about_line)
    items = about["items"]
    if item_lines.pop() != b"" or len(item_lines) != sum(map(len, items.values())):
        raise ValueError("the kept items do not match their count")
    lines = iter(item_lines)
    lists = {
        key: [Entry(next(lines), exact, shapes, dates) for exact, shapes, dates in entries]
        for key, entries in items.items()
    }
    top = _put_dates(json.loads(top_line), about["dates"])
    return Kept(top, lists, about["order"])


def _put_dates(tree: Any, dates: list[tuple[list[Any], str, str]]) -> Any:
    """`tree` with each date put back at its path (the tree itself when the path is empty)."""
    for path, kind, iso in dates:
        value = _DATE_KINDS[kind].fromisoformat(iso)
        if not path:
            return value
        parent = tree
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = value
    return tree


_DATE_KINDS = {"date": dt.date, "datetime": dt.datetime}


def _plain(value: Any, path: list[Any], dates: list[list[Any]], loose: list[list[Any]]) -> bool:
    """Whether JSON holds `value` exactly once its dates (listed in `dates` with their paths)
    are put back: text keys only, and text, numbers, booleans, null, dates, lists and mappings
    inside (YAML's binary data or keys of other kinds would come back changed). The items of
    top-level lists that hold a float or an integer beyond 64 bits are listed in `loose`.
    Text, booleans, null and small integers, most of a model, are passed over in the loop."""
    kind = type(value)
    if kind is dict:
        pairs: Iterable[tuple[Any, Any]] = value.items()
    elif kind is list:
        pairs = enumerate(value)
    else:
        return _plain_scalar(value, path, dates, loose)
    low, high = _INT64
    for key, item in pairs:
        if kind is dict and type(key) is not str:
            return False
        held = type(item)
        if held is str or held is bool or item is None or (held is int and low <= item <= high):
            continue
        path.append(key)
        plain = _plain(item, path, dates, loose)
        path.pop()
        if not plain:
            return False
    return True


def _plain_scalar(
    value: Any, path: list[Any], dates: list[list[Any]], loose: list[list[Any]]
) -> bool:
    kind = type(value)
    if kind is dt.date or kind is dt.datetime:
        iso = value.isoformat()
        back = kind.fromisoformat(iso)
        if back != value or (kind is dt.datetime and back.utcoffset() != value.utcoffset()):
            return False  # an offset finer than ISO text keeps
        dates.append([list(path), kind.__name__, iso])
        return True
    if (kind is float or kind is int) and len(path) > 1 and type(path[1]) is int:
        item = path[:2]  # not exact in every JSON reader: a float, or a long integer
        if not loose or loose[-1] != item:
            loose.append(item)
    return kind in _SCALARS


_SCALARS = {str, int, float, bool, type(None)}
_INT64 = (-(1 << 63), (1 << 63) - 1)
