"""Result models of an object's chain: everything above it (up to its requirements) and below it
(down to its tests), by layer, with the links that need a review marked. Same conventions as
`catdoc.results` (camelCase on the wire)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from catdoc.change_results import ImpactPath
from catdoc.results import Result

ChainDirection = Literal["up", "start", "down"]


class ChainMark(Result):
    """The link that reaches an entry needs a review (see `catdoc suspects`)."""

    key: str = Field(description="The link's key in .catdoc/reviews.yaml; `catdoc review KEY`.")
    status: Literal["changed", "unreviewed"]
    reason: str


class ChainEntry(Result):
    id: str
    title: str
    category: str
    direction: ChainDirection = Field(
        description="up: reached against morphisms and functor mappings (what it derives "
        "from); down: along them (what derives from it); start: the object itself."
    )
    distance: int = Field(description="Hops on its shortest path from the object.")
    path: ImpactPath = Field(description="From the object to this entry, shortest first.")
    suspect: ChainMark | None = Field(
        None, description="Set when the link of the path's last hop needs a review."
    )


class ChainGroup(Result):
    category: str
    name: str
    layer: int = Field(description="Position of the category in the layer order (0: the top).")
    count: int = Field(description="Entries in this category, the object itself included.")
    entries: list[ChainEntry] = Field(
        description="Farthest up first, then the object, then nearest down first."
    )
    truncated: int = Field(0, description="Entries left out by the per-group limit.")


class ChainResult(Result):
    """An object's whole chain, grouped by category in layer order: the categories ordered along
    the functors between them (requirements before specifications before tests), model order
    where the functors do not decide."""

    object: str
    title: str
    category: str
    depth: int | None = Field(description="Longest path followed each way; null: unbounded.")
    up: int = Field(description="Objects reached upwards.")
    down: int = Field(description="Objects reached downwards.")
    reviews: bool = Field(description="Reviews are on (.catdoc/reviews.yaml exists).")
    suspects: int = Field(0, description="Entries whose reaching link needs a review.")
    groups: list[ChainGroup]
    message: str = ""


__all__ = ["ChainDirection", "ChainEntry", "ChainGroup", "ChainMark", "ChainResult"]
