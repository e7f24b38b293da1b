"""The service's change operations: what a change reaches (`impact`, see `catdoc.impact`) and
what changed in the model between two git revisions (`diff`, see `catdoc.model_diff`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from catdoc import git_revisions
from catdoc.change_results import DIRECTIONS, Direction, ImpactResult, ModelDiff
from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.service_base import ServiceBase

if TYPE_CHECKING:
    from catdoc.project import Project


MAX_IMPACT_DEPTH = 10_000


class ImpactOperations(ServiceBase):
    """What a change reaches, and the model's difference between revisions (mixed into
    `CatDoc`)."""

    def impact(
        self,
        object_id: str | None = None,
        *,
        depth: int | None = None,
        direction: Direction = "down",
        changed_since: str | None = None,
    ) -> ImpactResult:
        """Everything reachable from `object_id` and/or from the documents changed since the git
        revision `changed_since`, along (`down`), against (`up`) or both ways across morphisms
        and functor mappings, within `depth` hops (None: unbounded)."""
        from catdoc.impact import impact

        if direction not in DIRECTIONS:
            raise CatDocError(
                VALIDATION_ERROR,
                f"Unknown direction {direction!r}.",
                f"Use one of: {', '.join(DIRECTIONS)}.",
            )
        if depth is not None and not 1 <= depth <= MAX_IMPACT_DEPTH:
            raise CatDocError(
                VALIDATION_ERROR,
                f"depth must be 1–{MAX_IMPACT_DEPTH:,}, got {depth}.",
                "Pass a positive depth, or none for everything reachable.",
            )
        if object_id is None and changed_since is None:
            raise CatDocError(
                VALIDATION_ERROR,
                "Impact needs an object id, a revision to compare with, or both.",
                "Name the object whose change you are asking about, or give --changed-since "
                "(MCP: changedSince) a git revision such as HEAD or main.",
            )
        start = [self.object(object_id).id] if object_id is not None else []
        changed: list[str] = []
        if changed_since is not None:
            files = git_revisions.changed_files(self.root, changed_since)
            documents = self.derived("objects-by-path", objects_by_path)
            changed = [f for f in files if f in documents]
            start += [ident for f in changed for ident in documents[f]]
        result = impact(
            self.project(),
            self.graph_around(start, depth, direction=direction),
            start,
            direction=direction,
            depth=depth,
            track_sources=changed_since is not None,
        )
        result.changed_since, result.changed_files = changed_since, changed
        if not start:
            result.message = (
                f"No document of an object changed since {changed_since}: nothing is affected."
            )
        elif not result.total:
            result.message = (
                f"Nothing is reachable {direction} from {', '.join(result.start)}"
                + (f" within {depth} hop{'s' if depth != 1 else ''}." if depth else ".")
                + (" Try direction 'up' or 'both'." if direction != "both" else "")
            )
        return result

    def diff(self, rev1: str, rev2: str | None = None) -> ModelDiff:
        """What changed in the model from git revision `rev1` to `rev2` (None: the working tree):
        entities, mapping entries, and findings new or resolved."""
        from catdoc.model_diff import diff_models

        current = (self.project(), self.validate()) if rev2 is None else None
        return diff_models(self.root, rev1, rev2, current)


def objects_by_path(project: Project) -> dict[str, list[str]]:
    """Object ids by their document's path, normalised as git names files."""
    out: dict[str, list[str]] = {}
    for ident, obj in project.object_by_id.items():
        if obj.path:
            out.setdefault(git_revisions.normal_path(obj.path), []).append(ident)
    return out
