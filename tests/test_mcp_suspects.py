"""catdoc_suspects and catdoc_review through a real MCP client session: reviews off, turned on
by a review, a changed document making its links suspect (inline content too), a review
clearing them, versions (CONFLICT), bad calls, and a read-only server without catdoc_review."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client
from mcp_project import data_of, error_of, make_project

from catdoc.mcp_server import build_server
from catdoc.mcp_suspect_tools import SUSPECT_TOOLS
from catdoc.reviews import REVIEWS_REL
from catdoc.service import CatDoc

pytestmark = pytest.mark.anyio


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


@pytest.fixture
async def client(root: Path) -> AsyncIterator[Client]:
    async with Client(build_server(CatDoc(root))) as connected:
        yield connected


async def suspects(client: Client, **args: object) -> dict:
    return data_of(await client.call_tool("catdoc_suspects", args))


async def test_both_tools_are_listed_with_honest_annotations(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(SUSPECT_TOOLS) <= set(tools)
    read, write = tools["catdoc_suspects"], tools["catdoc_review"]
    assert read.annotations and read.annotations.read_only_hint is True
    assert write.annotations and write.annotations.read_only_hint is False
    assert write.annotations.destructive_hint is False
    assert "expectedVersion" in write.input_schema["properties"]
    for tool in (read, write):
        assert "use" in tool.description.lower() and "catdoc_" in tool.description
        for name, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), name


async def test_a_session_from_reviews_off_to_a_review(client: Client, root: Path) -> None:
    off = await suspects(client)
    assert off["enabled"] is False and off["total"] == 0 and "review --all" in off["message"]

    done = data_of(await client.call_tool("catdoc_review", {"all": True, "by": "Ada"}))
    assert done["files"] == [REVIEWS_REL] and done["changes"][0]["kind"] == "review stamps"
    assert (await suspects(client))["total"] == 0

    doc = root / "docs" / "req-login.md"
    doc.write_text(doc.read_text(encoding="utf-8") + "\nAlso by passkey.\n", encoding="utf-8")
    report = await suspects(client, includeDiffs=False)
    found = {link["key"]: link for link in report["suspects"]}
    assert set(found) == {
        "morphism:login-needs-session",
        "functor:realize:object:req-login",
        "functor:realize:morphism:login-needs-session",
        "functor:realize-v2:object:req-login",
        "functor:realize-v2:morphism:login-needs-session",
    }
    link = found["functor:realize:object:req-login"]
    assert link["status"] == "changed" and link["changedEnds"] == ["source"]
    assert link["reviewedBy"] == "Ada" and link["location"].startswith(".catdoc/category.yaml:")
    assert link["documents"][0]["path"] == "docs/req-login.md"

    paged = await suspects(client, limit=2, offset=1, includeDiffs=False)
    assert paged["total"] == 5 and len(paged["suspects"]) == 2

    cleared = data_of(
        await client.call_tool(
            "catdoc_review", {"ids": ["req-login"], "expectedVersion": done["version"]}
        )
    )
    assert cleared["changes"][0]["id"] == "5 links"
    assert (await suspects(client))["total"] == 0


async def test_inline_content_edited_through_mcp_makes_links_suspect(client: Client) -> None:
    data_of(await client.call_tool("catdoc_review", {"all": True}))
    data_of(
        await client.call_tool(
            "catdoc_upsert_object",
            {
                "categoryId": "design",
                "objectId": "des-session-store",
                "path": "docs/store.md",
                "content": "Sessions now live in Redis.",
            },
        )
    )
    report = await suspects(client, category="design", includeDiffs=False)
    assert "morphism:form-uses-store" in {link["key"] for link in report["suspects"]}
    made = data_of(
        await client.call_tool(
            "catdoc_add_morphism",
            {"categoryId": "design", "source": "des-session-store", "target": "des-login-form"},
        )
    )
    after = await suspects(client, includeDiffs=False)
    assert f"morphism:{made['id']}" not in {link["key"] for link in after["suspects"]}


async def test_refusals_write_nothing(client: Client, root: Path) -> None:
    data_of(await client.call_tool("catdoc_review", {"all": True}))
    before = (root / REVIEWS_REL).read_bytes()
    stale = error_of(
        await client.call_tool("catdoc_review", {"all": True, "expectedVersion": "0" * 20})
    )
    assert stale["code"] == "CONFLICT"
    unknown = error_of(await client.call_tool("catdoc_review", {"ids": ["morphism:nope"]}))
    assert unknown["code"] == "NOT_FOUND"
    neither = error_of(await client.call_tool("catdoc_review", {}))
    assert neither["code"] == "VALIDATION_ERROR"
    bad = error_of(await client.call_tool("catdoc_suspects", {"limit": 0}))
    assert bad["code"] == "VALIDATION_ERROR"
    missing = error_of(await client.call_tool("catdoc_suspects", {"category": "nowhere"}))
    assert missing["code"] == "NOT_FOUND"
    assert (root / REVIEWS_REL).read_bytes() == before


async def test_a_read_only_server_has_suspects_but_no_review(root: Path) -> None:
    async with Client(build_server(CatDoc(root), read_only=True)) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert "catdoc_suspects" in names and "catdoc_review" not in names
        assert (await suspects(client))["enabled"] is False


async def test_a_writing_server_names_catdoc_review_in_its_hints(client: Client) -> None:
    off = await suspects(client)
    assert "`catdoc review --all` (MCP: catdoc_review)" in off["message"]
    data_of(await client.call_tool("catdoc_review", {"all": True}))
    data_of(
        await client.call_tool(
            "catdoc_upsert_object",
            {
                "categoryId": "design",
                "objectId": "des-session-store",
                "content": "Sessions now live in Redis.",
            },
        )
    )
    report = await suspects(client, includeDiffs=False)
    assert report["total"] and report["message"].endswith(
        "Read them, then `catdoc review KEY…` (MCP: catdoc_review)."
    )
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert "catdoc_review stamps them" in tools["catdoc_suspects"].description


async def test_a_read_only_server_sends_reviews_to_the_command_line(root: Path) -> None:
    """Its hints say where a review is stamped instead of proposing a tool it does not serve."""
    async with Client(build_server(CatDoc(root), read_only=True)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        for name in ("catdoc_suspects", "catdoc_chain"):
            description = tools[name].description
            assert "catdoc_review" not in description, name
            assert "`catdoc review" in description and "command line" in description, name
        off = await suspects(client)
        assert "catdoc_review" not in off["message"]
        assert (
            "`catdoc review --all` (run on the command line: this MCP server is read-only"
            in (off["message"])
        )
        assert "started without --read-only" in off["message"]

        CatDoc(root).review(all=True)
        doc = root / "docs" / "req-login.md"
        doc.write_text(doc.read_text(encoding="utf-8") + "\nAlso by passkey.\n", encoding="utf-8")
        report = await suspects(client, includeDiffs=False)
        assert report["total"] == 5 and "catdoc_review" not in report["message"]
        assert "Read them, then `catdoc review KEY…` (run on the command line" in report["message"]

        (root / REVIEWS_REL).write_text("- not a mapping\n", encoding="utf-8")
        broken = error_of(await client.call_tool("catdoc_suspects", {}))
        assert broken["code"] == "LOAD_ERROR" and "catdoc_review" not in broken["hint"]
        assert "`catdoc review --all` (run on the command line" in broken["hint"]
