"""The byte side of `catdoc mcp`'s stdio wire, in the standard library alone.

Kept apart from `catdoc.mcp_transport` (which needs the MCP SDK) so the server can claim its
stdio and start reading the first lines while the SDK is still being imported.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from queue import Queue

MAX_MESSAGE_BYTES = 16 * 1024 * 1024
"""Largest message (one line, in bytes) the server reads; a longer line is skipped and answered
with -32600. CatDoc's arguments are ids, queries and paths (documents are imported by path), so
real messages are a few kilobytes."""
READ_CHUNK_BYTES = 64 * 1024
READ_AHEAD_CHUNKS = 4
"""Chunks read before they are asked for, so a flood of input waits in the pipe, not in memory."""
MAX_ECHO_CHARS = 200
"""Longest client value (tool name, argument name, id) repeated in an error; longer ones are cut
to this many characters plus "… (N characters)". Also the longest request id the server accepts."""
MAX_LOG_LINE_CHARS = 500
"""Longest line of one log record on stderr; longer lines are cut like echoed values."""
MAX_LOG_LINES = 100
"""Most lines of one log record on stderr (the first and last halves are kept)."""


def shorten(text: str, limit: int = MAX_ECHO_CHARS) -> str:
    """`text`, or its first `limit` characters and its length when it is longer."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


class BoundedLogFormatter(logging.Formatter):
    """Cuts long lines and long records, so a hostile value cannot flood stderr."""

    def format(self, record: logging.LogRecord) -> str:
        lines = [shorten(line, MAX_LOG_LINE_CHARS) for line in super().format(record).splitlines()]
        if len(lines) > MAX_LOG_LINES:
            half = MAX_LOG_LINES // 2
            lines = [*lines[:half], f"… ({len(lines) - 2 * half:,} lines)", *lines[-half:]]
        return "\n".join(lines)


@dataclass(frozen=True)
class TooLong:
    """A line that exceeded `MAX_MESSAGE_BYTES` and was skipped; `size` counts what was read."""

    size: int


class LineFramer:
    """Cuts a byte stream into lines, never holding more than `limit` bytes of one line."""

    def __init__(self, limit: int = MAX_MESSAGE_BYTES) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._skipped = 0  # bytes of an over-long line dropped so far (0: not skipping)

    def feed(self, chunk: bytes) -> Iterator[bytes | TooLong]:
        """The complete lines (without their newline) that `chunk` finishes."""
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if self._skipped:
                self._skipped += len(piece)
            elif len(self._buffer) + len(piece) > self.limit:
                self._skipped = len(self._buffer) + len(piece)
                self._buffer.clear()
            else:
                self._buffer += piece
            if end < 0:
                return
            if self._skipped:
                yield TooLong(self._skipped)
                self._skipped = 0
            else:
                yield bytes(self._buffer)
                self._buffer.clear()
            start = end + 1

    def close(self) -> Iterator[bytes | TooLong]:
        """The last line when the stream ends without a newline."""
        if self._skipped:
            yield TooLong(self._skipped)
        elif self._buffer.strip():
            yield bytes(self._buffer)
        self._skipped = 0
        self._buffer.clear()


@dataclass(frozen=True)
class Wire:
    """Private copies of fds 0 and 1 that carry the protocol."""

    read_fd: int
    write_fd: int

    def write(self, data: bytes) -> None:
        """All of `data`, however many writes it takes."""
        view = memoryview(data)
        while view:
            view = view[os.write(self.write_fd, view) :]


@contextmanager
def claimed_stdio() -> Iterator[Wire]:
    """The wire; while it is held, fd 0 reads /dev/null and fd 1 writes to stderr, so stray prints
    (of an import, a library, a child process) cannot corrupt the protocol stream."""
    sys.stdout.flush()
    wire = Wire(os.dup(0), os.dup(1))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    try:
        yield wire
    finally:
        sys.stdout.flush()
        os.dup2(wire.read_fd, 0)
        os.dup2(wire.write_fd, 1)
        os.close(wire.write_fd)
        # read_fd stays open: the reader thread may still be blocked on it.


class Inbox:
    """What the server's main thread waits for: chunks of the wire's input (read by a thread of
    its own, b"" once it ends) and, while starting, the news that the server is built."""

    def __init__(self, wire: Wire) -> None:
        self._items: Queue[bytes | object] = Queue(READ_AHEAD_CHUNKS)
        self._ended = False
        threading.Thread(
            target=self._pump, args=(wire.read_fd,), name="catdoc-mcp-stdin", daemon=True
        ).start()

    def _pump(self, fd: int) -> None:
        while True:
            try:
                chunk = os.read(fd, READ_CHUNK_BYTES)
            except OSError:
                chunk = b""
            self._items.put(chunk)
            if not chunk:
                return

    def put(self, item: object) -> None:
        """Wake the waiting thread with something other than input."""
        self._items.put(item)

    def next(self) -> bytes | object:
        """The next chunk (b"": the input ended) or other item, waiting for it."""
        item = self._items.get()
        if item == b"":
            self._ended = True
        return item

    def read(self) -> bytes:
        """The next chunk of input, b"" from its end on (only input arrives once the server is
        built)."""
        if self._ended:
            return b""
        item = self.next()
        assert isinstance(item, bytes)
        return item
