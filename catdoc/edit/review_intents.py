"""What an edit's operations mean for the review stamps, noted as they run.

Operations only note intents here (stamp this link, drop that one, an id was renamed, a
document's text changed by a rename alone); `catdoc.edit.reviews.finish_reviews` applies them in
order to the stamps read under the project lock, once the whole edit is known, so a stamp is
taken of the documents as the edit leaves them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from catdoc.review_links import LinkKind, LinkRef

Renamed = Literal["object", "morphism", "functor", "natural transformation"]


@dataclass(frozen=True)
class StampLink:
    """Stamp `ref`; `reviewed` when a person asked for it (that turns reviews on)."""

    ref: LinkRef
    reviewed: bool


@dataclass(frozen=True)
class Drop:
    """Drop the stamps of `ref`, or (with `owner_prefix`) of every link of a functor or
    natural transformation."""

    ref: LinkRef | None = None
    owner_prefix: str = ""


@dataclass(frozen=True)
class Rename:
    """An entity's id changed: stamps keyed by it, and document ids inside stamps, follow."""

    kind: Renamed
    old: str
    new: str
    functors: tuple[str, ...] = ()
    nats: tuple[str, ...] = ()


@dataclass(frozen=True)
class Carry:
    """A rename rewrote mentions in an object's text: a stamp that held its fingerprint from
    before holds the new one (the words a person reviewed did not change)."""

    object_id: str
    before: str
    after: str


@dataclass(frozen=True)
class Prune:
    """Drop stamps of links that no longer exist (a review of everything)."""


Intent = StampLink | Drop | Rename | Carry | Prune


@dataclass
class ReviewIntents:
    """The intents of one edit, in the order its operations noted them."""

    items: list[Intent] = field(default_factory=list)
    by: str | None = None

    def created(self, ref: LinkRef) -> None:
        self.items.append(StampLink(ref, reviewed=False))

    def reviewed(self, ref: LinkRef) -> None:
        self.items.append(StampLink(ref, reviewed=True))

    def dropped(self, ref: LinkRef) -> None:
        self.items.append(Drop(ref))

    def dropped_owner(self, kind: Literal["functor", "nat"], owner: str) -> None:
        self.items.append(Drop(owner_prefix=f"{kind}:{owner}:"))

    def renamed(
        self,
        kind: Renamed,
        old: str,
        new: str,
        *,
        functors: tuple[str, ...] = (),
        nats: tuple[str, ...] = (),
    ) -> None:
        self.items.append(Rename(kind, old, new, functors, nats))

    def carried(self, object_id: str, before: str, after: str) -> None:
        if before != after:
            self.items.append(Carry(object_id, before, after))

    def entries_set(
        self,
        kind: LinkKind,
        owner: str,
        before: Mapping[str, Any],
        entries: Mapping[str, Any],
    ) -> None:
        """Entries of a mapping or components were set (None: removed): a new or changed entry
        is stamped as created, a removed one dropped; one set to what it was stays as it was."""
        for key, value in entries.items():
            ref = LinkRef(kind, owner, key)
            if value is None:
                if key in before:
                    self.dropped(ref)
            elif key not in before or _steps(before[key]) != _steps(value):
                self.created(ref)

    def pruned(self) -> None:
        self.items.append(Prune())

    @property
    def turns_on(self) -> bool:
        """A person reviewed something: write `reviews.yaml` even if it does not exist yet."""
        return any(isinstance(item, StampLink) and item.reviewed for item in self.items)


def _steps(value: Any) -> tuple[str, ...]:
    """An entry's value as a tuple of ids: `m`, `[m]` and a ruamel sequence of `m` compare equal."""
    if isinstance(value, list | tuple):
        return tuple(str(step) for step in value)
    return (str(value),)


__all__ = ["Carry", "Drop", "Intent", "Prune", "Rename", "ReviewIntents", "StampLink"]
