"""The cluster tools through a real MCP client (in-process, both handshake modes) and once over
stdio: pages, members, details, empty answers that say why, unknown ids and bad arguments."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from cluster_project import write_project
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp_project import data_of, error_of

from catdoc.mcp_cluster_tools import CLUSTER_TOOLS
from catdoc.mcp_server import build_server
from catdoc.service import CatDoc

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[1]
AUTH = {f"auth-{i}" for i in range(5)}
BILLING = {f"bill-{i}" for i in range(5)}


@pytest.fixture(params=["legacy", "auto"])
async def client(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Client]:
    root = write_project(tmp_path / "proj")
    async with Client(build_server(CatDoc(root)), mode=request.param) as connected:
        yield connected


async def test_tools_are_listed_read_only_with_when_to_use_them(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools if t.name in CLUSTER_TOOLS}
    assert set(tools) == set(CLUSTER_TOOLS)
    for tool in tools.values():
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert "Use it" in tool.description and "Do NOT use it" in tool.description
        for name, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), (tool.name, name)


async def test_list_clusters_pages_with_names_sizes_and_members(client: Client) -> None:
    data = data_of(await client.call_tool("catdoc_list_clusters", {}))
    assert data["total"] == 2 and data["documents"] == 11 and data["unclustered"] == 1
    assert [c["size"] for c in data["items"]] == [5, 5]
    assert all(
        "members" not in c and c["name"] and c["id"].startswith("cl-") for c in data["items"]
    )
    assert data["links"]["morphisms"] == 20 and data["message"] is None
    page = data_of(
        await client.call_tool(
            "catdoc_list_clusters",
            {"limit": 1, "offset": 1, "includeMembers": True, "memberLimit": 3},
        )
    )
    assert len(page["items"]) == 1 and page["total"] == 2 and page["offset"] == 1
    members = page["items"][0]["members"]
    assert len(members) == 3 and (set(members) <= AUTH or set(members) <= BILLING)
    assert members[0] == page["items"][0]["central"]


async def test_show_cluster_gives_a_page_of_members_with_titles(client: Client) -> None:
    listed = data_of(await client.call_tool("catdoc_list_clusters", {"includeMembers": True}))
    cluster = listed["items"][0]
    data = data_of(
        await client.call_tool(
            "catdoc_show_cluster",
            {"clusterId": cluster["id"], "memberLimit": 2, "memberOffset": 1},
        )
    )
    assert [m["id"] for m in data["members"]] == cluster["members"][1:3]
    assert data["size"] == 5 and data["memberLimit"] == 2 and data["memberOffset"] == 1
    assert all(m["title"] and m["category"] in {"auth", "billing"} for m in data["members"])


async def test_show_cluster_pages_with_the_names_its_answer_and_show_category_use(
    client: Client,
) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    cluster_args = set(tools["catdoc_show_cluster"].input_schema["properties"])
    category_args = set(tools["catdoc_show_category"].input_schema["properties"])
    assert cluster_args == {"clusterId", "memberLimit", "memberOffset"}
    assert {"memberLimit", "memberOffset"} <= category_args
    answer = set(tools["catdoc_show_cluster"].output_schema["properties"])
    assert {"memberLimit", "memberOffset"} <= answer and not {"limit", "offset"} & answer
    assert "memberLimit/memberOffset" in tools["catdoc_show_cluster"].description
    listed = data_of(await client.call_tool("catdoc_list_clusters", {}))
    known = listed["items"][0]["id"]
    default = data_of(await client.call_tool("catdoc_show_cluster", {"clusterId": known}))
    assert (default["memberLimit"], default["memberOffset"]) == (50, 0)
    old = error_of(await client.call_tool("catdoc_show_cluster", {"clusterId": known, "limit": 2}))
    assert old["code"] == "VALIDATION_ERROR" and old["didYouMean"] == ["memberLimit"]
    for bad in ({"memberLimit": 0}, {"memberLimit": 201}, {"memberOffset": -1}):
        error = error_of(await client.call_tool("catdoc_show_cluster", {"clusterId": known, **bad}))
        assert error["code"] == "VALIDATION_ERROR", bad


async def test_unknown_ids_and_bad_arguments_are_clear_errors(client: Client) -> None:
    listed = data_of(await client.call_tool("catdoc_list_clusters", {}))
    known = listed["items"][0]["id"]
    error = error_of(await client.call_tool("catdoc_show_cluster", {"clusterId": known[:-1]}))
    assert error["code"] == "NOT_FOUND" and known in error["didYouMean"]
    assert "catdoc_list_clusters" in error["hint"]
    for arguments in ({"limit": 0}, {"offset": -1}, {"memberLimit": 500}, {"sortBy": "size"}):
        error = error_of(await client.call_tool("catdoc_list_clusters", arguments))
        assert error["code"] == "VALIDATION_ERROR", arguments
    error = error_of(await client.call_tool("catdoc_show_cluster", {}))
    assert error["code"] == "VALIDATION_ERROR"


async def test_an_unlinked_project_answers_empty_with_the_reason(tmp_path: Path) -> None:
    model = "categories:\n  - id: notes\n    objects:\n      - {id: n1, title: One}\n"
    async with Client(build_server(CatDoc(write_project(tmp_path / "p", model=model)))) as c:
        data = data_of(await c.call_tool("catdoc_list_clusters", {}))
    assert data["items"] == [] and data["total"] == 0 and data["unclustered"] == 1
    assert "None of the 1 documents is linked" in data["message"]


@pytest.mark.slow
async def test_list_clusters_over_stdio(tmp_path: Path) -> None:
    root = write_project(tmp_path / "proj")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "catdoc", "mcp", "--project", str(root)],
        env={**get_default_environment(), "PYTHONPATH": str(REPO)},
        cwd=str(tmp_path),
    )
    async with Client(params) as stdio:
        data = data_of(await stdio.call_tool("catdoc_list_clusters", {"includeMembers": True}))
        assert {frozenset(c["members"]) for c in data["items"]} == {
            frozenset(AUTH),
            frozenset(BILLING),
        }
        shown = data_of(
            await stdio.call_tool("catdoc_show_cluster", {"clusterId": data["items"][0]["id"]})
        )
        assert shown["size"] == 5
