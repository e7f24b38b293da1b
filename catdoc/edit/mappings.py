"""Edit operations on functors (and their mappings) and natural transformations (and their
components)."""

from __future__ import annotations

from collections.abc import Mapping

from catdoc.edit.base import (
    IN_USE,
    EditBase,
    new_entry,
)
from catdoc.edit.nodes import (
    flow_map,
    set_entries,
    set_fields,
)
from catdoc.errors import VALIDATION_ERROR, CatDocError, closest
from catdoc.model import PathSpec


class MappingOperations(EditBase):
    """Functors and natural transformations: headers, mappings, components."""

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
                    "Create it first (`catdoc add category ID`), or use an existing category id.",
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
            node = new_entry(
                functor_id,
                name,
                sourceCategory=source_category,
                targetCategory=target_category,
                objectMapping=flow_map(),
                morphismMapping=flow_map(),
            )
            rel = self._target_file(file)
            self._file(rel).append("functors", node)
            self._index.functors[functor_id] = (source_category, target_category)
            self._index.functor_file[functor_id] = rel
            self._note("functor", functor_id, "created")
            return
        node = self._functor_node(functor_id)
        changed = set_fields(
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
        self.reviews.dropped_owner("functor", functor_id)
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
        before_objects, before_morphisms = self._functor_view(functor_id)
        node = self._functor_node(functor_id)
        changed = set_entries(node, "objectMapping", objects)
        changed = set_entries(node, "morphismMapping", morphisms) or changed
        self.reviews.entries_set("object mapping", functor_id, before_objects, objects)
        self.reviews.entries_set("morphism mapping", functor_id, before_morphisms, morphisms)
        if changed:
            detail = ", ".join(
                [_entry_change(k, v) for k, v in objects.items()]
                + [_entry_change(k, v) for k, v in morphisms.items()]
            )
            self._note("functor", functor_id, "updated", detail[:500])

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
                    "Create it first (`catdoc add functor ID`), or use an existing functor id.",
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
            node = new_entry(
                nat_id,
                name,
                sourceFunctor=source_functor,
                targetFunctor=target_functor,
                components=flow_map(),
            )
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
        changed = set_fields(node, updates, ("name", "sourceFunctor", "targetFunctor"))
        self._index.nats[nat_id] = (source_functor, target_functor)
        if changed:
            self._note("natural transformation", nat_id, "updated")
            return

    def remove_natural_transformation(self, nat_id: str) -> None:
        self._need_nat(nat_id)
        rel = self._index.nat_file.pop(nat_id)
        self._file(rel).remove("naturalTransformations", nat_id)
        del self._index.nats[nat_id]
        self.reviews.dropped_owner("nat", nat_id)
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
        before = self._components_view(nat_id)
        self.reviews.entries_set("component", nat_id, before, components)
        if set_entries(self._nat_node(nat_id), "components", dict(components)):
            detail = ", ".join(_entry_change(k, v) for k, v in components.items())
            self._note("natural transformation", nat_id, "updated", detail[:500])


def _entry_change(key: str, value: PathSpec | None) -> str:
    """How a change of one mapping entry or component reads: `a ↦ b`, or `a removed`."""
    return f"{key} removed" if value is None else f"{key} ↦ {value}"
