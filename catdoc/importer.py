"""Adopt an existing docs tree: each document becomes an object, grouped into categories.

The import is planned completely from the loaded model before anything is written, so a bad file
or an id conflict never leaves half an import behind. Re-running is idempotent: an object is found
again by its document's path, and only fields that changed are rewritten. Writes go through
`writeback.edit_yaml` (comments and key order kept, atomic replace), each edited file is checked
against the file-format models before it replaces the old one.
"""

from __future__ import annotations

import datetime as dt
import glob
import os
import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from catdoc import results as r
from catdoc.documents import (
    DOCUMENT_SUFFIXES,
    FrontMatter,
    Kind,
    Reference,
    document_title,
    extract_references,
    kind_of,
    read_document,
    split_front_matter,
)
from catdoc.errors import LOAD_ERROR, NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.model import DocObject, ModelFile, Morphism
from catdoc.project import CATDOC_DIR, MODEL_FILE, Project, resolve_inside, stamp
from catdoc.writeback import edit_yaml

if TYPE_CHECKING:
    from catdoc.service import CatDoc

REFERENCES = "references"
"""The morphism type (name) `--link` gives the relationships it creates."""

NEW_CATEGORY_FILE = f"{CATDOC_DIR}/{MODEL_FILE}"
ROOT_CATEGORY = "documents"
"""Category of files that sit directly in the project root when grouping by folder."""

SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages"})
"""Folders a directory import never enters (besides hidden ones): installed code, not docs."""

_GLOB_CHARS = re.compile(r"[*?\[]")
_NON_ID = re.compile(r"[\W_]+")
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
_CREATED_KEYS = ("created", "date")
_UPDATED_KEYS = ("updated", "lastmod", "last_modified", "modified")


@dataclass
class _Doc:
    """One document on its way to becoming an object."""

    rel: str
    file: Path
    kind: Kind
    text: str
    front: FrontMatter
    object_id: str = ""
    category: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    existing: DocObject | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def parts(self) -> list[str]:
        """The path's folders and stem: the material of slug ids."""
        *folders, name = self.rel.split("/")
        return [*folders, Path(name).stem]


@dataclass
class _CategoryPlan:
    """What the import does to one category: objects to add or change, morphisms to add."""

    id: str
    name: str | None = None  # set only for a category the import creates
    new_objects: list[dict[str, Any]] = field(default_factory=list)
    changes: dict[str, dict[str, Any]] = field(default_factory=dict)
    new_morphisms: list[dict[str, Any]] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.name or self.new_objects or self.changes or self.new_morphisms)


def slugify(text: str) -> str:
    """A readable id: lower case, words joined by `-` (letters of any script are kept)."""
    return _NON_ID.sub("-", text.casefold()).strip("-")


def humanize(slug: str) -> str:
    """`getting-started` → `Getting started`: a fallback title or category name."""
    words = re.sub(r"[-_]+", " ", slug).strip()
    return words[:1].upper() + words[1:] if words else slug


# ---------------------------------------------------------------------------------- entry point
def import_documents(
    service: CatDoc,
    paths: Sequence[str],
    *,
    recursive: bool | None = None,
    category_from: str | None = None,
    domain: str | None = None,
    category: str | None = None,
    link: bool | None = None,
    force: bool = False,
) -> r.ImportResult:
    """Import files, globs and directories (inside the project) as objects; see module doc."""
    project = service.project()
    settings = project.config.import_
    recursive = settings.recursive if recursive is None else recursive
    link = settings.link if link is None else link
    category_from = category_from or settings.category_from
    if category_from not in ("folder", "domain"):
        raise CatDocError(
            VALIDATION_ERROR,
            f"category_from must be 'folder' or 'domain', got {category_from!r}.",
            "Use --category-from folder (group by parent folder) or domain (front matter).",
        )
    if not paths:
        raise CatDocError(
            VALIDATION_ERROR,
            "Nothing to import: no paths given.",
            "Name files, globs (quoted, e.g. 'docs/**/*.md') or directories.",
        )
    root = project.root
    files, skipped = _expand(root, paths, recursive=recursive)
    docs: list[_Doc] = []
    for rel, file in files:
        try:
            text = read_document(file, rel)
        except CatDocError as exc:
            skipped.append(_skip(rel, f"{exc.message} {exc.hint}".strip()))
            continue
        kind = kind_of(file)
        front = split_front_matter(text) if kind != "rst" else FrontMatter({}, text, 1)
        if front.error:
            skipped.append(_skip(rel, f"{rel}: {front.error}"))
            continue
        docs.append(_Doc(rel, file, kind, text, front))

    planner = _Planner(project, force=force)
    docs = planner.assign_ids(docs, skipped)
    common = _common_folder([d.rel for d in docs])
    for doc in docs:
        planner.place(doc, category, category_from, common, domain)
    references = planner.link(docs, link=link)
    written = planner.write() if planner.has_changes() else []

    items = sorted([*planner.items, *skipped], key=lambda item: item.path)
    counts = {action: sum(item.action == action for item in items) for action in _ACTIONS}
    return r.ImportResult(
        items=items,
        **counts,
        references=references,
        morphisms_created=planner.morphisms_created,
        written=written,
    )


