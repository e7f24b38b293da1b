"""What the service's operation mixins may use of the whole `CatDoc`, declared once.

`CatDoc` (catdoc/service.py) is composed of mixins (`EditOperations`, `BrowseOperations`, …) that
call each other and the core's lookups. Each mixin derives from `ServiceBase`, whose declarations
exist for type checkers only: at run time the class is empty, so nothing here can shadow the real
method a mixin later in `CatDoc`'s bases provides.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from catdoc import results as r
    from catdoc.change_results import Direction, ImpactResult
    from catdoc.edit import EditResult, ModelEdit
    from catdoc.model import Category, DocObject, Functor
    from catdoc.project import Project
    from catdoc.search.engine import SearchEngine

T = TypeVar("T")


class ServiceBase:
    """The base of every service mixin; see the module's docstring."""

    if TYPE_CHECKING:
        _derived: dict[str, Any]
        _lock: Any

        @property
        def root(self) -> Path: ...

        # the core (catdoc/service.py)
        def project(self) -> Project: ...

        def _adopt(self, project: Project) -> None: ...

        def derived(self, key: str, build: Callable[[Project], T]) -> T: ...

        def category(self, ref: str) -> Category: ...

        def category_and_descendants(self, ref: str) -> list[str]: ...

        def object(self, object_id: str) -> DocObject: ...

        def functor(self, functor_id: str) -> Functor: ...

        def show_category(
            self, ref: str, *, limit: int | None = None, offset: int = 0
        ) -> r.CategoryDetail: ...

        def _category_summary(self, cat: Category) -> r.CategorySummary: ...

        def search_engine(self) -> SearchEngine: ...

        def graph_around(
            self,
            starts: Sequence[str],
            depth: int | None,
            *,
            direction: str = "down",
            via_functors: bool = True,
        ) -> Any: ...

        def validate(self) -> Any: ...

        # the other mixins
        def _edit(
            self,
            apply: Callable[[ModelEdit], Any],
            *,
            subject: str | None,
            action: str,
            expected_version: str | None,
        ) -> EditResult: ...

        def concept_counts(self) -> dict[str, int]: ...

        def document_concepts(self) -> dict[str, dict[str, float]]: ...

        def impact(
            self,
            object_id: str | None = None,
            *,
            depth: int | None = None,
            direction: Direction = "down",
            changed_since: str | None = None,
        ) -> ImpactResult: ...


__all__ = ["ServiceBase"]
