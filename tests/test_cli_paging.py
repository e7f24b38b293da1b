"""Paging in the CLI: `show category` pages its members like `list`; an offset past the end says
so with the total (one caption for every paged command); a reader that closes the pipe early
ends the command quietly with status 0 (real pipes, output far larger than a pipe's buffer)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.cli.app import range_caption
from catdoc.service import CatDoc

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "traceability"

runner = CliRunner()


def cli(*args: str) -> str:
    result = runner.invoke(app, ["-C", str(EXAMPLE), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_show_category_pages_its_members() -> None:
    args = ["show", "category", "requirements", "-n", "2", "--offset", "1", "-f", "json"]
    data = json.loads(cli(*args))
    expected = CatDoc(EXAMPLE).show_category("requirements", limit=2, offset=1)
    assert data == expected.model_dump(mode="json", by_alias=True)
    assert [o["id"] for o in data["objects"]] == ["req-checkout", "req-payment"]
    assert (data["objectCount"], data["morphismCount"]) == (4, 5)
    text = cli("show", "category", "requirements", "--limit", "2", "--offset", "1")
    assert "Objects (4)" in text and "2–3 of 4 (next page: --offset 3)" in text
    assert "Morphisms (5)" in text and "2–3 of 5 (next page: --offset 3)" in text
    everything = cli("show", "category", "requirements")
    assert "1–4 of 4" in everything and "next page" not in everything


@pytest.mark.parametrize(
    ("args", "total"),
    [
        (["list", "objects"], 22),
        (["list", "morphisms", "--category", "requirements"], 5),
        (["list", "categories"], 5),
    ],
)
def test_an_offset_past_the_end_names_the_total(args: list[str], total: int) -> None:
    text = cli(*args, "--offset", "500")
    assert text.strip() == f"No items at offset 500 (total {total})."


def test_show_category_past_the_end() -> None:
    text = cli("show", "category", "requirements", "--offset", "9")
    assert "Objects (4)\nNo items at offset 9 (total 4)." in text
    assert "Morphisms (5)\nNo items at offset 9 (total 5)." in text


def test_nothing_at_all_is_no_matches() -> None:
    assert cli("list", "objects", "--tag", "no-such-tag").strip() == "No matches."


@given(total=st.integers(0, 500), offset=st.integers(0, 600), limit=st.integers(1, 200))
def test_range_caption(total: int, offset: int, limit: int) -> None:
    shown = max(0, min(limit, total - offset))
    text = range_caption(offset, shown, total)
    if total == 0:
        assert text == "No matches."
    elif shown == 0:
        assert text == f"No items at offset {offset} (total {total})."
    else:
        assert text.startswith(f"{offset + 1}–{offset + shown} of {total}")
        assert ("next page: --offset" in text) == (offset + shown < total)


# --------------------------------------------------------------------------- closed pipes
@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A generated project of 3,000 objects (its graph is megabytes of text)."""
    root = tmp_path_factory.mktemp("generated") / "project"
    subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "generate.py"), "3000", str(root)],
        check=True,
        capture_output=True,
    )
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["graph"],
        ["graph", "--format", "dot"],
        ["list", "objects", "--limit", "200"],
        ["show", "category", "requirements", "--limit", "200"],
        ["chain", "req-00000", "--per-category", "1000"],
    ],
    ids=lambda args: " ".join(args),
)
def test_a_closed_pipe_ends_quietly(generated: Path, args: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR")}
    process = subprocess.Popen(
        [sys.executable, "-m", "catdoc", *args],
        cwd=generated,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()  # as `| head -1` does
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 0
    assert first and stderr == b""
