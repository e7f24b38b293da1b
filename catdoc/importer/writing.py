"""Writing a planned import: YAML edits that keep comments and key order, checked before the
file is replaced."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from catdoc.category_edit import edit_categories
from catdoc.errors import LOAD_ERROR, VALIDATION_ERROR, CatDocError
from catdoc.importer.planner import _CategoryPlan
from catdoc.model import ModelFile
from catdoc.project import Project, stamp

_FIELD_ORDER = (
    "id",
    "title",
    "domain",
    "path",
    "tags",
    "author",
    "created",
    "updated",
    "summary",
    "url",
    "metadata",
)


def _write(project: Project, plans_by_file: dict[str, dict[str, _CategoryPlan]]) -> list[str]:
    """Apply the plans file by file; each file is checked before it replaces the old one."""
    if stamp(project.root) != project.fingerprint:
        raise CatDocError(
            VALIDATION_ERROR,
            "The model's YAML files changed while the import was being planned.",
            "Run the import again; nothing was written.",
        )
    written: list[str] = []
    for origin in sorted(plans_by_file):
        plans = [p for p in plans_by_file[origin].values() if not p.empty()]
        if not plans:
            continue
        edit_categories(
            project.root / origin,
            {plan.id for plan in plans},
            lambda doc, plans=plans, origin=origin: _apply(doc, plans, origin),
            empty=CommentedMap(),
        )
        written.append(origin)
    return written


def _to_yaml(value: Any) -> Any:
    """Plain data as ruamel nodes; short lists of scalars are written in flow style."""
    if isinstance(value, dict):
        node = CommentedMap()
        for key, item in value.items():
            node[key] = _to_yaml(item)
        return node
    if isinstance(value, list):
        seq = CommentedSeq(_to_yaml(v) for v in value)
        if all(not isinstance(v, dict | list) for v in value):
            seq.fa.set_flow_style()
        return seq
    return value


def _new_object(fields: dict[str, Any]) -> CommentedMap:
    node = CommentedMap()
    for key in _FIELD_ORDER:
        if key in fields:
            node[key] = _to_yaml(fields[key])
    return node


def _apply(doc: Any, plans: list[_CategoryPlan], origin: str) -> None:
    """Edit one YAML document in place, then check it still is a valid model file."""
    if not isinstance(doc, dict):
        raise CatDocError(
            LOAD_ERROR,
            f"{origin}: the top level is not a mapping; nothing was imported.",
            "Start the file with `categories:` (see `catdoc init`).",
        )
    if not isinstance(doc.get("categories"), list):
        doc["categories"] = CommentedSeq()
    categories = doc["categories"]
    for plan in plans:
        node = next(
            (c for c in categories if isinstance(c, dict) and str(c.get("id")) == plan.id), None
        )
        if node is None:
            if plan.name is None:
                raise _changed_meanwhile(origin, f"category {plan.id!r}")
            node = CommentedMap(id=plan.id, name=plan.name)
            categories.append(node)
        if plan.new_objects or plan.changes:
            objects = _list_in(node, "objects")
            for obj_id, changes in plan.changes.items():
                target = next(
                    (o for o in objects if isinstance(o, dict) and str(o.get("id")) == obj_id),
                    None,
                )
                if target is None:
                    raise _changed_meanwhile(origin, f"object {obj_id!r}")
                for key, value in changes.items():
                    if key == "metadata" and isinstance(target.get("metadata"), dict):
                        for meta_key, meta_value in value.items():
                            target["metadata"][meta_key] = _to_yaml(meta_value)
                    else:
                        target[key] = _to_yaml(value)
            objects.extend(_new_object(fields) for fields in plan.new_objects)
        if plan.new_morphisms:
            _list_in(node, "morphisms").extend(_to_yaml(m) for m in plan.new_morphisms)
    try:
        ModelFile.model_validate(_plain(doc))
    except ValidationError as exc:
        raise CatDocError(
            VALIDATION_ERROR,
            f"{origin}: the import would make the file invalid ({exc.errors()[0]['msg']}); "
            "nothing was written.",
            "Fix the front matter of the documents being imported, then run it again.",
        ) from None


def _list_in(node: Any, key: str) -> Any:
    if not isinstance(node.get(key), list):
        node[key] = CommentedSeq()
    return node[key]


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _changed_meanwhile(origin: str, what: str) -> CatDocError:
    return CatDocError(
        VALIDATION_ERROR,
        f"{origin}: {what} is no longer there; the file changed during the import.",
        "Run the import again.",
    )
