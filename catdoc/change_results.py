"""Result models of change analysis: what a change reaches (`impact`) and what changed in the
model between two revisions (`diff`). Same conventions as `catdoc.results` (camelCase on the
wire); kept apart because they are about changes, not about the model's entities."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from catdoc.results import Result, TraceHop
from catdoc.validate.report import Finding

Direction = Literal["down", "up", "both"]
DIRECTIONS: tuple[Direction, ...] = ("down", "up", "both")


# ---------------------------------------------------------------------------------- impact
class ImpactHop(TraceHop):
    direction: Literal["along", "against"] = Field(
        description="along: the morphism or functor mapping runs from the path's previous "
        "object to its next one (`source` → `target`); against: it runs the other way, so "
        "the path's next object is its `source`."
    )


class ImpactPath(Result):
    length: int
    nodes: list[str] = Field(description="From a starting object to the object reached.")
    hops: list[ImpactHop]


class ImpactedObject(Result):
    id: str
    title: str
    category: str
    distance: int = Field(description="Hops on its shortest path from a starting object.")
    path: ImpactPath
    reached_from: list[str] = Field(
        default_factory=list,
        description="With changedSince: the changed documents (object ids) that reach it within "
        "the depth.",
    )


class ImpactGroup(Result):
    category: str
    name: str
    count: int
    objects: list[ImpactedObject] = Field(description="Nearest first.")


class ImpactResult(Result):
    """Everything reachable from the starting objects, grouped by category (in the model's
    order), each object once with one shortest path."""

    start: list[str] = Field(description="The starting objects (not listed among the reached).")
    direction: Direction
    depth: int | None = Field(description="Longest path followed, in hops; null: unbounded.")
    changed_since: str | None = None
    changed_files: list[str] = Field(
        default_factory=list,
        description="With changedSince: the changed files that are documents of objects.",
    )
    total: int
    groups: list[ImpactGroup]
    message: str | None = None


# ---------------------------------------------------------------------------------- diff
EntityKind = Literal["category", "object", "morphism", "functor", "naturalTransformation"]


class EntityChange(Result):
    kind: EntityKind
    id: str
    category: str | None = Field(None, description="For objects and morphisms: their category.")
    fields: list[str] = Field(
        default_factory=list, description="For a changed entity: the keys whose values differ."
    )


class MappingChange(Result):
    """One entry of a functor's objectMapping / morphismMapping or a natural transformation's
    components that was added (`before` null), removed (`after` null) or changed."""

    owner_kind: Literal["functor", "naturalTransformation"]
    owner: str
    table: Literal["objectMapping", "morphismMapping", "components"]
    key: str
    before: str | list[str] | None = None
    after: str | list[str] | None = None


class ModelDiff(Result):
    """How the model at `toRevision` differs from the model at `fromRevision`: the review
    summary of a change."""

    from_revision: str
    from_commit: str
    to_revision: str
    to_commit: str | None = Field(description="null: the working tree.")
    added: list[EntityChange]
    removed: list[EntityChange]
    changed: list[EntityChange]
    mappings: list[MappingChange]
    new_findings: list[Finding] = Field(
        description="Findings at `toRevision` that `fromRevision` did not have."
    )
    resolved_findings: list[Finding] = Field(
        description="Findings at `fromRevision` that `toRevision` no longer has."
    )
    unchanged: bool
