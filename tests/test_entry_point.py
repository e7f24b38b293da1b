"""The `catdoc` console script: a plain `catdoc mcp …` starts the server without importing the
command line, reading its arguments exactly as the command line would; everything else is the
command line's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc import mcp_start
from catdoc.cli import app
from catdoc.entry_point import server_arguments

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "args",
    [
        ["mcp"],
        ["mcp", "--project", "/some/where"],
        ["mcp", "-C", "repo", "--read-only"],
        ["mcp", "--project=repo", "--dashboard", "--port", "8765"],
        ["mcp", "--port=0", "--read-only", "--dashboard"],
        ["mcp", "--project", "a dir with spaces", "--project", "later wins"],
    ],
)
def test_plain_server_starts_are_taken_straight(args: list[str]) -> None:
    assert server_arguments(args) == args[1:]


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["validate"],
        ["-C", "repo", "mcp"],  # a global option: the command line's
        ["mcp", "--help"],
        ["mcp", "-h"],
        ["mcp", "--version"],
        ["mcp", "--read"],  # argparse would take an abbreviation the command line refuses
        ["mcp", "--project"],
        ["mcp", "--project", "--read-only"],
        ["mcp", "--project="],
        ["mcp", "-C=repo"],
        ["mcp", "-Crepo"],
        ["mcp", "--port", "65536"],
        ["mcp", "--port", "-1"],
        ["mcp", "--port", "80a"],
        ["mcp", "--port", "٣"],  # not an ASCII digit: left to the command line
        ["mcp", "--dashboard=yes"],
        ["mcp", "extra"],
    ],
)
def test_anything_else_goes_to_the_command_line(args: list[str]) -> None:
    assert server_arguments(args) is None


TOKENS = st.sampled_from(
    [
        "--project",
        "-C",
        "--port",
        "--dashboard",
        "--read-only",
        "--project=x",
        "--port=7",
        "repo",
        "other dir",
        "0",
        "65535",
        "65536",
        "-x",
        "=",
        "",
    ]
)


def parsed_by(start: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What `serve` is called with when `start` runs (the server itself is not started)."""
    seen: dict[str, Any] = {}

    def record(project: Path | str | None = None, **options: Any) -> None:
        seen.update(options, project=None if project is None else str(project))

    monkeypatch.setattr(mcp_start, "serve", record)
    start()
    return seen


@settings(max_examples=200)
@given(rest=st.lists(TOKENS, max_size=6))
def test_a_start_taken_straight_reads_its_arguments_as_the_command_line(rest: list[str]) -> None:
    arguments = server_arguments(["mcp", *rest])
    if arguments is None:
        return
    with pytest.MonkeyPatch.context() as monkeypatch:
        straight = parsed_by(lambda: mcp_start.main(arguments), monkeypatch)
        result: list[Any] = []
        through_cli = parsed_by(
            lambda: result.append(CliRunner().invoke(app, ["mcp", *rest])), monkeypatch
        )
    assert result[0].exit_code == 0, result[0].output
    assert straight == through_cli


@pytest.mark.slow
def test_catdoc_mcp_serves_without_importing_the_command_line(tmp_path: Path) -> None:
    """A real start over stdio (stdin closed at once: the server stops), its imports listed."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    started = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "catdoc", "mcp", "--project", str(tmp_path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert started.returncode == 0, started.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in started.stderr.splitlines()}
    assert "catdoc.mcp_start" in imported
    assert not {"catdoc.cli", "typer"} & imported


@pytest.mark.slow
def test_other_mcp_command_lines_keep_the_command_lines_help_and_errors() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = [sys.executable, "-m", "catdoc", "mcp"]
    helped = subprocess.run([*run, "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert helped.returncode == 0 and "Start the MCP server" in helped.stdout
    wrong = subprocess.run(
        [*run, "--port", "99999"], capture_output=True, text=True, env=env, timeout=60
    )
    assert wrong.returncode == 2 and "--port" in wrong.stderr
