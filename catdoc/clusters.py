"""Clusters: communities of the document graph, so a library can be browsed by theme.

The graph's nodes are documents (objects); its weighted edges come from five signals:

- `morphisms`: each declared morphism (identities left out) adds 1 to its pair;
- `references`: an object's `metadata.related` (cross-category references the importer keeps)
  adds 1 per pair;
- `functors`: an object mapped to another by a functor (traceability) adds 1 per pair;
- `concepts`: documents sharing concepts that are not too common, by the cosine of their
  IDF-weighted concept vectors, each document linked to its few nearest only;
- `vectors`: the nearest neighbours by stored document vectors (semantic extra), when given.

Communities come from networkx's Louvain method with a fixed seed on a graph built in sorted
order, so the same input gives the same clusters. A document with no link to another forms no
cluster (it counts as unclustered). A cluster's id is `cl-` followed by the id of its most
linked member (link weight inside the cluster, ties to the smaller id): unlike a hash of all its
members, it survives edits elsewhere in the library and most joins and departures of other
members, and it tells a reader where the cluster is centred.

This module is pure: plain data in, `catdoc.results` models out.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from catdoc import results as r

if TYPE_CHECKING:
    import networkx as nx

SIGNALS = ("morphisms", "references", "functors", "concepts", "vectors")
SEED = 7
"""Louvain's seed: fixed, so clusters do not change between runs."""
ID_PREFIX = "cl-"
MIN_SIZE = 2
"""A community smaller than this is no cluster: its documents count as unclustered."""
COMMON_SHARE = 0.03
"""Concepts held by more than this share of the documents link nobody (too common to say that
two documents belong together); but a concept held by up to `COMMON_FLOOR` documents always
may, so small libraries still link."""
COMMON_FLOOR = 3
PAIR_BUDGET = 1_500_000
"""Most (document, document) pairs visited through shared concepts: concepts are taken rarest
first until their pairs fill it, so the cost stays linear in the library's size."""
CONCEPT_NEIGHBOURS = 5
"""Each document is linked to at most this many others by shared concepts (the most similar)."""
MIN_CONCEPT_SIMILARITY = 0.1
VECTOR_NEIGHBOURS = 5
MIN_VECTOR_SIMILARITY = 0.5
"""Cosine below which two document vectors are not counted as a link."""
VECTOR_BLOCK = 1024
"""Rows of the similarity matrix computed at once (memory: block × documents floats)."""
TOP_CONCEPTS = 5
NAME_PARTS = 3
_WORD = re.compile(r"[^\W\d_][\w'-]*[^\W_]")
MIN_WORD = 3
_STOP = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "how", "in",
        "into", "is", "it", "its", "of", "on", "or", "the", "to", "was", "what", "when", "where",
        "which", "with", "without", "about", "after", "before", "between", "over", "under",
        "this", "that", "these", "those",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Link:
    """An undirected, weighted relation between two documents, from one signal."""

    a: str
    b: str
    signal: str
    weight: float = 1.0


@dataclass
class Clustering:
    """Every cluster (largest first), each document's cluster, and the graph's link counts."""

    clusters: list[r.Cluster]
    documents: int
    links: dict[str, int]
    by_id: dict[str, r.Cluster] = field(init=False)
    of: dict[str, str] = field(init=False)
    strength: dict[str, float] = field(default_factory=dict)
    """member → its link weight inside its cluster."""

    def __post_init__(self) -> None:
        self.by_id = {c.id: c for c in self.clusters}
        self.of = {m: c.id for c in self.clusters for m in c.members}

    @property
    def unclustered(self) -> int:
        return self.documents - len(self.of)


@dataclass
class DocumentGraph:
    """The linked documents as a graph whose nodes are positions in `names` (sorted ids):
    integers make Louvain a good deal faster than strings do."""

    graph: nx.Graph
    names: list[str]
    links: dict[str, int]
    """Distinct linked pairs per signal."""

    def fingerprint(self) -> str:
        """A hash of the documents and weighted links: equal graphs, equal communities."""
        digest = hashlib.sha256(f"{SEED}\n".encode())
        digest.update("\n".join(self.names).encode())
        for a, b, w in self.graph.edges(data="weight"):
            digest.update(f"\n{a} {b} {w:.6f}".encode())
        return digest.hexdigest()


def cluster_documents(
    titles: Mapping[str, str],
    categories: Mapping[str, str],
    links: Iterable[Link],
    concepts: Mapping[str, Mapping[str, float]] | None = None,
) -> Clustering:
    """The clusters of the documents `titles` names (object id → title), from explicit `links`
    and, when given, each document's concepts (object id → {concept: weight})."""
    concepts = usable_concepts(concepts or {}, titles)
    graph = document_graph(titles, [*links, *concept_links(concepts)])
    return describe(graph, communities(graph), titles, categories, concepts)


