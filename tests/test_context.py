"""`CatDoc.context`: the bounded neighbourhood of an object, in both directions."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.graph import build_trace_graph, object_context
from catdoc.model import Category, Config, DocObject, Functor, Morphism
from catdoc.project import Project
from catdoc.service import CatDoc

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "traceability"
NAMES = [f"o{i}" for i in range(8)]


def _project(edges: list[tuple[int, int]], mapped: dict[int, int]) -> Project:
    """Objects o0…o7 in category a with the given morphisms, and a copy of each in category b
    reached through a functor (`mapped`: index in a → index in b)."""
    cat_a = Category(
        id="a",
        objects=[DocObject(id=n) for n in NAMES],
        morphisms=[
            Morphism(id=f"m{k}", name="uses", source=NAMES[s], target=NAMES[t])
            for k, (s, t) in enumerate(edges)
        ],
    )
    cat_b = Category(id="b", objects=[DocObject(id=f"b-{n}", title=f"B {n}") for n in NAMES])
    functor = Functor(
        id="f",
        source_category="a",
        target_category="b",
        object_mapping={NAMES[s]: f"b-{NAMES[t]}" for s, t in mapped.items()},
    )
    return Project(root=Path("."), config=Config(), categories=[cat_a, cat_b], functors=[functor])


indices = st.integers(min_value=0, max_value=len(NAMES) - 1)


@settings(max_examples=60, deadline=None)
@given(
    edges=st.lists(st.tuples(indices, indices), max_size=20),
    mapped=st.dictionaries(indices, indices, max_size=8),
    start=indices,
    depth=st.integers(min_value=1, max_value=5),
    limit=st.integers(min_value=1, max_value=20),
)
def test_context_is_the_breadth_first_neighbourhood(
    edges: list[tuple[int, int]], mapped: dict[int, int], start: int, depth: int, limit: int
) -> None:
    project = _project(edges, mapped)
    graph = build_trace_graph(project)
    result = object_context(project, graph, NAMES[start], depth=depth, limit=limit)
    expected = nx.single_source_shortest_path_length(
        graph.to_undirected(as_view=True), NAMES[start], cutoff=depth
    )
    del expected[NAMES[start]]
    reached = {node.id: node.distance for node in result.nodes}
    assert len(reached) == len(result.nodes) <= limit
    assert result.truncated is (len(expected) > limit)
    if not result.truncated:
        assert reached == expected
    assert [n.distance for n in result.nodes] == sorted(n.distance for n in result.nodes)
    for node in result.nodes:
        assert reached.get(node.from_id, 0) == node.distance - 1
        assert node.via, node
        for hop in node.via:
            ends = {hop.source, hop.target}
            assert ends == {node.from_id, node.id}
            assert (hop.source == node.from_id) is (hop.direction == "outgoing")


def test_example_requirement_reaches_its_tests() -> None:
    svc = CatDoc(EXAMPLE)
    result = svc.context("req-checkout", 4)
    by_id = {node.id: node for node in result.nodes}
    assert by_id["impl-checkout-handler"].distance == 3
    assert by_id["test-checkout-unit"].distance == 4
    assert by_id["test-checkout-unit"].via[0].id == "unit-test"
    assert by_id["test-checkout-unit"].category == "tests"
    receipt = by_id["req-receipt"]  # depends on checkout: reached against the arrow
    assert receipt.via[0].direction == "incoming" and receipt.distance == 1


def test_service_checks_its_arguments() -> None:
    svc = CatDoc(EXAMPLE)
    for kwargs in ({"depth": 0}, {"depth": 6}, {"depth": 1, "limit": 0}):
        with pytest.raises(CatDocError) as caught:
            svc.context("req-checkout", **kwargs)  # type: ignore[arg-type]
        assert caught.value.code == VALIDATION_ERROR
    with pytest.raises(CatDocError) as caught:
        svc.context("req-checkot")
    assert caught.value.code == NOT_FOUND and "req-checkout" in caught.value.suggestions
