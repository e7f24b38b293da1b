"""The edit operations on the model: every change to `.catdoc/` is a sequence of these.

A `ModelEdit` works on one loaded project inside one transaction (see `catdoc.edit.transaction`).
Each operation first checks the change against the model as it stands after the previous
operations (an index kept up to date as they go) and refuses a bad one with the validator's own
code (`CAT_DANGLING_SOURCE`, `FUN_OBJECT_TARGET_MISSING`, `DUPLICATE_ID` …) before anything is
written; then it changes the ruamel nodes of the entries it touches, so comments and key order
stay as they were.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from catdoc.edit.entries import EntryFile
from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError, closest
from catdoc.model import DocObject, PathSpec, as_path
from catdoc.project import CATDOC_DIR, CONFIG_FILE, MODEL_FILE, Project, resolve_inside

DEFAULT_FILE = f"{CATDOC_DIR}/{MODEL_FILE}"
MAX_ID_LENGTH = 200
_ID = re.compile(r"[^\W][\w.\-/:+]*")
IN_USE = "IN_USE"

OBJECT_FIELDS = (
    "title",
    "domain",
    "path",
    "content",
    "tags",
    "author",
    "created",
    "updated",
    "summary",
    "url",
    "metadata",
)
CATEGORY_FIELDS = ("name", "description", "aliases", "parent", "related", "semantics")


@dataclass
class Change:
    """What one operation did to one entity."""

    kind: str
    id: str
    action: str  # created | updated | removed | renamed
    detail: str = ""


@dataclass
class _Mor:
    category: str
    source: str
    target: str


@dataclass
class _Index:
    """Where everything is, kept current as operations run."""

    category_file: dict[str, str] = field(default_factory=dict)
    functor_file: dict[str, str] = field(default_factory=dict)
    nat_file: dict[str, str] = field(default_factory=dict)
    object_category: dict[str, str] = field(default_factory=dict)
    morphisms: dict[str, _Mor] = field(default_factory=dict)
    functors: dict[str, tuple[str, str]] = field(default_factory=dict)
    nats: dict[str, tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, project: Project) -> _Index:
        index = cls()
        for cat in project.categories:
            index.category_file.setdefault(cat.id, cat.origin or DEFAULT_FILE)
        index.object_category = dict(project.category_of_object)
        for mor_id, cat_id in project.category_of_morphism.items():
            mor = project.morphism_by_id[mor_id]
            index.morphisms[mor_id] = _Mor(cat_id, mor.source, mor.target)
        for fun in project.functor_by_id.values():
            index.functor_file[fun.id] = fun.origin or DEFAULT_FILE
            index.functors[fun.id] = (fun.source_category, fun.target_category)
        for nat in project.nat_by_id.values():
            index.nat_file[nat.id] = nat.origin or DEFAULT_FILE
            index.nats[nat.id] = (nat.source_functor, nat.target_functor)
        return index


class ModelEdit:
    """The operations of one transaction. Faces never build one: they call the service."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.root = project.root
        self.changes: list[Change] = []
        self.touched: set[str] = set()
        self.documents: dict[Path, str] = {}
        self._files: dict[str, EntryFile] = {}
        self._index = _Index.of(project)

    # ------------------------------------------------------------------ files
    def _file(self, rel: str) -> EntryFile:
        if rel not in self._files:
            path = self.root / rel
            text = path.read_text(encoding="utf-8") if path.is_file() else ""
            self._files[rel] = EntryFile.open(rel, text)
        return self._files[rel]

    def rendered(self) -> dict[str, str]:
        """Project-relative model file → new text, for every file that changed."""
        out = {}
        for rel, edited in self._files.items():
            text = edited.render()
            if text is not None:
                out[rel] = text
        return out

    def _entry(self, section: str, ident: str, rel: str) -> tuple[EntryFile, Any]:
        edited = self._file(rel)
        node = edited.entry(section, ident)
        if node is None:
            raise CatDocError(
                VALIDATION_ERROR,
                f"{rel}: {section} entry {ident!r} was not found in the file as loaded.",
                "The file changed meanwhile; run the command again.",
            )
        return edited, node

    def _category_node(self, cat_id: str) -> Any:
        return self._entry("categories", cat_id, self._index.category_file[cat_id])[1]

    def _functor_node(self, fun_id: str) -> Any:
        return self._entry("functors", fun_id, self._index.functor_file[fun_id])[1]

    def _nat_node(self, nat_id: str) -> Any:
        return self._entry("naturalTransformations", nat_id, self._index.nat_file[nat_id])[1]

    def _note(self, kind: str, ident: str, action: str, detail: str = "") -> None:
        self.changes.append(Change(kind, ident, action, detail))
        self.touched.add(ident)

    # ------------------------------------------------------------------ checks
    def _check_new_id(self, kind: str, ident: str, taken: Iterable[str]) -> None:
        if not isinstance(ident, str) or not ident:
            raise CatDocError(VALIDATION_ERROR, f"A {kind} id must be a non-empty string.")
        if len(ident) > MAX_ID_LENGTH or not _ID.fullmatch(ident):
            raise CatDocError(
                VALIDATION_ERROR,
                f"{kind.capitalize()} id {ident[:80]!r} is not allowed: use letters, digits and "
                f"`_ . - / : +`, starting with a letter, digit or `_`, at most {MAX_ID_LENGTH} "
                "characters.",
                "Choose an id like 'req-refund' or 'REQ_012'.",
            )
        if ident in taken:
            raise CatDocError(
                "DUPLICATE_ID",
                f"A {kind} with id {ident!r} already exists; ids of {kind}s are unique across "
                "the project.",
                f"Choose another id, or edit the existing {kind}.",
            )

    def _need_category(self, cat_id: str) -> None:
        if cat_id not in self._index.category_file:
            raise _missing("Category", cat_id, self._index.category_file)

    def _need_object(self, obj_id: str) -> str:
        if obj_id not in self._index.object_category:
            raise _missing("Object", obj_id, self._index.object_category)
        return self._index.object_category[obj_id]

    def _need_morphism(self, mor_id: str) -> _Mor:
        if mor_id not in self._index.morphisms:
            raise _missing("Morphism", mor_id, self._index.morphisms)
        return self._index.morphisms[mor_id]

    def _need_functor(self, fun_id: str) -> tuple[str, str]:
        if fun_id not in self._index.functors:
            raise _missing("Functor", fun_id, self._index.functors)
        return self._index.functors[fun_id]

    def _need_nat(self, nat_id: str) -> tuple[str, str]:
        if nat_id not in self._index.nats:
            raise _missing("Natural transformation", nat_id, self._index.nats)
        return self._index.nats[nat_id]

    def _check_path(self, spec: PathSpec, category: str, code_unknown: str, what: str) -> None:
        """Every step is a morphism of `category`, and consecutive steps meet."""
        steps = as_path(spec)
        previous: _Mor | None = None
        for step in steps:
            mor = self._index.morphisms.get(step)
            if mor is None or mor.category != category:
                raise CatDocError(
                    code_unknown,
                    f"{what}: {step!r} is not a morphism of category {category!r}.",
                    f"Use morphism ids of {category!r} (catdoc_list_morphisms / "
                    "`catdoc list morphisms`), or [] for the identity.",
                )
            if previous is not None and previous.target != mor.source:
                raise CatDocError(
                    code_unknown.split("_")[0] + "_IMAGE_NOT_COMPOSABLE"
                    if code_unknown.startswith("FUN")
                    else "NAT_COMPONENT_NOT_COMPOSABLE",
                    f"{what}: the path {steps} does not compose: a step ends at "
                    f"{previous.target!r} but the next starts at {mor.source!r}.",
                    "Give the steps in diagrammatic order (first step first), each starting "
                    "where the previous one ends.",
                )
            previous = mor

    # ------------------------------------------------------------------ categories
    def upsert_category(
        self, category_id: str, fields: Mapping[str, Any], *, file: str | None = None
    ) -> None:
        """Create the category, or update the given header fields (a None value removes one)."""
        _only(fields, CATEGORY_FIELDS, "category")
        if "semantics" in fields and fields["semantics"] not in (None, "free", "thin"):
            raise CatDocError(
                VALIDATION_ERROR,
                f"semantics must be 'free' or 'thin', not {fields['semantics']!r}.",
                "free: paths are equal only by the category's equations; thin: all parallel "
                "paths are equal.",
            )
        parent = fields.get("parent")
        if parent is not None:
            self._need_category(parent)
        exists = category_id in self._index.category_file
        if not exists:
            self._check_new_id("category", category_id, ())
            rel = self._target_file(file)
            node = CommentedMap()
            node["id"] = category_id
            _set_fields(node, fields, CATEGORY_FIELDS)
            self._file(rel).append("categories", node)
            self._index.category_file[category_id] = rel
            self._note("category", category_id, "created")
            return
        node = self._category_node(category_id)
        if _set_fields(node, fields, CATEGORY_FIELDS):
            self._note("category", category_id, "updated", ", ".join(sorted(fields)))
            return

    def remove_category(self, category_id: str) -> None:
        """Remove an empty category that no functor and no other category refers to."""
        self._need_category(category_id)
        users = [f for f, (s, t) in self._index.functors.items() if category_id in (s, t)]
        members = [o for o, c in self._index.object_category.items() if c == category_id]
        if users or members:
            raise CatDocError(
                IN_USE,
                f"Category {category_id!r} still has {len(members)} object(s) and is used by "
                f"functor(s) {users}; nothing was removed.",
                "Remove its objects and the functors that use it first.",
            )
        rel = self._index.category_file.pop(category_id)
        self._file(rel).remove("categories", category_id)
        self._note("category", category_id, "removed")

    def _target_file(self, file: str | None) -> str:
        if file is None:
            return DEFAULT_FILE
        rel = resolve_inside(self.root, file).relative_to(self.root).as_posix()
        allowed = rel == DEFAULT_FILE or (
            rel.startswith(f"{CATDOC_DIR}/categories/")
            and rel.count("/") == 2
            and rel.endswith((".yaml", ".yml"))
        )
        if not allowed:
            raise CatDocError(
                VALIDATION_ERROR,
                f"{file!r} is not a model file.",
                f"Use {DEFAULT_FILE} or .catdoc/categories/NAME.yaml.",
            )
        return rel

    # ------------------------------------------------------------------ objects
    def upsert_object(
        self,
        category_id: str,
        object_id: str,
        fields: Mapping[str, Any],
        *,
        content: str | None = None,
    ) -> None:
        """Create the object in the category or update the given fields (None removes a field;
        `metadata` is merged key by key). `content` writes the document file (at `path`, the
        object's path, or `docs/<category>/<id>.md`)."""
        _only(fields, OBJECT_FIELDS, "object")
        self._need_category(category_id)
        fields = dict(fields)
        home = self._index.object_category.get(object_id)
        if home is not None and home != category_id:
            raise CatDocError(
                "DUPLICATE_ID",
                f"Object {object_id!r} already exists in category {home!r}; an object belongs "
                "to one category.",
                f"Update it in {home!r}, or give the new object another id.",
            )
        existing = self._object_node(category_id, object_id) if home else None
        if content is not None:
            rel_path = fields.get("path") or (existing.get("path") if existing else None)
            fields["path"] = self._write_document(
                str(rel_path) if rel_path else f"docs/{category_id}/{object_id}.md", content
            )
        if "path" in fields and fields["path"] is not None:
            fields["path"] = self._document_path(str(fields["path"]))
        _check_object_fields(object_id, fields)
        if existing is None:
            self._check_new_id("object", object_id, self._index.object_category)
            node = CommentedMap()
            node["id"] = object_id
            _set_fields(node, fields, OBJECT_FIELDS)
            cat = self._category_node(category_id)
            _list_in(cat, "objects").append(node)
            self._index.object_category[object_id] = category_id
            self._note("object", object_id, "created", f"in {category_id}")
            return
        if _set_fields(existing, fields, OBJECT_FIELDS) or content is not None:
            self._note("object", object_id, "updated", ", ".join(sorted(fields)))
            return

    def _object_node(self, category_id: str, object_id: str) -> Any:
        cat = self._category_node(category_id)
        for obj in cat.get("objects") or []:
            if isinstance(obj, dict) and str(obj.get("id")) == object_id:
                return obj
        raise CatDocError(
            VALIDATION_ERROR,
            f"Object {object_id!r} was not found in category {category_id!r} as loaded.",
            "The file changed meanwhile; run the command again.",
        )

    def _document_path(self, user_path: str) -> str:
        """A document path as stored: project-relative, inside the project, not a model file."""
        target = resolve_inside(self.root, user_path)
        rel = target.relative_to(self.root.resolve()).as_posix()
        protected = (
            rel.startswith(f"{CATDOC_DIR}/cache/")
            or rel.startswith(f"{CATDOC_DIR}/categories/")
            or rel in (DEFAULT_FILE, f"{CATDOC_DIR}/{CONFIG_FILE}")
            or (
                rel.startswith(f"{CATDOC_DIR}/")
                and "/" not in rel[len(CATDOC_DIR) + 1 :]
                and not rel.endswith((".md", ".markdown", ".rst", ".txt"))
            )
        )
        if protected or rel == ".":
            raise CatDocError(
                "PATH_OUTSIDE_PROJECT",
                f"{user_path!r} is CatDoc's own file, not a document.",
                "Give the document a path in the project's docs, e.g. docs/requirements/x.md.",
            )
        return rel

    def _write_document(self, user_path: str, content: str) -> str:
        rel = self._document_path(user_path)
        target = self.root / rel
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise CatDocError(
                VALIDATION_ERROR,
                f"{rel} exists and is not a regular file; the document was not written.",
                "Choose another path.",
            )
        if "\0" in content:
            raise CatDocError(VALIDATION_ERROR, "Document content must not hold NUL bytes.")
        self.documents[target] = content
        return rel

    def remove_object(self, object_id: str, *, cascade: bool = False) -> None:
        """Remove the object; while morphisms, mappings or components use it, only with
        `cascade` (which removes them too)."""
        cat_id = self._need_object(object_id)
        morphisms = [
            m for m, mor in self._index.morphisms.items() if object_id in (mor.source, mor.target)
        ]
        uses = self._object_uses(object_id)
        if (morphisms or uses) and not cascade:
            described = [f"morphism {m}" for m in morphisms] + [u for u, _ in uses]
            raise CatDocError(
                IN_USE,
                f"Object {object_id!r} is still used by {', '.join(described[:10])}"
                + (f" and {len(described) - 10} more" if len(described) > 10 else "")
                + "; nothing was removed.",
                "Remove those first, or pass cascade (MCP) / --cascade (CLI) to remove them too.",
            )
        for mor_id in morphisms:
            self.remove_morphism(mor_id, cascade=True)
        for _, drop in self._object_uses(object_id):
            drop()
        cat = self._category_node(cat_id)
        objects = cat.get("objects")
        _remove_where(objects, lambda o: str(o.get("id")) == object_id)
        if not objects:
            del cat["objects"]
        del self._index.object_category[object_id]
        self._note("object", object_id, "removed", f"from {cat_id}")

    def _object_uses(self, object_id: str) -> list[tuple[str, Any]]:
        """(description, remover) for each mapping entry or component that names the object."""
        cat_id = self._index.object_category[object_id]
        uses: list[tuple[str, Any]] = []
        for fun_id, (source, target) in self._index.functors.items():
            if source == cat_id or target == cat_id:
                node = self._functor_node(fun_id)
                mapping = node.get("objectMapping") or {}
                keys = [k for k, v in mapping.items() if object_id in (str(k), str(v))]
                for key in keys:
                    uses.append(
                        (
                            f"functor {fun_id} ({key} ↦ {mapping[key]})",
                            lambda f=fun_id, k=key: self.set_mapping(f, objects={str(k): None}),
                        )
                    )
        for nat_id, (source_fun, _) in self._index.nats.items():
            if self._index.functors.get(source_fun, ("", ""))[0] != cat_id:
                continue
            node = self._nat_node(nat_id)
            if object_id in {str(k) for k in node.get("components") or {}}:
                uses.append(
                    (
                        f"natural transformation {nat_id} (component at {object_id})",
                        lambda n=nat_id: self.set_components(n, {object_id: None}),
                    )
                )
        return uses

    # ------------------------------------------------------------------ morphisms
    def add_morphism(
        self,
        category_id: str,
        source: str,
        target: str,
        *,
        name: str | None = None,
        morphism_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Add a generating morphism source → target of the category; returns its id."""
        self._need_category(category_id)
        for end, code in ((source, "CAT_DANGLING_SOURCE"), (target, "CAT_DANGLING_TARGET")):
            home = self._index.object_category.get(end)
            if home != category_id:
                where = f"is in category {home!r}" if home else "does not exist"
                raise CatDocError(
                    code,
                    f"Morphism {source} → {target}: object {end!r} {where}; a morphism joins "
                    f"two objects of one category ({category_id!r}).",
                    "Link documents of different categories with a functor mapping "
                    "(catdoc_set_mapping / `catdoc map`), or add the object to this category.",
                    closest(end, self._index.object_category),
                )
        meta = dict(metadata or {})
        identity = meta.get("isIdentity") is True or meta.get("identity") is True
        if identity and source != target:
            raise CatDocError(
                "CAT_IDENTITY_NOT_LOOP",
                f"An identity marker needs source = target, got {source} → {target}.",
                "Drop the identity marker: identities exist at every object by construction.",
            )
        if morphism_id is None:
            morphism_id = _fresh(_slug(f"{source}-{name or 'to'}-{target}"), self._index.morphisms)
        self._check_new_id("morphism", morphism_id, self._index.morphisms)
        node = CommentedMap()
        node["id"] = morphism_id
        if name is not None:
            node["name"] = name
        node["source"] = source
        node["target"] = target
        if meta:
            node["metadata"] = _to_yaml(meta)
        _list_in(self._category_node(category_id), "morphisms").append(node)
        self._index.morphisms[morphism_id] = _Mor(category_id, source, target)
        self._note("morphism", morphism_id, "created", f"{source} → {target} in {category_id}")
        return morphism_id

    def remove_morphism(self, morphism_id: str, *, cascade: bool = False) -> None:
        """Remove a morphism; while equations, mappings or components use it, only with
        `cascade` (which removes them too)."""
        mor = self._need_morphism(morphism_id)
        uses = self._morphism_uses(morphism_id, mor.category)
        if uses and not cascade:
            described = [u for u, _ in uses]
            raise CatDocError(
                IN_USE,
                f"Morphism {morphism_id!r} is still used by {', '.join(described[:10])}"
                + (f" and {len(described) - 10} more" if len(described) > 10 else "")
                + "; nothing was removed.",
                "Remove those first, or pass cascade (MCP) / --cascade (CLI) to remove them too.",
            )
        for _, drop in uses:
            drop()
        cat = self._category_node(mor.category)
        morphisms = cat.get("morphisms")
        _remove_where(morphisms, lambda m: str(m.get("id")) == morphism_id)
        if not morphisms:
            del cat["morphisms"]
        del self._index.morphisms[morphism_id]
        self._note("morphism", morphism_id, "removed", f"from {mor.category}")

    def _morphism_uses(self, morphism_id: str, cat_id: str) -> list[tuple[str, Any]]:
        uses: list[tuple[str, Any]] = []
        cat = self._category_node(cat_id)
        equations = cat.get("equations") or []
        if any(morphism_id in _flat(eq) for eq in equations):
            uses.append(
                (
                    f"equations of {cat_id}",
                    lambda: _remove_where(
                        cat["equations"], lambda eq: morphism_id in _flat(eq), plain=True
                    ),
                )
            )
        for fun_id, (source, target) in self._index.functors.items():
            if cat_id not in (source, target):
                continue
            mapping = self._functor_node(fun_id).get("morphismMapping") or {}
            for key, value in list(mapping.items()):
                if str(key) == morphism_id or morphism_id in as_path(_plain_path(value)):
                    uses.append(
                        (
                            f"functor {fun_id} (morphism {key})",
                            lambda f=fun_id, k=key: self.set_mapping(f, morphisms={str(k): None}),
                        )
                    )
        for nat_id, (source_fun, _) in self._index.nats.items():
            target_cat = self._index.functors.get(source_fun, ("", ""))[1]
            if target_cat != cat_id:
                continue
            components = self._nat_node(nat_id).get("components") or {}
            for key, value in list(components.items()):
                if morphism_id in as_path(_plain_path(value)):
                    uses.append(
                        (
                            f"natural transformation {nat_id} (component at {key})",
                            lambda n=nat_id, k=key: self.set_components(n, {str(k): None}),
                        )
                    )
        return uses

    def remove(self, ident: str, *, cascade: bool = False) -> str:
        """Remove whatever `ident` names; returns its kind."""
        if ident in self._index.object_category:
            self.remove_object(ident, cascade=cascade)
            return "object"
        if ident in self._index.morphisms:
            self.remove_morphism(ident, cascade=cascade)
            return "morphism"
        if ident in self._index.category_file:
            self.remove_category(ident)
            return "category"
        if ident in self._index.functors:
            self.remove_functor(ident)
            return "functor"
        if ident in self._index.nats:
            self.remove_natural_transformation(ident)
            return "natural transformation"
        raise _missing("Entity", ident, self._every_id())

    def _every_id(self) -> list[str]:
        return [
            *self._index.object_category,
            *self._index.morphisms,
            *self._index.category_file,
            *self._index.functors,
            *self._index.nats,
        ]

    # ------------------------------------------------------------------ renaming
    def rename(self, old: str, new: str) -> str:
        """Give an object, morphism, category, functor or natural transformation a new id and
        update every reference to it in the model; returns the kind renamed."""
        if old == new:
            raise CatDocError(VALIDATION_ERROR, f"{old!r} already has that id.")
        if old in self._index.object_category:
            self._rename_object(old, new)
            return "object"
        if old in self._index.morphisms:
            self._rename_morphism(old, new)
            return "morphism"
        if old in self._index.category_file:
            self._rename_category(old, new)
            return "category"
        if old in self._index.functors:
            self._rename_functor(old, new)
            return "functor"
        if old in self._index.nats:
            self._check_new_id("natural transformation", new, self._index.nats)
            self._nat_node(old)["id"] = new
            self._rekey(self._index.nats, old, new)
            self._rekey(self._index.nat_file, old, new)
            self._renamed("natural transformation", old, new)
            return "natural transformation"
        raise _missing("Entity", old, self._every_id())

    def _renamed(self, kind: str, old: str, new: str) -> None:
        self.touched.add(old)
        self._note(kind, new, "renamed", f"from {old}")

    @staticmethod
    def _rekey(table: dict[str, Any], old: str, new: str) -> None:
        table[new] = table.pop(old)

    def _rename_object(self, old: str, new: str) -> None:
        self._check_new_id("object", new, self._index.object_category)
        cat_id = self._index.object_category[old]
        self._object_node(cat_id, old)["id"] = new
        cat = self._category_node(cat_id)
        for mor in cat.get("morphisms") or []:
            for end in ("source", "target"):
                if str(mor.get(end)) == old:
                    mor[end] = new
        for mor in self._index.morphisms.values():
            if mor.source == old:
                mor.source = new
            if mor.target == old:
                mor.target = new
        for fun_id, (source, target) in self._index.functors.items():
            if cat_id not in (source, target):
                continue
            mapping = self._functor_node(fun_id).get("objectMapping")
            if isinstance(mapping, dict):
                _rename_in_mapping(
                    mapping, old, new, keys=source == cat_id, values=target == cat_id
                )
        for nat_id, (source_fun, _) in self._index.nats.items():
            if self._index.functors.get(source_fun, ("", ""))[0] == cat_id:
                components = self._nat_node(nat_id).get("components")
                if isinstance(components, dict):
                    _rename_in_mapping(components, old, new, keys=True, values=False)
        self._rekey(self._index.object_category, old, new)
        self._renamed("object", old, new)

    def _rename_morphism(self, old: str, new: str) -> None:
        self._check_new_id("morphism", new, self._index.morphisms)
        mor = self._index.morphisms[old]
        cat = self._category_node(mor.category)
        for node in cat.get("morphisms") or []:
            if str(node.get("id")) == old:
                node["id"] = new
                break
        for equation in cat.get("equations") or []:
            _rename_in_paths(equation, old, new)
        for fun_id, (source, target) in self._index.functors.items():
            if mor.category not in (source, target):
                continue
            mapping = self._functor_node(fun_id).get("morphismMapping")
            if isinstance(mapping, dict):
                if source == mor.category:
                    _rename_in_mapping(mapping, old, new, keys=True, values=False)
                if target == mor.category:
                    for key in list(mapping):
                        mapping[key] = _rename_value(mapping[key], old, new)
        for nat_id, (source_fun, _) in self._index.nats.items():
            if self._index.functors.get(source_fun, ("", ""))[1] != mor.category:
                continue
            components = self._nat_node(nat_id).get("components")
            if isinstance(components, dict):
                for key in list(components):
                    components[key] = _rename_value(components[key], old, new)
        self._rekey(self._index.morphisms, old, new)
        self._renamed("morphism", old, new)

    def _rename_category(self, old: str, new: str) -> None:
        self._check_new_id("category", new, self._index.category_file)
        self._category_node(old)["id"] = new
        for cat_id in list(self._index.category_file):
            if cat_id == old:
                continue
            cat = self.project.category_by_id.get(cat_id)
            if cat is not None and (cat.parent == old or old in cat.related):
                node = self._category_node(cat_id)
                if str(node.get("parent")) == old:
                    node["parent"] = new
                related = node.get("related")
                if isinstance(related, list):
                    for i, item in enumerate(related):
                        if str(item) == old:
                            related[i] = new
        for fun_id, (source, target) in list(self._index.functors.items()):
            if old in (source, target):
                node = self._functor_node(fun_id)
                for key in ("sourceCategory", "targetCategory"):
                    if str(node.get(key)) == old:
                        node[key] = new
                self._index.functors[fun_id] = (
                    new if source == old else source,
                    new if target == old else target,
                )
        for table in (self._index.object_category,):
            for key, value in table.items():
                if value == old:
                    table[key] = new
        for mor in self._index.morphisms.values():
            if mor.category == old:
                mor.category = new
        self._rekey(self._index.category_file, old, new)
        self._renamed("category", old, new)

    def _rename_functor(self, old: str, new: str) -> None:
        self._check_new_id("functor", new, self._index.functors)
        self._functor_node(old)["id"] = new
        for nat_id, (source, target) in list(self._index.nats.items()):
            if old in (source, target):
                node = self._nat_node(nat_id)
                for key in ("sourceFunctor", "targetFunctor"):
                    if str(node.get(key)) == old:
                        node[key] = new
                self._index.nats[nat_id] = (
                    new if source == old else source,
                    new if target == old else target,
                )
        self._rekey(self._index.functors, old, new)
        self._rekey(self._index.functor_file, old, new)
        self._renamed("functor", old, new)

    # ------------------------------------------------------------------ functors
    def upsert_functor(
        self,
        functor_id: str,
        *,
        name: str | None = None,
        source_category: str | None = None,
        target_category: str | None = None,
        file: str | None = None,
    ) -> None:
        """Create a functor (source and target categories required) or update its header."""
        exists = functor_id in self._index.functors
        for cat, code in (
            (source_category, "FUN_SOURCE_MISSING"),
            (target_category, "FUN_TARGET_MISSING"),
        ):
            if cat is not None and cat not in self._index.category_file:
                raise CatDocError(
                    code,
                    f"Category {cat!r} does not exist.",
                    "Create it first (catdoc_upsert_category), or use an existing category id.",
                    closest(cat, self._index.category_file),
                )
        if not exists:
            if source_category is None or target_category is None:
                raise CatDocError(
                    VALIDATION_ERROR,
                    f"A new functor needs sourceCategory and targetCategory ({functor_id!r} "
                    "does not exist yet).",
                    "Give both categories.",
                )
            self._check_new_id("functor", functor_id, self._index.functors)
            node = CommentedMap()
            node["id"] = functor_id
            if name is not None:
                node["name"] = name
            node["sourceCategory"] = source_category
            node["targetCategory"] = target_category
            node["objectMapping"] = _flow_map()
            node["morphismMapping"] = _flow_map()
            rel = self._target_file(file)
            self._file(rel).append("functors", node)
            self._index.functors[functor_id] = (source_category, target_category)
            self._index.functor_file[functor_id] = rel
            self._note("functor", functor_id, "created")
            return
        node = self._functor_node(functor_id)
        changed = _set_fields(
            node,
            {
                k: v
                for k, v in (
                    ("name", name),
                    ("sourceCategory", source_category),
                    ("targetCategory", target_category),
                )
                if v is not None
            },
            ("name", "sourceCategory", "targetCategory"),
        )
        source, target = self._index.functors[functor_id]
        self._index.functors[functor_id] = (source_category or source, target_category or target)
        if changed:
            self._note("functor", functor_id, "updated")
            return

    def remove_functor(self, functor_id: str) -> None:
        self._need_functor(functor_id)
        users = [n for n, (s, t) in self._index.nats.items() if functor_id in (s, t)]
        if users:
            raise CatDocError(
                IN_USE,
                f"Functor {functor_id!r} is used by natural transformation(s) {users}; nothing "
                "was removed.",
                "Remove those natural transformations first.",
            )
        rel = self._index.functor_file.pop(functor_id)
        self._file(rel).remove("functors", functor_id)
        del self._index.functors[functor_id]
        self._note("functor", functor_id, "removed")

    def set_mapping(
        self,
        functor_id: str,
        objects: Mapping[str, str | None] | None = None,
        morphisms: Mapping[str, PathSpec | None] | None = None,
    ) -> None:
        """Set (or, with None, remove) entries of the functor's object and morphism mappings."""
        source, target = self._need_functor(functor_id)
        objects, morphisms = dict(objects or {}), dict(morphisms or {})
        for src, tgt in objects.items():
            if self._index.object_category.get(src) != source:
                raise CatDocError(
                    "FUN_MAPPING_UNKNOWN_OBJECT",
                    f"Functor {functor_id}: {src!r} is not an object of its source category "
                    f"{source!r}.",
                    f"Map objects of {source!r}.",
                    closest(
                        src, [o for o, c in self._index.object_category.items() if c == source]
                    ),
                )
            if tgt is not None and self._index.object_category.get(tgt) != target:
                raise CatDocError(
                    "FUN_OBJECT_TARGET_MISSING",
                    f"Functor {functor_id}: {src} ↦ {tgt!r}, but {tgt!r} is not an object of the "
                    f"target category {target!r}.",
                    f"Map to an object of {target!r} (create it first if it is missing).",
                    closest(
                        tgt, [o for o, c in self._index.object_category.items() if c == target]
                    ),
                )
        for gen, value in morphisms.items():
            mor = self._index.morphisms.get(gen)
            if mor is None or mor.category != source:
                raise CatDocError(
                    "FUN_MAPPING_UNKNOWN_MORPHISM",
                    f"Functor {functor_id}: {gen!r} is not a morphism of its source category "
                    f"{source!r}.",
                    f"Map morphisms of {source!r}.",
                )
            if value is not None:
                self._check_path(
                    value, target, "FUN_IMAGE_UNKNOWN_MORPHISM", f"Functor {functor_id}: F({gen})"
                )
        node = self._functor_node(functor_id)
        changed = _set_entries(node, "objectMapping", objects)
        changed = _set_entries(node, "morphismMapping", morphisms) or changed
        if changed:
            detail = ", ".join(
                [f"{k} ↦ {v}" for k, v in objects.items()]
                + [f"{k} ↦ {v}" for k, v in morphisms.items()]
            )
            self._note("functor", functor_id, "updated", detail[:500])

    # ------------------------------------------------------------------ natural transformations
    def upsert_natural_transformation(
        self,
        nat_id: str,
        *,
        name: str | None = None,
        source_functor: str | None = None,
        target_functor: str | None = None,
        file: str | None = None,
    ) -> None:
        """Create η: F ⇒ G (F and G parallel functors) or update its header."""
        exists = nat_id in self._index.nats
        old = self._index.nats.get(nat_id, (None, None))
        source_functor = source_functor or old[0]
        target_functor = target_functor or old[1]
        if source_functor is None or target_functor is None:
            raise CatDocError(
                VALIDATION_ERROR,
                f"A new natural transformation needs sourceFunctor and targetFunctor ({nat_id!r} "
                "does not exist yet).",
                "Give both functors.",
            )
        for fun, code in (
            (source_functor, "NAT_SOURCE_FUNCTOR_MISSING"),
            (target_functor, "NAT_TARGET_FUNCTOR_MISSING"),
        ):
            if fun not in self._index.functors:
                raise CatDocError(
                    code,
                    f"Functor {fun!r} does not exist.",
                    "Create it first (catdoc_upsert_functor), or use an existing functor id.",
                    closest(fun, self._index.functors),
                )
        if self._index.functors[source_functor] != self._index.functors[target_functor]:
            raise CatDocError(
                "NAT_NOT_PARALLEL",
                f"{source_functor} and {target_functor} are not parallel (they map "
                f"{self._index.functors[source_functor]} and "
                f"{self._index.functors[target_functor]}).",
                "A natural transformation relates two functors with the same source and "
                "target categories.",
            )
        if not exists:
            self._check_new_id("natural transformation", nat_id, self._index.nats)
            node = CommentedMap()
            node["id"] = nat_id
            if name is not None:
                node["name"] = name
            node["sourceFunctor"] = source_functor
            node["targetFunctor"] = target_functor
            node["components"] = _flow_map()
            rel = self._target_file(file)
            self._file(rel).append("naturalTransformations", node)
            self._index.nats[nat_id] = (source_functor, target_functor)
            self._index.nat_file[nat_id] = rel
            self._note("natural transformation", nat_id, "created")
            return
        node = self._nat_node(nat_id)
        updates = {"sourceFunctor": source_functor, "targetFunctor": target_functor}
        if name is not None:
            updates["name"] = name
        changed = _set_fields(node, updates, ("name", "sourceFunctor", "targetFunctor"))
        self._index.nats[nat_id] = (source_functor, target_functor)
        if changed:
            self._note("natural transformation", nat_id, "updated")
            return

    def remove_natural_transformation(self, nat_id: str) -> None:
        self._need_nat(nat_id)
        rel = self._index.nat_file.pop(nat_id)
        self._file(rel).remove("naturalTransformations", nat_id)
        del self._index.nats[nat_id]
        self._note("natural transformation", nat_id, "removed")

    def set_components(self, nat_id: str, components: Mapping[str, PathSpec | None]) -> None:
        """Set (or, with None, remove) components η_A: F(A) → G(A), as morphism ids or paths."""
        source_fun, _ = self._need_nat(nat_id)
        source_cat, target_cat = self._index.functors.get(source_fun, ("", ""))
        for obj, value in components.items():
            if self._index.object_category.get(obj) != source_cat:
                raise CatDocError(
                    "NAT_COMPONENT_UNKNOWN_OBJECT",
                    f"Natural transformation {nat_id}: {obj!r} is not an object of "
                    f"{source_cat!r}, the source category of {source_fun}.",
                    f"Give components at objects of {source_cat!r}.",
                    closest(
                        obj, [o for o, c in self._index.object_category.items() if c == source_cat]
                    ),
                )
            if value is not None:
                self._check_path(
                    value,
                    target_cat,
                    "NAT_COMPONENT_UNKNOWN_MORPHISM",
                    f"Natural transformation {nat_id}: component at {obj}",
                )
        if _set_entries(self._nat_node(nat_id), "components", dict(components)):
            detail = ", ".join(f"{k} ↦ {v}" for k, v in components.items())
            self._note("natural transformation", nat_id, "updated", detail[:500])


# ---------------------------------------------------------------------- helpers
def _missing(kind: str, ident: str, existing: Iterable[str]) -> CatDocError:
    return CatDocError(
        NOT_FOUND,
        f"{kind} not found: {ident!r}.",
        f"Use an existing {kind.lower()} id.",
        closest(str(ident), existing),
    )


def _only(fields: Mapping[str, Any], allowed: tuple[str, ...], kind: str) -> None:
    unknown = sorted(set(fields) - set(allowed))
    if unknown:
        raise CatDocError(
            VALIDATION_ERROR,
            f"Unknown {kind} field(s): {', '.join(unknown)}.",
            f"The {kind} fields are: {', '.join(allowed)}.",
        )


def _check_object_fields(object_id: str, fields: Mapping[str, Any]) -> None:
    """The fields must make a valid object (types as in the file format)."""
    from pydantic import ValidationError

    probe = {k: v for k, v in fields.items() if v is not None and k != "metadata"}
    try:
        DocObject.model_validate({"id": object_id, **probe})
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise CatDocError(
            VALIDATION_ERROR,
            f"Object {object_id!r}: field {where!r}: {err['msg']}.",
            "Give the field the type the file format expects (see the README's format reference).",
        ) from None
    metadata = fields.get("metadata")
    if metadata is not None and not isinstance(metadata, Mapping):
        raise CatDocError(VALIDATION_ERROR, "metadata must be a mapping of keys to values.")


def _to_yaml(value: Any) -> Any:
    """Plain data as ruamel nodes; short lists of scalars in flow style."""
    if isinstance(value, Mapping):
        node = CommentedMap()
        for key, item in value.items():
            node[str(key)] = _to_yaml(item)
        return node
    if isinstance(value, list | tuple):
        seq = CommentedSeq(_to_yaml(v) for v in value)
        if all(not isinstance(v, Mapping | list | tuple) for v in value):
            seq.fa.set_flow_style()
        return seq
    return value


def _flow_map() -> CommentedMap:
    node = CommentedMap()
    node.fa.set_flow_style()
    return node


def _set_fields(node: Any, fields: Mapping[str, Any], order: tuple[str, ...]) -> bool:
    """Set fields on an entry node (None removes; `metadata` merges); True if anything changed.
    New keys go in the format's order relative to the keys already there."""
    changed = False
    for key in order:
        if key not in fields or key == "content":
            continue
        value = fields[key]
        if key == "metadata" and value is not None:
            meta = node.get("metadata")
            if not isinstance(meta, dict):
                meta = CommentedMap()
            for meta_key, meta_value in value.items():
                if meta_value is None:
                    if meta_key in meta:
                        del meta[meta_key]
                        changed = True
                elif _plain(meta.get(meta_key)) != _plain(meta_value) or meta_key not in meta:
                    meta[meta_key] = _to_yaml(meta_value)
                    changed = True
            if meta and "metadata" not in node:
                _insert(node, "metadata", meta, order)
            elif not meta and "metadata" in node:
                del node["metadata"]
            continue
        if value is None:
            if key in node:
                del node[key]
                changed = True
            continue
        if key in node and _plain(node[key]) == _plain(value):
            continue
        if key in node:
            node[key] = _to_yaml(value)
        else:
            _insert(node, key, _to_yaml(value), order)
        changed = True
    return changed


def _insert(node: Any, key: str, value: Any, order: tuple[str, ...]) -> None:
    """Insert before the first existing key that comes later in `order`, else at the end."""
    later = order[order.index(key) + 1 :] if key in order else ()
    keys = list(node)
    for position, existing in enumerate(keys):
        if existing in later or existing in ("objects", "morphisms", "equations"):
            node.insert(position, key, value)
            return
    node[key] = value


def _set_entries(node: Any, key: str, entries: Mapping[str, Any]) -> bool:
    if not entries:
        return False
    mapping = node.get(key)
    if not isinstance(mapping, dict):
        mapping = _flow_map()
        node[key] = mapping
    changed = False
    for entry_key, value in entries.items():
        existing_key = next((k for k in mapping if str(k) == entry_key), entry_key)
        if value is None:
            if existing_key in mapping:
                del mapping[existing_key]
                changed = True
            continue
        new = _to_yaml(value)
        if existing_key in mapping and _plain(mapping[existing_key]) == _plain(new):
            continue
        mapping[existing_key] = new
        changed = True
    return changed


def _list_in(node: Any, key: str) -> Any:
    if not isinstance(node.get(key), list):
        node[key] = CommentedSeq()
    return node[key]


def _remove_where(seq: Any, doomed: Any, *, plain: bool = False) -> None:
    """Remove the items of a ruamel sequence for which `doomed(item)` holds, in place."""
    for index in range(len(seq) - 1, -1, -1):
        item = seq[index]
        if (plain or isinstance(item, dict)) and doomed(item):
            del seq[index]


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def _plain_path(value: Any) -> PathSpec:
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return str(value)


def _flat(equation: Any) -> list[str]:
    out: list[str] = []
    for side in equation if isinstance(equation, list | tuple) else []:
        out += as_path(_plain_path(side))
    return out


def _rename_value(value: Any, old: str, new: str) -> Any:
    if isinstance(value, list):
        for i, step in enumerate(value):
            if str(step) == old:
                value[i] = new
        return value
    return new if str(value) == old else value


def _rename_in_paths(equation: Any, old: str, new: str) -> None:
    if isinstance(equation, list):
        for i, side in enumerate(equation):
            equation[i] = _rename_value(side, old, new)


def _rename_in_mapping(mapping: Any, old: str, new: str, *, keys: bool, values: bool) -> None:
    """Rename `old` among a ruamel mapping's keys (in place, keeping the position) and values."""
    for position, key in enumerate(list(mapping)):
        value = mapping[key]
        if values and str(value) == old:
            mapping[key] = new
            value = new
        if keys and str(key) == old:
            del mapping[key]
            mapping.insert(position, new, value)


def _slug(text: str) -> str:
    slug = re.sub(r"[^\w.\-/:+]+", "-", text).strip("-")
    return slug[:MAX_ID_LENGTH] or "morphism"


def _fresh(base: str, taken: Mapping[str, Any]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


__all__ = ["IN_USE", "Change", "ModelEdit"]
