"""Tell MCP clients when the model changes, whoever changed it (an edit tool, the CLI, a person
saving `category.yaml`).

A change is a new model version (`Project.version`, a hash of the model files). It is looked for
after every request the server answers and, while a connection is open, by a cheap poll of the
files' stat stamp (`CatDoc.project()` reloads only when the stamp moved). On a change the server
sends `notifications/resources/list_changed` and `notifications/resources/updated` for
`catdoc://graph` and for every document whose object was added, removed or re-pointed:

- clients of the handshake era get them on their connection (resource updates only for the URIs
  they subscribed to with `resources/subscribe`);
- clients of the 2026 era get them on their `subscriptions/listen` streams (through the SDK's
  subscription bus, which filters by each stream's resource subscriptions).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import NotificationOptions
from mcp.server.session import ServerSession
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated
from mcp.types import EmptyResult, SubscribeRequestParams, UnsubscribeRequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from catdoc.errors import CatDocError
from catdoc.project import Project
from catdoc.service import CatDoc

logger = logging.getLogger("catdoc.mcp")

POLL_SECONDS = 1.0
GRAPH_URI = "catdoc://graph"
OBJECT_URI = "catdoc://objects/{id}"
MAX_UPDATED_URIS = 1_000
"""Document URIs announced for one change; beyond that the list change says enough."""


@dataclass(eq=False)
class Connection:
    """One client connection (one server lifespan): where to send, and what it subscribed to."""

    session: ServerSession | None = None
    subscribed: set[str] = field(default_factory=set)


class ChangeAnnouncer:
    """Notices model changes and announces them to every open connection."""

    def __init__(self, svc: CatDoc, *, poll_seconds: float = POLL_SECONDS) -> None:
        self.svc = svc
        self.poll_seconds = poll_seconds
        self.bus = InMemorySubscriptionBus()
        self._connections: set[Connection] = set()
        self._lock = anyio.Lock()
        self._version: str | None = None
        self._documents: dict[str, tuple[str | None, str | None]] = {}

    # ------------------------------------------------------------------ wiring
    def install(self, server: Any) -> None:
        """Hook into an `MCPServer`: watch every request, serve legacy resource subscriptions.
        (Its `lifespan` and `subscriptions` are passed to the constructor: see `build_server`.)"""
        low = server._lowlevel_server
        # Handshake-era capabilities take `listChanged` from the options given when the
        # connection starts, and every runner asks this method for them without any.
        low.create_initialization_options = functools.partial(
            low.create_initialization_options, NotificationOptions(resources_changed=True)
        )
        low.middleware.append(self.middleware)
        low.add_request_handler("resources/subscribe", SubscribeRequestParams, self._subscribe)
        low.add_request_handler(
            "resources/unsubscribe", UnsubscribeRequestParams, self._unsubscribe
        )

    @asynccontextmanager
    async def lifespan(self, _server: Any) -> AsyncIterator[Connection]:
        """One per connection: registers it and polls the model files while it is open. The
        first look (a full load on a large project) runs beside the handshake, not before it."""
        connection = Connection()
        self._connections.add(connection)
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(self._poll)
                try:
                    yield connection
                finally:
                    tasks.cancel_scope.cancel()
        finally:
            self._connections.discard(connection)

    async def middleware(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        """Remember a handshake-era connection's session; after a tool call, announce any change
        before the answer goes out."""
        connection = ctx.lifespan_context
        if (
            isinstance(connection, Connection)
            and ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS
        ):
            connection.session = ctx.session
        result = await call_next(ctx)
        if ctx.method == "tools/call":
            await self.check()
        return result

    async def _subscribe(
        self, ctx: ServerRequestContext[Any, Any], params: SubscribeRequestParams
    ) -> EmptyResult:
        connection = ctx.lifespan_context
        if isinstance(connection, Connection):
            connection.session = ctx.session
            connection.subscribed.add(str(params.uri))
        return EmptyResult()

    async def _unsubscribe(
        self, ctx: ServerRequestContext[Any, Any], params: UnsubscribeRequestParams
    ) -> EmptyResult:
        connection = ctx.lifespan_context
        if isinstance(connection, Connection):
            connection.subscribed.discard(str(params.uri))
        return EmptyResult()

    # ------------------------------------------------------------------ noticing
    async def _poll(self) -> None:
        while True:
            await self.check()
            await anyio.sleep(self.poll_seconds)

    async def check(self) -> None:
        """Announce the change if the model's version moved since the last look. Never raises:
        a failure here must not fail the tool call it follows nor end the connection."""
        try:
            await self._check()
        except Exception:
            logger.exception("Could not tell clients about a model change; serving on.")

    async def _check(self) -> None:
        async with self._lock:
            if self._version is None:  # the first look: compare with the model served so far
                self._remember(self.svc.held())
            project = await anyio.to_thread.run_sync(self._current)
            if project is None or project.version == self._version:
                return
            first = self._version is None
            old = self._documents
            self._remember(project)
            if first:
                return
            documents = self._documents
            touched = sorted(
                obj_id
                for obj_id in old.keys() | documents.keys()
                if old.get(obj_id) != documents.get(obj_id)
            )
            uris = [GRAPH_URI, *(OBJECT_URI.format(id=i) for i in touched[:MAX_UPDATED_URIS])]
            await self._announce(uris)

    def _remember(self, project: Project | None) -> None:
        """Take `project` as what clients have seen (a model loaded before this connection's
        first look counts: a file saved meanwhile is a change to announce)."""
        if project is not None:
            self._version = project.version
            self._documents = {
                obj.id: (obj.path, obj.content) for obj in project.object_by_id.values()
            }

    def _current(self) -> Project | None:
        try:
            return self.svc.project()
        except CatDocError as exc:  # no project yet, or a broken file: tools say so
            logger.debug("Model not loaded while watching for changes: %s", exc.code)
            return None

    async def _announce(self, uris: list[str]) -> None:
        logger.info("The model changed; telling clients (%d resource(s) updated).", len(uris))
        await self.bus.publish(ResourcesListChanged())
        for uri in uris:
            await self.bus.publish(ResourceUpdated(uri=uri))
        for connection in list(self._connections):
            session = connection.session
            if session is None:
                continue
            await session.send_resource_list_changed()
            for uri in uris:
                if uri in connection.subscribed:
                    await session.send_resource_updated(uri)
