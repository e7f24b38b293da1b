"""Starting the dashboard: choose the port, bind 127.0.0.1 only, serve with uvicorn.

The socket is bound before anything else, so a taken or bad port is reported at once (a
CatDocError the caller turns into a warning or an exit status) and the URL is known before the
first request. `start_in_background` serves from a daemon thread beside the MCP server.
"""

from __future__ import annotations

import errno
import logging
import socket
import threading
from dataclasses import dataclass, field
from typing import Any

from catdoc.errors import IO_ERROR, VALIDATION_ERROR, CatDocError
from catdoc.progress import BackgroundWork
from catdoc.service import CatDoc
from catdoc.web.activity import ActivityLog

HOST = "127.0.0.1"

logger = logging.getLogger("catdoc.web")


def configured_port(svc: CatDoc) -> int | None:
    """config.yaml's `dashboard.port` when the project sets one, else None."""
    from catdoc.project import load_config

    try:
        dashboard = load_config(svc.root).dashboard
    except CatDocError:
        return None
    return dashboard.port if "port" in dashboard.model_fields_set else None


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:`port` (0: any free port)."""
    if not 0 <= port <= 65535:
        raise CatDocError(
            VALIDATION_ERROR,
            f"Dashboard port {port} is not a port number.",
            "Pass --port with 0–65535 (0 picks a free port).",
        )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # reuse after a restart, not shared
    try:
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        taken = exc.errno == errno.EADDRINUSE
        raise CatDocError(
            IO_ERROR,
            f"The dashboard cannot listen on {HOST}:{port}: "
            + ("the port is already in use." if taken else f"{exc.strerror or exc}."),
            "Pass another --port, or --port 0 for any free port.",
        ) from None
    return sock


def open_socket(svc: CatDoc, port: int | None) -> socket.socket:
    """Bind the given port; else config.yaml's (falling back to a free one if it is taken);
    else a free one."""
    if port is not None:
        return bind(port)
    wanted = configured_port(svc)
    if wanted is None:
        return bind(0)
    try:
        return bind(wanted)
    except CatDocError as exc:
        logger.info("%s Using a free port instead.", exc.message)
        return bind(0)


@dataclass
class Dashboard:
    """A bound dashboard socket and the service it shows; `url` is where a browser finds it."""

    svc: CatDoc
    sock: socket.socket
    activity: ActivityLog | None = None
    _server: Any = field(default=None, init=False, repr=False)

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def serve(self) -> None:
        """Serve until interrupted (blocks); meanwhile the pages show the vectors the service
        computes in the background."""
        import uvicorn

        from catdoc.web.app import create_app

        background = BackgroundWork()
        config = uvicorn.Config(
            create_app(self.svc, activity=self.activity, background=background, port=self.port),
            log_config=None,
            access_log=False,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        stop_watching = self.svc.watch_vectors(background)
        try:
            self._server.run(sockets=[self.sock])
        finally:
            stop_watching()

    def stop(self) -> None:
        """Ask a serving dashboard to finish (open event streams are closed within a second)."""
        if self._server is not None:
            self._server.should_exit = True

    def start_in_background(self) -> threading.Thread:
        """Serve from a daemon thread (it ends with the process); failures are logged."""

        def run() -> None:
            try:
                self.serve()
            except Exception:
                logger.exception("The dashboard stopped; the MCP server runs on without it.")

        thread = threading.Thread(target=run, name="catdoc-dashboard", daemon=True)
        thread.start()
        return thread


def open_dashboard(
    svc: CatDoc, port: int | None = None, activity: ActivityLog | None = None
) -> Dashboard:
    """A dashboard bound to its port, ready to `serve` (raises CatDocError if it cannot bind)."""
    return Dashboard(svc, open_socket(svc, port), activity)
