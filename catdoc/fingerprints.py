"""Fingerprints of documents: what a review stamp remembers of the text a person read.

A fingerprint hashes the document's text without its front matter and with every run of
whitespace made one space, so re-wrapping a paragraph, trailing spaces, line ends or a changed
`tags:` line in the front matter leave it as it was; any change of the words does not.

Reading and hashing 10,000 files takes longer than a `suspects` call may, so fingerprints of
files are remembered per process while the file's `stat` (modification time, size, inode) is
unchanged, and kept in `.catdoc/cache/fingerprints.json` for the next process; a file that
changed is read again (and only through `resolve_inside`, so a symlink swapped to point outside
the project is refused, not followed).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from catdoc.documents import read_document
from catdoc.errors import NOT_FOUND, CatDocError
from catdoc.model import DocObject
from catdoc.project_files import InsideResolver, cache_dir, resolve_inside
from catdoc.writeback import atomic_write

NO_TEXT = "no-text"
"""The fingerprint of an object with neither `path` nor `content`."""
MISSING = "missing"
"""The fingerprint of an object whose document file does not exist."""
UNREADABLE = "unreadable"
"""The fingerprint of a document that cannot be read (outside the project, binary, too big …)."""
SPECIAL = (NO_TEXT, MISSING, UNREADABLE)

_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n")
_FRONT_MATTER_END = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.M)


def without_front_matter(text: str) -> str:
    """The text after a `---` … `---` (or `...`) block at its very top; the text if none."""
    opening = _FRONT_MATTER.match(text)
    if opening is None:
        return text
    closing = _FRONT_MATTER_END.search(text, opening.end())
    return text if closing is None else text[closing.end() :]


def text_fingerprint(text: str) -> str:
    """16 hex digits of a hash of the text's words (front matter and whitespace left out)."""
    words = " ".join(without_front_matter(text).split())
    return hashlib.blake2b(words.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


_Key = tuple[int, int, int, int]
CACHE_FILE = "fingerprints.json"
CACHE_FORMAT = 1
MAX_CACHE_BYTES = 64 * 1024 * 1024


class Fingerprints:
    """Fingerprints of the objects of one project root, files remembered by their `stat`.

    `generation` grows whenever a file's fingerprint had to be computed afresh, so a caller can
    tell cheaply whether anything it derived from fingerprints may be stale.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._root_text = os.fspath(root)
        self._files: dict[str, tuple[_Key, str]] = self._kept()
        self._lock = threading.Lock()
        self.generation = 0
        self._saved = 0
        self._resolve: Callable[[str], Path] = functools.partial(resolve_inside, root)

    def of_objects(self, objects: Iterable[tuple[str, DocObject]]) -> dict[str, str]:
        """Fingerprints of many objects by id: files that must be read are resolved in one
        batch (`InsideResolver`), which a first run over thousands of documents needs."""
        resolve = InsideResolver(self.root)
        return {ident: self.of_object(obj, resolve=resolve) for ident, obj in objects}

    def of_object(
        self,
        obj: DocObject,
        pending: dict[Path, str] | None = None,
        *,
        resolve: Callable[[str], Path] | None = None,
    ) -> str:
        """The object's fingerprint: its file's when it has a `path`, else its inline content's.

        `pending` holds documents an edit is about to write (absolute path → text)."""
        if obj.path:
            return self.of_path(obj.path, pending, resolve=resolve)
        if obj.content is not None:
            return text_fingerprint(obj.content)
        return NO_TEXT

    def of_path(
        self,
        rel: str,
        pending: dict[Path, str] | None = None,
        *,
        resolve: Callable[[str], Path] | None = None,
    ) -> str:
        if pending:
            try:
                target = resolve_inside(self.root, rel)
            except CatDocError:
                return UNREADABLE
            if target in pending:
                return text_fingerprint(pending[target])
        full = os.path.join(self._root_text, rel)
        try:
            st = os.stat(full)
        except FileNotFoundError:
            return MISSING
        except (OSError, ValueError):
            return UNREADABLE
        key = (st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev)
        known = self._files.get(rel)
        if known is not None and known[0] == key:
            return known[1]
        value = self._read(rel, resolve or self._resolve)
        with self._lock:
            self._files[rel] = (key, value)
            self.generation += 1
        return value

    def _kept(self) -> dict[str, tuple[_Key, str]]:
        """The fingerprints an earlier process kept in `.catdoc/cache/` (checked, not trusted:
        anything not as written is dropped)."""
        try:
            path = cache_dir(self.root) / CACHE_FILE
            with path.open("rb") as handle:
                if os.fstat(handle.fileno()).st_size > MAX_CACHE_BYTES:
                    return {}
                data = json.loads(handle.read())
            files = data["files"] if data.get("format") == CACHE_FORMAT else {}
            return {
                rel: ((a, b, c, d), fp)
                for rel, (a, b, c, d, fp) in files.items()
                if type(fp) is str and all(type(n) is int for n in (a, b, c, d))
            }
        except (OSError, ValueError, TypeError, KeyError, AttributeError, CatDocError):
            return {}

    def save(self) -> None:
        """Keep the fingerprints for the next process when some were computed since the last
        save (a cache that cannot be written is skipped)."""
        with self._lock:
            if self.generation == self._saved:
                return
            self._saved = self.generation
            files = {rel: [*key, fp] for rel, (key, fp) in self._files.items()}
        body = json.dumps({"format": CACHE_FORMAT, "files": files}, ensure_ascii=False)
        try:
            atomic_write(cache_dir(self.root) / CACHE_FILE, body)
        except (OSError, CatDocError):
            return

    @staticmethod
    def _read(rel: str, resolve: Callable[[str], Path]) -> str:
        try:
            return text_fingerprint(read_document(resolve(rel), rel))
        except CatDocError as exc:
            return MISSING if exc.code == NOT_FOUND else UNREADABLE


_SHARED: dict[Path, Fingerprints] = {}
_SHARED_LOCK = threading.Lock()


def fingerprints_for(root: Path) -> Fingerprints:
    """The process-wide fingerprints of a project root (one per root)."""
    with _SHARED_LOCK:
        found = _SHARED.get(root)
        if found is None:
            found = _SHARED[root] = Fingerprints(root)
        return found


__all__ = [
    "MISSING",
    "NO_TEXT",
    "SPECIAL",
    "UNREADABLE",
    "Fingerprints",
    "fingerprints_for",
    "text_fingerprint",
    "without_front_matter",
]
