"""Concepts in the search index: written with the documents, read by the concept operations.

A document's concepts are its tags and front-matter keywords (weight 1) and its best key phrases
(`catdoc.search.keyphrases`, weights in (0, 1]). Every concept has a key, its words stemmed by
the index's own tokenizer and Porter stemmer, so "Query sets" and "query set" are one concept.

Tables (created with the rest of the index):
- `concepts(key, label, docs)`: the label is the surface form most documents use; `docs` counts
  the documents holding the concept.
- `doc_concepts(concept, doc, weight, source, label, passages)`: one row per document and
  concept; `source` is `tag`, `keyword` or `phrase`; `passages` links the concept to the
  document's passages that hold it, as `chunk rowid:occurrences` pairs. The links live in the
  document's row rather than in a table of their own: a row per passage and concept would
  triple the rows the first build writes, and every reader wants a concept's passages together
  with the documents' weights anyway.

Writing happens inside `SearchIndex.write`'s transaction: `forget` before documents are dropped
or replaced, `store` after the new ones are in, so only the written documents are computed (and
the counts and labels of the concepts they touch). A document's candidate phrases are found
when it is read (`find_candidates`, with its passages at hand) and kept, pickled, until every
document is in; they are ranked then, by word IDF read from the FTS5 vocabulary of the whole
index as it stands after the write.
"""

from __future__ import annotations

import itertools
import operator
import pickle
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from catdoc.progress import Progress, no_progress
from catdoc.search import keyphrases

if TYPE_CHECKING:
    from catdoc.markup import Kind
    from catdoc.search.index import SearchIndex
    from catdoc.search.stemming import Stemmer

CONCEPT_SCHEMA = """
CREATE TABLE IF NOT EXISTS concepts(
    key TEXT PRIMARY KEY,
    label TEXT NOT NULL,
    docs INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS doc_concepts(
    concept TEXT NOT NULL,
    doc INTEGER NOT NULL,
    weight REAL NOT NULL,
    source TEXT NOT NULL,
    label TEXT NOT NULL,
    passages TEXT NOT NULL,
    PRIMARY KEY(concept, doc)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS doc_concepts_doc ON doc_concepts(doc);
"""
SOURCES = ("tag", "keyword", "phrase")
BATCH = 500
"""Bound values per `IN (…)` list."""
CACHE_LIMIT = 200_000
"""Remembered phrase keys and word stems (forgotten all at once when full)."""
GRAMS_KEPT = 50_000
"""Remembered word runs of concept keys (forgotten all at once when full): about 25 MB. They
cost a microsecond to make again, and unbounded they grew to 118 MB (242,000 keys) in a build
of 100,000 documents."""

_stems: dict[str, str] = {}
"""word (lower case) → its stem(s) as the index stores them: the stemmer never changes."""
_keys: dict[str, str | None] = {}
"""surface phrase → key (None: not a concept, e.g. more than MAX_WORDS words once split)."""
_grams: dict[str, tuple[str, ...]] = {}
_names: dict[str, str] = {}
"""tag, keyword or concept asked for → key."""


def _batches(items: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), BATCH):
        yield items[start : start + BATCH]


def _marks(items: Sequence[Any]) -> str:
    return ", ".join("?" * len(items))


# ---------------------------------------------------------------------------------- keys
def learn_keys(stemmer: Stemmer, phrases: Iterable[str]) -> None:
    """Compute the keys of phrases not seen before, stemming their new words in one pass."""
    asked = list(dict.fromkeys(phrases))
    missing = [p for p in asked if p not in _keys]
    if not missing:
        return
    if len(_keys) + len(missing) > CACHE_LIMIT:
        clear_caches()
        missing = asked
    words = {p: keyphrases.phrase_words(p) for p in missing}
    new = [w for w in dict.fromkeys(w for ws in words.values() for w in ws) if w not in _stems]
    if new:
        if len(_stems) + len(new) > CACHE_LIMIT:
            clear_caches()
            new = list(dict.fromkeys(w for ws in words.values() for w in ws))
        _stems.update(zip(new, (" ".join(t) for t in stemmer.stem(new)), strict=True))
    for phrase, ws in words.items():
        stems = [_stems[w] for w in ws if _stems[w]]
        key = " ".join(stems)
        _keys[phrase] = key if stems and key.count(" ") < keyphrases.MAX_WORDS else None


def key_of(index: SearchIndex, phrase: str) -> str:
    """The key of any phrase, however long (tags, keywords, a concept asked for by name)."""
    return _key(index.stemmer, phrase)


