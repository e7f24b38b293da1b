"""What the browser writes next to ids: titles, and ✗ for entities with validation errors.

Both are computed once per reload of the model (memoised by the service, dropped when the files
change), so the navigator, the links and a 10,000-row mapping look them up without recomputing.
"""

from __future__ import annotations

from dataclasses import dataclass

from catdoc.errors import CatDocError
from catdoc.project import Project
from catdoc.service import CatDoc

ELLIPSIS = "…"


def clip(text: str, width: int) -> str:
    """`text` cut to `width` characters, the cut marked with an ellipsis."""
    if width <= 0:
        return ""
    return text if len(text) <= width else text[: width - 1] + ELLIPSIS


def clip_words(text: str, width: int) -> str:
    """`text` cut to `width` characters at the last space that fits (mid-word only when one
    word is longer than that), the cut marked with an ellipsis."""
    if len(text) <= width:
        return text
    space = text.rfind(" ", 0, width)
    return (text[:space] if space > 0 else text[: width - 1]) + ELLIPSIS


def titles(service: CatDoc) -> dict[str, str]:
    """Every id of the project → its title (objects), name (morphisms, categories, functors,
    transformations); ids without one are left out."""
    return service.derived("tui:titles", _titles)


def _titles(project: Project) -> dict[str, str]:
    out: dict[str, str] = {}
    named = [*project.categories, *project.functors, *project.natural_transformations]
    for cat in project.categories:
        named += cat.objects
        named += cat.morphisms
    for entity in named:
        if entity.label != entity.id:
            out.setdefault(entity.id, entity.label)
    return out


def title_of(service: CatDoc, ident: str) -> str | None:
    """The title next to `ident`, or None when it has none (or the model cannot load)."""
    try:
        return titles(service).get(ident)
    except CatDocError:
        return None


@dataclass(frozen=True, slots=True)
class ErrorMarks:
    """Where errors are: entity ids involved in an error (as `service.findings(entity=…)`
    counts them), and per category the object/morphism positions holding one."""

    ids: frozenset[str] = frozenset()
    categories: frozenset[str] = frozenset()
    positions: frozenset[tuple[str, str, int]] = frozenset()
    """(category, "objects"/"morphisms", index in the category) of every errored member."""

    def count(self, ident: str, service: CatDoc) -> int:
        """Errors involving `ident` (0 when it has none)."""
        if ident not in self.ids:
            return 0
        return len(service.findings(severity="error", entity=ident))

    def in_range(self, category: str, group: str, start: int, end: int) -> bool:
        """Whether a member at positions `start` ≤ i < `end` of the group has an error."""
        return any(c == category and g == group and start <= i < end for c, g, i in self.positions)


def error_marks(service: CatDoc) -> ErrorMarks:
    """The project's error marks (validation runs once per reload; slow at 10,000 objects, so
    the navigator asks for them off the UI thread)."""
    return service.derived("tui:error-marks", lambda _project: _error_marks(service))


def _error_marks(service: CatDoc) -> ErrorMarks:
    errors = service.validate().errors
    ids = {ident for finding in errors for ident in finding.ids}
    categories = {f.category for f in errors if f.category}
    positions: set[tuple[str, str, int]] = set()
    for ident in ids:
        try:
            where = service.locate_entity(ident)
        except CatDocError:  # a dangling id the finding reports: nothing to mark
            continue
        if where.category is not None and where.index is not None:
            group = "objects" if where.kind == "object" else "morphisms"
            positions.add((where.category, group, where.index))
            categories.add(where.category)
    return ErrorMarks(frozenset(ids), frozenset(categories), frozenset(positions))
