"""Review stamps inside the edit transaction: the `review` operation, and `finish_reviews`, which
turns an edit's intents into the new text of `.catdoc/reviews.yaml`.

`reviews.yaml` is written only here, so it shares the model's lock, all-or-nothing write and
journal: a crash leaves the stamps and the model files both before or both after an edit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from catdoc.edit.base import EditBase
from catdoc.edit.review_intents import Carry, Drop, Prune, Rename, StampLink
from catdoc.errors import NOT_FOUND, CatDocError, closest, quoted
from catdoc.fingerprints import fingerprints_for
from catdoc.model import DocObject, ModelFile
from catdoc.review_links import LinkRef, ends_of
from catdoc.reviews import Stamp, read_reviews, remember, render
from catdoc.suspects import ObjectPrints, stamp_of

if TYPE_CHECKING:
    from catdoc.edit.operations import ModelEdit

MAX_LISTED = 20
"""Links named in a review's change detail."""


class EditLinks:
    """`LinkData` of the model as an edit leaves it (the edit's index and mapping views)."""

    def __init__(self, edit: EditBase) -> None:
        self.edit = edit
        self._views: dict[str, dict[str, Any]] = {}

    def morphism_ends(self, morphism: str) -> tuple[str, str] | None:
        mor = self.edit._index.morphisms.get(morphism)
        return None if mor is None else (mor.source, mor.target)

    def object_mapping(self, functor: str) -> Mapping[str, Any] | None:
        if functor not in self.edit._index.functors:
            return None
        if functor not in self._views:
            self._views[functor] = self.edit._functor_view(functor)[0]
        return self._views[functor]

    def nat_functors(self, nat: str) -> tuple[str, str] | None:
        return self.edit._index.nats.get(nat)

    def links(self) -> Iterator[LinkRef]:
        """Every link of the model as edited."""
        index = self.edit._index
        for mor_id in index.morphisms:
            yield LinkRef("morphism", mor_id)
        for fun_id in index.functors:
            objects, morphisms = self.edit._functor_view(fun_id)
            for key in objects:
                yield LinkRef("object mapping", fun_id, key)
            for key in morphisms:
                yield LinkRef("morphism mapping", fun_id, key)
        for nat_id in index.nats:
            for key in self.edit._components_view(nat_id):
                yield LinkRef("component", nat_id, key)


class ReviewOperations(EditBase):
    """The review operation: stamp links as reviewed by a person."""

    def review(
        self, ids: Sequence[str] = (), *, everything: bool = False, by: str | None = None
    ) -> None:
        """Stamp the links `ids` name (a link key such as `morphism:f`, or a morphism, functor,
        natural transformation or object id: its link, its entries, its components, or every
        link at the object) — or, with `everything`, every link, dropping stamps of links that
        no longer exist."""
        links = EditLinks(self)
        refs = list(links.links()) if everything else self._named_links(ids, links)
        for ref in refs:
            self.reviews.reviewed(ref)
            self.touched.add(ref.owner)
        if everything:
            self.reviews.pruned()
        self.reviews.by = by

    def _named_links(self, ids: Sequence[str], links: EditLinks) -> list[LinkRef]:
        every = {ref.key: ref for ref in links.links()}
        chosen: dict[str, LinkRef] = {}
        for ident in ids:
            found = [every[ident]] if ident in every else self._links_of(ident, every, links)
            if not found and ident in self._every_id():
                raise CatDocError(
                    NOT_FOUND,
                    f"{quoted(ident)} has no links to review: no morphism, mapping entry or "
                    "component joins it to another document.",
                    "Review the links of the entities it is joined to, or `catdoc suspects` "
                    "for what changed.",
                )
            if not found:
                known = [*every, *self._every_id()]
                raise CatDocError(
                    NOT_FOUND,
                    f"No link to review is named {quoted(ident)}: it is neither a link key "
                    "(morphism:ID, functor:F:object:ID, functor:F:morphism:ID, nat:N:ID) nor an "
                    "entity with links.",
                    "Use a key `catdoc suspects` lists, or a morphism, functor, natural "
                    "transformation or object id; --all reviews everything.",
                    closest(ident, known),
                )
            chosen.update((ref.key, ref) for ref in found)
        return list(chosen.values())

    def _links_of(self, ident: str, every: dict[str, LinkRef], links: EditLinks) -> list[LinkRef]:
        index = self._index
        if ident in index.morphisms:
            return [LinkRef("morphism", ident)]
        if ident in index.functors or ident in index.nats:
            return [ref for ref in every.values() if ref.owner == ident and ref.kind != "morphism"]
        if ident in index.object_category:
            found = []
            for ref in every.values():
                ends = ends_of(ref, links)
                if ends is not None and (ident in ends[0] or ident in ends[1]):
                    found.append(ref)
            return found
        return []


class _After:
    """The objects as the edit leaves them: those of changed model files read from their new
    text, the others from the project as loaded."""

    def __init__(self, edit: EditBase, models: Mapping[str, ModelFile]) -> None:
        self.edit = edit
        self.models = models

    @cached_property
    def _changed(self) -> dict[str, DocObject]:
        found: dict[str, DocObject] = {}
        for model in self.models.values():
            for cat in model.categories:
                for obj in cat.objects:
                    found.setdefault(obj.id, obj)
        return found

    def __call__(self, object_id: str) -> DocObject | None:
        if object_id not in self.edit._index.object_category:
            return None
        if self.models and object_id in self._changed:
            return self._changed[object_id]
        obj = self.edit.project.object_by_id.get(object_id)
        if obj is not None and obj.origin in self.models:
            return None
        return obj


