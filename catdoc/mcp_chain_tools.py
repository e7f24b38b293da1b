"""The chain MCP tool: an object's whole chain, up to its requirements and down to its tests,
by layer, with the links that need a review marked (one `CatDoc` call, see `catdoc.chain`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from catdoc.chain_results import ChainResult
from catdoc.service import CatDoc
from catdoc.service_chain import MAX_PER_GROUP
from catdoc.service_impact import MAX_IMPACT_DEPTH

if TYPE_CHECKING:
    from catdoc.mcp_server import CatDocMCPServer

CHAIN_TOOLS = ("catdoc_chain",)
DEFAULT_PER_CATEGORY = 50


def register_chain_tools(server: CatDocMCPServer, svc: CatDoc) -> None:
    """Register catdoc_chain on `server`, bound to `svc`."""
    review = "catdoc_review" if server.writes_allowed else "`catdoc review` on the command line"

    @server.catdoc_tool(
        name="catdoc_chain",
        title="A document's whole chain",
        description="A document's whole traceability chain in one answer: everything it "
        "derives from (up, against morphisms and functor mappings: its requirements) and "
        "everything that derives from it (down, along them: its specs, designs, code and "
        "tests), grouped by category in layer order (a functor's source before its target). "
        "Each entry has its direction (up|start|down), distance and one shortest path; when "
        "reviews are on, `suspect` says the link reaching it needs a review (changed or "
        f"unreviewed, with the reason and the key for {review}). Use it to answer 'which "
        "requirements does this test cover and which tests cover this requirement', or to see "
        "what must be re-checked around one document. Do NOT use it for one direction only or "
        "for the documents changed since a git revision (catdoc_impact), for the paths between "
        "two given documents (catdoc_trace), or for every suspect link of the project "
        "(catdoc_suspects).",
    )
    def catdoc_chain(
        objectId: Annotated[str, Field(description="The document (object id) at the centre.")],
        depth: Annotated[
            int | None,
            Field(
                ge=1,
                le=MAX_IMPACT_DEPTH,
                description="At most this many hops each way; null for everything reachable.",
            ),
        ] = None,
        perCategory: Annotated[
            int,
            Field(
                ge=1,
                le=MAX_PER_GROUP,
                description="Entries listed per category, the nearest first; `truncated` "
                "counts the rest.",
            ),
        ] = DEFAULT_PER_CATEGORY,
    ) -> ChainResult:
        return svc.chain(objectId, depth=depth, per_group=perCategory)


__all__ = ["CHAIN_TOOLS", "register_chain_tools"]
