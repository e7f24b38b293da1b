"""`catdoc search`: ranked documents or passages, with filters."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated

import typer

from catdoc.cli.app import (
    FormatOption,
    OutputFormat,
    app,
    bounded,
    echo,
    print_json,
    range_caption,
    service,
)
from catdoc.cli.progress_bars import progress_bars
from catdoc.paging import MAX_LIMIT
from catdoc.search.hit_details import HIT_CONTENT_CHARS

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
    category: Annotated[
        list[str] | None,
        _opt("Category id, name or alias (repeat: any of them).", "--category", "-c"),
    ] = None,
    include_children: Annotated[
        bool, typer.Option("--include-children", help="With --category: its subcategories too.")
    ] = False,
    domain: Annotated[str | None, _opt("Only this domain.", "--domain")] = None,
    tag: Annotated[
        list[str] | None, _opt("Only documents with this tag (repeat: any of them).", "--tag", "-t")
    ] = None,
    author: Annotated[str | None, _opt("Only this author.", "--author")] = None,
    path: Annotated[
        str | None, _opt("Path glob, e.g. 'docs/req/*.md' or '**/api-*.md'.", "--path")
    ] = None,
    file_type: Annotated[
        list[str] | None, _opt("File extension, e.g. md (repeat: any of them).", "--file-type")
    ] = None,
    source: Annotated[
        list[str] | None,
        _opt(
            "Where documents come from: 'inline' (text in the model), a folder such as "
            "docs/req, or a URL prefix (repeat: any of them).",
            "--source",
        ),
    ] = None,
    since: Annotated[str | None, _opt("Dated on or after YYYY-MM-DD.", "--since")] = None,
    until: Annotated[str | None, _opt("Dated on or before YYYY-MM-DD.", "--until")] = None,
    period: Annotated[Period | None, _opt("A recent period (not with --since/--until).")] = None,
    object_id: Annotated[
        str | None, _opt("Search the passages of this one document.", "--object")
    ] = None,
    chunk_range: Annotated[
        str | None,
        _opt(
            "Only passages START to END of each document (from 0, both included; "
            "'3:' to the last, ':2' from the first); searches passages.",
            "--chunk-range",
        ),
    ] = None,
    cards_only: Annotated[
        bool,
        typer.Option(
            "--cards-only", help="Search the documents' summary cards alone (and show them)."
        ),
    ] = False,
    cluster: Annotated[
        str | None, _opt("Only documents of this cluster (see catdoc clusters).", "--cluster")
    ] = None,
    content: Annotated[
        bool,
        typer.Option(
            "--content",
            help=f"Show each hit's text: the passage, or the document cut at "
            f"{HIT_CONTENT_CHARS:,} characters.",
        ),
    ] = False,
    cluster_info: Annotated[
        bool,
        typer.Option(
            "--cluster-info",
            help="Show each hit's cluster (computes the clusters first: seconds on a large "
            "project).",
        ),
    ] = False,
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

    Filters combine with AND; a repeated option (--category, --tag, --file-type,
    --source) matches any of its values. Dates are a document's `updated`, else
    `created`, else its file's modification time. Matched words are marked «like
    this». JSON hits carry each document's card (`summary`).

    Examples:
    catdoc search "login timeout"
    catdoc search "card declined" --scope chunks --category requirements
    catdoc search retry --tag payments --tag billing --period last_30_days --format json
    catdoc search "error message" --object req-payment --debug
    catdoc search setup --source docs/guides --chunk-range 0:2 --content
    catdoc search "single sign-on" --cards-only
    """
    from catdoc.search.filters import make_filters

    filters = make_filters(
        {
            "category": category or None,
            "include_children": include_children,
            "domain": domain,
            "tags": tag or None,
            "author": author,
            "path": path,
            "file_type": file_type or None,
            "source": source or None,
            "since": since,
            "until": until,
            "period": period.value if period else None,
            "object": object_id,
            "chunk_range": chunk_range,
            "cards_only": cards_only,
            "cluster_id": cluster,
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
            include_content=content,
            include_clusters=cluster_info,
        )
    if fmt is OutputFormat.json:
        print_json(response)
        return
    echo(render(response, cards=cards_only))


def render(response: r.SearchResponse, *, cards: bool = False) -> str:
    """Plain text: one block per hit (its card with `cards`, its text when it carries it),
    then paging and notes."""
    lines: list[str] = []
    for rank, hit in enumerate(response.results, start=response.offset + 1):
        where = hit.path or hit.url or ""
        if where and hit.start_line is not None:
            where += f":{hit.start_line}-{hit.end_line}"
        head = f"{rank}. {hit.title}  [{hit.id}]"
        if hit.category:
            head += f"  ({hit.category})"
        lines.append(head)
        passage = f"  passage {hit.chunk_index}" if hit.chunk_index is not None else ""
        lines.append(f"   score {hit.score:.3f}" + (f"  {where}" if where else "") + passage)
        if hit.heading_path:
            lines.append("   § " + " › ".join(hit.heading_path))
        if hit.snippet:
            lines.append(f"   {hit.snippet}")
        if hit.matched_concepts:
            lines.append("   concepts: " + ", ".join(hit.matched_concepts))
        if hit.cluster_id:
            lines.append(f"   cluster: {hit.cluster_name}  [{hit.cluster_id}]")
        if cards and hit.summary:
            lines.append(f"   card: {hit.summary}")
        if hit.content is not None:
            cut = f" … (cut at {len(hit.content):,} of {hit.content_length:,} characters)"
            text = hit.content.strip() + (cut if hit.truncated else "")
            lines += ["   | " + line for line in text.splitlines()]
        if hit.signals:
            parts = [
                f"{name}={value:.3f}" for name, value in hit.signals.items() if "_raw" not in name
            ]
            lines.append("   signals: " + "  ".join(parts))
        lines.append("")
    shown = len(response.results)
    if response.total:
        how = f"{response.total} ({response.mode}, {response.scope})"
        summary = range_caption(response.offset, shown, response.total, what=how)
    else:
        summary = f"No matches for {response.query!r}."
    lines.append(summary)
    if response.expanded_terms:
        lines.append("Synonyms also searched: " + ", ".join(response.expanded_terms))
    lines += [f"Note: {note}" for note in response.notes]
    return "\n".join(lines)
