"""NetworkX views of a project: tracing paths between objects, and graph export.

Tracing runs on a *collapsed* DiGraph (one edge per ordered pair of objects, carrying every
parallel morphism and functor hop), so Yen's k-shortest-simple-paths works on the small graph and
parallel morphisms are expanded only as far as the limit needs. Nothing enumerates all paths.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import networkx as nx

from catdoc import results as r
from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.model import Functor, Morphism
from catdoc.project import Project
from catdoc.visible import UNSEEN, visible

GRAPH_FORMATS = ("json", "dot", "mermaid")

Hop = tuple[str, str, str]
"""(kind, id, label) of one way to go along a collapsed edge."""


def build_trace_graph(project: Project, *, via_functors: bool = True) -> nx.DiGraph:
    """Objects as nodes; an edge u → v lists every non-identity morphism u → v (file order),
    then, with `via_functors`, every functor mapping u to v. Dangling morphisms are left out
    (the validator reports them)."""
    objects = project.object_by_id
    edges: dict[tuple[str, str], list[Hop]] = {}
    morphism_ids = project.morphism_by_id
    for cat in project.categories:
        for mor in cat.morphisms:
            hop = _morphism_hop(mor, objects, morphism_ids)
            if hop is not None:
                edges.setdefault((mor.source, mor.target), []).append(hop)
    for _n, fun in _traced_functors(project, via_functors):
        for obj, image in fun.object_mapping.items():
            if _crosses(obj, image, objects):
                edges.setdefault((obj, image), []).append(("functor", fun.id, fun.label))
    graph = nx.DiGraph()
    graph.add_nodes_from(objects)
    graph.add_edges_from((u, v, {"hops": hops}) for (u, v), hops in edges.items())
    return graph


def _crosses(u: str, v: str, objects: Mapping[str, object]) -> bool:
    """Whether a hop u → v belongs to the trace graph: between two objects, not a loop."""
    return u != v and u in objects and v in objects


def _morphism_hop(
    mor: Morphism, objects: Mapping[str, object], morphism_ids: Mapping[str, Morphism]
) -> Hop | None:
    """The hop a morphism makes in the trace graph; None for an identity, a loop, a dangling
    morphism or a later copy of a duplicated id."""
    if mor.is_identity or not _crosses(mor.source, mor.target, objects):
        return None
    return ("morphism", mor.id, mor.label) if morphism_ids.get(mor.id) is mor else None


def _traced_functors(project: Project, via_functors: bool) -> list[tuple[int, Functor]]:
    """The functors whose mappings are hops (the first of a duplicated id), with their index."""
    if not via_functors:
        return []
    first = project.functor_by_id
    return [(n, fun) for n, fun in enumerate(project.functors) if first.get(fun.id) is fun]


BALL_SHARE = 4
"""A bounded trace builds the graph within its depth of the source alone while that part holds
at most 1/BALL_SHARE of the objects; past that, the whole graph (built once) costs no more."""


Rank = tuple[int, int, int]
"""A hop's place in `build_trace_graph`'s insertion order: morphisms (0, file order, 0) before
functor hops (1, functor, position in its object mapping)."""


class HopIndex:
    """The trace graph's hops by their start (and, when asked, their end) object, with their
    place in `build_trace_graph`'s insertion order. A trace or an impact walk needs only the
    objects within its depth of where it starts; building that part, in the same order, costs a
    fraction of the whole graph on a large project (the whole one takes seconds at 100,000
    objects) and finds the same paths."""

    def __init__(self, project: Project, *, via_functors: bool = True) -> None:
        objects = project.object_by_id
        self._objects = objects
        self._order = {ident: n for n, ident in enumerate(objects)}
        self._morphism_ids = project.morphism_by_id
        self._out: dict[str, list[tuple[int, Morphism]]] = {}
        rank = 0
        for cat in project.categories:  # only gathered: the walk filters what it reaches
            for mor in cat.morphisms:
                rank += 1
                self._out.setdefault(mor.source, []).append((rank, mor))
        self._in: dict[str, list[tuple[int, Morphism]]] | None = None
        self._functors = _traced_functors(project, via_functors)
        self._positions: dict[int, dict[str, int]] = {}
        self._preimages: dict[int, dict[str, list[str]]] = {}

    def _functor_rank(self, n: int, fun: Functor, u: str) -> Rank:
        positions = self._positions.get(n)
        if positions is None:
            positions = self._positions[n] = {k: i for i, k in enumerate(fun.object_mapping)}
        return (1, n, positions[u])

    def _from(self, u: str) -> Iterator[tuple[Rank, str, str, Hop]]:
        """Every hop out of `u`, as (rank, u, v, hop)."""
        for rank, mor in self._out.get(u, ()):
            hop = _morphism_hop(mor, self._objects, self._morphism_ids)
            if hop is not None:
                yield (0, rank, 0), u, mor.target, hop
        for n, fun in self._functors:
            v = fun.object_mapping.get(u)
            if v is not None and _crosses(u, v, self._objects):
                yield self._functor_rank(n, fun, u), u, v, ("functor", fun.id, fun.label)

    def _into(self, v: str) -> Iterator[tuple[Rank, str, str, Hop]]:
        """Every hop into `v`, as (rank, u, v, hop)."""
        if self._in is None:
            self._in = {}
            for entries in self._out.values():
                for rank, mor in entries:
                    self._in.setdefault(mor.target, []).append((rank, mor))
        for rank, mor in self._in.get(v, ()):
            hop = _morphism_hop(mor, self._objects, self._morphism_ids)
            if hop is not None:
                yield (0, rank, 0), mor.source, v, hop
        for n, fun in self._functors:
            preimages = self._preimages.get(n)
            if preimages is None:
                preimages = self._preimages[n] = {}
                for key, image in fun.object_mapping.items():
                    preimages.setdefault(image, []).append(key)
            for u in preimages.get(v, ()):
                if _crosses(u, v, self._objects):
                    yield self._functor_rank(n, fun, u), u, v, ("functor", fun.id, fun.label)

    def near(
        self,
        sources: Sequence[str],
        depth: int | None,
        *,
        direction: str = "down",
        max_objects: int | None = None,
    ) -> nx.DiGraph | None:
        """The graph of the objects within `depth` hops (None: any number) of `sources`, along
        the hops (`down`), against them (`up`) or both ways, nodes and edges in the whole graph's
        order; None when it would hold more than `max_objects` (by default 1/BALL_SHARE of all
        objects), which is not worth building alone."""
        walks = {"down": (self._from,), "up": (self._into,), "both": (self._from, self._into)}
        steps = walks[direction]
        reached = {s for s in sources if s in self._objects}
        frontier = sorted(reached, key=self._order.__getitem__)
        found: dict[Rank, tuple[str, str, Hop]] = {}
        bound = len(self._objects) // BALL_SHARE if max_objects is None else max_objects
        level = 0
        while frontier and (depth is None or level < depth):
            level += 1
            ahead: list[str] = []
            for node in frontier:
                for step in steps:
                    for rank, u, v, hop in step(node):
                        found[rank] = (u, v, hop)
                        other = v if u == node else u
                        if other not in reached:
                            reached.add(other)
                            ahead.append(other)
            if len(reached) > bound:
                return None
            frontier = ahead
        edges: dict[tuple[str, str], list[Hop]] = {}
        for rank in sorted(found):
            u, v, hop = found[rank]
            edges.setdefault((u, v), []).append(hop)
        graph = nx.DiGraph()
        graph.add_nodes_from(sorted(reached, key=self._order.__getitem__))
        graph.add_edges_from((u, v, {"hops": hops}) for (u, v), hops in edges.items())
        return graph


def trace_paths(
    project: Project,
    source: str,
    target: str,
    *,
    max_depth: int,
    limit: int,
    via_functors: bool,
    graph: nx.DiGraph | None = None,
) -> r.TraceResult:
    """Up to `limit` paths of at most `max_depth` hops from `source` to `target`, shortest first.

    Order is deterministic: by length, then in the order Yen's algorithm finds the object
    sequences on a graph built in file order, then parallel hops in file order. A path from an
    object to itself is the identity (length 0). `graph` is a prebuilt `build_trace_graph`
    (the service caches one per project).
    """
    if graph is None:
        graph = build_trace_graph(project, via_functors=via_functors)
    paths: list[r.TracePath] = []
    truncated = False
    for path in _hop_paths(graph, source, target, max_depth):
        if len(paths) == limit:
            truncated = True
            break
        paths.append(path)
    return r.TraceResult(
        source=source,
        target=target,
        found=bool(paths),
        paths=paths,
        truncated=truncated,
        message=None if paths else _no_path(project, source, target, max_depth, via_functors),
    )


def _no_path(project: Project, source: str, target: str, max_depth: int, via_functors: bool) -> str:
    """What every face says when a trace finds no path. Between objects of two categories that no
    chain of functors leads from one to the other no depth would find one, since a reference
    across them is kept as a `related` link, not a morphism: it says so, whether `source` does
    reference `target`, and what to try (trace the other way when functors lead that way, else
    `catdoc validate --suggest`, which proposes the functor mappings such references imply)."""
    homes = project.category_of_object
    home, away = homes.get(source), homes.get(target)
    within = f"No path from {source} to {target} within {max_depth} hop{'s' * (max_depth != 1)}."
    if home is None or away is None or home == away:
        return within
    leads = _functors_lead(project, home, away)
    if leads and via_functors:
        return within
    back = not leads and _functors_lead(project, away, home)
    why = (
        "this trace does not follow functors"
        if leads
        else f"functors lead only the other way, from {away} to {home}"
        if back
        else f"no functor leads from {home} to {away}"
    )
    said = [
        f"No path from {source} to {target}: {source} is in category {home} and {target} in "
        f"{away}, and {why}; a path leaves its category only along a functor."
    ]
    related = project.object_by_id[source].metadata.get("related")
    if isinstance(related, list) and target in related:
        said.append(
            f"{source} does reference {target} (its metadata.related): a reference across "
            "categories is kept as a related link, not a morphism."
        )
    if back:
        said.append(f"A trace from {target} to {source} follows them.")
    elif not leads:
        said.append(
            "`catdoc validate --suggest` proposes the functor mappings that references "
            "between the two categories imply."
        )
    return " ".join(said)


def _functors_lead(project: Project, home: str, away: str) -> bool:
    """Whether a chain of functors leads from category `home` to category `away`."""
    functors = _traced_functors(project, True)
    categories = nx.DiGraph((fun.source_category, fun.target_category) for _n, fun in functors)
    return home in categories and away in categories and nx.has_path(categories, home, away)


def _hop_paths(
    graph: nx.DiGraph, source: str, target: str, max_depth: int
) -> Iterator[r.TracePath]:
    """Lazily: node sequences by increasing length, each expanded into its hop combinations."""
    if source not in graph or target not in graph:
        return
    try:
        for nodes in nx.shortest_simple_paths(graph, source, target):
            if len(nodes) - 1 > max_depth:
                return
            pairs = list(itertools.pairwise(nodes))
            choices = [graph.adj[u][v]["hops"] for u, v in pairs]
            for combo in itertools.product(*choices):
                hops = [
                    r.TraceHop(kind=kind, id=ident, label=label, source=u, target=v)
                    for (u, v), (kind, ident, label) in zip(pairs, combo, strict=True)
                ]
                yield r.TracePath(length=len(hops), nodes=list(nodes), hops=hops)
    except nx.NetworkXNoPath:
        return


MAX_CONTEXT_HOPS = 10
"""Hops listed per reached object (parallel morphisms between the same two objects)."""


def object_context(
    project: Project, graph: nx.DiGraph, object_id: str, *, depth: int, limit: int
) -> r.ContextResult:
    """The objects within `depth` hops of `object_id` along the trace graph's edges, followed in
    both directions (what it depends on, what depends on it, what it maps to and from), nearest
    first. A breadth-first walk that stops at `limit` objects (`truncated` then says so), so a
    dense neighbourhood costs at most `limit` objects' worth of work."""
    distance = {object_id: 0}
    frontier = [object_id]
    nodes: list[r.ContextNode] = []
    truncated = False
    for step in range(1, depth + 1):
        reached: list[str] = []
        for u in frontier:
            for v in itertools.chain(graph.successors(u), graph.predecessors(u)):
                if v in distance:
                    continue
                if len(nodes) == limit:
                    truncated = True
                    break
                distance[v] = step
                reached.append(v)
                nodes.append(_context_node(project, graph, u, v, step))
            if truncated:
                break
        if truncated or not reached:
            break
        frontier = reached
    obj = project.object_by_id[object_id]
    return r.ContextResult(
        id=object_id,
        title=obj.label,
        category=project.category_of_object.get(object_id),
        depth=depth,
        nodes=nodes,
        truncated=truncated,
    )


