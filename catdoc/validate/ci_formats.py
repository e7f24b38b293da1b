"""The report in the formats CI systems read: SARIF 2.1.0 (code scanning, most CI dashboards)
and GitHub Actions workflow commands (annotations on the pull request's files).

Both name findings by their stable codes (`catdoc.validate.codes`): in SARIF each code is a rule
whose help text is the code's meaning and fix, and each finding a result at its file and line.
The suggestions of `validate --suggest` (`catdoc.suggest`) come after the findings, as notes
(SARIF level `note`, GitHub `::notice`) of two more rules, `SUGGESTED_MAPPING` at the first
reference that supports it and `SUGGESTED_FUNCTOR` at the model, each with the command that
applies it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from catdoc.errors import CatDocError
from catdoc.validate.codes import CODES, Code, Severity
from catdoc.validate.report import Finding, Report, report_timestamp

if TYPE_CHECKING:
    from catdoc.suggest import FunctorSuggestion, MappingSuggestion, Suggestions

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
_RELATED = re.compile(r"^metadata\.related \((?P<location>.+)\)$")
"""A suggestion's evidence from an object's `metadata.related`: the object's YAML location."""
SUGGESTION_RULES = {
    "SUGGESTED_MAPPING": (
        "A functor mapping entry the documents' references imply (catdoc validate --suggest)",
        "run the `catdoc map` command of the message if the two documents correspond",
    ),
    "SUGGESTED_FUNCTOR": (
        "A functor between two categories whose documents refer across (catdoc validate --suggest)",
        "run the `catdoc add functor` and `catdoc map` commands of the message if the "
        "categories correspond",
    ),
}
"""The rules of the suggestions (not validator codes: a suggestion is no problem found)."""
MAX_FUNCTOR_COMMANDS = 20
"""Mapping commands written in a suggested functor's message (SARIF properties hold them all;
`--format json` too)."""


def findings(report: Report) -> list[Finding]:
    """Every finding, most severe first (the order of the report's lists)."""
    return [*report.errors, *report.warnings, *report.infos]


def where(finding: Finding) -> tuple[str, int | None, int | None]:
    """(file, line or None, column or None) of a finding's location."""
    return _split(finding.location)


def _split(location: str) -> tuple[str, int | None, int | None]:
    location = location.strip()
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


def to_sarif(
    report: Report,
    version: str,
    *,
    loaded: bool = True,
    suggestions: Suggestions | None = None,
) -> dict[str, Any]:
    """One SARIF run: the codes that occur as rules, one result per finding, then one `note`
    per suggestion; `loaded` False for a `load_failure` (the run did not check the model)."""
    items = findings(report)
    notes = _suggestion_notes(suggestions)
    used = sorted({f.code for f in items})
    used += [rule for rule in SUGGESTION_RULES if any(n[0] == rule for n in notes)]
    rules = [_rule(code) for code in used]
    index = {code: n for n, code in enumerate(used)}
    results = []
    for finding in items:
        result: dict[str, Any] = {
            "ruleId": finding.code,
            "ruleIndex": index[finding.code],
            "level": _LEVEL[finding.severity],
            "message": {"text": finding.message},
            "locations": [{"physicalLocation": _physical(finding.location)}],
        }
        if finding.ids:
            result["properties"] = {"ids": finding.ids}
        results.append(result)
    for rule, location, text, properties in notes:
        results.append(
            {
                "ruleId": rule,
                "ruleIndex": index[rule],
                "level": "note",
                "message": {"text": text},
                "locations": [{"physicalLocation": _physical(location)}],
                "properties": properties,
            }
        )
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


def _physical(location: str) -> dict[str, Any]:
    file, line, column = _split(location)
    physical: dict[str, Any] = {
        "artifactLocation": {"uri": quote(file), "uriBaseId": "SRCROOT"}  # a URI reference
    }
    if line is not None:
        physical["region"] = {"startLine": line}
        if column is not None:
            physical["region"]["startColumn"] = column
    return physical


