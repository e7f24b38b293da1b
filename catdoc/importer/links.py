"""References between imported documents: resolved, reported, and (with `link`) kept.

A reference whose target is in the source's category becomes a morphism (type `references` for
links, wiki links and @mentions, the role's name for `:doc:`, `:pep:` …), one per (source, target,
type). One whose target is in another category cannot be a morphism (a morphism joins two objects
of one category): it is kept as the source object's `metadata.related` and its category's
`related`, where `catdoc validate --suggest` finds it to propose functor mappings.
"""

from __future__ import annotations

from typing import Any

from catdoc.documents import extract_references
from catdoc.importer.files import _Doc
from catdoc.importer.names import _unique, slugify
from catdoc.importer.planner import _Planner
from catdoc.model import Morphism
from catdoc.project import Project
from catdoc.references import Known, Resolver


def _link_references(
    planner: _Planner, docs: list[_Doc], *, link: bool, docs_root: str
) -> list[dict[str, Any]]:
    """Report every reference; with `link`, keep the resolved ones (see module doc)."""
    imported = {item.object_id for item in planner.items if item.action != "skipped"}
    docs = [d for d in docs if d.object_id in imported]
    resolver = _resolver(planner.project, docs, docs_root)
    existing: dict[tuple[str, str, str], str] = {}
    for cat in planner.project.categories:
        for mor in cat.morphisms:
            existing.setdefault((mor.source, mor.target, mor.label), mor.id)
    planned: dict[tuple[str, str, str], str] = {}
    used_ids = set(planner.project.morphism_by_id)
    out: list[dict[str, Any]] = []
    for doc in docs:
        related: dict[str, str] = {}  # target object → its category
        for ref in extract_references(doc.text, kind=doc.kind):
            if not resolver.counts(ref):
                continue
            entry = _entry(planner, resolver, doc, ref)
            out.append(entry)
            target = entry["resolved"]
            if entry["kind"] == "morphism" or target is None:
                continue
            key = (doc.object_id, target, resolver.name_of(ref))
            if target == doc.object_id:
                entry["status"] = "self"
            elif entry["category"] != doc.category:
                entry["status"] = "cross-category"
                related[target] = entry["category"]
            elif key in existing:
                entry["status"] = "already-linked"
                entry["morphism"] = existing[key]
            elif not link:
                entry["status"] = "same-category"
            else:
                if key not in planned:
                    planned[key] = _add_morphism(planner, doc, key, used_ids)
                entry["status"] = "linked"
                entry["morphism"] = planned[key]
        if link and related:
            planner.relate(doc, related)
    return out


def _resolver(project: Project, docs: list[_Doc], docs_root: str) -> Resolver:
    """Lookups over the model's objects and the imported documents (these win by path)."""
    known = [Known(obj.id, obj.path, obj.title) for obj in project.object_by_id.values()]
    known = [
        Known(d.object_id, d.rel, d.fields.get("title"), d.front.body, d.kind) for d in docs
    ] + known
    return Resolver.build(known, project.config.import_, docs_root)


def _entry(planner: _Planner, resolver: Resolver, doc: _Doc, ref: Any) -> dict[str, Any]:
    """What a reference points at, and the category that holds it (None when unresolved)."""
    project = planner.project
    if ref.kind == "morphism":
        target = ref.target if ref.target in project.morphism_by_id else None
        category = project.category_of_morphism.get(target) if target else None
    else:
        target = resolver.resolve(doc.rel, ref)
        category = (
            planner.object_category.get(target) or project.category_of_object.get(target)
            if target
            else None
        )
    return {
        "source": doc.object_id,
        "path": doc.rel,
        "line": ref.line,
        "kind": ref.kind,
        "role": ref.role,
        "target": ref.target,
        "resolved": target,
        "category": category,
        "status": "unresolved" if target is None else "exists",
        "morphism": None,
    }


def _add_morphism(planner: _Planner, doc: _Doc, key: tuple[str, str, str], used: set[str]) -> str:
    """Plan a morphism source → target of type `name`; returns its id."""
    source, target, name = key
    ident = _unique(slugify(f"{source}-{name}-{target}") or "references", used)
    mor = {"id": ident, "name": name, "source": source, "target": target}
    Morphism.model_validate(mor)
    planner.plan_for(doc.category).new_morphisms.append(mor)
    planner.morphisms_created.append(ident)
    return ident
