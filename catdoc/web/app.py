"""The Starlette application: security wrapper, templates, the live event stream, the routes.

Security: the server listens on 127.0.0.1 only, and refuses (403) any request whose Host header
is not localhost/127.0.0.1 (with this port), so a web page cannot reach it through DNS
rebinding. Every response carries a strict Content-Security-Policy (scripts only from this
server, none inline); templates escape every value.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from catdoc.errors import CatDocError
from catdoc.progress import BackgroundWork
from catdoc.project import reviews_key
from catdoc.project_files import stamp
from catdoc.service import CatDoc
from catdoc.web.activity import ActivityLog
from catdoc.web.render import entity_url, marked

HERE = Path(__file__).parent
POLL_SECONDS = 0.5
"""How often the event stream compares the project's files and looks for new tool calls and
background work."""

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


class LocalOnly:
    """ASGI wrapper: refuse foreign Host headers; add the security headers to every answer."""

    def __init__(self, app: ASGIApp, port: int) -> None:
        self.app = app
        names = ("localhost", "127.0.0.1")
        self.hosts = {*names, *(f"{name}:{port}" for name in names)}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
        if host not in self.hosts:
            body = b"Refused: this dashboard answers only to http://localhost or 127.0.0.1.\n"
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"content-length", str(len(body)).encode()),
                        *SECURITY_HEADERS,
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_secured)


MAX_WATCHES = 64
"""Objects one event stream follows (the pages open in one browser): each costs a `stat` per
poll, so a request naming thousands cannot make the server poll thousands of files."""


def project_token(svc: CatDoc, watch: str | None = None) -> str:
    """A short fingerprint of the project's files (and of the document of the object `watch`,
    on its page); a page compares it to notice a change."""
    try:
        state = repr((stamp(svc.root), reviews_key(svc.root)))  # a review changes suspects
        if watch:
            state += repr(svc.document_stamp(watch))
    except CatDocError as exc:
        state = exc.code
    return hashlib.sha1(state.encode(), usedforsecurity=False).hexdigest()[:16]


class Site:
    """What every page needs: the service, the optional tool-call log, the background work to
    show (when the server watches it) and the templates."""

    def __init__(
        self, svc: CatDoc, activity: ActivityLog | None, background: BackgroundWork | None = None
    ) -> None:
        self.svc = svc
        self.activity = activity
        self.background = background
        self.env = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.globals["url"] = entity_url
        self.env.globals["locate"] = self.locate
        self.env.filters["marked"] = marked

    def locate(self, ident: str) -> str | None:
        """The page of whatever `ident` names, or None when it names nothing (a dangling id)."""
        try:
            ref = self.svc.locate_entity(ident)
        except CatDocError:
            return None
        return entity_url(ref.kind, ident)

    def render(
        self, request: Request, template: str, context: dict[str, Any], status: int = 200
    ) -> HTMLResponse:
        try:
            project_name = self.svc.root.name
            project_name = self.svc.project().config.name or project_name
        except CatDocError:
            project_name = "no project"
        calls = self.activity.latest(15) if self.activity else []
        background = self.background.running()[1] if self.background else []
        html = self.env.get_template(template).render(
            request=request,
            project_name=project_name,
            token=project_token(self.svc, context.get("watch")),
            activity=self.activity is not None,
            calls=calls,
            background=background,
            after=self.activity.last_seq if self.activity else 0,
            path=request.url.path,
            **context,
        )
        return HTMLResponse(html, status_code=status)

    async def events(self, request: Request) -> EventSourceResponse:
        """Server-sent events, one stream for every tab of a browser (static/events.js shares
        it): `change` with the tokens of the project (under "") and of each object in the
        `watch` parameters, whenever they differ; `activity` for each tool call after `after`;
        `background` with the steps under way whenever they moved. Both `change` and
        `background` come first on connecting: the pages may be older."""
        watches = sorted({w for w in request.query_params.getlist("watch") if w})[:MAX_WATCHES]
        try:
            after = int(request.query_params.get("after", "0"))
        except ValueError:
            after = 0

        async def stream() -> AsyncIterator[dict[str, str]]:
            nonlocal after
            seen, reported = "", -1
            while True:
                tokens = json.dumps({w: project_token(self.svc, w) for w in ["", *watches]})
                if tokens != seen:
                    seen = tokens
                    yield {"event": "change", "data": tokens}
                for call in self.activity.since(after) if self.activity else []:
                    after = call.seq
                    yield {"event": "activity", "data": json.dumps(call.to_dict())}
                if self.background is not None:
                    seq, steps = self.background.running()
                    if seq != reported:
                        reported = seq
                        data = json.dumps([step.to_dict() for step in steps])
                        yield {"event": "background", "data": data}
                await asyncio.sleep(POLL_SECONDS)

        return EventSourceResponse(stream(), ping=15)


def create_app(
    svc: CatDoc,
    *,
    activity: ActivityLog | None = None,
    background: BackgroundWork | None = None,
    port: int,
) -> ASGIApp:
    """The dashboard for `svc`, answering only to Host localhost/127.0.0.1:`port`; its header
    shows the steps of `background` under way (see `Dashboard.serve`)."""
    from catdoc.web.pages import page_routes

    site = Site(svc, activity, background)
    routes = [
        *page_routes(site),
        Route("/events", site.events),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    return LocalOnly(Starlette(routes=routes), port)