def _key(stemmer: Stemmer, phrase: str) -> str:
    key = _names.get(phrase)
    if key is None:
        words = keyphrases.phrase_words(phrase)
        missing = [w for w in dict.fromkeys(words) if w not in _stems]
        if missing:
            _stems.update(zip(missing, (" ".join(t) for t in stemmer.stem(missing)), strict=True))
        if len(_names) > CACHE_LIMIT:
            _names.clear()
        key = _names[phrase] = " ".join(_stems[w] for w in words if _stems[w])
    return key


def clear_caches() -> None:
    """Forget every remembered stem, key and reading (when full; the benchmarks start cold)."""
    for cache in (_stems, _keys, _grams, _names):
        cache.clear()
    keyphrases.clear_caches()


def _grams_of(key: str) -> tuple[str, ...]:
    found = _grams.get(key)
    if found is None:
        if len(_grams) >= GRAMS_KEPT:
            _grams.clear()
        found = _grams[key] = keyphrases.grams(key)
    return found


# ---------------------------------------------------------------------------------- writing
def forget(index: SearchIndex, docs: Iterable[int], ids: Sequence[str]) -> set[str]:
    """Drop the concepts of documents about to be removed (`docs`, by rowid) or re-indexed
    (`ids`); the keys they held, whose counts and labels `store` brings up to date."""
    conn = index.conn
    rowids = list(docs)
    for part in _batches(ids):
        rowids += [
            r[0] for r in conn.execute(f"SELECT rowid FROM docs WHERE id IN ({_marks(part)})", part)
        ]
    touched: set[str] = set()
    for part in _batches(rowids):
        rows = conn.execute(
            f"DELETE FROM doc_concepts WHERE doc IN ({_marks(part)}) RETURNING concept", part
        )
        touched.update(r[0] for r in rows)
    return touched


class Source(NamedTuple):
    """A written document, as the concept pass needs it: its rowid, tags, keywords and the
    rowids of its passages (consecutive, in order)."""

    rowid: int
    tags: tuple[str, ...]
    keywords: tuple[str, ...]
    chunks: range


class Candidates(NamedTuple):
    """A batch of documents' candidate phrases: each passage's phrases as written, counted
    (see `keyphrases.passage_phrases`), and the key of every phrase (None: not a concept)."""

    found: list[list[dict[str, int]]]
    keys: dict[str, str | None]


class Found(NamedTuple):
    """The candidates of a run of consecutive written documents, kept until every document is
    in: pickled (a few percent of the texts' size, where the objects would be several times
    it), with the words whose IDF ranking them needs."""

    documents: int
    candidates: bytes
    words: str
    """Space-separated."""


Row = tuple[str, int, float, str, str, str]
"""A `doc_concepts` row."""


class RowsJob(NamedTuple):
    """What a run of documents' concept rows are computed from: the documents, their
    candidates (`Found.candidates`), the IDF of the words of their keys, and the number of
    documents in the index."""

    sources: Sequence[Source]
    candidates: bytes
    word_idf: dict[str, float]
    documents: int


class ConceptWork(Protocol):
    """Who computes concept rows (`batch_rows`): this process (`Here`) or worker processes.
    Maps jobs in order, and may take several ahead of the one it yields."""

    def rows(self, jobs: Iterable[RowsJob]) -> Iterator[list[Row]]: ...


class Here:
    """`ConceptWork` in this process."""

    def __init__(self, stemmer: Stemmer) -> None:
        self.stemmer = stemmer

    def rows(self, jobs: Iterable[RowsJob]) -> Iterator[list[Row]]:
        for job in jobs:
            yield batch_rows(job, self.stemmer)


def find_candidates(batch: Sequence[tuple[Sequence[str], Kind]], stemmer: Stemmer) -> Found:
    """The candidates of a run of documents, given as each one's passages and markup (they
    need no index: a worker process that read the documents finds them)."""
    found = [keyphrases.passage_phrases(passages, kind) for passages, kind in batch]
    phrases = dict.fromkeys(p for each in found for counts in each for p in counts)
    learn_keys(stemmer, phrases)
    keys = {phrase: _keys[phrase] for phrase in phrases}
    words = {word for key in set(keys.values()) if key for word in key.split(" ")}
    return Found(
        len(batch),
        pickle.dumps(Candidates(found, keys), protocol=pickle.HIGHEST_PROTOCOL),
        " ".join(words),
    )


