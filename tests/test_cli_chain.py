"""`catdoc chain` through the CLI: the text by layer with directions, distances and paths, the
same JSON the service gives, the per-category bound, suspect marks, and unknown ids."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.service import CatDoc

runner = CliRunner()


@pytest.fixture
def root(example_copy: Path) -> Path:
    return example_copy


def test_text_by_layer(root: Path) -> None:
    result = runner.invoke(app, ["-C", str(root), "chain", "spec-checkout-api"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Chain of spec-checkout-api (Checkout API), unbounded: 3 object")
    headings = [line for line in lines if line and not line.startswith(" ") and "(" in line]
    assert [h.split(" (")[0] for h in headings[1:]] == [
        "Requirements",
        "Specifications",
        "Design",
        "Implementation",
        "Tests",
    ]
    assert "  ↑1 req-checkout  Checkout  spec-checkout-api <=specify= req-checkout" in lines
    assert "  ● spec-checkout-api  Checkout API" in lines
    assert "  ↓1 spec-cart-api  Cart API  spec-checkout-api --references--> spec-cart-api" in lines


def test_json_is_the_service_answer(root: Path) -> None:
    result = runner.invoke(
        app, ["-C", str(root), "chain", "req-checkout", "--depth", "2", "-n", "1", "-f", "json"]
    )
    assert result.exit_code == 0, result.output
    expected = CatDoc(root).chain("req-checkout", depth=2, per_group=1)
    assert json.loads(result.stdout) == expected.model_dump(mode="json", by_alias=True)


def test_per_category_says_how_many_more(root: Path) -> None:
    result = runner.invoke(app, ["-C", str(root), "chain", "spec-checkout-api", "-n", "1"])
    assert result.exit_code == 0, result.output
    assert "  … and 2 more (raise --per-category)." in result.stdout


def test_suspect_marks_name_the_link(root: Path) -> None:
    CatDoc(root).review(all=True, by="Ada")
    cart = root / "docs" / "requirements" / "cart.md"
    cart.write_text(cart.read_text("utf-8") + "\nSaved carts expire after 30 days.\n", "utf-8")
    result = runner.invoke(app, ["-C", str(root), "chain", "req-checkout"])
    assert result.exit_code == 0, result.output
    marked = [line for line in result.stdout.splitlines() if "⚠ changed" in line]
    assert any(" req-cart " in line for line in marked)
    assert all("req-cart changed" in line for line in marked)


def test_unknown_id_and_bad_options(root: Path) -> None:
    unknown = runner.invoke(app, ["-C", str(root), "chain", "spec-chekout-api", "-f", "json"])
    assert unknown.exit_code == 2
    error = json.loads(unknown.stderr)["error"]
    assert error["code"] == "NOT_FOUND" and "spec-checkout-api" in error["didYouMean"]
    for bad in (["--depth", "0"], ["--per-category", "0"]):
        result = runner.invoke(app, ["-C", str(root), "chain", "req-cart", *bad])
        assert result.exit_code == 2, bad


@pytest.mark.slow
def test_through_the_entry_point(root: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "catdoc", "chain", "test-cart-unit", "--format", "json"],
        cwd=root,
        env={k: v for k, v in os.environ.items() if k != "COLUMNS"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["object"] == "test-cart-unit" and data["up"] > 0
    assert data["groups"][0]["category"] == "requirements"
