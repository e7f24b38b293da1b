"""The concept tools through a real MCP client session on the traceability example:
catdoc_list_concepts, catdoc_concept_search, catdoc_extract_concepts (json and markdown),
catdoc_source_concepts and catdoc_concept_sources; paging, errors; one stdio round trip."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp_project import data_of, error_of

from catdoc.mcp_concept_tools import CONCEPT_TOOLS
from catdoc.mcp_server import build_server
from catdoc.service import CatDoc

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(params=["legacy", "auto"])
async def client(request: pytest.FixtureRequest, example_copy: Path) -> AsyncIterator[Client]:
    async with Client(build_server(CatDoc(example_copy)), mode=request.param) as connected:
        yield connected


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    return data_of(await client.call_tool(tool, arguments))


async def test_concept_tools_are_listed_read_only_and_described(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    for name in CONCEPT_TOOLS:
        tool = tools[name]
        description = tool.description or ""
        assert "Use it" in description and "Do NOT use" in description, name
        assert tool.output_schema and tool.output_schema.get("type") == "object"
        for arg, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{name}.{arg} has no description"
        notes = tool.annotations
        assert notes is not None and notes.read_only_hint is True
    assert set(tools["catdoc_list_concepts"].input_schema["properties"]) == {
        "categoryId",
        "sortBy",
        "limit",
        "offset",
    }


async def test_list_concepts_by_category_sorted_and_paged(client: Client) -> None:
    first = await call(client, "catdoc_list_concepts", limit=3)
    assert len(first["items"]) == 3 and first["total"] > 3 and first["sort"] == "weight"
    second = await call(client, "catdoc_list_concepts", limit=3, offset=3)
    assert {c["key"] for c in first["items"]}.isdisjoint(c["key"] for c in second["items"])
    named = await call(client, "catdoc_list_concepts", categoryId="tests", sortBy="name")
    labels = [c["label"].casefold() for c in named["items"]]
    assert labels == sorted(labels) and named["category"] == "tests"
    counted = await call(client, "catdoc_list_concepts", sortBy="documentCount", limit=5)
    counts = [c["documentCount"] for c in counted["items"]]
    assert counts == sorted(counts, reverse=True)
    empty = await call(client, "catdoc_list_concepts", offset=100_000)
    assert empty["items"] == [] and empty["message"]


async def test_extract_concepts_json_and_markdown(client: Client) -> None:
    found = await call(client, "catdoc_extract_concepts", objectId="req-cart")
    assert found["id"] == "req-cart" and found["concepts"][0]["source"] == "tag"
    assert {"key", "label", "weight", "source", "passages"} <= set(found["concepts"][0])
    shown = await call(client, "catdoc_extract_concepts", objectId="req-cart", format="markdown")
    assert shown["format"] == "markdown"
    assert "| concept | weight | source | passages |" in shown["markdown"]
    assert all(c["label"] in shown["markdown"] for c in found["concepts"])


async def test_concept_search_and_sources(client: Client) -> None:
    hits = await call(client, "catdoc_concept_search", concept="Checkout", limit=2)
    assert hits["concept"]["key"] == "checkout" and len(hits["items"]) == 2
    assert hits["total"] > 2
    scores = [h["score"] for h in hits["items"]]
    assert scores == sorted(scores, reverse=True)
    assert all(h["snippet"] and h["startLine"] for h in hits["items"])
    more = await call(client, "catdoc_concept_search", concept="checkout", limit=2, offset=2)
    assert [(h["id"], h["passage"]) for h in more["items"]] != [
        (h["id"], h["passage"]) for h in hits["items"]
    ]
    union = await call(client, "catdoc_source_concepts", concepts=["checkout", "payment"])
    per = await call(client, "catdoc_concept_sources", concepts=["checkout", "payment"])
    assert [page["concepts"][0]["key"] for page in per["concepts"]] == ["checkout", "payment"]
    each = [{s["id"] for s in page["items"]} for page in per["concepts"]]
    assert {s["id"] for s in union["items"]} == each[0] | each[1]
    assert all(set(s["concepts"]) <= {"checkout", "payment"} for s in union["items"])


async def test_errors_say_what_and_how(client: Client) -> None:
    missing = error_of(await client.call_tool("catdoc_concept_search", {"concept": "securty"}))
    assert missing["code"] == "NOT_FOUND" and "security" in missing["didYouMean"]
    unknown = error_of(await client.call_tool("catdoc_extract_concepts", {"objectId": "x"}))
    assert unknown["code"] == "NOT_FOUND"
    for tool, arguments in [
        ("catdoc_list_concepts", {"sortBy": "popularity"}),
        ("catdoc_list_concepts", {"limit": 0}),
        ("catdoc_list_concepts", {"categoryId": "nope"}),
        ("catdoc_source_concepts", {"concepts": []}),
        ("catdoc_concept_sources", {"concepts": ["checkout", "zzzz qqqq"]}),
        ("catdoc_extract_concepts", {"objectId": "req-cart", "format": "html"}),
    ]:
        result = await client.call_tool(tool, arguments)
        assert result.is_error, (tool, arguments)


async def test_stdio_round_trip(tmp_path: Path, example_copy: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "catdoc.mcp_server", "--project", str(example_copy)],
        env={**get_default_environment(), "PYTHONPATH": str(REPO)},
        cwd=str(tmp_path),
    )
    async with Client(params) as client:
        found = await call(client, "catdoc_extract_concepts", objectId="req-cart")
        assert any(c["label"] == "cart" for c in found["concepts"])
        page = await call(client, "catdoc_list_concepts", categoryId="requirements", limit=2)
        assert len(page["items"]) == 2
        error = error_of(await client.call_tool("catdoc_concept_search", {"concept": "zzzz"}))
        assert error["code"] == "NOT_FOUND"
