"""The search engine of one project: keeps the index in step with the project and answers queries.

Keeping in step is incremental. An object is re-read only when its fields (title, tags, category,
…) or its file's signature (modification time and size) changed, and re-indexed only when the
hash of its fields and text changed; objects gone from the model are dropped. In a long-running
face the file check (one `stat` per document) runs again only after enough time has passed that
it costs at most 1/`SWEEP_COST_SHARE` of the wall time, so large projects see document edits
within about a second while model edits (`.catdoc/*.yaml`) are seen at once.

A fresh process (the CLI) does not even load the model when the index was built from model files
with the same fingerprint and no document file changed since: the index remembers both.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from catdoc import results as r
from catdoc.errors import IO_ERROR, VALIDATION_ERROR, CatDocError
from catdoc.paging import check_page
from catdoc.progress import Progress, no_progress
from catdoc.project_files import CACHE_DIR, CATDOC_DIR, InsideResolver, cache_dir, stamp
from catdoc.search import lengths, ranking, semantic, series
from catdoc.search.filters import (
    Condition,
    FilterLookups,
    build_condition,
    card_weights,
    resolve_scope,
)
from catdoc.search.hit_details import attach
from catdoc.search.index import (
    INSERT_BATCH,
    DamagedIndexError,
    DocRecord,
    Known,
    PreparedBatch,
    SearchIndex,
    batched,
    prepared,
)
from catdoc.search.query import ParsedQuery, any_of, fts_string, parse, tokens
from catdoc.search.reading import Pending, read_record

if TYPE_CHECKING:
    from catdoc.model import DocObject
    from catdoc.project import Project
    from catdoc.search.build_workers import BuildPool

T = TypeVar("T")

INDEX_FILE = "search.sqlite3"
SWEEP_COST_SHARE = 50
CANDIDATES = 200
"""How many rows each signal contributes before re-ranking (more only when paging deeper).
Documents holding every query word come first: only when fewer than this many do are documents
matching some of the words considered (coordination, as classic search engines do). On the
relevance sets 200 and 300 rank alike; each hundred more costs about 2 ms a query at 10,000
documents."""
VECTOR_CANDIDATES = 100
"""How many of the rows nearest to the query join the hybrid candidates (every candidate found
by the other signals gets its own similarity too): nearest rows that share no word with the
query rarely make the first page, and each costs a row lookup."""
RANKINGS_KEPT = 32
"""Rankings of recent queries kept until the next write: paging through a query ranks it once."""
PASSAGE_CANDIDATES = 100
"""Passages the vectors contribute to finding the documents' best ones."""
FEW_ALLOWED = 1_000
"""Filters that let at most this many rows through rank those rows directly (each query word
scored over them) instead of matching the words everywhere and checking every match against
the filters: a narrow filter (a cluster, a rare tag) then makes a query cheaper, not dearer."""
PASSAGE_DOCUMENTS = 100
"""The documents whose passages compete on the words: the first of the word candidates (those
holding every query word first, each part by BM25)."""
BUILD_NOTE_DOCUMENTS = 50
"""A search that first (re)indexes at least this many documents, or spends a second doing so,
says so in its notes: the wait is explained, not silent."""
READING = "Reading documents"
INDEXING = "Indexing documents"
MODEL_STAMP = "model_stamp"
MODES = ("text", "hybrid", "vector")
SCOPES = ("documents", "chunks")


@dataclass
class SyncStats:
    """What the last synchronisation did (the tests and benchmarks read it)."""

    indexed: int = 0
    touched: int = 0
    removed: int = 0
    unchanged: int = 0
    seconds: float = 0.0
    rebuilt: bool = False


@dataclass(frozen=True)
class _Entry:
    obj: DocObject
    category: str | None
    concepts: tuple[str, ...]
    fields_hash: str


@dataclass(frozen=True)
class _Ranking:
    """A query's candidates, best first, with what a page of them needs."""

    scored: list[tuple[float, str, int]]
    capped: bool
    """Some signal stopped at its candidate limit, so more rows may match than were scored."""
    expanded_terms: tuple[str, ...]
    either: str
    """The FTS5 expression of the query words or their synonyms (what snippets mark)."""
    hit_terms: frozenset[str]
    signals: Callable[[int], dict[str, float]]
    others: tuple[int, ...] = ()
    """Candidates no text signal brought (the vectors' nearest, the passages'): some may still
    match the words beyond a signal's cut."""
    reachable: int | None = None
    """Vector mode, cut at its nearest rows: how many rows have a similarity (all rank)."""


@dataclass(frozen=True)
class _Facts:
    row: dict[str, Any]
    title_terms: frozenset[str]
    concept_terms: frozenset[str]
    concepts: tuple[tuple[str, frozenset[str]], ...]
    length: int = 0
    """The document's tokens (a chunk: its document's), as FTS5 counts them for BM25."""
    pattern: tuple[str, str] | None = None
    """The title's pattern and version number (see `series.pattern_of`)."""