def _rule(code: str) -> dict[str, Any]:
    info = CODES.get(Code(code)) if code in Code.__members__ else None
    rule: dict[str, Any] = {"id": code, "name": _camel(code)}
    if info is not None:
        rule["shortDescription"] = {"text": info.meaning}
        rule["help"] = {"text": f"{info.meaning}; fix: {info.fix}."}
        rule["defaultConfiguration"] = {"level": _LEVEL[info.severity]}
    elif code in SUGGESTION_RULES:
        meaning, fix = SUGGESTION_RULES[code]
        rule["shortDescription"] = {"text": meaning}
        rule["help"] = {"text": f"{meaning}; to take it: {fix}."}
        rule["defaultConfiguration"] = {"level": "note"}
    return rule


Note = tuple[str, str, str, dict[str, Any]]
"""(rule, location, message, properties) of one suggestion."""


def _suggestion_notes(suggestions: Suggestions | None) -> list[Note]:
    """Each suggestion as a note: a mapping at its first piece of evidence (a document's
    `path:line`, or the YAML of the object whose `metadata.related` names the other), a
    functor at the model file."""
    if suggestions is None:
        return []
    notes = [_mapping_note(s) for s in suggestions.mappings]
    return notes + [_functor_note(s) for s in suggestions.functors]


def _mapping_note(s: MappingSuggestion) -> Note:
    first = s.evidence[0] if s.evidence else ""
    related = _RELATED.match(first)
    location = related["location"] if related else first
    places = ", ".join(s.evidence) + ("…" if s.references > len(s.evidence) else "")
    noun = "reference" if s.references == 1 else "references"
    text = (
        f"Suggested mapping {s.functor}: {s.source} ↦ {s.target} ({s.references} {noun} "
        f"between the two documents: {places}). To take it: {s.command}"
    )
    return "SUGGESTED_MAPPING", location, text, s.model_dump(mode="json", by_alias=True)


def _functor_note(s: FunctorSuggestion) -> Note:
    shown = s.commands[: MAX_FUNCTOR_COMMANDS + 1]
    hidden = len(s.commands) - len(shown)
    more = f"; … and {hidden} more (catdoc validate --suggest --format json)" if hidden else ""
    noun = "reference" if s.references == 1 else "references"
    text = (
        f"Suggested functor {s.id}: {s.source_category} → {s.target_category} "
        f"({s.references} {noun} across, {len(s.object_mapping)} mapped). To take it: "
        f"{'; '.join(shown)}{more}"
    )
    return "SUGGESTED_FUNCTOR", FALLBACK_FILE, text, s.model_dump(mode="json", by_alias=True)


def _camel(code: str) -> str:
    return "".join(part.capitalize() for part in code.split("_"))


def _utc(timestamp: str) -> str:
    """The report's ISO timestamp in the `Z` form SARIF's date-time format accepts."""
    return timestamp.replace("+00:00", "Z")


def to_github(report: Report, suggestions: Suggestions | None = None) -> str:
    """One workflow command per finding (`::error file=…,line=…,title=CODE::message`), which
    GitHub Actions shows as annotations on the files of the pull request, then one `::notice`
    per suggestion."""
    lines = [
        _command(_COMMAND[f.severity], f.location, f.code, f.message) for f in findings(report)
    ]
    for rule, location, text, _properties in _suggestion_notes(suggestions):
        lines.append(_command("notice", location, rule, text))
    return "\n".join(lines)


def _command(kind: str, location: str, title: str, message: str) -> str:
    file, line, column = _split(location)
    props = [f"file={_property(file)}"]
    if line is not None:
        props.append(f"line={line}")
    if column is not None:
        props.append(f"col={column}")
    props.append(f"title={_property(title)}")
    return f"::{kind} {','.join(props)}::{_data(message)}"


def _data(text: str) -> str:
    """Escape a command's message as the Actions runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


__all__ = ["load_failure", "to_github", "to_sarif"]
