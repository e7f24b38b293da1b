"""Applying a planned import: each plan becomes edit operations of the write path (new
categories first, then objects, then the morphisms between them)."""

from __future__ import annotations

from typing import Any

from catdoc.edit import ModelEdit
from catdoc.importer.planner import _CategoryPlan


def _apply_plans(edit: ModelEdit, plans_by_file: dict[str, dict[str, _CategoryPlan]]) -> None:
    plans = [p for by_id in plans_by_file.values() for p in by_id.values() if not p.empty()]
    for plan in plans:
        if plan.name is not None:
            edit.upsert_category(plan.id, {"name": plan.name})
    for plan in plans:
        if plan.related:
            kept = plan.related_before
            edit.upsert_category(plan.id, {"related": kept + sorted(plan.related - set(kept))})
    for plan in plans:
        for fields in plan.new_objects:
            edit.upsert_object(plan.id, fields["id"], _without_id(fields))
        for object_id, changes in plan.changes.items():
            edit.upsert_object(plan.id, object_id, changes)
    for plan in plans:
        for mor in plan.new_morphisms:
            edit.add_morphism(
                plan.id,
                mor["source"],
                mor["target"],
                name=mor.get("name"),
                morphism_id=mor["id"],
                metadata=mor.get("metadata"),
            )


def _without_id(fields: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in fields.items() if key != "id"}
