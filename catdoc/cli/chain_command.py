"""`catdoc chain ID`: an object's whole chain, up to what it derives from and down to what derives
from it, by layer, with the links that need a review marked (see `catdoc.chain`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from catdoc.cli.app import FormatOption, OutputFormat, app, bounded, echo, print_json, service
from catdoc.cli.completion import complete_objects
from catdoc.cli.traceability_commands import path_text

if TYPE_CHECKING:
    from catdoc.chain_results import ChainEntry, ChainResult

MAX_DEPTH = 10_000
"""The longest walk the service accepts each way (`catdoc.service_impact.MAX_IMPACT_DEPTH`)."""
MAX_PER_CATEGORY = 10_000
"""The most entries per category the service lists (`catdoc.service_chain.MAX_PER_GROUP`)."""
ARROWS = {"up": "↑", "down": "↓", "start": "●"}


@app.command()
def chain(
    ctx: typer.Context,
    object_id: Annotated[
        str,
        typer.Argument(
            metavar="ID",
            help="The object (document) whose chain to show.",
            autocompletion=complete_objects,
        ),
    ],
    depth: Annotated[
        int | None,
        typer.Option(
            "--depth",
            callback=bounded(1, MAX_DEPTH),
            help="Follow paths of at most this many hops each way (default: all).",
            show_default=False,
        ),
    ] = None,
    per_category: Annotated[
        int,
        typer.Option(
            "--per-category",
            "-n",
            callback=bounded(1, MAX_PER_CATEGORY),
            help=f"List at most this many entries per category, the nearest "
            f"(1–{MAX_PER_CATEGORY:,}).",
        ),
    ] = 50,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show an object's whole chain: up to its requirements, down to its tests.

    Every object the object derives from (against morphisms and functor
    mappings) and every object that derives from it (along them), grouped by
    category in layer order (a functor's source before its target). Each
    entry shows its direction and distance, its shortest path, and ⚠ when the
    link that reaches it needs a review (see `catdoc suspects`).

    Examples:
    catdoc -C examples/traceability chain spec-checkout-api
    catdoc chain req-checkout --depth 2
    catdoc chain req-checkout --per-category 10 --format json
    """
    result = service(ctx).chain(object_id, depth=depth, per_group=per_category)
    if fmt is OutputFormat.json:
        print_json(result)
        return
    print_chain(result)


def print_chain(result: ChainResult) -> None:
    """The chain as text: a heading, then each category's entries with their paths."""
    bound = f"within {result.depth} hops each way" if result.depth else "unbounded"
    echo(f"Chain of {result.object} ({result.title}), {bound}: {result.message}")
    for group in result.groups:
        echo(f"\n{group.name} ({group.count})")
        for entry in group.entries:
            echo(entry_line(entry))
        if group.truncated:
            echo(f"  … and {group.truncated} more (raise --per-category).")


def entry_line(entry: ChainEntry) -> str:
    """`  ↑2 req-receipt  Receipt  req-checkout <--x-- req-receipt  ⚠ changed: why`."""
    if entry.direction == "start":
        return f"  ● {entry.id}  {entry.title}"
    line = f"  {ARROWS[entry.direction]}{entry.distance} {entry.id}  {entry.title}"
    line += f"  {path_text(entry.path)}"
    if entry.suspect is not None:
        line += f"  ⚠ {entry.suspect.status}: {entry.suspect.reason} ({entry.suspect.key})"
    return line
