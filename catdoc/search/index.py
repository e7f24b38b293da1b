"""The search index: one SQLite file under `.catdoc/cache/`, with FTS5 tables for whole documents
and for their chunks (porter stemming over unicode61 tokens, BM25 with column weights).

It is derived data only. A file whose schema version differs, that SQLite cannot read, whose
tables disagree on how many rows they hold, or that is not a file at all, is deleted and rebuilt
from the project; it is never trusted. The tables are created in one immediate transaction, so
processes that open a missing index at the same time all end up with the same one. Not
thread-safe by itself: the engine serialises every use behind one lock.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from catdoc.errors import IO_ERROR, CatDocError
from catdoc.markup import Kind, kind_of
from catdoc.progress import Progress, no_progress
from catdoc.search import concept_store, keyphrases
from catdoc.search.filters import Condition, path_matches
from catdoc.search.readable import readable
from catdoc.search.stemming import TOKENIZE, Stemmer

T = TypeVar("T")

SCHEMA_VERSION = f"catdoc-search-4.{keyphrases.EXTRACTOR_VERSION}"
"""Bump whenever tables, the tokenizer, or what goes into a column changes (4: Markdown
headings are read as text, without their markup)."""
DOC_COLUMNS = ("title", "summary", "concepts", "author", "body")
DOC_COLUMN_WEIGHTS = (5.0, 2.0, 3.0, 1.0, 1.0)
"""BM25 weight of each column; `concepts` holds the tags, category names and aliases, domain."""
CHUNK_COLUMNS = ("heading", "body")
CHUNK_COLUMN_WEIGHTS = (3.0, 1.0)
HEADING_SEPARATOR = " › "
MARK_OPEN, MARK_CLOSE = "«", "»"
"""How snippets mark matched words: `«word»`."""
UNMARKED = str.maketrans({MARK_OPEN: "‹", MARK_CLOSE: "›"})
"""A snippet shows the text's own « and » as ‹ and ›, so every « » in it is a mark (both pairs
are punctuation to the tokenizer: the words and marks stay the same)."""
SNIPPET_TOKENS = 24
STEM_CACHE = 4096
"""Query words whose stems are remembered (forgotten all at once when full)."""
SCORE_BATCH = 10_000
"""Rowids per `scores` query: far below SQLite's limit of bound values, far above usual needs."""
FTS_HASH_BYTES = 8 << 20
"""Text FTS5 gathers in memory before writing it out as a segment (its default is 1 MiB): fewer,
larger segments to merge make a first build of 50,000 documents about 15% cheaper in CPU."""
WAL_KEPT_BYTES = 64 << 20
"""The write-ahead log is cut back to this after a checkpoint (a first build leaves one as
large as the index)."""
INSERT_BATCH = 500
"""Documents inserted per step of a write: the most a write holds in memory at once."""

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs(
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    fields_hash TEXT NOT NULL,
    file_sig TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    title TEXT NOT NULL,
    category TEXT,
    domain TEXT,
    path TEXT,
    url TEXT,
    author TEXT,
    file_type TEXT,
    date TEXT,
    summary TEXT,
    concepts TEXT NOT NULL,
    title_terms TEXT NOT NULL,
    error TEXT
);
CREATE INDEX IF NOT EXISTS docs_category ON docs(category);
CREATE TABLE IF NOT EXISTS doc_tags(doc INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY(doc, tag))
    WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS doc_tags_tag ON doc_tags(tag);
