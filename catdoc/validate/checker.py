"""What every check shares: the project, the findings made so far, and cached presentations."""

from __future__ import annotations

from collections.abc import Iterable

from catdoc.model import Category, Config, Entity
from catdoc.paths import Presentation
from catdoc.project import Project
from catdoc.validate.codes import CODES, Code, Severity
from catdoc.validate.report import Finding


class _Checker:
    """Makes findings (severity from `CODES`, location from the project) and collects them."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.config: Config = project.config
        self.findings: list[Finding] = []
        self.scoped: str | None = None
        self.reviews_off = False
        """Set by the review check when there is no `reviews.yaml` (SUSPECT_LINK is then off)."""
        self._presentations: dict[int, Presentation] = {}

    def finding(
        self,
        code: Code,
        message: str,
        ids: Iterable[str],
        entity: Entity | None = None,
        *,
        severity: Severity | None = None,
        category: str | None = None,
        functor: str | None = None,
        nat: str | None = None,
        location: str | None = None,
    ) -> Finding:
        where = (
            location if location is not None else (self.project.locate(entity) if entity else "")
        )
        return Finding(
            severity=severity or CODES[code].severity,
            code=code.value,
            message=message,
            ids=list(dict.fromkeys(ids)),
            location=where,
            category=category,
            functor=functor,
            natural_transformation=nat,
        )

    def add(
        self,
        code: Code,
        message: str,
        ids: Iterable[str],
        entity: Entity | None = None,
        **context: str | None,
    ) -> None:
        self.findings.append(self.finding(code, message, ids, entity, **context))  # type: ignore[arg-type]

    def presentation(self, cat: Category) -> Presentation:
        key = id(cat)
        if key not in self._presentations:
            self._presentations[key] = Presentation.of(cat)
        return self._presentations[key]

    def where_object(self, obj: str) -> str:
        home = self.project.category_of_object.get(obj)
        return f" ({obj!r} is an object of category {home!r})" if home else ""
