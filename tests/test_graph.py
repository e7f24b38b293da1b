"""Graph export (REQ-MCP-012 shape) and its DOT / Mermaid renderings."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc import results as r
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
    assert '"a" -> "b" [label="uses", id="f"];' in text
    assert '"a" -> "x" [label="Left → Right", style=dashed];' in text  # `F:a` may not be unique
    assert 'subgraph "cluster_left"' in text


# A DOT double-quoted string, read as the DOT language reads it: `\"` is a quote, a backslash
# before a newline continues the line (both go), `\\` is two backslashes that do not escape what
# follows, and every other character stays as written (Graphviz's own escapes, `\n` in a label,
# apply to some attributes only, never to ids).
DOT_TOKEN = r'\\\\|\\"|\\\n|\\(?=[^"\\\n])|[^"\\]'
DOT_QUOTED = re.compile(f'"((?:{DOT_TOKEN})*)"')
DOT_LINE = re.compile(
    r"^(digraph catdoc \{|  rankdir=LR;|  node \[.*\];|  edge \[.*\];|  \}|\}"
    r"|  subgraph Q \{|    label=Q;|    Q \[label=Q\];"
    r"|  Q -> Q \[label=Q(, id=Q|, style=dashed)\];)$"
)


def _dot_read(body: str) -> str:
    """The id a DOT quoted string's body stands for."""
    out = []
    for token in re.findall(DOT_TOKEN, body):
        out.append({'\\"': '"', "\\\n": ""}.get(token, token))
    return "".join(out)


def _dot_statements(text: str) -> list[tuple[str, list[str]]]:
    """Each line of the DOT text with its quoted strings as Q, and the ids they stand for;
    fails on a line that is not one of the statements `_dot` writes."""
    unseen = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    assert not re.search(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{unseen}]", text)
    out = []
    for line in text.splitlines():
        shape = DOT_QUOTED.sub("Q", line)
        assert DOT_LINE.match(shape), f"not DOT as written: {line!r}"
        out.append((shape, [_dot_read(m.group(1)) for m in DOT_QUOTED.finditer(line)]))
    return out


def _data(ids: list[str], categories: list[str]) -> r.GraphData:
    nodes = [
        r.GraphNode(id=i, label=i, type="object", metadata={"category": categories[n % 2]})
        for n, i in enumerate(ids)
    ]
    edges = [r.GraphEdge(id=a, source=a, target=b, label=a) for a, b in itertools.pairwise(ids)]
    return r.GraphData(nodes=nodes, edges=edges)


def _check_dot(ids: list[str], categories: list[str]) -> None:
    """Every node and cluster its own DOT id, every edge between the DOT ids of its ends and
    with an id of its own, escaped as node ids are."""
    statements = _dot_statements(render_graph(_data(ids, categories), "dot"))
    node_ids = [found[0] for shape, found in statements if shape == "    Q [label=Q];"]
    assert len(node_ids) == len(ids) and len(set(node_ids)) == len(ids)
    clusters = [found[0] for shape, found in statements if shape == "  subgraph Q {"]
    assert len(set(clusters)) == len(set(categories[: len(ids)]))
    home = {i: categories[n % 2] for n, i in enumerate(ids)}
    in_clusters = [i for cat in dict.fromkeys(home.values()) for i in ids if home[i] == cat]
    dot_of = dict(zip(in_clusters, node_ids, strict=True))
    edges = [found[:2] + found[3:] for shape, found in statements if shape.startswith("  Q -> Q")]
    # Each edge's id is its source's id here, so it reads back as that node's DOT id.
    assert edges == [[dot_of[a], dot_of[b], dot_of[a]] for a, b in itertools.pairwise(ids)]


def test_dot_ids_tell_apart_what_the_labels_show_alike() -> None:
    ids = ["a\rb", "a\nb", "a\r\nb", "a\tb", "a b", "\x1b", "\\x1b", 'q"\\', "\u202e", "\\u202e"]
    _check_dot(ids, ["c\rd", "c\nd"])
    text = render_graph(_data(ids, ["c\rd", "c\nd"]), "dot")
    assert '    "a\\rb" [label="a\\nb"];' in text and '    "a\\nb" [label="a\\nb"];' in text
    assert '    "a\\tb" [label="a b"];' in text and '    "\\x1b" [label="\\\\x1b"];' in text
    mermaid = render_graph(_data(ids, ["c\rd", "c\nd"]), "mermaid")
    assert len(re.findall(r"(?m)^    n\d+\[", mermaid)) == len(ids)  # n0, n1, …: one each


ID_CHARS = st.sampled_from(list('abxnu1 \\"\n\r\t\x1b\x85\u202eé→:;{}[]->'))


@settings(max_examples=300)
@given(
    ids=st.lists(st.text(ID_CHARS, max_size=6), min_size=2, max_size=8, unique=True),
    categories=st.lists(st.text(ID_CHARS, max_size=4), min_size=2, max_size=2),
)
def test_dot_ids_are_one_to_one_and_parse(ids: list[str], categories: list[str]) -> None:
    _check_dot(ids, categories)


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
