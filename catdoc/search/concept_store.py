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
the counts and labels of the concepts they touch). Word IDF is read from the FTS5 vocabulary of
the whole index as it stands after the write.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from catdoc.progress import Progress, no_progress
from catdoc.search import keyphrases

if TYPE_CHECKING:
    from catdoc.search.index import SearchIndex

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
def learn_keys(index: SearchIndex, phrases: Iterable[str]) -> None:
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
        _stems.update(zip(new, (" ".join(t) for t in index.stem(new)), strict=True))
    for phrase, ws in words.items():
        stems = [_stems[w] for w in ws if _stems[w]]
        key = " ".join(stems)
        _keys[phrase] = key if stems and key.count(" ") < keyphrases.MAX_WORDS else None


def key_of(index: SearchIndex, phrase: str) -> str:
    """The key of any phrase, however long (tags, keywords, a concept asked for by name)."""
    key = _names.get(phrase)
    if key is None:
        words = keyphrases.phrase_words(phrase)
        missing = [w for w in dict.fromkeys(words) if w not in _stems]
        if missing:
            _stems.update(zip(missing, (" ".join(t) for t in index.stem(missing)), strict=True))
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


@dataclass
class _Idf:
    """Phrase IDF from the index's vocabulary: one look-up per distinct stem, remembered per
    phrase for the rest of the write."""

    index: SearchIndex
    documents: int
    words: dict[str, float]
    phrases: dict[str, float]

    def word(self, term: str) -> float:
        value = self.words.get(term)
        if value is None:
            holding = self.index.rows_with("documents", term)
            value = self.words[term] = keyphrases.idf(self.documents, holding)
        return value

    def __call__(self, key: str) -> float:
        value = self.phrases.get(key)
        if value is None:
            value = self.phrases[key] = keyphrases.phrase_idf(key, self.word, self.documents)
        return value


class Source(NamedTuple):
    """What the concept pass needs of a written document besides its stored passages."""

    rowid: int
    tags: list[str]
    keywords: list[str]


def store(
    index: SearchIndex,
    written: Sequence[Source],
    touched: set[str],
    *,
    progress: Progress = no_progress,
    step: str = "Indexing documents",
) -> None:
    """Compute and write the concepts of the `written` documents (already in the index, their
    passages read back from it `BATCH` documents at a time, so a whole build's texts are never
    in memory together), then the counts and labels of every concept they or `touched` hold.

    The passages are read from the text index's own content table (`chunks_fts_content`, whose
    column `c1` is the body): a look-up by rowid through the FTS5 table costs about 50 times
    more, most of a 100,000-document build."""
    conn = index.conn
    idf = _Idf(index, index.size("documents"), {}, {})
    keys = set(touched)
    total = len(written)
    if total:
        progress(step, 0, total)
    for start in range(0, total, BATCH):
        part = written[start : start + BATCH]
        texts: dict[int, list[tuple[int, str]]] = {}
        for doc, rowid, body in conn.execute(
            "SELECT c.doc, c.rowid, f.c1 FROM chunks c JOIN chunks_fts_content f ON f.id = c.rowid "
            f"WHERE c.doc IN ({_marks(part)}) ORDER BY c.doc, c.idx",
            [source.rowid for source in part],
        ):
            texts.setdefault(doc, []).append((rowid, body))
        found = [keyphrases.passage_phrases([t for _, t in texts.get(s.rowid, ())]) for s in part]
        learn_keys(index, (p for passages in found for counts in passages for p in counts))
        rows: list[tuple[str, int, float, str, str, str]] = []
        for source, passages in zip(part, found, strict=True):
            chunks = [rowid for rowid, _ in texts.get(source.rowid, ())]
            rows += _document_rows(index, source, passages, chunks, idf)
        conn.executemany("INSERT INTO doc_concepts VALUES (?, ?, ?, ?, ?, ?)", rows)
        keys.update(row[0] for row in rows)
        progress(step, min(start + BATCH, total), total)
    _update_concepts(index, keys)


def _document_rows(
    index: SearchIndex,
    source: Source,
    passages: list[dict[str, int]],
    chunk_rowids: list[int],
    idf: _Idf,
) -> list[tuple[str, int, float, str, str, str]]:
    """One document's concept rows: tags, keywords, then its best key phrases. Plain dicts
    rather than Counters: a Counter calls back into Python for every new key."""
    chosen: dict[str, tuple[float, str, str]] = {}
    doc = source.rowid
    for kind, names in (("tag", source.tags), ("keyword", source.keywords)):
        for name in names:
            label = " ".join(str(name).split())
            key = key_of(index, label) if label else ""
            if key and key not in chosen:
                chosen[key] = (1.0, kind, label)
    keys, grams = _keys, _grams
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
    for found, chunk in zip(passages, chunk_rowids, strict=True):
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
    first build), one pass over the whole table is cheaper than a look-up per concept."""
    conn = index.conn
    everything = len(keys) * 2 > conn.execute("SELECT count(*) FROM concepts").fetchone()[0]
    parts: Iterable[Sequence[str]] = [[]] if everything else _batches(sorted(keys))
    if everything:
        conn.execute("DELETE FROM concepts")
    for part in parts:
        where = "" if everything else f"WHERE concept IN ({_marks(part)})"
        forms: dict[str, dict[str, int]] = {}
        for key, label, n in conn.execute(
            f"SELECT concept, label, count(*) FROM doc_concepts {where} GROUP BY concept, label",
            part,
        ):
            forms.setdefault(key, {})[label] = n
        if not everything:
            conn.execute(f"DELETE FROM concepts WHERE key IN ({_marks(part)})", part)
        conn.executemany(
            "INSERT INTO concepts(key, label, docs) VALUES (?, ?, ?)",
            [
                (key, keyphrases.label_of(counted), sum(counted.values()))
                for key, counted in forms.items()
            ],
        )


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


def concept_label(index: SearchIndex, key: str) -> str | None:
    row = index.conn.execute("SELECT label FROM concepts WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


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
