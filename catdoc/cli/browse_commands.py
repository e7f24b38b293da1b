"""Browsing the library: `catdoc list categories` (sorted, filtered, paged, with statistics),
`catdoc summary` and `catdoc structure ID`."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated

import typer

from catdoc.cli.app import (
    FormatOption,
    LimitOption,
    OffsetOption,
    OutputFormat,
    app,
    count,
    echo,
    list_app,
    print_fields,
    print_json,
    print_table,
    range_caption,
    service,
)
from catdoc.cli.completion import complete_categories, complete_objects
from catdoc.paging import MAX_LIMIT
from catdoc.service_browse import CATEGORY_SORTS

if TYPE_CHECKING:
    from catdoc import results as r


CategorySort = enum.StrEnum("CategorySort", {sort: sort for sort in CATEGORY_SORTS})


class Detail(enum.StrEnum):
    basic = "basic"
    detailed = "detailed"
    comprehensive = "comprehensive"


# --------------------------------------------------------------------------- list categories
@list_app.command("categories")
def list_categories(
    ctx: typer.Context,
    sort: Annotated[
        CategorySort,
        typer.Option(
            "--sort",
            help="Order: model (as in the files), name, objectCount (= popularity), or the "
            "index counts documentCount, chunkCount, conceptCount (most first).",
        ),
    ] = CategorySort.model,
    filter_: Annotated[
        str | None,
        typer.Option(
            "--filter",
            help="Keep categories whose id, name, alias or description contains this text "
            "(case-insensitive); with * or ? a glob matching one of them whole.",
            show_default=False,
        ),
    ] = None,
    category: Annotated[
        str | None,
        typer.Option(
            "--category",
            "-c",
            help="Only this category (id, name or alias).",
            show_default=False,
            autocompletion=complete_categories,
        ),
    ] = None,
    include_children: Annotated[
        bool,
        typer.Option("--include-children", help="With --category: also the categories below it."),
    ] = False,
    statistics: Annotated[
        bool,
        typer.Option(
            "--statistics",
            "-s",
            help="Add documents, passages and concepts from the search index, and totals.",
        ),
    ] = False,
    limit: LimitOption = 50,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """List the categories with their sizes, hierarchy and aliases.

    Examples:
    catdoc list categories
    catdoc list categories --sort chunkCount --statistics
    catdoc list categories --filter req --format json
    catdoc list categories --category engineering --include-children
    """
    page = service(ctx).browse_categories(
        sort_by=sort.value,
        filter=filter_,
        category=category,
        include_children=include_children,
        limit=limit,
        offset=offset,
        statistics=statistics,
    )
    if fmt is OutputFormat.json:
        print_json(page)
        return
    if not page.categories and page.total:
        echo(range_caption(page.offset, 0, page.total))
        return
    if page.message:
        echo(page.message)
        return
    if page.statistics is None:
        columns = ["ID", "Name", "Objects", "Morphisms", "Equations", "Semantics", "Parent"]
        columns += ["Aliases"]
        rows: list[tuple[object, ...]] = [
            (
                c.id,
                c.name,
                c.object_count,
                c.morphism_count,
                c.equation_count,
                c.semantics,
                c.parent,
                c.aliases,
            )
            for c in page.categories
        ]
    else:
        columns = ["ID", "Name", "Objects", "Morphisms", "Documents", "Passages", "Concepts"]
        rows = [
            (c.id, c.name, c.object_count, c.morphism_count, *_counts(c.statistics))
            for c in page.categories
        ]
    print_table(columns, rows, caption=_caption(page))
    if page.statistics is not None:
        t = page.statistics
        echo(
            f"Totals: {t.objects:,} objects, {t.documents:,} documents, {t.chunks:,} passages"
            + ("" if t.concepts is None else f", {t.concepts:,} concepts")
            + f"; most objects: {t.most_popular_category}, fewest: {t.least_popular_category}."
        )


def _counts(stats: r.CategoryStatistics | None) -> tuple[object, ...]:
    if stats is None:
        return (None, None, None)
    return (stats.document_count, stats.chunk_count, stats.concept_count)


def _caption(page: r.CategoryPage) -> str:
    shown = count(page.total, "category", "categories")
    if page.offset == 0 and len(page.categories) == page.total:
        return shown
    return range_caption(page.offset, len(page.categories), page.total, what=shown)


# --------------------------------------------------------------------------- summary
@app.command()
def summary(
    ctx: typer.Context,
    detail: Annotated[
        Detail,
        typer.Option(
            "--detail",
            "-d",
            help="basic: counts; detailed: also per category, file types, dates; "
            "comprehensive: also sizes and the index's vectors.",
        ),
    ] = Detail.basic,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Summarise the library: counts, categories, file types, dates, index state.

    Brings the search index up to date first (like a search does).

    Examples:
    catdoc summary
    catdoc summary --detail detailed
    catdoc summary --detail comprehensive --format json
    """
    result = service(ctx).index_summary(detail.value)
    if fmt is OutputFormat.json:
        print_json(result)
        return
    n = result.counts
    state = result.state
    print_fields(
        [
            ("Objects", f"{n.objects:,}"),
            ("Documents", _documents(n)),
            ("Passages", f"{n.passages:,}"),
            ("Categories", f"{n.categories:,}"),
            ("Morphisms", f"{n.morphisms:,}"),
            ("Functors", f"{n.functors:,}"),
            ("Natural transformations", f"{n.natural_transformations:,}"),
            (
                "Index",
                "up to date"
                if state.up_to_date
                else f"brought up to date ({count(state.pending, 'document')} (re)indexed or "
                "dropped)",
            ),
            ("Schema", state.schema_version),
        ],
        title="Library summary",
    )
    if result.dates is not None:
        d = result.dates
        print_fields(
            [
                ("Oldest document", d.oldest_document),
                ("Newest document", d.newest_document),
                (
                    "Index written",
                    d.last_index_write and f"{d.last_index_write:%Y-%m-%d %H:%M} UTC",
                ),
                (
                    "File types",
                    ", ".join(
                        f"{k or '(inline)'} {v:,}" for k, v in (result.file_types or {}).items()
                    ),
                ),
            ]
        )
    if result.sizes is not None:
        print_fields(
            [
                ("Document bytes", f"{result.sizes.document_bytes:,}"),
                ("Index bytes", f"{result.sizes.index_bytes:,}"),
                (
                    "Vectors",
                    "; ".join(
                        f"{v.scope} {v.present:,} present, {v.missing:,} missing"
                        for v in state.vectors or []
                    ),
                ),
            ]
        )
    if result.categories is not None:
        print_table(
            ["Category", "Name", "Objects", "Documents", "Passages", "Concepts"],
            [
                (c.id, c.name, c.objects, c.documents, c.passages, c.concepts)
                for c in result.categories
            ],
        )
    if result.message:
        echo(result.message)


