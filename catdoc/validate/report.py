"""The report of DESIGN §3: findings by severity, functor laws and totals, and its text form."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Literal

from pydantic import Field

from catdoc.results import Result
from catdoc.validate.codes import Severity

Paint = Callable[[str, Severity | None], str]
"""Turns one line of a rendered report into what is printed (see `render_report`)."""

LawStatus = Literal["holds", "fails", "unknown"]


class Finding(Result):
    """One problem: what, where, and (in `message`) how to fix it."""

    severity: Severity
    code: str
    message: str
    ids: list[str] = Field(default_factory=list)
    location: str = ""
    category: str | None = None
    functor: str | None = None
    natural_transformation: str | None = None


class FunctorLaws(Result):
    functor: str
    identity_preservation: LawStatus
    composition_preservation: LawStatus


class Summary(Result):
    categories_checked: int = 0
    functors_checked: int = 0
    natural_transformations_checked: int = 0
    total_errors: int = 0
    total_warnings: int = 0
    total_infos: int = 0
    functor_laws: list[FunctorLaws] = Field(default_factory=list)


class Report(Result):
    """The original CatDoc report keys (`isValid`, `errors`, `warnings`, `summary`, `timestamp`)."""

    is_valid: bool
    errors: list[Finding] = Field(default_factory=list)
    warnings: list[Finding] = Field(default_factory=list)
    infos: list[Finding] = Field(default_factory=list)
    summary: Summary = Field(default_factory=Summary)
    timestamp: str


def report_timestamp() -> str:
    """Now, in UTC, to the millisecond, as the original CatDoc's report gives it."""
    now = dt.datetime.now(dt.UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def render_report(report: Report, paint: Paint | None = None) -> str:
    """The report as plain text: findings grouped by severity, then functor laws and totals.
    `paint(line, severity)` turns each line into what is printed (the CLI escapes it and
    colours findings by severity); severity is None for lines that are no finding."""
    lines: list[str] = []

    def add(line: str, severity: Severity | None = None) -> None:
        lines.append(line if paint is None else paint(line, severity))

    for title, severity, items in (
        ("Errors", "error", report.errors),
        ("Warnings", "warning", report.warnings),
        ("Info", "info", report.infos),
    ):
        if not items:
            continue
        add(f"{title} ({len(items)}):", severity)
        for item in items:
            add(f"  {item.location or '-'}  {item.code}  {item.message}", severity)
        add("")
    s = report.summary
    if s.functor_laws:
        add("Functor laws:")
        for law in s.functor_laws:
            add(
                f"  {law.functor}: identity preservation {law.identity_preservation}, "
                f"composition preservation {law.composition_preservation}"
            )
        add("")
    verdict = "valid" if report.is_valid else "INVALID"
    add(
        f"Checked {s.categories_checked} categor{'y' if s.categories_checked == 1 else 'ies'}, "
        f"{s.functors_checked} functor(s), {s.natural_transformations_checked} natural "
        f"transformation(s): {s.total_errors} error(s), {s.total_warnings} warning(s), "
        f"{s.total_infos} info(s) — {verdict}."
    )
    return "\n".join(lines)
