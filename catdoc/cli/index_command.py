"""`catdoc index`: build or refresh the search index now, optionally with every vector."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from catdoc.cli.app import FormatOption, OutputFormat, app, echo, print_json, service
from catdoc.cli.progress_bars import progress_bars


class VectorScope(enum.StrEnum):
    documents = "documents"
    chunks = "chunks"


@app.command()
def index(
    ctx: typer.Context,
    vectors: Annotated[
        bool,
        typer.Option(
            "--vectors",
            help="Also compute every missing vector (needs catdoc[semantic]; roughly 90 ms of "
            "one core per document or passage).",
        ),
    ] = False,
    scope: Annotated[
        list[VectorScope] | None,
        typer.Option(
            "--scope",
            help="With --vectors: only the vectors of documents or of passages (chunks); "
            "repeat for both (the default).",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Build or refresh the search index in .catdoc/cache/ now.

    The first search does this by itself; run it ahead (after a large import, in CI, before
    handing the project to an assistant) so no search waits. Only documents whose fields or
    files changed are read again. Progress bars show on a terminal.

    Examples:
    catdoc index
    catdoc index --vectors
    catdoc index --vectors --scope documents --format json
    """
    if scope and not vectors:
        raise typer.BadParameter("--scope applies to vectors; add --vectors.")
    scopes = [s.value for s in scope or list(VectorScope)] if vectors else []
    with progress_bars(fmt) as progress:
        result = service(ctx).build_index(vectors=scopes, progress=progress)
    if fmt is OutputFormat.json:
        print_json(result)
        return
    echo(
        f"Search index up to date: {result.documents:,} documents, {result.indexed:,} "
        f"(re)indexed, {result.removed:,} removed, in {result.seconds:.1f} s."
    )
    for done in result.vectors:
        noun = "documents" if done.scope == "documents" else "passages"
        echo(f"Vectors of {noun}: {done.computed:,} computed, {done.total:,} in all.")