def _documents(n: r.SummaryCounts) -> str:
    """'21 with text; 1 object's file cannot be read, 2 objects have no text' (the objects that
    are not documents, when there are any)."""
    not_documents = []
    if n.unreadable:
        files = "object's file" if n.unreadable == 1 else "objects' files"
        not_documents.append(f"{n.unreadable:,} {files} cannot be read")
    if n.without_text:
        has = "object has" if n.without_text == 1 else "objects have"
        not_documents.append(f"{n.without_text:,} {has} no text")
    text = f"{n.documents:,} with text"
    return f"{text}; {', '.join(not_documents)}" if not_documents else text


# --------------------------------------------------------------------------- structure
@app.command()
def structure(
    ctx: typer.Context,
    object_id: Annotated[
        str,
        typer.Argument(
            metavar="ID", help="The object's (document's) id.", autocompletion=complete_objects
        ),
    ],
    limit: LimitOption = MAX_LIMIT,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show a document's sections (heading tree) and passages with their line ranges.

    Examples:
    catdoc structure req-checkout
    catdoc structure req-checkout --format json
    """
    result = service(ctx).document_structure(object_id, limit=limit, offset=offset)
    if fmt is OutputFormat.json:
        print_json(result)
        return
    echo(
        f"{result.id}: {result.title} ({result.path or 'inline content'}) — "
        f"{count(result.section_count, 'section')}, {count(result.passage_count, 'passage')}"
    )
    for s in result.sections:
        lines = _lines(s.start_line, s.end_line)
        echo(
            f"{'  ' * s.level}{'#' * s.level} {s.heading_path[-1]}  "
            f"({lines}{count(s.passage_count, 'passage')})"
        )
    if result.passages:
        print_table(
            ["#", "Heading path", "Lines", "Chars"],
            [
                (
                    p.index,
                    " › ".join(p.heading_path),
                    _lines(p.start_line, p.end_line).rstrip(", "),
                    p.chars,
                )
                for p in result.passages
            ],
        )
    if result.message:
        echo(result.message)


def _lines(start: int | None, end: int | None) -> str:
    return "" if start is None else f"lines {start}–{end}, "
