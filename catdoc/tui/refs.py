"""A reference to something the browser can show: screens ask for jumps with these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["category", "object", "morphism", "functor", "naturalTransformation"]


@dataclass(frozen=True, slots=True)
class Ref:
    """One entity of the project by kind and id; `focus` names a mapping row to highlight."""

    kind: Kind
    id: str
    focus: str | None = None
