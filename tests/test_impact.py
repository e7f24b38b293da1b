"""Impact: what a change to an object reaches. Checked by hand on the traceability example,
against networkx's shortest path lengths on generated graphs (hypothesis), with --changed-since
in a temporary git repository, and with hostile revisions that git must never see."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from git_project import commit_all, git, init_repo
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc import git_revisions
from catdoc.change_results import ImpactResult
from catdoc.cli import app
from catdoc.errors import GIT_ERROR, NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.graph import build_trace_graph
from catdoc.impact import impact
from catdoc.model import Category, Config, DocObject, Functor, Morphism
from catdoc.project import Project
from catdoc.service import CatDoc

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"
runner = CliRunner()


def _reached(result: ImpactResult) -> dict[str, int]:
    return {o.id: o.distance for g in result.groups for o in g.objects}


def _check_paths(result: ImpactResult) -> None:
    """Every path starts at a start, ends at its object, is as long as its distance, and each
    hop joins consecutive nodes in the direction it claims."""
    for group in result.groups:
        distances = [o.distance for o in group.objects]
        assert distances == sorted(distances), "nearest first"
        for obj in group.objects:
            path = obj.path
            assert path.nodes[0] in result.start and path.nodes[-1] == obj.id
            assert path.length == len(path.hops) == obj.distance == len(path.nodes) - 1
            for hop, u, v in zip(path.hops, path.nodes, path.nodes[1:], strict=False):
                ends = (hop.source, hop.target)
                assert ends == ((u, v) if hop.direction == "along" else (v, u))
            assert obj.category == group.category


# ------------------------------------------------------------------ the example, by hand
@pytest.fixture(scope="module")
def example() -> CatDoc:
    return CatDoc(EXAMPLE)


def test_down_from_a_requirement_reaches_its_dependencies_and_every_layer_below(
    example: CatDoc,
) -> None:
    result = example.impact("req-checkout")
    assert result.direction == "down" and result.start == ["req-checkout"]
    assert [g.category for g in result.groups] == [
        "requirements",
        "specifications",
        "design",
        "implementation",
        "tests",
    ]
    reached = _reached(result)
    # depends-on cart and payment; specify maps all three; then architect, implement, tests.
    assert reached == {
        "req-cart": 1,
        "req-payment": 1,
        "spec-checkout-api": 1,
        "spec-cart-api": 2,
        "spec-payment-api": 2,
        "design-checkout-flow": 2,
        "design-cart-service": 3,
        "design-payment-adapter": 3,
        "impl-checkout-handler": 3,
        "impl-cart-module": 4,
        "impl-payment-client": 4,
        "test-checkout-unit": 4,
        "test-checkout-e2e": 4,
        "test-cart-unit": 5,
        "test-payment-unit": 5,
    }
    assert result.total == 15
    e2e = next(o for g in result.groups for o in g.objects if o.id == "test-checkout-e2e")
    assert e2e.path.nodes == [
        "req-checkout",
        "spec-checkout-api",
        "design-checkout-flow",
        "impl-checkout-handler",
        "test-checkout-e2e",
    ]
    assert [(h.kind, h.id) for h in e2e.path.hops] == [
        ("functor", "specify"),
        ("functor", "architect"),
        ("functor", "implement"),
        ("functor", "end-to-end"),
    ]
    _check_paths(result)


def test_up_goes_against_morphisms_and_functors(example: CatDoc) -> None:
    assert _reached(example.impact("req-checkout", direction="up")) == {"req-receipt": 1}
    result = example.impact("test-checkout-e2e", direction="up", depth=2)
    reached = _reached(result)
    gates = {"test-cart-unit", "test-checkout-unit", "test-payment-unit", "test-receipt-unit"}
    modules = {"impl-cart-module", "impl-checkout-handler", "impl-payment-client"}
    modules.add("impl-receipt-mailer")
    designs = {"design-cart-service", "design-checkout-flow", "design-payment-adapter"}
    designs.add("design-receipt-worker")
    assert {k for k, d in reached.items() if d == 1} == gates | {"test-payment-contract"} | modules
    assert {k for k, d in reached.items() if d == 2} == designs
    hop = next(o for g in result.groups for o in g.objects if o.id == "test-cart-unit").path.hops[0]
    assert (hop.id, hop.source, hop.target, hop.direction) == (
        "cart-unit-gates-e2e",
        "test-cart-unit",
        "test-checkout-e2e",
        "against",
    )
    _check_paths(result)


def test_both_reaches_the_whole_connected_example(example: CatDoc) -> None:
    result = example.impact("req-checkout", direction="both")
    assert result.total == 21, "every other object of the example"
    reached = _reached(result)
    assert reached["req-receipt"] == 1 and reached["spec-receipt-email"] == 2
    payment_contract = next(
        o for g in result.groups for o in g.objects if o.id == "test-payment-contract"
    )
    assert [h.direction for h in payment_contract.path.hops] == ["along"] * 4 + ["against"]
    _check_paths(result)


def test_depth_bounds_the_answer(example: CatDoc) -> None:
    for depth in (1, 2, 3):
        reached = _reached(example.impact("req-checkout", depth=depth))
        assert reached and max(reached.values()) <= depth
        everything = _reached(example.impact("req-checkout"))
        assert reached == {k: d for k, d in everything.items() if d <= depth}


def test_answers_are_the_same_every_time(example: CatDoc) -> None:
    first = example.impact("req-checkout", direction="both").model_dump()
    again = CatDoc(EXAMPLE).impact("req-checkout", direction="both").model_dump()
    assert first == again


def test_nothing_reachable_says_so(example: CatDoc) -> None:
    result = example.impact("req-receipt", direction="up")
    assert result.total == 0 and result.groups == []
    assert result.message and "Try direction" in result.message


def test_bad_arguments_are_refused(example: CatDoc) -> None:
    with pytest.raises(CatDocError) as unknown:
        example.impact("req-checkot")
    assert unknown.value.code == NOT_FOUND and "req-checkout" in unknown.value.suggestions
    for kwargs in ({"depth": 0}, {"direction": "sideways"}, {}):
        with pytest.raises(CatDocError) as bad:
            example.impact(**({"object_id": "req-checkout"} if kwargs else {}) | kwargs)
        assert bad.value.code == VALIDATION_ERROR


# ------------------------------------------------------------------ generated graphs
def _project(n: int, edges: list[tuple[int, int]], images: dict[int, int]) -> Project:
    """Category `a` with objects a0… and the morphisms `edges`; category `b` with as many
    objects and no morphisms; a functor a → b mapping a_i to b_images[i]."""
    a = Category(
        id="a",
        objects=[DocObject(id=f"a{i}") for i in range(n)],
        morphisms=[
            Morphism(id=f"m{k}", source=f"a{u}", target=f"a{v}") for k, (u, v) in enumerate(edges)
        ],
    )
    b = Category(id="b", objects=[DocObject(id=f"b{i}") for i in range(n)])
    functor = Functor(
        id="F",
        source_category="a",
        target_category="b",
        object_mapping={f"a{i}": f"b{j}" for i, j in images.items()},
    )
    return Project(root=Path("."), config=Config(), categories=[a, b], functors=[functor])


@st.composite
def graphs(draw: Any) -> tuple[int, list[tuple[int, int]], dict[int, int]]:
    n = draw(st.integers(1, 12))
    node = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(node, node), max_size=30))
    images = draw(st.dictionaries(node, node, max_size=n))
    return n, edges, images


@settings(max_examples=60, deadline=None)
@given(
    graphs(),
    st.sampled_from(["down", "up", "both"]),
    st.none() | st.integers(1, 4),
    st.integers(0, 11),
)
def test_distances_are_shortest_and_bounded(
    spec: tuple[int, list[tuple[int, int]], dict[int, int]],
    direction: Any,
    depth: int | None,
    start_index: int,
) -> None:
    n, edges, images = spec
    project = _project(n, edges, images)
    graph = build_trace_graph(project)
    start = f"a{start_index % n}"
    result = impact(project, graph, [start], direction=direction, depth=depth)
    view = {"down": graph, "up": graph.reverse(copy=False), "both": graph.to_undirected()}
    expected = nx.single_source_shortest_path_length(view[direction], start, cutoff=depth)
    expected.pop(start)
    assert _reached(result) == expected
    assert result.total == len(expected)
    _check_paths(result)
    assert [g.category for g in result.groups] == [
        c for c in ("a", "b") if any(k.startswith(c) for k in expected)
    ]


@settings(max_examples=40, deadline=None)
@given(
    graphs(), st.lists(st.integers(0, 11), min_size=1, max_size=4), st.none() | st.integers(1, 3)
)
def test_reached_from_names_exactly_the_starts_within_depth(
    spec: tuple[int, list[tuple[int, int]], dict[int, int]],
    picks: list[int],
    depth: int | None,
) -> None:
    n, edges, images = spec
    project = _project(n, edges, images)
    graph = build_trace_graph(project)
    starts = list(dict.fromkeys(f"a{i % n}" for i in picks))
    result = impact(project, graph, starts, depth=depth, track_sources=True)
    lengths = {s: nx.single_source_shortest_path_length(graph, s, cutoff=depth) for s in starts}
    for group in result.groups:
        for obj in group.objects:
            assert obj.reached_from == [s for s in starts if obj.id in lengths[s]]
            assert obj.distance == min(lengths[s][obj.id] for s in obj.reached_from)


# ------------------------------------------------------------------ --changed-since
@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(tmp_path / "repo")


def test_changed_since_starts_from_the_changed_documents(repo: Path) -> None:
    (repo / "docs" / "r2.md").write_text("# r2\n\nNew text.\n", encoding="utf-8")
    result = CatDoc(repo).impact(changed_since="HEAD")
    assert result.changed_since == "HEAD" and result.changed_files == ["docs/r2.md"]
    assert result.start == ["r2"]
    assert _reached(result) == {"s2": 1}
    assert result.groups[0].objects[0].reached_from == ["r2"]

    (repo / "docs" / "r1.md").write_text("# r1\n\nStaged text.\n", encoding="utf-8")
    git(repo, "add", "docs/r1.md")
    result = CatDoc(repo).impact(changed_since="HEAD")
    assert result.start == ["r1", "r2"] and result.changed_files == ["docs/r1.md", "docs/r2.md"]
    assert _reached(result) == {"s1": 1, "s2": 1}
    s2 = next(o for g in result.groups for o in g.objects if o.id == "s2")
    assert s2.reached_from == ["r1", "r2"] and s2.path.nodes == ["r2", "s2"]


def test_a_document_moved_away_counts_at_its_old_path(repo: Path) -> None:
    git(repo, "mv", "docs/r2.md", "docs/moved.md")  # staged: git would see a rename
    result = CatDoc(repo).impact(changed_since="HEAD")
    assert "docs/r2.md" in result.changed_files
    assert result.start == ["r2"]  # its object's document is gone


def test_changed_since_a_commit_counts_committed_changes_and_new_files(repo: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    (repo / "docs" / "s1.md").write_text("# s1\n\nCommitted.\n", encoding="utf-8")
    commit_all(repo, "edit s1")
    (repo / "notes.txt").write_text("not a document\n", encoding="utf-8")
    result = CatDoc(repo).impact(changed_since=first, direction="up")
    assert result.changed_files == ["docs/s1.md"] and result.start == ["s1"]
    assert _reached(result) == {"r1": 1}
    assert CatDoc(repo).impact(changed_since="HEAD").message is not None


def test_changed_since_combines_with_an_object(repo: Path) -> None:
    (repo / "docs" / "s1.md").write_text("# s1\n\nEdited.\n", encoding="utf-8")
    result = CatDoc(repo).impact("r2", changed_since="HEAD", direction="both", depth=1)
    assert result.start == ["r2", "s1"]
    assert _reached(result) == {"r1": 1, "s2": 1}


def test_a_project_in_a_subdirectory_of_the_repository(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "mono", subdir="product/docs-model")
    (root / "docs" / "r1.md").write_text("# r1\n\nChanged.\n", encoding="utf-8")
    (tmp_path / "mono" / "elsewhere.md").write_text("outside the project\n", encoding="utf-8")
    result = CatDoc(root).impact(changed_since="HEAD")
    assert result.changed_files == ["docs/r1.md"] and result.start == ["r1"]


def test_no_repository_and_unknown_revisions_are_clear_errors(tmp_path: Path) -> None:
    from git_project import write_project

    plain = write_project(tmp_path / "plain")
    with pytest.raises(CatDocError) as outside:
        CatDoc(plain).impact("r1", changed_since="HEAD")
    assert outside.value.code == GIT_ERROR
    assert "not inside a git repository" in outside.value.message
    repo = init_repo(tmp_path / "repo")
    with pytest.raises(CatDocError) as unknown:
        CatDoc(repo).impact("r1", changed_since="no-such-branch")
    assert unknown.value.code == NOT_FOUND and "no-such-branch" in unknown.value.message


HOSTILE = [
    "--upload-pack=touch pwned",
    "--output=pwned",
    "-x",
    "-",
    "HEAD HEAD",
    "HEAD\0--output=pwned",
    "HEAD\n",
    "main..HEAD",
    "HEAD:docs/r1.md",
    "x" * 100_000,
    "",
    "\u202eHEAD",
]


@pytest.mark.parametrize("revision", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_revisions_never_reach_git(
    revision: str, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Any] = []
    real = subprocess.run

    def spy(args: Any, *rest: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(args, *rest, **kwargs)

    monkeypatch.setattr(git_revisions.subprocess, "run", spy)
    with pytest.raises(CatDocError) as refused:
        CatDoc(repo).impact("r1", changed_since=revision)
    assert refused.value.code == VALIDATION_ERROR
    assert calls == [], "git was run with a refused revision"
    assert not (repo / "pwned").exists()


@settings(max_examples=50, deadline=None)
@given(st.text(min_size=1, max_size=40).map(lambda s: "-" + s))
def test_anything_spelled_like_an_option_is_refused(revision: str) -> None:
    with pytest.raises(CatDocError) as refused:
        git_revisions.check_revision(revision)
    assert refused.value.code == VALIDATION_ERROR


# ------------------------------------------------------------------ the command line
def test_cli_text_and_json() -> None:
    text = runner.invoke(
        app,
        ["-C", str(EXAMPLE), "impact", "test-checkout-e2e", "--direction", "up", "--depth", "1"],
    )
    assert text.exit_code == 0, text.output
    assert (
        "Impact of test-checkout-e2e (up, within 1 hop): 9 objects in 2 categories" in text.stdout
    )
    assert "test-checkout-e2e <--gates-- test-cart-unit" in text.stdout
    assert "test-checkout-e2e <=end-to-end= impl-cart-module" in text.stdout
    data = runner.invoke(app, ["-C", str(EXAMPLE), "impact", "req-checkout", "-f", "json"])
    assert data.exit_code == 0
    body = json.loads(data.stdout)
    assert body["total"] == 15 and body["groups"][0]["objects"][0]["path"]["hops"][0]["direction"]


def test_cli_errors(repo: Path) -> None:
    missing = runner.invoke(app, ["-C", str(EXAMPLE), "impact"])
    assert missing.exit_code == 2 and "object id" in missing.stderr
    assert "give --changed-since (MCP: changedSince)" in " ".join(missing.stderr.split())
    hostile = runner.invoke(app, ["-C", str(repo), "impact", "--changed-since", "--upload-pack=x"])
    assert hostile.exit_code == 2
    spelled = runner.invoke(
        app, ["-C", str(repo), "impact", "r1", "--changed-since=-x", "-f", "json"]
    )
    assert spelled.exit_code == 2
    assert json.loads(spelled.stderr)["error"]["code"] == VALIDATION_ERROR
    (repo / "docs" / "r1.md").write_text("# r1\n\nChanged.\n", encoding="utf-8")
    changed = runner.invoke(app, ["-C", str(repo), "impact", "--changed-since", "HEAD"])
    assert changed.exit_code == 0, changed.output
    assert "Changed since HEAD: 1 document (docs/r1.md)" in changed.stdout
    assert "s1  [1] r1 =F=> s1  (from r1)" in changed.stdout
