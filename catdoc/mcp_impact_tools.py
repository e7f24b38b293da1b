"""The change MCP tools: what a change reaches (catdoc_impact) and what changed in the model
between two git revisions (catdoc_diff). Each is one `CatDoc` call (see
`catdoc.service_impact`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from catdoc.change_results import Direction, ImpactResult, ModelDiff
from catdoc.git_revisions import MAX_REVISION_CHARS
from catdoc.service import CatDoc
from catdoc.service_impact import MAX_IMPACT_DEPTH

if TYPE_CHECKING:
    from catdoc.mcp_server import CatDocMCPServer

IMPACT_TOOLS = ("catdoc_impact", "catdoc_diff")

Revision = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_REVISION_CHARS,
        description="A git revision naming one commit: a commit id, a branch or tag name, "
        "HEAD, HEAD~2, main^ (no ranges, no options).",
    ),
]


def register_impact_tools(server: CatDocMCPServer, svc: CatDoc) -> None:
    """Register the change tools on `server`, bound to `svc`."""
    tool = server.catdoc_tool

    @tool(
        name="catdoc_impact",
        title="Impact of a change",
        description="Everything a change to a document reaches across morphisms and functor "
        "mappings, grouped by category, each reached document once with its distance and one "
        "shortest path (hops with kind, id and direction along|against), nearest first. "
        "direction 'down' follows the links (what it depends on and maps to: requirement → "
        "specs → design → code → tests), 'up' goes against them (what depends on it or maps "
        "onto it), 'both' either way; depth bounds the hops (default: everything reachable). "
        "With changedSince (a git revision), the documents changed since then are starting "
        "points too, and each reached document names the changed ones that reach it. Use it "
        "to answer 'what must be reviewed if this document changes' or 'what does this pull "
        "request affect'. Do NOT use it for the paths between two given documents "
        "(catdoc_trace), for a document's direct neighbours (catdoc_context), or to read a "
        "document (catdoc_show_object).",
    )
    def catdoc_impact(
        objectId: Annotated[
            str | None,
            Field(
                description="The document (object id) whose change you ask about; may be "
                "left out when changedSince is given."
            ),
        ] = None,
        direction: Annotated[
            Direction,
            Field(description="down (along the links), up (against them) or both."),
        ] = "down",
        depth: Annotated[
            int | None,
            Field(
                ge=1,
                le=MAX_IMPACT_DEPTH,
                description="At most this many hops; null for everything reachable.",
            ),
        ] = None,
        changedSince: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=MAX_REVISION_CHARS,
                description="A git revision (e.g. 'main', 'HEAD~1'): the documents whose files "
                "changed since then become starting points.",
            ),
        ] = None,
    ) -> ImpactResult:
        return svc.impact(objectId, depth=depth, direction=direction, changed_since=changedSince)

    @tool(
        name="catdoc_diff",
        title="Model changes between revisions",
        description="What changed in the CatDoc model between two git revisions (toRevision "
        "defaults to the working tree): entities added, removed and changed (with the keys "
        "that changed), functor and natural-transformation entries changed (before/after), "
        "and validation findings new or resolved. Use it to review a pull request or a "
        "commit's effect on the model. Do NOT use it for the current findings "
        "(catdoc_validate) or for what a change affects downstream (catdoc_impact).",
    )
    def catdoc_diff(
        fromRevision: Revision,
        toRevision: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=MAX_REVISION_CHARS,
                description="The revision to compare to; null for the working tree.",
            ),
        ] = None,
    ) -> ModelDiff:
        return svc.diff(fromRevision, toRevision)
