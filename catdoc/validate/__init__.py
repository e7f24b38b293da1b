"""The validators: every check of DESIGN §2 with a stable code, producing the report of §3.

Soundness rule: a check passes only with proof. Path equality comes from `catdoc.paths`, which
answers True / False / None; None (undecided within its bound) becomes a warning, never a pass,
and a check that cannot be made because something else is broken becomes an info saying so.

`codes` lists every code, `report` the report and its text form; the checks live in
`project_checks`, `categories`, `functors` and `transformations`, joined by `validator`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from catdoc.errors import not_found
from catdoc.model import Functor
from catdoc.project import Project
from catdoc.validate.codes import CODES, Code
from catdoc.validate.kept import keep_report, kept_report
from catdoc.validate.report import (
    Finding,
    FunctorLaws,
    Report,
    Summary,
    render_report,
    report_timestamp,
)
from catdoc.validate.suspects import check_suspects
from catdoc.validate.validator import _Validator

_T = TypeVar("_T")


def _scope(v: _Validator, table: Mapping[str, _T], ident: str, kind: str) -> _T:
    """The one entity a scoped run checks; NOT_FOUND, with close ids, when there is none."""
    entity = table.get(ident)
    if entity is None:
        raise not_found(kind, ident, table)
    v.scoped = ident
    return entity


def validate_project(
    project: Project,
    *,
    category: str | None = None,
    functor: str | None = None,
    natural_transformation: str | None = None,
) -> Report:
    """Validate the whole project, or only the one entity named (raises NOT_FOUND if unknown)."""
    return _validated(
        _Validator(project),
        category=category,
        functor=functor,
        natural_transformation=natural_transformation,
    )


def validate_and_keep(project: Project) -> Report:
    """Validate the whole project and keep the report for the next run (`kept_report`)."""
    v = _Validator(project)
    report = _validated(v)
    keep_report(project, report, v.path_verdicts, reviews_off=v.reviews_off)
    return report


def _validated(
    v: _Validator,
    *,
    category: str | None = None,
    functor: str | None = None,
    natural_transformation: str | None = None,
) -> Report:
    project = v.project
    summary = Summary()
    if category is not None:
        cat = _scope(v, project.category_by_id, category, "Category")
        v.check_duplicates({id(cat), *map(id, cat.objects), *map(id, cat.morphisms)})
        v.check_category(cat)
        check_suspects(v, cat.id)
        summary.categories_checked = 1
    elif functor is not None:
        fun = _scope(v, project.functor_by_id, functor, "Functor")
        v.check_duplicates({id(fun)})
        summary.functor_laws.append(v.check_functor(fun))
        summary.functors_checked = 1
        _errors_it_needs(v, [], [fun.source_category, fun.target_category])
    elif natural_transformation is not None:
        nat = _scope(v, project.nat_by_id, natural_transformation, "Natural transformation")
        v.check_duplicates({id(nat)})
        v.check_nat(nat)
        summary.natural_transformations_checked = 1
        funs = [
            project.functor_by_id.get(nat.source_functor),
            project.functor_by_id.get(nat.target_functor),
        ]
        cats = [c for f in funs if f is not None for c in (f.source_category, f.target_category)]
        _errors_it_needs(v, [f for f in funs if f is not None], cats)
    else:
        v.check_duplicates(None)
        v.check_top_level()
        for cat in project.categories:
            v.check_category(cat)
        for fun in project.functors:
            summary.functor_laws.append(v.check_functor(fun))
        for nat in project.natural_transformations:
            v.check_nat(nat)
        check_suspects(v)
        summary.categories_checked = len(project.categories)
        summary.functors_checked = len(project.functors)
        summary.natural_transformations_checked = len(project.natural_transformations)
    v.place_entries()
    by_severity: dict[str, list[Finding]] = {"error": [], "warning": [], "info": []}
    for item in v.findings:
        by_severity[item.severity].append(item)
    summary.total_errors = len(by_severity["error"])
    summary.total_warnings = len(by_severity["warning"])
    summary.total_infos = len(by_severity["info"])
    return Report(
        is_valid=not by_severity["error"],
        errors=by_severity["error"],
        warnings=by_severity["warning"],
        infos=by_severity["info"],
        summary=summary,
        timestamp=report_timestamp(),
    )


_UNCHECKED = {Code.FUN_NOT_CHECKED, Code.NAT_SQUARE_NOT_CHECKED}


def _errors_it_needs(v: _Validator, functors: list[Functor], categories: list[str]) -> None:
    """A scoped run that found no error of its own but left parts unchecked (`*_NOT_CHECKED`)
    because something they need is broken: the errors of what they need (the functors, the
    categories), so the run is not "valid" over work it could not do. Their warnings and infos
    stay out of the scope, and so does all of it when the run fails on its own errors."""
    own = [finding for finding in v.findings if finding.severity == "error"]
    if own or not any(finding.code in _UNCHECKED for finding in v.findings):
        return
    before = len(v.findings)
    for ident in dict.fromkeys(categories):
        cat = v.project.category_by_id.get(ident)
        if cat is not None:
            v.check_category(cat)
    for fun in functors:
        v.check_functor(fun)
    needed = [finding for finding in v.findings[before:] if finding.severity == "error"]
    v.findings[before:] = needed


__all__ = [
    "CODES",
    "Code",
    "Finding",
    "FunctorLaws",
    "Report",
    "Summary",
    "kept_report",
    "render_report",
    "validate_and_keep",
    "validate_project",
]
