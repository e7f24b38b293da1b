"""The report in the formats CI systems read: SARIF 2.1.0 (code scanning, most CI dashboards)
and GitHub Actions workflow commands (annotations on the pull request's files).

Both name findings by their stable codes (`catdoc.validate.codes`): in SARIF each code is a rule
whose help text is the code's meaning and fix, and each finding a result at its file and line.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from catdoc.errors import CatDocError
from catdoc.validate.codes import CODES, Code, Severity
from catdoc.validate.report import Finding, Report, report_timestamp

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/catdoc/"
FALLBACK_FILE = ".catdoc/category.yaml"
"""Where a finding without a location is reported: SARIF consumers (GitHub code scanning among
them) want a file for every result, and the model is where every finding is fixed."""
_LEVEL: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "note"}
_COMMAND: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "notice"}
_AT_LINE = re.compile(r"^(?P<file>.+?):(?P<line>[1-9][0-9]{0,8})(?::(?P<column>[1-9][0-9]{0,8}))?$")
"""A finding's location: `path:line`, or `path:line:column` where a column is known."""
_IN_MESSAGE = re.compile(r"(?P<file>[^\s:]+\.ya?ml):(?P<line>[1-9][0-9]{0,8})\b")
"""Where a load error's message points: the first `file.yaml:line` it names."""


def findings(report: Report) -> list[Finding]:
    """Every finding, most severe first (the order of the report's lists)."""
    return [*report.errors, *report.warnings, *report.infos]


def where(finding: Finding) -> tuple[str, int | None, int | None]:
    """(file, line or None, column or None) of a finding's location."""
    location = finding.location.strip()
    if not location:
        return FALLBACK_FILE, None, None
    found = _AT_LINE.match(location)
    if found is None:
        return location, None, None
    column = found["column"]
    return found["file"], int(found["line"]), None if column is None else int(column)


def load_failure(error: CatDocError) -> Report:
    """A report of the one error that kept the model from loading, at the file and line its
    message names: CI reads the formats above, so a model that does not load is shown there
    too (an empty SARIF log or no annotation would pass unnoticed)."""
    found = _IN_MESSAGE.search(error.message)
    location = f"{found['file']}:{found['line']}" if found else ""
    text = f"{error.message}\n{error.hint}" if error.hint else error.message
    finding = Finding(severity="error", code=error.code, message=text, location=location)
    return Report(is_valid=False, errors=[finding], timestamp=report_timestamp())


def to_sarif(report: Report, version: str, *, loaded: bool = True) -> dict[str, Any]:
    """One SARIF run: the codes that occur as rules, one result per finding; `loaded` False
    for a `load_failure` (the run did not check the model)."""
    items = findings(report)
    used = sorted({f.code for f in items})
    rules = [_rule(code) for code in used]
    index = {code: n for n, code in enumerate(used)}
    results = []
    for finding in items:
        file, line, column = where(finding)
        physical: dict[str, Any] = {
            "artifactLocation": {"uri": quote(file), "uriBaseId": "SRCROOT"}  # a URI reference
        }
        if line is not None:
            physical["region"] = {"startLine": line}
            if column is not None:
                physical["region"]["startColumn"] = column
        result: dict[str, Any] = {
            "ruleId": finding.code,
            "ruleIndex": index[finding.code],
            "level": _LEVEL[finding.severity],
            "message": {"text": finding.message},
            "locations": [{"physicalLocation": physical}],
        }
        if finding.ids:
            result["properties"] = {"ids": finding.ids}
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "CatDoc",
                        "version": version,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {
                    "SRCROOT": {"description": {"text": "The project root (holds .catdoc/)."}}
                },
                "results": results,
                "invocations": [
                    {
                        "executionSuccessful": loaded,
                        "endTimeUtc": _utc(report.timestamp),
                    }
                ],
            }
        ],
    }


def _rule(code: str) -> dict[str, Any]:
    info = CODES.get(Code(code)) if code in Code.__members__ else None
    rule: dict[str, Any] = {"id": code, "name": _camel(code)}
    if info is not None:
        rule["shortDescription"] = {"text": info.meaning}
        rule["help"] = {"text": f"{info.meaning}; fix: {info.fix}."}
        rule["defaultConfiguration"] = {"level": _LEVEL[info.severity]}
    return rule


def _camel(code: str) -> str:
    return "".join(part.capitalize() for part in code.split("_"))


def _utc(timestamp: str) -> str:
    """The report's ISO timestamp in the `Z` form SARIF's date-time format accepts."""
    return timestamp.replace("+00:00", "Z")


def to_github(report: Report) -> str:
    """One workflow command per finding (`::error file=…,line=…,title=CODE::message`), which
    GitHub Actions shows as annotations on the files of the pull request."""
    lines = []
    for finding in findings(report):
        file, line, column = where(finding)
        props = [f"file={_property(file)}"]
        if line is not None:
            props.append(f"line={line}")
        if column is not None:
            props.append(f"col={column}")
        props.append(f"title={_property(finding.code)}")
        lines.append(f"::{_COMMAND[finding.severity]} {','.join(props)}::{_data(finding.message)}")
    return "\n".join(lines)


def _data(text: str) -> str:
    """Escape a command's message as the Actions runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


__all__ = ["load_failure", "to_github", "to_sarif"]
