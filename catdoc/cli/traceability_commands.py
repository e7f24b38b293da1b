"""`catdoc impact` (what a change reaches) and `catdoc diff` (what changed in the model between
two git revisions)."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated

import typer

from catdoc.cli.app import (
    FormatOption,
    OutputFormat,
    app,
    bounded,
    count,
    echo,
    print_json,
    service,
)
from catdoc.cli.completion import complete_objects

if TYPE_CHECKING:
    from catdoc.change_results import ImpactPath, ImpactResult

MAX_DEPTH = 10_000


class DirectionChoice(enum.StrEnum):
    down = "down"
    up = "up"
    both = "both"


@app.command()
def impact(
    ctx: typer.Context,
    object_id: Annotated[
        str | None,
        typer.Argument(
            metavar="ID",
            help="The object whose change you ask about (optional with --changed-since).",
            autocompletion=complete_objects,
            show_default=False,
        ),
    ] = None,
    depth: Annotated[
        int | None,
        typer.Option(
            "--depth",
            callback=bounded(1, MAX_DEPTH),
            help="Follow paths of at most this many hops (default: everything reachable).",
            show_default=False,
        ),
    ] = None,
    direction: Annotated[
        DirectionChoice,
        typer.Option(
            "--direction",
            case_sensitive=False,
            help="down: along morphisms and functors (what it points to and maps to); up: "
            "against them (what points to it, what maps onto it); both.",
        ),
    ] = DirectionChoice.down,
    changed_since: Annotated[
        str | None,
        typer.Option(
            "--changed-since",
            metavar="REV",
            help="Also start from every document whose file changed since this git revision "
            "(committed, staged or not; new files too).",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show everything a change to an object reaches, grouped by category.

    Follows morphisms and functor mappings from the object, breadth-first,
    and shows each reached object once with its shortest path (and its
    distance in hops), nearest first. With --changed-since, the documents
    changed since a git revision are the starting points, and each reached
    object names the changed documents that reach it.

    Examples:
    catdoc -C examples/traceability impact req-checkout
    catdoc -C examples/traceability impact test-checkout-e2e --direction up --depth 2
    catdoc impact --changed-since main --format json
    """
    result = service(ctx).impact(
        object_id, depth=depth, direction=direction.value, changed_since=changed_since
    )
    if fmt is OutputFormat.json:
        print_json(result)
        return
    _print_impact(result)


def _print_impact(result: ImpactResult) -> None:
    bound = f"within {count(result.depth, 'hop')}" if result.depth else "unbounded"
    if result.changed_since is not None:
        echo(
            f"Changed since {result.changed_since}: "
            f"{count(len(result.changed_files), 'document')}"
            + (f" ({', '.join(result.changed_files)})" if result.changed_files else "")
        )
    if result.message:
        echo(result.message)
        return
    categories = count(len(result.groups), "category", "categories")
    echo(
        f"Impact of {', '.join(result.start)} ({result.direction}, {bound}): "
        f"{count(result.total, 'object')} in {categories}"
    )
    for group in result.groups:
        echo(f"\n{group.name} ({group.count})")
        for item in group.objects:
            line = f"  {item.id}  [{item.distance}] {path_text(item.path)}"
            if result.changed_since is not None and item.reached_from:
                line += f"  (from {', '.join(item.reached_from)})"
            echo(line)


def path_text(path: ImpactPath) -> str:
    """`a --uses--> b =specify=> c <--calls-- d`: morphism hops as arrows with their name,
    functor hops as double arrows with the functor's id; a hop taken against its direction
    points back."""
    parts = [path.nodes[0]]
    for hop, node in zip(path.hops, path.nodes[1:], strict=True):
        if hop.direction == "along":
            arrow = f" ={hop.id}=> " if hop.kind == "functor" else f" --{hop.label}--> "
        else:
            arrow = f" <={hop.id}= " if hop.kind == "functor" else f" <--{hop.label}-- "
        parts.append(arrow + node)
    return "".join(parts)


@app.command()
def diff(
    ctx: typer.Context,
    rev1: Annotated[str, typer.Argument(metavar="REV", help="The git revision to compare from.")],
    rev2: Annotated[
        str | None,
        typer.Argument(
            metavar="REV2",
            help="The git revision to compare to (default: the working tree).",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show what changed in the model between two git revisions.

    Entities added, removed and changed (with the keys that changed), functor
    and natural-transformation entries changed, and the findings of
    `catdoc validate` that are new (or gone) — the review summary of a pull
    request, as Markdown. Compares with the working tree unless REV2 is given.

    Examples:
    catdoc diff main
    catdoc diff HEAD~3 HEAD --format json
    catdoc diff origin/main >> "$GITHUB_STEP_SUMMARY"
    """
    from catdoc.model_diff import render_diff

    result = service(ctx).diff(rev1, rev2)
    if fmt is OutputFormat.json:
        print_json(result)
        return
    echo(render_diff(result), nl=False)
