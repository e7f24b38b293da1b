"""Full-text and hybrid search over a project's documents.

`run_search` is what `CatDoc.search` calls. The index lives in `.catdoc/cache/search.sqlite3`, is
brought up to date incrementally before each query, and is rebuilt if it is damaged or stale.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from catdoc.progress import Progress, no_progress
from catdoc.search.hit_details import attach_clusters

if TYPE_CHECKING:
    from catdoc.results import SearchFilters, SearchResponse
    from catdoc.service import CatDoc


def run_search(
    service: CatDoc,
    query: str,
    *,
    mode: str,
    scope: str,
    filters: SearchFilters,
    limit: int,
    offset: int,
    debug: bool,
    vectors: str = "auto",
    progress: Progress | None = None,
    include_content: bool = False,
    include_clusters: bool | None = False,
) -> SearchResponse:
    """Ranked documents or chunks for `query`, filtered (AND) by `filters`. `vectors` is the
    project's `search.vectors` setting (`auto` or `off`); `progress` hears of the indexing
    and embedding the query waits for; `include_content` puts each hit's text in it, and
    `include_clusters` its document's cluster (None: only when already computed)."""
    response = service.search_engine().search(
        service,
        query,
        mode=mode,
        scope=scope,
        filters=filters,
        limit=limit,
        offset=offset,
        debug=debug,
        vectors=vectors,
        progress=progress or no_progress,
        include_content=include_content,
    )
    if include_clusters is not False and response.results:
        ready = (
            (service.cluster_of(), service.cluster)
            if include_clusters
            else service.ready_clusters()
        )
        if ready is None:
            response.notes.append(CLUSTERS_PENDING)
        else:
            attach_clusters(response.results, *ready)
    return response


CLUSTERS_PENDING = (
    "The clusters are being computed in the background (seconds for a large library): these "
    "hits carry no cluster yet; the next searches will."
)
