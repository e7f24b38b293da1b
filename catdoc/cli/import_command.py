"""`catdoc import`: adopt files, globs or whole folders of documents as objects."""

from __future__ import annotations

import enum
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from catdoc.cli.app import (
    FormatOption,
    OutputFormat,
    app,
    echo,
    print_json,
    print_table,
    service,
    state,
)
from catdoc.cli.progress_bars import progress_bars

if TYPE_CHECKING:
    from catdoc import results as r

MAX_REFERENCE_ROWS = 50


class CategoryFrom(enum.StrEnum):
    folder = "folder"
    domain = "domain"


@app.command("import")
def import_(
    ctx: typer.Context,
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH...",
            help="Files, globs (quote them: 'docs/**/*.md') or directories inside the project.",
            show_default=False,
        ),
    ],
    recursive: Annotated[
        bool | None,
        typer.Option(
            "--recursive/--no-recursive",
            "-r",
            help="Import directories with all their subfolders (default: config.yaml "
            "import.recursive, which is on); off: only the files directly inside.",
            show_default=False,
        ),
    ] = None,
    category_from: Annotated[
        CategoryFrom | None,
        typer.Option(
            "--category-from",
            help="Group new objects by parent folder or by front matter `domain` "
            "(default: config.yaml import.categoryFrom).",
            case_sensitive=False,
            show_default=False,
        ),
    ] = None,
    category: Annotated[
        str | None,
        typer.Option(
            "--category",
            "-c",
            metavar="ID",
            help="Put every new object in this category (id, name or alias; created if missing).",
            show_default=False,
        ),
    ] = None,
    domain: Annotated[
        str | None,
        typer.Option(
            "--domain", metavar="D", help="Set this domain on every object.", show_default=False
        ),
    ] = None,
    link: Annotated[
        bool | None,
        typer.Option(
            "--link/--no-link",
            help="Turn references between documents of one category (@id, relative links, "
            "wiki links, :doc:/:ref:/:pep: roles) into morphisms, and keep those into other "
            "categories as metadata.related (default: config.yaml import.link).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Let a front matter id take over an existing object with that id."
        ),
    ] = False,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Import documents as objects: one object per file, grouped into categories.

    Ids come from front matter `id`, else from the file name (lengthened with its folders when
    taken). Titles come from front matter `title`, else the first heading. Running it again
    updates what changed and duplicates nothing. category.yaml keeps its comments.

    Relative paths are taken from the current directory (or from --project DIR).

    Examples:
    catdoc import docs/
    catdoc import 'docs/**/*.md' --category-from domain --link
    catdoc import notes/meeting.md --category meetings --domain planning
    catdoc import docs --no-recursive --format json
    """
    base = state(ctx).start.absolute()
    absolute = [str(p if Path(p).is_absolute() else base / p) for p in paths]
    with progress_bars(fmt) as progress:
        result = service(ctx).import_documents(
            absolute,
            recursive=recursive,
            category_from=category_from.value if category_from else None,
            domain=domain,
            category=category,
            link=link,
            force=force,
            progress=progress,
        )
    if fmt is OutputFormat.json:
        print_json(result)
        return
    _print_result(result)


def _print_result(result: r.ImportResult) -> None:
    if result.items:
        print_table(
            ["Action", "Path", "Object", "Category", "Note"],
            [
                (item.action, item.path, item.object_id, item.category, item.reason)
                for item in result.items
            ],
            title="Import",
        )
    if result.references:
        rows = result.references[:MAX_REFERENCE_ROWS]
        more = len(result.references) - len(rows)
        print_table(
            ["Source", "Line", "Kind", "Reference", "Resolves to", "Status"],
            [
                (
                    ref["source"],
                    ref["line"],
                    f":{ref['role']}:" if ref.get("role") else ref["kind"],
                    ref["target"],
                    ref["resolved"] or " or ".join(ref.get("candidates") or ()) or None,
                    ref["status"] + (f" ({ref['morphism']})" if ref["morphism"] else ""),
                )
                for ref in rows
            ],
            title="References",
            caption=f"… and {more} more (use --format json)." if more > 0 else None,
        )
    echo(
        f"Created {result.created}, updated {result.updated}, unchanged {result.unchanged}, "
        f"skipped {result.skipped}."
    )
    if result.references:
        statuses = Counter(ref["status"] for ref in result.references)
        echo("References: " + ", ".join(f"{n} {status}" for status, n in sorted(statuses.items())))
    if result.morphisms_created:
        shown = result.morphisms_created[:MAX_REFERENCE_ROWS]
        more = len(result.morphisms_created) - len(shown)
        echo(
            f"Morphisms created ({len(result.morphisms_created)}): {', '.join(shown)}"
            + (f" … and {more} more (use --format json)." if more > 0 else "")
        )
    if result.example_removed:
        echo(f"Replaced the example model of `catdoc init`: {', '.join(result.example_removed)}.")
    if result.written:
        echo(f"Wrote {', '.join(result.written)}.")
    else:
        echo("Nothing to write: the model is up to date.")
