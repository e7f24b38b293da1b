"""The suspect-link MCP tools: which links need a review (read-only), and stamping them as
reviewed (a write: one `CatDoc` edit through the write path, with its lock and version check).
A read-only server leaves catdoc_review out, and its answers say that a review is stamped on the
command line (or by a server that may write) instead of naming the tool it does not serve."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from catdoc import results as r
from catdoc.edit import EditResult
from catdoc.mcp_write_tools import ExpectedVersion
from catdoc.paging import MAX_LIMIT, MAX_OFFSET
from catdoc.service import CatDoc
from catdoc.service_suspects import DEFAULT_SUSPECTS

if TYPE_CHECKING:
    from catdoc.mcp_server import CatDocMCPServer

SUSPECT_TOOLS = ("catdoc_suspects", "catdoc_review")


def register_suspect_tools(server: CatDocMCPServer, svc: CatDoc) -> None:
    """Register catdoc_suspects and (unless the server is read-only) catdoc_review."""
    stamping = (
        "after the user has checked them, catdoc_review stamps them"
        if server.writes_allowed
        else "after the user has checked them, they stamp them with `catdoc review KEY…` on the "
        "command line (this server is read-only and has no tool that stamps reviews; a server "
        "started without --read-only has one)"
    )

    @server.catdoc_tool(
        name="catdoc_suspects",
        title="Links that need a review",
        description="The links (morphisms, functor mapping entries, natural-transformation "
        "components) whose documents changed since a person reviewed them (`changed`: which "
        "end, which documents, and a unified diff of each since the review when git has the "
        "reviewed version), then the links never reviewed (`unreviewed`). Whitespace and "
        "front-matter edits do not count. `enabled` is false until .catdoc/reviews.yaml "
        "exists. Use it after documents changed, to say which traceability links must be "
        f"re-checked; {stamping}. Do NOT use it for model errors (catdoc_validate) or for "
        "what a change reaches (catdoc_trace).",
    )
    def catdoc_suspects(
        category: Annotated[
            str | None,
            Field(description="Only links touching this category (id, name or alias)."),
        ] = None,
        limit: Annotated[
            int, Field(ge=1, le=MAX_LIMIT, description="Links returned (totals count all).")
        ] = DEFAULT_SUSPECTS,
        offset: Annotated[
            int,
            Field(ge=0, le=MAX_OFFSET, description=f"Links skipped (paging), 0–{MAX_OFFSET}."),
        ] = 0,
        includeDiffs: Annotated[
            bool, Field(description="Attach the diff of each changed document (from git).")
        ] = True,
    ) -> r.SuspectReport:
        return svc.suspects(category, limit=limit, offset=offset, diffs=includeDiffs)

    @server.catdoc_tool(
        name="catdoc_review",
        title="Mark links as reviewed",
        description="Stamp links as reviewed: the fingerprints of the documents at both ends "
        "as they are now go into .catdoc/reviews.yaml (created on the first review, which "
        "turns reviews on). Name links by the keys catdoc_suspects returns, or by a morphism, "
        "functor, natural transformation or object id (all its links); or all=true for every "
        "link. Use it only after the user confirmed the linked documents still agree; never "
        "to silence catdoc_suspects unread. New links made with the other edit tools are "
        "stamped already.",
        read_only=False,
        destructive=False,
        idempotent=True,
    )
    def catdoc_review(
        ids: Annotated[
            list[str] | None,
            Field(description="Link keys (morphism:ID, functor:F:object:ID, nat:N:ID …) or ids."),
        ] = None,
        all: Annotated[bool, Field(description="Review every link instead of ids.")] = False,
        by: Annotated[
            str | None, Field(description="Who reviewed (default: git's user.name).")
        ] = None,
        expectedVersion: ExpectedVersion = None,
    ) -> EditResult:
        return svc.review(ids, all=all, by=by, expected_version=expectedVersion)


__all__ = ["SUSPECT_TOOLS", "register_suspect_tools"]
