"""`catdoc concepts`: the concepts of the library or a category, of one document, the passages
about a concept and the documents holding some concepts."""

from __future__ import annotations

from typing import Annotated

import typer

from catdoc.cli.app import (
    FormatOption,
    LimitOption,
    OffsetOption,
    OutputFormat,
    app,
    echo,
    page_caption,
    print_json,
    print_table,
    service,
)
from catdoc.cli.completion import complete_objects
from catdoc.service_concepts import CONCEPT_SORTS

concepts_app = typer.Typer(
    help="Concepts: each document's tags, front-matter keywords and the key phrases of its "
    "text, stemmed so that word forms meet.\n\n"
    "Examples:\ncatdoc concepts list --category requirements\ncatdoc concepts show req-cart\n"
    'catdoc concepts search "query set"\ncatdoc concepts sources security checkout --per-concept',
    no_args_is_help=True,
)
app.add_typer(concepts_app, name="concepts")


@concepts_app.command("list")
def list_concepts(
    ctx: typer.Context,
    category: Annotated[
        str | None,
        typer.Option(
            "--category", "-c", help="Only this category's documents (subcategories included)."
        ),
    ] = None,
    sort: Annotated[
        str,
        typer.Option(
            "--sort", help=f"Order: {', '.join(CONCEPT_SORTS)} (counts and weights most first)."
        ),
    ] = "weight",
    limit: LimitOption = 50,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """List concepts with their summed weight and how many documents hold them.

    Examples:
    catdoc concepts list
    catdoc concepts list --category requirements --sort documentCount
    catdoc concepts list --sort name --limit 100 --format json
    """
    page = service(ctx).list_concepts(category=category, sort=sort, limit=limit, offset=offset)
    if fmt is OutputFormat.json:
        print_json(page)
        return
    print_table(
        ["Concept", "Weight", "Documents"],
        [(c.label, f"{c.weight:g}", c.document_count) for c in page.items],
        caption=page_caption(page),
    )
    if page.message:
        echo(page.message)


@concepts_app.command("show")
def show_concepts(
    ctx: typer.Context,
    object_id: Annotated[
        str,
        typer.Argument(
            metavar="ID", help="The document's object id.", autocompletion=complete_objects
        ),
    ],
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show one document's concepts, best first, with the passages that hold them.

    Examples:
    catdoc concepts show req-cart
    catdoc concepts show req-cart --format json
    """
    found = service(ctx).extract_concepts(object_id)
    if fmt is OutputFormat.json:
        print_json(found)
        return
    print_table(
        ["Concept", "Weight", "Source", "Passages"],
        [
            (c.label, f"{c.weight:g}", c.source, ", ".join(map(str, c.passages)) or "–")
            for c in found.concepts
        ],
        title=f"Concepts of {found.title} ({found.id})",
    )
    if found.message:
        echo(found.message)


@concepts_app.command("search")
def search_concept(
    ctx: typer.Context,
    concept: Annotated[str, typer.Argument(help="The concept: its label or any form of it.")],
    limit: LimitOption = 10,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Find the passages about a concept, most relevant first.

    Examples:
    catdoc concepts search checkout
    catdoc concepts search "query sets" --limit 20 --format json
    """
    page = service(ctx).concept_search(concept, limit=limit, offset=offset)
    if fmt is OutputFormat.json:
        print_json(page)
        return
    print_table(
        ["Document", "Passage", "Heading", "Lines", "Snippet"],
        [
            (
                h.id,
                h.passage,
                " › ".join(h.heading_path),
                f"{h.start_line}–{h.end_line}" if h.start_line else "",
                h.snippet,
            )
            for h in page.items
        ],
        title=f"Passages about {page.concept.label}",
        caption=page_caption(page),
    )
    if page.message:
        echo(page.message)


@concepts_app.command("sources")
def concept_sources(
    ctx: typer.Context,
    concepts: Annotated[list[str], typer.Argument(help="One or more concepts (labels).")],
    per_concept: Annotated[
        bool,
        typer.Option(
            "--per-concept", help="One list per concept instead of one list of all (union)."
        ),
    ] = False,
    limit: LimitOption = 20,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Find the documents having any of the concepts (those with more of them first), or with
    --per-concept each concept's documents apart.

    Examples:
    catdoc concepts sources checkout payment
    catdoc concepts sources security --per-concept --format json
    """
    svc = service(ctx)
    if per_concept:
        result = svc.concept_sources(concepts, limit=limit, offset=offset)
        if fmt is OutputFormat.json:
            print_json(result)
            return
        pages = result.concepts
    else:
        union = svc.source_concepts(concepts, limit=limit, offset=offset)
        if fmt is OutputFormat.json:
            print_json(union)
            return
        pages = [union]
    for page in pages:
        labels = {c.key: c.label for c in page.concepts}
        print_table(
            ["Document", "Title", "Category", "Concepts", "Weight"],
            [
                (
                    s.id,
                    s.title,
                    s.category or "",
                    ", ".join(labels[k] for k in s.concepts),
                    f"{s.weight:g}",
                )
                for s in page.items
            ],
            title="Documents with " + " or ".join(c.label for c in page.concepts),
            caption=page_caption(page),
        )
        if page.message:
            echo(page.message)
