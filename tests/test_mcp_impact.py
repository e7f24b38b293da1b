"""catdoc_impact and catdoc_diff through a real MCP client session, on the traceability example
and on a temporary git repository: answers, schemas, and errors in CatDoc's shape."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from git_project import MODEL, init_repo
from mcp import Client
from mcp_project import data_of, error_of

from catdoc.mcp_impact_tools import IMPACT_TOOLS
from catdoc.mcp_server import build_server
from catdoc.service import CatDoc

pytestmark = pytest.mark.anyio

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(tmp_path / "repo")


@pytest.fixture(params=["legacy", "auto"])
async def client(request: pytest.FixtureRequest, repo: Path) -> AsyncIterator[Client]:
    async with Client(build_server(CatDoc(repo)), mode=request.param) as connected:
        yield connected


async def test_tools_are_listed_read_only_with_when_to_use_them(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools if t.name in IMPACT_TOOLS}
    assert set(tools) == set(IMPACT_TOOLS)
    for tool in tools.values():
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert "Use it" in tool.description and "Do NOT use it" in tool.description
        assert tool.output_schema and tool.output_schema["type"] == "object"
        for name, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), (tool.name, name)
    assert "catdoc_trace" in tools["catdoc_impact"].description


async def test_impact_on_the_example() -> None:
    async with Client(build_server(CatDoc(EXAMPLE))) as client:
        data = data_of(
            await client.call_tool(
                "catdoc_impact", {"objectId": "req-checkout", "direction": "down", "depth": 1}
            )
        )
        assert data["total"] == 3 and data["depth"] == 1
        reached = {o["id"] for g in data["groups"] for o in g["objects"]}
        assert reached == {"req-cart", "req-payment", "spec-checkout-api"}
        hop = data["groups"][1]["objects"][0]["path"]["hops"][0]
        assert hop == {
            "kind": "functor",
            "id": "specify",
            "label": "Requirements → Specifications",
            "source": "req-checkout",
            "target": "spec-checkout-api",
            "direction": "along",
        }
        up = data_of(
            await client.call_tool("catdoc_impact", {"objectId": "req-checkout", "direction": "up"})
        )
        assert [o["id"] for g in up["groups"] for o in g["objects"]] == ["req-receipt"]
        unknown = error_of(await client.call_tool("catdoc_impact", {"objectId": "req-chekout"}))
        assert unknown["code"] == "NOT_FOUND" and "req-checkout" in unknown["didYouMean"]
        for bad in ({"objectId": "req-cart", "depth": 0}, {"direction": "sideways"}, {}):
            assert error_of(await client.call_tool("catdoc_impact", bad))["code"] == (
                "VALIDATION_ERROR"
            )


async def test_impact_changed_since_and_diff_in_a_repository(client: Client, repo: Path) -> None:
    (repo / "docs" / "r1.md").write_text("# r1\n\nChanged.\n", encoding="utf-8")
    data = data_of(await client.call_tool("catdoc_impact", {"changedSince": "HEAD"}))
    assert data["changedFiles"] == ["docs/r1.md"] and data["start"] == ["r1"]
    assert {o["id"]: o["reachedFrom"] for g in data["groups"] for o in g["objects"]} == {
        "r2": ["r1"],
        "s1": ["r1"],
        "s2": ["r1"],
    }
    (repo / ".catdoc" / "category.yaml").write_text(
        MODEL.replace("{id: r2, title: Session,", "{id: r2, title: Sessions,"), encoding="utf-8"
    )
    diff = data_of(await client.call_tool("catdoc_diff", {"fromRevision": "HEAD"}))
    assert diff["toRevision"] == "working tree" and diff["toCommit"] is None
    assert diff["changed"] == [
        {"kind": "object", "id": "r2", "category": "req", "fields": ["title"]}
    ]
    same = data_of(
        await client.call_tool("catdoc_diff", {"fromRevision": "HEAD", "toRevision": "main"})
    )
    assert same["unchanged"] is True


async def test_hostile_and_unknown_revisions_are_errors(client: Client) -> None:
    for revision in ("--upload-pack=touch pwned", "-x", "HEAD HEAD", "main..HEAD"):
        for tool, args in (
            ("catdoc_impact", {"changedSince": revision}),
            ("catdoc_diff", {"fromRevision": revision}),
            ("catdoc_diff", {"fromRevision": "HEAD", "toRevision": revision}),
        ):
            assert error_of(await client.call_tool(tool, args))["code"] == "VALIDATION_ERROR"
    huge = error_of(await client.call_tool("catdoc_diff", {"fromRevision": "x" * 10_000}))
    assert huge["code"] == "VALIDATION_ERROR" and len(huge["message"]) < 2_000
    unknown = error_of(await client.call_tool("catdoc_diff", {"fromRevision": "nope"}))
    assert unknown["code"] == "NOT_FOUND"