def _context_node(project: Project, graph: nx.DiGraph, u: str, v: str, step: int) -> r.ContextNode:
    """`v`, reached from `u`: every hop between the two, each with its direction seen from `u`."""
    hops: list[r.ContextHop] = []
    for a, b, direction in ((u, v, "outgoing"), (v, u, "incoming")):
        if graph.has_edge(a, b):
            hops += [
                r.ContextHop(kind=kind, id=i, label=label, source=a, target=b, direction=direction)
                for kind, i, label in graph.adj[a][b]["hops"]
            ]
    obj = project.object_by_id[v]
    return r.ContextNode(
        id=v,
        title=obj.label,
        category=project.category_of_object.get(v),
        distance=step,
        from_id=u,
        via=hops[:MAX_CONTEXT_HOPS],
    )


def graph_data(project: Project, *, category: str | None = None) -> r.GraphData:
    """Objects as nodes and morphisms as edges (REQ-MCP-012); for the whole project, functor hops
    (object ↦ F(object)) are edges too. Identity markers and dangling morphisms are left out."""
    objects = project.object_by_id
    cat_of = project.category_of_object
    cats = [project.category_by_id[category]] if category else project.categories
    nodes: list[r.GraphNode] = []
    edges: list[r.GraphEdge] = []
    for cat in cats:
        for obj in cat.objects:
            if objects.get(obj.id) is not obj:
                continue
            meta: dict[str, Any] = {**obj.metadata, "category": cat.id}
            for key in ("domain", "path", "tags"):
                value = getattr(obj, key)
                if value:
                    meta[key] = value
            nodes.append(r.GraphNode(id=obj.id, label=obj.label, type="object", metadata=meta))
        for mor in cat.morphisms:
            if mor.is_identity or cat_of.get(mor.source) != cat.id:
                continue
            if cat_of.get(mor.target) != cat.id or project.morphism_by_id.get(mor.id) is not mor:
                continue
            edges.append(
                r.GraphEdge(id=mor.id, source=mor.source, target=mor.target, label=mor.label)
            )
    if category is None:
        for fun in project.functors:
            for obj_id, image in fun.object_mapping.items():
                if obj_id in objects and image in objects:
                    edges.append(
                        r.GraphEdge(
                            id=f"{fun.id}:{obj_id}",
                            source=obj_id,
                            target=image,
                            label=fun.label,
                            type="functor",
                        )
                    )
    return r.GraphData(nodes=nodes, edges=edges)


