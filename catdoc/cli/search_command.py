"""`catdoc search`: ranked documents or passages, with filters."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated

import typer

from catdoc.cli.app import FormatOption, OutputFormat, app, bounded, echo, print_json, service
from catdoc.cli.progress_bars import progress_bars
from catdoc.paging import MAX_LIMIT

if TYPE_CHECKING:
    from catdoc import results as r


class Scope(enum.StrEnum):
    documents = "documents"
    chunks = "chunks"


class Mode(enum.StrEnum):
    text = "text"
    hybrid = "hybrid"
    vector = "vector"


class Period(enum.StrEnum):
    yesterday = "yesterday"
    last_3_days = "last_3_days"
    last_week = "last_week"
    last_7_days = "last_7_days"
    last_month = "last_month"
    last_30_days = "last_30_days"


def _opt(help_text: str, *names: str) -> typer.models.OptionInfo:
    return typer.Option(*names, help=help_text, show_default=False)


@app.command()
def search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="Words to search for.")],
    scope: Annotated[
        Scope, typer.Option(help="Whole documents, or passages (chunks) with line ranges.")
    ] = Scope.documents,
    mode: Annotated[
        Mode | None,
        typer.Option(
            help="text: BM25 only; hybrid: all signals; vector: needs catdoc[semantic]. "
            "Default: search.mode in config.yaml (hybrid)."
        ),
    ] = None,
    category: Annotated[str | None, _opt("Category id, name or alias.", "--category", "-c")] = None,
    include_children: Annotated[
        bool, typer.Option("--include-children", help="With --category: its subcategories too.")
    ] = False,
    domain: Annotated[str | None, _opt("Only this domain.", "--domain")] = None,
    tag: Annotated[
        list[str] | None, _opt("Only documents with this tag (repeat: all of them).", "--tag", "-t")
    ] = None,
    author: Annotated[str | None, _opt("Only this author.", "--author")] = None,
    path: Annotated[
        str | None, _opt("Path glob, e.g. 'docs/req/*.md' or '**/api-*.md'.", "--path")
    ] = None,
    file_type: Annotated[str | None, _opt("File extension, e.g. md.", "--file-type")] = None,
    since: Annotated[str | None, _opt("Dated on or after YYYY-MM-DD.", "--since")] = None,
    until: Annotated[str | None, _opt("Dated on or before YYYY-MM-DD.", "--until")] = None,
    period: Annotated[Period | None, _opt("A recent period (not with --since/--until).")] = None,
    object_id: Annotated[
        str | None, _opt("Search the passages of this one document.", "--object")
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit",
            "-n",
            callback=bounded(1, MAX_LIMIT),
            help=f"At most this many (1–{MAX_LIMIT}). Default: search.limit in config.yaml (10).",
            show_default=False,
        ),
    ] = None,
    offset: Annotated[
        int, typer.Option("--offset", callback=bounded(0), help="Skip this many (for paging).")
    ] = 0,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show each ranking signal's contribution.")
    ] = False,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Search the documents' text, titles, tags and concepts.

    Filters combine with AND. Dates are a document's `updated`, else `created`,
    else its file's modification time. Matched words are marked «like this».

    Examples:
    catdoc search "login timeout"
    catdoc search "card declined" --scope chunks --category requirements
    catdoc search retry --tag payments --period last_30_days --format json
    catdoc search "error message" --object req-payment --debug
    """
    from catdoc.search.filters import make_filters

    filters = make_filters(
        {
            "category": category,
            "include_children": include_children,
            "domain": domain,
            "tags": tag or [],
            "author": author,
            "path": path,
            "file_type": file_type,
            "since": since,
            "until": until,
            "period": period.value if period else None,
            "object": object_id,
        }
    )
    with progress_bars(fmt) as progress:
        response = service(ctx).search(
            query,
            mode=mode.value if mode else None,
            scope=scope.value,
            filters=filters,
            limit=limit,
            offset=offset,
            debug=debug,
            progress=progress,
        )
    if fmt is OutputFormat.json:
        print_json(response)
        return
    echo(render(response))


def render(response: r.SearchResponse) -> str:
    """Plain text: one block per hit, then paging and notes."""
    lines: list[str] = []
    for rank, hit in enumerate(response.results, start=response.offset + 1):
        where = hit.path or hit.url or ""
        if where and hit.start_line is not None:
            where += f":{hit.start_line}-{hit.end_line}"
        head = f"{rank}. {hit.title}  [{hit.id}]"
        if hit.category:
            head += f"  ({hit.category})"
        lines.append(head)
        lines.append(f"   score {hit.score:.3f}" + (f"  {where}" if where else ""))
        if hit.heading_path:
            lines.append("   § " + " › ".join(hit.heading_path))
        if hit.snippet:
            lines.append(f"   {hit.snippet}")
        if hit.matched_concepts:
            lines.append("   concepts: " + ", ".join(hit.matched_concepts))
        if hit.signals:
            parts = [
                f"{name}={value:.3f}" for name, value in hit.signals.items() if "_raw" not in name
            ]
            lines.append("   signals: " + "  ".join(parts))
        lines.append("")
    shown = len(response.results)
    if shown:
        end = response.offset + shown
        summary = f"{response.offset + 1}–{end} of {response.total} ({response.mode}, "
        summary += f"{response.scope})"
        if end < response.total:
            summary += f"; next page: --offset {end}"
    else:
        summary = f"No matches for {response.query!r}."
    lines.append(summary)
    if response.expanded_terms:
        lines.append("Synonyms also searched: " + ", ".join(response.expanded_terms))
    lines += [f"Note: {note}" for note in response.notes]
    return "\n".join(lines)
