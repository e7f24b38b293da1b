"""Edit operations on categories, their objects (documents) and their morphisms."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruamel.yaml.comments import CommentedMap

from catdoc.documents import content_version, read_object_text
from catdoc.edit.base import (
    CATEGORY_FIELDS,
    DEFAULT_FILE,
    IN_USE,
    OBJECT_FIELDS,
    EditBase,
    EntityKind,
    MorphismEnds,
    check_object_fields,
    fresh_id,
    in_use,
    new_entry,
    only_fields,
    slug,
)
from catdoc.edit.nodes import (
    flat,
    plain_path,
    remove_where,
    set_fields,
    to_yaml,
)
from catdoc.errors import CONFLICT, VALIDATION_ERROR, CatDocError, closest
from catdoc.model import as_path
from catdoc.project_files import CATDOC_DIR, CONFIG_FILE
from catdoc.review_links import LinkRef


class ObjectOperations(EditBase):
    """Categories, objects and morphisms: create, update, remove."""

    def upsert_category(
        self, category_id: str, fields: Mapping[str, Any], *, file: str | None = None
    ) -> None:
        """Create the category, or update the given header fields (a None value removes one)."""
        only_fields(fields, CATEGORY_FIELDS, "category")
        if "semantics" in fields and fields["semantics"] not in (None, "free", "thin"):
            raise CatDocError(
                VALIDATION_ERROR,
                f"semantics must be 'free' or 'thin', not {fields['semantics']!r}.",
                "free: paths are equal only by the category's equations; thin: all parallel "
                "paths are equal.",
            )
        parent = fields.get("parent")
        if parent is not None and str(parent) == category_id:
            raise CatDocError(
                VALIDATION_ERROR,
                f"Category {category_id!r} cannot be its own parent.",
                "Give the id of another category as its parent, or none.",
            )
        if parent is not None:
            self._need_category(parent)
        exists = category_id in self._index.category_file
        if not exists:
            self._check_new_id("category", category_id, ())
            rel = self._target_file(file)
            node = CommentedMap()
            node["id"] = category_id
            set_fields(node, fields, CATEGORY_FIELDS)
            self._file(rel).append("categories", node)
            self._index.category_file[category_id] = rel
            self._note("category", category_id, "created")
            return
        node = self._category_node(category_id)
        if set_fields(node, fields, CATEGORY_FIELDS):
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

    def upsert_object(
        self,
        category_id: str,
        object_id: str,
        fields: Mapping[str, Any],
        *,
        content: str | None = None,
        expected_content_version: str | None = None,
    ) -> None:
        """Create the object in the category or update the given fields (None removes a field;
        `metadata` is merged key by key). `content` writes the document file (at `path`, the
        object's path, or `docs/<category>/<id>.md`), only while the document's text has the
        `expected_content_version` when one is given."""
        only_fields(fields, OBJECT_FIELDS, "object")
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
        given = sorted({*fields, *(["content"] if content is not None else [])})
        if content is not None and expected_content_version is not None:
            self._check_content_version(object_id, expected_content_version)
        if content is not None:
            own = existing.get("path") if existing else None
            rel_path = fields.get("path") or own
            fields["path"] = self._write_document(
                str(rel_path) if rel_path else f"docs/{category_id}/{object_id}.md",
                content,
                self._own_document(own),
            )
        if "path" in fields and fields["path"] is not None:
            fields["path"] = self._document_path(str(fields["path"]))
        check_object_fields(object_id, fields)
        if existing is None:
            self._check_new_id("object", object_id, self._index.object_category)
            node = CommentedMap()
            node["id"] = object_id
            set_fields(node, fields, OBJECT_FIELDS)
            self._append_item(category_id, "objects", node)
            self._index.object_category[object_id] = category_id
            self._note("object", object_id, "created", f"in {category_id}")
            return
        if set_fields(existing, fields, OBJECT_FIELDS) or content is not None:
            self._note("object", object_id, "updated", ", ".join(given))
            return

    def _check_content_version(self, object_id: str, expected: str) -> None:
        """CONFLICT unless the object's document text is the one `expected` was read from."""
        obj = self.project.object_by_id.get(object_id)
        try:
            text = None if obj is None else read_object_text(self.root, obj)
        except CatDocError:
            text = None
        now = None if text is None else content_version(text)
        if now != expected:
            state = "has no text now" if now is None else f"is at {now!r} now"
            raise CatDocError(
                CONFLICT,
                f"The document of {object_id!r} changed since contentVersion {expected[:32]!r} "
                f"was read (it {state}); nothing was changed.",
                "Read the object again (catdoc show object, or catdoc_show_object), merge the "
                "change, and write again with the new contentVersion.",
            )

    def _object_node(self, category_id: str, object_id: str) -> Any:
        return self._item(category_id, "objects", object_id)

    def _document_path(self, user_path: str) -> str:
        """A document path as stored: project-relative, inside the project, not a model file."""
        target = self._inside(user_path)
        rel = target.relative_to(self._real_root).as_posix()
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

    def _own_document(self, path: object) -> str | None:
        """An object's document path as stored, or None (no path, or one now refused)."""
        if not path:
            return None
        try:
            return self._document_path(str(path))
        except CatDocError:
            return None

    def _write_document(self, user_path: str, content: str, own: str | None) -> str:
        """Write the document of an object whose document is `own` (None: it has none yet).
        A file that exists is written over only when it is that document: any other file there
        is somebody's (another object's document, a README, a build script)."""
        rel = self._document_path(user_path)
        target = self.root / rel
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise CatDocError(
                VALIDATION_ERROR,
                f"{rel} exists and is not a regular file; the document was not written.",
                "Choose another path.",
            )
        if rel != own and target.exists():
            raise CatDocError(
                VALIDATION_ERROR,
                f"{rel} exists and is not this object's document; it was not written over.",
                "Give the object that path without content to take the file as it is, or "
                "choose another path for the new text.",
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
            raise in_use(f"Object {object_id!r}", [f"morphism {m}" for m in morphisms] + uses)
        for mor_id in morphisms:
            self.remove_morphism(mor_id, cascade=True)
        for _, drop in self._object_uses(object_id):
            drop()
        self._remove_item(cat_id, "objects", object_id)
        del self._index.object_category[object_id]
        self._note("object", object_id, "removed", f"from {cat_id}")

    def _object_uses(self, object_id: str) -> list[tuple[str, Any]]:
        """(description, remover) for each mapping entry or component that names the object."""
        cat_id = self._index.object_category[object_id]
        uses: list[tuple[str, Any]] = []
        for fun_id, (source, target) in self._index.functors.items():
            if source == cat_id or target == cat_id:
                mapping = self._functor_view(fun_id)[0]
                keys = [k for k, v in mapping.items() if object_id in (k, str(v))]
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
            if object_id in self._components_view(nat_id):
                uses.append(
                    (
                        f"natural transformation {nat_id} (component at {object_id})",
                        lambda n=nat_id: self.set_components(n, {object_id: None}),
                    )
                )
        return uses

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
                    "(`catdoc map`), or add the object to this category.",
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
            morphism_id = fresh_id(slug(f"{source}-{name or 'to'}-{target}"), self._index.morphisms)
        self._check_new_id("morphism", morphism_id, self._index.morphisms)
        node = new_entry(morphism_id, name, source=source, target=target)
        if meta:
            node["metadata"] = to_yaml(meta)
        self._append_item(category_id, "morphisms", node)
        self._index.morphisms[morphism_id] = MorphismEnds(category_id, source, target)
        self.reviews.created(LinkRef("morphism", morphism_id))
        self._note("morphism", morphism_id, "created", f"{source} → {target} in {category_id}")
        return morphism_id

    def remove_morphism(self, morphism_id: str, *, cascade: bool = False) -> None:
        """Remove a morphism; while equations, mappings or components use it, only with
        `cascade` (which removes them too)."""
        mor = self._need_morphism(morphism_id)
        uses = self._morphism_uses(morphism_id, mor.category)
        if uses and not cascade:
            raise in_use(f"Morphism {morphism_id!r}", uses)
        for _, drop in uses:
            drop()
        self._remove_item(mor.category, "morphisms", morphism_id)
        del self._index.morphisms[morphism_id]
        self.reviews.dropped(LinkRef("morphism", morphism_id))
        self._note("morphism", morphism_id, "removed", f"from {mor.category}")

    def _morphism_uses(self, morphism_id: str, cat_id: str) -> list[tuple[str, Any]]:
        uses: list[tuple[str, Any]] = []
        if any(morphism_id in flat(eq) for eq in self._equations_view(cat_id)):
            uses.append(
                (
                    f"equations of {cat_id}",
                    lambda: remove_where(
                        self._category_node(cat_id), "equations", lambda eq: morphism_id in flat(eq)
                    ),
                )
            )
        for fun_id, (source, target) in self._index.functors.items():
            if cat_id not in (source, target):
                continue
            mapping = self._functor_view(fun_id)[1]
            for key, value in mapping.items():
                if key == morphism_id or morphism_id in as_path(plain_path(value)):
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
            for key, value in self._components_view(nat_id).items():
                if morphism_id in as_path(plain_path(value)):
                    uses.append(
                        (
                            f"natural transformation {nat_id} (component at {key})",
                            lambda n=nat_id, k=key: self.set_components(n, {str(k): None}),
                        )
                    )
        return uses

    def remove(self, ident: str, *, cascade: bool = False, kind: EntityKind | None = None) -> str:
        """Remove whatever `ident` names (of `kind`, when two kinds share the id); returns its
        kind."""
        kind = self._kind_of(ident, kind)
        if kind == "object":
            self.remove_object(ident, cascade=cascade)
        elif kind == "morphism":
            self.remove_morphism(ident, cascade=cascade)
        elif kind == "category":
            self.remove_category(ident)
        elif kind == "functor":
            self.remove_functor(ident)
        else:
            self.remove_natural_transformation(ident)
        return kind
