"""What a page of search hits carries beyond its ranking: each document's card (its `summary`),
the passage's number within its document, with `include_content` the text itself, and with
clusters the document's cluster.

Cards and texts are read from the index's tables for the page's rows only (at most one page,
≤ 200 rows), in one query per table: cheap next to the ranking, so every hit carries its card by
default. Clusters come from the service (computed once per model, then a dictionary look-up).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

HIT_CONTENT_CHARS = 5_000
"""Where a document hit's `content` is cut: enough to judge and quote it; catdoc_show_object
reads the whole document."""

if TYPE_CHECKING:
    from catdoc.results import Cluster, SearchHit
    from catdoc.search.index import SearchIndex


def attach(
    index: SearchIndex,
    hits: Sequence[SearchHit],
    docs: Sequence[int],
    chunks: Sequence[int] | None,
    *,
    include_content: bool,
) -> None:
    """Fill in each hit's card, and with `include_content` its text: `docs` are the hits'
    document rowids, `chunks` (passage searches) their passage rowids, in the hits' order."""
    if not hits:
        return
    cards = _column(index, "SELECT rowid, summary FROM docs WHERE rowid IN ({})", docs)
    for hit, doc in zip(hits, docs, strict=True):
        hit.summary = cards.get(doc) or None
    if not include_content:
        return
    if chunks is None:
        texts = _column(index, "SELECT rowid, body FROM docs_fts WHERE rowid IN ({})", docs)
        for hit, doc in zip(hits, docs, strict=True):
            text = texts.get(doc) or ""
            hit.content = text[:HIT_CONTENT_CHARS]
            hit.content_length = len(text)
            hit.truncated = len(text) > HIT_CONTENT_CHARS
    else:
        texts = _column(index, "SELECT rowid, body FROM chunks_fts WHERE rowid IN ({})", chunks)
        for hit, chunk in zip(hits, chunks, strict=True):
            hit.content = texts.get(chunk) or ""
            hit.content_length = len(hit.content)


def attach_clusters(
    hits: Sequence[SearchHit], cluster_of: Mapping[str, str], cluster: Callable[[str], Cluster]
) -> None:
    """Each hit's cluster id and name (`cluster_of`: object id → cluster id)."""
    for hit in hits:
        hit.cluster_id = cluster_of.get(hit.id)
        hit.cluster_name = cluster(hit.cluster_id).name if hit.cluster_id else None


def _column(index: SearchIndex, sql: str, rowids: Sequence[int]) -> dict[int, str | None]:
    unique = list(dict.fromkeys(rowids))
    rows = index.conn.execute(sql.format(", ".join("?" * len(unique))), unique)
    return dict(rows.fetchall())