CREATE TABLE IF NOT EXISTS chunks(
    rowid INTEGER PRIMARY KEY,
    doc INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    heading TEXT NOT NULL,
    heading_terms TEXT NOT NULL,
    start_line INTEGER,
    end_line INTEGER
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc);
CREATE TABLE IF NOT EXISTS vectors(
    kind TEXT NOT NULL,
    rowid INTEGER NOT NULL,
    model TEXT NOT NULL,
    vec BLOB NOT NULL,
    PRIMARY KEY(kind, rowid)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts
    USING fts5({", ".join(DOC_COLUMNS)}, tokenize='{TOKENIZE}');
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts
    USING fts5({", ".join(CHUNK_COLUMNS)}, tokenize='{TOKENIZE}');
{concept_store.CONCEPT_SCHEMA}"""


_CONSISTENT = (
    "SELECT (SELECT count(*) FROM docs) = (SELECT count(*) FROM docs_fts_docsize) "
    "AND (SELECT count(*) FROM chunks) = (SELECT count(*) FROM chunks_fts_docsize)"
)
"""True when the documents and chunks tables hold as many rows as their text indexes (FTS5's
`_docsize` tables have one small row per text: counting them costs about a millisecond at
10,000 documents, where counting the text tables themselves reads every text)."""


class StaleIndexError(Exception):
    """The cache file is from another schema version, or its tables disagree."""


class DamagedIndexError(Exception):
    """A row the index points at is missing: the file was changed behind CatDoc's back."""


@dataclass
class ChunkRecord:
    index: int
    heading: list[str]
    start_line: int | None
    end_line: int | None
    text: str


@dataclass
class DocRecord:
    """Everything the index stores about one object."""

    id: str
    fields_hash: str
    file_sig: str
    content_hash: str
    title: str
    category: str | None
    domain: str | None
    path: str | None
    url: str | None
    author: str | None
    file_type: str | None
    date: str | None
    summary: str | None
    tags: list[str]
    concepts: list[str]
    body: str
    chunks: list[ChunkRecord] = field(default_factory=list)
    error: str | None = None
    keywords: list[str] = field(default_factory=list)
    """Front-matter keywords: concepts of the document, like its tags."""
    kind: Kind = "markdown"
    """Its markup, which tells its prose from its code when concepts are found."""


class Prepared(NamedTuple):
    """A record as the rows `_insert` writes, the rowids left out (assigned there): made by
    `prepare`, in this process or in a worker process."""

    id: str
    row: tuple[Any, ...]
    """The `docs` columns after `id`."""
    tag_keys: list[str]
    text: tuple[str, str, str, str, str]
    """The `docs_fts` columns."""
    chunks: list[tuple[Any, ...]]
    """Each chunk's `chunks` columns after `doc`."""
    chunk_texts: list[tuple[str, str]]
    """Each chunk's `chunks_fts` columns."""
    tags: list[str]
    keywords: list[str]


class PreparedBatch(NamedTuple):
    """Consecutive prepared records and their concepts' candidates."""

    records: list[Prepared]
    found: concept_store.Found


class Known(NamedTuple):
    """What the index remembers of a document, to decide whether it must be re-indexed."""

    rowid: int
    fields_hash: str
    file_sig: str
    content_hash: str
    path: str | None


class SearchIndex:
    """An open index file. `open` repairs a broken or stale file by rebuilding it empty."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rebuilt = False
        self.conn = self._connect()
        self.stemmer = Stemmer()
        self._stems: dict[str, list[str]] = {}

    # ------------------------------------------------------------------ lifecycle
    def _connect(self) -> sqlite3.Connection:
        try:
            return self._open_existing()
        except (sqlite3.DatabaseError, StaleIndexError):
            self._delete_files()
            self.rebuilt = True
            return self._open_existing()

    def _open_existing(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            conn.execute("PRAGMA journal_mode = WAL")
            # Derived data: no flush to disk (a 100,000-document build's gigabyte took seconds
            # to reach the platters). An application crash still cannot damage the file; a
            # power loss may, and a damaged file is rebuilt (`_connect`, `reset`).
            conn.execute("PRAGMA synchronous = OFF")
            conn.execute(f"PRAGMA journal_size_limit = {WAL_KEPT_BYTES}")
            conn.execute("PRAGMA temp_store = MEMORY")
            if not self._tables(conn):
                self._create(conn)
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if (
                row is None
                or row[0] != SCHEMA_VERSION
                or not conn.execute(_CONSISTENT).fetchone()[0]
            ):
                raise StaleIndexError(self.path)
            conn.execute("SELECT count(*) FROM docs_fts WHERE docs_fts MATCH 'x'").fetchone()
            for table in ("docs_fts", "chunks_fts"):
                conn.execute(
                    f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{table}_rows "
                    f"USING fts5vocab('main', '{table}', 'row')"
                )
            conn.execute(
                "CREATE TEMP TABLE IF NOT EXISTS marks_text(rowid INTEGER PRIMARY KEY, head, body)"
            )
            conn.execute(
                f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.marks_src USING fts5(head, body, "
                f"content='marks_text', tokenize='{TOKENIZE}')"
            )
            conn.create_function("catdoc_glob", 2, path_matches, deterministic=True)
        except BaseException:
            conn.close()
            raise
        return conn

    @staticmethod
    def _tables(conn: sqlite3.Connection) -> set[str]:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}

    @staticmethod
    def _create(conn: sqlite3.Connection) -> None:
        """Create the tables of an empty file. The immediate transaction makes a second process
        that found the file empty too wait here, then see the tables and create nothing."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            tables = SearchIndex._tables(conn)
            if tables and "meta" not in tables:
                raise StaleIndexError(conn)
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            for table in ("docs_fts", "chunks_fts"):
                conn.execute(
                    f"INSERT INTO {table}({table}, rank) VALUES ('hashsize', ?)", (FTS_HASH_BYTES,)
                )
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _delete_files(self) -> None:
        """Remove the index and SQLite's side files, whatever is in their place (a folder too:
        the cache holds derived data only); nothing when its folder is read-only."""
        if not os.access(self.path.parent, os.W_OK):
            raise self._read_only("it is read-only")
        for suffix in ("", "-wal", "-shm", "-journal"):
            path = Path(f"{self.path}{suffix}")
            try:
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                else:
                    path.unlink()
            except FileNotFoundError:
                continue
            except OSError as exc:
                if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                    raise self._read_only(exc.strerror) from None
                raise CatDocError(
                    IO_ERROR,
                    f"The search index {path.name} is damaged and cannot be removed "
                    f"({exc.strerror}).",
                    f"Remove {path} by hand; CatDoc rebuilds the index from the project.",
                ) from None

    def _read_only(self, why: str) -> CatDocError:
        folder = self.path.parent
        return CatDocError(
            IO_ERROR,
            f"The search index {self.path.name} is out of date (or was written by another "
            f"CatDoc) and must be rebuilt, but its folder {folder} cannot be written ({why}).",
            f"Make {folder} writable (e.g. `chmod -R u+w {folder}`) and search again; the "
            "index is rebuilt from the project, nothing else changes.",
        )

    def reset(self) -> None:
        """Throw the file away and start empty (after SQLite reported it damaged)."""
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()
        self._delete_files()
        self.rebuilt = True
        self.conn = self._open_existing()

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()
        with contextlib.suppress(sqlite3.Error):
            self.stemmer.close()

    # ------------------------------------------------------------------ stemming
    def stem(self, texts: Sequence[str]) -> list[list[str]]:
        """Each text's terms as the index stores them (same tokenizer, same Porter stemmer)."""
        return self.stemmer.stem(texts)

    @contextlib.contextmanager
    def _scratch(self) -> Iterator[None]:
        """One transaction around work on the temporary tables, unless one is open already."""
        own = not self.conn.in_transaction
        if own:
            self.conn.execute("BEGIN")
        try:
            yield
        finally:
            if own:
                self.conn.execute("COMMIT")

    def stem_words(self, words: Sequence[str]) -> list[list[str]]:
        """`stem` for query words, remembered: the tokenizer and stemmer never change."""
        missing = [w for w in dict.fromkeys(words) if w not in self._stems]
        if missing:
            if len(self._stems) + len(missing) > STEM_CACHE:
                self._stems.clear()
            self._stems.update(zip(missing, self.stem(missing), strict=True))
        return [self._stems[w] for w in words]

    # ------------------------------------------------------------------ writing
    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def known(self, ids: Sequence[str] | None = None) -> dict[str, Known]:
        """What the index holds of every document (or of the given ids)."""
        sql = "SELECT id, rowid, fields_hash, file_sig, content_hash, path FROM docs"
        make = Known._make
        if ids is None:
            return {row[0]: make(row[1:]) for row in self.conn.execute(sql)}
        out: dict[str, Known] = {}
        for start in range(0, len(ids), 500):
            part = list(ids[start : start + 500])
            rows = self.conn.execute(f"{sql} WHERE id IN ({', '.join('?' * len(part))})", part)
            out.update({row[0]: make(row[1:]) for row in rows})
        return out

    def write(
        self,
        batches: Iterable[PreparedBatch],
        *,
        remove: Iterable[int] = (),
        touch: Iterable[tuple[str, str | None, int]] = (),
        progress: Progress = no_progress,
        step: str = "Indexing documents",
        work: concept_store.ConceptWork | None = None,
    ) -> list[str]:
        """In one transaction: drop documents (by rowid), (re)index prepared records, then
        record a new file signature and date for documents whose content did not change
        (`touch` is read after `batches`, so it may fill up while they are produced). Returns
        the ids written.

        Batches are taken one at a time and their records inserted `INSERT_BATCH` at a time,
        then dropped, so a build never holds every record (at 100,000 documents their texts
        alone are gigabytes of objects). Their concepts are ranked once every document is in,
        since a phrase's weight uses the word IDF of the whole index; that pass is reported to
        `progress` as `step`, and `work` computes its rows (see `concept_store.store`)."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            remove = list(remove)
            touched = set(concept_store.forget(self, remove, []))
            for rowid in remove:
                self._drop(rowid, keep_row=False)
            written: list[concept_store.Source] = []
            found: list[concept_store.Found] = []
            ids: list[str] = []
            waiting: list[Prepared] = []

            names: dict[Any, Any] = {}  # each tag and keyword once, however many hold it

            def insert(part: list[Prepared]) -> None:
                ids.extend(p.id for p in part)
                touched.update(concept_store.forget(self, [], [p.id for p in part]))
                written.extend(self._insert(part, names))

            for batch in batches:
                found.append(batch.found)
                waiting += batch.records
                while len(waiting) >= INSERT_BATCH:
                    insert(waiting[:INSERT_BATCH])
                    del waiting[:INSERT_BATCH]
            if waiting:
                insert(waiting)
            conn.executemany("UPDATE docs SET file_sig = ?, date = ? WHERE rowid = ?", touch)
            concept_store.store(
                self, written, found, touched, progress=progress, step=step, work=work
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return ids

    def _drop(self, rowid: int, *, keep_row: bool) -> None:
        conn = self.conn
        conn.execute(
            "DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE doc = ?)",
            (rowid,),
        )
        conn.execute(
            "DELETE FROM vectors WHERE kind = 'chunk' AND rowid IN "
            "(SELECT rowid FROM chunks WHERE doc = ?)",
            (rowid,),
        )
        conn.execute("DELETE FROM chunks WHERE doc = ?", (rowid,))
        conn.execute("DELETE FROM docs_fts WHERE rowid = ?", (rowid,))
        conn.execute("DELETE FROM vectors WHERE kind = 'doc' AND rowid = ?", (rowid,))
        conn.execute("DELETE FROM doc_tags WHERE doc = ?", (rowid,))
        if not keep_row:
            conn.execute("DELETE FROM docs WHERE rowid = ?", (rowid,))

    def _insert(
        self, records: Sequence[Prepared], names: dict[Any, Any]
    ) -> list[concept_store.Source]:
        """Insert (or replace, keeping the rowid) documents with their tags and chunks, in
        batches: rowids are assigned here so every table is written with one executemany.
        Returns what the concept pass needs of each record, held until every document is in:
        its tags and keywords as tuples of the names in `names` (at 100,000 documents, one
        copy of each name per document was 80 MB)."""
        conn = self.conn
        existing: dict[str, int] = {}
        ids = [r.id for r in records]
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            existing.update(
                conn.execute(
                    f"SELECT id, rowid FROM docs WHERE id IN ({', '.join('?' * len(part))})", part
                ).fetchall()
            )
        for rowid in existing.values():
            self._drop(rowid, keep_row=True)
        next_doc = conn.execute("SELECT coalesce(max(rowid), 0) + 1 FROM docs").fetchone()[0]
        next_chunk = conn.execute("SELECT coalesce(max(rowid), 0) + 1 FROM chunks").fetchone()[0]
        docs, fts, tags, chunks, chunk_fts = [], [], [], [], []
        sources: list[concept_store.Source] = []
        for r in records:
            rowid = existing.get(r.id)
            if rowid is None:
                rowid, next_doc = next_doc, next_doc + 1
            span = range(next_chunk, next_chunk + len(r.chunks))
            held_tags = tuple(names.setdefault(tag, tag) for tag in r.tags)
            held_words = tuple(names.setdefault(word, word) for word in r.keywords)
            sources.append(concept_store.Source(rowid, held_tags, held_words, span))
            docs.append((rowid, r.id, *r.row))
            tags += [(rowid, t) for t in r.tag_keys]
            fts.append((rowid, *r.text))
            for chunk, text in zip(r.chunks, r.chunk_texts, strict=True):
                chunks.append((next_chunk, rowid, *chunk))
                chunk_fts.append((next_chunk, *text))
                next_chunk += 1
        columns = (
            "docs(rowid, id, fields_hash, file_sig, content_hash, title, category, domain, path, "
            "url, author, file_type, date, summary, concepts, title_terms, error) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        # A new document's row is a plain INSERT: OR REPLACE needs a statement journal, and
        # opening one makes FTS5 write out the text it gathers in memory (many small segments).
        conn.executemany(f"INSERT INTO {columns}", [d for d in docs if d[1] not in existing])
        conn.executemany(f"INSERT OR REPLACE INTO {columns}", [d for d in docs if d[1] in existing])
        conn.executemany("INSERT INTO doc_tags(doc, tag) VALUES (?, ?)", tags)
        conn.executemany(
            "INSERT INTO docs_fts(rowid, title, summary, concepts, author, body) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            fts,
        )
        conn.executemany(
            "INSERT INTO chunks(rowid, doc, idx, heading, heading_terms, start_line, end_line) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            chunks,
        )
        conn.executemany("INSERT INTO chunks_fts(rowid, heading, body) VALUES (?, ?, ?)", chunk_fts)
        return sources

    # ------------------------------------------------------------------ reading
    def match(
        self, scope: str, expression: str, cond: Condition, limit: int
    ) -> list[tuple[int, float]]:
        """(rowid, BM25 score ≥ 0) of the best `limit` rows matching an FTS5 expression."""
        sql, params = self._matching(scope, cond)
        table = "docs_fts" if scope == "documents" else "chunks_fts"
        rows = self.conn.execute(
            f"SELECT {table}.rowid, -{_bm25(scope)} AS s {sql} "
            f"ORDER BY s DESC, {table}.rowid LIMIT ?",  # ties in one order: pools nest
            (cond.fts(expression), *params, limit),
        )
        return [(rowid, score) for rowid, score in rows]

    def scores(self, scope: str, expression: str, rowids: Sequence[int]) -> dict[int, float]:
        """rowid → BM25 score ≥ 0 of those of `rowids` that match. The unary `+` keeps SQLite
        from looking each rowid up through FTS5 one by one: one pass over the expression's
        matches, checked against the list, is many times faster for hundreds of rowids."""
        table = "docs_fts" if scope == "documents" else "chunks_fts"
        out: dict[int, float] = {}
        for start in range(0, len(rowids), SCORE_BATCH):
            part = rowids[start : start + SCORE_BATCH]
            rows = self.conn.execute(
                f"SELECT rowid, -{_bm25(scope)} FROM {table} WHERE {table} MATCH ? "
                f"AND +rowid IN ({', '.join('?' * len(part))})",
                (expression, *part),
            )
            out.update(rows.fetchall())
        return out

    def chunks_of(self, docs: Sequence[int]) -> list[int]:
        """The rowids of the chunks of these documents (by document rowid)."""
        out: list[int] = []
        for start in range(0, len(docs), SCORE_BATCH):
            part = docs[start : start + SCORE_BATCH]
            rows = self.conn.execute(
                f"SELECT rowid FROM chunks WHERE doc IN ({', '.join('?' * len(part))})", part
            )
            out.extend(rowid for (rowid,) in rows)
        return out

    def size(self, scope: str) -> int:
        """How many documents or chunks the index holds."""
        table = "docs" if scope == "documents" else "chunks"
        return int(self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])

    def rows_with(self, scope: str, term: str) -> int:
        """How many rows hold a stemmed term: one look-up in FTS5's vocabulary, where counting
        the matches of the word walks its whole list of rows."""
        table = "docs_fts" if scope == "documents" else "chunks_fts"
        row = self.conn.execute(f"SELECT doc FROM temp.{table}_rows WHERE term = ?", (term,))
        found = row.fetchone()
        return int(found[0]) if found else 0

    def count(self, scope: str, expression: str, cond: Condition) -> int:
        sql, params = self._matching(scope, cond)
        bound = (cond.fts(expression), *params)
        return int(self.conn.execute(f"SELECT count(*) {sql}", bound).fetchone()[0])

    def _matching(self, scope: str, cond: Condition) -> tuple[str, list[Any]]:
        """FROM … WHERE … of a filtered match (the joins only when there are filters).

        CROSS JOIN fixes the loop order: SQLite would otherwise walk the filtered rows first and
        look each one up through FTS5, about 20x slower than one pass over the text matches."""
        if not cond.sql:
            table = "docs_fts" if scope == "documents" else "chunks_fts"
            return f"FROM {table} WHERE {table} MATCH ?", []
        if scope == "documents":
            sql = (
                "FROM docs_fts CROSS JOIN docs d ON d.rowid = docs_fts.rowid WHERE docs_fts MATCH ?"
            )
        else:
            sql = (
                "FROM chunks_fts CROSS JOIN chunks c ON c.rowid = chunks_fts.rowid "
                "CROSS JOIN docs d ON d.rowid = c.doc WHERE chunks_fts MATCH ?"
            )
        return f"{sql} AND {cond.where()}", cond.params

    def allowed(self, scope: str, cond: Condition) -> list[int] | None:
        """Rowids passing the filters (None when there are no filters: everything passes)."""
        if not cond.sql:
            return None
        if scope == "documents":
            sql = f"SELECT d.rowid FROM docs d WHERE {cond.where()}"
        else:
            sql = (
                f"SELECT c.rowid FROM chunks c JOIN docs d ON d.rowid = c.doc WHERE {cond.where()}"
            )
        return [r[0] for r in self.conn.execute(sql, cond.params)]

    def doc_rows(self, rowids: Iterable[int]) -> dict[int, dict[str, Any]]:
        return self._rows(
            "SELECT rowid, id, title, category, path, url, concepts, title_terms "
            "FROM docs WHERE rowid IN ({})",
            rowids,
        )

    def chunk_rows(self, rowids: Iterable[int]) -> dict[int, dict[str, Any]]:
        return self._rows(
            "SELECT rowid, doc, idx, heading, heading_terms, start_line, end_line "
            "FROM chunks WHERE rowid IN ({})",
            rowids,
        )

    def _rows(self, sql: str, rowids: Iterable[int]) -> dict[int, dict[str, Any]]:
        ids = list(rowids)
        out: dict[int, dict[str, Any]] = {}
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            cur = self.conn.execute(sql.format(", ".join("?" * len(part))), part)
            names = [d[0] for d in cur.description]
            for row in cur:
                out[row[0]] = dict(zip(names, row, strict=True))
        return out

    def snippets(
        self, scope: str, expression: str, rowids: Sequence[int]
    ) -> dict[int, tuple[str, list[str]]]:
        """rowid → (snippet with «marks», every marked word in title/heading and body), of the
        text as it reads (`readable` of its document's markup: no adornment lines, targets or
        directive options, nor a Markdown attribute list); the text's own « » show as ‹ ›
        (`UNMARKED`).

        The page's texts are copied into a temporary FTS5 table with the same tokenizer and
        marked there: asking the big table for a few rowids of a match seeks through the whole
        doclist of every query word, which for common words costs far more than indexing ten
        texts again (the marks are the same, since `snippet` and `highlight` only look at the
        text and the expression). The temporary index reads its text from a plain table, so
        emptying it is one `delete-all` instead of tokenizing every text again."""
        if not rowids:
            return {}
        marks = ", ".join("?" * len(rowids))
        sql = (
            "SELECT f.rowid, f.title, f.body, d.path FROM docs_fts f "
            "CROSS JOIN docs d ON d.rowid = f.rowid "
            if scope == "documents"
            else "SELECT f.rowid, f.heading, f.body, d.path FROM chunks_fts f "
            "CROSS JOIN chunks c ON c.rowid = f.rowid CROSS JOIN docs d ON d.rowid = c.doc "
        )
        texts = [
            (rowid, heading, readable(body, _markup(path)).translate(UNMARKED))
            for rowid, heading, body, path in self.conn.execute(
                f"{sql}WHERE f.rowid IN ({marks})", rowids
            )
        ]
        out: dict[int, tuple[str, list[str]]] = {}
        if expression and texts:
            with self._scratch():
                try:
                    for target in ("marks_text", "marks_src"):
                        self.conn.executemany(
                            f"INSERT INTO temp.{target}(rowid, head, body) VALUES (?, ?, ?)", texts
                        )
                    rows = self.conn.execute(
                        f"SELECT rowid, snippet(marks_src, 1, ?, ?, '…', {SNIPPET_TOKENS}), "
                        "highlight(marks_src, 0, char(2), char(3)), "
                        "highlight(marks_src, 1, char(2), char(3)) "
                        "FROM temp.marks_src WHERE marks_src MATCH ?",
                        (MARK_OPEN, MARK_CLOSE, expression),
                    ).fetchall()
                finally:
                    self.conn.execute("INSERT INTO temp.marks_src(marks_src) VALUES ('delete-all')")
                    self.conn.execute("DELETE FROM temp.marks_text")
            for rowid, snippet, title, text in rows:
                out[rowid] = (_clean(snippet), _marked(title + "\n" + text))
        for rowid, _, text in texts:
            if rowid not in out:
                out[rowid] = (_clean(_first_words(text[:400])), [])
        return out

    # ------------------------------------------------------------------ vectors
    def vectors(
        self, kind: str, model: str, rowids: Sequence[int] | None = None
    ) -> list[tuple[int, bytes]]:
        """(rowid, float32 bytes) of every stored vector of `kind`, or of the given rowids."""
        sql = "SELECT rowid, vec FROM vectors WHERE kind = ? AND model = ?"
        if rowids is None:
            return list(self.conn.execute(sql, (kind, model)))
        out: list[tuple[int, bytes]] = []
        for start in range(0, len(rowids), 500):
            part = list(rowids[start : start + 500])
            marks = ", ".join("?" * len(part))
            out += self.conn.execute(f"{sql} AND rowid IN ({marks})", (kind, model, *part))
        return out

    def vector_rowids(self, kind: str, model: str) -> list[int]:
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT rowid FROM vectors WHERE kind = ? AND model = ?", (kind, model)
            )
        ]

    def missing_vectors(
        self, kind: str, model: str, limit: int | None = None
    ) -> list[tuple[int, str]]:
        """(rowid, text to embed) of documents or chunks that have no vector yet (the first
        `limit` of them, by rowid)."""
        if kind == "doc":
            sql = (
                "SELECT f.rowid, f.title || '. ' || f.summary || ' ' || substr(f.body, 1, 2000) "
                "FROM docs_fts f WHERE f.rowid NOT IN "
                "(SELECT rowid FROM vectors WHERE kind = 'doc' AND model = ?)"
            )
        else:
            sql = (
                "SELECT f.rowid, f.heading || '. ' || f.body FROM chunks_fts f "
                "WHERE f.rowid NOT IN (SELECT rowid FROM vectors WHERE kind = 'chunk' "
                "AND model = ?)"
            )
        if limit is None:
            return list(self.conn.execute(sql, (model,)))
        return list(self.conn.execute(f"{sql} ORDER BY f.rowid LIMIT ?", (model, limit)))

    def put_vectors(self, kind: str, model: str, rows: Sequence[tuple[int, bytes]]) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.execute("DELETE FROM vectors WHERE kind = ? AND model != ?", (kind, model))
            self.conn.executemany(
                "INSERT OR REPLACE INTO vectors(kind, rowid, model, vec) VALUES (?, ?, ?, ?)",
                [(kind, rowid, model, vec) for rowid, vec in rows],
            )
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise


_json = json.JSONEncoder(ensure_ascii=False).encode
"""`json.dumps(value, ensure_ascii=False)` without a new encoder per call (`dumps` makes one
whenever an option differs from the default: 400,000 of them in a 100,000-document build)."""


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """`items` in lists of `size` (the last may be shorter), taken from the iterable as
    needed."""
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def prepared(records: Iterable[DocRecord], stemmer: Stemmer) -> Iterator[PreparedBatch]:
    """`records` prepared `INSERT_BATCH` at a time, taken from the iterable as needed."""
    for batch in batched(records, INSERT_BATCH):
        yield prepare(batch, stemmer)


def prepare(records: Sequence[DocRecord], stemmer: Stemmer) -> PreparedBatch:
    """The rows of `records` (see `Prepared`), their titles, concepts and headings stemmed
    together, and their concepts' candidates."""
    stems = _stems_of(records, stemmer)
    out = []
    for r in records:
        chunks, texts = [], []
        for chunk in r.chunks:
            heading = _heading(chunk)
            chunks.append(
                (
                    chunk.index,
                    _json(chunk.heading),
                    " ".join(stems[heading]),
                    chunk.start_line,
                    chunk.end_line,
                )
            )
            texts.append((heading, chunk.text))
        row = (
            r.fields_hash,
            r.file_sig,
            r.content_hash,
            r.title,
            r.category,
            r.domain,
            r.path,
            r.url,
            r.author,
            r.file_type,
            r.date,
            r.summary,
            _json({c: stems[c] for c in r.concepts}),
            " ".join(stems[r.title]),
            r.error,
        )
        text = (r.title, r.summary or "", " ; ".join(r.concepts), r.author or "", r.body)
        tag_keys = list(dict.fromkeys(t.casefold() for t in r.tags))
        out.append(Prepared(r.id, row, tag_keys, text, chunks, texts, r.tags, r.keywords))
    passages = [([chunk.text for chunk in r.chunks], r.kind) for r in records]
    return PreparedBatch(out, concept_store.find_candidates(passages, stemmer))


def _stems_of(records: Sequence[DocRecord], stemmer: Stemmer) -> dict[str, list[str]]:
    """The stemmed terms of the titles, concepts and headings of `records`, in one pass.

    A heading path's terms are its headings' terms one after the other (the separator splits
    tokens), so each distinct heading is stemmed once: the paths of a document all repeat its
    title, and most documents share their section names."""
    texts: dict[str, None] = {}
    for r in records:
        texts.update(dict.fromkeys([r.title, *r.concepts]))
        for chunk in r.chunks:
            texts.update(dict.fromkeys(chunk.heading))
    stems = dict(zip(texts, stemmer.stem(list(texts)), strict=True))
    for r in records:
        for chunk in r.chunks:
            path = _heading(chunk)
            if path not in stems:
                stems[path] = [term for part in chunk.heading for term in stems[part]]
    return stems


def _bm25(scope: str) -> str:
    if scope == "documents":
        return f"bm25(docs_fts, {', '.join(map(str, DOC_COLUMN_WEIGHTS))})"
    return f"bm25(chunks_fts, {', '.join(map(str, CHUNK_COLUMN_WEIGHTS))})"


def _heading(chunk: ChunkRecord) -> str:
    return HEADING_SEPARATOR.join(chunk.heading)


def _marked(text: str) -> list[str]:
    """The distinct words between the \\x02…\\x03 marks of `highlight()`, lower case."""
    found: dict[str, None] = {}
    for part in text.split("\x02")[1:]:
        word = part.split("\x03", 1)[0].strip().casefold()
        if word:
            found[word] = None
    return list(found)


def _markup(path: str | None) -> Kind:
    """The markup of an indexed document as `readable` needs it: Markdown for inline content
    (as `reading` reads it) and Markdown files; which of the other kinds a file is (a `.txt`
    may be reST) changes nothing there."""
    return "markdown" if path is None else kind_of(path)


def _clean(text: str) -> str:
    return " ".join(text.split())


def _first_words(text: str, n: int = SNIPPET_TOKENS) -> str:
    words = text.split()
    return " ".join(words[:n]) + (" …" if len(words) > n else "")
