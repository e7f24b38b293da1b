"""MCP progress notifications for long tool calls (a cold search index, a large import).

A tool runs on a worker thread; `CatDocMCPServer.call_tool` puts a `ToolProgress` for the call's
MCP context in `current`, and the tool hands `tool_progress()` to the service. Each report is sent
back to the client through the event loop (`Context.report_progress`, a no-op unless the client
gave a progressToken). MCP wants the progress value to rise with every notification, so the
steps of one call are laid end to end: a step starts above where the previous one stopped, and
the message names the step and its own count.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import Any

import anyio.from_thread

from catdoc.progress import Progress, no_progress

logger = logging.getLogger("catdoc.mcp")

current: ContextVar[Progress] = ContextVar("catdoc_tool_progress", default=no_progress)
"""The progress of the tool call running in this context (set per call by the server)."""


class ToolProgress:
    """A `Progress` that sends the reports of one tool call as MCP progress notifications."""

    def __init__(self, context: Any) -> None:
        self._context = context
        self._step: str | None = None
        self._base = 0
        self._done = 0
        self._sent = -1

    def __call__(self, step: str, done: int, total: int | None) -> None:
        if step != self._step:
            if self._step is not None:
                self._base += self._done + 1
            self._step = step
        self._done = done
        value = self._base + done
        if value <= self._sent:
            return
        self._sent = value
        message = f"{step}: {done:,} of {total:,}" if total is not None else f"{step}…"
        whole = self._base + total if total is not None else None
        try:
            anyio.from_thread.run(self._context.report_progress, value, whole, message)
        except Exception as exc:  # a lost notification never fails the call
            logger.debug("progress notification not sent: %s", exc)


def tool_progress() -> Progress:
    """The progress of the tool call under way (`no_progress` outside of one)."""
    return current.get()


__all__ = ["ToolProgress", "current", "tool_progress"]
