"""The server as a real stdio subprocess: `catdoc mcp`, `catdoc-mcp` (or `python -m
catdoc.mcp_server`) driven by the SDK's stdio client, and by raw JSON-RPC lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp_project import data_of, error_of, make_project, served_tools

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).parent / "catdoc-mcp"


def environment() -> dict[str, str]:
    """The SDK's safe default environment, plus the source tree (catdoc may not be installed)."""
    return {**get_default_environment(), "PYTHONPATH": str(REPO)}


COMMANDS = {
    "catdoc mcp": [sys.executable, "-m", "catdoc", "mcp", "--project"],
    "python -m catdoc.mcp_server": [sys.executable, "-m", "catdoc.mcp_server", "--project"],
}
if SCRIPT.exists():
    COMMANDS["catdoc-mcp"] = [str(SCRIPT), "--project"]


@pytest.mark.parametrize("command", COMMANDS)
async def test_stdio_server_answers_tool_calls(command: str, tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj")
    program, *args = COMMANDS[command]
    params = StdioServerParameters(
        command=program, args=[*args, str(root)], env=environment(), cwd=str(tmp_path)
    )
    async with Client(params) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert listed == await served_tools(root) and len(listed) > 35
        data = data_of(await client.call_tool("catdoc_show_category", {"categoryId": "design"}))
        assert [o["id"] for o in data["objects"]] == ["des-login-form", "des-session-store"]
        error = error_of(await client.call_tool("catdoc_show_category", {"categoryId": "x"}))
        assert error["code"] == "NOT_FOUND"
        error = error_of(await client.call_tool("catdoc_import_document", {"filePath": "/etc"}))
        assert error["code"] == "PATH_OUTSIDE_PROJECT"
        data = data_of(await client.call_tool("catdoc_list_functors", {}))
        assert data["total"] == 2


def test_stdout_carries_only_protocol_and_garbage_is_survived(tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj")
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        "this is not JSON at all",
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": 42}},
        {"jsonrpc": "2.0", "id": 3, "method": "no/such/method", "params": {}},
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "catdoc_list_objects", "arguments": {"limit": -5}},
        },
        {
            "jsonrpc": "2.0",
            "id": 5,
            "method": "tools/call",
            "params": {"name": "catdoc_list_categories", "arguments": {}},
        },
    ]
    stdin = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    proc = subprocess.Popen(
        [sys.executable, "-m", "catdoc.mcp_server", "--project", str(root), "--dashboard"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    replies: dict[int, dict[str, object]] = {}
    proc.stdin.write(stdin)
    proc.stdin.flush()
    try:
        while 5 not in replies:
            line = proc.stdout.readline()
            assert line, "the server closed stdout before answering"
            message = json.loads(line)  # every stdout line is a JSON-RPC message
            assert message["jsonrpc"] == "2.0"
            if "id" in message and message["id"] is not None:
                replies[message["id"]] = message
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    stderr = proc.stderr.read()
    proc.stderr.close()
    proc.stdout.close()
    assert "error" in replies[2] and "error" in replies[3]
    body = json.loads(replies[4]["result"]["content"][0]["text"])  # type: ignore[index]
    assert body["error"]["code"] == "VALIDATION_ERROR"
    listed = replies[5]["result"]["structuredContent"]  # type: ignore[index]
    assert listed["total"] == 2  # type: ignore[index]
    assert "dashboard" in stderr
    assert proc.returncode == 0
