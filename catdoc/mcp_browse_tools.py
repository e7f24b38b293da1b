"""The browsing MCP tools: the index summary and one document's structure. Each is one
`CatDoc` call (see `catdoc.service_browse`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from catdoc import results as r
from catdoc.paging import MAX_LIMIT, MAX_OFFSET
from catdoc.service import CatDoc

if TYPE_CHECKING:
    from catdoc.mcp_server import CatDocMCPServer

BROWSE_TOOLS = ("catdoc_index_summary", "catdoc_document_structure")


def register_browse_tools(server: CatDocMCPServer, svc: CatDoc) -> None:
    """Register the browsing tools on `server`, bound to `svc`."""
    tool = server.catdoc_tool

    @tool(
        name="catdoc_index_summary",
        title="Summarise the document library",
        description="An overview of the whole library and its search index: how many objects, "
        "documents (objects with text), objects whose file cannot be read (named in `message`) "
        "or that have no text, passages, categories, morphisms, functors; whether the index "
        "was up to date. detail=detailed adds counts per category, file types and "
        "document dates; detail=comprehensive adds sizes, vectors and index internals. Use it "
        "first to judge how big the library is and what it holds (the first call may build "
        "the search index). Do NOT use it to list or sort categories (catdoc_list_categories) "
        "or to find documents (catdoc_search, catdoc_list_objects).",
    )
    def catdoc_index_summary(
        detail: Annotated[
            Literal["basic", "detailed", "comprehensive"],
            Field(
                description="basic: counts and index state (smallest); detailed: also per "
                "category, file types, dates; comprehensive: also sizes and vectors."
            ),
        ] = "basic",
    ) -> r.IndexSummary:
        return svc.index_summary(detail)

    @tool(
        name="catdoc_document_structure",
        title="Show a document's structure",
        description="One document's outline: its sections (the heading tree, in document "
        "order, each with its level, parent, line range and passage count) and its passages "
        "(chunks) with heading paths, line ranges and sizes. Use it to see how a long "
        "document is organised before reading or searching inside it (then catdoc_search "
        "with filters.object, or catdoc_show_object for the text). Do NOT use it for the "
        "document's links (catdoc_show_object, catdoc_context) or for many documents "
        "(catdoc_list_objects, catdoc_index_summary).",
    )
    def catdoc_document_structure(
        objectId: Annotated[
            str, Field(min_length=1, description="Object (document) id, e.g. 'req-auth'.")
        ],
        limit: Annotated[
            int, Field(ge=1, le=MAX_LIMIT, description=f"Passages per page, 1–{MAX_LIMIT}.")
        ] = MAX_LIMIT,
        offset: Annotated[
            int,
            Field(
                ge=0,
                le=MAX_OFFSET,
                description="Passages to skip (paging); sections are always all given.",
            ),
        ] = 0,
    ) -> r.DocumentStructure:
        return svc.document_structure(objectId, limit=limit, offset=offset)
