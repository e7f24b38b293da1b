"""A bounded, thread-safe log of the MCP tool calls, which the dashboard streams as they happen.

The MCP server records into it from whichever thread runs a tool; the dashboard's event stream
reads what came after the last entry it sent. Old entries fall off the end (a ring buffer).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import asdict, dataclass
from typing import Any

MAX_ARGUMENT_CHARS = 300
MAX_SUMMARY_CHARS = 200


@dataclass(frozen=True)
class ToolCall:
    """One finished tool call, as the activity panel shows it."""

    seq: int
    tool: str
    arguments: str
    at: float
    duration_ms: float
    ok: bool
    summary: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summarise(result: Any) -> tuple[bool, str]:
    """(ok, one line) for a `CallToolResult`: the error code and message, or what came back."""
    if getattr(result, "is_error", False):
        text = result.content[0].text if result.content else ""
        try:
            error = json.loads(text)["error"]
            return False, f"{error['code']}: {error['message']}"
        except (ValueError, KeyError, TypeError):
            return False, text or "error"
    data = getattr(result, "structured_content", None)
    if not isinstance(data, dict):
        return True, "ok"
    for key, noun in (("total", "total"), ("count", "found")):
        if isinstance(data.get(key), int):
            return True, f"{data[key]} {noun}"
    if "isValid" in data:
        summary = data.get("summary") or {}
        verdict = "valid" if data["isValid"] else "invalid"
        return True, (
            f"{verdict}, {summary.get('totalErrors', 0)} errors, "
            f"{summary.get('totalWarnings', 0)} warnings"
        )
    if "found" in data:
        return True, f"{len(data.get('paths') or [])} paths" if data["found"] else "no path"
    if "id" in data:
        return True, str(data["id"])
    return True, ", ".join(list(data)[:6])


class ActivityLog:
    """The last `size` tool calls, numbered from 1 so a reader can ask for what came after."""

    def __init__(self, size: int = 200) -> None:
        self._calls: deque[ToolCall] = deque(maxlen=size)
        self._lock = threading.Lock()
        self._seq = 0

    def record(self, tool: str, arguments: dict[str, Any], seconds: float, result: Any) -> None:
        """Log one call of `tool` that took `seconds` and returned `result` (a CallToolResult)."""
        ok, summary = summarise(result)
        shown = json.dumps(arguments, ensure_ascii=False, default=str, separators=(", ", ": "))
        with self._lock:
            self._seq += 1
            self._calls.append(
                ToolCall(
                    seq=self._seq,
                    tool=tool,
                    arguments=_cut(shown, MAX_ARGUMENT_CHARS),
                    at=time.time(),
                    duration_ms=round(seconds * 1000, 1),
                    ok=ok,
                    summary=_cut(summary, MAX_SUMMARY_CHARS),
                )
            )

    def since(self, seq: int) -> list[ToolCall]:
        """The calls numbered above `seq`, oldest first."""
        with self._lock:
            return [call for call in self._calls if call.seq > seq]

    def latest(self, n: int) -> list[ToolCall]:
        """The last `n` calls, newest first."""
        with self._lock:
            return list(self._calls)[-n:][::-1]

    @property
    def last_seq(self) -> int:
        with self._lock:
            return self._seq
