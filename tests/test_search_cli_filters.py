"""`catdoc search`'s repeatable filters (any of their values), --source, --chunk-range,
--cards-only, --cluster, --content and --cluster-info, through the real typer app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from filters_project import URLS, make_docs, write_project
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.service import CatDoc

runner = CliRunner()
DOCS = make_docs()
BY_ID = {d.id: d for d in DOCS}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("cli") / "proj", DOCS)


def run(root: Path, *args: str) -> Any:
    return runner.invoke(app, ["-C", str(root), "search", "common", "-n", "100", *args])


def hits(root: Path, *args: str) -> list[dict[str, Any]]:
    result = run(root, *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["results"]


def test_repeated_options_match_any_of_their_values(root: Path) -> None:
    found = {h["id"] for h in hits(root, "--tag", "red", "--tag", "blue")}
    assert found == {d.id for d in DOCS if {"red", "blue"} & set(d.tags)}
    found = {h["id"] for h in hits(root, "-c", "alpha", "-c", "gamma", "--file-type", "txt")}
    assert found == {
        d.id for d in DOCS if d.category in ("alpha", "gamma") and d.file_type == "txt"
    }


def test_source_option(root: Path) -> None:
    found = {h["id"] for h in hits(root, "--source", "inline", "--source", URLS[0])}
    assert found == {d.id for d in DOCS if d.path is None or (d.url and d.url.startswith(URLS[0]))}


def test_chunk_range_and_content(root: Path) -> None:
    found = hits(root, "--chunk-range", "1:1", "--content")
    assert found and {h["chunkIndex"] for h in found} == {1}
    assert all(h["content"].startswith("## Part 1") for h in found)
    text = run(root, "--chunk-range", "2:", "--content")
    assert text.exit_code == 0, text.output
    assert "passage 2" in text.stdout and "   | ## Part 2" in text.stdout
    assert "Note: --chunk-range (MCP: chunkRange) filter" in text.stdout


def test_cards_only_shows_the_cards(root: Path) -> None:
    found = hits(root, "--cards-only")
    assert {h["id"] for h in found} == {d.id for d in DOCS if d.summary and "common" in d.summary}
    assert all(h["summary"] for h in found)
    text = run(root, "--cards-only")
    assert "card: Card with common" in text.stdout


def test_cluster_filter_and_cluster_info(root: Path) -> None:
    cluster = CatDoc(root).clusters().clusters[0]
    assert {h["id"] for h in hits(root, "--cluster", cluster.id)} == set(cluster.members)
    assert all(h["clusterId"] is None for h in hits(root))
    info = hits(root, "--cluster-info")
    assert {h["clusterId"] for h in info} >= {cluster.id}
    text = run(root, "--cluster-info", "--cluster", cluster.id)
    assert f"cluster: {cluster.name}  [{cluster.id}]" in text.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--chunk-range", "5:2"], "filter --chunk-range (MCP: chunkRange) = "),
        (["--chunk-range", "5:2"], "start 5 is after end 2"),
        (["--chunk-range", "two"], "is not START:END"),
        (["--chunk-range", "-1:3"], "greater than or equal to 0"),
        (["--cards-only", "--scope", "chunks"], "--cards-only (MCP: cardsOnly) cannot be combined"),
        (["--tag", " "], "filter --tag (MCP: tags) = [' ']: holds an empty value"),
    ],
)
def test_bad_options_are_validation_errors(root: Path, args: list[str], words: str) -> None:
    result = run(root, *args, "--format", "json")
    assert result.exit_code == 2, result.output
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "VALIDATION_ERROR" and words in error["message"]
    if "--chunk-range" in args:  # the CLI's names first (MCP's in brackets), in the hint too
        assert error["hint"].startswith("Give --chunk-range as START:END (MCP: chunkRange as")
