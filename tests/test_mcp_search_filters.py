"""catdoc_search's filters and options through a real MCP client session: list-valued filters
(OR within, AND across), source, chunkRange, cardsOnly, clusterId, includeContent, cards and
clusters on every hit, bad arguments as VALIDATION_ERROR, and a description for every field."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from filters_project import URLS, make_docs, write_project
from mcp import Client
from mcp_project import data_of, error_of

from catdoc.mcp_server import build_server
from catdoc.search.hit_details import HIT_CONTENT_CHARS
from catdoc.service import CatDoc

pytestmark = pytest.mark.anyio

DOCS = make_docs()
BY_ID = {d.id: d for d in DOCS}


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[Client]:
    svc = CatDoc(write_project(tmp_path / "proj", DOCS))
    async with Client(build_server(svc)) as connected:
        yield connected


async def search(client: Client, **arguments: Any) -> dict[str, Any]:
    arguments = {"query": "common", "limit": 100, **arguments}
    return data_of(await client.call_tool("catdoc_search", arguments))


def ids(data: dict[str, Any]) -> set[str]:
    return {hit["id"] for hit in data["results"]}


async def test_every_argument_and_filter_field_has_a_description(client: Client) -> None:
    (tool,) = [t for t in (await client.list_tools()).tools if t.name == "catdoc_search"]
    schema = tool.input_schema
    for name in ("includeContent", "includeClusters", "filters"):
        assert schema["properties"][name].get("description"), name
    defs = schema["$defs"]
    fields = defs["SearchFilters"]["properties"]
    assert {"category", "tags", "fileType", "source", "chunkRange", "cardsOnly", "clusterId"} <= (
        set(fields)
    )
    for name, field in [*fields.items(), *defs["ChunkRange"]["properties"].items()]:
        assert field.get("description"), name
    for name in ("category", "tags", "fileType", "source"):
        kinds = {choice.get("type") for choice in fields[name]["anyOf"]}
        assert {"string", "array"} <= kinds, name
    assert "when" not in tool.description or "Do NOT" in tool.description


async def test_list_filters_or_within_and_across(client: Client) -> None:
    red_or_blue = {d.id for d in DOCS if {"red", "blue"} & set(d.tags)}
    assert ids(await search(client, filters={"tags": ["red", "blue"]})) == red_or_blue
    assert ids(await search(client, filters={"tags": "red"})) == {
        d.id for d in DOCS if "red" in d.tags
    }
    both = await search(client, filters={"category": ["alpha", "gamma"], "fileType": ["txt"]})
    assert ids(both) == {
        d.id for d in DOCS if d.category in ("alpha", "gamma") and d.file_type == "txt"
    }
    single = await search(client, filters={"category": "alpha", "fileType": "md"})
    assert ids(single) == {d.id for d in DOCS if d.category == "alpha" and d.file_type == "md"}


async def test_source_filter(client: Client) -> None:
    inline = {d.id for d in DOCS if d.path is None}
    assert ids(await search(client, filters={"source": "inline"})) == inline
    wiki = {d.id for d in DOCS if d.url and d.url.startswith(URLS[0])}
    assert ids(await search(client, filters={"source": [URLS[0], "inline"]})) == wiki | inline
    folder = {d.id for d in DOCS if d.path and d.path.startswith("docs/misc/")}
    assert ids(await search(client, filters={"source": "docs/misc"})) == folder


async def test_chunk_range(client: Client) -> None:
    data = await search(client, filters={"chunkRange": {"start": 1, "end": 2}})
    assert data["scope"] == "chunks" and any("chunkRange" in n for n in data["notes"])
    assert {hit["chunkIndex"] for hit in data["results"]} == {1, 2}
    data = await search(client, scope="chunks", filters={"chunkRange": {"start": 3}})
    assert {(h["id"], h["chunkIndex"]) for h in data["results"]} == {
        (d.id, n) for d in DOCS for n in d.passages() if n >= 3
    }


async def test_cards_only_and_cards_on_every_hit(client: Client) -> None:
    data = await search(client, filters={"cardsOnly": True})
    expected = {d.id for d in DOCS if d.summary and "common" in d.summary}
    assert ids(data) == expected and data["total"] == len(expected)
    assert all(hit["summary"] == BY_ID[hit["id"]].summary for hit in data["results"])
    for scope in ("documents", "chunks"):
        plain = await search(client, scope=scope)
        assert all(hit["summary"] == BY_ID[hit["id"]].summary for hit in plain["results"])


async def test_cluster_filter_and_cluster_info_by_default(client: Client) -> None:
    first = await search(client)  # the clusters are not computed yet: the search does not wait
    if all(hit["clusterId"] is None for hit in first["results"]):
        assert any("computed in the background" in note for note in first["notes"])
    data = await search(client, includeClusters=True)  # waits for them
    clusters = {hit["clusterId"] for hit in data["results"]} - {None}
    assert clusters and all(
        hit["clusterName"] for hit in data["results"] if hit["clusterId"] is not None
    )
    chosen = sorted(clusters)[0]
    members = {hit["id"] for hit in data["results"] if hit["clusterId"] == chosen}
    within = await search(client, filters={"clusterId": chosen})
    assert ids(within) == members
    assert {hit["clusterId"] for hit in within["results"]} == {chosen}
    later = await search(client)  # computed now: the default carries them
    assert [hit["clusterId"] for hit in later["results"]] == [
        hit["clusterId"] for hit in data["results"]
    ]
    off = await search(client, includeClusters=False)
    assert all(hit["clusterId"] is None for hit in off["results"])
    error = error_of(
        await client.call_tool("catdoc_search", {"query": "x", "filters": {"clusterId": "cl-no"}})
    )
    assert error["code"] == "NOT_FOUND"


async def test_include_content(client: Client) -> None:
    plain = await search(client, scope="chunks")
    assert all(hit["content"] is None for hit in plain["results"])
    passages = await search(client, scope="chunks", includeContent=True)
    assert all("common" in hit["content"].lower() for hit in passages["results"])
    documents = await search(client, includeContent=True)
    for hit in documents["results"]:
        assert hit["content"].strip() == BY_ID[hit["id"]].text.strip()
        assert hit["truncated"] is False and hit["contentLength"] <= HIT_CONTENT_CHARS


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"filters": {"tags": []}}, ["filters.tags", "empty list"]),
        ({"filters": {"category": ["alpha", ""]}}, ["filters.category", "empty value"]),
        ({"filters": {"fileType": 3}}, ["filters.fileType", "string or a list of strings"]),
        ({"filters": {"source": [f"s{n}" for n in range(101)]}}, ["at most 100"]),
        ({"filters": {"chunkRange": {"start": 4, "end": 2}}}, ["start 4 is after end 2"]),
        ({"filters": {"chunkRange": {"start": -1}}}, ["chunkRange.start"]),
        ({"filters": {"chunkRange": {"end": 10**12}}}, ["chunkRange.end"]),
        ({"filters": {"chunkRange": {"start": "1"}}}, ["chunkRange.start"]),
        ({"filters": {"chunkRange": [0, 2]}}, ["chunkRange"]),
        ({"filters": {"cardsOnly": True}, "scope": "chunks"}, ["cardsOnly", "scope chunks"]),
        ({"filters": {"cardsOnly": True, "chunkRange": {"end": 1}}}, ["cardsOnly", "chunkRange"]),
        ({"includeContent": "maybe"}, ["includeContent"]),
    ],
)
async def test_bad_arguments_are_validation_errors(
    client: Client, arguments: dict[str, Any], words: list[str]
) -> None:
    error = error_of(await client.call_tool("catdoc_search", {"query": "common", **arguments}))
    assert error["code"] == "VALIDATION_ERROR"
    assert all(word in error["message"] for word in words), error
