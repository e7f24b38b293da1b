"""The browsing tools through a real MCP client session: catdoc_list_categories (sortBy, filter,
limit/offset, statistics, memberOffset, includeChildren), catdoc_index_summary and
catdoc_document_structure, on the browsing project and the traceability example; one stdio
round trip."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from browse_project import copy_example, make_browse_project
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp_project import data_of, error_of

from catdoc.mcp_browse_tools import BROWSE_TOOLS
from catdoc.mcp_server import build_server
from catdoc.service import CatDoc

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(params=["legacy", "auto"])
async def client(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Client]:
    root = make_browse_project(tmp_path / "proj")
    async with Client(build_server(CatDoc(root)), mode=request.param) as connected:
        yield connected


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    return data_of(await client.call_tool(tool, arguments))


def ids(data: dict[str, Any]) -> list[str]:
    return [c["id"] for c in data["categories"]]


async def test_browse_tools_are_listed_read_only_and_described(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    for name in (*BROWSE_TOOLS, "catdoc_list_categories"):
        tool = tools[name]
        description = tool.description or ""
        assert "use" in description.lower() and "catdoc_" in description, name
        assert name == "catdoc_list_categories" or "Do NOT use" in description, name
        assert tool.output_schema and tool.output_schema.get("type") == "object"
        for arg, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{name}.{arg} has no description"
        notes = tool.annotations
        assert notes is not None and notes.read_only_hint is True
        assert notes.destructive_hint is False and notes.open_world_hint is False
    arguments = set(tools["catdoc_list_categories"].input_schema["properties"])
    assert {"sortBy", "filter", "limit", "offset", "statistics", "memberOffset"} <= arguments
    assert {"category", "includeChildren", "includeMembers", "memberLimit"} <= arguments


async def test_list_categories_sorted_filtered_and_paged(client: Client) -> None:
    data = await call(client, "catdoc_list_categories")
    assert ids(data) == ["engineering", "backend", "frontend", "ops", "archive"]
    assert data["total"] == 5 and data["version"] and data["statistics"] is None
    by_name = await call(client, "catdoc_list_categories", sortBy="name", limit=2, offset=1)
    assert ids(by_name) == ["backend", "engineering"] and by_name["total"] == 5
    popular = await call(client, "catdoc_list_categories", sortBy="popularity", limit=1)
    assert ids(popular) == ["backend"]
    filtered = await call(client, "catdoc_list_categories", filter="end")
    assert ids(filtered) == ["backend", "frontend"] and filtered["filter"] == "end"
    glob = await call(client, "catdoc_list_categories", filter="eng*")
    assert ids(glob) == ["engineering"]


async def test_list_categories_statistics(client: Client) -> None:
    data = await call(client, "catdoc_list_categories", sortBy="chunkCount", statistics=True)
    assert ids(data)[0] == "backend"
    backend = data["categories"][0]["statistics"]
    assert backend["documentCount"] == 2 and backend["chunkCount"] == 6
    assert backend["conceptCount"] > 0
    by_concepts = await call(client, "catdoc_list_categories", sortBy="conceptCount", limit=1)
    assert ids(by_concepts) == ["engineering"]  # its subcategories' concepts count too
    totals = data["statistics"]
    assert totals["categories"] == 5 and totals["documents"] == 3 and totals["chunks"] == 7
    assert totals["mostPopularCategory"] == "backend"
    assert totals["averageDocumentsPerCategory"] == 0.6


async def test_list_categories_members_children_and_empty_answers(client: Client) -> None:
    members = await call(
        client,
        "catdoc_list_categories",
        category="backend",
        includeMembers=True,
        memberLimit=1,
        memberOffset=1,
    )
    assert [o["id"] for o in members["categories"][0]["objects"]] == ["db-notes"]
    assert members["categories"][0]["objectCount"] == 2
    tree = await call(client, "catdoc_list_categories", category="eng", includeChildren=True)
    assert ids(tree) == ["engineering", "backend", "frontend"]
    refused = error_of(await client.call_tool("catdoc_list_categories", {"includeChildren": True}))
    assert refused["code"] == "VALIDATION_ERROR" and "category" in refused["hint"]
    empty = await call(client, "catdoc_list_categories", filter="nothing like it")
    assert empty["categories"] == [] and empty["total"] == 0 and "filter" in empty["message"]
    unknown = error_of(await client.call_tool("catdoc_list_categories", {"category": "opps"}))
    assert unknown["code"] == "NOT_FOUND" and "ops" in unknown["didYouMean"]


@pytest.mark.parametrize(
    "arguments",
    [
        {"sortBy": "size"},
        {"limit": 0},
        {"offset": -1},
        {"memberOffset": -1},
        {"filter": "x" * 201},
        {"statistics": "lots"},
    ],
)
async def test_list_categories_bad_arguments(client: Client, arguments: dict[str, Any]) -> None:
    error = error_of(await client.call_tool("catdoc_list_categories", arguments))
    assert error["code"] == "VALIDATION_ERROR"


async def test_index_summary_at_each_detail(client: Client) -> None:
    basic = await call(client, "catdoc_index_summary")
    assert basic["detail"] == "basic" and basic["categories"] is None
    assert basic["counts"] == {
        "objects": 5,
        "documents": 3,
        "unreadable": 1,
        "withoutText": 1,
        "passages": 7,
        "categories": 5,
        "morphisms": 1,
        "functors": 0,
        "naturalTransformations": 0,
    }
    detailed = await call(client, "catdoc_index_summary", detail="detailed")
    assert detailed["state"]["upToDate"] is True and detailed["state"]["pending"] == 0
    assert basic["message"] and "ui-missing" in basic["message"]
    assert detailed["fileTypes"] == {"md": 2, "": 1} and detailed["sizes"] is None
    assert detailed["dates"]["oldestDocument"] == "2024-03-01"
    assert [c["id"] for c in detailed["categories"]][:2] == ["engineering", "backend"]
    full = await call(client, "catdoc_index_summary", detail="comprehensive")
    assert full["sizes"]["indexBytes"] > 0 and full["sizes"]["documentBytes"] > 0
    assert full["state"]["unreadableDocuments"] == 1
    assert {v["scope"] for v in full["state"]["vectors"]} == {"documents", "chunks"}
    error = error_of(await client.call_tool("catdoc_index_summary", {"detail": "all"}))
    assert error["code"] == "VALIDATION_ERROR"


async def test_document_structure(client: Client) -> None:
    doc = await call(client, "catdoc_document_structure", objectId="api-guide")
    assert doc["sectionCount"] == 5 and doc["passageCount"] == 5
    keys = doc["sections"][3]
    assert keys["headingPath"] == ["API guide", "Authentication", "Keys"]
    assert (keys["level"], keys["parent"], keys["startLine"], keys["endLine"]) == (3, 1, 13, 15)
    assert doc["passages"][4]["headingPath"] == ["API guide", "Errors"]
    page = await call(client, "catdoc_document_structure", objectId="api-guide", limit=1, offset=4)
    assert [p["index"] for p in page["passages"]] == [4]
    idea = await call(client, "catdoc_document_structure", objectId="ops-abstract")
    assert idea["passages"] == [] and "neither a file" in idea["message"]
    error = error_of(await client.call_tool("catdoc_document_structure", {"objectId": "api"}))
    assert error["code"] == "NOT_FOUND" and "api-guide" in error["didYouMean"]
    bad = error_of(await client.call_tool("catdoc_document_structure", {"objectId": ""}))
    assert bad["code"] == "VALIDATION_ERROR"


async def test_browsing_the_traceability_example(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path / "t")
    async with Client(build_server(CatDoc(root))) as client:
        listing = await call(
            client, "catdoc_list_categories", sortBy="documentCount", statistics=True, limit=2
        )
        assert ids(listing) == ["tests", "requirements"] and listing["total"] == 5
        assert listing["statistics"]["documents"] == 22
        summary = await call(client, "catdoc_index_summary", detail="detailed")
        assert summary["counts"]["objects"] == 22 and summary["counts"]["functors"] == 5
        assert summary["fileTypes"] == {"md": 22}
        doc = await call(client, "catdoc_document_structure", objectId="req-cart")
        assert doc["sections"][0]["headingPath"] == ["Shopping cart"]
        assert all(p["startLine"] <= p["endLine"] for p in doc["passages"])


@pytest.mark.slow
async def test_stdio_round_trip(tmp_path: Path) -> None:
    root = make_browse_project(tmp_path / "proj")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "catdoc.mcp_server", "--project", str(root)],
        env={**get_default_environment(), "PYTHONPATH": str(REPO)},
        cwd=str(tmp_path),
    )
    async with Client(params) as client:
        summary = await call(client, "catdoc_index_summary", detail="basic")
        assert summary["counts"]["passages"] == 7
        doc = await call(client, "catdoc_document_structure", objectId="api-guide")
        assert doc["sectionCount"] == 5
        error = error_of(await client.call_tool("catdoc_document_structure", {"objectId": "x"}))
        assert error["code"] == "NOT_FOUND"
