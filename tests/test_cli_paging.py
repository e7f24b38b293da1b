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
        (["list", "functors"], 5),
        (["list", "natural-transformations"], 1),
    ],
)
def test_an_offset_past_the_end_names_the_total(args: list[str], total: int) -> None:
    text = cli(*args, "--offset", "500")
    assert text.strip() == f"No items at offset 500 (total {total})."


def test_functors_and_transformations_are_paged() -> None:
    data = json.loads(cli("list", "functors", "--limit", "2", "--offset", "1", "-f", "json"))
    assert [f["id"] for f in data["functors"]] == ["architect", "implement"]
    assert (data["total"], data["limit"], data["offset"]) == (5, 2, 1)
    expected = CatDoc(EXAMPLE).functor_page(limit=2, offset=1)
    assert data == expected.model_dump(mode="json", by_alias=True)
    text = cli("list", "functors", "-n", "2", "--offset", "1")
    assert "2–3 of 5 functors (next page: --offset 3)" in text
    assert "1–5 of 5 functors" in cli("list", "functors")
    nats = json.loads(cli("list", "natural-transformations", "-n", "1", "-f", "json"))
    assert nats["naturalTransformations"][0]["id"] == "unit-gates-e2e"
    assert (nats["total"], nats["limit"], nats["offset"]) == (1, 1, 0)
    past = json.loads(cli("list", "functors", "--offset", "9", "-f", "json"))
    assert past["functors"] == [] and past["message"] == (
        "No functors at offset 9: there are 5; page from 0."
    )
    refused = runner.invoke(app, ["-C", str(EXAMPLE), "list", "functors", "--limit", "0"])
    assert refused.exit_code == 2 and "limit must be between 1 and 200" in refused.stderr


def test_no_functors_says_how_to_add_one(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / ".catdoc" / "category.yaml").write_text("categories: []\n", encoding="utf-8")
    shown = runner.invoke(app, ["-C", str(tmp_path), "list", "functors"])
    assert shown.exit_code == 0 and shown.stdout.startswith("The project has no functors yet: ")
    assert "`catdoc add functor ID --from CATEGORY --to CATEGORY`" in shown.stdout
    shown = runner.invoke(app, ["-C", str(tmp_path), "list", "natural-transformations"])
    assert "no natural transformations yet: `catdoc add transformation" in shown.stdout


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