_ACTIONS = ("created", "updated", "unchanged", "skipped")


def _skip(rel: str, reason: str) -> r.ImportItem:
    return r.ImportItem(path=rel, action="skipped", reason=reason)


# ---------------------------------------------------------------------------------- paths
def _expand(
    root: Path, paths: Sequence[str], *, recursive: bool
) -> tuple[list[tuple[str, Path]], list[r.ImportItem]]:
    """(project-relative path, file) for every candidate, sorted and deduplicated; plus the files
    of directories that were passed over, with the reason. A named file or glob match is a
    candidate whatever its suffix (it is read to see whether it is text); a directory contributes
    its document files only."""
    found: dict[str, Path] = {}
    skipped: dict[str, r.ImportItem] = {}

    def add(file: Path) -> None:
        rel = file.relative_to(root).as_posix()
        found[rel] = file
        skipped.pop(rel, None)

    for raw in paths:
        text = str(raw)
        if _GLOB_CHARS.search(text):
            matches = _glob(root, text)
            if not matches:
                raise CatDocError(
                    NOT_FOUND,
                    f"No files match {text!r} (relative to the project root {root}).",
                    "Check the pattern; `**` matches folders at any depth, e.g. 'docs/**/*.md'.",
                )
            for match in matches:
                if match.is_dir():
                    _walk(root, match, recursive, add, found, skipped)
                elif match.is_file():
                    add(match)
            continue
        target = resolve_inside(root, text)
        if target.is_dir():
            _walk(root, target, recursive, add, found, skipped)
        elif target.is_file():
            add(target)
        else:
            raise CatDocError(
                NOT_FOUND,
                f"No such file or directory: {text!r}.",
                "Give paths that exist; relative paths are taken from the project root "
                "(the CLI takes them from the working directory).",
            )
    return sorted(found.items()), list(skipped.values())


def _glob(root: Path, pattern: str) -> list[Path]:
    """Matches of a glob, each resolved inside the project (escapes are refused)."""
    raw = Path(pattern)
    parts = raw.parts
    fixed = next((i for i, part in enumerate(parts) if _GLOB_CHARS.search(part)), len(parts))
    base = resolve_inside(root, Path(*parts[:fixed]) if fixed else ".")
    rest = os.path.join(*parts[fixed:]) if fixed < len(parts) else ""
    hits = glob.glob(rest, root_dir=base, recursive=True) if rest else [""]
    return sorted({resolve_inside(root, base / hit) for hit in hits})


def _walk(
    root: Path,
    directory: Path,
    recursive: bool,
    add: Callable[[Path], None],
    found: dict[str, Path],
    skipped: dict[str, r.ImportItem],
) -> None:
    """Document files under a directory (hidden files and folders, and installed packages such
    as node_modules, are left out)."""
    for current, dirnames, filenames in os.walk(directory):
        dirnames[:] = (
            sorted(d for d in dirnames if not d.startswith(".") and d not in SKIPPED_FOLDERS)
            if recursive
            else []
        )
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            path = Path(current) / name
            try:
                file = resolve_inside(root, path)
            except CatDocError:
                rel = path.relative_to(root).as_posix()
                skipped[rel] = _skip(rel, "a symbolic link that leads outside the project.")
                continue
            rel = file.relative_to(root).as_posix()
            if file.suffix.lower() in DOCUMENT_SUFFIXES:
                add(file)
                continue
            if rel in found:
                continue
            skipped.setdefault(
                rel,
                _skip(
                    rel,
                    f"not a document type ({file.suffix or 'no suffix'}); folders are imported "
                    "for .md, .markdown, .rst, .txt, .adoc … (name a text file explicitly to "
                    "import it anyway).",
                ),
            )


def _common_folder(rels: list[str]) -> str:
    """The deepest folder holding every imported file ('' for the project root)."""
    folders = [os.path.dirname(rel) for rel in rels]
    if not folders:
        return ""
    common = os.path.commonpath(folders) if all(folders) else ""
    return common.replace(os.sep, "/")


