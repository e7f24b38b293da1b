"""`catdoc mcp --dashboard` as a real stdio subprocess: the dashboard's URL is in the server info
and serves pages (with the session's tool calls); a taken port is a warning, never a failure."""

from __future__ import annotations

import socket
import sys
import urllib.request
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp_project import data_of, make_project

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server(root: Path, log: Path, *flags: str) -> StdioServerParameters:
    """`catdoc mcp` with its stderr appended to `log`."""
    command = [sys.executable, "-m", "catdoc", "mcp", "--project", str(root), *flags]
    return StdioServerParameters(
        command="/bin/sh",
        args=["-c", f'exec "$@" 2>>"{log}"', "sh", *command],
        env={**get_default_environment(), "PYTHONPATH": str(REPO)},
        cwd=str(root),
    )


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


async def fetch_when_up(url: str) -> str:
    """The page at `url`, waiting (bounded) for the dashboard's thread to start serving."""
    for _ in range(100):
        try:
            return await anyio.to_thread.run_sync(fetch, url)
        except OSError:
            await anyio.sleep(0.1)
    return await anyio.to_thread.run_sync(fetch, url)


async def test_dashboard_url_in_server_info_and_pages_served(tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj")
    port = free_port()
    log = tmp_path / "stderr.log"
    async with Client(server(root, log, "--dashboard", "--port", str(port))) as client:
        url = f"http://127.0.0.1:{port}/"
        assert client.server_info.website_url == url
        assert url in (client.instructions or "")
        data = data_of(await client.call_tool("catdoc_show_category", {"categoryId": "design"}))
        assert data["id"] == "design"
        overview = await fetch_when_up(url)
        assert "Requirements to Design" in overview
        assert "catdoc_show_category" in overview  # the activity panel lists the call
        assert "Users log in" in await fetch_when_up(url + "objects/req-login")
    assert url in log.read_text()


async def test_taken_port_logs_a_warning_and_tools_still_answer(tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj")
    log = tmp_path / "stderr.log"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        async with Client(server(root, log, "--dashboard", "--port", str(port))) as client:
            assert client.server_info.website_url is None
            assert "dashboard" not in (client.instructions or "")
            data = data_of(await client.call_tool("catdoc_list_categories", {}))
            assert data["total"] == 2
    text = log.read_text()
    assert "WARNING" in text and "already in use" in text and "runs without it" in text
