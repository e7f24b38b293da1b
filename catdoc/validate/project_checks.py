"""Checks that span the project: duplicate ids, unknown keys, and object paths on disk."""

from __future__ import annotations

import os

from pydantic import BaseModel
from pydantic.alias_generators import to_camel

from catdoc.errors import PATH_OUTSIDE_PROJECT, CatDocError
from catdoc.model import DocObject, Entity
from catdoc.project import Project
from catdoc.project_files import InsideResolver, resolve_inside, special_kind
from catdoc.validate.checker import _Checker
from catdoc.validate.codes import Code
from catdoc.validate.messages import _did_you_mean


def _known_keys(model: type[BaseModel]) -> list[str]:
    return [f.alias or to_camel(name) for name, f in model.model_fields.items()]


class _ProjectChecks(_Checker):
    """Duplicate ids, unknown keys and document paths; directories resolved once each."""

    def __init__(self, project: Project) -> None:
        super().__init__(project)
        self._inside = InsideResolver(project.root)
        self.path_verdicts: dict[str, str] = {}
        """Each object path checked → its `path_verdict`."""

    def check_duplicates(self, scope: set[int] | None) -> None:
        for dup in self.project.duplicates:
            if scope is not None and id(dup.first) not in scope and id(dup.second) not in scope:
                continue
            first, second = self.project.locate(dup.first), self.project.locate(dup.second)
            unique = (
                "in the project" if dup.kind in {"object", "morphism"} else f"among {dup.kind}s"
            )
            self.add(
                Code.DUPLICATE_ID,
                f"Duplicate {dup.kind} id {dup.id!r}: declared at {first or '?'} and again at "
                f"{second or '?'}. Rename one of them; {dup.kind} ids must be unique {unique}.",
                [dup.id],
                location=second,
            )

    def check_unknown_keys(self, entity: Entity, kind: str, **ctx: object) -> None:
        extra = entity.unknown_keys()
        if not extra:
            return
        known = _known_keys(type(entity))
        label = getattr(entity, "id", "")
        for key in extra:
            self.add(
                Code.SCHEMA_UNKNOWN_KEY,
                f"Unknown key {key!r} in {kind} {label!r}; it is kept but CatDoc ignores it."
                f"{_did_you_mean(key, known)} Rename it to a known key "
                f"({', '.join(known)}) or move it under `metadata`.",
                [label] if label else [],
                entity,
                **ctx,
            )

    def check_top_level(self) -> None:
        known = ["categories", "functors", "naturalTransformations"]
        for origin, key in self.project.top_level_unknown:
            self.add(
                Code.SCHEMA_UNKNOWN_KEY,
                f"Unknown top-level key {key!r} in {origin}; it is ignored."
                f"{_did_you_mean(key, known)} Use only {', '.join(known)} at the top level.",
                [],
                location=origin,
            )
        config = self.config
        for sub, kind in (
            (config, "config.yaml"),
            (config.dashboard, "config.yaml `dashboard`"),
            (config.import_, "config.yaml `import`"),
            (config.search, "config.yaml `search`"),
            (config.validation, "config.yaml `validation`"),
        ):
            for key in sub.unknown_keys():
                known = _known_keys(type(sub))
                self.add(
                    Code.SCHEMA_UNKNOWN_KEY,
                    f"Unknown setting {key!r} in {kind}; it is ignored.{_did_you_mean(key, known)}"
                    f" Known settings here: {', '.join(known)}.",
                    [],
                    location=config.origin,
                )

    def check_object_path(self, obj: DocObject, cat: str) -> None:
        if not obj.path:
            return
        verdict = self.path_verdicts[obj.path] = path_verdict(self._inside, obj.path)
        if verdict == FILE:
            return
        if verdict == OUTSIDE:
            self.add(
                Code.OBJ_PATH_OUTSIDE_PROJECT,
                f"Object {obj.id!r} has path {obj.path!r}, which resolves outside the project "
                "root. Give a path relative to the project root that stays inside it (no `..`, "
                "no absolute path elsewhere, no symlink that leaves the project).",
                [obj.id],
                obj,
                category=cat,
            )
        elif verdict == MISSING:
            self.add(
                Code.OBJ_FILE_MISSING,
                f"Object {obj.id!r} has path {obj.path!r}, but no such file exists. Create the "
                "file, correct the path (relative to the project root), or remove `path`.",
                [obj.id],
                obj,
                category=cat,
            )
        elif verdict.startswith(NOT_A_FILE):
            self.add(
                Code.OBJ_FILE_MISSING,
                f"Object {obj.id!r} has path {obj.path!r}, which is "
                f"{verdict.removeprefix(NOT_A_FILE)}, not a file. Point the path at the "
                "document's file (relative to the project root), or remove `path`.",
                [obj.id],
                obj,
                category=cat,
            )
        else:
            self.add(
                Code.OBJ_FILE_MISSING,
                f"Object {obj.id!r} has a path that cannot name a file: "
                f"{verdict.removeprefix(UNNAMABLE)} "
                "Correct the path (relative to the project root), or remove `path`.",
                [obj.id],
                obj,
                category=cat,
            )


FILE, MISSING, OUTSIDE, UNNAMABLE = "file", "missing", "outside", "unnamable: "
NOT_A_FILE = "not a file: "
"""What the file system says of an object's path (`path_verdict`): the only thing a report
takes from outside the model files, apart from the review stamps (`catdoc.validate.kept`)."""


def path_verdict(inside: InsideResolver, raw: str) -> str:
    """FILE, MISSING, OUTSIDE (it leaves the project), UNNAMABLE and why no file can have that
    name, or NOT_A_FILE and what is there instead (a folder, a FIFO …). Directories are resolved
    once each (`InsideResolver`), so checking ten thousand documents costs ten thousand `lstat`
    calls, not a full `realpath` each."""
    try:
        if inside.is_file(raw):
            return FILE
        mode = os.stat(resolve_inside(inside.root, raw)).st_mode
    except CatDocError as error:
        return OUTSIDE if error.code == PATH_OUTSIDE_PROJECT else UNNAMABLE + error.message
    except (OSError, ValueError):
        return MISSING
    return NOT_A_FILE + special_kind(mode)
