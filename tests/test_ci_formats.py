"""`catdoc validate --format sarif|github`: reports CI systems read, checked against the SARIF
2.1.0 schema and the GitHub Actions workflow-command syntax."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import unquote

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.validate.ci_formats import to_github, to_sarif, where
from catdoc.validate.codes import Code
from catdoc.validate.report import Finding, Report

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCHEMA = json.loads(
    (Path(__file__).parent / "fixtures" / "sarif" / "sarif-2.1.0.json").read_text("utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout


@pytest.mark.parametrize("example", ["broken", "traceability", "math"])
def test_sarif_validates_against_the_schema(example: str) -> None:
    code, out = run("-C", str(EXAMPLES / example), "validate", "--format", "sarif")
    sarif = json.loads(out)
    VALIDATOR.validate(sarif)
    report = json.loads(run("-C", str(EXAMPLES / example), "validate", "--format", "json")[1])
    every = report["errors"] + report["warnings"] + report["infos"]
    results = sarif["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == [f["code"] for f in every]
    assert code == (0 if report["isValid"] else 1)


def test_sarif_results_point_at_file_and_line() -> None:
    sarif = json.loads(run("-C", str(EXAMPLES / "broken"), "validate", "--format", "sarif")[1])
    run_ = sarif["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    first = run_["results"][0]
    assert first["ruleId"] == "DUPLICATE_ID"
    assert rules[first["ruleIndex"]]["id"] == "DUPLICATE_ID"
    assert "fix:" in rules[first["ruleIndex"]]["help"]["text"]
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == ".catdoc/category.yaml"
    assert location["region"]["startLine"] == 17
    assert {r["level"] for r in run_["results"]} <= {"error", "warning", "note"}


def test_github_annotations_one_per_finding() -> None:
    code, out = run("-C", str(EXAMPLES / "broken"), "validate", "--format", "github")
    report = json.loads(run("-C", str(EXAMPLES / "broken"), "validate", "--format", "json")[1])
    lines = out.splitlines()
    assert len(lines) == len(report["errors"]) + len(report["warnings"]) + len(report["infos"])
    assert lines[0].startswith("::error file=.catdoc/category.yaml,line=17,title=DUPLICATE_ID::")
    assert code == 1


def test_a_project_without_findings_gives_no_annotations_and_no_results(tmp_path: Path) -> None:
    root = tmp_path / "p"
    shutil.copytree(EXAMPLES / "math", root)
    code, out = run("-C", str(root), "validate", "--format", "github")
    assert (code, out) == (0, "")
    sarif = json.loads(run("-C", str(root), "validate", "--format", "sarif")[1])
    assert sarif["runs"][0]["results"] == []


texts = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=80)


@settings(max_examples=60, deadline=None)
@given(
    message=texts,
    location=st.one_of(texts, st.builds(lambda f, n: f"{f}:{n}", texts, st.integers(1, 10**9))),
    severity=st.sampled_from(["error", "warning", "info"]),
    code=st.one_of(st.sampled_from(list(Code)), st.from_regex(r"[A-Z_]{1,20}", fullmatch=True)),
)
def test_any_finding_makes_valid_sarif_and_one_annotation_line(
    message: str, location: str, severity: str, code: str
) -> None:
    finding = Finding(severity=severity, code=str(code), message=message, location=location)
    report = Report(
        is_valid=severity != "error",
        **{f"{severity}s" if severity != "info" else "infos": [finding]},
        timestamp="2026-01-02T03:04:05.678Z",
    )
    VALIDATOR.validate(to_sarif(report, "1.0"))
    annotation = to_github(report)
    assert "\n" not in annotation and "\r" not in annotation
    head, _, data = annotation.partition("::")[2].partition("::")
    props = head.split(" ", 1)[1]
    file, line, _column = where(finding)
    assert props.split(",")[0] == "file=" + file.replace("%", "%25").replace(":", "%3A").replace(
        ",", "%2C"
    ).replace("\r", "%0D").replace("\n", "%0A")
    assert ("line=" in props) == (line is not None)
    assert data.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%") == message


def test_a_line_and_column_location_and_an_odd_file_name() -> None:
    finding = Finding(
        severity="error",
        code="REVIEW_FILE_INVALID",
        message="broken",
        location=".catdoc/categories/tésts 100%,x.yaml:9:3",
    )
    report = Report(is_valid=False, errors=[finding], timestamp="2026-01-02T03:04:05Z")
    sarif = to_sarif(report, "1.0")
    VALIDATOR.validate(sarif)
    physical = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert physical["region"] == {"startLine": 9, "startColumn": 3}
    uri = physical["artifactLocation"]["uri"]
    assert uri == ".catdoc/categories/t%C3%A9sts%20100%25%2Cx.yaml"
    assert unquote(uri) == ".catdoc/categories/tésts 100%,x.yaml"
    annotation = to_github(report)
    assert ",line=9,col=3," in annotation
    assert "file=.catdoc/categories/tésts 100%25%2Cx.yaml," in annotation


def test_a_model_that_does_not_load_is_reported_in_the_ci_formats(tmp_path: Path) -> None:
    project = tmp_path / "p"
    shutil.copytree(EXAMPLES / "traceability", project)
    model = project / ".catdoc" / "category.yaml"
    lines = model.read_text("utf-8").splitlines()
    model.write_text("\n".join([*lines[:5], "  - id: [broken", *lines[5:]]) + "\n", "utf-8")
    code, out = run("-C", str(project), "validate", "--format", "sarif")
    assert code == 2
    sarif = json.loads(out)
    VALIDATOR.validate(sarif)
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "LOAD_ERROR" and result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == ".catdoc/category.yaml"
    assert location["region"]["startLine"] >= 6
    assert sarif["runs"][0]["invocations"][0]["executionSuccessful"] is False
    code, out = run("-C", str(project), "validate", "--format", "github")
    assert code == 2 and out.startswith("::error file=.catdoc/category.yaml,line=")
    assert "title=LOAD_ERROR::" in out
