"""Tracing: k shortest paths, labelled hops, deterministic order, bounded on dense graphs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.graph import build_trace_graph, trace_paths
from catdoc.model import Category, Config, DocObject, Functor, Morphism
from catdoc.project import Project
from catdoc.service import CatDoc

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"


def _project(categories: list[Category], functors: list[Functor] | None = None) -> Project:
    return Project(root=Path("."), config=Config(), categories=categories, functors=functors or [])


def _chain_with_parallel() -> Project:
    """a → b (two parallel morphisms) → c, plus a direct a → c, and a loop c → a."""
    cat = Category(
        id="c",
        objects=[DocObject(id=x) for x in "abc"],
        morphisms=[
            Morphism(id="ab1", name="uses", source="a", target="b"),
            Morphism(id="ab2", name="refines", source="a", target="b"),
            Morphism(id="bc", name="uses", source="b", target="c"),
            Morphism(id="ac", name="depends-on", source="a", target="c"),
            Morphism(id="ca", name="back", source="c", target="a"),
            Morphism(id="id-b", source="b", target="b", metadata={"isIdentity": True}),
        ],
    )
    return _project([cat])


def _trace(project: Project, source: str, target: str, **kw: object):
    args = {"max_depth": 8, "limit": 10, "via_functors": True, **kw}
    return trace_paths(project, source, target, **args)  # type: ignore[arg-type]


def test_shortest_first_with_parallel_morphisms_expanded() -> None:
    result = _trace(_chain_with_parallel(), "a", "c")
    assert result.found and not result.truncated
    assert [[h.id for h in p.hops] for p in result.paths] == [["ac"], ["ab1", "bc"], ["ab2", "bc"]]
    assert [p.length for p in result.paths] == [1, 2, 2]
    assert result.paths[1].nodes == ["a", "b", "c"]
    hop = result.paths[1].hops[0]
    assert (hop.kind, hop.label, hop.source, hop.target) == ("morphism", "uses", "a", "b")


def test_limit_truncates_and_says_so() -> None:
    result = _trace(_chain_with_parallel(), "a", "c", limit=2)
    assert len(result.paths) == 2 and result.truncated


def test_max_depth_bounds_path_length() -> None:
    result = _trace(_chain_with_parallel(), "a", "c", max_depth=1)
    assert [p.length for p in result.paths] == [1] and not result.truncated


def test_no_path_is_found_false_with_empty_list() -> None:
    result = _trace(_chain_with_parallel(), "c", "b", max_depth=1)
    assert not result.found and result.paths == [] and not result.truncated
    data = result.model_dump(by_alias=True)
    assert data["found"] is False and data["paths"] == []
    assert data["message"] == "No path from c to b within 1 hop."
    assert _trace(_chain_with_parallel(), "a", "c").message is None


def _categories(functors: list[Functor]) -> Project:
    """Three categories: guide (quickstart cites keywords, kept as `related`), reference
    (keywords), and api (an object no functor maps)."""
    guide = Category(
        id="guide",
        objects=[
            DocObject(id="quickstart", metadata={"related": ["keywords"]}),
            DocObject(id="install"),
        ],
    )
    reference = Category(id="reference", objects=[DocObject(id="keywords")])
    api = Category(id="api", objects=[DocObject(id="client")])
    return _project([guide, reference, api], functors)


def _functor(ident: str, source: str, target: str, mapping: dict[str, str]) -> Functor:
    return Functor(id=ident, source_category=source, target_category=target, object_mapping=mapping)


def test_no_path_between_categories_no_functor_connects_says_why_and_what_to_try() -> None:
    """setuptools' docs: quickstart cites keywords, another category's document, and the
    trace found nothing "within 8 hops", as if a deeper one might: no depth would."""
    project = _categories([])
    message = _trace(project, "quickstart", "keywords").message
    assert message == (
        "No path from quickstart to keywords: quickstart is in category guide and keywords in "
        "reference, and no functor leads from guide to reference; a path leaves its category "
        "only along a functor. quickstart does reference keywords (its metadata.related): a "
        "reference across categories is kept as a related link, not a morphism. `catdoc "
        "validate --suggest` proposes the functor mappings that references between the two "
        "categories imply."
    )
    plain = _trace(project, "install", "keywords", via_functors=False).message
    assert plain is not None and "no functor leads from guide to reference" in plain
    assert "does reference" not in plain and "catdoc validate --suggest" in plain


def test_no_path_along_functors_that_lead_elsewhere_says_what_to_try() -> None:
    """A chain of functors (guide → api → reference) that does not map the object leaves the
    depth-bound answer; functors not followed, or leading the other way, are named."""
    chain = [
        _functor("G", "guide", "api", {"install": "client"}),
        _functor("A", "api", "reference", {}),
    ]
    project = _categories(chain)
    assert _trace(project, "install", "keywords").message == (
        "No path from install to keywords within 8 hops."
    )
    unfollowed = _trace(project, "install", "client", via_functors=False).message
    assert unfollowed is not None and "this trace does not follow functors" in unfollowed
    assert "catdoc validate" not in unfollowed
    assert _trace(project, "keywords", "quickstart").message == (
        "No path from keywords to quickstart: keywords is in category reference and quickstart "
        "in guide, and functors lead only the other way, from guide to reference; a path leaves "
        "its category only along a functor. A trace from quickstart to keywords follows them."
    )


def test_same_object_is_the_identity_path() -> None:
    result = _trace(_chain_with_parallel(), "b", "b")
    assert result.found and result.paths[0].length == 0 and result.paths[0].nodes == ["b"]


def test_order_is_deterministic() -> None:
    project = _chain_with_parallel()
    first = _trace(project, "a", "c").model_dump()
    for _ in range(3):
        assert _trace(_chain_with_parallel(), "a", "c").model_dump() == first


def test_functor_hops_are_labelled_and_optional() -> None:
    left = Category(
        id="L",
        objects=[DocObject(id="r1"), DocObject(id="r2")],
        morphisms=[Morphism(id="m", name="needs", source="r1", target="r2")],
    )
    right = Category(id="R", objects=[DocObject(id="s1"), DocObject(id="s2")])
    fun = Functor(
        id="F",
        name="L → R",
        source_category="L",
        target_category="R",
        object_mapping={"r1": "s1", "r2": "s2"},
    )
    project = _project([left, right], [fun])
    result = _trace(project, "r1", "s2")
    assert [(h.kind, h.id, h.label) for h in result.paths[0].hops] == [
        ("morphism", "m", "needs"),
        ("functor", "F", "L → R"),
    ]
    assert not _trace(project, "r1", "s2", via_functors=False).found


def _complete(n: int) -> Project:
    ids = [f"o{i}" for i in range(n)]
    morphisms = [
        Morphism(id=f"m{i}-{j}", source=a, target=b)
        for i, a in enumerate(ids)
        for j, b in enumerate(ids)
        if i != j
    ]
    return _project([Category(id="k", objects=[DocObject(id=x) for x in ids], morphisms=morphisms)])


def _counting_simple_paths(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the node sequences the trace pulls from Yen's algorithm (the bounded work)."""
    pulled = [0]
    original = nx.shortest_simple_paths

    def counted(*args: object, **kwargs: object) -> Iterator[list[str]]:
        for nodes in original(*args, **kwargs):
            pulled[0] += 1
            yield nodes

    monkeypatch.setattr(nx, "shortest_simple_paths", counted)
    return pulled


