"""The stdio wire of `catdoc mcp`: one JSON-RPC 2.0 message per line, read defensively.

The SDK's own stdio reader drops what it cannot parse without a word, reads a line of any size
into memory, and cannot leave while a tool call is stuck. This reader instead answers every line
that is not a usable message (`-32700` parse error, `-32600` invalid request, with the request's
id when it has a usable one, else null), bounds one message to `MAX_MESSAGE_BYTES`, replaces lone
surrogates (which no UTF-8 text can carry) with U+FFFD, and exits the process
`STDIN_CLOSED_GRACE_SECONDS` after stdin closes even if a call never returns.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
from mcp.server.lowlevel.server import Server
from mcp.shared.message import SessionMessage
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)

from catdoc.mcp_lines import MAX_ECHO_CHARS, MAX_MESSAGE_BYTES, TooLong, shorten
from catdoc.mcp_lines import LineFramer as LineFramer  # the reader's framing, named with it

if TYPE_CHECKING:
    from catdoc.mcp_start import Opening

logger = logging.getLogger("catdoc.mcp")

MAX_ERROR_CHARS = 2_000
"""Longest error text the server sends (JSON-RPC error messages, tool error messages)."""
STDIN_CLOSED_GRACE_SECONDS = 3.0
"""How long calls still running when the client leaves may take before the process exits."""
MAX_BATCH_REPLIES = 100
"""Most members of one (refused) batch answered by id, so a batch cannot multiply output."""

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def scrub_surrogates(value: Any) -> Any:
    """`value` (parsed JSON) with every lone surrogate in its strings and keys made U+FFFD.

    JSON text may spell a lone surrogate (`"\\ud800"`), but no UTF-8 text can hold one, so it
    would fail every later encode (SQLite, files, the answer itself).
    """
    return map_strings(value, lambda text: _LONE_SURROGATE.sub("\ufffd", text))


def map_strings(value: Any, change: Callable[[str], str]) -> Any:
    """`value` (parsed JSON) with `change` applied to every string and key, in place where it
    can. Iterative, so deeply nested input cannot exhaust the stack."""

    def clean(item: Any) -> Any:
        return change(item) if isinstance(item, str) else item

    root: list[Any] = [value]
    stack: list[list[Any] | dict[Any, Any]] = [root]
    while stack:
        container = stack.pop()
        if isinstance(container, dict):
            items = list(container.items())
            container.clear()
            for key, item in items:
                container[clean(key)] = clean(item)
                if isinstance(item, list | dict):
                    stack.append(item)
        else:
            for index, item in enumerate(container):
                container[index] = clean(item)
                if isinstance(item, list | dict):
                    stack.append(item)
    return root[0]


Reply = dict[str, Any] | list[dict[str, Any]]


def error_reply(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
    """A JSON-RPC error response."""
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def _usable_id(value: Any) -> bool:
    """MCP request ids are strings or integers (never null, bool or fraction), echoed in full."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return False
    return len(str(value)) <= MAX_ECHO_CHARS


def _envelope_problem(message: Any) -> str | None:
    """Why `message` is not a JSON-RPC 2.0 request, notification or response (None: it is)."""
    if not isinstance(message, dict):
        return f"a message must be a JSON object, not {type(message).__name__}"
    if message.get("jsonrpc") != "2.0":
        return 'a message must carry "jsonrpc": "2.0"'
    if "id" in message and not _usable_id(message["id"]):
        return (
            f"an id must be a string of at most {MAX_ECHO_CHARS} characters or an integer "
            "(not null, a boolean, a fraction or an object)"
        )
    if "method" in message:
        if not isinstance(message["method"], str):
            return "method must be a string"
        if not isinstance(message.get("params", {}), dict):
            return "params must be a JSON object"
        return None
    if "id" not in message:
        return "a message needs a method (request or notification) or an id (response)"
    if ("result" in message) == ("error" in message):
        return "a response needs exactly one of result and error"
    return None


def _reject_batch(batch: list[Any]) -> Reply | None:
    """JSON-RPC batches were removed from MCP: members with a usable id are refused by id (the
    first `MAX_BATCH_REPLIES`), the other non-notifications by one reply with id null."""
    why = "Invalid Request: batches are not supported; send one JSON-RPC message per line."
    logger.warning("Refused a batch of %d messages.", len(batch))
    if not batch:
        return error_reply(INVALID_REQUEST, why)
    members = [m for m in batch if not (isinstance(m, dict) and "method" in m and "id" not in m)]
    ids = [m["id"] for m in members if isinstance(m, dict) and _usable_id(m.get("id"))]
    replies = [error_reply(INVALID_REQUEST, why, request_id) for request_id in ids]
    del replies[MAX_BATCH_REPLIES:]
    if len(members) > len(replies):
        replies.append(error_reply(INVALID_REQUEST, why))
    return replies or None


def _reject_json(value: str) -> Any:
    raise ValueError(f"{value} is not JSON")


