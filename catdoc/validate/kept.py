"""The last whole-project report, kept in `.catdoc/cache/report.json` so that validating an
unchanged project again costs a read of its files instead of a load and every check.

A report is a function of the model files (config included), of CatDoc's own code, of what the
file system says of each object's path, and of the review stamps. So a kept report is given
back only when all of these are as they were:

- the model files' `stamp` (absolute paths, modification times in nanoseconds, sizes: a report
  committed to a repository is useless to a checkout) and their contents' digest (a file
  edited within one tick of the file system's clock is a change);
- CatDoc's code: the `stat` of every module of the package, its version, Python's and
  pydantic-core's;
- each object path's `path_verdict`, looked up again (a file created, deleted or replaced by a
  folder or a symlink changes its verdict);
- no `.catdoc/reviews.yaml`: with reviews on, a report depends on every linked document's
  bytes, and is made afresh.

It is derived data, written without a flush (a torn or foreign file is ignored); deleting it
only makes the next run check everything.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pydantic_core

import catdoc
from catdoc import parsed_cache
from catdoc.errors import CatDocError
from catdoc.project import Project, model_version
from catdoc.project_files import (
    CACHE_DIR,
    CATDOC_DIR,
    InsideResolver,
    cache_dir,
    inside_catdoc,
    stamp,
)
from catdoc.reviews import reviews_path
from catdoc.validate.project_checks import FILE, path_verdict
from catdoc.validate.report import Report, report_timestamp
from catdoc.writeback import atomic_write

FORMAT = 1
NAME = "report.json"


def kept_report(root: Path) -> Report | None:
    """The report kept by the last whole-project run, when nothing it depends on changed since
    (with a new timestamp); None otherwise. Never raises: a miss only means a full run."""
    try:
        if os.path.lexists(reviews_path(root)):
            return None
        entry = _read(inside_catdoc(root, root / CATDOC_DIR / CACHE_DIR) / NAME)
        if (
            entry is None
            or entry.get("format") != FORMAT
            or entry.get("code") != code_digest()
            or entry.get("files") != _as_json(stamp(root))
            or entry.get("version") != model_version(root)
        ):
            return None
        paths, other = entry.get("paths"), entry.get("other")
        if not isinstance(paths, list) or not isinstance(other, dict):
            return None
        inside = InsideResolver(root)
        for path in paths:
            if not isinstance(path, str) or path_verdict(inside, path) != other.get(path, FILE):
                return None
        report = Report.model_validate(entry.get("report"))
    except (CatDocError, OSError, ValueError, RecursionError):
        return None
    report.timestamp = report_timestamp()
    return report


def keep_report(
    project: Project, report: Report, verdicts: Mapping[str, str], reviews_off: bool
) -> None:
    """Keep the report of a whole-project run on `project`, made with these path verdicts; a
    report made with reviews on is not kept (see the module's docstring)."""
    if not reviews_off:
        return
    root = project.root
    entry = {
        "format": FORMAT,
        "code": code_digest(),
        "files": _as_json(project.fingerprint),
        "version": project.version,
        "paths": list(verdicts),
        "other": {path: verdict for path, verdict in verdicts.items() if verdict != FILE},
        "report": report.model_dump(mode="json"),
    }
    with contextlib.suppress(OSError, ValueError, CatDocError):
        atomic_write(cache_dir(root) / NAME, json.dumps(entry).encode(), durable=False)


@functools.cache
def code_digest() -> str:
    """What identifies the code that made a report: a digest of the `stat` of each module of
    the package (a few milliseconds), its version, and Python's and pydantic-core's versions."""
    package = Path(catdoc.__file__).parent
    digest = hashlib.blake2b(digest_size=16)
    for name in (catdoc.__version__, sys.version, pydantic_core.__version__):
        digest.update(f"{name}\0".encode())
    for folder, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                info = os.stat(os.path.join(folder, name))
                rel = os.path.relpath(os.path.join(folder, name), package)
                digest.update(f"{rel}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _as_json(fingerprint: tuple[tuple[str, int, int], ...]) -> list[list[Any]]:
    """A model files' `stamp` as JSON reads it back (lists), for comparing with a kept one."""
    return [list(part) for part in fingerprint]


def _read(place: Path) -> dict[str, Any] | None:
    """The kept entry, or None when there is none that is a plain file of sane size."""
    handle = parsed_cache.open_kept(place)
    if handle is None:
        return None
    with handle:
        entry = json.loads(handle.read())
    return entry if isinstance(entry, dict) else None
