"""examples/broken/ shows every error code once, and the README's code table matches the code."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from catdoc.project import load_project
from catdoc.validate import CODES, Code, render_report, validate_project

REPO = Path(__file__).resolve().parent.parent
BROKEN = REPO / "examples" / "broken"
ROW = re.compile(r"^\| `([A-Z_]+)` \| (error|warning|info) \|")


def readme_table() -> dict[str, str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("<!-- section:validation-codes -->")[1].split("<!-- /section")[0]
    rows = [ROW.match(line) for line in section.splitlines()]
    return {m.group(1): m.group(2) for m in rows if m}


def test_broken_example_emits_every_error_code_exactly_once() -> None:
    report = validate_project(load_project(BROKEN))
    assert not report.is_valid
    counts = Counter(f.code for f in report.errors)
    errors = {c.value for c, info in CODES.items() if info.severity == "error"}
    assert set(counts) == errors, render_report(report)
    assert all(n == 1 for n in counts.values()), counts
    assert all(f.location.startswith(".catdoc/category.yaml:") for f in report.errors)


def test_broken_example_also_shows_every_warning_and_info_code() -> None:
    report = validate_project(load_project(BROKEN))
    others = {f.code for f in [*report.warnings, *report.infos]}
    assert others == {c.value for c, info in CODES.items() if info.severity != "error"}


def test_readme_table_lists_exactly_the_codes_with_their_severity() -> None:
    table = readme_table()
    assert table == {c.value: info.severity for c, info in CODES.items()}
    assert set(table) == {c.value for c in Code}


def test_readme_error_codes_are_the_ones_the_broken_example_produces() -> None:
    report = validate_project(load_project(BROKEN))
    produced = {f.code for f in [*report.errors, *report.warnings, *report.infos]}
    assert produced == set(readme_table())


ENTRY_CODES = {
    "FUN_OBJECT_TARGET_MISSING",
    "FUN_MAPPING_UNKNOWN_OBJECT",
    "FUN_MAPPING_UNKNOWN_MORPHISM",
    "FUN_IMAGE_UNKNOWN_MORPHISM",
    "FUN_IMAGE_NOT_COMPOSABLE",
    "FUN_NOT_TYPED",
    "NAT_COMPONENT_UNKNOWN_MORPHISM",
    "NAT_COMPONENT_NOT_COMPOSABLE",
    "NAT_COMPONENT_UNKNOWN_OBJECT",
    "NAT_COMPONENT_NOT_TYPED",
}


def test_a_finding_about_one_mapping_entry_points_at_that_entry() -> None:
    """The example's comments name the code each entry causes, on the entry's own line."""
    report = validate_project(load_project(BROKEN))
    found = [f for f in report.errors if f.code in ENTRY_CODES]
    assert {f.code for f in found} == ENTRY_CODES
    for finding in found:
        origin, line = finding.location.rsplit(":", 1)
        text = (BROKEN / origin).read_text(encoding="utf-8").splitlines()[int(line) - 1]
        assert finding.code in text.partition("#")[2], (finding.code, finding.location, text)