def read_message(line: bytes | TooLong) -> JSONRPCMessage | Reply | None:
    """The message one line carries, or the error reply it gets (None: neither, e.g. blank)."""
    if isinstance(line, TooLong):
        logger.warning("Skipped a message of %s bytes (limit %s).", line.size, MAX_MESSAGE_BYTES)
        return error_reply(
            INVALID_REQUEST,
            f"Invalid Request: the message is over {MAX_MESSAGE_BYTES:,} bytes "
            f"({line.size:,} bytes read); it was skipped. Send smaller messages.",
        )
    text = line.decode("utf-8", errors="replace").strip()
    if not text:
        return None
    try:
        parsed = json.loads(text, parse_constant=_reject_json)
    except (ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        logger.warning("Parse error: %s", reason)
        return error_reply(PARSE_ERROR, f"Parse error: the line is not JSON ({shorten(reason)}).")
    if _SURROGATE_ESCAPE.search(text):
        parsed = scrub_surrogates(parsed)
    if isinstance(parsed, list):
        return _reject_batch(parsed)
    problem = _envelope_problem(parsed)
    request_id = parsed.get("id") if isinstance(parsed, dict) else None
    if not _usable_id(request_id):
        request_id = None
    if problem is None:
        try:
            return jsonrpc_message_adapter.validate_python(parsed, by_name=False)
        except ValueError as exc:
            problem = f"{exc.__class__.__name__} in the message's fields"
    logger.warning("Invalid request: %s", problem)
    return error_reply(INVALID_REQUEST, f"Invalid Request: {problem}.", request_id)


def encode_message(message: JSONRPCMessage) -> bytes:
    """One outgoing line. Text that cannot be UTF-8 (lone surrogates from a document or YAML)
    goes out as U+FFFD; anything else unserialisable becomes an internal error for its id."""
    if isinstance(message, JSONRPCError):
        error = message.error
        capped = error.model_copy(
            update={
                "message": shorten(error.message, MAX_ERROR_CHARS),
                "data": map_strings(error.data, shorten),
            }
        )
        message = message.model_copy(update={"error": capped})
    try:
        text = message.model_dump_json(by_alias=True, exclude_unset=True)
    except ValueError:
        try:
            data = message.model_dump(mode="json", by_alias=True, exclude_unset=True)
            data = scrub_surrogates(data)
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        except ValueError:
            logger.exception("Could not serialise an answer")
            reply = error_reply(INTERNAL_ERROR, "Internal error: the answer could not be encoded.")
            reply["id"] = getattr(message, "id", None)
            text = json.dumps(reply)
    return text.encode("utf-8") + b"\n"


def encode_reply(reply: Reply) -> bytes:
    return json.dumps(reply, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def _exit_now() -> None:
    """Leave although a call (or a blocked read) still runs: the client has gone (stdin closed
    or stdout broken), so nobody can get its answer."""
    logger.warning(
        "The client left %.0f s ago and something still runs (a call, or a read of stdin); "
        "exiting without it.",
        STDIN_CLOSED_GRACE_SECONDS,
    )
    for stream in (sys.stderr, sys.stdout):
        with suppress(OSError, ValueError):
            stream.flush()
    os._exit(0)


async def run_stdio(server: Server[Any], opening: Opening) -> None:
    """Serve `server` over the wire `opening` claimed until the client leaves (stdin closes or
    stdout breaks): first the lines `opening` read before the server was built, then the rest.

    `STDIN_CLOSED_GRACE_SECONDS` after that the process ends, even if a call never returns (a
    Python thread cannot be stopped), unless it has ended by itself.
    """
    read_send, read_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_receive = anyio.create_memory_object_stream[SessionMessage](0)
    write_lock = anyio.Lock()
    broken = False  # the client stopped reading stdout
    watchdog = threading.Timer(STDIN_CLOSED_GRACE_SECONDS, _exit_now)
    watchdog.daemon = True

    async def write(data: bytes) -> None:
        nonlocal broken
        async with write_lock:
            if broken:
                return
            try:
                await anyio.to_thread.run_sync(opening.wire.write, data)
            except OSError as exc:  # nothing more can be said: stop reading too
                logger.warning("Cannot write to stdout (%s); stopping.", exc)
                broken = True
                reading.cancel()

    async def take(line: bytes | TooLong) -> None:
        outcome = read_message(line)
        if isinstance(outcome, dict | list):
            await write(encode_reply(outcome))
        elif outcome is not None:
            if isinstance(outcome, JSONRPCRequest):
                opening.incoming(outcome.id, outcome.method, outcome.params)
            await read_send.send(SessionMessage(outcome))

    async def read_lines() -> None:
        async with read_send:
            with reading:
                for line in opening.take_pending():
                    await take(line)
                while True:
                    chunk = await anyio.to_thread.run_sync(
                        opening.inbox.read, abandon_on_cancel=True
                    )
                    for line in opening.framer.feed(chunk) if chunk else opening.framer.close():
                        await take(line)
                    if not chunk:
                        break
        watchdog.start()

    async def write_messages() -> None:
        async with write_receive:
            async for session_message in write_receive:
                message = session_message.message
                if isinstance(message, JSONRPCResponse | JSONRPCError):
                    result = message.result if isinstance(message, JSONRPCResponse) else None
                    if not opening.outgoing(message.id, result):
                        continue
                await write(encode_message(message))

    reading = anyio.CancelScope()
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(read_lines)
        tasks.start_soon(write_messages)
        await server.run(read_receive, write_send, server.create_initialization_options())
        reading.cancel()
