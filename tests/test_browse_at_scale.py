"""The browsing tools on a generated 10,000-document project, through a real MCP client session:
every answer is consistent with the model it describes (counts, pages, clusters, structure), at
the size the budgets are set for. Timing is measured in benchmarks/, not here."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_project import data_of, error_of

from catdoc.mcp_server import build_server
from catdoc.paging import MAX_LIMIT
from catdoc.service import CatDoc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.generate import generate

pytestmark = pytest.mark.anyio
DOCUMENTS = 10_000


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> CatDoc:
    root = generate(DOCUMENTS, tmp_path_factory.mktemp("scale") / "p")
    svc = CatDoc(root)
    svc.build_index()
    return svc


@pytest.fixture(scope="module")
async def client(project: CatDoc) -> AsyncIterator[Client]:
    async with Client(build_server(project)) as connected:
        yield connected


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    return data_of(await client.call_tool(tool, arguments))


async def test_category_statistics_add_up(client: Client, project: CatDoc) -> None:
    page = await call(client, "catdoc_list_categories", sortBy="documentCount", statistics=True)
    model = project.project()
    assert page["total"] == len(model.categories)
    stats = [c["statistics"] for c in page["categories"]]
    counts = [c["documentCount"] for c in stats]
    assert counts == sorted(counts, reverse=True)
    assert sum(c["objectCount"] for c in page["categories"]) == DOCUMENTS
    assert sum(counts) == DOCUMENTS == page["statistics"]["documents"]
    assert all(c["chunkCount"] >= c["documentCount"] for c in stats)
    paged = [
        c["id"]
        for offset in range(0, page["total"], 2)
        for c in (await call(client, "catdoc_list_categories", limit=2, offset=offset))[
            "categories"
        ]
    ]
    assert sorted(paged) == sorted(c.id for c in model.categories)


async def test_index_summary_matches_the_model(client: Client, project: CatDoc) -> None:
    summary = await call(client, "catdoc_index_summary", detail="comprehensive")
    counts = summary["counts"]
    assert counts["objects"] == DOCUMENTS
    assert counts["documents"] == DOCUMENTS
    assert counts["passages"] >= DOCUMENTS
    assert counts["categories"] == len(project.project().categories)


async def test_document_structure_of_a_generated_document(client: Client) -> None:
    objects = await call(client, "catdoc_list_objects", limit=1, offset=DOCUMENTS // 2)
    ident = objects["items"][0]["id"]
    structure = await call(client, "catdoc_document_structure", objectId=ident)
    assert structure["id"] == ident
    assert structure["passageCount"] >= 1
    lines = [(p["startLine"], p["endLine"]) for p in structure["passages"]]
    assert lines == sorted(lines)
    assert all(start <= end for start, end in lines)
    missing = error_of(await client.call_tool("catdoc_document_structure", {"objectId": "nope"}))
    assert missing["code"] == "NOT_FOUND"


async def test_clusters_partition_the_clustered_documents(client: Client, project: CatDoc) -> None:
    first = await call(client, "catdoc_list_clusters", limit=MAX_LIMIT)
    assert first["total"] >= 1
    sizes = 0
    for offset in range(0, first["total"], MAX_LIMIT):
        page = await call(client, "catdoc_list_clusters", limit=MAX_LIMIT, offset=offset)
        assert all(cluster["name"] for cluster in page["items"])
        sizes += sum(cluster["size"] for cluster in page["items"])
    assert sizes + first["unclustered"] == first["documents"] == DOCUMENTS
    clusters = project.clusters().clusters
    members = [member for cluster in clusters for member in cluster.members]
    assert len(members) == len(set(members)) == sizes  # no document in two clusters


async def test_search_within_a_cluster_finds_only_its_members(
    client: Client, project: CatDoc
) -> None:
    page = await call(client, "catdoc_list_clusters", limit=1, includeMembers=True)
    cluster = page["items"][0]
    shown = await call(client, "catdoc_show_cluster", clusterId=cluster["id"], memberLimit=5)
    assert shown["id"] == cluster["id"] and len(shown["members"]) == min(5, cluster["size"])
    members = set(project.cluster(cluster["id"]).members)
    assert set(cluster["members"]) <= members
    for query in ("latency", "cluster currency", "validation"):
        found = await call(
            client, "catdoc_search", query=query, filters={"clusterId": cluster["id"]}, limit=50
        )
        assert {hit["id"] for hit in found["results"]} <= members


async def test_concepts_link_documents_and_passages(client: Client, project: CatDoc) -> None:
    by_count = await call(client, "catdoc_list_concepts", sortBy="documentCount", limit=5)
    assert by_count["total"] > 0
    counts = [c["documentCount"] for c in by_count["items"]]
    assert counts == sorted(counts, reverse=True)
    top = by_count["items"][0]
    per_category = await call(client, "catdoc_list_concepts", categoryId="requirements", limit=5)
    assert 0 < per_category["total"] <= by_count["total"]

    sources = await call(client, "catdoc_source_concepts", concepts=[top["label"]], limit=200)
    assert sources["total"] == top["documentCount"]
    assert all(top["key"] in doc["concepts"] for doc in sources["items"])
    owner = sources["items"][0]["id"]
    extracted = await call(client, "catdoc_extract_concepts", objectId=owner)
    assert top["key"] in {c["key"] for c in extracted["concepts"]}
    assert project.document_concepts()[owner].keys() == {c["key"] for c in extracted["concepts"]}

    passages = await call(client, "catdoc_concept_search", concept=top["label"], limit=20)
    assert passages["total"] >= 1
    assert {p["id"] for p in passages["items"]} <= {
        s["id"]
        for offset in range(0, sources["total"], 200)
        for s in (
            await call(
                client,
                "catdoc_source_concepts",
                concepts=[top["label"]],
                limit=200,
                offset=offset,
            )
        )["items"]
    }
    scores = [p["score"] for p in passages["items"]]
    assert scores == sorted(scores, reverse=True)

    second = by_count["items"][1]
    per_concept = await call(
        client, "catdoc_concept_sources", concepts=[top["label"], second["label"]], limit=1
    )
    assert [page["total"] for page in per_concept["concepts"]] == counts[:2]
    union = await call(
        client, "catdoc_source_concepts", concepts=[top["label"], second["label"]], limit=1
    )
    assert max(counts[:2]) <= union["total"] <= sum(counts[:2])
    unknown = error_of(
        await client.call_tool("catdoc_concept_search", {"concept": "zzqx unknown thing"})
    )
    assert unknown["code"] == "NOT_FOUND"


async def test_search_filters_and_content_at_scale(client: Client) -> None:
    layers = ["requirements", "tests"]
    found = await call(
        client,
        "catdoc_search",
        query="latency validation",
        filters={"category": layers, "fileType": ["md", "txt"]},
        includeContent=True,
        limit=50,
    )
    assert found["results"]
    for hit in found["results"]:
        assert hit["category"] in layers and hit["path"].endswith(".md")
        assert hit["content"] and len(hit["content"]) <= hit["contentLength"]
    passages = await call(
        client,
        "catdoc_search",
        query="latency",
        scope="chunks",
        filters={"chunkRange": {"start": 1, "end": 2}},
        limit=50,
    )
    assert passages["results"]
    assert all(1 <= hit["chunkIndex"] <= 2 for hit in passages["results"])
