"""The links a review stamp is about, their keys, and the documents at their two ends.

| link | key | source end | target end |
|---|---|---|---|
| morphism f: A → B | `morphism:f` | A | B |
| functor entry A ↦ F(A) | `functor:F:object:A` | A | F(A) |
| functor entry f ↦ F(f), f: A → B | `functor:F:morphism:f` | A, B | F(A), F(B) |
| component η_A: F(A) → G(A) | `nat:η:A` | F(A) | G(A) |

A morphism mapping entry's target end is read from the functor's object mapping (the ends of
F(f) when F is well typed, identities included), so remapping F(A) makes the entries of the
morphisms at A suspect too: their image now joins other documents.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from catdoc.project import Project

LinkKind = Literal["morphism", "object mapping", "morphism mapping", "component"]


@dataclass(frozen=True)
class LinkRef:
    """One link: a morphism, a functor's object or morphism mapping entry, or a component."""

    kind: LinkKind
    owner: str
    """The morphism, functor or natural transformation id."""
    item: str = ""
    """The mapped object or morphism (mapping entries), the object (components)."""

    @property
    def key(self) -> str:
        if self.kind == "morphism":
            return f"morphism:{self.owner}"
        if self.kind == "object mapping":
            return f"functor:{self.owner}:object:{self.item}"
        if self.kind == "morphism mapping":
            return f"functor:{self.owner}:morphism:{self.item}"
        return f"nat:{self.owner}:{self.item}"

    def describe(self) -> str:
        if self.kind == "morphism":
            return f"morphism {self.owner}"
        if self.kind == "object mapping":
            return f"{self.owner}({self.item}) (functor {self.owner}'s object mapping)"
        if self.kind == "morphism mapping":
            return f"{self.owner}({self.item}) (functor {self.owner}'s morphism mapping)"
        return f"component {self.owner}_{self.item} (natural transformation {self.owner})"


Ends = tuple[tuple[str, ...], tuple[str, ...]]


class LinkData(Protocol):
    """What the ends of links are read from: a loaded project, or a model being edited."""

    def morphism_ends(self, morphism: str) -> tuple[str, str] | None: ...

    def object_mapping(self, functor: str) -> Mapping[str, Any] | None: ...

    def nat_functors(self, nat: str) -> tuple[str, str] | None: ...


def _ids(*ids: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(str(i) for i in ids if i is not None))


def ends_of(ref: LinkRef, data: LinkData) -> Ends | None:
    """The document ids at the link's source and target end; None if the link does not exist."""
    if ref.kind == "morphism":
        ends = data.morphism_ends(ref.owner)
        return None if ends is None else ((ends[0],), (ends[1],))
    if ref.kind == "object mapping":
        objects = data.object_mapping(ref.owner)
        if objects is None or ref.item not in objects:
            return None
        return (ref.item,), _ids(objects[ref.item])
    if ref.kind == "morphism mapping":
        objects = data.object_mapping(ref.owner)
        ends = data.morphism_ends(ref.item)
        if objects is None or ends is None:
            return None
        return _ids(*ends), _ids(*(objects.get(end) for end in ends))
    functors = data.nat_functors(ref.owner)
    if functors is None:
        return None
    first, second = (data.object_mapping(f) or {} for f in functors)
    return _ids(first.get(ref.item)), _ids(second.get(ref.item))


LinkRow = tuple[LinkKind, str, str, str, tuple[str, ...], tuple[str, ...]]
"""(kind, owner, item, key, source end, target end) of one link."""


def link_rows(project: Project, category: str | None = None) -> Iterator[LinkRow]:
    """Every link of the project (those touching `category`, when given) in model order, with
    its key and ends as `ends_of` gives them, in one pass per kind: a `suspects` check walks
    tens of thousands of links. A functor's entries touch its source and target categories; a
    component touches the categories of its source functor."""
    for cat in project.categories:
        if category is None or cat.id == category:
            for mor in cat.morphisms:
                if project.morphism_by_id.get(mor.id) is mor:
                    key = "morphism:" + mor.id
                    yield "morphism", mor.id, "", key, (mor.source,), (mor.target,)
    morphisms = project.morphism_by_id
    functors = project.functor_by_id
    for fun in functors.values():
        if category not in (None, fun.source_category, fun.target_category):
            continue
        objects = fun.object_mapping
        prefix = f"functor:{fun.id}:"
        for a, b in objects.items():
            yield "object mapping", fun.id, a, f"{prefix}object:{a}", (a,), (b,)
        for m in fun.morphism_mapping:
            mor = morphisms.get(m)
            if mor is not None:
                s, t = mor.source, mor.target
                fs, ft = objects.get(s), objects.get(t)
                ends = (s,) if s == t else (s, t)
                image = _ids(fs, ft) if fs is None or ft is None or fs == ft else (fs, ft)
                yield "morphism mapping", fun.id, m, f"{prefix}morphism:{m}", ends, image
    for nat in project.nat_by_id.values():
        first_fun = functors.get(nat.source_functor)
        second_fun = functors.get(nat.target_functor)
        if category is not None and (
            first_fun is None
            or category not in (first_fun.source_category, first_fun.target_category)
        ):
            continue
        first = first_fun.object_mapping if first_fun else {}
        second = second_fun.object_mapping if second_fun else {}
        for a in nat.components:
            yield (
                "component",
                nat.id,
                a,
                f"nat:{nat.id}:{a}",
                _ids(first.get(a)),
                _ids(second.get(a)),
            )


__all__ = [
    "LinkData",
    "LinkKind",
    "LinkRef",
    "ends_of",
]
