"""Service results as Cytoscape.js elements. Every drawing is bounded by `MAX_NODES`: large
categories are drawn a window at a time, objects by their neighbourhood."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from catdoc import results as r
from catdoc.web.render import entity_url

MAX_NODES = 150
"""No page draws more graph nodes than this."""

LABEL_CHARS = 48
"""A graph label's longest line; a longer one is cut with … (the whole label shows on hover)."""

Element = dict[str, dict[str, Any]]


def _short(label: str) -> str:
    return "\n".join(
        line if len(line) <= LABEL_CHARS else line[: LABEL_CHARS - 1] + "…"
        for line in label.split("\n")
    )


class Drawing:
    """Nodes and edges collected once each, at most `MAX_NODES` nodes (extra ones are dropped,
    and their edges with them; `dropped` counts them). Entity ids are free text, so an object
    may be called `e:m1` and a morphism `m1`: Cytoscape, which drops a second element with one
    id, gets ids of our own (`n0`, `n1`, … and `e0`, `e1`, …; a node's `entity` is the id it
    stands for), and edges are told apart by a tuple of their parts, never by ids joined into
    one string."""

    def __init__(self) -> None:
        self.nodes: dict[str, Element] = {}
        self.edges: dict[tuple[str, ...], Element] = {}
        self.dropped = 0

    def node(self, ident: str, label: str, kind: str, *, href: str | None, role: str = "") -> bool:
        if ident in self.nodes:
            return True
        if len(self.nodes) >= MAX_NODES:
            self.dropped += 1
            return False
        data = {"id": f"n{len(self.nodes)}", "entity": ident, "label": _short(label)}
        data |= {"title": label, "kind": kind, "href": href, "role": role}
        self.nodes[ident] = {"data": data}
        return True

    def edge(self, key: tuple[str, ...], source: str, target: str, label: str, kind: str) -> None:
        """An edge between two drawn nodes, once per `key` (what names it in the model)."""
        ends = self.nodes.get(source), self.nodes.get(target)
        if ends[0] is None or ends[1] is None or key in self.edges:
            return
        data = {"id": f"e{len(self.edges)}", "source": ends[0]["data"]["id"]}
        data |= {"target": ends[1]["data"]["id"], "label": _short(label), "title": label}
        self.edges[key] = {"data": {**data, "kind": kind}}

    def elements(self) -> list[Element]:
        return [*self.nodes.values(), *self.edges.values()]


def categories_drawing(
    categories: Iterable[r.CategorySummary], functors: Iterable[r.FunctorSummary]
) -> Drawing:
    """The overview: categories as nodes, functors (and the category hierarchy) as edges."""
    drawing = Drawing()
    for cat in categories:
        label = f"{cat.name}\n{cat.object_count} object{'' if cat.object_count == 1 else 's'}"
        drawing.node(cat.id, label, "category", href=entity_url("category", cat.id))
        if cat.parent:
            drawing.edge(("parent", cat.id), cat.id, cat.parent, "parent", "parent")
    for fun in functors:
        drawing.edge(
            ("functor", fun.id), fun.source_category, fun.target_category, fun.name, "functor"
        )
    return drawing


def graph_drawing(data: r.GraphData) -> Drawing:
    """A window of a category's graph (already bounded by `CatDoc.graph_page`)."""
    drawing = Drawing()
    for node in data.nodes:
        drawing.node(node.id, node.label, "object", href=entity_url("object", node.id))
    for edge in data.edges:
        drawing.edge(
            (edge.type, edge.id, edge.source), edge.source, edge.target, edge.label, edge.type
        )
    return drawing


def neighbourhood_drawing(detail: r.ObjectDetail, title: Callable[[str], str]) -> Drawing:
    """One object, the objects its morphisms reach in and out, and its images under functors."""
    drawing = Drawing()
    drawing.node(detail.id, detail.title, "object", href=None, role="focus")
    for mor in [*detail.outgoing, *detail.incoming]:
        for end in (mor.source, mor.target):
            drawing.node(end, title(end), "object", href=entity_url("object", end))
        drawing.edge(("morphism", mor.id), mor.source, mor.target, mor.name, "morphism")
    for functor, image in detail.images.items():
        drawing.node(image, title(image), "object", href=entity_url("object", image))
        drawing.edge(("functor", functor), detail.id, image, functor, "functor")
    return drawing


def trace_drawing(result: r.TraceResult, title: Callable[[str], str]) -> Drawing:
    """The union of the paths a trace found; the two ends are marked."""
    drawing = Drawing()
    roles = {result.source: "source", result.target: "target"}
    for end in (result.source, result.target):
        drawing.node(end, title(end), "object", href=entity_url("object", end), role=roles[end])
    for path in result.paths:
        for ident in path.nodes:
            drawing.node(ident, title(ident), "object", href=entity_url("object", ident))
        for hop in path.hops:
            key = (hop.kind, hop.id, hop.source, hop.target)
            drawing.edge(key, hop.source, hop.target, hop.label, hop.kind)
    return drawing
