"""`catdoc mcp` / `catdoc-mcp`: start the stdio server, answering the handshake while it loads.

Importing the MCP SDK and building the tools' schemas takes about a second; an assistant waits
for `initialize` and `tools/list` before anything else. So the server is built in a thread while
this module, which needs only the standard library, claims stdio and answers those two requests
with the answers the server gave at an earlier start (`catdoc.mcp_answers`). Everything else is
held, in order, for the server. Once it is built it is handed the held lines first: the
`initialize` again (so its session is set up; that answer is not sent twice) and a `tools/list`
of its own, whose answers are compared with the ones sent and kept for the next start.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import json
import logging
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catdoc import __version__
from catdoc.mcp_answers import AnswerCache
from catdoc.mcp_lines import (
    MAX_ECHO_CHARS,
    BoundedLogFormatter,
    Inbox,
    LineFramer,
    TooLong,
    Wire,
    claimed_stdio,
)

if TYPE_CHECKING:
    from catdoc.mcp_server import CatDocMCPServer

logger = logging.getLogger("catdoc.mcp")

RequestId = str | int

_INITIALIZE_PARAMS = {"protocolVersion", "capabilities", "clientInfo"}
_CLIENT_INFO_TEXTS = {"name", "version", "title", "description", "websiteUrl"}
_CAPABILITY_MAPS = {"experimental", "extensions", "sampling", "elicitation"}


@dataclass(frozen=True)
class Built:
    """The news, from the building thread, that the server is ready (or could not be built)."""

    server: CatDocMCPServer | None
    error: BaseException | None = None


class Opening:
    """The wire from the first byte on: the answers sent before the server was built, the lines
    held for it, and what its first answers should be compared with."""

    def __init__(self, wire: Wire, cache: AnswerCache | None, inbox: Inbox | None = None) -> None:
        self.wire = wire
        self.inbox = inbox or Inbox(wire)
        self.framer = LineFramer()
        self.cache = cache
        self._pending: list[bytes | TooLong] = []
        self._version: str | None = None
        """The protocol version the client asked for, once its `initialize` was answered here."""
        self._first = True
        self._hidden: set[RequestId] = set()
        """Ids of the requests replayed or added for the server, whose answers are not sent."""
        self._watched: dict[RequestId, str] = {}
        self._requested: str | None = None
        self._seen: dict[str, dict[str, Any]] = {}

    def wait_for_server(self) -> CatDocMCPServer:
        """Answer what can be answered and hold the rest until the server is built."""
        while True:
            item = self.inbox.next()
            if isinstance(item, Built):
                if item.server is None:
                    raise RuntimeError("The MCP server could not be built.") from item.error
                return item.server
            assert isinstance(item, bytes)
            for line in self.framer.feed(item) if item else self.framer.close():
                self._take(line)

    def _take(self, line: bytes | TooLong) -> None:
        if isinstance(line, bytes) and not line.strip():
            return
        first, self._first = self._first, False
        message = _parse(line)
        if first and self.cache is not None and (opened := _plain_initialize(message)):
            request_id, version = opened
            answer = self.cache.lookup(version, "initialize")
            if answer is not None:
                self._reply(request_id, answer)
                self._version = version
                self._hidden.add(request_id)
                self._pending.append(line)  # the server's session starts from it
                self._pending.append(self._own_tools_list())
                return
        if self._version is not None and self.cache is not None:
            request_id = _plain_tools_list(message)
            answer = self.cache.lookup(self._version, "tools/list")
            if request_id is not None and answer is not None:
                self._reply(request_id, answer)
                return
        self._pending.append(line)

    def _own_tools_list(self) -> bytes:
        request_id = f"catdoc-start-{os.urandom(8).hex()}"
        self._hidden.add(request_id)
        return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/list"}).encode()

    def _reply(self, request_id: RequestId, result: dict[str, Any]) -> None:
        reply = {"jsonrpc": "2.0", "id": request_id, "result": result}
        try:
            self.wire.write(json.dumps(reply, ensure_ascii=False).encode("utf-8") + b"\n")
        except OSError as exc:
            logger.warning("Cannot write to stdout (%s).", exc)

    def take_pending(self) -> Iterator[bytes | TooLong]:
        """The lines held for the server, in the order they came (each once)."""
        pending, self._pending = self._pending, []
        yield from pending

    def incoming(self, request_id: RequestId, method: str, params: dict[str, Any] | None) -> None:
        """A request on its way to the server: its answer is kept if it is one of the two."""
        if method == "initialize":
            version = (params or {}).get("protocolVersion")
            self._requested = version if isinstance(version, str) else None
            self._watched[request_id] = method
        elif method == "tools/list" and "cursor" not in (params or {}):
            self._watched[request_id] = method

    def outgoing(self, request_id: RequestId, result: dict[str, Any] | None) -> bool:
        """An answer of the server: noted if watched; False when it must not be sent (the
        client had it already, or never asked)."""
        method = self._watched.pop(request_id, None)
        if method is not None and result is not None:
            self._seen[method] = result
            seen, version = self._seen, self._requested
            if len(seen) == 2 and version is not None and self.cache is not None:
                self.cache.observe(version, seen["initialize"], seen["tools/list"])
        if request_id not in self._hidden:
            return True
        self._hidden.discard(request_id)
        if result is None:
            logger.warning("The server refused a request replayed at start-up (id %s).", request_id)
        return False


def _parse(line: bytes | TooLong) -> Any:
    if isinstance(line, TooLong):
        return None
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _request(message: Any, method: str) -> RequestId | None:
    """The id of `message` if it is a well-formed request for `method`."""
    if not isinstance(message, dict) or set(message) - {"jsonrpc", "id", "method", "params"}:
        return None
    if message.get("jsonrpc") != "2.0" or message.get("method") != method:
        return None
    request_id = message.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, str | int):
        return None
    if len(str(request_id)) > MAX_ECHO_CHARS:
        return None
    return request_id


def _plain_tools_list(message: Any) -> RequestId | None:
    """The id of a `tools/list` request for the first page with nothing else asked."""
    request_id = _request(message, "tools/list")
    if request_id is None or message.get("params", {}) != {}:
        return None
    return request_id


def _plain_initialize(message: Any) -> tuple[RequestId, str] | None:
    """The id and protocol version of an `initialize` request in the shape every client sends
    (anything unusual is left to the server, which checks it in full)."""
    request_id = _request(message, "initialize")
    params = message.get("params") if request_id is not None else None
    if not isinstance(params, dict) or set(params) - _INITIALIZE_PARAMS:
        return None
    version, capabilities, client = (
        params.get("protocolVersion"),
        params.get("capabilities"),
        params.get("clientInfo"),
    )
    if not (isinstance(version, str) and _plain_capabilities(capabilities)):
        return None
    if not isinstance(client, dict) or set(client) - _CLIENT_INFO_TEXTS:
        return None
    if not all(isinstance(client.get(key), str) for key in ("name", "version")):
        return None
    if request_id is None or not all(isinstance(value, str) for value in client.values()):
        return None
    return request_id, version


def _plain_capabilities(capabilities: Any) -> bool:
    if not isinstance(capabilities, dict) or "tasks" in capabilities:
        return False
    for key in _CAPABILITY_MAPS & set(capabilities):
        value = capabilities[key]
        if value is not None and not (
            isinstance(value, dict) and all(isinstance(v, dict | None) for v in value.values())
        ):
            return False
    roots = capabilities.get("roots")
    if roots is None:
        return True
    return (
        isinstance(roots, dict)
        and not set(roots) - {"listChanged"}
        and isinstance(roots.get("listChanged"), bool | None)
    )


def serve(
    project: Path | str | None = None,
    *,
    dashboard: bool = False,
    port: int | None = None,
    read_only: bool = False,
) -> None:
    """Run the stdio server until the client closes stdin. Logs go to stderr only."""
    # yaml-rs is loaded here, on the main thread, before the threads that parse (the model's
    # load, the tool calls): loaded first by one of them, it crashed the process (a segfault in
    # `yaml_rs.loads` during an edit, in three of five sessions on a loaded machine). A few ms.
    import yaml_rs  # noqa: F401

    faulthandler.enable()  # a crash in a native library leaves every thread's stack in the log
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(BoundedLogFormatter("catdoc-mcp %(levelname)s %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    # The dashboard's URL (known once it runs) is part of the answers: only without it are they
    # known before the server is built.
    cache = None if dashboard else AnswerCache.for_options({"read_only": read_only})
    with claimed_stdio() as wire:
        opening = Opening(wire, cache)
        threading.Thread(
            target=_build,
            args=(opening.inbox, project, dashboard, port, read_only),
            name="catdoc-mcp-start",
            daemon=True,
        ).start()
        with contextlib.suppress(KeyboardInterrupt):
            opening.wait_for_server().serve_stdio(opening)


def _build(
    inbox: Inbox, project: Path | str | None, dashboard: bool, port: int | None, read_only: bool
) -> None:
    try:
        from catdoc.mcp_server import start_server

        inbox.put(Built(start_server(project, dashboard=dashboard, port=port, read_only=read_only)))
    except BaseException as exc:  # handed to the main thread, which raises it
        inbox.put(Built(None, exc))


def port_number(text: str) -> int:
    """A TCP port, 0–65535 (argparse type; 0 picks a free one)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0–65535, 0: any free)")
    return port


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `catdoc-mcp` console script."""
    parser = argparse.ArgumentParser(
        prog="catdoc-mcp",
        description="Serve a CatDoc project to AI assistants over MCP (stdio). "
        "Example: catdoc-mcp --project /path/to/repo",
    )
    parser.add_argument(
        "--project", "-C", metavar="DIR", help="a directory inside the project (default: cwd)"
    )
    parser.add_argument("--dashboard", action="store_true", help="also start the dashboard")
    parser.add_argument("--port", type=port_number, metavar="N", help="dashboard port")
    parser.add_argument(
        "--read-only", action="store_true", help="serve no tool that writes (no edits, imports)"
    )
    parser.add_argument("--version", action="version", version=f"catdoc-mcp {__version__}")
    args = parser.parse_args(argv)
    serve(args.project, dashboard=args.dashboard, port=args.port, read_only=args.read_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