def test_dense_complete_graph_stops_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    project = _complete(300)
    graph = build_trace_graph(project)
    pulled = _counting_simple_paths(monkeypatch)
    result = trace_paths(
        project, "o0", "o299", max_depth=50, limit=200, via_functors=True, graph=graph
    )
    assert len(result.paths) == 200 and result.truncated
    assert [p.length for p in result.paths[:2]] == [1, 2]
    assert pulled[0] == 201, "no more object sequences than the limit (plus one to see more)"


def test_cycles_terminate_and_paths_are_simple(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 60
    ids = [f"c{i}" for i in range(n)]
    morphisms = [Morphism(id=f"next{i}", source=ids[i], target=ids[(i + 1) % n]) for i in range(n)]
    morphisms += [Morphism(id=f"skip{i}", source=ids[i], target=ids[(i + 2) % n]) for i in range(n)]
    project = _project(
        [Category(id="ring", objects=[DocObject(id=x) for x in ids], morphisms=morphisms)]
    )
    pulled = _counting_simple_paths(monkeypatch)
    result = _trace(project, "c0", "c59", max_depth=50, limit=200)
    assert pulled[0] <= 201
    assert result.found and len(result.paths) == 200
    lengths = [p.length for p in result.paths]
    assert lengths == sorted(lengths)
    assert all(len(set(p.nodes)) == len(p.nodes) for p in result.paths)


def test_service_validates_arguments_and_ids() -> None:
    doc = CatDoc(EXAMPLE)
    with pytest.raises(CatDocError) as caught:
        doc.trace("req-chekout", "test-checkout-e2e")
    assert caught.value.code == NOT_FOUND and "req-checkout" in caught.value.suggestions
    for kwargs in ({"max_depth": 0}, {"limit": 0}, {"limit": 201}):
        with pytest.raises(CatDocError) as caught:
            doc.trace("req-checkout", "test-checkout-e2e", **kwargs)  # type: ignore[arg-type]
        assert caught.value.code == VALIDATION_ERROR


def test_example_traces_requirement_to_test() -> None:
    doc = CatDoc(EXAMPLE)
    result = doc.trace("req-checkout", "test-checkout-e2e", limit=3)
    assert result.found and result.truncated
    first = result.paths[0]
    assert [h.id for h in first.hops] == ["specify", "architect", "implement", "end-to-end"]
    assert not doc.trace("req-checkout", "test-checkout-e2e", via_functors=False).found
