"""Every catdoc_* tool through a real MCP client, in the legacy handshake mode (initialize over
JSON-RPC streams) and the default mode (direct in-process dispatch): success, not found, bad
arguments."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_project import LONG_WORDS, data_of, error_of, make_project

from catdoc.mcp_browse_tools import BROWSE_TOOLS
from catdoc.mcp_chain_tools import CHAIN_TOOLS
from catdoc.mcp_cluster_tools import CLUSTER_TOOLS
from catdoc.mcp_concept_tools import CONCEPT_TOOLS
from catdoc.mcp_coverage_tools import COVERAGE_TOOLS
from catdoc.mcp_impact_tools import IMPACT_TOOLS
from catdoc.mcp_server import build_server
from catdoc.mcp_suspect_tools import SUSPECT_TOOLS
from catdoc.mcp_write_tools import WRITE_TOOLS
from catdoc.paging import MAX_OFFSET
from catdoc.service import CatDoc

pytestmark = pytest.mark.anyio

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
VALID_EXAMPLES = ["traceability", "math"]

TOOLS = {
    "catdoc_init",
    "catdoc_list_categories",
    "catdoc_show_category",
    "catdoc_list_objects",
    "catdoc_show_object",
    "catdoc_import_document",
    "catdoc_list_morphisms",
    "catdoc_show_morphism",
    "catdoc_validate",
    "catdoc_validate_category",
    "catdoc_validate_functor",
    "catdoc_validate_natural_transformation",
    "catdoc_suggest_mappings",
    "catdoc_trace",
    "catdoc_context",
    "catdoc_search",
    "catdoc_list_functors",
    "catdoc_show_functor",
    "catdoc_list_natural_transformations",
    "catdoc_show_natural_transformation",
    "catdoc_get_graph",
}
WRITERS = {"catdoc_init", "catdoc_import_document"}
"""Edit tools are tested in test_mcp_write_tools.py; these are the rest."""


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def served(root: Path, mode: str) -> Client:
    make_project(root)
    (root / "docs" / "new.md").write_text(
        "---\nid: req-new\ntitle: New requirement\ndomain: requirements\n---\n"
        "It builds on @req-login.\n",
        encoding="utf-8",
    )
    return Client(build_server(CatDoc(root)), mode=mode)


@pytest.fixture(params=["legacy", "auto"])
async def client(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Client]:
    """A server of its own, for a test that writes."""
    async with served(tmp_path / "proj", request.param) as connected:
        yield connected


@pytest.fixture(scope="module", params=["legacy", "auto"])
async def reader(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Client]:
    """One server per mode for the tests that only read or are refused (building a server
    registers every tool's schemas: half a second)."""
    async with served(tmp_path_factory.mktemp("reader") / "proj", request.param) as connected:
        yield connected


def ids(items: list[dict[str, Any]]) -> list[str]:
    return [item["id"] for item in items]


Check = Callable[[dict[str, Any]], object]
SUCCESS: list[tuple[str, dict[str, Any], Check]] = [
    (
        "catdoc_list_categories",
        {},
        lambda d: ids(d["categories"]) == ["requirements", "design"] and d["total"] == 2,
    ),
    (
        "catdoc_list_categories",
        {"includeMembers": True},
        lambda d: ids(d["categories"][0]["objects"]) == ["req-login", "req-session"],
    ),
    (
        "catdoc_show_category",
        {"categoryId": "reqs"},
        lambda d: (
            d["id"] == "requirements"
            and ids(d["morphisms"]) == ["login-needs-session"]
            and d["functorsOut"] == ["realize", "realize-v2"]
        ),
    ),
    (
        "catdoc_show_category",
        {"categoryId": "design", "memberLimit": 1, "memberOffset": 1},
        lambda d: ids(d["objects"]) == ["des-session-store"] and d["objectCount"] == 2,
    ),
    (
        "catdoc_list_objects",
        {"domain": "requirements", "tags": ["security"]},
        lambda d: ids(d["items"]) == ["req-login"] and d["total"] == 1,
    ),
    (
        "catdoc_list_objects",
        {"category": "design", "limit": 1, "offset": 1},
        lambda d: ids(d["items"]) == ["des-session-store"] and d["total"] == 2,
    ),
    (
        "catdoc_show_object",
        {"objectId": "req-login", "maxChars": 100},
        lambda d: (
            len(d["content"]) == 100
            and d["truncated"] is True
            and d["contentLength"] > LONG_WORDS
            and ids(d["outgoing"]) == ["login-needs-session"]
            and d["images"] == {"realize": "des-login-form", "realize-v2": "des-login-form"}
        ),
    ),
    (
        "catdoc_show_object",
        {"objectId": "req-session"},
        lambda d: (
            d["content"].startswith("A session ends")
            and d["truncated"] is False
            and ids(d["incoming"]) == ["login-needs-session"]
        ),
    ),
    (
        "catdoc_list_morphisms",
        {"categoryId": "requirements", "source": "req-login"},
        lambda d: ids(d["items"]) == ["login-needs-session"],
    ),
    ("catdoc_list_morphisms", {"name": "uses"}, lambda d: ids(d["items"]) == ["form-uses-store"]),
    (
        "catdoc_show_morphism",
        {"morphismId": "form-uses-store"},
        lambda d: d["source"] == "des-login-form" and d["targetTitle"] == "Session store",
    ),
    (
        "catdoc_validate",
        {},
        lambda d: (
            d["isValid"] is True
            and d["summary"]["categoriesChecked"] == 2
            and d["summary"]["functorsChecked"] == 2
            and d["summary"]["naturalTransformationsChecked"] == 1
        ),
    ),
    (
        "catdoc_validate",
        {"categoryId": "design"},
        lambda d: d["isValid"] is True and d["summary"]["categoriesChecked"] == 1,
    ),
    ("catdoc_validate_category", {"categoryId": "requirements"}, lambda d: d["isValid"] is True),
    ("catdoc_validate_functor", {"functorId": "realize"}, lambda d: d["isValid"] is True),
    (
        "catdoc_validate_natural_transformation",
        {"id": "upgrade"},
        lambda d: d["isValid"] is True and d["summary"]["naturalTransformationsChecked"] == 1,
    ),
    (
        "catdoc_suggest_mappings",
        {"functorId": "realize"},
        lambda d: d == {"mappings": [], "functors": []},  # realize maps every object
    ),
    (
        "catdoc_trace",
        {"sourceId": "req-login", "targetId": "des-session-store"},
        lambda d: (
            d["found"] is True
            and [p["length"] for p in d["paths"]] == sorted(p["length"] for p in d["paths"])
            and d["paths"][0]["nodes"][0] == "req-login"
            and d["paths"][0]["nodes"][-1] == "des-session-store"
        ),
    ),
    (
        "catdoc_trace",
        {"sourceId": "des-session-store", "targetId": "req-login"},
        lambda d: d["found"] is False and d["paths"] == [],
    ),
    (
        "catdoc_context",
        {"objectId": "req-login", "depth": 2},
        lambda d: (
            [(n["id"], n["distance"]) for n in d["nodes"]]
            == [("req-session", 1), ("des-login-form", 1), ("des-session-store", 2)]
            and d["nodes"][0]["via"][0]["direction"] == "outgoing"
            and d["truncated"] is False
        ),
    ),
    (
        "catdoc_context",
        {"objectId": "des-login-form", "limit": 1},
        lambda d: [n["id"] for n in d["nodes"]] == ["des-session-store"] and d["truncated"],
    ),
    (
        "catdoc_search",
        {"query": "password", "mode": "text", "domain": "requirements"},
        lambda d: ids(d["results"])[:1] == ["req-login"] and d["results"][0]["score"] > 0,
    ),
    (
        "catdoc_search",
        {"query": "session", "filters": {"category": "design"}, "limit": 5},
        lambda d: set(ids(d["results"])) <= {"des-login-form", "des-session-store"},
    ),
    (
        "catdoc_list_functors",
        {},
        lambda d: (
            ids(d["functors"]) == ["realize", "realize-v2"]
            and d["functors"][0]["sourceCategory"] == "requirements"
        ),
    ),
    (
        "catdoc_show_functor",
        {"functorId": "realize"},
        lambda d: (
            {e["key"]: e["value"] for e in d["objectMapping"]}["req-login"] == "des-login-form"
            and d["identityPreservation"] == "holds"
        ),
    ),
    (
        "catdoc_show_functor",
        {"functorId": "realize", "memberLimit": 1, "memberOffset": 1},
        lambda d: [e["key"] for e in d["objectMapping"]] == ["req-session"],
    ),
    (
        "catdoc_list_natural_transformations",
        {},
        lambda d: ids(d["naturalTransformations"]) == ["upgrade"],
    ),
    (
        "catdoc_show_natural_transformation",
        {"id": "upgrade"},
        lambda d: (
            d["sourceFunctor"] == "realize"
            and [c["key"] for c in d["components"]] == ["req-login", "req-session"]
        ),
    ),
    (
        "catdoc_get_graph",
        {},
        lambda d: (
            {"req-login", "des-session-store"} <= set(ids(d["nodes"]))
            and all({"id", "label", "type", "metadata"} <= set(n) for n in d["nodes"])
            and all({"id", "source", "target", "label"} <= set(e) for e in d["edges"])
            and d["truncated"] is False
        ),
    ),
    (
        "catdoc_get_graph",
        {"categoryId": "design", "limit": 1},
        lambda d: len(d["nodes"]) == 1 and d["truncated"] is True and d["totalNodes"] == 2,
    ),
    (
        "catdoc_import_document",
        {"filePath": "docs/new.md", "category": "requirements"},
        lambda d: d["created"] == 1 and d["items"][0]["objectId"] == "req-new",
    ),
    (
        "catdoc_init",
        {"directory": "sub", "force": True},
        lambda d: ".catdoc/category.yaml" in d["created"],
    ),
]

NOT_FOUND: list[tuple[str, dict[str, Any], str]] = [
    ("catdoc_show_category", {"categoryId": "requirement"}, "Category not found"),
    ("catdoc_list_objects", {"category": "desing"}, "Category not found"),
    ("catdoc_show_object", {"objectId": "req-logn"}, "Object not found"),
    ("catdoc_import_document", {"filePath": "docs/missing.md"}, "File not found"),
    ("catdoc_list_morphisms", {"categoryId": "nope"}, "Category not found"),
    ("catdoc_show_morphism", {"morphismId": "form-uses"}, "Morphism not found"),
    ("catdoc_validate", {"categoryId": "desgin"}, "Category not found"),
    ("catdoc_validate_category", {"categoryId": "desgin"}, "Category not found"),
    ("catdoc_validate_functor", {"functorId": "realise"}, "Functor not found"),
    ("catdoc_validate_natural_transformation", {"id": "upgrad"}, "transformation not found"),
    ("catdoc_suggest_mappings", {"functorId": "realise"}, "functor not found"),
    ("catdoc_trace", {"sourceId": "req-logn", "targetId": "req-login"}, "Object not found"),
    ("catdoc_context", {"objectId": "req-logn"}, "Object not found"),
    ("catdoc_search", {"query": "x", "filters": {"category": "desgin"}}, "not found"),
    ("catdoc_show_functor", {"functorId": "realise"}, "Functor not found"),
    ("catdoc_show_natural_transformation", {"id": "upgrad"}, "transformation not found"),
    ("catdoc_get_graph", {"categoryId": "desgin"}, "Category not found"),
]

BAD_ARGUMENTS: list[tuple[str, dict[str, Any]]] = [
    ("catdoc_init", {"force": "very"}),
    ("catdoc_list_categories", {"includeMembers": "lots"}),
    ("catdoc_show_category", {}),
    ("catdoc_list_objects", {"limit": 201}),
    ("catdoc_list_objects", {"offset": -1}),
    ("catdoc_show_object", {"objectId": "req-login", "maxChars": 0}),
    ("catdoc_import_document", {}),
    ("catdoc_list_morphisms", {"limit": 0}),
    ("catdoc_show_morphism", {"morphismId": ""}),
    ("catdoc_validate", {"categoryId": 3.5}),
    ("catdoc_validate_category", {}),
    ("catdoc_validate_functor", {"functorId": ["a"]}),
    ("catdoc_validate_natural_transformation", {}),
    ("catdoc_suggest_mappings", {"functorId": 7}),
    ("catdoc_trace", {"sourceId": "req-login", "targetId": "req-session", "maxDepth": 51}),
    ("catdoc_context", {"objectId": "req-login", "depth": 6}),
    ("catdoc_search", {"query": "x", "mode": "fuzzy"}),
    ("catdoc_search", {"query": "x", "filters": {"colour": "red"}}),
    ("catdoc_search", {"query": "x", "filters": {"period": "last_week", "since": "2026-01-01"}}),
    ("catdoc_list_functors", {"verbose": True}),
    ("catdoc_show_functor", {}),
    ("catdoc_list_natural_transformations", {"limit": 0}),
    ("catdoc_show_natural_transformation", {"id": None}),
    ("catdoc_get_graph", {"limit": 5001}),
]


async def test_lists_every_tool_with_schemas_and_annotations(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == (
        TOOLS
        | set(WRITE_TOOLS)
        | set(BROWSE_TOOLS)
        | set(CLUSTER_TOOLS)
        | set(CONCEPT_TOOLS)
        | set(COVERAGE_TOOLS)
        | set(IMPACT_TOOLS)
        | set(CHAIN_TOOLS)
        | set(SUSPECT_TOOLS)
    )
    for name, tool in tools.items():  # every offset's schema names the bound the core keeps
        for arg, schema in tool.input_schema.get("properties", {}).items():
            if arg.lower().endswith("offset"):
                assert schema.get("maximum") == MAX_OFFSET, f"{name}.{arg} has no maximum"
    tools = {name: tool for name, tool in tools.items() if name in TOOLS}
    for name, tool in tools.items():
        assert "use" in tool.description.lower() and "catdoc_" in tool.description, name
        assert tool.output_schema and tool.output_schema.get("type") == "object", name
        assert tool.input_schema["type"] == "object"
        for arg, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{name}.{arg} has no description"
        notes = tool.annotations
        assert notes is not None and notes.open_world_hint is False
        assert notes.read_only_hint is (name not in WRITERS), name
        assert notes.destructive_hint is (name in WRITERS), name
    limit = tools["catdoc_list_objects"].input_schema["properties"]["limit"]
    assert (limit["minimum"], limit["maximum"], limit["default"]) == (1, 200, 50)


async def test_server_info_explains_catdoc(client: Client) -> None:
    assert client.server_info is not None and client.server_info.name == "catdoc"
    assert client.instructions and "catdoc_list_categories" in client.instructions


READS = [case for case in SUCCESS if case[0] not in WRITERS]
WRITES = [case for case in SUCCESS if case[0] in WRITERS]


@pytest.mark.parametrize(("tool", "args", "check"), READS, ids=[c[0] for c in READS])
async def test_tool_succeeds(reader: Client, tool: str, args: dict[str, Any], check: Check) -> None:
    data = data_of(await reader.call_tool(tool, args))
    assert check(data), data


@pytest.mark.parametrize(("tool", "args", "check"), WRITES, ids=[c[0] for c in WRITES])
async def test_writer_succeeds(
    client: Client, tool: str, args: dict[str, Any], check: Check
) -> None:
    data = data_of(await client.call_tool(tool, args))
    assert check(data), data


@pytest.mark.parametrize(("tool", "args", "message"), NOT_FOUND, ids=[c[0] for c in NOT_FOUND])
async def test_tool_reports_not_found(
    reader: Client, tool: str, args: dict[str, Any], message: str
) -> None:
    error = error_of(await reader.call_tool(tool, args))
    assert error["code"] == "NOT_FOUND"
    assert message.lower() in error["message"].lower()


async def test_not_found_suggests_close_ids(client: Client) -> None:
    error = error_of(await client.call_tool("catdoc_show_category", {"categoryId": "desgin"}))
    assert error["message"].startswith("Category not found")
    assert "design" in error["didYouMean"]
    error = error_of(await client.call_tool("catdoc_show_object", {"objectId": "req-logn"}))
    assert error["didYouMean"][0] == "req-login"


@pytest.mark.parametrize(("tool", "args"), BAD_ARGUMENTS, ids=[c[0] for c in BAD_ARGUMENTS])
async def test_tool_rejects_bad_arguments(reader: Client, tool: str, args: dict[str, Any]) -> None:
    error = error_of(await reader.call_tool(tool, args))
    assert error["code"] == "VALIDATION_ERROR", error
    assert error["message"] and error["hint"]


def test_every_tool_has_all_three_kinds_of_case() -> None:
    assert {c[0] for c in SUCCESS} == TOOLS
    assert {c[0] for c in BAD_ARGUMENTS} == TOOLS
    without_ids = {
        "catdoc_init",
        "catdoc_list_categories",
        "catdoc_list_functors",
        "catdoc_list_natural_transformations",
    }
    assert {c[0] for c in NOT_FOUND} == TOOLS - without_ids


async def test_init_refuses_existing_project_unless_forced(client: Client) -> None:
    error = error_of(await client.call_tool("catdoc_init", {}))
    assert error["code"] == "ALREADY_EXISTS"
    data = data_of(await client.call_tool("catdoc_init", {"directory": ".", "force": True}))
    assert data["overwritten"] is True
    categories = data_of(await client.call_tool("catdoc_list_categories", {}))
    assert "requirements" in ids(categories["categories"])


async def test_resources_serve_graph_and_documents(client: Client) -> None:
    listed = await client.list_resources()
    assert [str(res.uri) for res in listed.resources] == ["catdoc://graph"]
    templates = await client.list_resource_templates()
    assert [t.uri_template for t in templates.resource_templates] == ["catdoc://objects/{id}"]
    graph = await client.read_resource("catdoc://graph")
    assert '"req-login"' in graph.contents[0].text  # type: ignore[union-attr]
    doc = await client.read_resource("catdoc://objects/req-login")
    text = doc.contents[0].text  # type: ignore[union-attr]
    assert text.startswith("# Users log in") and len(text) > LONG_WORDS * 5


@pytest.mark.parametrize("example", VALID_EXAMPLES)
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_example_projects_through_every_read_tool(example: str, mode: str) -> None:
    root = EXAMPLES / example
    async with Client(build_server(CatDoc(root)), mode=mode) as client:
        report = data_of(await client.call_tool("catdoc_validate", {}))
        assert report["isValid"] is True, report["errors"]
        categories = data_of(await client.call_tool("catdoc_list_categories", {}))["categories"]
        for category in categories:
            cid = category["id"]
            shown = data_of(await client.call_tool("catdoc_show_category", {"categoryId": cid}))
            assert shown["objectCount"] == category["objectCount"]
            data_of(await client.call_tool("catdoc_validate_category", {"categoryId": cid}))
            for obj in shown["objects"][:3]:
                detail = data_of(
                    await client.call_tool("catdoc_show_object", {"objectId": obj["id"]})
                )
                assert detail["contentError"] is None, detail["contentError"]
                assert detail["content"]
            for mor in shown["morphisms"][:3]:
                data_of(await client.call_tool("catdoc_show_morphism", {"morphismId": mor["id"]}))
        functors = data_of(await client.call_tool("catdoc_list_functors", {}))["functors"]
        for functor in functors:
            args = {"functorId": functor["id"]}
            assert data_of(await client.call_tool("catdoc_validate_functor", args))["isValid"]
            detail = data_of(await client.call_tool("catdoc_show_functor", args))
            assert all(e["status"] == "ok" for e in detail["objectMapping"])
            source = data_of(
                await client.call_tool(
                    "catdoc_list_objects", {"category": functor["sourceCategory"], "limit": 1}
                )
            )["items"][0]["id"]
            target = {e["key"]: e["value"] for e in detail["objectMapping"]}[source]
            trace = {"sourceId": source, "targetId": target}
            assert data_of(await client.call_tool("catdoc_trace", trace))["found"] is True
        nats = data_of(await client.call_tool("catdoc_list_natural_transformations", {}))
        for nat in nats["naturalTransformations"]:
            args = {"id": nat["id"]}
            check = "catdoc_validate_natural_transformation"
            assert data_of(await client.call_tool(check, args))["isValid"]
            data_of(await client.call_tool("catdoc_show_natural_transformation", args))
        graph = data_of(await client.call_tool("catdoc_get_graph", {}))
        assert graph["totalNodes"] == sum(c["objectCount"] for c in categories)
        hits = data_of(await client.call_tool("catdoc_search", {"query": categories[0]["name"]}))
        assert hits["results"]


async def test_broken_example_reports_errors_with_locations() -> None:
    async with Client(build_server(CatDoc(EXAMPLES / "broken"))) as client:
        report = data_of(await client.call_tool("catdoc_validate", {}))
        assert report["isValid"] is False and report["summary"]["totalErrors"] > 0
        assert all(e["code"] and e["message"] for e in report["errors"])
        assert any(".catdoc/" in e["location"] for e in report["errors"])


async def test_functors_and_transformations_are_paged(reader: Client) -> None:
    first = data_of(await reader.call_tool("catdoc_list_functors", {"limit": 1}))
    assert ids(first["functors"]) == ["realize"] and first["message"] is None
    assert (first["total"], first["limit"], first["offset"]) == (2, 1, 0)
    second = data_of(await reader.call_tool("catdoc_list_functors", {"limit": 1, "offset": 1}))
    assert ids(second["functors"]) == ["realize-v2"] and second["total"] == 2
    past = data_of(await reader.call_tool("catdoc_list_functors", {"offset": 5}))
    assert past["functors"] == [] and past["total"] == 2
    assert past["message"] == "No functors at offset 5: there are 2; page from 0."
    nats = data_of(
        await reader.call_tool("catdoc_list_natural_transformations", {"limit": 1, "offset": 1})
    )
    assert nats["naturalTransformations"] == [] and (nats["total"], nats["limit"]) == (1, 1)
    assert nats["message"] == "No natural transformations at offset 1: there are 1; page from 0."
    tools = {tool.name: tool for tool in (await reader.list_tools()).tools}
    for name in ("catdoc_list_functors", "catdoc_list_natural_transformations"):
        limit = tools[name].input_schema["properties"]["limit"]
        assert (limit["minimum"], limit["maximum"], limit["default"]) == (1, 200, 50), name
        assert "limit/offset" in tools[name].description, name
    too_far = error_of(await reader.call_tool("catdoc_list_functors", {"offset": 10**7}))
    assert too_far["code"] == "VALIDATION_ERROR" and "offset" in too_far["message"]


async def test_an_empty_list_of_functors_says_how_to_add_one(tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj")
    model = root / ".catdoc" / "category.yaml"
    text = model.read_text(encoding="utf-8")
    model.write_text(text[: text.index("functors:")], encoding="utf-8")
    async with Client(build_server(CatDoc(root))) as client:
        functors = data_of(await client.call_tool("catdoc_list_functors", {}))
        nats = data_of(await client.call_tool("catdoc_list_natural_transformations", {}))
    assert functors["functors"] == [] and functors["total"] == 0
    assert "no functors yet" in functors["message"]
    assert "(MCP: catdoc_upsert_functor)" in functors["message"]
    assert nats["total"] == 0 and "catdoc_upsert_natural_transformation" in nats["message"]
    async with Client(build_server(CatDoc(root), read_only=True)) as client:
        functors = data_of(await client.call_tool("catdoc_list_functors", {}))
    said = functors["message"]
    assert "catdoc_upsert_functor" not in said
    assert "--to CATEGORY` (run on the command line: this MCP server is read-only" in said


async def test_a_read_only_server_never_names_a_tool_it_does_not_serve(tmp_path: Path) -> None:
    """The core's texts name CLI commands; each face says them in its words: a writing server
    adds the tool, a read-only one sends the client to the command line, in messages and in
    tool descriptions alike."""
    CatDoc.init(tmp_path, bare=True)
    async with Client(build_server(CatDoc(tmp_path))) as client:
        empty = data_of(await client.call_tool("catdoc_list_categories", {}))
        assert "`catdoc import PATH` (MCP: catdoc_import_document)" in empty["message"]
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "catdoc_set_mapping" in tools["catdoc_suggest_mappings"].description
    async with Client(build_server(CatDoc(tmp_path), read_only=True)) as client:
        empty = data_of(await client.call_tool("catdoc_list_categories", {}))
        summary = data_of(await client.call_tool("catdoc_index_summary", {}))
        tools = (await client.list_tools()).tools
    left_out = {*WRITE_TOOLS, "catdoc_init", "catdoc_import_document", "catdoc_review"}
    for said in (empty["message"], summary["message"], *(tool.description for tool in tools)):
        assert said and not any(name in said for name in left_out), said
    assert "`catdoc import PATH` (run on the command line" in empty["message"]
    assert "command line" in {t.name: t for t in tools}["catdoc_suggest_mappings"].description


def test_readme_documents_every_tool() -> None:
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- section:mcp -->")[1].split("<!-- /section:mcp -->")[0]
    documented = set(re.findall(r"^\| `(catdoc_\w+)` \|", section, re.M))
    assert documented == (
        TOOLS
        | set(WRITE_TOOLS)
        | set(BROWSE_TOOLS)
        | set(CLUSTER_TOOLS)
        | set(CONCEPT_TOOLS)
        | set(COVERAGE_TOOLS)
        | set(IMPACT_TOOLS)
        | set(CHAIN_TOOLS)
        | set(SUSPECT_TOOLS)
    )
    for code in ["VALIDATION_ERROR", "NOT_FOUND", "PATH_OUTSIDE_PROJECT", "PROJECT_NOT_FOUND"]:
        assert f"| `{code}` |" in section


async def test_trace_says_why_there_is_no_path_in_tool_words(tmp_path: Path) -> None:
    """The core's message, its `catdoc validate --suggest` named as the tool that does it;
    between categories a functor leads the other way, the trace to try instead."""
    root = tmp_path / "proj"
    (root / ".catdoc").mkdir(parents=True)
    (root / ".catdoc" / "category.yaml").write_text(
        "categories:\n"
        "  - id: guide\n    objects:\n"
        "      - id: quickstart\n        metadata: {related: [keywords]}\n"
        "  - id: reference\n    objects:\n      - id: keywords\n",
        encoding="utf-8",
    )
    core = CatDoc(root).trace("quickstart", "keywords").message
    assert core is not None and "quickstart does reference keywords" in core
    async with Client(build_server(CatDoc(root))) as connected:
        args = {"sourceId": "quickstart", "targetId": "keywords"}
        data = data_of(await connected.call_tool("catdoc_trace", args))
    assert data["found"] is False
    assert data["message"] == core.replace(
        "`catdoc validate --suggest`", "`catdoc validate --suggest` (MCP: catdoc_suggest_mappings)"
    )


async def test_trace_against_the_functors_says_to_trace_the_other_way(reader: Client) -> None:
    args = {"sourceId": "des-login-form", "targetId": "req-login"}
    data = data_of(await reader.call_tool("catdoc_trace", args))
    assert data["found"] is False
    assert data["message"].endswith("A trace from req-login to des-login-form follows them.")
