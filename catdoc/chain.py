"""An object's chain: what it derives from (up to its requirements) and what derives from it
(down to its tests), read off two impact walks (`catdoc.impact`), grouped by category in layer
order, each entry marked when the link that reaches it needs a review (`catdoc.suspects`).

The layer order puts a functor's source category before its target (requirements before
specifications before tests): a topological order of the categories under the functors, ties
broken by the model's order, and a cycle of functors broken at its first category in the model.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping

from catdoc.chain_results import ChainEntry, ChainGroup, ChainMark, ChainResult
from catdoc.change_results import ImpactedObject, ImpactHop, ImpactPath, ImpactResult
from catdoc.fingerprints import fingerprints_for
from catdoc.project import Project
from catdoc.review_links import LinkRef
from catdoc.reviews import read_reviews
from catdoc.suspects import LinkStatus, ObjectPrints, compare


def layer_order(project: Project) -> list[str]:
    """Category ids, each functor's source before its target where the functors allow it."""
    ids = [c.id for c in project.categories]
    index = {cid: i for i, cid in enumerate(ids)}
    after: dict[str, set[str]] = {cid: set() for cid in ids}
    waiting = dict.fromkeys(ids, 0)
    for fun in project.functors:
        source, target = fun.source_category, fun.target_category
        if source in index and target in index and target not in after[source] | {source}:
            after[source].add(target)
            waiting[target] += 1
    ready = [index[cid] for cid in ids if waiting[cid] == 0]
    heapq.heapify(ready)
    order: list[str] = []
    placed: set[str] = set()
    while len(order) < len(ids):
        if not ready:  # only cycles are left: the first of them in the model goes next
            heapq.heappush(ready, next(index[c] for c in ids if c not in placed))
        cid = ids[heapq.heappop(ready)]
        if cid in placed:
            continue
        placed.add(cid)
        order.append(cid)
        for target in after[cid]:
            waiting[target] -= 1
            if waiting[target] == 0 and target not in placed:
                heapq.heappush(ready, index[target])
    return order


def _link_ref(hop: ImpactHop) -> LinkRef:
    if hop.kind == "morphism":
        return LinkRef("morphism", hop.id)
    return LinkRef("object mapping", hop.id, hop.source)


def hop_link(hop: ImpactHop) -> str:
    """The review key of the link a hop walks: a morphism, or a functor's object mapping entry
    (a hop runs from the link's source end to its target end, whichever way it was walked)."""
    return _link_ref(hop).key


def link_reviews(project: Project, hops: Iterable[ImpactHop]) -> tuple[bool, dict[str, LinkStatus]]:
    """(reviews are on, the links of `hops` that need a review, by key), judged as
    `catdoc suspects` judges them but for these links alone: a chain at 10,000 objects
    fingerprints the documents on its paths, not every document. A broken reviews.yaml raises
    the CatDocError `read_reviews` gives."""
    book = read_reviews(project.root)
    if book is None:
        return False, {}
    prints = ObjectPrints(project.object_by_id.get, fingerprints_for(project.root))
    out: dict[str, LinkStatus] = {}
    judged: set[str] = set()
    for hop in hops:
        key = hop_link(hop)
        if key in judged:
            continue
        judged.add(key)
        ref = _link_ref(hop)
        ends = ((hop.source,), (hop.target,))
        stamp = book.stamp(key) if key in book.signatures else None
        if stamp is None:
            out[key] = LinkStatus(ref, "unreviewed", ends)
        elif changed := compare(ends, stamp, prints):
            out[key] = LinkStatus(ref, "changed", ends, stamp, changed)
    return True, out


def build_chain(
    project: Project,
    object_id: str,
    up: ImpactResult,
    down: ImpactResult,
    suspects: Mapping[str, LinkStatus],
    *,
    reviews: bool,
    per_group: int | None = None,
) -> ChainResult:
    """The chain of `object_id` from its walks up and down; at most `per_group` entries per
    category (None: all), the object itself always kept."""
    obj = project.object_by_id[object_id]
    home = project.category_of_object.get(object_id, "")
    start = ChainEntry(
        id=object_id,
        title=obj.label,
        category=home,
        direction="start",
        distance=0,
        path=ImpactPath(length=0, nodes=[object_id], hops=[]),
    )
    above: dict[str, list[ChainEntry]] = {}
    below: dict[str, list[ChainEntry]] = {}
    marked = 0
    for result, into in ((up, above), (down, below)):
        direction = "up" if into is above else "down"
        for group in result.groups:
            entries = into.setdefault(group.category, [])
            for reached in group.objects:
                entry = _entry(reached, direction, suspects)
                marked += entry.suspect is not None
                entries.append(entry)
    layers = {cid: i for i, cid in enumerate(layer_order(project))}
    shown = sorted({*above, *below, home}, key=lambda c: (layers.get(c, len(layers)), c))
    groups = []
    for cid in shown:
        entries = [*reversed(above.get(cid, []))]
        entries += [start] if cid == home else []
        entries += below.get(cid, [])
        kept = entries if per_group is None else _keep(entries, start, per_group)
        category = project.category_by_id.get(cid)
        groups.append(
            ChainGroup(
                category=cid,
                name=category.label if category else cid,
                layer=layers.get(cid, len(layers)),
                count=len(entries),
                entries=kept,
                truncated=len(entries) - len(kept),
            )
        )
    return ChainResult(
        object=object_id,
        title=obj.label,
        category=home,
        depth=up.depth,
        up=up.total,
        down=down.total,
        reviews=reviews,
        suspects=marked,
        groups=groups,
        message=_message(object_id, up.total, down.total, reviews, marked),
    )


def _entry(
    reached: ImpactedObject, direction: str, suspects: Mapping[str, LinkStatus]
) -> ChainEntry:
    mark = None
    if reached.path.hops:
        status = suspects.get(hop_link(reached.path.hops[-1]))
        if status is not None:
            mark = ChainMark(key=status.ref.key, status=status.state, reason=status.reason())
    return ChainEntry(
        id=reached.id,
        title=reached.title,
        category=reached.category,
        direction="up" if direction == "up" else "down",
        distance=reached.distance,
        path=reached.path,
        suspect=mark,
    )


def _keep(entries: list[ChainEntry], start: ChainEntry, limit: int) -> list[ChainEntry]:
    """The `limit` entries nearest the object, in their order, and the object itself."""
    others = sorted((e.distance, i) for i, e in enumerate(entries) if e is not start)
    kept = {i for _, i in others[:limit]}
    return [e for i, e in enumerate(entries) if i in kept or e is start]


def _message(object_id: str, up: int, down: int, reviews: bool, marked: int) -> str:
    if not up and not down:
        return f"Nothing links to or from {object_id}: no morphism or functor mapping touches it."
    text = f"{up:,} object(s) above {object_id}, {down:,} below."
    if not reviews:
        return text + " Reviews are off: `catdoc review --all` turns suspect links on."
    if marked:
        return text + f" {marked:,} reached through a link that needs a review (⚠)."
    return text + " Every link on the way is reviewed and current."


__all__ = ["build_chain", "hop_link", "layer_order", "link_reviews"]
