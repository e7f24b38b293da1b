"""The cluster MCP tools: the library's clusters of related documents, and one cluster's
members. Each is one `CatDoc` call (see `catdoc.service_clusters`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from catdoc import results as r
from catdoc.mcp_tools import Limit, MemberLimit, MemberOffset, Offset
from catdoc.paging import MAX_LIMIT
from catdoc.service import CatDoc

if TYPE_CHECKING:
    from catdoc.mcp_server import CatDocMCPServer

CLUSTER_TOOLS = ("catdoc_list_clusters", "catdoc_show_cluster")


def register_cluster_tools(server: CatDocMCPServer, svc: CatDoc) -> None:
    """Register the cluster tools on `server`, bound to `svc`."""
    tool = server.catdoc_tool

    @tool(
        name="catdoc_list_clusters",
        title="List clusters of related documents",
        description="The library's clusters: groups of documents that belong together, found "
        "as communities of the document graph (morphisms, references, functor mappings, "
        "shared concepts, and vector similarity when vectors are stored). Each has a stable "
        "id, a name from its top concepts, its size, top concepts and members per category; "
        "largest first, paged with limit/offset (`total` counts all). Use it to see the "
        "themes of an unfamiliar library, or to get a clusterId to scope catdoc_search to. "
        "Documents linked to nothing are counted as `unclustered`. The first call on a large "
        "library may take a few seconds. Do NOT use it to find documents about a topic "
        "(catdoc_search), to browse by category (catdoc_list_categories), or for one "
        "document's neighbours (catdoc_context).",
    )
    def catdoc_list_clusters(
        limit: Limit = 20,
        offset: Offset = 0,
        includeMembers: Annotated[
            bool,
            Field(
                description="Also return each cluster's member ids (most linked first, at "
                "most memberLimit); for titles and paging use catdoc_show_cluster."
            ),
        ] = False,
        memberLimit: Annotated[
            int,
            Field(
                ge=1,
                le=MAX_LIMIT,
                description=f"Most member ids per cluster with includeMembers, 1–{MAX_LIMIT}.",
            ),
        ] = 20,
    ) -> r.ClusterPage:
        return svc.cluster_page(
            limit=limit, offset=offset, include_members=includeMembers, member_limit=memberLimit
        )

    @tool(
        name="catdoc_show_cluster",
        title="Show a cluster of related documents",
        description="One cluster with a page of its members (id, title, category and link "
        "weight inside the cluster, most linked first; `size` counts them all), paged with "
        "memberLimit/memberOffset like catdoc_show_category (the answer echoes both; limit "
        "and offset are not its arguments). Use it after "
        "catdoc_list_clusters to see what a cluster holds. Do NOT use it to search inside the "
        "cluster (catdoc_search with the clusterId filter) or to read a document "
        "(catdoc_show_object). Unknown ids answer NOT_FOUND with close ids.",
    )
    def catdoc_show_cluster(
        clusterId: Annotated[
            str,
            Field(
                min_length=1,
                description="Cluster id from catdoc_list_clusters, e.g. 'cl-req-auth'.",
            ),
        ],
        memberLimit: MemberLimit = 50,
        memberOffset: MemberOffset = 0,
    ) -> r.ClusterDetail:
        return svc.cluster_detail(clusterId, limit=memberLimit, offset=memberOffset)
