"""The service's cluster operations: the project's documents grouped into communities of the
document graph (see `catdoc.clusters`), computed on first use and kept until the model, the
documents' concepts or the stored document vectors change."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from dataclasses import dataclass, field
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from catdoc import clusters as cl
from catdoc import results as r
from catdoc.clusters import Clustering, Link
from catdoc.errors import CatDocError, not_found
from catdoc.paging import check_page
from catdoc.service_base import ServiceBase

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path

    from catdoc.project import Project


CACHE_FILE = "clusters.json"
"""Communities of the last graph clustered, in `.catdoc/cache/`: a new process (the CLI, a
restarted server) finds them there instead of running Louvain again on an unchanged graph."""
LIST_HINT = "List the clusters with `catdoc clusters` (MCP: catdoc_list_clusters)."


@dataclass
class _Cache:
    """The clustering of one model, with what it was computed from (per `CatDoc.derived`)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    key: tuple[Any, ...] | None = None
    concepts: Any = None
    value: Clustering | None = None
    listing: r.ClusterList | None = None


class ClusterOperations(ServiceBase):
    """Clusters of related documents (mixed into `CatDoc`)."""

    # ------------------------------------------------------------------ reads
    def clusters(self) -> r.ClusterList:
        """Every cluster of the project's documents, largest first."""
        self._clustering()
        listing = self.derived("clusters", lambda _p: _Cache()).listing
        assert listing is not None
        return listing

    def cluster(self, cluster_id: str) -> r.Cluster:
        """One cluster with all its members; unknown ids are NOT_FOUND with close ids."""
        clustering = self._clustering()
        try:
            return clustering.by_id[cluster_id]
        except KeyError:
            raise not_found("Cluster", cluster_id, clustering.by_id, LIST_HINT) from None

    def cluster_of(self) -> dict[str, str]:
        """object id → its cluster's id (unclustered documents are absent)."""
        return self._clustering().of

    def cluster_page(
        self,
        *,
        limit: int = 20,
        offset: int = 0,
        include_members: bool = False,
        member_limit: int = 20,
    ) -> r.ClusterPage:
        """A page of the clusters (largest first); with `include_members`, each with its first
        `member_limit` members (most linked first)."""
        check_page(limit, offset)
        if include_members:
            check_page(member_limit, 0)
        listing = self.clusters()
        items: list[r.Cluster | r.ClusterSummary] = []
        for cluster in listing.clusters[offset : offset + limit]:
            fields = {name: getattr(cluster, name) for name in r.ClusterSummary.model_fields}
            if include_members:
                items.append(
                    r.Cluster.model_construct(**fields, members=cluster.members[:member_limit])
                )
            else:
                items.append(r.ClusterSummary.model_construct(**fields))
        message = listing.message
        if not items and listing.total:
            message = f"No clusters at offset {offset}: there are {listing.total}; page from 0."
        return r.ClusterPage(
            items=items,
            total=listing.total,
            limit=limit,
            offset=offset,
            documents=listing.documents,
            unclustered=listing.unclustered,
            links=listing.links,
            message=message,
        )

    def cluster_detail(
        self, cluster_id: str, *, limit: int = 50, offset: int = 0
    ) -> r.ClusterDetail:
        """A cluster with one page of its members (title, category, link weight inside it)."""
        check_page(limit, offset)
        cluster = self.cluster(cluster_id)
        project = self.project()
        strength = self._clustering().strength
        members = [
            r.ClusterMember(
                id=m,
                title=project.object_by_id[m].label,
                category=project.category_of_object.get(m, ""),
                links=strength.get(m, 0.0),
            )
            for m in cluster.members[offset : offset + limit]
        ]
        fields = {name: getattr(cluster, name) for name in r.ClusterSummary.model_fields}
        return r.ClusterDetail(**fields, members=members, member_limit=limit, member_offset=offset)

    def clusters_now(self) -> tuple[dict[str, str], Callable[[str], r.Cluster]]:
        """(`cluster_of()`, `cluster`) of one clustering, computed now if need be. Asking for
        the two apart could meet two clusterings (the stored vectors changed in between, as a
        background worker stores them), and a hit's cluster id then named no cluster."""
        value = self._clustering()
        return value.of, value.by_id.__getitem__

    def ready_clusters(self) -> tuple[dict[str, str], Callable[[str], r.Cluster]] | None:
        """(`cluster_of()`, `cluster`) when the current clustering is at hand; otherwise None,
        and it is computed on a background thread (one at a time), so a search that only
        decorates its hits with clusters never waits seconds for Louvain."""
        project = self.project()
        cache = self.derived("clusters", lambda _p: _Cache())
        concepts, vectors = self._concepts(), self._vector_stamp(project)
        if cache.value is not None and cache.concepts is concepts and cache.key == vectors:
            value = cache.value
            return value.of, value.by_id.__getitem__
        if not cache.lock.locked():
            threading.Thread(
                target=self._clustering_quietly, name="catdoc-clusters", daemon=True
            ).start()
        return None

    def _clustering_quietly(self) -> None:
        """`_clustering` for a background thread: a failure shows on the next direct use."""
        with contextlib.suppress(Exception):
            self._clustering()

    # ------------------------------------------------------------------ computing
    def _clustering(self) -> Clustering:
        """The current clustering: recomputed only when the model, the concepts (a new
        `document_concepts()` answer) or the stored document vectors changed."""
        project = self.project()
        cache = self.derived("clusters", lambda _p: _Cache())
        concepts = self._concepts()
        vectors = self._vector_stamp(project)
        with cache.lock:
            if cache.value is not None and cache.concepts is concepts and cache.key == vectors:
                return cache.value
            titles = {oid: obj.label for oid, obj in project.object_by_id.items()}
            usable = cl.usable_concepts(concepts, titles)
            links = [*model_links(project), *cl.concept_links(usable)]
            if vectors is not None:
                links += self._vector_links(project)
            graph = cl.document_graph(titles, links)
            found = stored_communities(project.root, graph)
            labels = self._concept_labels(project) if usable else {}
            value = cl.describe(graph, found, titles, project.category_of_object, usable, labels)
            cache.value, cache.concepts, cache.key = value, concepts, vectors
            cache.listing = _listing(value)
            return value

    def _concepts(self) -> Mapping[str, Mapping[str, float]]:
        """object id → {concept key: weight}: the same mapping object until the index changes
        (empty without documents, so an empty project builds no index)."""
        if not self.project().object_by_id:
            return {}
        return self.document_concepts()

    def _concept_labels(self, project: Project) -> dict[str, str]:
        """concept key → its label (the form the documents use most), for cluster names."""
        from catdoc.search import concept_store

        labels = self.search_engine().read(project, lambda index, _s: concept_store.labels(index))
        return {key: label for key, (label, _docs) in labels.items()}

    def _vector_stamp(self, project: Project) -> tuple[int, int] | None:
        """(index generation, document vectors stored), or None when none can be read (numpy
        missing, no index yet, no vector stored). Vectors are only read, never computed."""
        from catdoc.project_files import cache_dir
        from catdoc.search import semantic
        from catdoc.search.engine import INDEX_FILE

        if find_spec("numpy") is None or not (cache_dir(project.root) / INDEX_FILE).exists():
            return None
        engine = self.search_engine()
        count = engine.read(
            project, lambda index, _sync: len(index.vector_rowids("doc", semantic.MODEL_ID))
        )
        return (engine.generation, count) if count else None

    def _vector_links(self, project: Project) -> list[Link]:
        from catdoc.search import semantic

        def read(index: Any, _sync: Any) -> tuple[list[str], Any]:
            ids = {known.rowid: ident for ident, known in index.known().items()}
            matrix = semantic.from_blobs(index.vectors("doc", semantic.MODEL_ID))
            keep = [i for i, rowid in enumerate(matrix.rowids.tolist()) if rowid in ids]
            return [ids[int(matrix.rowids[i])] for i in keep], matrix.vectors[keep]

        ids, vectors = self.search_engine().read(project, read)
        return cl.vector_links(ids, vectors)


