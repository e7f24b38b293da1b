"""Renaming an entity: its id changes, and so does every reference to it in the model."""

from __future__ import annotations

from typing import Any

from catdoc.documents import read_document, rename_mentions, sniff_kind
from catdoc.edit.base import (
    EditBase,
    EntityKind,
)
from catdoc.edit.nodes import (
    flat,
    plain_path,
    rename_in_mapping,
    rename_in_paths,
    rename_value,
)
from catdoc.errors import CatDocError
from catdoc.fingerprints import text_fingerprint
from catdoc.model import as_path
from catdoc.project_files import resolve_inside


class RenameOperations(EditBase):
    """Renaming any entity with every reference to it."""

    def rename(self, old: str, new: str, kind: EntityKind | None = None) -> str | None:
        """Give an object, morphism, category, functor or natural transformation a new id and
        update every reference to it in the model; returns the kind renamed (None when it has
        that id already: nothing changes). `kind` says which when two kinds share the id."""
        kind = self._kind_of(old, kind)
        if old == new:
            return None
        if kind == "object":
            self._rename_object(old, new)
        elif kind == "morphism":
            self._rename_morphism(old, new)
        elif kind == "category":
            self._rename_category(old, new)
        elif kind == "functor":
            self._rename_functor(old, new)
        else:
            self._check_new_id("natural transformation", new, self._index.nats)
            self._nat_node(old)["id"] = new
            self.reviews.renamed("natural transformation", old, new)
            self._rekey(self._index.nats, old, new)
            self._rekey(self._index.nat_file, old, new)
            self._renamed("natural transformation", old, new)
        return kind

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
        self.reviews.renamed(
            "object", old, new, functors=tuple(self._index.functors), nats=tuple(self._index.nats)
        )
        for mor_id, mor in self._index.morphisms.items():
            if mor.category != cat_id or old not in (mor.source, mor.target):
                continue
            node = self._item(cat_id, "morphisms", mor_id)
            for end in ("source", "target"):
                if str(node.get(end)) == old:
                    node[end] = new
            mor.source = new if mor.source == old else mor.source
            mor.target = new if mor.target == old else mor.target
        for fun_id, (source, target) in self._index.functors.items():
            objects = self._functor_view(fun_id)[0] if cat_id in (source, target) else {}
            if any(old in (key, str(value)) for key, value in objects.items()):
                mapping = self._functor_node(fun_id)["objectMapping"]
                rename_in_mapping(mapping, old, new, keys=source == cat_id, values=target == cat_id)
        for nat_id, (source_fun, _) in self._index.nats.items():
            if self._index.functors.get(source_fun, ("", ""))[0] != cat_id:
                continue
            if old in self._components_view(nat_id):
                components = self._nat_node(nat_id)["components"]
                rename_in_mapping(components, old, new, keys=True, values=False)
        self._rekey(self._index.object_category, old, new)
        self._rename_in_documents("@", old, new)
        self._renamed("object", old, new)

    def _rename_morphism(self, old: str, new: str) -> None:
        self._check_new_id("morphism", new, self._index.morphisms)
        mor = self._index.morphisms[old]
        self._item(mor.category, "morphisms", old)["id"] = new
        self.reviews.renamed("morphism", old, new, functors=tuple(self._index.functors))
        if any(old in flat(eq) for eq in self._equations_view(mor.category)):
            for equation in self._category_node(mor.category).get("equations") or []:
                rename_in_paths(equation, old, new)
        for fun_id, (source, target) in self._index.functors.items():
            if mor.category not in (source, target):
                continue
            morphisms = self._functor_view(fun_id)[1]
            named = old in morphisms and source == mor.category
            used = target == mor.category and any(
                old in as_path(plain_path(value)) for value in morphisms.values()
            )
            if not (named or used):
                continue
            mapping = self._functor_node(fun_id)["morphismMapping"]
            if named:
                rename_in_mapping(mapping, old, new, keys=True, values=False)
            if used:
                for key in list(mapping):
                    mapping[key] = rename_value(mapping[key], old, new)
        for nat_id, (source_fun, _) in self._index.nats.items():
            if self._index.functors.get(source_fun, ("", ""))[1] != mor.category:
                continue
            components = self._components_view(nat_id)
            if any(old in as_path(plain_path(value)) for value in components.values()):
                node = self._nat_node(nat_id)["components"]
                for key in list(node):
                    node[key] = rename_value(node[key], old, new)
        self._rekey(self._index.morphisms, old, new)
        self._rename_in_documents("#", old, new)
        self._renamed("morphism", old, new)

    def _rename_in_documents(self, sigil: str, old: str, new: str) -> None:
        """Mentions of the old id in the documents (`@id`, `#id`, a front matter `id:`) follow,
        in files and in inline `content`; a file whose bytes are not exactly the text read
        (CR line ends, a byte order mark) is left alone rather than rewritten."""
        needle = sigil + old
        for obj in self.project.object_by_id.values():
            current = new if obj.id == old and sigil == "@" else obj.id
            if obj.path:
                try:
                    path = resolve_inside(self.root, obj.path)
                    text = self.documents.get(path) or read_document(path, obj.path)
                except CatDocError:
                    continue
                if needle not in text and not (sigil == "@" and obj.id == old):
                    continue
                renamed = rename_mentions(
                    text, old, new, kind=sniff_kind(obj.path, text), sigil=sigil
                )
                untouched = path in self.documents or path.read_bytes() == text.encode()
                if renamed != text and untouched:
                    self.documents[path] = renamed
                    self.reviews.carried(current, text_fingerprint(text), text_fingerprint(renamed))
                    self._note("document", obj.path, "updated", f"{needle} → {sigil}{new}")
            elif obj.content and needle in obj.content:
                home = self._index.object_category.get(current)
                node = self._item(home, "objects", current) if home else None
                if node is not None and isinstance(node.get("content"), str):
                    before = str(node["content"])
                    node["content"] = rename_mentions(before, old, new, sigil=sigil)
                    self.reviews.carried(
                        current, text_fingerprint(before), text_fingerprint(node["content"])
                    )

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
        self.reviews.renamed("functor", old, new)
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