def render_graph(data: r.GraphData, fmt: str) -> str:
    """The graph as `json` (the GraphData shape), `dot` (Graphviz) or `mermaid` (flowchart)."""
    if fmt == "json":
        return data.model_dump_json(by_alias=True, indent=2) + "\n"
    if fmt == "dot":
        return _dot(data)
    if fmt == "mermaid":
        return _mermaid(data)
    raise CatDocError(
        VALIDATION_ERROR,
        f"Unknown graph format {fmt!r}.",
        f"Use one of: {', '.join(GRAPH_FORMATS)}.",
    )


def _clusters(data: r.GraphData) -> dict[str, list[r.GraphNode]]:
    clusters: dict[str, list[r.GraphNode]] = {}
    for node in data.nodes:
        clusters.setdefault(str(node.metadata.get("category", "")), []).append(node)
    return clusters


def _dot_str(text: str) -> str:
    """A DOT double-quoted label: control characters shown as `\\x1b` (never sent raw to a
    terminal or to Graphviz), backslashes and quotes escaped, line breaks kept as \\n. Made to
    read well, not to be told apart: ids go through `_dot_id`."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    escaped = visible(lines, lines=True).replace("\t", " ")
    escaped = escaped.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n") + '"'


_DOT_ID_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _dot_id_char(match: re.Match[str]) -> str:
    char = match.group()
    known = _DOT_ID_ESCAPES.get(char)
    if known is not None:
        return known
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


_DOT_ID_SPECIAL = re.compile('[\\\\"\x00-\x1f\x7f-\x9f' + UNSEEN + "]")
"""What `_dot_id` writes as an escape: backslash, quote, and what `visible` escapes."""


def _dot_id(text: str) -> str:
    """A DOT double-quoted id that tells every id apart: each backslash, quote and control
    character becomes its own escape (`\\\\`, `\\"`, `\\n`, `\\r`, `\\t`, `\\x1b`, `\\u202e`),
    every other character stays. DOT reads `\\"` as a quote and keeps every other character
    of a quoted string as written, so distinct ids stay distinct nodes in Graphviz (a CR is not
    a newline, a tab not a space, an ESC not the text `\\x1b`), and no control character is
    written raw."""
    return '"' + _DOT_ID_SPECIAL.sub(_dot_id_char, text) + '"'


def _dot(data: r.GraphData) -> str:
    lines = [
        "digraph catdoc {",
        "  rankdir=LR;",
        '  node [shape=box, style=rounded, fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    for cat, nodes in _clusters(data).items():
        lines.append(f"  subgraph {_dot_id('cluster_' + cat)} {{")
        lines.append(f"    label={_dot_str(cat)};")
        for node in nodes:
            lines.append(f"    {_dot_id(node.id)} [label={_dot_str(node.label)}];")
        lines.append("  }")
    for edge in data.edges:
        # A morphism's id is unique, and goes into the SVG Graphviz draws; a functor hop's
        # `F:a` may equal another edge's, so it is left out rather than written twice.
        extra = ", style=dashed" if edge.type == "functor" else f", id={_dot_id(edge.id)}"
        lines.append(
            f"  {_dot_id(edge.source)} -> {_dot_id(edge.target)} "
            f"[label={_dot_str(edge.label)}{extra}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_text(text: str) -> str:
    """Text for a quoted Mermaid label: one line, control characters shown as `\\x1b`, entity
    codes for the characters Mermaid would parse (a backtick would start a Markdown label)."""
    text = visible(" ".join(text.splitlines()))
    for char, code in (("#", "#35;"), ('"', "#quot;"), ("<", "#lt;"), (">", "#gt;")):
        text = text.replace(char, code)
    return text.replace("|", "#124;").replace("`", "#96;")


def _mermaid(data: r.GraphData) -> str:
    """Mermaid ids are restricted, so nodes become n0, n1, … and the real id goes in the label
    only when it differs from the title."""
    names = {node.id: f"n{i}" for i, node in enumerate(data.nodes)}
    lines = ["flowchart LR"]
    for index, (cat, nodes) in enumerate(_clusters(data).items()):
        lines.append(f'  subgraph c{index}["{_mermaid_text(cat)}"]')
        for node in nodes:
            label = node.label if node.label == node.id else f"{node.label} ({node.id})"
            lines.append(f'    {names[node.id]}["{_mermaid_text(label)}"]')
        lines.append("  end")
    for edge in data.edges:
        if edge.source not in names or edge.target not in names:
            continue
        arrow = "-.->" if edge.type == "functor" else "-->"
        lines.append(
            f'  {names[edge.source]} {arrow}|"{_mermaid_text(edge.label)}"| {names[edge.target]}'
        )
    return "\n".join(lines) + "\n"


__all__ = [
    "GRAPH_FORMATS",
    "HopIndex",
    "build_trace_graph",
    "graph_data",
    "render_graph",
    "trace_paths",
]
