"""The command line on hostile and broken input: titles and ids that carry terminal escape
sequences and rich markup, command-line mistakes with `--format json`, `-C` after the command,
option ranges named by their option, readable help, and a reader that closes the pipe."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.visible import json_visible, visible

REPO = Path(__file__).resolve().parent.parent.parent
EXAMPLE = REPO / "examples" / "traceability"

ESC_ID = "req-cart\x1b]0;PWNED\x07\x1b[31m\x9b2J[/]"
"""An object id that sets the terminal title, turns text red and clears the screen (C1 CSI)."""
MARKUP_TITLE = "[bold red]x[/] [link=file:///etc/passwd]y\x1b[2J\x7f\u202e"
"""A title that rich would read as markup, with ESC, DEL and a bidi override."""
HOSTILE_TYPE = 'depends\x1b[8m-on "q" \\ ]` #x |y'
HOSTILE_FUNCTOR = "Req \x1b]8;;http://x\x07→\x1b]8;;\x07 Spec"
HOSTILE_CATEGORY = "Requirements\x1b[?1049h [i]x[/i]"
DOC_PAYLOAD = "Evil line \x1b[41mred\x1b[0m\r\nnext\x08over"

RAW_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
"""What must never reach a terminal: every control character but newline and tab."""

runner = CliRunner()


def _yaml(text: str) -> str:
    """`text` as a YAML double-quoted scalar (JSON is YAML)."""
    return json.dumps(text)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """The traceability example with hostile ids, titles, names and document text."""
    root = tmp_path / "traceability"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("cache"))
    for path in (root / ".catdoc").rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        text = text.replace("title: Shopping cart", f"title: {_yaml(MARKUP_TITLE)}")
        text = text.replace("req-cart", _yaml(ESC_ID))
        functor = "name: Requirements → Specifications"
        text = text.replace(functor, f"name: {_yaml(HOSTILE_FUNCTOR)}")
        text = text.replace("name: Requirements\n", f"name: {_yaml(HOSTILE_CATEGORY)}\n", 1)
        text = text.replace("mode: hybrid", "mode: text")
        path.write_text(text, encoding="utf-8")
    model = root / ".catdoc" / "category.yaml"
    text = model.read_text(encoding="utf-8")
    text = text.replace("name: depends-on", f"name: {_yaml(HOSTILE_TYPE)}", 1)
    dangling = (
        "    morphisms:\n      - id: dangling-evil\n        name: depends-on\n"
        f"        source: req-checkout\n        target: {_yaml(ESC_ID + '-gone')}\n"
    )
    model.write_text(text.replace("    morphisms:\n", dangling, 1), encoding="utf-8")
    cart = root / "docs" / "requirements" / "cart.md"
    cart.write_text(cart.read_text(encoding="utf-8") + "\n" + DOC_PAYLOAD + "\n", encoding="utf-8")
    return root


def run(*args: str | Path) -> Any:
    return runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "400"})


def assert_no_raw_control(result: Any) -> None:
    for stream in (result.stdout, result.stderr):
        found = RAW_CONTROL.search(stream)
        assert found is None, f"raw {found.group()!r} in {stream!r}"


TEXT_COMMANDS = {
    "validate": ["validate"],
    "list categories": ["list", "categories"],
    "list objects": ["list", "objects"],
    "list morphisms": ["list", "morphisms"],
    "list functors": ["list", "functors"],
    "list natural-transformations": ["list", "natural-transformations"],
    "show category": ["show", "category", "requirements"],
    "show object": ["show", "object", ESC_ID],
    "show morphism": ["show", "morphism", "checkout-depends-on-cart"],
    "show functor": ["show", "functor", "specify"],
    "show natural-transformation": ["show", "natural-transformation", "unit-gates-e2e"],
    "trace": ["trace", "req-checkout", ESC_ID],
    "search": ["search", "cart"],
    "search chunks": ["search", "evil line", "--scope", "chunks"],
    "did you mean": ["show", "object", ESC_ID + "x"],
}
"""Every command that prints entities, as text (`graph` prints DOT/Mermaid, tested below)."""
PAYLOAD_SHOWN = {
    "list categories": HOSTILE_CATEGORY,
    "list functors": HOSTILE_FUNCTOR,
    "list natural-transformations": None,
    "show category": HOSTILE_CATEGORY,
    "show morphism": HOSTILE_TYPE,
    "show functor": HOSTILE_FUNCTOR,
    "show natural-transformation": None,
}
"""The payload each command shows (default: the hostile id)."""


@pytest.mark.parametrize("name", TEXT_COMMANDS)
def test_text_output_escapes_control_characters(hostile: Path, name: str) -> None:
    result = run("-C", hostile, *TEXT_COMMANDS[name])
    assert result.exit_code in (0, 1, 2), result.output
    assert_no_raw_control(result)
    payload = PAYLOAD_SHOWN.get(name, ESC_ID)
    if payload is not None:
        shown = result.stdout + result.stderr
        assert visible(payload) in shown, "the payload is shown, recognisably"


@pytest.mark.parametrize(
    "args",
    [["list", "objects"], ["show", "object", ESC_ID], ["search", "cart"]],
    ids=["list objects", "show object", "search"],
)
def test_rich_markup_in_data_prints_literally(hostile: Path, args: list[str]) -> None:
    result = run("-C", hostile, *args)
    assert result.exit_code == 0, result.output
    assert "[bold red]x[/] [link=file:///etc/passwd]y\\x1b[2J\\x7f\\u202e" in result.stdout


def test_document_text_keeps_its_lines_and_escapes_the_rest(hostile: Path) -> None:
    result = run("-C", hostile, "show", "object", ESC_ID, "--max-chars", "0")
    assert result.exit_code == 0
    result = run("-C", hostile, "show", "object", ESC_ID, "--max-chars", "100000")
    assert "Evil line \\x1b[41mred\\x1b[0m\nnext\\x08over" in result.stdout
    assert_no_raw_control(result)


JSON_COMMANDS = {
    name: args
    for name, args in TEXT_COMMANDS.items()
    if name not in ("did you mean", "search chunks")
}


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item)


@pytest.mark.parametrize("name", JSON_COMMANDS)
def test_json_output_stays_exact(hostile: Path, name: str) -> None:
    result = run("-C", hostile, *JSON_COMMANDS[name], "--format", "json")
    assert result.exit_code in (0, 1), result.output
    assert_no_raw_control(result)
    values = set(_strings(json.loads(result.stdout)))
    payload = PAYLOAD_SHOWN.get(name, ESC_ID)
    if payload is not None:
        assert any(payload in value for value in values), "the payload comes back exactly"


def test_json_errors_stay_exact(hostile: Path) -> None:
    result = run("-C", hostile, "show", "object", ESC_ID + "x", "-f", "json")
    assert result.exit_code == 2
    assert_no_raw_control(result)
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "NOT_FOUND" and ESC_ID in error["didYouMean"]


def test_graph_json_stays_exact(hostile: Path) -> None:
    result = run("-C", hostile, "graph", "--format", "json")
    assert result.exit_code == 0
    assert_no_raw_control(result)
    labels = {node["label"] for node in json.loads(result.stdout)["nodes"]}
    assert MARKUP_TITLE in labels


DOT_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _dot_unescape(token: str) -> str:
    """A label as Graphviz shows it (`\\n` a line break, `\\\\` a backslash)."""
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), token[1:-1])


def _dot_id(token: str) -> str:
    """An id as DOT reads it: only `\\"` is an escape."""
    return re.sub(r'\\(["\\])', lambda m: '"' if m.group(1) == '"' else "\\\\", token[1:-1])


def test_dot_labels_are_escaped_and_valid(hostile: Path) -> None:
    result = run("-C", hostile, "graph", "--format", "dot")
    assert result.exit_code == 0
    assert_no_raw_control(result)
    lines = result.stdout.splitlines()
    assert lines[0] == "digraph catdoc {" and lines[-1] == "}"
    strings: list[str] = []
    for line in lines:
        strings += [read(s) for s in DOT_STRING.findall(line) for read in (_dot_unescape, _dot_id)]
        rest = DOT_STRING.sub("S", line)
        assert '"' not in rest and "\\" not in rest, f"unbalanced DOT string in {line!r}"
    for text in (ESC_ID, MARKUP_TITLE, HOSTILE_TYPE, HOSTILE_FUNCTOR):
        assert visible(text, lines=True) in strings, text


MERMAID_LABEL = re.compile(r'"([^"\n]*)"')


def test_mermaid_labels_are_escaped_and_valid(hostile: Path) -> None:
    result = run("-C", hostile, "graph", "--format", "mermaid")
    assert result.exit_code == 0
    assert_no_raw_control(result)
    node = re.compile(r'^    n\d+\["[^"]*"\]$')
    edge = re.compile(r'^  n\d+ (-->|-\.->)\|"[^"]*"\| n\d+$')
    group = re.compile(r'^  subgraph c\d+\["[^"]*"\]$')
    for line in result.stdout.splitlines()[1:]:
        assert node.match(line) or edge.match(line) or group.match(line) or line == "  end", line
    labels = " ".join(MERMAID_LABEL.findall(result.stdout))
    assert "req-cart\\x1b]0;PWNED\\x07\\x1b[31m\\x9b2J[/]" in labels
    assert "#96;" in labels and "#124;" in labels and "#quot;" in labels


def test_import_and_init_escape_paths(hostile: Path, tmp_path: Path) -> None:
    notes = hostile / "notes"
    notes.mkdir()
    (notes / "evil\x1b[31m.md").write_text(
        f"---\ntitle: {_yaml(MARKUP_TITLE)}\n---\n# Evil\n", encoding="utf-8"
    )
    result = run("-C", hostile, "import", "notes")
    assert result.exit_code == 0, result.output
    assert_no_raw_control(result)
    assert "evil\\x1b[31m.md" in result.stdout
    result = run("init", tmp_path / "new\x1b]0;x\x07")
    assert result.exit_code == 0, result.output
    assert_no_raw_control(result)


# --------------------------------------------------------------------------- the one helper
def test_bidi_marks_and_line_separators_are_shown_as_escapes() -> None:
    """Not only the overrides: the marks (LRM, RLM, ALM) reorder neutral characters around
    them, and U+2028/U+2029 may break a line where none is shown; all are escaped."""
    for char in "\u200e\u200f\u061c\u2028\u2029\u202e\u2067":
        assert visible(f"a{char}b") == f"a\\u{ord(char):04x}b"
        assert visible(f"a{char}b", lines=True) == f"a\\u{ord(char):04x}b"
        assert json_visible(json.dumps(f"a{char}b", ensure_ascii=False)) == json.dumps(f"a{char}b")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8")))
def test_visible_leaves_no_control_character(text: str) -> None:
    assert RAW_CONTROL.search(visible(text)) is None and "\n" not in visible(text)
    assert RAW_CONTROL.search(visible(text, lines=True)) is None


def _unescape(text: str) -> str:
    return re.sub(r"\\x([0-9a-f]{2})|\\u([0-9a-f]{4})", lambda m: chr(int(m[1] or m[2], 16)), text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\\")))
def test_visible_is_reversible(text: str) -> None:
    assert _unescape(visible(text)) == text
    assert _unescape(visible(text, lines=True)) == text.replace("\r\n", "\n")


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)))
def test_json_visible_keeps_the_value(data: Any) -> None:
    text = json_visible(json.dumps(data, ensure_ascii=False))
    assert RAW_CONTROL.search(text) is None
    assert json.loads(text) == data


# --------------------------------------------------------------------------- usage errors as JSON
USAGE_ERRORS = {
    "bad choice": (["search", "foo", "-f", "json", "--mode", "fuzzy"], "--mode"),
    "out of range": (["list", "objects", "--format=json", "--limit", "0"], "--limit"),
    "missing argument": (["show", "object", "-f", "json"], "ID"),
    "unknown option": (["list", "objects", "-fjson", "--bogus"], "--bogus"),
    "not a number": (["trace", "a", "b", "--max-depth", "x", "--format", "JSON"], "--max-depth"),
    "graph format": (["graph", "-f", "json", "--category"], "--category"),
}


@pytest.mark.parametrize(("args", "names"), USAGE_ERRORS.values(), ids=USAGE_ERRORS.keys())
def test_usage_errors_are_json_when_json_is_asked(args: list[str], names: str) -> None:
    result = run("-C", EXAMPLE, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert names in error["message"] and "--help" in error["hint"]


def test_usage_errors_are_text_otherwise() -> None:
    result = run("-C", EXAMPLE, "search", "foo", "--mode", "fuzzy")
    assert result.exit_code == 2
    assert result.stderr.startswith("Usage: catdoc search") and "Error:" in result.stderr
    assert "'fuzzy'" in result.stderr


@pytest.mark.parametrize(
    "args",
    [["list", "objects", "--x\x1b]0;PWNED\x07"], ["search", "q", "--mode", "\x1b]0;PWNED\x07"]],
    ids=["unknown option", "bad value"],
)
def test_usage_errors_escape_what_was_typed(args: list[str]) -> None:
    result = run("-C", EXAMPLE, *args)
    assert result.exit_code == 2
    assert_no_raw_control(result)
    assert "\\x1b]0;PWNED\\x07" in result.stderr
    result = run("-C", EXAMPLE, *args, "-f", "json")
    assert_no_raw_control(result)
    assert "PWNED" in json.loads(result.stderr)["error"]["message"]


# --------------------------------------------------------------------------- ranges name the option
RANGES = {
    "--max-depth": (["trace", "req-checkout", "req-cart", "--max-depth", "0"], "between 1 and 50"),
    "trace --limit": (["trace", "req-checkout", "req-cart", "--limit", "999"], "between 1 and 200"),
    "list --limit": (["list", "morphisms", "-n", "201"], "between 1 and 200"),
    "--offset": (["list", "objects", "--offset", "-1"], "0 or more"),
    "search --limit": (["search", "cart", "--limit", "0"], "between 1 and 200"),
    "search --offset": (["search", "cart", "--offset", "-3"], "0 or more"),
}


@pytest.mark.parametrize(("args", "allowed"), RANGES.values(), ids=RANGES.keys())
def test_range_errors_name_the_option(args: list[str], allowed: str) -> None:
    result = run("-C", EXAMPLE, *args)
    assert result.exit_code == 2
    option = next(a for a in args if a.startswith("-"))
    long_name = {"-n": "--limit"}.get(option, option)
    assert f"'{long_name}'" in result.stderr and allowed in result.stderr
    assert "max_depth" not in result.stderr


# --------------------------------------------------------------------------- -C after the command
def _leaf_commands() -> list[tuple[str, ...]]:
    def walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        subs = getattr(command, "commands", {})
        if not subs:
            yield path
        for name, sub in subs.items():
            yield from walk(sub, (*path, name))

    return list(walk(typer.main.get_command(app), ()))


@pytest.mark.parametrize("path", _leaf_commands(), ids=" ".join)
def test_every_command_takes_project_after_it(path: tuple[str, ...]) -> None:
    result = run(*path, "-C", EXAMPLE, "--help")
    assert result.exit_code == 0, result.output


RUNS = {
    "validate": ["validate"],
    "list objects": ["list", "objects", "-n", "1"],
    "show object": ["show", "object", "req-cart"],
    "trace": ["trace", "req-checkout", "req-cart"],
    "graph": ["graph", "-f", "dot"],
    "search": ["search", "cart", "--mode", "text"],
}


@pytest.mark.parametrize("args", RUNS.values(), ids=RUNS.keys())
@pytest.mark.parametrize("form", ["-C", "--project", "--project="])
def test_project_after_the_command_is_used(
    args: list[str], form: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no project here: only -C can find it
    option = [form + str(EXAMPLE)] if form.endswith("=") else [form, str(EXAMPLE)]
    result = run(*args, *option)
    assert result.exit_code == 0, result.output
    result = run(args[0], *option, *args[1:])
    assert result.exit_code == 0, result.output


def test_project_after_the_command_leaves_option_values_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("list", "objects", "--category", "-C", "-C", EXAMPLE, "-f", "json")
    assert result.exit_code == 2
    assert "-C" in json.loads(result.stderr)["error"]["message"]  # the category named -C
    result = run("init", "-C", tmp_path / "fresh")
    assert result.exit_code == 0 and (tmp_path / "fresh" / ".catdoc").is_dir()


# --------------------------------------------------------------------------- a closed pipe
def test_closed_pipe_exits_quietly() -> None:
    """`catdoc list objects | head -1`: the reader is gone before the first write."""
    process = subprocess.Popen(
        [sys.executable, "-m", "catdoc", "-C", str(EXAMPLE), "list", "objects", "-n", "200"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0, stderr
    assert stderr == ""