def usable_concepts(
    concepts: Mapping[str, Mapping[str, float]], titles: Mapping[str, str]
) -> dict[str, Mapping[str, float]]:
    """The concepts of the documents in `titles` that have any."""
    return {d: held for d, held in concepts.items() if d in titles and held}


def describe(
    graph: DocumentGraph,
    found: Iterable[Sequence[str]],
    titles: Mapping[str, str],
    categories: Mapping[str, str],
    concepts: Mapping[str, Mapping[str, float]],
    labels: Mapping[str, str] | None = None,
) -> Clustering:
    """Clusters from communities: members by link weight inside, id, name, top concepts
    (shown by their `labels`, concept key → label, where given)."""
    position = {name: i for i, name in enumerate(graph.names)}
    adjacency = graph.graph.adj
    df = _document_frequency(concepts)
    clusters, strength = [], {}
    for members in found:
        if len(members) < MIN_SIZE:
            continue
        inside = {position[m] for m in members}
        inner, degree = {}, {}
        for m in members:
            edges = adjacency[position[m]]
            degree[m] = sum(d["weight"] for d in edges.values())
            inner[m] = sum(d["weight"] for n, d in edges.items() if n in inside)
        ordered = sorted(members, key=lambda m: (-inner[m], -degree[m], m))
        strength.update((m, round(inner[m], 4)) for m in ordered)
        top = top_concepts(ordered, concepts, df, len(concepts))
        if labels:
            top = list(dict.fromkeys(labels.get(key, key) for key in top))
        per_category = Counter(categories.get(m, "") for m in ordered)
        clusters.append(
            r.Cluster(
                id=ID_PREFIX + ordered[0],
                name=", ".join(top[:NAME_PARTS]) or title_words(ordered, titles),
                size=len(ordered),
                top_concepts=top,
                central=ordered[0],
                categories=dict(sorted(per_category.items(), key=lambda kv: (-kv[1], kv[0]))),
                members=ordered,
            )
        )
    clusters.sort(key=lambda c: (-c.size, c.id))
    return Clustering(clusters, len(titles), graph.links, strength)


def document_graph(documents: Iterable[str], links: Iterable[Link]) -> DocumentGraph:
    """The undirected graph of the linked documents (isolated ones left out), built in sorted
    order so that Louvain's seeded walk sees the same graph for the same input."""
    known = set(documents)
    weights: dict[tuple[str, str], float] = defaultdict(float)
    pairs: dict[str, set[tuple[str, str]]] = {signal: set() for signal in SIGNALS}
    for link in links:
        if link.a == link.b or link.a not in known or link.b not in known or link.weight <= 0:
            continue
        pair = (link.a, link.b) if link.a < link.b else (link.b, link.a)
        weights[pair] += link.weight
        pairs.setdefault(link.signal, set()).add(pair)
    names = sorted({d for pair in weights for d in pair})
    position = {name: i for i, name in enumerate(names)}
    import networkx as nx  # on first use: a one-shot command that never clusters skips it

    graph = nx.Graph()
    graph.add_nodes_from(range(len(names)))
    graph.add_weighted_edges_from(
        (position[a], position[b], w) for (a, b), w in sorted(weights.items())
    )
    return DocumentGraph(graph, names, {signal: len(found) for signal, found in pairs.items()})


def communities(graph: DocumentGraph) -> list[list[str]]:
    """Louvain communities (modularity, resolution 1, fixed seed), each as sorted ids."""
    if graph.graph.number_of_edges() == 0:
        return []
    import networkx as nx

    found = nx.community.louvain_communities(graph.graph, weight="weight", seed=SEED)
    return sorted(sorted(graph.names[i] for i in members) for members in found)