def batch_rows(job: RowsJob, stemmer: Stemmer) -> list[Row]:
    """The concept rows of a run of documents."""
    candidates: Candidates = pickle.loads(job.candidates)
    word_idf = job.word_idf.__getitem__
    remembered: dict[str, float] = {}

    def idf(key: str) -> float:
        value = remembered.get(key)
        if value is None:
            value = remembered[key] = keyphrases.phrase_idf(key, word_idf, job.documents)
        return value

    rows: list[Row] = []
    for source, passages in zip(job.sources, candidates.found, strict=True):
        rows += _document_rows(stemmer, source, passages, candidates.keys, idf)
    return rows


def store(
    index: SearchIndex,
    written: Sequence[Source],
    found: Sequence[Found],
    touched: set[str],
    *,
    progress: Progress = no_progress,
    step: str = "Indexing documents",
    work: ConceptWork | None = None,
) -> None:
    """Compute and write the concepts of the `written` documents (already in the index; their
    candidates `found` as they were read, in the same order), then the counts and labels of
    every concept they or `touched` hold.

    Ranking a document's candidates needs the IDF of their words in the whole index, which only
    this process can read (the write is not committed): it looks them up, once per word, and
    `work` (default: `Here`) computes the rows."""
    conn = index.conn
    work = work or Here(index.stemmer)
    documents = index.size("documents")
    word_idf: dict[str, float] = {}
    keys = set(touched)
    total = len(written)
    if total:
        progress(step, 0, total)

    def jobs() -> Iterator[RowsJob]:
        start = 0
        for run in found:
            words = run.words.split(" ") if run.words else []
            for word in words:
                if word not in word_idf:
                    holding = index.rows_with("documents", word)
                    word_idf[word] = keyphrases.idf(documents, holding)
            sources = written[start : start + run.documents]
            start += run.documents
            yield RowsJob(sources, run.candidates, {w: word_idf[w] for w in words}, documents)

    done = 0
    for run, rows in zip(found, work.rows(jobs()), strict=True):
        conn.executemany("INSERT INTO doc_concepts VALUES (?, ?, ?, ?, ?, ?)", rows)
        keys.update(row[0] for row in rows)
        done += run.documents
        progress(step, done, total)
    _update_concepts(index, keys)


def _document_rows(
    stemmer: Stemmer,
    source: Source,
    passages: list[dict[str, int]],
    keys: dict[str, str | None],
    idf: Callable[[str], float],
) -> list[Row]:
    """One document's concept rows: tags, keywords, then its best key phrases. Plain dicts
    rather than Counters: a Counter calls back into Python for every new key."""
    chosen: dict[str, tuple[float, str, str]] = {}
    doc = source.rowid
    for kind, names in (("tag", source.tags), ("keyword", source.keywords)):
        for name in names:
            label = " ".join(str(name).split())
            key = _key(stemmer, label) if label else ""
            if key and key not in chosen:
                chosen[key] = (1.0, kind, label)
    grams = _grams
    counts: dict[str, int] = {}
    get = counts.get
    for found in passages:
        for phrase, n in found.items():
            key = keys[phrase]
            if key is not None:
                counts[key] = get(key, 0) + n
    forms: dict[str, dict[str, int]] = {}
    for key, weight in keyphrases.rank(counts, idf):
        if key not in chosen:
            chosen[key] = (weight, "phrase", "")
            forms[key] = {}
    links: dict[str, dict[int, int]] = {key: {} for key in chosen}
    for found, chunk in zip(passages, source.chunks, strict=True):
        for phrase, n in found.items():
            key = keys[phrase]
            if key is None:
                continue
            if key in forms:
                form = forms[key]
                form[phrase] = form.get(phrase, 0) + n
            for gram in (key,) if " " not in key else grams.get(key) or _grams_of(key):
                link = links.get(gram)
                if link is not None:
                    link[chunk] = link.get(chunk, 0) + n
    return [
        (
            key,
            doc,
            round(weight, 4),
            kind,
            label or keyphrases.label_of(forms[key]),
            " ".join(f"{chunk}:{n}" for chunk, n in sorted(links[key].items())),
        )
        for key, (weight, kind, label) in chosen.items()
    ]


def _update_concepts(index: SearchIndex, keys: set[str]) -> None:
    """Recount the documents of `keys` and choose their labels (the form most documents use;
    ties to the lower-case form, then alphabetically). When most concepts are touched (the
    first build), one pass over the whole table is cheaper than a look-up per concept. The rows
    come in key order (the table's primary key), so one concept's forms are held at a time:
    grouping them in SQL sorted all of them in memory (60 MB at 100,000 documents)."""
    conn = index.conn
    everything = len(keys) * 2 > conn.execute("SELECT count(*) FROM concepts").fetchone()[0]
    parts: Iterable[Sequence[str]] = [[]] if everything else _batches(sorted(keys))
    if everything:
        conn.execute("DELETE FROM concepts")
    for part in parts:
        where = "" if everything else f"WHERE concept IN ({_marks(part)})"
        rows = conn.execute(
            f"SELECT concept, label FROM doc_concepts {where} ORDER BY concept", part
        )
        if not everything:
            conn.execute(f"DELETE FROM concepts WHERE key IN ({_marks(part)})", part)
        conn.executemany("INSERT INTO concepts(key, label, docs) VALUES (?, ?, ?)", _counted(rows))