def model_links(project: Project) -> list[Link]:
    """The links the model declares: morphisms (identities left out), objects'
    `metadata.related`, and functors' object mappings.

    A category's own `related` names other categories, not documents: its document-level
    evidence is the objects' `metadata.related`, used here; joining every pair of documents of
    two related categories would be quadratic and would only redraw the categories."""
    links = [
        Link(mor.source, mor.target, "morphisms")
        for cat in project.categories
        for mor in cat.morphisms
        if not mor.is_identity
    ]
    for obj in project.object_by_id.values():
        related = obj.metadata.get("related")
        if isinstance(related, list):
            links += [
                Link(obj.id, t, "references") for t in dict.fromkeys(related) if isinstance(t, str)
            ]
    pairs = {
        (a, b)
        for fun in project.functors
        for a, b in fun.object_mapping.items()
        if isinstance(b, str)
    }
    links += [Link(a, b, "functors") for a, b in sorted(pairs)]
    return links


def stored_communities(root: Path, graph: cl.DocumentGraph) -> list[list[str]]:
    """The graph's communities, from the cache file when it holds those of an equal graph;
    else computed and stored there (a cache that cannot be read or written is only skipped)."""
    from catdoc.project_files import cache_dir

    try:
        path = cache_dir(root) / CACHE_FILE
    except CatDocError:
        return cl.communities(graph)
    key = graph.fingerprint()
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        if stored.get("graph") == key and isinstance(stored.get("communities"), list):
            return stored["communities"]
    except (OSError, ValueError, AttributeError):
        pass
    found = cl.communities(graph)
    temporary = path.with_name(f".{CACHE_FILE}.{os.getpid()}.tmp")
    try:
        temporary.write_text(json.dumps({"graph": key, "communities": found}), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
    return found


def _listing(clustering: Clustering) -> r.ClusterList:
    total = len(clustering.clusters)
    message = None
    if not clustering.documents:
        message = (
            "The project has no documents, so there are no clusters: import some with "
            "`catdoc import PATH`."
        )
    elif not total:
        message = (
            f"None of the {clustering.documents} documents is linked to another (by a "
            "morphism, a reference, a functor mapping, shared concepts or similar vectors), so "
            "there are no clusters. Declare morphisms, import with --link, or add tags."
        )
    return r.ClusterList.model_construct(
        clusters=clustering.clusters,
        total=total,
        documents=clustering.documents,
        unclustered=clustering.unclustered,
        links=clustering.links,
        message=message,
    )
