"""What every edit answers, the same for every face: what changed, where, the new version, and the
validator's findings about what was touched."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from catdoc.edit.transaction import MAX_FINDINGS, Outcome
from catdoc.results import Result
from catdoc.validate.report import Finding


class EditChange(Result):
    kind: str = Field(description="object, morphism, category, functor or natural transformation.")
    id: str
    action: Literal["created", "updated", "removed", "renamed"]
    detail: str = ""


class EditResult(Result):
    id: str | None = Field(
        default=None, description="The entity the edit was about (e.g. a generated morphism id)."
    )
    outcome: str = Field(description="created, updated, removed, renamed or unchanged.")
    changes: list[EditChange] = Field(default_factory=list)
    files: list[str] = Field(
        default_factory=list, description="Files written (project-relative), all or none."
    )
    version: str = Field(
        description="The model's version after the edit: pass it as expectedVersion to the "
        "next edit to be told (CONFLICT) if someone else changed the model in between."
    )
    valid: bool = Field(description="No error among the findings about what was touched.")
    errors: int = 0
    warnings: int = 0
    findings: list[Finding] = Field(
        default_factory=list,
        description=f"Findings about the touched entities, errors first (at most {MAX_FINDINGS}).",
    )
    findings_total: int = 0


def edit_result(outcome: Outcome[object], subject: str | None, action: str) -> EditResult:
    """The result of an edit, with the findings that name a touched entity."""
    touched = outcome.touched
    relevant: list[Finding] = []
    if outcome.report is not None:
        report = outcome.report
        for finding in [*report.errors, *report.warnings]:
            if (
                touched.intersection(finding.ids)
                or finding.functor in touched
                or finding.natural_transformation in touched
            ):
                relevant.append(finding)
    errors = sum(f.severity == "error" for f in relevant)
    own = next((c.action for c in outcome.changes if c.id == subject), None)
    return EditResult(
        id=subject,
        outcome=(own or action) if outcome.changes or outcome.files else "unchanged",
        changes=[EditChange.model_validate(vars(change)) for change in outcome.changes],
        files=outcome.files,
        version=outcome.project.version,
        valid=errors == 0,
        errors=errors,
        warnings=len(relevant) - errors,
        findings=relevant[:MAX_FINDINGS],
        findings_total=len(relevant),
    )
