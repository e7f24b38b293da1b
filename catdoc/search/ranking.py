"""Hybrid ranking: a weighted sum of signals, each scaled to 0…1 (seed 001's scheme).

| signal | what it measures | documents | chunks |
|---|---|---|---|
| `vector` | cosine similarity of query and text embeddings (`catdoc[semantic]`) | 0.25 | 0.30 |
| `bm25` | BM25 of the query words, IDF damped (below), relative to the best | 0.20 | 0.25 |
| `coverage` | share of the query's distinct words (and phrases) the text contains | 0.15 | 0.10 |
| `title` | share of query words in the title (chunks: title + heading path) | 0.18 | 0.10 |
| `concept` | share of query words in tags, category name/id/aliases, domain | 0.15 | 0.08 |
| `wordnet` | BM25 of the WordNet synonyms of the query words, divided by the best | 0.07 | 0.07 |
| `passage` | the score of the document's best passage (passage weights, below) | 0.60 | – |
| `length` | the document's length against a stub's (below): 1 unless it is very short | 0.13 | – |

A passage's score for `passage` is its own weighted sum of `vector` 0.35, `bm25` 0.30, `coverage`
0.15, `title` 0.12 (title and heading path) and `concept` 0.08, computed as for chunks; synonyms
play no part. A document is thus also judged by its best passage: on long documents (a
reference page, a release's notes) whole-document BM25 is diluted by everything else the page
says, while the passage that answers the query scores as well as a short page would. On
Django's, SQLAlchemy's and Sphinx's docs (`benchmarks/relevance/`) this signal lifted hybrid
MRR@10 by 7–29% (see benchmarks/README.md).

Which synonyms count is `engine.SYNONYM_SHARE`'s rule: those the project uses beside the query's
own word, not only in passing.

`length` is a stub prior: a document shorter than `STUB_SHARE` of the average document counts
that share of it, every other document 1. BM25's length normalisation gives a word said once in
a tiny text (a one-paragraph release note, a stub page) the score of a page about it; on Django's
docs such stubs ranked above the answer. Longer documents are not favoured beyond the threshold:
a prior on length itself cost SQLAlchemy and Sphinx (see benchmarks/README.md).

`series` is a prior that multiplies a hybrid score (of a document, or of a passage in chunks
scope): a member of a versioned series (release notes, changelogs: titles equal but for a
version number, see `series`), or a single changelog known by its version headings, keeps
`series.SHARE` (0.7) of its score unless the query names its version, every other document all
of it. Such documents name nearly every subject in
passing; on Django's, SQLAlchemy's and Sphinx's docs this lifted hybrid MRR@10 by 1–11%
(passages: 0.5–7%) and no query of the five sets then measured ranked worse (see
benchmarks/README.md). Debug output shows what
it took off as the `series` contribution.

Words are compared after Porter stemming, exactly as the index stems them. Without the semantic
extra the `vector` weight is dropped and the others are scaled up to sum to 1. Synonyms only feed
`wordnet`, so a document matching the user's own words always outranks one matching synonyms.

Plain BM25 multiplies each word's term-frequency part by its IDF, which grows without bound as
the word gets rarer: one rare word of a query ("*reconciled* payment fails") outweighs the two
ordinary ones. Hybrid ranking therefore scores each query word on its own and uses the square
root of its IDF (rarer words still count more, by far less), and `coverage` rewards texts that
contain more of the query (coordination, as classic engines do): with both, a passage holding
both words of a two-word query beats one holding only the rarer word. `--mode text` keeps
FTS5's own BM25 of the whole query, divided by the best candidate's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

DOCUMENT_WEIGHTS: Mapping[str, float] = {
    "vector": 0.25,
    "bm25": 0.20,
    "coverage": 0.15,
    "title": 0.18,
    "concept": 0.15,
    "wordnet": 0.07,
    "passage": 0.60,
    "length": 0.13,
}
CHUNK_WEIGHTS: Mapping[str, float] = {
    "vector": 0.30,
    "bm25": 0.25,
    "coverage": 0.10,
    "title": 0.10,
    "concept": 0.08,
    "wordnet": 0.07,
}
PASSAGE_WEIGHTS: Mapping[str, float] = {
    "vector": 0.35,
    "bm25": 0.30,
    "coverage": 0.15,
    "title": 0.12,
    "concept": 0.08,
}


STUB_SHARE = 0.25
"""A document shorter than this share of the average document (in tokens) is a stub."""


def weights_for(scope: str, mode: str, *, vector: bool) -> dict[str, float]:
    """The weights in force: `text` is BM25 alone, `vector` is similarity alone, `hybrid` mixes
    (renormalised when the vector signal is unavailable). `scope` is documents, chunks, or
    passages (how a document's best passage is scored)."""
    if mode == "text":
        return {"bm25": 1.0}
    if mode == "vector":
        return {"vector": 1.0}
    base = {"documents": DOCUMENT_WEIGHTS, "chunks": CHUNK_WEIGHTS}.get(scope, PASSAGE_WEIGHTS)
    used = {k: w for k, w in base.items() if vector or k != "vector"}
    total = sum(used.values())
    return {k: w / total for k, w in used.items()}


def scale_by_max(values: Mapping[int, float]) -> dict[int, float]:
    """Divide by the largest value so the best candidate scores 1 (all zero stays zero)."""
    top = max(values.values(), default=0.0)
    return {k: (v / top if top > 0 else 0.0) for k, v in values.items()}


def fts_idf(matching: int, total: int) -> float:
    """FTS5's IDF of a word found in `matching` of `total` rows (floored at 1e-6, as FTS5 does
    for words in more than half of the rows)."""
    value = math.log((total - matching + 0.5) / (matching + 0.5)) if total > 0 else 0.0
    return value if value > 0 else 1e-6


def damped(per_unit: Sequence[Mapping[int, float]], idfs: Sequence[float]) -> dict[int, float]:
    """BM25 with the square root of each unit's IDF instead of the IDF: each unit's FTS5 BM25
    (IDF × term-frequency part) divided by √IDF, summed, then divided by the best row's sum."""
    out: dict[int, float] = {}
    for scores, idf in zip(per_unit, idfs, strict=True):
        factor = 1.0 / math.sqrt(idf)
        for rowid, value in scores.items():
            out[rowid] = out.get(rowid, 0.0) + value * factor
    return scale_by_max(out)


def coverage(per_unit: Sequence[Mapping[int, float]]) -> dict[int, float]:
    """The share of units each row matches (rows matching none are left out)."""
    out: dict[int, float] = {}
    if not per_unit:
        return out
    share = 1.0 / len(per_unit)
    for scores in per_unit:
        for rowid in scores:
            out[rowid] = out.get(rowid, 0.0) + share
    return out


def length_share(length: int, average: float) -> float:
    """The `length` signal: 1 for a document of at least `STUB_SHARE` of the average length,
    else the share of that it reaches (1 when the average is unknown)."""
    floor = STUB_SHARE * average
    return min(1.0, length / floor) if floor > 0 else 1.0


def combine(signals: Mapping[str, float], weights: Mapping[str, float]) -> dict[str, float]:
    """Each signal's contribution (weight × value) and, when the `series` factor applies, what
    it takes off their sum (≤ 0); the score is the sum of them all."""
    out = {name: weight * signals.get(name, 0.0) for name, weight in weights.items()}
    if "series" in signals:
        out["series"] = (signals["series"] - 1.0) * sum(out.values())
    return out
