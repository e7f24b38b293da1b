"""`catdoc mcp` / `catdoc-mcp`: CatDoc as a Model Context Protocol server over stdio.

The server is a thin face: each `catdoc_*` tool (see `catdoc.mcp_tools`) validates its arguments
against a JSON schema, makes one `CatDoc` call and returns the result model as structured output.
Every failure comes back as a tool error whose text is `{"error": {...}}` (`CatDocError.to_dict`),
so an assistant can read the code and the hint and try again; nothing a client sends stops it.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import sys
import threading
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio
from mcp.server.mcpserver import MCPServer, ResourceSecurity
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import TypeAdapter, ValidationError

from catdoc import __version__, mcp_progress
from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError, closest, not_found
from catdoc.mcp_hints import speak_mcp
from catdoc.mcp_lines import MAX_ECHO_CHARS, claimed_stdio, shorten
from catdoc.mcp_start import Opening, main
from catdoc.mcp_transport import MAX_ERROR_CHARS, run_stdio, scrub_surrogates
from catdoc.progress import no_progress
from catdoc.service import CatDoc
from catdoc.web.activity import ActivityLog

INTERNAL_ERROR = "INTERNAL_ERROR"
_MAX_NAMED_ARGUMENTS = 10  # unknown argument names listed in one error

logger = logging.getLogger("catdoc.mcp")

F = TypeVar("F", bound=Callable[..., Any])

INSTRUCTIONS = """\
CatDoc keeps the documents of a repository as a checked category-theory graph. A document is an \
object; objects are grouped into categories (layers such as requirements, design, tests); a \
morphism is a typed relationship between two documents of one category; a functor maps one \
category onto another (traceability, e.g. requirements -> design); a natural transformation \
relates two functors.

How to start: catdoc_list_categories for the layers, then catdoc_show_category for one layer, \
then catdoc_show_object for a document's text and its links. Find documents by topic with \
catdoc_search; see how two documents connect with catdoc_trace; check consistency with \
catdoc_validate. Lists are paged (limit/offset). Errors are JSON \
{"error": {"code", "message", "hint", "didYouMean"}}: follow the hint, or use a suggested id.\
"""


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def error_result(exc: CatDocError, withheld: Collection[str] = ()) -> CallToolResult:
    """A tool error (`isError`) whose text is the error's JSON body, its texts in the client's
    words (tools, not CLI commands; see `speak_mcp` for the `withheld` tools of a read-only
    server) and cut to `MAX_ERROR_CHARS` (a message may quote an argument of any length)."""
    body = exc.to_dict()
    body["error"] = {
        key: shorten(speak_mcp(value, withheld), MAX_ERROR_CHARS)
        if isinstance(value, str)
        else value
        for key, value in body["error"].items()  # type: ignore[attr-defined]
    }
    return CallToolResult(content=[TextContent(type="text", text=_json(body))], is_error=True)


def _argument_error(tool: str, exc: ValidationError) -> CatDocError:
    """Schema-level argument errors in CatDoc's shape, naming each wrong argument, not its value."""
    problems = []
    errors = exc.errors()
    for err in errors[:_MAX_NAMED_ARGUMENTS]:
        where = ".".join(str(part) for part in err["loc"]) or "(arguments)"
        problems.append(f"{shorten(where)}: {shorten(err['msg'], MAX_ECHO_CHARS * 2)}")
    if len(errors) > _MAX_NAMED_ARGUMENTS:
        problems.append(f"{len(errors) - _MAX_NAMED_ARGUMENTS:,} more")
    return CatDocError(
        VALIDATION_ERROR,
        f"Invalid arguments for {tool}: " + "; ".join(problems) + ".",
        "Fix the named argument(s); the tool's input schema gives each one's type, default and "
        "bounds.",
    )