def _counted(rows: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str, int]]:
    """(key, label, documents) of each concept in `rows` (concept, label), grouped by key."""
    for key, group in itertools.groupby(rows, key=operator.itemgetter(0)):
        forms: dict[str, int] = {}
        for _, label in group:
            forms[label] = forms.get(label, 0) + 1
        yield key, keyphrases.label_of(forms), sum(forms.values())


# ---------------------------------------------------------------------------------- reading
def labels(index: SearchIndex) -> dict[str, tuple[str, int]]:
    """key → (label, documents) of every concept."""
    return {key: (label, docs) for key, label, docs in index.conn.execute("SELECT * FROM concepts")}


def all_links(index: SearchIndex) -> list[tuple[str, str | None, str, float]]:
    """(object id, category, concept key, weight) of every document's concepts: one pass."""
    return index.conn.execute(
        "SELECT d.id, d.category, c.concept, c.weight FROM doc_concepts c "
        "JOIN docs d ON d.rowid = c.doc"
    ).fetchall()


def near_labels(index: SearchIndex, key: str) -> list[str]:
    """Labels of concepts that share a word's beginning with `key`: the pool for suggestions."""
    words = key.split(" ")
    conn = index.conn
    pool: dict[str, None] = {}
    for word in dict.fromkeys(words):
        prefix = word[:3]
        rows = conn.execute(
            "SELECT label FROM concepts WHERE (key >= ? AND key < ?) OR key LIKE ? "
            "ORDER BY docs DESC LIMIT 200",
            (prefix, prefix + "\uffff", f"% {prefix}%"),
        )
        pool.update((r[0], None) for r in rows)
    return list(pool)


def document_links(index: SearchIndex, object_id: str) -> list[tuple[str, float, str, str, str]]:
    """(key, weight, source, label in this document, passages) of one document's concepts."""
    return index.conn.execute(
        "SELECT c.concept, c.weight, c.source, c.label, c.passages FROM doc_concepts c "
        "WHERE c.doc = (SELECT rowid FROM docs WHERE id = ?)",
        (object_id,),
    ).fetchall()


def concept_documents(
    index: SearchIndex, keys: Sequence[str]
) -> list[tuple[str, str, str, str | None, float, str]]:
    """(key, object id, title, category, weight, passages) of the documents holding `keys`."""
    return index.conn.execute(
        "SELECT c.concept, d.id, d.title, d.category, c.weight, c.passages FROM doc_concepts c "
        f"JOIN docs d ON d.rowid = c.doc WHERE c.concept IN ({_marks(keys)})",
        list(keys),
    ).fetchall()


def passages(index: SearchIndex, rowids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Chunk rowid → object id, title, passage number, heading (JSON), lines."""
    out: dict[int, dict[str, Any]] = {}
    for part in _batches(list(rowids)):
        cur = index.conn.execute(
            "SELECT c.rowid, d.id, d.title, d.category, c.idx, c.heading, c.start_line, "
            f"c.end_line FROM chunks c JOIN docs d ON d.rowid = c.doc WHERE c.rowid IN "
            f"({_marks(part)})",
            part,
        )
        names = [d[0] for d in cur.description]
        for row in cur:
            out[row[0]] = dict(zip(names, row, strict=True))
    return out


def parse_passages(text: str) -> list[tuple[int, int]]:
    """(chunk rowid, occurrences) pairs of a `passages` column."""
    out = []
    for pair in text.split():
        chunk, _, count = pair.partition(":")
        out.append((int(chunk), int(count)))
    return out


def passage_numbers(index: SearchIndex, object_id: str) -> dict[int, int]:
    """Chunk rowid → passage number, of one document."""
    return dict(
        index.conn.execute(
            "SELECT rowid, idx FROM chunks WHERE doc = (SELECT rowid FROM docs WHERE id = ?)",
            (object_id,),
        ).fetchall()
    )


def document_row(index: SearchIndex, object_id: str) -> tuple[str, str | None] | None:
    """(title, category) of one indexed document."""
    row = index.conn.execute(
        "SELECT title, category FROM docs WHERE id = ?", (object_id,)
    ).fetchone()
    return None if row is None else (row[0], row[1])
