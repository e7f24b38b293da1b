"""`catdoc clusters`: the clusters of related documents, and `catdoc clusters show ID`."""

from __future__ import annotations

from typing import Annotated

import typer

from catdoc.cli.app import (
    FormatOption,
    LimitOption,
    OffsetOption,
    OutputFormat,
    app,
    bounded,
    count,
    echo,
    page_caption,
    print_fields,
    print_json,
    print_table,
    range_caption,
    service,
)
from catdoc.paging import MAX_LIMIT

clusters_app = typer.Typer(
    help="Clusters of related documents: communities of the document graph (morphisms, "
    "references, functor mappings, shared concepts, stored vectors), largest first.\n\n"
    "Examples:\ncatdoc clusters\ncatdoc clusters --members --format json\n"
    "catdoc clusters show cl-req-checkout",
    invoke_without_command=True,
)
app.add_typer(clusters_app, name="clusters")

MEMBERS_SHOWN = 5
"""Member ids a text listing shows per cluster with --members (JSON gives --member-limit)."""


@clusters_app.callback()
def list_clusters(
    ctx: typer.Context,
    limit: LimitOption = 20,
    offset: OffsetOption = 0,
    members: Annotated[
        bool, typer.Option("--members", help="Also list each cluster's most linked members.")
    ] = False,
    member_limit: Annotated[
        int,
        typer.Option(
            "--member-limit",
            callback=bounded(1, MAX_LIMIT),
            help="With --members: at most this many member ids per cluster.",
        ),
    ] = 20,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """List the clusters: id, name, size, top concepts, categories (largest first).

    The first run on a large library may take a few seconds.

    Examples:
    catdoc clusters
    catdoc clusters --limit 5 --members
    catdoc clusters --format json
    """
    if ctx.invoked_subcommand is not None:
        return
    page = service(ctx).cluster_page(
        limit=limit, offset=offset, include_members=members, member_limit=member_limit
    )
    if fmt is OutputFormat.json:
        print_json(page)
        return
    columns = ["ID", "Name", "Size", "Top concepts", "Categories"]
    rows = [
        [c.id, c.name, c.size, c.top_concepts, c.categories]
        + ([_members(getattr(c, "members", []), c.size)] if members else [])
        for c in page.items
    ]
    if not page.items and page.message:
        echo(page.message)  # it says why the page is empty (and how many there are)
        return
    print_table(
        [*columns, "Members"] if members else columns,
        rows,
        caption=f"{page_caption(page).removesuffix('.')}; {count(page.documents, 'document')}, "
        f"{page.unclustered} unclustered",
    )
    if page.message:
        echo(page.message)


@clusters_app.command("show")
def show_cluster(
    ctx: typer.Context,
    cluster_id: Annotated[
        str, typer.Argument(metavar="ID", help="The cluster's id (see `catdoc clusters`).")
    ],
    limit: LimitOption = 50,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show one cluster and a page of its members (most linked first).

    Examples:
    catdoc clusters show cl-req-checkout
    catdoc clusters show cl-req-checkout --limit 100 --format json
    """
    detail = service(ctx).cluster_detail(cluster_id, limit=limit, offset=offset)
    if fmt is OutputFormat.json:
        print_json(detail)
        return
    print_fields(
        [
            ("Name", detail.name),
            ("Size", detail.size),
            ("Top concepts", detail.top_concepts),
            ("Categories", detail.categories),
            ("Central", detail.central),
        ],
        title=f"Cluster {detail.id}",
    )
    caption = "Members " + range_caption(detail.member_offset, len(detail.members), detail.size)
    print_table(
        ["ID", "Title", "Category", "Links"],
        [(m.id, m.title, m.category, f"{m.links:g}") for m in detail.members],
        caption=caption,
    )


def _members(ids: list[str], size: int) -> str:
    shown = ", ".join(ids[:MEMBERS_SHOWN])
    return shown + (f" … (+{size - MEMBERS_SHOWN})" if size > MEMBERS_SHOWN else "")
