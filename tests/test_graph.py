"""Graph export (REQ-MCP-012 shape) and its DOT / Mermaid renderings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.graph import build_trace_graph, graph_data, render_graph
from catdoc.model import Category, Config, DocObject, Functor, Morphism
from catdoc.project import Project, load_project
from catdoc.service import CatDoc

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"


def _project() -> Project:
    left = Category(
        id="left",
        objects=[
            DocObject(id="a", title='A "quoted" <title>'),
            DocObject(id="b", title="B | pipe\nnewline #1"),
        ],
        morphisms=[
            Morphism(id="f", name="uses", source="a", target="b"),
            Morphism(id="id-a", source="a", target="a", metadata={"isIdentity": True}),
            Morphism(id="dangling", source="a", target="nowhere"),
        ],
    )
    right = Category(
        id="right",
        objects=[DocObject(id="x", tags=["t"], domain="d"), DocObject(id="y")],
        morphisms=[Morphism(id="g", name="calls", source="x", target="y")],
    )
    fun = Functor(
        id="F",
        name="Left → Right",
        source_category="left",
        target_category="right",
        object_mapping={"a": "x", "b": "y"},
        morphism_mapping={"f": "g"},
    )
    return Project(root=Path("."), config=Config(), categories=[left, right], functors=[fun])


def test_nodes_and_edges_have_the_required_fields() -> None:
    data = graph_data(_project())
    assert [n.id for n in data.nodes] == ["a", "b", "x", "y"]
    node = data.model_dump(by_alias=True)["nodes"][2]
    assert set(node) >= {"id", "label", "type", "metadata"}
    assert node["metadata"] == {"category": "right", "domain": "d", "tags": ["t"]}
    edges = {e.id: e for e in data.edges}
    assert set(edges) == {"f", "g", "F:a", "F:b"}, "identities and dangling morphisms are left out"
    assert (edges["f"].source, edges["f"].target, edges["f"].label) == ("a", "b", "uses")
    assert edges["F:a"].type == "functor" and edges["F:a"].target == "x"


def test_category_filter_keeps_only_its_objects_and_morphisms() -> None:
    data = graph_data(_project(), category="right")
    assert [n.id for n in data.nodes] == ["x", "y"]
    assert [e.id for e in data.edges] == ["g"]


def test_json_rendering_round_trips() -> None:
    text = render_graph(graph_data(_project()), "json")
    parsed = json.loads(text)
    assert {"nodes", "edges"} == set(parsed)
    assert parsed["edges"][0]["source"] == "a"


def test_dot_escapes_quotes_backslashes_and_newlines() -> None:
    text = render_graph(graph_data(_project()), "dot")
    assert text.startswith("digraph catdoc {")
    assert '"a" [label="A \\"quoted\\" <title>"];' in text
    assert '"b" [label="B | pipe\\nnewline #1"];' in text
    assert '"a" -> "x" [label="Left → Right", id="F:a", style=dashed];' in text
    assert 'subgraph "cluster_left"' in text


def test_mermaid_uses_safe_ids_and_entity_codes() -> None:
    text = render_graph(graph_data(_project()), "mermaid")
    assert text.startswith("flowchart LR\n")
    assert 'n0["A #quot;quoted#quot; #lt;title#gt; (a)"]' in text
    assert 'n1["B #124; pipe newline #35;1 (b)"]' in text
    assert 'n0 -->|"uses"| n1' in text
    assert 'n0 -.->|"Left → Right"| n2' in text


def test_unknown_format_is_a_clear_error() -> None:
    with pytest.raises(CatDocError) as caught:
        render_graph(graph_data(_project()), "svg")
    assert caught.value.code == VALIDATION_ERROR
    assert "json, dot, mermaid" in caught.value.hint


def test_service_caches_graph_per_project_and_exports() -> None:
    doc = CatDoc(EXAMPLE)
    assert doc.graph() is doc.graph()
    objects = load_project(EXAMPLE).object_by_id
    assert {n.id for n in doc.graph().nodes} == set(objects)
    assert doc.export_graph("mermaid", category="design").count("-->") == 5
    with pytest.raises(CatDocError):
        doc.graph(category="no-such-category")


def test_trace_graph_collapses_parallel_morphisms() -> None:
    project = _project()
    project.categories[0].morphisms.append(Morphism(id="f2", name="uses", source="a", target="b"))
    graph = build_trace_graph(project)
    assert [hop[1] for hop in graph.adj["a"]["b"]["hops"]] == ["f", "f2"]
    assert [hop[0] for hop in graph.adj["a"]["x"]["hops"]] == ["functor"]
    assert "x" not in build_trace_graph(project, via_functors=False).adj["a"]
