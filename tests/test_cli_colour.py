"""Findings coloured by severity in a terminal (errors red, warnings yellow, infos dim), plain
when piped, NO_COLOR honoured and FORCE_COLOR too: `validate`, the edit commands and errors,
through real processes (a pipe, and a pseudo-terminal)."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catdoc.cli import app

BROKEN = Path(__file__).resolve().parent.parent / "examples" / "broken"
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"
RED, YELLOW, DIM = "\x1b[31m", "\x1b[33m", "\x1b[2m"

pytestmark = pytest.mark.slow


def environment(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "TERM")
    }
    return env | {"TERM": "xterm"} | extra


def piped(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "catdoc", *args],
        cwd=BROKEN,
        env=environment(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def in_terminal(*args: str, **env: str) -> str:
    """What `catdoc ARGS` prints on a pseudo-terminal (stdout and stderr both)."""
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "catdoc", *args],
            cwd=BROKEN,
            env=environment(**env),
            stdin=subprocess.DEVNULL,
            stdout=follower,
            stderr=follower,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: the process has ended
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=120)
    finally:
        os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def coloured_lines(text: str, code: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(code)]


def test_piped_validate_is_plain() -> None:
    done = piped("validate")
    assert done.returncode == 1
    assert "Errors (" in done.stdout and "Warnings (" in done.stdout
    assert "\x1b[" not in done.stdout + done.stderr


def test_a_terminal_gets_findings_by_severity() -> None:
    text = in_terminal("validate")
    errors = coloured_lines(text, RED)
    warnings = coloured_lines(text, YELLOW)
    infos = coloured_lines(text, DIM)
    assert errors[0].startswith(f"{RED}Errors (") and "DUPLICATE_ID" in errors[1]
    assert warnings[0].startswith(f"{YELLOW}Warnings (") and len(warnings) > 1
    assert infos and infos[0].startswith(f"{DIM}Info (")
    summary = [line for line in text.splitlines() if line.startswith("Checked ")]
    assert summary and "INVALID" in summary[0]  # the totals stay plain


def test_no_color_wins_in_a_terminal_and_over_force_color() -> None:
    assert "\x1b[" not in in_terminal("validate", NO_COLOR="1")
    assert "\x1b[" not in piped("validate", NO_COLOR="1", FORCE_COLOR="1").stdout


def test_force_color_colours_a_pipe() -> None:
    done = piped("validate", FORCE_COLOR="1")
    assert coloured_lines(done.stdout, RED) and coloured_lines(done.stdout, YELLOW)
    error = piped("show", "object", "no-such-object", FORCE_COLOR="1")
    assert error.returncode == 2 and error.stderr.startswith(f"{RED}Error: ")
    assert "\x1b[" not in piped("show", "object", "no-such-object").stderr


def test_edit_findings_share_the_colours(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("cache"))
    runner = CliRunner()
    args = ["-C", str(project), "add", "object", "requirements", "req-refund", "--title", "R"]
    plain = runner.invoke(app, args)
    assert plain.exit_code == 1 and "\x1b[" not in plain.stdout
    shutil.rmtree(project)
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("cache"))
    forced = runner.invoke(app, args, env={"FORCE_COLOR": "1"})
    assert forced.exit_code == 1
    assert f"  {RED}error\x1b[0m FUN_OBJECT_UNMAPPED" in forced.stdout