def finish_reviews(edit: ModelEdit, models: Mapping[str, ModelFile]) -> str | None:
    """The new text of `reviews.yaml` after the edit's intents, or None when it does not change
    (or reviews are off and nobody reviewed anything). `models` are the changed model files."""
    intents = edit.reviews
    if not intents.items:
        return None
    book = read_reviews(edit.root)
    if book is None and not intents.turns_on:
        return None
    stamps: dict[str, Stamp] = dict(book.stamps) if book is not None else {}
    pending: dict[str, tuple[LinkRef, bool]] = {}
    prune = False
    for item in intents.items:
        if isinstance(item, StampLink):
            pending[item.ref.key] = (item.ref, item.reviewed)
        elif isinstance(item, Drop):
            _drop(item, stamps, pending)
        elif isinstance(item, Rename):
            _rename(item, stamps, pending)
        elif isinstance(item, Carry):
            _carry(item, stamps)
        elif isinstance(item, Prune):
            prune = True
    links = EditLinks(edit)
    prints = ObjectPrints(_After(edit, models), fingerprints_for(edit.root), edit.documents)
    at = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    reviewed: list[str] = []
    for key, (ref, by_person) in pending.items():
        ends = ends_of(ref, links)
        if ends is None:
            stamps.pop(key, None)
            continue
        fresh = stamp_of(ends, prints, intents.by if by_person else None, at)
        held = stamps.get(key)
        if held is None or (held.source, held.target) != (fresh.source, fresh.target):
            stamps[key] = fresh
            if by_person:
                reviewed.append(key)
    if prune:
        existing = {ref.key for ref in links.links()}
        stamps = {key: stamp for key, stamp in stamps.items() if key in existing}
    if reviewed:
        more = f" and {len(reviewed) - MAX_LISTED} more" if len(reviewed) > MAX_LISTED else ""
        edit._note(
            "review stamp" if len(reviewed) == 1 else "review stamps",
            reviewed[0] if len(reviewed) == 1 else f"{len(reviewed)} links",
            "updated",
            ", ".join(reviewed[:MAX_LISTED]) + more,
        )
    text = render(book, stamps)
    if text is not None:
        remember(text, stamps, book)
    return text


def _drop(item: Drop, stamps: dict[str, Stamp], pending: dict[str, Any]) -> None:
    if item.ref is not None:
        stamps.pop(item.ref.key, None)
        pending.pop(item.ref.key, None)
        return
    for table in (stamps, pending):
        for key in [k for k in table if k.startswith(item.owner_prefix)]:
            del table[key]


def _renamed_keys(item: Rename) -> list[tuple[str, str]]:
    """(old key, new key) of every stamp the rename may move, or (old prefix, new prefix)."""
    old, new = item.old, item.new
    if item.kind == "morphism":
        return [(f"morphism:{old}", f"morphism:{new}")] + [
            (f"functor:{f}:morphism:{old}", f"functor:{f}:morphism:{new}") for f in item.functors
        ]
    if item.kind == "object":
        return [
            (f"functor:{f}:object:{old}", f"functor:{f}:object:{new}") for f in item.functors
        ] + [(f"nat:{n}:{old}", f"nat:{n}:{new}") for n in item.nats]
    return []


def _rename_ref(ref: LinkRef, item: Rename) -> LinkRef:
    old, new = item.old, item.new
    owner_kinds = {
        "morphism": ("morphism",),
        "functor": ("object mapping", "morphism mapping"),
        "natural transformation": ("component",),
    }.get(item.kind, ())
    item_kinds = {"morphism": ("morphism mapping",), "object": ("object mapping", "component")}
    if ref.owner == old and ref.kind in owner_kinds:
        return LinkRef(ref.kind, new, ref.item)
    if ref.item == old and ref.kind in item_kinds.get(item.kind, ()):
        return LinkRef(ref.kind, ref.owner, new)
    return ref


def _rename(
    item: Rename, stamps: dict[str, Stamp], pending: dict[str, tuple[LinkRef, bool]]
) -> None:
    for key, (ref, by_person) in list(pending.items()):
        moved = _rename_ref(ref, item)
        if moved != ref:
            del pending[key]
            pending[moved.key] = (moved, by_person)
    if item.kind in ("functor", "natural transformation"):
        kind = "functor" if item.kind == "functor" else "nat"
        old_prefix, new_prefix = f"{kind}:{item.old}:", f"{kind}:{item.new}:"
        for key in [k for k in stamps if k.startswith(old_prefix)]:
            stamps[new_prefix + key[len(old_prefix) :]] = stamps.pop(key)
        return
    for old_key, new_key in _renamed_keys(item):
        if old_key in stamps:
            stamps[new_key] = stamps.pop(old_key)
    if item.kind == "object":
        for key, stamp in list(stamps.items()):
            if item.old in stamp.source or item.old in stamp.target:
                stamps[key] = replace(
                    stamp,
                    source=_rekeyed(stamp.source, item.old, item.new),
                    target=_rekeyed(stamp.target, item.old, item.new),
                )


def _rekeyed(side: dict[str, str], old: str, new: str) -> dict[str, str]:
    return {new if key == old else key: value for key, value in side.items()}


def _carry(item: Carry, stamps: dict[str, Stamp]) -> None:
    for key, stamp in list(stamps.items()):
        update = {}
        for name, side in (("source", stamp.source), ("target", stamp.target)):
            if side.get(item.object_id) == item.before:
                update[name] = {**side, item.object_id: item.after}
        if update:
            stamps[key] = replace(stamp, **update)


__all__ = ["EditLinks", "ReviewOperations", "finish_reviews"]
