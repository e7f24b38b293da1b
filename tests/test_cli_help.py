"""Every command and subcommand has help with an example, and is listed in the README."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from catdoc.cli import app

README = Path(__file__).resolve().parent.parent / "README.md"
runner = CliRunner()


def _commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found = [(path, command)]
    if hasattr(command, "commands"):
        for name, sub in sorted(command.commands.items()):
            if not sub.hidden:
                found += _commands(sub, (*path, name))
    return found


COMMANDS = _commands(typer.main.get_command(app))
IDS = [" ".join(path) or "catdoc" for path, _ in COMMANDS]


def test_the_tree_has_the_core_commands() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    for expected in (
        "init",
        "validate",
        "trace",
        "graph",
        "list categories",
        "list objects",
        "list morphisms",
        "list functors",
        "list natural-transformations",
        "show category",
        "show object",
        "show morphism",
        "show functor",
        "show natural-transformation",
    ):
        assert expected in names


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_help_has_an_example(path: tuple[str, ...], command: Any) -> None:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.stdout, f"`catdoc {' '.join(path)} --help` shows no example"
    example = re.compile(r"^\W*catdoc\b.*" + r"\s+".join(map(re.escape, path)), re.M)
    assert example.search(result.stdout), "the example runs this very command"


@pytest.mark.parametrize(("path", "command"), [c for c in COMMANDS if c[0]], ids=IDS[1:])
def test_every_command_is_in_the_readme(path: tuple[str, ...], command: Any) -> None:
    assert f"catdoc {' '.join(path)}" in README.read_text(encoding="utf-8")


SERVERS = {("dashboard",), ("mcp",), ("tui",)}
"""Long-running faces (stdio protocol, full-screen UI): they print no result to format."""
RESULT_COMMANDS = [
    (path, command)
    for path, command in COMMANDS
    if path and not hasattr(command, "commands") and path not in SERVERS
]


@pytest.mark.parametrize(
    ("path", "command"), RESULT_COMMANDS, ids=[" ".join(p) for p, _ in RESULT_COMMANDS]
)
def test_every_command_takes_format_json(path: tuple[str, ...], command: Any) -> None:
    options = {opt for param in command.params for opt in getattr(param, "opts", [])}
    assert "--format" in options, f"`catdoc {' '.join(path)}` has no --format"


def test_ci_runs_the_quickstart_test_command() -> None:
    readme = README.read_text(encoding="utf-8")
    quickstart = readme[readme.index("<!-- section:quickstart -->") :]
    commands = re.findall(r"```sh\n(.*?)\n```", quickstart.split("<!-- /section:quickstart")[0])
    assert len(commands) == 2
    ci = (README.parent / ".ci/run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == commands[1], ".ci/run runs exactly the README's second command"
    assert "set -euo pipefail" in ci


NARROW = 60


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_help_is_plain_whole_and_fits(path: tuple[str, ...], command: Any) -> None:
    """No type placeholders, no text eaten as markup, prose reflowed to the terminal, whole
    first lines in command lists."""
    result = runner.invoke(app, [*path, "--help"], terminal_width=NARROW)
    text = result.stdout
    for placeholder in ("<bool>", "<list", "<str>", "<int>", "<path>"):
        assert placeholder not in text, f"`catdoc {' '.join(path)} --help` shows {placeholder}"
    flat = " ".join(text.split())
    helps = [command.help or "", *(getattr(p, "help", None) or "" for p in command.params)]
    for bracketed in re.findall(r"\S*\[[^\]\s]+\]\S*", " ".join(helps)):
        assert bracketed in flat, f"{bracketed!r} was read as markup"
    assert "needs catdoc." not in flat
    in_example = False  # example blocks ("Examples:" and its lines) are kept line by line
    for line in text.splitlines():
        in_example = (in_example and bool(line.strip())) or line.rstrip().endswith(":")
        assert len(line) <= NARROW or in_example or line.lstrip().startswith("-"), line
    commands = text.partition("\nCommands:\n")[2]
    assert not any(line.endswith("...") for line in commands.splitlines()), "cut short help"


def test_search_help_names_the_semantic_extra() -> None:
    result = runner.invoke(app, ["search", "--help"])
    assert "catdoc[semantic]" in " ".join(result.stdout.split())
