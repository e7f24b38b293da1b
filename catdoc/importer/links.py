"""References between imported documents: resolved, reported, and (with `link`) made into
morphisms within one category."""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any

from catdoc.documents import Reference, extract_references
from catdoc.importer.files import _Doc
from catdoc.importer.names import _unique, slugify
from catdoc.importer.planner import _Planner
from catdoc.model import DocObject, Morphism
from catdoc.project import Project

REFERENCES = "references"
"""The morphism type (name) `--link` gives the relationships it creates."""


def _link_references(planner: _Planner, docs: list[_Doc], *, link: bool) -> list[dict[str, Any]]:
    """Report every reference; with `link`, same-category ones become morphisms."""
    imported = {item.object_id for item in planner.items if item.action != "skipped"}
    docs = [d for d in docs if d.object_id in imported]
    paths = {rel: obj.id for rel, obj in planner.by_path.items()}
    paths.update({d.rel: d.object_id for d in docs})
    wiki = _WikiIndex(planner.project, docs)
    existing_links: dict[tuple[str, str], str] = {}
    for cat in planner.project.categories:
        for mor in cat.morphisms:
            if mor.name == REFERENCES:
                existing_links.setdefault((mor.source, mor.target), mor.id)
    planned: dict[tuple[str, str], str] = {}
    used_ids = set(planner.project.morphism_by_id)
    out: list[dict[str, Any]] = []
    for doc in docs:
        for ref in extract_references(doc.text, kind=doc.kind):
            entry = _resolve(planner.project, planner.object_category, doc, ref, paths, wiki)
            out.append(entry)
            target = entry["resolved"]
            if entry["kind"] == "morphism" or target is None:
                continue
            if target == doc.object_id:
                entry["status"] = "self"
            elif entry["category"] != doc.category:
                entry["status"] = "cross-category"
            elif (doc.object_id, target) in existing_links:
                entry["status"] = "already-linked"
                entry["morphism"] = existing_links[(doc.object_id, target)]
            elif not link:
                entry["status"] = "same-category"
            else:
                key = (doc.object_id, target)
                if key not in planned:
                    planned[key] = _add_morphism(planner, doc, target, used_ids)
                entry["status"] = "linked"
                entry["morphism"] = planned[key]
    return out


def _resolve(
    project: Project,
    object_category: dict[str, str],
    doc: _Doc,
    ref: Reference,
    paths: dict[str, str],
    wiki: _WikiIndex,
) -> dict[str, Any]:
    """What a reference points at, and the category that holds it (None when unresolved)."""
    target: str | None = None
    if ref.kind == "object":
        if ref.target in project.object_by_id or ref.target in object_category:
            target = ref.target
    elif ref.kind == "link":
        rel = _link_path(doc.rel, ref.target)
        target = paths.get(rel) if rel is not None else None
    elif ref.kind == "wiki":
        target = wiki.find(ref.target)
    elif ref.target in project.morphism_by_id:
        target = ref.target
    if ref.kind == "morphism":
        category = project.category_of_morphism.get(target) if target else None
    else:
        category = (
            object_category.get(target) or project.category_of_object.get(target)
            if target
            else None
        )
    return {
        "source": doc.object_id,
        "path": doc.rel,
        "line": ref.line,
        "kind": ref.kind,
        "target": ref.target,
        "resolved": target,
        "category": category,
        "status": "unresolved" if target is None else "exists",
        "morphism": None,
    }


def _add_morphism(planner: _Planner, doc: _Doc, target: str, used: set[str]) -> str:
    """Plan a `references` morphism from the document's object to `target`; returns its id."""
    ident = _unique(slugify(f"{doc.object_id}-{REFERENCES}-{target}") or REFERENCES, used)
    mor = {"id": ident, "name": REFERENCES, "source": doc.object_id, "target": target}
    Morphism.model_validate(mor)
    planner.plan_for(doc.category).new_morphisms.append(mor)
    planner.morphisms_created.append(ident)
    return ident


class _WikiIndex:
    """`[[target]]` lookup: object id, then file name (without suffix), then title."""

    def __init__(self, project: Project, docs: list[_Doc]) -> None:
        self.ids = set(project.object_by_id) | {d.object_id for d in docs}
        self.names: dict[str, set[str]] = {}
        objects = [*project.object_by_id.values()]
        objects += [
            DocObject(id=d.object_id, path=d.rel, title=d.fields.get("title")) for d in docs
        ]
        for obj in objects:
            keys = {(obj.title or "").casefold()}
            if obj.path:
                keys.add(Path(obj.path).stem.casefold())
                keys.add(obj.path.casefold())
            for key in keys - {""}:
                self.names.setdefault(key, set()).add(obj.id)

    def find(self, target: str) -> str | None:
        if target in self.ids:
            return target
        hits = self.names.get(target.casefold(), set())
        return next(iter(hits)) if len(hits) == 1 else None


def _link_path(source_rel: str, target: str) -> str | None:
    """The project-relative path a relative link points at ('/x' is from the project root)."""
    if target.startswith("/"):
        joined = target.lstrip("/")
    else:
        joined = posixpath.join(posixpath.dirname(source_rel), target)
    norm = posixpath.normpath(joined)
    return None if norm == ".." or norm.startswith("../") else norm
