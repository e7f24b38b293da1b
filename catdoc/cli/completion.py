"""Shell completion of entity ids: the `autocompletion` callbacks of arguments and options that
take an object, morphism, category, functor or natural-transformation id.

Each reads the ids off the model files (`catdoc.entity_ids`): no load, no index, no write; a
project that cannot be read completes nothing. The shell shows an entity's title (or name)
beside its id where it can (zsh, fish).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from catdoc.entity_ids import Kind

Completer = Callable[[typer.Context, list[str], str], list[tuple[str, str]]]


def _project(ctx: typer.Context, args: list[str]) -> Path | None:
    """The directory `-C/--project` names (before or after the command), else None (cwd)."""
    given = ctx.find_root().params.get("project")
    if given:
        return Path(given)
    for index, token in enumerate(args):
        if token in ("-C", "--project") and index + 1 < len(args):
            return Path(args[index + 1])
        if token.startswith("--project="):
            return Path(token.partition("=")[2])
    return None


def completer(*kinds: Kind) -> Completer:
    """An `autocompletion` callback offering the ids of `kinds`, each with its label as help."""

    def complete(ctx: typer.Context, args: list[str], incomplete: str) -> list[tuple[str, str]]:
        from catdoc.entity_ids import entity_ids  # only when a shell asks: no cost at start-up

        found = entity_ids(_project(ctx, args), kinds, incomplete)
        return [(entity.id, entity.label) for entity in found]

    return complete


complete_objects = completer("object")
complete_morphisms = completer("morphism")
complete_categories = completer("category")
complete_functors = completer("functor")
complete_transformations = completer("natural transformation")
complete_objects_or_morphisms = completer("object", "morphism")
complete_any = completer("object", "morphism", "category", "functor", "natural transformation")

__all__ = [
    "complete_any",
    "complete_categories",
    "complete_functors",
    "complete_morphisms",
    "complete_objects",
    "complete_objects_or_morphisms",
    "complete_transformations",
    "completer",
]
