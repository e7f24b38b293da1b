"""The command line through its real entry point: CliRunner on the app, and a few subprocesses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catdoc.cli import app

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "traceability"
MATH = REPO / "examples" / "math"

runner = CliRunner()


def cli(*args: str | Path):
    return runner.invoke(app, [str(a) for a in args])


def cli_json(*args: str | Path):
    result = cli(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --------------------------------------------------------------------------- validate
def test_validate_valid_project_exits_0() -> None:
    result = cli("-C", EXAMPLE, "validate")
    assert result.exit_code == 0, result.output
    assert "valid" in result.stdout and "identity preservation holds" in result.stdout


def test_validate_json_has_the_original_report_shape() -> None:
    result = cli("-C", EXAMPLE, "validate", "--format", "json")
    data = json.loads(result.stdout)
    assert data["isValid"] is True
    assert {"errors", "warnings", "summary", "timestamp"} <= set(data)
    assert data["summary"]["categoriesChecked"] == 5
    assert data["summary"]["naturalTransformationsChecked"] == 1


def test_validate_invalid_project_exits_1(example_copy: Path) -> None:
    model = example_copy / ".catdoc/category.yaml"
    model.write_text(model.read_text().replace("target: req-cart\n", "target: req-nowhere\n", 1))
    result = cli("-C", example_copy, "validate")
    assert result.exit_code == 1
    assert "req-nowhere" in result.stdout


def test_validate_strict_fails_on_warnings(example_copy: Path) -> None:
    config = example_copy / ".catdoc/config.yaml"
    config.write_text(config.read_text() + "surprise: 1\n")
    assert cli("-C", example_copy, "validate").exit_code == 0
    assert cli("-C", example_copy, "validate", "--strict").exit_code == 1


def test_validate_scoped_to_one_entity() -> None:
    data = cli_json("-C", EXAMPLE, "validate", "--functor", "specify")
    assert data["summary"]["functorsChecked"] == 1 and data["summary"]["categoriesChecked"] == 0
    data = cli_json("-C", EXAMPLE, "validate", "--category", "REQ")
    assert data["summary"]["categoriesChecked"] == 1


def test_validate_exit_2_on_unloadable_project_and_bad_command_line(example_copy: Path) -> None:
    (example_copy / ".catdoc/category.yaml").write_text("categories: [\n")
    result = cli("-C", example_copy, "validate")
    assert result.exit_code == 2
    assert "category.yaml:" in result.stderr and "Error:" in result.stderr
    assert cli("-C", EXAMPLE, "validate", "--functor", "nope").exit_code == 2
    assert cli("-C", EXAMPLE, "validate", "--category", "x", "--functor", "y").exit_code == 2
    assert cli("-C", EXAMPLE, "validate", "--bogus").exit_code == 2


def test_no_project_is_a_clear_error(tmp_path: Path) -> None:
    result = cli("-C", tmp_path, "list", "objects")
    assert result.exit_code == 2
    assert "No CatDoc project found" in result.stderr and "catdoc init" in result.stderr
    missing = cli("-C", tmp_path / "missing", "validate")
    assert missing.exit_code == 2 and "no such directory" in missing.stderr


# --------------------------------------------------------------------------- list / show
def test_list_categories_table_and_json() -> None:
    result = cli("-C", EXAMPLE, "list", "categories")
    assert result.exit_code == 0
    assert "requirements" in result.stdout and "5 categories" in result.stdout
    data = cli_json("-C", EXAMPLE, "list", "categories")["categories"]
    assert [c["id"] for c in data][:2] == ["requirements", "specifications"]
    assert data[0]["objectCount"] == 4 and data[0]["aliases"] == ["reqs", "REQ"]


def test_list_objects_filters_and_paging() -> None:
    data = cli_json("-C", EXAMPLE, "list", "objects", "--category", "tests", "--tag", "payment")
    assert {o["id"] for o in data["items"]} == {"test-payment-unit", "test-payment-contract"}
    page = cli_json("-C", EXAMPLE, "list", "objects", "--limit", "5", "--offset", "5")
    assert page["total"] == 22 and len(page["items"]) == 5 and page["offset"] == 5
    text = cli("-C", EXAMPLE, "list", "objects", "--limit", "5").stdout
    assert "1–5 of 22" in text and "--offset 5" in text
    by_domain = cli_json("-C", EXAMPLE, "list", "objects", "--domain", "design")
    assert by_domain["total"] == 4


def test_list_paging_out_of_range_is_exit_2() -> None:
    result = cli("-C", EXAMPLE, "list", "objects", "--limit", "0")
    assert result.exit_code == 2 and "limit must be between 1 and 200" in result.stderr


def test_list_morphisms_functors_and_transformations() -> None:
    data = cli_json("-C", EXAMPLE, "list", "morphisms", "--source", "req-receipt")
    assert data["total"] == 3
    data = cli_json("-C", EXAMPLE, "list", "morphisms", "--name", "gates")
    assert data["total"] == 5
    functors = cli_json("-C", EXAMPLE, "list", "functors")
    assert [f["id"] for f in functors["functors"]] == [
        "specify",
        "architect",
        "implement",
        "unit-test",
        "end-to-end",
    ]
    nats = cli_json("-C", EXAMPLE, "list", "natural-transformations")
    first = nats["naturalTransformations"][0]
    assert first["id"] == "unit-gates-e2e" and first["componentCount"] == 4
    assert (
        "1 natural transformation" in cli("-C", EXAMPLE, "list", "natural-transformations").stdout
    )


def test_show_each_kind() -> None:
    cat = cli_json("-C", EXAMPLE, "show", "category", "reqs")
    assert cat["id"] == "requirements" and len(cat["equations"]) == 2
    obj = cli_json("-C", EXAMPLE, "show", "object", "req-checkout", "--max-chars", "50")
    assert obj["truncated"] and len(obj["content"]) == 50 and obj["images"]["specify"]
    mor = cli_json("-C", EXAMPLE, "show", "morphism", "checkout-depends-on-cart")
    assert mor["images"] == {"specify": ["spec-checkout-refs-cart"]}
    fun = cli_json("-C", EXAMPLE, "show", "functor", "end-to-end")
    assert fun["identityPreservation"] == "holds"
    assert all(e["value"] == [] for e in fun["morphismMapping"])
    nat = cli_json("-C", EXAMPLE, "show", "natural-transformation", "unit-gates-e2e")
    assert {e["status"] for e in nat["components"]} == {"ok"}
    text = cli("-C", EXAMPLE, "show", "object", "req-checkout").stdout
    assert "# Checkout" in text and "checkout-depends-on-cart" in text


def test_unknown_id_says_not_found_with_suggestions() -> None:
    result = cli("-C", EXAMPLE, "show", "object", "req-chekout")
    assert result.exit_code == 2
    assert "Object not found: 'req-chekout'" in result.stderr
    assert "Did you mean: req-checkout" in result.stderr
    assert result.stdout == ""
    as_json = cli("-C", EXAMPLE, "show", "functor", "spcify", "--format", "json")
    error = json.loads(as_json.stderr)["error"]
    assert error["code"] == "NOT_FOUND" and "specify" in error["didYouMean"]


@pytest.mark.parametrize("end", ["--source", "--target"])
def test_list_morphisms_of_an_unknown_object_is_not_found(end: str) -> None:
    result = cli("-C", EXAMPLE, "list", "morphisms", end, "req-chekout")
    assert result.exit_code == 2
    assert "Object not found: 'req-chekout'" in result.stderr
    assert "Did you mean: req-checkout" in result.stderr


def test_rich_markup_in_user_data_is_printed_literally(tmp_path: Path) -> None:
    cli("init", tmp_path)
    model = tmp_path / ".catdoc/category.yaml"
    model.write_text(model.read_text().replace("Export the audit log", "'[bold]Export[/bold]'", 1))
    wide = {"COLUMNS": "200"}  # the cell whole, whatever the terminal running the tests
    result = runner.invoke(app, ["-C", str(tmp_path), "list", "objects"], env=wide)
    assert "[bold]Export[/bold]" in result.stdout


def test_a_long_id_folds_instead_of_squeezing_the_other_columns(tmp_path: Path) -> None:
    cli("init", "--bare", tmp_path)
    long_id = "scripts-tests-test-translation-fixer-test-code-blocks-data"
    cli("-C", tmp_path, "add", "category", long_id, "--name", "Translation fixer data")
    cli("-C", tmp_path, "add", "category", "docs", "--name", "Documents")
    result = runner.invoke(app, ["-C", str(tmp_path), "list", "categories"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    assert "Morphisms" in result.stdout and "Equations" in result.stdout  # whole headers
    assert "│ docs " in result.stdout  # a short id stays whole
    assert long_id not in result.stdout  # the long one folds
    cells = [line.split("│")[1].strip() for line in result.stdout.splitlines() if "│" in line]
    assert long_id in "".join(cells)


# --------------------------------------------------------------------------- trace / graph / init
def test_trace_text_and_json() -> None:
    result = cli("-C", EXAMPLE, "trace", "req-checkout", "test-checkout-e2e", "--limit", "2")
    assert result.exit_code == 0
    assert result.stdout.startswith("1. [4 hops] req-checkout =specify=> spec-checkout-api")
    assert "raise --limit" in result.stdout
    data = cli_json(
        "-C", EXAMPLE, "trace", "req-checkout", "impl-payment-client", "--max-depth", "4"
    )
    assert data["found"] and all(p["length"] <= 4 for p in data["paths"])
    assert data["paths"][0]["hops"][0]["kind"] in {"morphism", "functor"}


def test_trace_without_functors_and_without_path() -> None:
    """The CLI says what the core says: why there is no path, and what to try."""
    args = ("-C", EXAMPLE, "trace", "req-checkout", "test-checkout-e2e", "--no-functors")
    data = cli_json(*args)
    assert data == {
        "source": "req-checkout",
        "target": "test-checkout-e2e",
        "found": False,
        "paths": [],
        "truncated": False,
        "message": data["message"],
    }
    assert "and this trace does not follow functors" in data["message"]
    assert cli(*args).stdout.strip() == data["message"]
    back = cli("-C", EXAMPLE, "trace", "test-checkout-e2e", "req-checkout").stdout
    assert back.startswith("No path from test-checkout-e2e to req-checkout: ")
    assert "A trace from req-checkout to test-checkout-e2e follows them." in back
    assert cli("-C", EXAMPLE, "trace", "req-checkout", "nope").exit_code == 2


def test_graph_formats() -> None:
    data = json.loads(cli("-C", EXAMPLE, "graph").stdout)
    assert len(data["nodes"]) == 22
    assert {e["type"] for e in data["edges"]} == {"morphism", "functor"}
    dot = cli("-C", EXAMPLE, "graph", "--format", "dot", "--category", "design").stdout
    assert dot.startswith("digraph catdoc {") and dot.count("->") == 5
    mermaid = cli("-C", EXAMPLE, "graph", "-f", "mermaid").stdout
    assert mermaid.startswith("flowchart LR")
    assert cli("-C", EXAMPLE, "graph", "--format", "svg").exit_code == 2


def test_init_then_validate_then_refuse(tmp_path: Path) -> None:
    target = tmp_path / "new"
    result = cli("init", target, "--name", "demo")
    assert result.exit_code == 0 and ".catdoc/category.yaml" in result.stdout
    assert cli("-C", target, "validate", "--strict").exit_code == 0
    again = cli("init", target)
    assert again.exit_code == 1 and "--force" in again.stderr
    forced = cli("init", target, "--force", "--format", "json")
    assert forced.exit_code == 0 and json.loads(forced.stdout)["overwritten"] is True


def test_init_defaults_to_the_project_option_directory(tmp_path: Path) -> None:
    assert cli("-C", tmp_path, "init").exit_code == 0
    assert (tmp_path / ".catdoc/config.yaml").is_file()


def test_reports_the_version() -> None:
    from catdoc import __version__

    result = cli("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"catdoc {__version__}"


# --------------------------------------------------------------------------- real processes
def _run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.run(
        [sys.executable, "-m", "catdoc", *args], cwd=cwd, env=env, capture_output=True, text=True
    )


@pytest.mark.slow
def test_python_dash_m_catdoc_exit_codes(tmp_path: Path) -> None:
    ok = _run("-C", str(EXAMPLE), "validate")
    assert ok.returncode == 0, ok.stderr
    assert _run("validate", cwd=tmp_path).returncode == 2
    math = _run("list", "categories", "--format", "json", cwd=MATH / ".catdoc")
    assert math.returncode == 0 and [c["id"] for c in json.loads(math.stdout)["categories"]] == [
        "groups",
        "monoids",
        "sets",
    ]


@pytest.mark.slow
def test_console_script_runs() -> None:
    script = shutil.which("catdoc", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("the catdoc script is not installed in this environment")
    result = subprocess.run([script, "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "validate" in result.stdout
