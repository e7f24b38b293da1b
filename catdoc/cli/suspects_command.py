"""`catdoc suspects` and `catdoc review`: the links whose documents changed since their review,
and re-stamping them once read.

Exit status of `suspects`: 0 when no link needs a review (or reviews are off), 1 when some do
(like `validate --strict` with SUSPECT_LINK warnings), 2 when the project cannot be loaded.
"""

from __future__ import annotations

from typing import Annotated

import typer

from catdoc import results as r
from catdoc.cli.app import (
    EXIT_FAILED,
    FormatOption,
    OutputFormat,
    app,
    bounded,
    echo,
    print_json,
    range_caption,
    service,
)
from catdoc.cli.core_commands import CategoryOption
from catdoc.cli.edit_commands import ExpectOption, show
from catdoc.paging import MAX_LIMIT
from catdoc.service_suspects import DEFAULT_SUSPECTS


@app.command()
def suspects(
    ctx: typer.Context,
    category: CategoryOption = None,
    limit: Annotated[
        int,
        typer.Option(
            "--limit",
            "-n",
            help=f"Links shown (1–{MAX_LIMIT}); the totals count all.",
            callback=bounded(1, MAX_LIMIT),
        ),
    ] = DEFAULT_SUSPECTS,
    offset: Annotated[
        int, typer.Option("--offset", help="Skip this many links.", callback=bounded(0))
    ] = 0,
    diff: Annotated[
        bool,
        typer.Option(
            "--diff/--no-diff", help="Show what changed in each document since its review."
        ),
    ] = True,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Links whose documents changed since they were reviewed, or never reviewed.

    Reviews are on once .catdoc/reviews.yaml exists (`catdoc review --all`
    creates it). A link is suspect when a document at one of its ends
    changed (words, not whitespace or front matter) since its review stamp;
    the diff comes from git's history of the file. Exit status: 0 none, 1
    some links need a review, 2 the project cannot be loaded.

    Examples:
    catdoc suspects
    catdoc suspects --category requirements --no-diff
    catdoc suspects --format json
    """
    report = service(ctx).suspects(category, limit=limit, offset=offset, diffs=diff)
    if fmt is OutputFormat.json:
        print_json(report)
    else:
        _print_text(report)
    if report.total:
        raise typer.Exit(EXIT_FAILED)


def _print_text(report: r.SuspectReport) -> None:
    echo(report.message)
    for link in report.suspects:
        ends = f" ({'/'.join(link.changed_ends)} changed)" if link.changed_ends else ""
        where = f"  {link.location}" if link.location else ""
        echo()
        echo(f"⚠ {link.key}{ends}{where}")
        echo(f"  {link.reason}")
        for doc in link.documents:
            if doc.diff:
                echo(f"  {doc.path}, since {doc.diff_revision[:10] if doc.diff_revision else ''}:")
                for line in doc.diff:
                    echo(f"    {line}")
                if doc.diff_truncated:
                    echo(f"    … {doc.diff_truncated} more line(s)")
            elif doc.diff_note:
                echo(f"  {doc.path or doc.object_id}: {doc.diff_note}")
    shown = report.offset + len(report.suspects)
    if report.total > shown or (report.total and not report.suspects):
        echo()
        echo(range_caption(report.offset, len(report.suspects), report.total))


@app.command()
def review(
    ctx: typer.Context,
    ids: Annotated[
        list[str] | None,
        typer.Argument(
            help="Link keys (morphism:ID, functor:F:object:ID, functor:F:morphism:ID, nat:N:ID) "
            "or morphism, functor, natural transformation or object ids (all their links).",
            show_default=False,
        ),
    ] = None,
    everything: Annotated[
        bool, typer.Option("--all", help="Review every link (and drop stamps of gone links).")
    ] = False,
    by: Annotated[
        str | None,
        typer.Option("--by", help="Who reviewed (default: git's user.name).", show_default=False),
    ] = None,
    expect: ExpectOption = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Stamp links as reviewed: their documents as they are now.

    The first review creates .catdoc/reviews.yaml, which turns reviews on
    (`catdoc suspects`, SUSPECT_LINK in `catdoc validate`). Links created
    through CatDoc's edit commands and importer are stamped as they are made.

    Examples:
    catdoc review morphism:auth-depends-user
    catdoc review req-auth
    catdoc review --all --by "Ada Lovelace"
    """
    result = service(ctx).review(ids or None, all=everything, by=by, expected_version=expect)
    show(result, fmt)
