"""`catdoc coverage`: how completely each functor maps its source layer and reaches its target."""

from __future__ import annotations

from typing import Annotated

import typer

from catdoc import results as r
from catdoc.cli.app import (
    EXIT_FAILED,
    FormatOption,
    OutputFormat,
    app,
    echo,
    print_json,
    print_table,
    service,
)
from catdoc.cli.completion import complete_functors

LISTED = 10
"""Unmapped objects and orphans named per functor in the text output (JSON has them all)."""


def _share(share: r.CoverageShare) -> str:
    if share.percent is None:
        return "– (0 of 0)"
    return f"{share.percent:.1f}% ({share.covered:,} of {share.total:,})"


def _names(ids: list[str]) -> str:
    shown = ", ".join(ids[:LISTED])
    return shown + (f" … and {len(ids) - LISTED:,} more" if len(ids) > LISTED else "")


@app.command()
def coverage(
    ctx: typer.Context,
    functors: Annotated[
        list[str] | None,
        typer.Argument(
            help="Functor ids (default: every functor).",
            show_default=False,
            autocompletion=complete_functors,
        ),
    ] = None,
    minimum: Annotated[
        float | None,
        typer.Option(
            "--min",
            help="Fail (exit 1) when any share is below this percentage (0–100); a share of "
            "nothing (0 of 0) neither passes nor fails.",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Traceability coverage per functor F: A → B.

    objects: A's objects F maps to an object of B; reached: B's objects that are some
    object's image (the others are orphans: a test that tests nothing, a design that
    implements no requirement); morphisms: A's generating morphisms F maps.

    Examples:
    catdoc coverage
    catdoc coverage specify --format json
    catdoc coverage --min 90
    """
    report = service(ctx).coverage(functors or (), minimum=minimum)
    if fmt is OutputFormat.json:
        print_json(report)
    elif not report.functors:
        echo("No functors: nothing maps one layer onto another yet (see `catdoc add functor`).")
    else:
        print_table(
            ["functor", "source → target", "objects mapped", "target reached", "morphisms"],
            [
                (
                    f.functor,
                    f"{f.source_category} → {f.target_category}",
                    _share(f.objects),
                    _share(f.reached),
                    _share(f.morphisms),
                )
                for f in report.functors
            ],
        )
        for f in report.functors:
            if f.unmapped_objects:
                echo(f"{f.functor}: unmapped objects: {_names(f.unmapped_objects)}")
            if f.orphans:
                echo(f"{f.functor}: orphans in {f.target_category}: {_names(f.orphans)}")
            if f.unmapped_morphisms:
                echo(f"{f.functor}: unmapped morphisms: {_names(f.unmapped_morphisms)}")
        if report.below:
            echo(f"Below {minimum:g}%: {', '.join(report.below)}.")
    if report.below:
        raise typer.Exit(EXIT_FAILED)