class CatDocMCPServer(MCPServer):
    """An MCPServer whose tools answer CatDoc's error shape for every failure, including bad calls.

    The SDK reports an unknown tool or arguments that fail the schema as plain text; here they
    become `NOT_FOUND` / `VALIDATION_ERROR` bodies, and unknown argument names (which pydantic
    would silently drop, e.g. a misspelled filter) are refused instead of ignored.
    """

    def __init__(self, svc: CatDoc, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.svc = svc
        self._arguments: dict[str, list[str]] = {}
        self.activity: ActivityLog | None = None
        """Where tool calls are recorded for the dashboard's activity panel (if it runs)."""
        self.writes_allowed = True
        """False (`--read-only`): tools that are not read-only are not registered at all."""
        self._withheld: set[str] = set()
        """The tools `--read-only` left out: a call to one says why it is not there."""

    def speak(self, text: str) -> str:
        """`text` (a message or hint of the core, which names CLI commands) in this client's
        words: the tool after each command, or, for a tool `--read-only` left out, that the
        command is one for the command line (see `speak_mcp`)."""
        return speak_mcp(text, self._withheld)

    async def run_stdio_async(self) -> None:
        """Serve over stdio with CatDoc's defensive reader (see `catdoc.mcp_transport`)."""
        with claimed_stdio() as wire:
            await run_stdio(self._lowlevel_server, Opening(wire, None))

    def serve_stdio(self, opening: Opening) -> None:
        """Serve over the wire `catdoc.mcp_start` opened, from the lines it held onwards."""
        anyio.run(run_stdio, self._lowlevel_server, opening)

    def catdoc_tool(
        self,
        *,
        name: str,
        title: str,
        description: str,
        read_only: bool = True,
        destructive: bool = False,
        idempotent: bool = True,
    ) -> Callable[[F], F]:
        """Register `fn` (which returns a result model or raises CatDocError) as a tool.

        The registered callable returns a `CallToolResult` itself, so errors can carry JSON text
        while the output schema still comes from `fn`'s return annotation.
        """

        def register(fn: F) -> F:
            if not (read_only or self.writes_allowed):
                self._withheld.add(name)
                return fn
            signature = inspect.signature(fn, eval_str=True)
            output = signature.return_annotation
            adapter: TypeAdapter[Any] = TypeAdapter(output)

            def run(**kwargs: Any) -> CallToolResult:
                try:
                    result = fn(**kwargs)
                except CatDocError as exc:
                    logger.info("%s: %s %s", name, exc.code, exc.message.splitlines()[0])
                    return error_result(exc, self._withheld)
                except Exception as exc:
                    logger.exception("%s failed unexpectedly", name)
                    return error_result(
                        CatDocError(
                            INTERNAL_ERROR,
                            f"{name} failed unexpectedly ({type(exc).__name__}).",
                            "The server logged the details to stderr and keeps running; retry, "
                            "or report the log if it happens again.",
                        )
                    )
                data = adapter.dump_python(result, mode="json", by_alias=True)
                if isinstance(data, dict) and isinstance(data.get("message"), str):
                    data["message"] = self.speak(data["message"])  # the core speaks CLI
                return CallToolResult(
                    content=[TextContent(type="text", text=_json(data))], structured_content=data
                )

            run.__name__ = fn.__name__
            run.__signature__ = signature.replace(  # type: ignore[attr-defined]
                return_annotation=Annotated[CallToolResult, output]
            )
            self._arguments[name] = list(signature.parameters)
            self.add_tool(
                self._recorded(name, run),
                name=name,
                title=title,
                description=description,
                annotations=ToolAnnotations(
                    title=title,
                    read_only_hint=read_only,
                    destructive_hint=destructive,
                    idempotent_hint=idempotent,
                    open_world_hint=False,
                ),
                structured_output=True,
            )
            return fn

        return register

    def _recorded(
        self, name: str, run: Callable[..., CallToolResult]
    ) -> Callable[..., CallToolResult]:
        """`run`, also logging each call (arguments, duration, result) to `self.activity`."""

        @functools.wraps(run)
        def recorded(**kwargs: Any) -> CallToolResult:
            started = time.perf_counter()
            result = run(**kwargs)
            if self.activity is not None:
                self.activity.record(name, kwargs, time.perf_counter() - started, result)
            return result

        return recorded

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        name, arguments = scrub_surrogates(name), scrub_surrogates(dict(arguments or {}))
        expected = self._arguments.get(name)
        if name in self._withheld:
            return error_result(
                CatDocError(
                    NOT_FOUND,
                    f"{name} changes the model, and this server runs read-only (--read-only): "
                    "it serves no tool that writes.",
                    "Tell the user the change to make, or ask them to start the server without "
                    "--read-only.",
                )
            )
        if expected is None:
            return error_result(
                not_found(
                    "Tool", shorten(name), self._arguments, "Call tools/list to see CatDoc's tools."
                )
            )
        unknown = [shorten(key) for key in arguments if key not in expected]
        if unknown:
            shown = unknown[:_MAX_NAMED_ARGUMENTS]
            more = len(unknown) - len(shown)
            guesses = [g for key in shown for g in closest(key, expected, n=2)]
            return error_result(
                CatDocError(
                    VALIDATION_ERROR,
                    f"Unknown argument(s) for {name}: {', '.join(map(repr, shown))}"
                    + (f" and {more:,} more." if more else "."),
                    f"{name} takes: {', '.join(expected) or 'no arguments'}.",
                    guesses,
                )
            )
        reporting = mcp_progress.current.set(
            mcp_progress.ToolProgress(context) if context is not None else no_progress
        )
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                return error_result(_argument_error(name, exc.__cause__))
            raise
        finally:
            mcp_progress.current.reset(reporting)


def _resource(call: Callable[[], str]) -> str:
    """Run a resource read, turning CatDocErrors into the SDK's resource errors (JSON text)."""
    try:
        return call()
    except CatDocError as exc:
        cls = ResourceNotFoundError if exc.code == NOT_FOUND else ResourceError
        raise cls(_json(exc.to_dict())) from None


def _register_resources(server: CatDocMCPServer, svc: CatDoc) -> None:
    @server.resource(
        "catdoc://graph",
        name="graph",
        title="CatDoc graph",
        description="The whole project as JSON: nodes (objects) and edges (morphisms, functor "
        "hops), the same data as catdoc_get_graph without paging.",
        mime_type="application/json",
    )
    def graph() -> str:
        return _resource(lambda: svc.graph().model_dump_json(by_alias=True))

    @server.resource(
        "catdoc://objects/{id}",
        name="object",
        title="CatDoc document",
        description="The full text of one object's document (its file, or its inline content).",
        mime_type="text/markdown",
        # an id names an entity of the model, never a file: `a:b` or `..` are ids like others,
        # and the document's own path is confined when it is read
        security=ResourceSecurity(exempt_params={"id"}),
    )
    def document(id: str) -> str:
        def read() -> str:
            detail = svc.show_object(id, max_chars=sys.maxsize)
            if detail.content is None:
                raise CatDocError(
                    NOT_FOUND,
                    detail.content_error or f"Object {id!r} has neither a document nor content.",
                    "Give the object a `path` to a file in the project, or inline `content`.",
                )
            return detail.content

        return _resource(read)


def build_server(
    svc: CatDoc, *, dashboard_url: str | None = None, read_only: bool = False
) -> CatDocMCPServer:
    """The MCP server for one project: all `catdoc_*` tools and the `catdoc://` resources.
    A running dashboard's URL goes into the server info and the instructions. `read_only`
    leaves out every tool that writes. Clients are told when the model changes."""
    from catdoc.mcp_browse_tools import register_browse_tools
    from catdoc.mcp_chain_tools import register_chain_tools
    from catdoc.mcp_changes import ChangeAnnouncer
    from catdoc.mcp_cluster_tools import register_cluster_tools
    from catdoc.mcp_concept_tools import register_concept_tools
    from catdoc.mcp_coverage_tools import register_coverage_tools
    from catdoc.mcp_impact_tools import register_impact_tools
    from catdoc.mcp_suspect_tools import register_suspect_tools
    from catdoc.mcp_tools import register_tools
    from catdoc.mcp_write_tools import EDITING_INSTRUCTIONS, register_write_tools

    changes = ChangeAnnouncer(svc)

    instructions = INSTRUCTIONS if read_only else INSTRUCTIONS + EDITING_INSTRUCTIONS
    if dashboard_url:
        instructions += (
            f" A browser dashboard of this project runs at {dashboard_url} (graph, documents, "
            "validation, search, trace, and these tool calls live): point the user to it."
        )
    server = CatDocMCPServer(
        svc,
        name="catdoc",
        title="CatDoc",
        description="Documents of a repository as a checked category-theory graph.",
        instructions=instructions,
        website_url=dashboard_url,
        version=__version__,
        log_level="WARNING",
        lifespan=changes.lifespan,
        subscriptions=changes.bus,
    )
    server.writes_allowed = not read_only
    register_tools(server, svc)
    register_write_tools(server, svc)
    register_cluster_tools(server, svc)
    register_browse_tools(server, svc)
    register_concept_tools(server, svc)
    register_coverage_tools(server, svc)
    register_impact_tools(server, svc)
    register_chain_tools(server, svc)
    register_suspect_tools(server, svc)
    _register_resources(server, svc)
    changes.install(server)
    return server


def start_server(
    project: Path | str | None = None,
    *,
    dashboard: bool = False,
    port: int | None = None,
    read_only: bool = False,
) -> CatDocMCPServer:
    """The server `catdoc mcp` runs, with its dashboard (if asked for and it can start), the
    vectors' progress logged and the model loading in the background."""
    svc = CatDoc(project)
    activity = ActivityLog() if dashboard else None
    url = _start_dashboard(svc, port, activity) if activity else None
    server = build_server(svc, dashboard_url=url, read_only=read_only)
    server.activity = activity if url else None
    svc.watch_vectors(log_vector_progress)
    threading.Thread(target=_load_and_log, args=(svc,), name="catdoc-load", daemon=True).start()
    return server


def log_vector_progress(step: str, done: int, total: int | None) -> None:
    """The vectors computed in the background, in the server's log (stderr; a few lines a
    second at most): minutes of work on a large project that no request waits for."""
    logger.info("%s: %s", step, f"{done:,} of {total:,}" if total else f"{done:,}")


def _load_and_log(svc: CatDoc) -> None:
    """Load the model beside the handshake (seconds on a large project; `tools/list` does not
    need it, and a tool call that does waits on the service's lock) and log what is served."""
    try:
        loaded = svc.project()
        logger.info("Serving %s (%d categories).", loaded.root, len(loaded.categories))
    except CatDocError as exc:
        logger.warning(
            "Starting without a loaded project; tools answer %s until fixed: %s",
            exc.code,
            exc.message,
        )


def _start_dashboard(svc: CatDoc, port: int | None, activity: ActivityLog) -> str | None:
    """Serve the dashboard from a background thread; its URL, or None (logged) if it cannot."""
    from catdoc.web.server import open_dashboard

    try:
        board = open_dashboard(svc, port, activity)
    except CatDocError as exc:
        logger.warning(
            "The dashboard did not start: %s %s The MCP server runs without it.",
            exc.message,
            exc.hint,
        )
        return None
    board.start_in_background()
    logger.info("The dashboard runs at %s", board.url)
    return board.url


if __name__ == "__main__":
    sys.exit(main())
