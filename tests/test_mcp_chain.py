"""catdoc_chain through a real MCP client session, on the traceability example: listed read-only
with when to use it, the chain by layer as the service gives it, suspect marks after a document
edit, and errors in CatDoc's shape."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client
from mcp_project import data_of, error_of

from catdoc.mcp_chain_tools import CHAIN_TOOLS
from catdoc.mcp_hints import speak_mcp
from catdoc.mcp_server import build_server
from catdoc.service import CatDoc

pytestmark = pytest.mark.anyio

LAYERS = ["requirements", "specifications", "design", "implementation", "tests"]


@pytest.fixture(params=["legacy", "auto"])
async def client(request: pytest.FixtureRequest, example_copy: Path) -> AsyncIterator[Client]:
    async with Client(build_server(CatDoc(example_copy)), mode=request.param) as connected:
        yield connected


async def test_listed_read_only_with_when_to_use_it(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools if t.name in CHAIN_TOOLS}
    assert set(tools) == set(CHAIN_TOOLS)
    tool = tools["catdoc_chain"]
    assert tool.annotations is not None and tool.annotations.read_only_hint is True
    assert "Use it" in tool.description and "Do NOT use it" in tool.description
    assert "catdoc_impact" in tool.description and "catdoc_trace" in tool.description
    assert tool.output_schema and tool.output_schema["type"] == "object"
    for name, schema in tool.input_schema["properties"].items():
        assert schema.get("description"), name
    assert tool.input_schema["required"] == ["objectId"]


async def test_the_chain_of_a_specification(client: Client, example_copy: Path) -> None:
    data = data_of(await client.call_tool("catdoc_chain", {"objectId": "spec-checkout-api"}))
    assert [g["category"] for g in data["groups"]] == LAYERS
    assert (data["object"], data["up"], data["down"], data["reviews"]) == (
        "spec-checkout-api",
        3,
        12,
        False,
    )
    requirements = data["groups"][0]["entries"]
    assert [(e["id"], e["direction"], e["distance"]) for e in requirements] == [
        ("req-receipt", "up", 2),
        ("req-checkout", "up", 1),
    ]
    assert requirements[1]["path"]["hops"][0]["kind"] == "functor"
    core = CatDoc(example_copy).chain("spec-checkout-api", per_group=50)
    assert data == core.model_dump(mode="json", by_alias=True) | {
        "message": speak_mcp(core.message)  # the core's CLI words, with the tool named
    }
    assert "(MCP: catdoc_review)" in data["message"]


async def test_depth_and_per_category_bound_the_answer(client: Client) -> None:
    near = data_of(
        await client.call_tool(
            "catdoc_chain", {"objectId": "spec-checkout-api", "depth": 1, "perCategory": 1}
        )
    )
    assert near["depth"] == 1
    entries = [e for g in near["groups"] for e in g["entries"]]
    assert all(e["distance"] <= 1 for e in entries)
    specifications = next(g for g in near["groups"] if g["category"] == "specifications")
    assert "spec-checkout-api" in [e["id"] for e in specifications["entries"]]
    assert specifications["truncated"] == specifications["count"] - len(specifications["entries"])
    assert specifications["truncated"] > 0


async def test_suspect_marks_after_a_document_edit(client: Client, example_copy: Path) -> None:
    CatDoc(example_copy).review(all=True, by="Ada")
    cart = example_copy / "docs" / "requirements" / "cart.md"
    cart.write_text(cart.read_text("utf-8") + "\nSaved carts expire after 30 days.\n", "utf-8")
    data = data_of(await client.call_tool("catdoc_chain", {"objectId": "req-checkout"}))
    assert data["reviews"] is True and data["suspects"] >= 1
    marked = [e for g in data["groups"] for e in g["entries"] if e["suspect"]]
    assert len(marked) == data["suspects"]
    assert all(e["suspect"]["status"] == "changed" for e in marked)
    assert any(e["id"] == "req-cart" for e in marked)


async def test_errors_in_catdoc_shape(client: Client) -> None:
    unknown = error_of(await client.call_tool("catdoc_chain", {"objectId": "spec-chekout-api"}))
    assert unknown["code"] == "NOT_FOUND" and "spec-checkout-api" in unknown["didYouMean"]
    for bad in (
        {},
        {"objectId": "req-cart", "depth": 0},
        {"objectId": "req-cart", "perCategory": 0},
        {"objectId": "req-cart", "perCategroy": 3},
    ):
        assert error_of(await client.call_tool("catdoc_chain", bad))["code"] == ("VALIDATION_ERROR")