class SearchEngine:
    """Thread-safe: every use of the SQLite connection happens under one lock."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._index: SearchIndex | None = None
        self._project: Project | None = None
        self._entries: list[_Entry] = []
        self._known: dict[str, Known] = {}
        self._next_sweep = 0.0
        self._vectors: dict[str, semantic.Matrix] = {}
        self._stale_vectors: set[str] = set()
        self._workers: dict[str, semantic.Worker] = {}
        self._generation = 0
        self._cache: dict[str, dict[int, _Facts]] = {}
        self._counts: dict[tuple[str, ...], int] = {}
        self._allowed: dict[tuple[str, ...], list[int]] = {}
        self._rankings: dict[tuple[object, ...], _Ranking] = {}
        self._average_length = (-1, 0.0)
        """(generation, mean tokens per document) of the index when last read."""
        self._series: tuple[int, dict[str, int]] = (-1, {})
        """(generation, title pattern → documents sharing it) of the versioned titles seen."""
        self._changelog_cache: tuple[int, dict[int, frozenset[str] | None]] = (-1, {})
        """(generation, doc rowid → its sections' versions, None when not a changelog)."""
        self.last_sync = SyncStats()
        self.background_progress: Progress = no_progress
        """Hears the background vector workers from their threads (a long-running face sets it,
        throttled, before searching)."""
        self.background = True
        """Whether this process lives on to finish work started in the background: a one-shot
        command (the command line) would start the vector worker only to kill it on exit, so it
        says how to compute the vectors instead."""

    # ------------------------------------------------------------------ index lifecycle
    @property
    def index(self) -> SearchIndex:
        if self._index is None:
            self._index = SearchIndex(_cache_folder(self.root) / INDEX_FILE)
            self._known = self._index.known()
        return self._index

    def close(self) -> None:
        for worker in list(self._workers.values()):
            worker.stop()
        with self._lock:
            if self._index is not None:
                self._index.close()
                self._index = None
            self._vectors, self._stale_vectors = {}, set()

    def _guarded(self, action: Callable[[], T]) -> T:
        """Run under the lock; if SQLite reports the file damaged, rebuild it and retry once."""
        with self._lock:
            try:
                return action()
            except sqlite3.OperationalError as exc:
                message = str(exc)
                if "locked" in message or "busy" in message:
                    raise CatDocError(
                        IO_ERROR,
                        f"The search index is locked by another process ({message}).",
                        "Retry in a moment; another catdoc process is updating it.",
                    ) from None
                if "no such table" not in message and "no such column" not in message:
                    raise
                self._rebuild()
            except (sqlite3.DatabaseError, DamagedIndexError):
                self._rebuild()
            try:
                return action()
            except (sqlite3.DatabaseError, DamagedIndexError) as exc:
                raise CatDocError(
                    IO_ERROR,
                    f"The search index was rebuilt but still fails ({exc}).",
                    "Another process may be damaging it; stop it, delete .catdoc/cache/ and "
                    "search again.",
                ) from None

    def _rebuild(self) -> None:
        self.index.reset()
        self._known, self._project, self._vectors, self._cache = {}, None, {}, {}
        self._counts, self._allowed, self._rankings = {}, {}, {}
        self._generation += 1

    # ------------------------------------------------------------------ synchronisation
    def sync(
        self, project: Project, *, force: bool = False, progress: Progress = no_progress
    ) -> SyncStats:
        """Bring the index up to date with `project` (cheap when nothing changed)."""
        return self._guarded(lambda: self._sync(project, force=force, progress=progress))

    def read(self, project: Project, action: Callable[[SearchIndex, SyncStats | None], T]) -> T:
        """Bring the index up to date with `project` (cheap when nothing changed), then run
        `action` on it under the lock, with what this call's sync did (None: nothing was
        checked). For readers of the index other than the search (statistics, structure)."""

        def run() -> T:
            before = self.last_sync
            stats = self._sync(project, force=False)
            return action(self.index, None if stats is before else stats)

        return self._guarded(run)

    @property
    def generation(self) -> int:
        """Changes whenever this engine writes to the index or rebuilds it: a key for caches of
        what was read from it."""
        return self._generation

    def build(
        self, project: Project, *, scopes: tuple[str, ...] = (), progress: Progress = no_progress
    ) -> tuple[SyncStats, dict[str, tuple[int, int]]]:
        """Bring the index up to date now and compute every missing vector of `scopes`: the
        sync's statistics, and per scope (vectors computed, rows in all)."""
        if scopes and not semantic.available():
            raise CatDocError(
                VALIDATION_ERROR,
                "Computing vectors needs the optional semantic extra, which is not installed.",
                "Install it with `pip install 'catdoc[semantic]'`, or build the index without "
                "vectors.",
            )

        def run() -> tuple[SyncStats, dict[str, tuple[int, int]]]:
            stats = self._sync(project, force=True, progress=progress)
            computed = {}
            for scope in scopes:
                kind = _kind(scope)
                before = len(self.index.vector_rowids(kind, semantic.MODEL_ID))
                self._matrix(scope, complete=True, progress=progress)
                computed[scope] = (len(self._vectors[kind]) - before, self._count(scope, ""))
            return stats, computed

        return self._guarded(run)

    def _sync(
        self, project: Project, *, force: bool, progress: Progress = no_progress
    ) -> SyncStats:
        index = self.index
        if project is not self._project:
            self._entries = _entries_of(project)
            self._project = project
        elif not force and time.monotonic() < self._next_sweep:
            return self.last_sync
        started = time.perf_counter()
        sigs = _signatures(str(self.root), [e.obj.path for e in self._entries if e.obj.path])
        current: set[str] = set()
        changed: list[tuple[_Entry, str, float | None, Known | None]] = []
        for entry in self._entries:
            current.add(entry.obj.id)
            sig, mtime = sigs[entry.obj.path] if entry.obj.path else ("", None)
            known = self._known.get(entry.obj.id)
            if known is None or known.fields_hash != entry.fields_hash or known.file_sig != sig:
                changed.append((entry, sig, mtime, known))
        removed = [k.rowid for ident, k in self._known.items() if ident not in current]
        touched: list[tuple[str, str | None, int]] = []
        refreshed: dict[str, Known] = {}

        def keep(n: int, date: str | None) -> None:
            """The `n`th changed document's content did not change: a new signature and date."""
            entry, sig, _, known = changed[n]
            if known is not None:
                touched.append((sig, date, known.rowid))
                refreshed[entry.obj.id] = known._replace(file_sig=sig)

        def read_here() -> Iterator[DocRecord]:
            """The changed documents whose content changed, read as the index takes them (a
            build never holds every text at once); each folder's real path is looked up once."""
            resolve = InsideResolver(self.root)
            for n, doc in enumerate(_pending(changed)):
                progress(READING, n, len(changed))
                record = read_record(self.root, doc, resolve)
                if doc.known_hash == record.content_hash:
                    keep(n, record.date)
                else:
                    yield record
            if changed:
                progress(READING, len(changed), len(changed))

        def read_by(pool: BuildPool) -> Iterator[PreparedBatch]:
            """`read_here` by worker processes, a batch at a time, prepared there."""
            done = 0
            progress(READING, 0, len(changed))
            for part, (ready, same) in pool.read(batched(_pending(changed), INSERT_BATCH)):
                for n, date in same:
                    keep(done + n, date)
                done += len(part)
                progress(READING, done, len(changed))
                yield ready

        written: list[str] = []
        if changed or removed:
            from catdoc.search import build_workers

            workers = build_workers.workers_for(len(changed))
            if workers:
                with build_workers.BuildPool(self.root, workers) as pool:
                    written = index.write(
                        read_by(pool),
                        remove=removed,
                        touch=touched,
                        progress=progress,
                        step=INDEXING,
                        work=pool,
                    )
            else:
                written = index.write(
                    prepared(read_here(), index.stemmer),
                    remove=removed,
                    touch=touched,
                    progress=progress,
                    step=INDEXING,
                )
        if written or removed or touched:
            gone = {ident for ident, k in self._known.items() if ident not in current}
            for ident in gone:
                del self._known[ident]
            self._known.update(refreshed)
            self._known.update(index.known(written))
            self._cache, self._counts, self._allowed, self._rankings = {}, {}, {}, {}
            self._stale_vectors = set(self._vectors)
            self._generation += 1
        model_stamp = json.dumps(project.fingerprint)
        if index.get_meta(MODEL_STAMP) != model_stamp:
            index.set_meta(MODEL_STAMP, model_stamp)
        elapsed = time.perf_counter() - started
        self._next_sweep = time.monotonic() + elapsed * SWEEP_COST_SHARE
        self.last_sync = SyncStats(
            indexed=len(written),
            touched=len(touched),
            removed=len(removed),
            unchanged=len(self._entries) - len(changed),
            seconds=elapsed,
            rebuilt=index.rebuilt,
        )
        index.rebuilt = False
        return self.last_sync

    def _refresh(self, project: Callable[[], Project], progress: Progress = no_progress) -> None:
        """Sync before a query. A process that has not loaded the model skips loading it (the
        call of `project`) while the model files' fingerprint is the one the index was built
        from and no document file changed (the file check is throttled like the sweep of
        `_sync`)."""
        fresh = self._project is None and self.index.get_meta(MODEL_STAMP) == json.dumps(
            stamp(self.root)
        )
        if fresh and (time.monotonic() < self._next_sweep or self._files_unchanged()):
            return
        self._sync(project(), force=False, progress=progress)

    def _files_unchanged(self) -> bool:
        started = time.perf_counter()
        paths = [k.path for k in self._known.values() if k.path]
        sigs = _signatures(str(self.root), paths)
        if any(sigs[k.path][0] != k.file_sig for k in self._known.values() if k.path):
            return False
        self._next_sweep = time.monotonic() + (time.perf_counter() - started) * SWEEP_COST_SHARE
        return True

    # ------------------------------------------------------------------ searching
    def search(
        self,
        project: Callable[[], Project],
        lookups: FilterLookups,
        query: str,
        *,
        mode: str,
        scope: str,
        filters: r.SearchFilters,
        limit: int,
        offset: int,
        debug: bool,
        vectors: str = "auto",
        progress: Progress = no_progress,
        include_content: bool = False,
    ) -> r.SearchResponse:
        """`project` gives the current model (called only when the index may be stale);
        `lookups` resolves what the filters name (see `build_condition`). `vectors` is the
        project's `search.vectors` setting: `auto` lets hybrid ranking use
        vectors when the extra is installed, `off` keeps it on the other signals (`--mode vector`
        is an explicit request and works either way). `progress` hears of the indexing and
        embedding a query has to wait for. Every hit carries its document's card; with
        `include_content` also its text (see `hit_details`)."""
        _check_arguments(query, mode, scope, limit, offset)
        if vectors not in semantic.SETTINGS:
            raise CatDocError(
                VALIDATION_ERROR,
                f"search.vectors {vectors!r} is not known.",
                f"Set it to one of: {', '.join(semantic.SETTINGS)} in .catdoc/config.yaml.",
            )
        cond = build_condition(lookups, filters)
        scope = resolve_scope(cond, scope, mode)
        notes = list(cond.notes)
        use_vector = mode == "vector" or (mode == "hybrid" and semantic.enabled(vectors))
        use_vector = use_vector and cond.column is None  # cards are matched by their words
        if mode == "vector" and not semantic.available():
            raise CatDocError(
                VALIDATION_ERROR,
                "Vector search needs the optional semantic extra, which is not installed.",
                "Install it with `pip install 'catdoc[semantic]'`, or search in hybrid or text "
                "mode.",
            )
        if mode == "hybrid" and not use_vector and cond.column is None:
            notes.append(
                semantic.SWITCHED_OFF_NOTE if vectors == "off" else semantic.UNAVAILABLE_NOTE
            )

        built: list[str] = []

        def run() -> r.SearchResponse:
            synced = self.last_sync
            self._refresh(project, progress)
            if self.last_sync is not synced:
                built[:] = _build_note(self.last_sync)
            if mode == "vector":
                self._matrix(scope, complete=True, progress=progress)
            return self._rank(
                query,
                mode,
                scope,
                cond,
                limit,
                offset,
                debug=debug,
                use_vector=use_vector,
                include_content=include_content,
            )

        response = self._guarded(run)
        response.notes[:0] = built + notes
        return response

    def _rank(
        self,
        query: str,
        mode: str,
        scope: str,
        cond: Condition,
        limit: int,
        offset: int,
        *,
        debug: bool,
        use_vector: bool,
        include_content: bool = False,
    ) -> r.SearchResponse:
        """One page of a query's ranking; the ranking itself is reused while the same query
        pages through its first candidates and nothing was written."""
        parsed = parse(query)
        response = r.SearchResponse(
            query=query, mode=mode, scope=scope, total=0, limit=limit, offset=offset, results=[]
        )
        matrix = self._matrix(scope, complete=mode == "vector") if use_vector else None
        if matrix is None and use_vector:
            use_vector = False
            response.notes.append(self._pending_note(scope))
        weights = card_weights(cond, ranking.weights_for(scope, mode, vector=use_vector))
        if parsed.empty and mode != "vector":
            response.notes.append(
                "The query has no words to search for (only punctuation); nothing matched."
            )
            return response

        def pool(wanted: int) -> _Ranking:
            near = wanted if mode == "vector" else VECTOR_CANDIDATES
            key = (query, mode, scope, *cond.key(), wanted, -1 if matrix is None else len(matrix))
            ranked = self._rankings.pop(key, None) or self._ranking(
                parsed, query, mode, scope, cond, weights, matrix, wanted, near
            )
            self._rankings[key] = ranked
            while len(self._rankings) > RANKINGS_KEPT:
                self._rankings.pop(next(iter(self._rankings)))
            return ranked

        ranked = pool(CANDIDATES)
        placed, owner = _placed(pool, offset + limit)
        response.expanded_terms = list(ranked.expanded_terms)
        response.total = self._total(scope, cond, ranked)
        page = placed[offset : offset + limit]
        rowids = [rowid for _, _, rowid in page]
        facts = self._facts(scope, set(rowids))
        marks = self.index.snippets(scope, ranked.either, rowids)
        for negative, _ident, rowid in page:
            fact = facts[rowid]
            row = fact.row
            snippet, marked = marks.get(rowid, ("", []))
            hit = r.SearchHit(
                id=row["id"],
                title=row["title"],
                category=row["category"],
                path=row["path"],
                url=row["url"],
                score=round(-negative, 6),
                snippet=snippet,
                matched_terms=marked,
                matched_concepts=[c for c, terms in fact.concepts if ranked.hit_terms & terms],
            )
            if debug:
                signals = owner[rowid].signals(rowid)
                hit.signals = _debug_signals(signals, ranking.combine(signals, weights))
            if scope == "chunks":
                hit.heading_path = json.loads(row["heading"])
                hit.start_line, hit.end_line = row["start_line"], row["end_line"]
                hit.chunk_index = row["idx"]
            response.results.append(hit)
        docs = [facts[rowid].row["doc" if scope == "chunks" else "rowid"] for rowid in rowids]
        chunks = rowids if scope == "chunks" else None
        attach(self.index, response.results, docs, chunks, include_content=include_content)
        return response

    def _ranking(
        self,
        parsed: ParsedQuery,
        query: str,
        mode: str,
        scope: str,
        cond: Condition,
        weights: dict[str, float],
        matrix: semantic.Matrix | None,
        wanted: int,
        near: int,
        among: list[int] | None = None,
        *,
        priors: bool = True,
    ) -> _Ranking:
        """Every candidate of a query, best first: `wanted` from each text signal, `near` from
        the vectors (see `ranking` for how the signals combine). With `among`, the text signals
        consider only those rows (the vectors still look at every row). `priors`: hybrid scores
        are multiplied by the `series` prior (not a document's passages: the document has it)."""
        index = self.index
        expansions = _expansions(parsed.words) if "wordnet" in weights else {}
        source = {s: word for word, found in expansions.items() for s in reversed(found)}
        offered = [s for found in expansions.values() for s in found if tokens(s)]
        own = {tuple(stems) for stems in index.stem_words(parsed.words)}
        strings = {  # a form the query's own words already match is no synonym (embedded, embed)
            s: fts_string(tokens(s))
            for s, stems in zip(offered, index.stem_words(offered), strict=True)
            if tuple(stems) not in own
        }
        used = {word: self._rows_with(scope, fts_string(tokens(word))) for word in expansions}
        synonyms = [
            s
            for s, string in strings.items()
            if (rows := self._rows_with(scope, string)) and rows > SYNONYM_SHARE * used[source[s]]
        ]
        original = parsed.fts()
        expanded = any_of([strings[s] for s in synonyms])
        similarity = (
            semantic.in_background(matrix, query, index.allowed(scope, cond))
            if matrix is not None
            else None
        )
        units = [cond.fts(unit) for unit in _units(index, parsed)]
        per_unit = "coverage" in weights and len(units) > 1
        if among is None and cond.sql:
            allowed = self._rows_allowed(scope, cond)
            if len(allowed) <= FEW_ALLOWED:  # score those rows instead of filtering matches
                among = allowed
        bm25: dict[int, float] = {}
        cut = False  # a text signal stopped at `wanted` rows: more rows may match
        scored_units: tuple[dict[int, float], dict[int, float]] | None = None
        if among is not None:  # only these rows compete on the words
            if per_unit:  # the units' passes find the rows; a pass of the whole query would too
                scored_units = self._per_unit(scope, units, among)
                bm25 = scored_units[0]
            elif "bm25" in weights and original:
                bm25 = index.scores(scope, cond.fts(original), among)
            bm25 = dict(sorted(bm25.items(), key=lambda item: -item[1]))  # best first
        elif "bm25" in weights:
            every = parsed.fts_all()
            if every:
                bm25 = dict(index.match(scope, every, cond, wanted))
                cut = len(bm25) == wanted
            if len(bm25) < wanted:
                some = index.match(scope, original, cond, wanted)
                cut = len(some) == wanted
                bm25 |= {k: v for k, v in some if k not in bm25}
        wordnet = dict(index.match(scope, expanded, cond, wanted)) if expanded else {}
        cut = cut or len(wordnet) == wanted
        passage = (
            self._best_passages(
                parsed,
                query,
                mode,
                cond,
                near,
                list(bm25)[:PASSAGE_DOCUMENTS],  # those holding every word first, by BM25
                vectors=matrix is not None,
            )
            if "passage" in weights
            else {}
        )
        vector = {}
        reachable = None
        if similarity is not None:
            found = similarity.result()
            vector = semantic.nearest(found, near, [*bm25, *wordnet, *passage])
            if mode == "vector" and near < len(found.scores):
                reachable = len(found.scores)  # every allowed row ranks by its similarity
        candidates = set(bm25) | set(wordnet) | set(vector) | set(passage)
        others = tuple(sorted(candidates - bm25.keys() - wordnet.keys()))
        facts = self._facts(scope, candidates)
        query_terms = frozenset(t for terms in index.stem_words(parsed.words) for t in terms)
        hit_terms = query_terms | {t for terms in index.stem_words(synonyms) for t in terms}
        bm25_scaled, wordnet_scaled = ranking.scale_by_max(bm25), ranking.scale_by_max(wordnet)
        terms_scaled, coverage = bm25_scaled, dict.fromkeys(bm25, 1.0)
        if per_unit:
            terms_scaled, coverage = scored_units or self._per_unit(
                scope, units, sorted(candidates)
            )
        share = 1.0 / len(query_terms) if query_terms else 0.0
        average = self._mean_length() if weights.get("length") else 0.0
        priors = priors and mode == "hybrid"
        named = series.named_versions(query)
        kept = self._series_priors(scope, facts, named) if priors else {}

        def signals_of(rowid: int) -> dict[str, float]:
            fact = facts[rowid]
            prior = {"series": kept.get(rowid, 1.0)} if priors else {}
            return prior | {
                "length": ranking.length_share(fact.length, average),
                "vector": max(0.0, vector.get(rowid, 0.0)),
                "bm25": terms_scaled.get(rowid, 0.0),
                "coverage": coverage.get(rowid, 0.0),
                "title": len(query_terms & fact.title_terms) * share,
                "concept": len(query_terms & fact.concept_terms) * share,
                "wordnet": wordnet_scaled.get(rowid, 0.0),
                "passage": passage.get(rowid, 0.0),
            }

        w = {name: weights.get(name, 0.0) for name in ranking.DOCUMENT_WEIGHTS}
        w_title, w_concept = w["title"] * share, w["concept"] * share
        scored = []
        for rowid in candidates:
            fact = facts[rowid]
            score = (
                w["bm25"] * terms_scaled.get(rowid, 0.0)
                + w["coverage"] * coverage.get(rowid, 0.0)
                + w["wordnet"] * wordnet_scaled.get(rowid, 0.0)
                + w["vector"] * max(0.0, vector.get(rowid, 0.0))
                + w["passage"] * passage.get(rowid, 0.0)
                + w_title * len(query_terms & fact.title_terms)
                + w_concept * len(query_terms & fact.concept_terms)
                + w["length"] * ranking.length_share(fact.length, average)
            ) * kept.get(rowid, 1.0)
            scored.append((-score, fact.row["id"], rowid))
        scored.sort()
        either = any_of([e for e in (original, expanded) if e])
        return _Ranking(
            scored,
            cut or reachable is not None,
            tuple(synonyms),
            either,
            hit_terms,
            signals_of,
            others,
            reachable,
        )

    def _best_passages(
        self,
        parsed: ParsedQuery,
        query: str,
        mode: str,
        cond: Condition,
        near: int,
        docs: list[int],
        *,
        vectors: bool,
    ) -> dict[int, float]:
        """Document rowid → the score (0…1) of its best passage by the passage weights of
        `ranking`: a long document is judged by the part that answers the query, not diluted by
        the rest. On the words, only the passages of `docs` (the documents the words found)
        compete: scoring those few is several times cheaper than matching every passage. With
        `vectors`, passages are also compared with the query by their own vectors once every
        passage has one (a document's vector sees only its first 256 tokens), so a passage can
        bring a document the words missed."""
        matrix = self._matrix("chunks", complete=False) if vectors else None
        weights = ranking.weights_for("passages", mode, vector=matrix is not None)
        among = self.index.chunks_of(sorted(docs))
        chunks = self._ranking(
            parsed,
            query,
            mode,
            "chunks",
            cond,
            weights,
            matrix,
            PASSAGE_CANDIDATES,
            near,
            among,
            priors=False,
        )
        facts = self._facts("chunks", {rowid for _, _, rowid in chunks.scored})
        best: dict[int, float] = {}
        for negative, _ident, rowid in chunks.scored:
            best.setdefault(facts[rowid].row["doc"], -negative)
        return best

    def _facts(self, scope: str, rowids: set[int]) -> dict[int, _Facts]:
        """What ranking needs of each candidate, parsed once and kept until the next write. A
        chunk shares its document's facts, its heading path adding to the title's terms."""
        cache = self._cache.setdefault(scope, {})
        missing = [rowid for rowid in rowids if rowid not in cache]
        if missing:
            index = self.index
            if scope == "documents":
                rows = index.doc_rows(missing)
                sizes = lengths.lengths(index.conn, "docs_fts", missing)
                for rowid, row in rows.items():
                    concepts = tuple(
                        (name, frozenset(terms))
                        for name, terms in json.loads(row["concepts"]).items()
                    )
                    cache[rowid] = _Facts(
                        row=row,
                        title_terms=frozenset(row["title_terms"].split()),
                        concept_terms=frozenset().union(*(terms for _, terms in concepts)),
                        concepts=concepts,
                        length=sizes.get(rowid, 0),
                        pattern=series.pattern_of(row["title"]),
                    )
            else:
                rows = index.chunk_rows(missing)
                docs = self._facts("documents", {row["doc"] for row in rows.values()})
                for rowid, row in rows.items():
                    doc = docs[row["doc"]]
                    heading = row["heading_terms"].split()
                    cache[rowid] = _Facts(
                        row=doc.row | row,
                        title_terms=doc.title_terms.union(heading) if heading else doc.title_terms,
                        concept_terms=doc.concept_terms,
                        concepts=doc.concepts,
                        length=doc.length,
                        pattern=doc.pattern,
                    )
            if len(rows) < len(missing):
                raise DamagedIndexError(f"{len(missing) - len(rows)} {scope} rows are missing")
        return {rowid: cache[rowid] for rowid in rowids}

    def _series_priors(
        self, scope: str, facts: dict[int, _Facts], named: frozenset[str]
    ) -> dict[int, float]:
        """rowid → the `series` prior of the candidates that are in a versioned series or are
        (chunks: belong to) a changelog and whose version the query does not name."""
        out = {
            rowid: factor
            for rowid, version in self._series_members(facts).items()
            if (factor := series.prior(version, named)) < 1.0
        }
        doc_of = {
            rowid: rowid if scope == "documents" else fact.row["doc"]
            for rowid, fact in facts.items()
            if rowid not in out
        }
        changelogs = self._changelogs(set(doc_of.values()))
        for rowid, doc in doc_of.items():
            versions = changelogs.get(doc)
            if versions is not None and (factor := series.changelog_prior(versions, named)) < 1:
                out[rowid] = factor
        return out

    def _changelogs(self, docs: set[int]) -> dict[int, frozenset[str]]:
        """doc rowid → its sections' versions, for the documents that are changelogs (see
        `series.changelog_versions`); each document's headings are read once per write."""
        generation, known = self._changelog_cache
        if generation != self._generation:
            known = {}
            self._changelog_cache = (self._generation, known)
        missing = sorted(docs - known.keys())
        for start in range(0, len(missing), 500):
            part = missing[start : start + 500]
            headings: dict[int, set[str]] = {doc: set() for doc in part}
            for doc, path in self.index.conn.execute(
                f"SELECT doc, heading FROM chunks WHERE doc IN ({', '.join('?' * len(part))})",
                part,
            ):
                headings[doc].update(json.loads(path))
            known.update((doc, series.changelog_versions(names)) for doc, names in headings.items())
        return {doc: versions for doc in docs if (versions := known[doc]) is not None}

    def _series_members(self, facts: dict[int, _Facts]) -> dict[int, str]:
        """rowid → version of the candidates that belong to a versioned series (see `series`).
        Only titles holding a version number are looked at, and each pattern's documents are
        counted once per write, among the rows holding its words in their titles."""
        generation, sizes = self._series
        if generation != self._generation:
            sizes = {}
            self._series = (self._generation, sizes)
        out = {}
        for rowid, fact in facts.items():
            if fact.pattern is None:
                continue
            pattern, version = fact.pattern
            if pattern not in sizes:
                sizes[pattern] = self._pattern_size(pattern)
            if sizes[pattern] >= series.MIN_SERIES:
                out[rowid] = version
        return out

    def _pattern_size(self, pattern: str) -> int:
        """How many documents' titles have this pattern (see `series.pattern_of`)."""
        words = tokens(pattern)
        if words:
            titles = self.index.conn.execute(
                "SELECT d.title FROM docs_fts JOIN docs d ON d.rowid = docs_fts.rowid "
                "WHERE docs_fts MATCH ?",
                (f"{{title}} : ({' '.join(fts_string([w]) for w in dict.fromkeys(words))})",),
            )
        else:  # only numbers: every title with a version number is a candidate
            titles = self.index.conn.execute(
                "SELECT title FROM docs WHERE title GLOB '*[0-9].[0-9]*'"
            )
        return sum(1 for (title,) in titles if (series.pattern_of(title) or ("",))[0] == pattern)

    def _mean_length(self) -> float:
        """The mean tokens per document, read once per write (see `lengths`)."""
        generation, value = self._average_length
        if generation != self._generation:
            value = lengths.average_length(self.index.conn, "docs_fts")
            self._average_length = (self._generation, value)
        return value

    def _per_unit(
        self, scope: str, units: list[str], rowids: list[int]
    ) -> tuple[dict[int, float], dict[int, float]]:
        """The damped BM25 and the coverage of each candidate (see `ranking`), from one BM25
        match of each query unit over the candidates."""
        index = self.index
        per_unit = [index.scores(scope, unit, rowids) for unit in units]
        total = self._count(scope, "")
        idfs = [ranking.fts_idf(self._rows_with(scope, unit), total) for unit in units]
        return ranking.damped(per_unit, idfs), ranking.coverage(per_unit)

    def _rows_allowed(self, scope: str, cond: Condition) -> list[int]:
        """The rows passing the filters, remembered until the next write (a filter is often
        asked again with other words)."""
        key = (scope, *cond.key())
        if key not in self._allowed:
            self._allowed[key] = self.index.allowed(scope, cond) or []
        return self._allowed[key]

    def _rows_with(self, scope: str, unit: str) -> int:
        """How many rows match a query unit: from the vocabulary when it is one word of one
        stem, else by counting its matches."""
        word = unit[1:-1]
        if " " not in word and '"' not in word:
            stems = self.index.stem_words([word])[0]
            if len(stems) == 1:
                return self.index.rows_with(scope, stems[0])
        return self._count(scope, unit)

    def _total(self, scope: str, cond: Condition, ranked: _Ranking) -> int:
        """How many rows the whole ranking `_placed` pages through holds: the rows matching
        the words (or their synonyms) and the others its candidates brought."""
        if not ranked.capped:
            return len(ranked.scored)
        if ranked.reachable is not None:
            return ranked.reachable
        worded = self.index.scores(scope, cond.fts(ranked.either), ranked.others)
        return self._count(scope, ranked.either, cond) + len(ranked.others) - len(worded)

    def _count(self, scope: str, expression: str, cond: Condition | None = None) -> int:
        """How many rows match an expression under the filters ('': every row of the scope),
        remembered until the next write (so paging through a query counts its matches once)."""
        cond = cond or Condition()
        key = (scope, expression, *cond.key())
        if key not in self._counts:
            index = self.index
            self._counts[key] = (
                index.count(scope, expression, cond) if expression else index.size(scope)
            )
        return self._counts[key]

    # ------------------------------------------------------------------ vectors
    def _matrix(
        self, scope: str, *, complete: bool, progress: Progress = no_progress
    ) -> semantic.Matrix | None:
        """Every vector of the scope's rows, or None while some rows lack one (a background
        worker is then computing them). `complete` (vector mode) computes them here instead.
        The matrix is read from the index once and afterwards only patched: with the worker's
        batches, and with the rows a write added or dropped (or, while it is incomplete, that
        another process stored)."""
        kind, index, total = _kind(scope), self.index, self._count(scope, "")
        matrix = self._vectors.get(kind)
        if matrix is None:
            matrix = semantic.from_blobs(index.vectors(kind, semantic.MODEL_ID))
        elif kind in self._stale_vectors or len(matrix) < total:
            matrix = semantic.reconcile(
                matrix,
                index.vector_rowids(kind, semantic.MODEL_ID),
                lambda rowids: index.vectors(kind, semantic.MODEL_ID, rowids),
            )
        self._stale_vectors.discard(kind)
        self._vectors[kind] = matrix
        if len(matrix) >= total:
            return matrix
        if not complete:
            if self.background:
                self._start_worker(kind, total - len(matrix))
            return None
        missing = index.missing_vectors(kind, semantic.MODEL_ID)
        vectors = semantic.embedder(progress).embed(
            [text or "" for _, text in missing],
            every_core=True,
            progress=progress,
            step=f"Computing vectors of {'documents' if scope == 'documents' else 'passages'}",
        )
        self._put_vectors(kind, [rowid for rowid, _ in missing], vectors)
        return self._vectors[kind]

    def _pending_note(self, scope: str) -> str:
        total = self._count(scope, "")
        matrix = self._vectors.get(_kind(scope))
        missing = total - (len(matrix) if matrix is not None else 0)
        what = "documents" if scope == "documents" else "passages"
        if not self.background:
            return (
                f"{missing} of {total} {what} have no vectors yet, so ranking leaves vector "
                "similarity out. `catdoc index --vectors` computes them once for every later "
                "search (a `--mode vector` search computes them too, and waits for them)."
            )
        worker = self._workers.get(_kind(scope))
        failed = f" (the last attempt failed: {worker.error})" if worker and worker.error else ""
        return (
            f"Vectors are being computed in the background{failed}: {missing} of {total} "
            f"{what} have none yet, so ranking leaves vector similarity out until they are done "
            "(a `--mode vector` search computes them all at once, and waits for them)."
        )

    def _start_worker(self, kind: str, missing: int) -> None:
        worker = self._workers.get(kind)
        if worker is not None and worker.running:
            return

        def fetch(limit: int) -> tuple[list[tuple[int, str]], object]:
            with self._lock:
                if self._index is None:
                    return [], None
                return self._index.missing_vectors(kind, semantic.MODEL_ID, limit), (
                    self._generation
                )

        def store(rowids: list[int], vectors: Any, token: object) -> None:
            with self._lock:
                if self._index is not None and token == self._generation:
                    self._put_vectors(kind, rowids, vectors)

        what = "documents" if kind == "doc" else "passages"
        self._workers[kind] = semantic.Worker(
            fetch,
            store,
            total=missing,
            progress=self.background_progress,
            step=f"Computing vectors of {what} in the background",
        )
        if worker is not None:
            self._workers[kind].error = worker.error

    def _put_vectors(self, kind: str, rowids: list[int], vectors: Any) -> None:
        """Store vectors in the index and, when the kind is in memory, in its matrix."""
        self.index.put_vectors(
            kind,
            semantic.MODEL_ID,
            [(rowid, vec.tobytes()) for rowid, vec in zip(rowids, vectors, strict=True)],
        )
        matrix = self._vectors.get(kind)
        if matrix is not None and kind not in self._stale_vectors:
            self._vectors[kind] = semantic.with_rows(matrix, rowids, vectors)


def _cache_folder(root: Path) -> Path:
    """`.catdoc/cache/`, after removing a file (or a dangling link) that stands in its place:
    the cache holds derived data only, so whatever is there instead is not the user's."""
    path = root / CATDOC_DIR / CACHE_DIR
    if (path.is_symlink() and not path.exists()) or (path.exists() and not path.is_dir()):
        try:
            path.unlink()
        except OSError as exc:
            raise CatDocError(
                IO_ERROR,
                f"{CATDOC_DIR}/{CACHE_DIR} is not a folder and cannot be removed ({exc.strerror}).",
                f"Remove {path} by hand; CatDoc recreates its cache there.",
            ) from None
    return cache_dir(root)


def _build_note(stats: SyncStats) -> list[str]:
    """What a search says when it first had to (re)index many documents (see
    `BUILD_NOTE_DOCUMENTS`)."""
    if stats.indexed < BUILD_NOTE_DOCUMENTS and stats.seconds < 1.0:
        return []
    what = "built" if stats.unchanged + stats.touched == 0 else "brought up to date"
    return [
        f"The search index was {what} first: {stats.indexed:,} documents indexed in "
        f"{stats.seconds:.1f} s (later searches reuse it)."
    ]


def _kind(scope: str) -> str:
    return "doc" if scope == "documents" else "chunk"


def _placed(
    pool: Callable[[int], _Ranking], end: int
) -> tuple[list[tuple[float, str, int]], dict[int, _Ranking]]:
    """The first `end` rows of a query's whole ranking, each with the ranking that placed it.
    Places [0, CANDIDATES) hold the best of the pool ranked from CANDIDATES rows per signal;
    each later block [W, 2W) the best rows not placed before of the pool ranked from 2W. Pools
    grow by whole blocks, never by the page asked for, so a row's place does not depend on the
    page: paging through a ranking never repeats or skips a row (a larger pool holds every row
    of a smaller one, and re-ranks them)."""
    placed: list[tuple[float, str, int]] = []
    owner: dict[int, _Ranking] = {}
    start, wanted = 0, CANDIDATES
    while start < end:
        ranked = pool(wanted)
        fresh = [entry for entry in ranked.scored if entry[2] not in owner]
        if ranked.capped:
            fresh = fresh[: wanted - start]
        owner.update((rowid, ranked) for *_, rowid in fresh)
        placed += fresh
        if not ranked.capped or len(placed) < wanted:
            break
        start, wanted = wanted, wanted * 2
    return placed, owner


def _check_arguments(query: str, mode: str, scope: str, limit: int, offset: int) -> None:
    if not isinstance(query, str) or not query.strip():
        raise CatDocError(
            VALIDATION_ERROR,
            "The search query is empty.",
            'Give some words to search for, e.g. `catdoc search "login timeout"`; filters '
            "narrow a query, they do not replace it (use `catdoc list objects` to browse).",
        )
    if mode not in MODES:
        raise CatDocError(
            VALIDATION_ERROR, f"mode {mode!r} is not known.", f"Use one of: {', '.join(MODES)}."
        )
    if scope not in SCOPES:
        raise CatDocError(
            VALIDATION_ERROR, f"scope {scope!r} is not known.", f"Use one of: {', '.join(SCOPES)}."
        )
    check_page(limit, offset)


def _units(index: SearchIndex, parsed: ParsedQuery) -> list[str]:
    """The FTS5 strings of a query's distinct terms (one per stem: `fails failed` is one) and
    phrases: what coverage counts and damped BM25 sums over."""
    seen: set[tuple[str, ...]] = set()
    units = []
    for term, stems in zip(parsed.terms, index.stem_words(parsed.terms), strict=True):
        if stems and tuple(stems) not in seen:
            seen.add(tuple(stems))
            units.append(fts_string([term]))
    return units + [fts_string(phrase) for phrase in (*parsed.phrases, *parsed.compounds)]


SYNONYM_SHARE = 0.25
"""A synonym is searched only when it is in more rows of the scope than this share of the rows
that hold the query's own word: a synonym the project rarely uses beside a word it often uses is
mostly another sense (`auto` → car, `decorator` → designer, `garbage` → refuse). On the four
real trees' 225 questions this dropped 98 expansions (in 69 questions); documents' MRR@10 fell
on one Django question (`faster` → quicker) and rose on SQLAlchemy's, passages' rose on NumPy's
(see benchmarks/README)."""


def _expansions(words: tuple[str, ...]) -> dict[str, list[str]]:
    from catdoc.search.synonyms import expand

    return expand(words)


def _debug_signals(signals: dict[str, float], contributions: dict[str, float]) -> dict[str, float]:
    """Each signal's raw value (`…_raw`) and its weighted contribution to the score."""
    out = {name: round(value, 6) for name, value in contributions.items()}
    out.update({f"{name}_raw": round(signals.get(name, 0.0), 6) for name in contributions})
    return out


def _signatures(root: str, paths: list[str]) -> dict[str, tuple[str, float | None]]:
    """path → (modification time and size, modification time): a cheap fingerprint of each
    file. Paths are stat'ed relative to an open handle of their folder, which skips walking
    the whole path again for every file."""
    out: dict[str, tuple[str, float | None]] = {}
    folders: dict[str, int | None] = {}
    try:
        for path in paths:
            folder, _, name = path.rpartition("/")
            if folder not in folders:
                try:
                    folders[folder] = os.open(
                        os.path.join(root, folder), os.O_RDONLY | os.O_DIRECTORY
                    )
                except (OSError, ValueError):
                    folders[folder] = None
            handle = folders[folder]
            try:
                st = (
                    os.stat(os.path.join(root, path))
                    if handle is None or not name or name in (".", "..")
                    else os.stat(name, dir_fd=handle)
                )
            except (OSError, ValueError):
                out[path] = ("missing", None)
                continue
            out[path] = (f"{st.st_mtime_ns}:{st.st_size}", st.st_mtime)
    finally:
        for handle in folders.values():
            if handle is not None:
                os.close(handle)
    return out


def _pending(
    changed: Iterable[tuple[_Entry, str, float | None, Known | None]],
) -> Iterator[Pending]:
    """What reading each changed document needs, as plain values (a worker gets them)."""
    for entry, sig, mtime, known in changed:
        obj = entry.obj
        yield Pending(
            obj.id,
            obj.title,
            obj.domain,
            obj.path,
            obj.content,
            tuple(obj.tags),
            obj.author,
            obj.created,
            obj.updated,
            obj.summary,
            obj.url,
            entry.category,
            entry.concepts,
            entry.fields_hash,
            sig,
            mtime,
            known.content_hash if known is not None else None,
        )


def _entries_of(project: Project) -> list[_Entry]:
    """One entry per object (first occurrence of an id wins), with its concepts and the hash of
    every field that feeds the index."""
    entries = []
    for ident, obj in project.object_by_id.items():
        cat_id = project.category_of_object.get(ident)
        cat = project.category_by_id.get(cat_id) if cat_id else None
        names: list[Any] = [*obj.tags]
        if cat is not None:
            names += [cat.label, cat.id, *cat.aliases]
        if obj.domain:
            names.append(obj.domain)
        unique: dict[str, str] = {}
        for name in names:
            text = str(name).strip()
            if text:
                unique.setdefault(text.casefold(), text)
        concepts = tuple(unique.values())
        fields = (
            obj.title,
            obj.domain,
            obj.path,
            obj.content,
            obj.tags,
            obj.author,
            obj.created,
            obj.updated,
            obj.summary,
            obj.url,
            cat_id,
            concepts,
        )
        digest = hashlib.blake2b(repr(fields).encode(), digest_size=16).hexdigest()
        entries.append(_Entry(obj, cat_id, concepts, digest))
    return entries
