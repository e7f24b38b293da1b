"""What the search index holds, counted: per category, per file type, dates, sizes, vectors,
and one document's passages. Read-only SQL over `SearchIndex`'s tables; the caller holds the
engine's lock (see `SearchEngine.read`).

Counting every table costs tens of milliseconds at 10,000 documents, so `IndexFacts` are meant
to be kept until the index changes (`SearchEngine.generation`, and SQLite's `data_version` for
writes by other processes)."""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field

from catdoc.search.index import SCHEMA_VERSION, SearchIndex

VECTOR_KINDS = {"doc": "documents", "chunk": "chunks"}


@dataclass(frozen=True)
class CategoryFacts:
    """One category's documents in the index (all its objects, with text or not)."""

    objects: int = 0
    documents: int = 0
    """Objects with at least one passage: a file or inline content with text."""
    chunks: int = 0
    unreadable: int = 0
    oldest: str | None = None
    newest: str | None = None


@dataclass(frozen=True)
class IndexFacts:
    schema: str | None
    objects: int
    documents: int
    chunks: int
    unreadable: int
    oldest: str | None
    newest: str | None
    document_bytes: int
    categories: dict[str | None, CategoryFacts]
    file_types: dict[str, int]
    """File extension ('' for inline content) → documents with text of that type: they add up
    to `documents`."""
    vectors: dict[str, int] = field(default_factory=dict)
    """Scope ('documents', 'chunks') → rows with a vector of the current model."""
    unreadable_named: tuple[tuple[str, str], ...] = ()
    """(id, why) of the first `NAMED_UNREADABLE` unreadable documents, by id."""


_PER_CATEGORY = """
SELECT d.category, count(*), count(c.doc), coalesce(sum(c.n), 0),
       sum(d.error IS NOT NULL), min(d.date), max(d.date)
FROM docs d LEFT JOIN (SELECT doc, count(*) AS n FROM chunks GROUP BY doc) c ON c.doc = d.rowid
GROUP BY d.category
"""
_FILE_TYPES = (
    "SELECT coalesce(file_type, ''), count(*) FROM docs d "
    "WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.doc = d.rowid) GROUP BY 1 ORDER BY 2 DESC, 1"
)
"""Documents with text per file type: a missing or unreadable file, or an object with no text,
is no document of its type (it would count as one beside the documents that leave it out)."""
NAMED_UNREADABLE = 3
"""Unreadable documents named in `IndexFacts` (the count covers them all)."""
_UNREADABLE = "SELECT id, error FROM docs WHERE error IS NOT NULL ORDER BY id LIMIT ?"
_DOCUMENT_BYTES = (
    "SELECT coalesce(sum(CAST(substr(file_sig, instr(file_sig, ':') + 1) AS INTEGER)), 0) "
    "FROM docs WHERE instr(file_sig, ':') > 0"
)
"""A file's signature is `mtime_ns:size`; inline content and missing files have none."""


def state_token(index: SearchIndex) -> int:
    """Changes when another connection commits to the index file (SQLite's data_version)."""
    return int(index.conn.execute("PRAGMA data_version").fetchone()[0])


def index_facts(index: SearchIndex, vector_model: str) -> IndexFacts:
    """Everything countable about the index, in a handful of grouped queries."""
    conn = index.conn
    categories: dict[str | None, CategoryFacts] = {}
    for category, objects, documents, chunks, unreadable, oldest, newest in conn.execute(
        _PER_CATEGORY
    ):
        categories[category] = CategoryFacts(
            objects, documents, chunks, int(unreadable or 0), oldest, newest
        )
    facts = list(categories.values())
    unreadable = sum(f.unreadable for f in facts)
    named = conn.execute(_UNREADABLE, (NAMED_UNREADABLE,)).fetchall() if unreadable else []
    vectors = {scope: 0 for scope in VECTOR_KINDS.values()}
    for kind, count in conn.execute(
        "SELECT kind, count(*) FROM vectors WHERE model = ? GROUP BY kind", (vector_model,)
    ):
        if kind in VECTOR_KINDS:
            vectors[VECTOR_KINDS[kind]] = int(count)
    return IndexFacts(
        schema=index.get_meta("schema") or SCHEMA_VERSION,
        objects=sum(f.objects for f in facts),
        documents=sum(f.documents for f in facts),
        chunks=sum(f.chunks for f in facts),
        unreadable=unreadable,
        oldest=min((f.oldest for f in facts if f.oldest), default=None),
        newest=max((f.newest for f in facts if f.newest), default=None),
        document_bytes=int(conn.execute(_DOCUMENT_BYTES).fetchone()[0]),
        categories=categories,
        file_types={kind: int(n) for kind, n in conn.execute(_FILE_TYPES)},
        vectors=vectors,
        unreadable_named=tuple((str(ident), str(error)) for ident, error in named),
    )


def index_files(index: SearchIndex) -> tuple[int, dt.datetime | None]:
    """(bytes on disk, last write in UTC) of the index file and SQLite's write-ahead log."""
    size, newest = 0, None
    for suffix in ("", "-wal"):
        try:
            info = os.stat(f"{index.path}{suffix}")
        except OSError:
            continue
        size += info.st_size
        newest = max(newest or 0.0, info.st_mtime)
    when = None if newest is None else dt.datetime.fromtimestamp(newest, dt.UTC)
    return size, when


@dataclass(frozen=True)
class Passage:
    index: int
    heading: list[str]
    start_line: int | None
    end_line: int | None
    chars: int


@dataclass(frozen=True)
class DocumentRow:
    """What the index holds of one document: its passages in order, and why it has none."""

    title: str
    path: str | None
    error: str | None
    passages: list[Passage]


def document_row(index: SearchIndex, object_id: str) -> DocumentRow | None:
    """The document's passages (None when the index does not hold the id)."""
    conn = index.conn
    row = conn.execute(
        "SELECT rowid, title, path, error FROM docs WHERE id = ?", (object_id,)
    ).fetchone()
    if row is None:
        return None
    rowid, title, path, error = row
    passages = [
        Passage(idx, json.loads(heading), start, end, int(chars or 0))
        for idx, heading, start, end, chars in conn.execute(
            "SELECT c.idx, c.heading, c.start_line, c.end_line, length(f.body) FROM chunks c "
            "LEFT JOIN chunks_fts f ON f.rowid = c.rowid WHERE c.doc = ? ORDER BY c.idx",
            (rowid,),
        )
    ]
    return DocumentRow(title, path, error, passages)
