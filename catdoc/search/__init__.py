"""Full-text and hybrid search over a project's documents.

`run_search` is what `CatDoc.search` calls: the service composes the search from its parts (the
engine, the model, the lookups the filters need, the clusters), and nothing here reaches up to
it. The index lives in `.catdoc/cache/search.sqlite3`, is brought up to date incrementally before
each query, and is rebuilt if it is damaged or stale.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from catdoc.progress import Progress, no_progress
from catdoc.search.hit_details import attach_clusters

if TYPE_CHECKING:
    from catdoc.project import Project
    from catdoc.results import Cluster, SearchFilters, SearchResponse
    from catdoc.search.engine import SearchEngine
    from catdoc.search.filters import FilterLookups

Clusters = tuple[Mapping[str, str], Callable[[str], "Cluster"]]
"""(object id → its cluster's id, cluster id → the cluster): what decorates hits."""


def run_search(
    engine: SearchEngine,
    project: Callable[[], Project],
    lookups: FilterLookups,
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
    clusters: Callable[[], Clusters | None] | None = None,
) -> SearchResponse:
    """Ranked documents or chunks for `query`, filtered (AND) by `filters`. `project` gives the
    current model (called only when the index may be stale) and `lookups` resolves what the
    filters name. `vectors` is the project's `search.vectors` setting (`auto` or `off`);
    `progress` hears of the indexing and embedding the query waits for; `include_content` puts
    each hit's text in it. `clusters`, when given, is asked (only if there are hits) for the
    clusters that decorate them, and answers None while they are still being computed."""
    response = engine.search(
        project,
        lookups,
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
    if clusters is not None and response.results:
        ready = clusters()
        if ready is None:
            response.notes.append(CLUSTERS_PENDING)
        else:
            attach_clusters(response.results, *ready)
    return response


CLUSTERS_PENDING = (
    "The clusters are being computed in the background (seconds for a large library): these "
    "hits carry no cluster yet; the next searches will."
)
