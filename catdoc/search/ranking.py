"""Hybrid ranking: a weighted sum of signals, each scaled to 0…1 (seed 001's scheme).

| signal | what it measures | documents | chunks |
|---|---|---|---|
| `vector` | cosine similarity of query and text embeddings (`catdoc[semantic]`) | 0.25 | 0.35 |
| `bm25` | FTS5 BM25 of the query words, divided by the best candidate's | 0.25 | 0.35 |
| `title` | share of query words in the title (chunks: title + heading path) | 0.20 | 0.10 |
| `concept` | share of query words in tags, category name/id/aliases, domain | 0.20 | 0.10 |
| `wordnet` | BM25 of the WordNet synonyms of the query words, divided by the best | 0.10 | 0.10 |

Words are compared after Porter stemming, exactly as the index stems them. Without the semantic
extra the `vector` weight is dropped and the others are scaled up to sum to 1. Synonyms only feed
`wordnet`, so a document matching the user's own words always outranks one matching synonyms.
"""

from __future__ import annotations

from collections.abc import Mapping

DOCUMENT_WEIGHTS: Mapping[str, float] = {
    "vector": 0.25,
    "bm25": 0.25,
    "title": 0.20,
    "concept": 0.20,
    "wordnet": 0.10,
}
CHUNK_WEIGHTS: Mapping[str, float] = {
    "vector": 0.35,
    "bm25": 0.35,
    "title": 0.10,
    "concept": 0.10,
    "wordnet": 0.10,
}


def weights_for(scope: str, mode: str, *, vector: bool) -> dict[str, float]:
    """The weights in force: `text` is BM25 alone, `vector` is similarity alone, `hybrid` mixes
    (renormalised when the vector signal is unavailable)."""
    if mode == "text":
        return {"bm25": 1.0}
    if mode == "vector":
        return {"vector": 1.0}
    base = DOCUMENT_WEIGHTS if scope == "documents" else CHUNK_WEIGHTS
    used = {k: w for k, w in base.items() if vector or k != "vector"}
    total = sum(used.values())
    return {k: w / total for k, w in used.items()}


def scale_by_max(values: Mapping[int, float]) -> dict[int, float]:
    """Divide by the largest value so the best candidate scores 1 (all zero stays zero)."""
    top = max(values.values(), default=0.0)
    return {k: (v / top if top > 0 else 0.0) for k, v in values.items()}


def combine(signals: Mapping[str, float], weights: Mapping[str, float]) -> dict[str, float]:
    """Each signal's contribution (weight × value); the score is their sum."""
    return {name: weight * signals.get(name, 0.0) for name, weight in weights.items()}
