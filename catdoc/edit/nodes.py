"""Small changes to ruamel.yaml nodes that keep comments, key order and flow style, and the
plain-data view of a node that comparisons use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.model import PathSpec, as_path
from catdoc.yaml_source import MAX_NESTING


def flow_safe(items: Any) -> bool:
    """Whether a list can be written `[a, b]`: scalars only, and no text starting with `:` or
    `?` (ruamel writes those plain inside brackets, where they read back as a mapping)."""
    return not any(
        isinstance(v, Mapping | list | tuple) or (isinstance(v, str) and v[:1] in (":", "?"))
        for v in items
    )


def to_yaml(value: Any, flow: bool = True) -> Any:
    """Plain data as ruamel nodes; lists of scalars in flow style (`[a, b]`) when `flow` and
    where that is safe."""
    if isinstance(value, Mapping):
        node = CommentedMap()
        for key, item in value.items():
            node[str(key)] = to_yaml(item, flow)
        return node
    if isinstance(value, list | tuple):
        seq = CommentedSeq(to_yaml(v, flow) for v in value)
        if flow and flow_safe(value):
            seq.fa.set_flow_style()
        return seq
    return value


def flow_map() -> CommentedMap:
    node = CommentedMap()
    node.fa.set_flow_style()
    return node


def set_fields(node: Any, fields: Mapping[str, Any], order: tuple[str, ...]) -> bool:
    """Set fields on an entry node (None removes; `metadata` merges); True if anything changed.
    New keys go in the format's order relative to the keys already there."""
    changed = False
    for key in order:
        if key not in fields or key == "content":
            continue
        value = fields[key]
        if _deeper_than(value, MAX_NESTING):
            raise CatDocError(
                VALIDATION_ERROR,
                f"{key}: mappings and lists are nested more than {MAX_NESTING} deep; nothing "
                "was written.",
                "Flatten the data (for example, keep deep structures in a document file and "
                "point to it).",
            )
        if key == "metadata" and value is not None:
            meta = node.get("metadata")
            if not isinstance(meta, dict):
                meta = CommentedMap()
            for meta_key, meta_value in value.items():
                if meta_value is None:
                    if meta_key in meta:
                        del meta[meta_key]
                        changed = True
                elif plain(meta.get(meta_key)) != plain(meta_value) or meta_key not in meta:
                    meta[meta_key] = to_yaml(meta_value)
                    changed = True
            if meta and "metadata" not in node:
                insert(node, "metadata", meta, order)
            elif not meta and "metadata" in node:
                del node["metadata"]
            continue
        if value is None:
            if key in node:
                del node[key]
                changed = True
            continue
        if key in node and plain(node[key]) == plain(value):
            continue
        if key in node:
            node[key] = to_yaml(value)
        else:
            insert(node, key, to_yaml(value), order)
        changed = True
    return changed


def insert(node: Any, key: str, value: Any, order: tuple[str, ...]) -> None:
    """Insert before the first existing key that comes later in `order`, else at the end."""
    later = order[order.index(key) + 1 :] if key in order else ()
    keys = list(node)
    for position, existing in enumerate(keys):
        if existing in later or existing in ("objects", "morphisms", "equations"):
            node.insert(position, key, value)
            return
    node[key] = value


def set_entries(node: Any, key: str, entries: Mapping[str, Any]) -> bool:
    if not entries:
        return False
    mapping = node.get(key)
    if not isinstance(mapping, dict):
        mapping = flow_map()
        node[key] = mapping
    changed = False
    for entry_key, value in entries.items():
        existing_key = next((k for k in mapping if str(k) == entry_key), entry_key)
        if value is None:
            if existing_key in mapping:
                del mapping[existing_key]
                changed = True
                if not mapping and not mapping.fa.flow_style():
                    node[key] = flow_map()  # an empty block mapping cannot keep its comments
                    mapping = node[key]
            continue
        new = to_yaml(value)
        if existing_key in mapping and plain(mapping[existing_key]) == plain(new):
            continue
        mapping[existing_key] = new
        changed = True
    return changed


def remove_where(node: Any, key: str, doomed: Any) -> None:
    """Remove the items of the list `node[key]` for which `doomed(item)` holds; a list left
    empty is removed with its key (an empty block list cannot keep the comments inside it)."""
    seq = node.get(key)
    if not isinstance(seq, list):
        return
    for index in range(len(seq) - 1, -1, -1):
        if doomed(seq[index]):
            del seq[index]
    if not seq:
        del node[key]


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether mappings and lists nest more than `limit` deep in `value`, walked level by level
    without recursion: a given value may nest deeper than Python's stack."""
    level = [value] if isinstance(value, Mapping | list | tuple) else []
    for _depth in range(limit):
        if not level:
            return False
        level = [
            item
            for held in level
            for item in (held.values() if isinstance(held, Mapping) else held)
            if isinstance(item, Mapping | list | tuple)
        ]
    return bool(level)


def plain(value: Any) -> Any:
    """ruamel nodes (and given values) as plain data, as yaml-rs would read them back."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value


def plain_path(value: Any) -> PathSpec:
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return str(value)


def flat(equation: Any) -> list[str]:
    out: list[str] = []
    for side in equation if isinstance(equation, list | tuple) else []:
        out += as_path(plain_path(side))
    return out


def rename_value(value: Any, old: str, new: str) -> Any:
    if isinstance(value, list):
        for i, step in enumerate(value):
            if str(step) == old:
                value[i] = new
        return value
    return new if str(value) == old else value


def rename_in_paths(equation: Any, old: str, new: str) -> None:
    if isinstance(equation, list):
        for i, side in enumerate(equation):
            equation[i] = rename_value(side, old, new)


def rename_in_mapping(mapping: Any, old: str, new: str, *, keys: bool, values: bool) -> None:
    """Rename `old` among a ruamel mapping's keys (in place, keeping the position) and values."""
    for position, key in enumerate(list(mapping)):
        value = mapping[key]
        if values and str(value) == old:
            mapping[key] = new
            value = new
        if keys and str(key) == old:
            del mapping[key]
            mapping.insert(position, new, value)


__all__ = [
    "flat",
    "flow_map",
    "insert",
    "plain",
    "plain_path",
    "remove_where",
    "rename_in_mapping",
    "rename_in_paths",
    "rename_value",
    "set_entries",
    "set_fields",
    "to_yaml",
]