# ---------------------------------------------------------------------------------- planning
class _Planner:
    """Decides ids, categories, field changes and links, then writes them in one go."""

    def __init__(self, project: Project, *, force: bool) -> None:
        self.project = project
        self.root = project.root
        self.force = force
        self.items: list[r.ImportItem] = []
        self.plans: dict[str, dict[str, _CategoryPlan]] = {}  # yaml file → category id → plan
        self.object_category: dict[str, str] = {}
        self.by_path: dict[str, DocObject] = {}
        self.morphisms_created: list[str] = []
        self.functors_from: dict[str, list[str]] = {}
        for fun in project.functors:
            self.functors_from.setdefault(fun.source_category, []).append(fun.id)
        for obj in project.object_by_id.values():
            if obj.path:
                try:
                    rel = resolve_inside(self.root, obj.path).relative_to(self.root).as_posix()
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
        """Ids from file names, lengthened with parent folders until unique, then numbered.

        Colliding documents all grow together (`a/intro.md`, `b/intro.md` → `a-intro`,
        `b-intro`), so the outcome does not depend on the order files were named in.
        """
        depth = {doc.rel: 1 for doc in docs}

        def slug(doc: _Doc) -> str:
            return slugify("-".join(doc.parts[-depth[doc.rel] :])) or "document"

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
        used = set(taken)
        for doc in sorted(docs, key=lambda d: d.rel):
            base = slug(doc)
            ident, n = base, 2
            while ident in used:
                ident, n = f"{base}-{n}", n + 1
            used.add(ident)
            doc.object_id = ident
            first = slugify(doc.parts[-1]) or "document"
            if ident != first:
                doc.notes.append(f"id {first!r} was taken; used {ident!r}.")

    # ------------------------------------------------------------------ categories and fields
    def place(
        self,
        doc: _Doc,
        category: str | None,
        category_from: str,
        common: str,
        domain: str | None,
    ) -> None:
        """Choose the document's category, compute its fields, and record the change."""
        doc.fields = self._fields(doc, domain)
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
                    doc.notes.append("no `domain` in the front matter; grouped by folder.")
            cat_id, name = (
                self._resolve_category(ref)
                if ref is not None
                else self._folder_category(doc, common)
            )
            doc.category = cat_id
            if name is not None:
                self._plan_for(cat_id, new_name=name)
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

    def _fields(self, doc: _Doc, domain: str | None) -> dict[str, Any]:
        """The object's fields (on-disk keys, file order) from front matter, text and options."""
        meta = dict(doc.front.meta)
        consumed = {"id", "title"}
        fields: dict[str, Any] = {"id": doc.object_id}
        fallback = humanize(doc.parts[-1])
        title = document_title(meta, doc.front.body, fallback, kind=doc.kind)
        if title != fallback or doc.existing is None or not doc.existing.title:
            fields["title"] = title
        dom = domain if domain is not None else _scalar(meta.get("domain"))
        if dom is not None:
            fields["domain"] = dom
        consumed.add("domain")
        fields["path"] = doc.rel
        tags = _tags(meta.get("tags"))
        if tags is not None:
            fields["tags"] = tags
            consumed.add("tags")
        for key in ("author", "authors"):
            author = _author(meta.get(key))
            if author is not None:
                fields["author"] = author
                consumed.add(key)
                break
        for target, keys in (("created", _CREATED_KEYS), ("updated", _UPDATED_KEYS)):
            for key in keys:
                if key not in meta:
                    continue
                value = _date(meta[key])
                if value is None:
                    doc.notes.append(
                        f"front matter {key}: {meta[key]!r} is not a date (YYYY-MM-DD); kept "
                        "in metadata."
                    )
                    continue
                fields[target] = value
                consumed.add(key)
                break
        for target, keys in (("summary", ("summary", "description")), ("url", ("url",))):
            for key in keys:
                value = _scalar(meta.get(key))
                if value is not None:
                    fields[target] = value
                    consumed.add(key)
                    break
        extra = {k: v for k, v in meta.items() if k not in consumed}
        if extra:
            fields["metadata"] = extra
        return fields

    def _record(self, doc: _Doc) -> None:
        """Compare with the existing object and remember the create/update for writing."""
        plan = self._plan_for(doc.category)
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
        self.items.append(
            r.ImportItem(
                path=doc.rel,
                object_id=doc.object_id,
                category=doc.category,
                action=action,
                reason=" ".join(doc.notes) or None,
            )
        )

    def _plan_for(self, cat_id: str, *, new_name: str | None = None) -> _CategoryPlan:
        cat = self.project.category_by_id.get(cat_id)
        origin = cat.origin if cat is not None and cat.origin else NEW_CATEGORY_FILE
        plans = self.plans.setdefault(origin, {})
        plan = plans.get(cat_id)
        if plan is None:
            plan = plans[cat_id] = _CategoryPlan(cat_id, name=new_name if cat is None else None)
        return plan

    # ------------------------------------------------------------------ references
    def link(self, docs: list[_Doc], *, link: bool) -> list[dict[str, Any]]:
        """Report every reference; with `link`, same-category ones become morphisms."""
        imported = {item.object_id for item in self.items if item.action != "skipped"}
        docs = [d for d in docs if d.object_id in imported]
        paths = {rel: obj.id for rel, obj in self.by_path.items()}
        paths.update({d.rel: d.object_id for d in docs})
        wiki = _WikiIndex(self.project, docs)
        existing_links: dict[tuple[str, str], str] = {}
        for cat in self.project.categories:
            for mor in cat.morphisms:
                if mor.name == REFERENCES:
                    existing_links.setdefault((mor.source, mor.target), mor.id)
        planned: dict[tuple[str, str], str] = {}
        used_ids = set(self.project.morphism_by_id)
        out: list[dict[str, Any]] = []
        for doc in docs:
            for ref in extract_references(doc.text, kind=doc.kind):
                entry = self._resolve(doc, ref, paths, wiki)
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
                        planned[key] = self._add_morphism(doc, target, used_ids)
                    entry["status"] = "linked"
                    entry["morphism"] = planned[key]
        return out

    def _resolve(
        self, doc: _Doc, ref: Reference, paths: dict[str, str], wiki: _WikiIndex
    ) -> dict[str, Any]:
        target: str | None = None
        if ref.kind == "object":
            if ref.target in self.project.object_by_id or ref.target in self.object_category:
                target = ref.target
        elif ref.kind == "link":
            rel = _link_path(doc.rel, ref.target)
            target = paths.get(rel) if rel is not None else None
        elif ref.kind == "wiki":
            target = wiki.find(ref.target)
        elif ref.target in self.project.morphism_by_id:
            target = ref.target
        if ref.kind == "morphism":
            category = self.project.category_of_morphism.get(target) if target else None
        else:
            category = (
                self.object_category.get(target) or self.project.category_of_object.get(target)
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

    def _add_morphism(self, doc: _Doc, target: str, used: set[str]) -> str:
        base = slugify(f"{doc.object_id}-{REFERENCES}-{target}") or REFERENCES
        ident, n = base, 2
        while ident in used:
            ident, n = f"{base}-{n}", n + 1
        used.add(ident)
        mor = {"id": ident, "name": REFERENCES, "source": doc.object_id, "target": target}
        Morphism.model_validate(mor)
        self._plan_for(doc.category).new_morphisms.append(mor)
        self.morphisms_created.append(ident)
        return ident

    # ------------------------------------------------------------------ writing
    def has_changes(self) -> bool:
        return any(not plan.empty() for plans in self.plans.values() for plan in plans.values())

    def write(self) -> list[str]:
        """Apply the plans file by file; each file is checked before it replaces the old one."""
        if stamp(self.root) != self.project.fingerprint:
            raise CatDocError(
                VALIDATION_ERROR,
                "The model's YAML files changed while the import was being planned.",
                "Run the import again; nothing was written.",
            )
        written: list[str] = []
        for origin in sorted(self.plans):
            plans = [p for p in self.plans[origin].values() if not p.empty()]
            if not plans:
                continue
            edit_yaml(
                self.root / origin,
                lambda doc, plans=plans, origin=origin: _apply(doc, plans, origin),
                empty=CommentedMap(),
            )
            written.append(origin)
        return written


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


# ---------------------------------------------------------------------------------- values
def _scalar(value: Any) -> str | None:
    """A front matter value as text (numbers too); None for missing, empty or structured values."""
    if isinstance(value, bool) or value is None or isinstance(value, dict | list):
        return None
    text = str(value).strip()
    return text or None


def _tags(value: Any) -> list[str] | None:
    if isinstance(value, list):
        tags = [t for t in (_scalar(v) for v in value) if t]
    elif isinstance(value, str):
        tags = [t for t in re.split(r"[,\s]+" if "," not in value else r"\s*,\s*", value) if t]
    else:
        return None
    return list(dict.fromkeys(tags))


def _author(value: Any) -> str | None:
    if isinstance(value, list):
        names = [n for n in (_author(v) for v in value) if n]
        return ", ".join(names) or None
    if isinstance(value, dict):
        return _scalar(value.get("name"))
    return _scalar(value)


def _date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def _changes(existing: DocObject, fields: dict[str, Any]) -> dict[str, Any]:
    """The fields whose value differs from the existing object (nothing is ever removed)."""
    changes: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "id":
            continue
        if key == "path":
            if existing.path is None or os.path.normpath(existing.path) != value:
                changes[key] = value
            continue
        if key == "metadata":
            delta = {k: v for k, v in value.items() if existing.metadata.get(k, _MISSING) != v}
            if delta:
                changes[key] = delta
            continue
        if getattr(existing, key) != value:
            changes[key] = value
    return changes


_MISSING = object()


# ---------------------------------------------------------------------------------- YAML edits
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
