"""A bounded trace builds only the objects within its depth of the source (`HopIndex.near`); on
any graph it must find exactly the paths, in exactly the order, of the whole trace graph."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.graph import HopIndex, build_trace_graph, trace_paths
from catdoc.impact import impact
from catdoc.model import Category, Config, DocObject, Functor, Morphism
from catdoc.project import Project

NAMES = [f"o{i}" for i in range(9)]


@st.composite
def projects(draw: st.DrawFn) -> Project:
    """Two categories over random objects, random (also dangling, duplicate, looping and
    identity) morphisms, and a functor between them with a random partial object mapping."""
    left = draw(st.lists(st.sampled_from(NAMES[:5]), min_size=1, max_size=5, unique=True))
    right = draw(st.lists(st.sampled_from(NAMES[5:]), min_size=1, max_size=4, unique=True))
    ends = st.sampled_from([*NAMES, "ghost"])
    raw = draw(st.lists(st.tuples(ends, ends, st.booleans(), st.integers(0, 6)), max_size=24))
    morphisms: tuple[list[Morphism], list[Morphism]] = ([], [])
    for n, (source, target, identity, name) in enumerate(raw):
        mor = Morphism(
            id=f"m{name if n % 5 == 0 else n}",  # some ids repeat: later copies are dropped
            source=source,
            target=target,
            metadata={"isIdentity": True} if identity and source == target else {},
        )
        morphisms[n % 2].append(mor)
    mapping = draw(st.dictionaries(st.sampled_from(left), st.sampled_from([*right, "ghost"])))
    back = draw(st.dictionaries(st.sampled_from(right), st.sampled_from(left)))
    return Project(
        root=Path("."),
        config=Config(),
        categories=[
            Category(id="l", objects=[DocObject(id=x) for x in left], morphisms=morphisms[0]),
            Category(id="r", objects=[DocObject(id=x) for x in right], morphisms=morphisms[1]),
        ],
        functors=[
            Functor(id="f", source_category="l", target_category="r", object_mapping=mapping),
            Functor(id="g", source_category="r", target_category="l", object_mapping=back),
        ],
    )


@settings(max_examples=150, deadline=None)
@given(
    project=projects(),
    ends=st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES)),
    depth=st.integers(1, 6),
    limit=st.integers(1, 12),
    via_functors=st.booleans(),
)
def test_near_graph_traces_like_the_whole_graph(
    project: Project, ends: tuple[str, str], depth: int, limit: int, via_functors: bool
) -> None:
    source, target = ends
    if source not in project.object_by_id or target not in project.object_by_id:
        return
    whole = build_trace_graph(project, via_functors=via_functors)
    near = HopIndex(project, via_functors=via_functors).near(
        [source], depth, max_objects=len(NAMES)
    )
    assert near is not None
    args = {"max_depth": depth, "limit": limit, "via_functors": via_functors}
    expected = trace_paths(project, source, target, graph=whole, **args)  # type: ignore[arg-type]
    actual = trace_paths(project, source, target, graph=near, **args)  # type: ignore[arg-type]
    assert actual == expected


@settings(max_examples=150, deadline=None)
@given(
    project=projects(),
    starts=st.lists(st.sampled_from(NAMES), min_size=1, max_size=3),
    depth=st.none() | st.integers(1, 5),
    direction=st.sampled_from(["down", "up", "both"]),
)
def test_near_graph_walks_like_the_whole_graph(
    project: Project, starts: list[str], depth: int | None, direction: str
) -> None:
    """Impact's walk (successors, predecessors or both, in graph order) over the part of the
    graph `near` builds reaches the same objects by the same first hops."""
    starts = [s for s in dict.fromkeys(starts) if s in project.object_by_id]
    whole = build_trace_graph(project)
    near = HopIndex(project).near(starts, depth, direction=direction, max_objects=len(NAMES))
    assert near is not None
    args = {"direction": direction, "depth": depth}
    assert impact(project, near, starts, **args) == impact(project, whole, starts, **args)  # type: ignore[arg-type]


def test_near_stops_at_the_depth_and_at_its_share() -> None:
    chain = Category(
        id="c",
        objects=[DocObject(id=x) for x in "abcdefgh"],
        morphisms=[Morphism(id=f"{u}{v}", source=u, target=v) for u, v in ("ab", "bc", "cd")],
    )
    index = HopIndex(Project(root=Path("."), config=Config(), categories=[chain]))
    near = index.near(["b"], 1)
    assert near is not None and list(near.nodes) == ["b", "c"]
    assert index.near(["a"], 2) is None  # 3 of 8 objects: more than a quarter, whole graph instead
