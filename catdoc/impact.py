"""Impact: everything a change to some objects reaches across morphisms and functor mappings —
"if this requirement changes, these specifications, designs, code and tests must be looked at".

It walks the trace graph of `catdoc.graph` (one edge per ordered pair of objects, listing every
morphism and functor mapping between them) breadth-first from the starting objects: `down`
follows edges (morphisms source → target, functors object → image), `up` goes against them,
`both` does both. Breadth-first order gives every reached object one shortest path; ties go to
the graph's order (the model's file order), so the answer is the same every time. Each object is
visited once, so the walk costs O(objects + edges) however dense the graph.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from catdoc.change_results import (
    Direction,
    ImpactedObject,
    ImpactGroup,
    ImpactHop,
    ImpactPath,
    ImpactResult,
)
from catdoc.project import Project, gc_paused

if TYPE_CHECKING:
    import networkx as nx

Step = tuple[str, tuple[str, str, str], str, str, str]
"""(next object, (kind, id, label) of the hop, hop source, hop target, along|against)."""


def _steps(graph: nx.DiGraph, direction: Direction) -> Callable[[str], Iterator[Step]]:
    """The ways out of an object in `direction`; each pair of objects once, by its first hop."""
    # The adjacency dicts themselves: networkx's read-only views cost a third of a walk.
    succ, pred = graph._succ, graph._pred

    def down(u: str) -> Iterator[Step]:
        for v, data in succ[u].items():
            yield v, data["hops"][0], u, v, "along"

    def up(u: str) -> Iterator[Step]:
        for v, data in pred[u].items():
            yield v, data["hops"][0], v, u, "against"

    def both(u: str) -> Iterator[Step]:
        yield from down(u)
        yield from up(u)

    return {"down": down, "up": up, "both": both}[direction]


def impact(
    project: Project,
    graph: nx.DiGraph,
    start: Sequence[str],
    *,
    direction: Direction = "down",
    depth: int | None = None,
    track_sources: bool = False,
) -> ImpactResult:
    """The objects reachable from `start` (ids in the graph) within `depth` hops (None: any),
    grouped by category in the model's order, nearest first inside a group. With
    `track_sources`, each object also lists which starting objects reach it within `depth`."""
    with gc_paused():  # tens of thousands of small results, no cycles among them
        return _impact(project, graph, start, direction, depth, track_sources)


def _impact(
    project: Project,
    graph: nx.DiGraph,
    start: Sequence[str],
    direction: Direction,
    depth: int | None,
    track_sources: bool,
) -> ImpactResult:
    steps = _steps(graph, direction)
    starts = list(dict.fromkeys(start))
    parent: dict[str, tuple[str, ImpactHop]] = {}
    distance = dict.fromkeys(starts, 0)
    order: list[str] = []
    frontier, level = starts, 0
    while frontier and (depth is None or level < depth):
        level += 1
        reached: list[str] = []
        for u in frontier:
            for v, (kind, ident, label), source, target, way in steps(u):
                if v in distance:
                    continue
                distance[v] = level
                hop = ImpactHop(
                    kind=kind, id=ident, label=label, source=source, target=target, direction=way
                )
                parent[v] = (u, hop)
                reached.append(v)
        order += reached
        frontier = reached
    sources = _reached_from(steps, starts, depth) if track_sources else {}
    return ImpactResult(
        start=starts,
        direction=direction,
        depth=depth,
        total=len(order),
        groups=_groups(project, order, distance, parent, sources, starts),
    )


def _groups(
    project: Project,
    order: list[str],
    distance: dict[str, int],
    parent: dict[str, tuple[str, ImpactHop]],
    sources: dict[str, int],
    starts: list[str],
) -> list[ImpactGroup]:
    """Each reached object's hops are shared by the paths through it: built once, not per path."""
    objects, category_of = project.object_by_id, project.category_of_object
    by_category: dict[str, list[ImpactedObject]] = {}
    for ident in order:
        nodes, hops = _path(ident, parent)
        category = category_of.get(ident, "")
        by_category.setdefault(category, []).append(
            ImpactedObject(
                id=ident,
                title=objects[ident].label,
                category=category,
                distance=distance[ident],
                path=ImpactPath(length=len(hops), nodes=nodes, hops=hops),
                reached_from=list(_bits(sources.get(ident, 0), starts)),
            )
        )
    ranked = [c.id for c in project.categories if c.id in by_category]
    ranked += [c for c in by_category if c not in ranked]
    return [
        ImpactGroup(
            category=cid,
            name=project.category_by_id[cid].label if cid in project.category_by_id else cid,
            count=len(by_category[cid]),
            objects=by_category[cid],
        )
        for cid in ranked
    ]


def _path(
    ident: str, parent: dict[str, tuple[str, ImpactHop]]
) -> tuple[list[str], list[ImpactHop]]:
    nodes, hops = [ident], []
    while ident in parent:
        ident, hop = parent[ident]
        nodes.append(ident)
        hops.append(hop)
    return nodes[::-1], hops[::-1]


def _reached_from(
    steps: Callable[[str], Iterator[Step]], starts: list[str], depth: int | None
) -> dict[str, int]:
    """Per object, the starting objects within `depth` hops, as a bit set (bit i: starts[i]).

    All starts walk at once: round i pushes to each neighbour the bits that are new at the
    object pushing them, so a bit reaches an object exactly at its distance from that start, and
    each object gains each bit once (work: edges × starts / machine word, not starts × walks)."""
    masks = {s: 1 << i for i, s in enumerate(starts)}
    frontier = dict(masks)
    level = 0
    while frontier and (depth is None or level < depth):
        level += 1
        pushed: dict[str, int] = {}
        for u, bits in frontier.items():
            for v, *_ in steps(u):
                have = masks.get(v, 0)
                new = bits & ~have
                if new:
                    masks[v] = have | new
                    pushed[v] = pushed.get(v, 0) | new
        frontier = pushed
    return masks


def _bits(mask: int, starts: list[str]) -> Iterable[str]:
    """The starts whose bits are set in `mask`, in order (one step per set bit)."""
    while mask:
        low = mask & -mask
        yield starts[low.bit_length() - 1]
        mask ^= low
