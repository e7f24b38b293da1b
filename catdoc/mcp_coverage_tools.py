"""The coverage MCP tool: how completely each functor maps its layers (one `CatDoc` call, see
`catdoc.coverage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from catdoc import results as r
from catdoc.service import CatDoc

if TYPE_CHECKING:
    from catdoc.mcp_server import CatDocMCPServer

COVERAGE_TOOLS = ("catdoc_coverage",)


def register_coverage_tools(server: CatDocMCPServer, svc: CatDoc) -> None:
    """Register catdoc_coverage on `server`, bound to `svc`."""

    @server.catdoc_tool(
        name="catdoc_coverage",
        title="Traceability coverage",
        description="Per functor F: A → B (a traceability map between two layers), the share "
        "of A's objects F maps (`objects`), of B's objects reached as images (`reached`; the "
        "others are `orphans`, e.g. a test that tests nothing), and of A's generating "
        "morphisms mapped (`morphisms`), with the unmapped ids. A share of 0 of 0 has percent "
        "null. With minimum, `below` names every share under it. Use it to answer 'what is "
        "not covered yet'. Do NOT use it for whether the mappings are lawful "
        "(catdoc_validate_functor) or for what one change affects (catdoc_trace).",
    )
    def catdoc_coverage(
        functors: Annotated[
            list[str] | None,
            Field(description="Functor ids to report (default: every functor)."),
        ] = None,
        minimum: Annotated[
            float | None,
            Field(ge=0, le=100, description="A threshold in percent, 0–100; see `below`."),
        ] = None,
    ) -> r.CoverageReport:
        return svc.coverage(functors or (), minimum=minimum)
