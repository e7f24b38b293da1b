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


def _suggesting_project(root: Path) -> Path:
    """specs → design, nothing mapped: req-auth links its design, the db design names req-db,
    and req-misc lists a design in metadata.related."""
    (root / ".catdoc").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs" / "auth.md").write_text("# Auth\n\nServed by [the API](api.md).\n")
    (root / "docs" / "db.md").write_text("# DB\n\nAnswers [the storage need](req-db.md).\n")
    for name in ("api", "req-db", "misc"):
        (root / "docs" / f"{name}.md").write_text(f"# {name}\n")
    (root / ".catdoc" / "category.yaml").write_text(
        "categories:\n"
        "  - id: specs\n"
        "    objects:\n"
        "      - {id: req-auth, path: docs/auth.md}\n"
        "      - {id: req-db, path: docs/req-db.md}\n"
        "      - id: req-misc\n"
        "        path: docs/misc.md\n"
        "        metadata: {related: [des-api]}\n"
        "  - id: design\n"
        "    objects: [{id: des-api, path: docs/api.md}, {id: des-db, path: docs/db.md}]\n"
        "functors:\n"
        "  - {id: spec, sourceCategory: specs, targetCategory: design}\n"
    )
    return root


def test_suggestions_are_notes_in_sarif_and_github(tmp_path: Path) -> None:
    root = str(_suggesting_project(tmp_path / "p"))
    code, out = run("-C", root, "validate", "--suggest", "--format", "sarif")
    assert code == 1  # the unmapped objects fail the functor; suggestions change nothing
    sarif = json.loads(out)
    VALIDATOR.validate(sarif)
    run_ = sarif["runs"][0]
    notes = [r for r in run_["results"] if r["ruleId"] == "SUGGESTED_MAPPING"]
    assert {r["level"] for r in notes} == {"note"}
    got = {(r["properties"]["source"], r["properties"]["target"]): r for r in notes}
    assert set(got) == {("req-auth", "des-api"), ("req-db", "des-db"), ("req-misc", "des-api")}
    back = got["req-db", "des-db"]  # the design's document cites the requirement
    assert back["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "docs/db.md"
    assert back["locations"][0]["physicalLocation"]["region"] == {"startLine": 3}
    assert back["message"]["text"].endswith("To take it: catdoc map spec req-db des-db")
    related = got["req-misc", "des-api"]["locations"][0]["physicalLocation"]
    assert related["artifactLocation"]["uri"] == ".catdoc/category.yaml"
    assert related["region"] == {"startLine": 6}
    rules = run_["tool"]["driver"]["rules"]
    rule = rules[notes[0]["ruleIndex"]]
    assert rule["id"] == "SUGGESTED_MAPPING" and "catdoc map" in rule["help"]["text"]

    code, out = run("-C", root, "validate", "--suggest", "--format", "github")
    notices = [line for line in out.splitlines() if line.startswith("::notice ")]
    assert len(notices) == 3 and code == 1
    assert (
        "::notice file=docs/db.md,line=3,title=SUGGESTED_MAPPING::Suggested mapping spec: "
        "req-db ↦ des-db (1 reference between the two documents: docs/db.md:3). "
        "To take it: catdoc map spec req-db des-db"
    ) in notices
    assert "::notice" not in run("-C", root, "validate", "--format", "github")[1]


def test_a_suggested_functor_is_a_note_at_the_model(tmp_path: Path) -> None:
    root = _suggesting_project(tmp_path / "p")
    model = root / ".catdoc" / "category.yaml"
    model.write_text(model.read_text().split("functors:")[0])
    code, out = run("-C", str(root), "validate", "--suggest", "--format", "sarif")
    sarif = json.loads(out)
    VALIDATOR.validate(sarif)
    (note,) = sarif["runs"][0]["results"]
    assert (code, note["ruleId"], note["level"]) == (0, "SUGGESTED_FUNCTOR", "note")
    location = note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert location == ".catdoc/category.yaml"
    assert note["properties"]["objectMapping"] == {
        "req-auth": "des-api",
        "req-db": "des-db",
        "req-misc": "des-api",
    }
    assert (
        "catdoc add functor specs-to-design --from specs --to design" in (note["message"]["text"])
    )
    code, out = run("-C", str(root), "validate", "--suggest", "--format", "github")
    assert code == 0 and out.startswith(
        "::notice file=.catdoc/category.yaml,title=SUGGESTED_FUNCTOR::"
    )


@settings(max_examples=60, deadline=None)
@given(ident=texts, place=st.one_of(texts, st.builds(lambda f: f"metadata.related ({f})", texts)))
def test_any_suggestion_makes_valid_sarif_and_one_notice_line(ident: str, place: str) -> None:
    from catdoc.suggest import FunctorSuggestion, MappingSuggestion, Suggestions

    found = Suggestions(
        mappings=[
            MappingSuggestion(
                functor=ident,
                source=ident,
                target="b",
                references=1,
                evidence=[place],
                command=f"catdoc map {ident} {ident} b",
            )
        ],
        functors=[
            FunctorSuggestion(
                id=ident,
                source_category=ident,
                target_category="B",
                references=2,
                object_mapping={ident: "b"},
                commands=[f"catdoc add functor {ident}"],
            )
        ],
    )
    report = Report(is_valid=True, timestamp="2026-01-02T03:04:05Z")
    sarif = to_sarif(report, "1.0", suggestions=found)
    VALIDATOR.validate(sarif)
    assert [r["level"] for r in sarif["runs"][0]["results"]] == ["note", "note"]
    lines = to_github(report, found).split("\n")
    assert len(lines) == 2 and all(line.startswith("::notice file=") for line in lines)
    assert "\r" not in "".join(lines)