def concept_links(concepts: Mapping[str, Mapping[str, float]]) -> list[Link]:
    """Each document linked to its `CONCEPT_NEIGHBOURS` most similar ones by shared concepts.

    Similarity is the cosine of IDF-weighted concept vectors. Only concepts held by at least two
    and at most a few percent of the documents carry links, rarest first until `PAIR_BUDGET`
    pairs are visited: a concept most documents hold would link everything to everything."""
    n = len(concepts)
    if n < 2:
        return []
    df = _document_frequency(concepts)
    idf = {c: math.log(n / k) for c, k in df.items()}
    vectors = {
        d: {c: w * idf[c] for c, w in held.items() if w > 0 and idf[c] > 0}
        for d, held in concepts.items()
    }
    norm = {d: math.sqrt(sum(v * v for v in vec.values())) for d, vec in vectors.items()}
    common = max(COMMON_FLOOR, int(n * COMMON_SHARE))
    postings: dict[str, list[tuple[str, float]]] = {}
    spent = 0
    for concept in sorted((c for c, k in df.items() if 2 <= k <= common), key=lambda c: (df[c], c)):
        spent += df[concept] * df[concept]
        if spent > PAIR_BUDGET:
            break
        postings[concept] = []
    for d in sorted(vectors):
        for c, v in vectors[d].items():
            if c in postings:
                postings[c].append((d, v))
    out: list[Link] = []
    for d in sorted(vectors):
        scores: dict[str, float] = defaultdict(float)
        for c, v in vectors[d].items():
            for other, w in postings.get(c, ()):
                if other != d:
                    scores[other] += v * w
        ranked = sorted(
            ((s / (norm[d] * norm[o]), o) for o, s in scores.items()), key=lambda x: (-x[0], x[1])
        )
        out += [
            Link(d, o, "concepts", round(sim, 6))
            for sim, o in ranked[:CONCEPT_NEIGHBOURS]
            if sim >= MIN_CONCEPT_SIMILARITY
        ]
    return _undirected(out)


def vector_links(ids: Sequence[str], vectors: Any) -> list[Link]:
    """Each document linked to its `VECTOR_NEIGHBOURS` nearest by cosine (rows of `vectors`, a
    numpy array of unit vectors, belong to `ids`), when at least `MIN_VECTOR_SIMILARITY`."""
    import numpy as np

    n = len(ids)
    if n < 2:
        return []
    k = min(VECTOR_NEIGHBOURS, n - 1)
    matrix = np.asarray(vectors, dtype=np.float32)
    out: list[Link] = []
    for start in range(0, n, VECTOR_BLOCK):
        block = matrix[start : start + VECTOR_BLOCK] @ matrix.T
        rows = np.arange(len(block))
        block[rows, rows + start] = -np.inf
        nearest = np.argpartition(-block, k - 1, axis=1)[:, :k]
        for row, columns in enumerate(nearest):
            for column in sorted(columns.tolist()):
                sim = float(block[row, column])
                if sim >= MIN_VECTOR_SIMILARITY:
                    out.append(Link(ids[start + row], ids[column], "vectors", round(sim, 6)))
    return _undirected(out)


def top_concepts(
    members: Sequence[str],
    concepts: Mapping[str, Mapping[str, float]],
    df: Mapping[str, int],
    n: int,
) -> list[str]:
    """The concepts that characterise the members: their summed weight times IDF, preferring
    concepts more than one member holds."""
    total: dict[str, float] = defaultdict(float)
    holders: Counter[str] = Counter()
    for m in members:
        for c, w in concepts.get(m, {}).items():
            total[c] += w
            holders[c] += 1
    shared = len(members) > 1 and any(k > 1 for k in holders.values())
    scored = [
        (-(total[c] * math.log(1 + n / df[c])), c) for c in total if not shared or holders[c] > 1
    ]
    return [c for _, c in sorted(scored)[:TOP_CONCEPTS]]


def title_words(members: Sequence[str], titles: Mapping[str, str]) -> str:
    """A name from the words most member titles share, the central members' words first among
    equals (the central member's title when no word is shared)."""
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for m in members:
        words = [w.casefold() for w in _WORD.findall(titles.get(m, "")) if len(w) >= MIN_WORD]
        for w in dict.fromkeys(words):
            if w not in _STOP:
                counts[w] += 1
                first.setdefault(w, len(first))
    common = sorted((-k, first[w], w) for w, k in counts.items() if k > 1)
    if common:
        return ", ".join(w for _, _, w in common[:NAME_PARTS])
    return titles.get(members[0], "") or members[0]


def _document_frequency(concepts: Mapping[str, Mapping[str, float]]) -> dict[str, int]:
    df: Counter[str] = Counter()
    for held in concepts.values():
        df.update(held.keys())
    return dict(df)


def _undirected(links: list[Link]) -> list[Link]:
    """One link per pair (the strongest of its two directions), in sorted order."""
    best: dict[tuple[str, str], Link] = {}
    for link in links:
        pair = (link.a, link.b) if link.a < link.b else (link.b, link.a)
        if pair not in best or link.weight > best[pair].weight:
            best[pair] = Link(*pair, link.signal, link.weight)
    return [best[pair] for pair in sorted(best)]
