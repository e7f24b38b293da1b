"""Planning an import: each document's object id and category, and what changes where."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from catdoc import results as r
from catdoc.antora import Component
from catdoc.edit.base import ID_RULE, MAX_ID_LENGTH, allowed_id
from catdoc.errors import CatDocError
from catdoc.importer.docs_tools import DocsTools
from catdoc.importer.fields import _changes, _fields, _scalar
from catdoc.importer.files import _Doc, _skip
from catdoc.importer.names import _unique, humanize, slugify
from catdoc.model import DocObject
from catdoc.project import Project
from catdoc.project_files import CATDOC_DIR, MODEL_FILE, resolve_inside

NEW_CATEGORY_FILE = f"{CATDOC_DIR}/{MODEL_FILE}"
ROOT_CATEGORY = "documents"
"""Category of files that sit directly in the project root when grouping by folder."""


@dataclass
class _CategoryPlan:
    """What the import does to one category: objects to add or change, morphisms to add."""

    id: str
    name: str | None = None  # set only for a category the import creates
    new_objects: list[dict[str, Any]] = field(default_factory=list)
    changes: dict[str, dict[str, Any]] = field(default_factory=dict)
    new_morphisms: list[dict[str, Any]] = field(default_factory=list)
    related: set[str] = field(default_factory=set)  # categories to add to its `related`
    related_before: list[str] = field(default_factory=list)

    def empty(self) -> bool:
        return not (
            self.name or self.new_objects or self.changes or self.new_morphisms or self.related
        )


class _Planner:
    """Decides ids, categories and field changes before anything is written.

    Its plans are what `links` adds morphisms to and `writing` applies, file by file.
    """

    def __init__(self, project: Project, *, force: bool, tools: DocsTools) -> None:
        self.project = project
        self.force = force
        self.tools = tools
        """The docs tools of the project's pages (the Sphinx projects the file walk read)."""
        self.items: list[r.ImportItem] = []
        self.item_of: dict[str, r.ImportItem] = {}  # object id → its item
        self.plans: dict[str, dict[str, _CategoryPlan]] = {}  # yaml file → category id → plan
        self.object_category: dict[str, str] = {}
        self.by_path: dict[str, DocObject] = {}
        self.morphisms_created: list[str] = []
        self.functors_from: dict[str, list[str]] = {}
        for fun in project.functors:
            self.functors_from.setdefault(fun.source_category, []).append(fun.id)
        root = project.root
        for obj in project.object_by_id.values():
            if obj.path:
                try:
                    rel = resolve_inside(root, obj.path).relative_to(root).as_posix()
                except CatDocError:
                    continue
                self.by_path.setdefault(rel, obj)

    # ------------------------------------------------------------------ ids
    def assign_ids(self, docs: list[_Doc], skipped: list[r.ImportItem]) -> list[_Doc]:
        """Give each document its object id; drop (and report) those whose id conflicts."""
        objects = self.project.object_by_id
        claimed: dict[str, str] = {}  # id → rel of the document that has it in this import
        kept: list[_Doc] = []
        slugged: list[_Doc] = []
        for doc in docs:
            existing = self.by_path.get(doc.rel)
            wanted = _scalar(doc.front.meta.get("id"))
            if existing is not None:
                doc.object_id, doc.existing = existing.id, existing
                if wanted and wanted != existing.id:
                    doc.notes.append(
                        f"front matter id {wanted!r} differs from the object {existing.id!r} "
                        "that already has this path; kept the object's id (rename it in the "
                        "YAML and its references to change it)."
                    )
            elif wanted and not allowed_id(wanted):
                skipped.append(
                    _skip(
                        doc.rel,
                        f"front matter id {wanted[:80]!r} is not allowed: {ID_RULE}; fix the "
                        "`id` in its front matter, or remove it to take an id from the file name.",
                    )
                )
                continue
            elif wanted:
                other = objects.get(wanted)
                if other is not None and not self.force:
                    where = other.path or "inline content"
                    skipped.append(
                        _skip(
                            doc.rel,
                            f"object id {wanted!r} already exists for {where} "
                            f"({self.project.locate(other)}); give this document another `id` "
                            "in its front matter, or pass --force to point that object at this "
                            "file.",
                        )
                    )
                    continue
                if other is not None:
                    doc.existing = other
                    doc.notes.append(f"--force: object {wanted!r} now points at this file.")
                doc.object_id = wanted
            else:
                slugged.append(doc)
            if doc.object_id:
                if doc.object_id in claimed:
                    skipped.append(
                        _skip(
                            doc.rel,
                            f"object id {doc.object_id!r} is also used by "
                            f"{claimed[doc.object_id]} in this import; give one of them another "
                            "`id` in its front matter.",
                        )
                    )
                    continue
                claimed[doc.object_id] = doc.rel
            kept.append(doc)
        self._slug_ids(slugged, set(objects) | set(claimed))
        return kept

    @staticmethod
    def _slug_ids(docs: list[_Doc], taken: set[str]) -> None:
        """Ids from file names, lengthened with parent folders until unique, then numbered;
        an Antora page's from its resource id (`shop:admin:setup.adoc` → `shop-admin-setup`),
        lengthened with its version when that makes it unique (`2-0-shop-admin-setup`), else
        numbered.

        Colliding documents all grow together (`a/intro.md`, `b/intro.md` → `a-intro`,
        `b-intro`), so the outcome does not depend on the order files were named in.
        """
        depth = {doc.rel: doc.least_parts for doc in docs}

        def slug(doc: _Doc) -> str:
            return (
                slugify("-".join(doc.parts[-depth[doc.rel] :]))[:MAX_ID_LENGTH].rstrip("-")
                or "document"
            )

        changed = True
        while changed:
            changed = False
            counts: dict[str, int] = {}
            for doc in docs:
                counts[slug(doc)] = counts.get(slug(doc), 0) + 1
            for doc in docs:
                current = slug(doc)
                clash = current in taken or counts[current] > 1
                if clash and depth[doc.rel] < len(doc.parts):
                    depth[doc.rel] += 1
                    changed = True
        final = Counter(slug(doc) for doc in docs)
        for doc in docs:
            if doc.page is not None and (slug(doc) in taken or final[slug(doc)] > 1):
                depth[doc.rel] = doc.least_parts  # the version told it from none: numbered

        def shortest(doc: _Doc) -> str:
            least = "-".join(doc.parts[-doc.least_parts :])
            return slugify(least)[:MAX_ID_LENGTH].rstrip("-") or "document"

        sharing: dict[str, int] = {}
        for doc in docs:
            sharing[shortest(doc)] = sharing.get(shortest(doc), 0) + 1
        used = set(taken)
        for doc in sorted(docs, key=lambda d: d.rel):
            ident = _unique(slug(doc), used)
            doc.object_id = ident
            first = shortest(doc)
            if ident == first:
                continue
            if first in taken:
                doc.notes.append(f"id {first!r} belongs to another object; used {ident!r}.")
            else:
                doc.notes.append(
                    f"{sharing[first]} files of this import would have id {first!r}; "
                    f"used {ident!r}."
                )

    # ------------------------------------------------------------------ categories
    def place(
        self,
        doc: _Doc,
        category: str | None,
        category_from: str,
        common: str,
        domain: str | None,
    ) -> None:
        """Choose the document's category, compute its fields, and record the change."""
        myst = self.tools.mystmd.of(doc.rel)
        toc_title = myst.toc_title(doc.rel) if myst is not None else None
        doc.fields = _fields(doc, domain, self.tools.mkdocs.page(doc.rel), toc_title)
        try:
            DocObject.model_validate(doc.fields)
        except ValidationError as exc:
            problem = exc.errors()[0]
            where = ".".join(str(p) for p in problem["loc"])
            self.items.append(
                _skip(doc.rel, f"field {where!r}: {problem['msg']}; fix the front matter.")
            )
            return
        if doc.existing is not None and doc.existing.id in self.project.category_of_object:
            doc.category = self.project.category_of_object[doc.existing.id]
            if category is not None and self._resolve_category(category)[0] != doc.category:
                doc.notes.append(
                    f"stays in category {doc.category!r}; move it in the YAML to change that."
                )
        else:
            ref = category
            if ref is None and category_from == "domain":
                ref = _scalar(doc.fields.get("domain"))
                if ref is None:
                    by = "its Antora component" if doc.page is not None else "folder"
                    doc.notes.append(f"no `domain` in the front matter; grouped by {by}.")
            if ref is not None:
                cat_id, name = self._resolve_category(ref)
            elif doc.page is not None:
                cat_id, name = self._component_category(doc.page.component)
            else:
                cat_id, name = self._folder_category(doc, common)
            doc.category = cat_id
            if name is not None:
                plan = self.plan_for(cat_id, new_name=name)
                if doc.page is not None:
                    plan.name = name  # a component's title over a same-named folder's
        self.object_category[doc.object_id] = doc.category
        self._record(doc)

    def _resolve_category(self, ref: str) -> tuple[str, str | None]:
        """(category id, name if it must be created) for an id, name or alias."""
        cats = self.project.category_by_id
        candidates = [ref, slugify(ref)]
        for cand in candidates:
            if cand in cats:
                return cand, None
        folded = {c.casefold() for c in candidates}
        for cat in self.project.categories:
            names = [cat.name or "", *cat.aliases]
            if any(n.casefold() in folded for n in names if n):
                return cat.id, None
        ident = slugify(ref) or "documents"
        return ident, (ref.strip() if ref.strip() != ident else humanize(ident))

    def _component_category(self, component: Component) -> tuple[str, str | None]:
        """An Antora page's category: its component's (every version and module of it), named
        as a site shows the component (its `title`, else its name); a category whose id, name
        or alias is the component's name takes it in."""
        found, new_name = self._resolve_category(component.name)
        return found, (component.title or component.name if new_name is not None else None)

    def _folder_category(self, doc: _Doc, common: str) -> tuple[str, str | None]:
        folder = os.path.dirname(doc.rel)
        inner = folder[len(common) :].strip("/") if common else folder
        if inner:
            parts = inner.split("/")
            ident = slugify("-".join(parts))
            name = " / ".join(humanize(p) for p in parts)
        elif folder:
            ident = slugify(os.path.basename(folder))
            name = humanize(os.path.basename(folder))
        else:
            ident, name = ROOT_CATEGORY, humanize(ROOT_CATEGORY)
        found, new_name = self._resolve_category(ident)
        return found, (name if new_name is not None else None)

    def _record(self, doc: _Doc) -> None:
        """Compare with the existing object and remember the create/update for writing."""
        plan = self.plan_for(doc.category)
        if doc.existing is None:
            plan.new_objects.append(doc.fields)
            action = "created"
            functors = self.functors_from.get(doc.category)
            if functors:
                doc.notes.append(
                    f"category {doc.category!r} is the source of functor(s) "
                    f"{', '.join(functors)}: map this object in their objectMapping "
                    "(`catdoc validate` lists what is missing)."
                )
        else:
            changes = _changes(doc.existing, doc.fields)
            if changes:
                plan.changes[doc.object_id] = changes
            action = "updated" if changes else "unchanged"
        item = r.ImportItem(
            path=doc.rel,
            object_id=doc.object_id,
            category=doc.category,
            action=action,
            reason=" ".join(doc.notes) or None,
        )
        self.items.append(item)
        self.item_of[doc.object_id] = item

    # ------------------------------------------------------------------ cross-category
    def relate(self, doc: _Doc, targets: dict[str, str]) -> None:
        """Keep references into other categories: the targets (object → category) join the
        object's `metadata.related` (sorted, merged) and their categories the category's
        `related`."""
        plan = self.plan_for(doc.category)
        cat = self.project.category_by_id.get(doc.category)
        plan.related |= set(targets.values()) - set(cat.related if cat else ()) - {doc.category}
        before = doc.existing.metadata.get("related", []) if doc.existing else []
        meta = doc.fields.get("metadata") or {}
        base = meta.get("related", before)
        if not isinstance(base, list) or not all(isinstance(t, str) for t in base):
            self._note(doc, "its metadata `related` is not a list of ids; left as it is.")
            return
        merged = sorted(set(base) | set(targets))
        if doc.existing is None:
            doc.fields["metadata"] = {**meta, "related": merged}
            return
        changes = plan.changes.setdefault(doc.object_id, {})
        delta = changes.setdefault("metadata", {})
        if merged == before:
            delta.pop("related", None)
        else:
            delta["related"] = merged
        if not delta:
            del changes["metadata"]
        if not changes:
            del plan.changes[doc.object_id]
        self.item_of[doc.object_id].action = "updated" if changes else "unchanged"

    def _note(self, doc: _Doc, note: str) -> None:
        item = self.item_of[doc.object_id]
        item.reason = f"{item.reason} {note}" if item.reason else note

    # ------------------------------------------------------------------ plans
    def plan_for(self, cat_id: str, *, new_name: str | None = None) -> _CategoryPlan:
        """The category's plan, kept under the file that defines it (new ones: the main file)."""
        cat = self.project.category_by_id.get(cat_id)
        origin = cat.origin if cat is not None and cat.origin else NEW_CATEGORY_FILE
        plans = self.plans.setdefault(origin, {})
        plan = plans.get(cat_id)
        if plan is None:
            plan = plans[cat_id] = _CategoryPlan(
                cat_id,
                name=new_name if cat is None else None,
                related_before=list(cat.related) if cat is not None else [],
            )
        return plan

    def category_ids(self) -> set[str]:
        """The categories the plans touch or create."""
        return {cat_id for plans in self.plans.values() for cat_id in plans}

    def has_changes(self) -> bool:
        return any(not plan.empty() for plans in self.plans.values() for plan in plans.values())
