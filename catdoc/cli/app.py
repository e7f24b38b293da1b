"""The typer app, its global options, and the helpers every command shares.

Commands only translate: parse options, call `CatDoc`, print the result as a rich table or as
JSON. Heavy modules (the service and its models, rich, networkx …) load inside commands, so
`catdoc --help` stays fast.
"""

from __future__ import annotations

import enum
import json
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from catdoc.errors import (
    LOAD_ERROR,
    NOT_FOUND,
    PATH_OUTSIDE_PROJECT,
    PROJECT_NOT_FOUND,
    VALIDATION_ERROR,
    CatDocError,
)

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console

    from catdoc.service import CatDoc

EXIT_FAILED = 1
"""A check failed (e.g. an invalid model) or an operation could not be done (file exists …)."""
EXIT_USAGE = 2
"""The project cannot be loaded, or the command line names something wrong."""

_USAGE_CODES = {LOAD_ERROR, PROJECT_NOT_FOUND, VALIDATION_ERROR, NOT_FOUND, PATH_OUTSIDE_PROJECT}
_JSON_ERRORS = "catdoc.json_errors"
PIPE_WIDTH = 120


def exit_code_for(error: CatDocError) -> int:
    return EXIT_USAGE if error.code in _USAGE_CODES else EXIT_FAILED


def report_error(error: CatDocError, *, as_json: bool) -> None:
    """The one place a CatDocError becomes output: stderr, as text or as `{"error": …}` JSON."""
    if as_json:
        typer.echo(json.dumps(error.to_dict(), ensure_ascii=False, indent=2), err=True)
        return
    lines = [typer.style("Error: ", fg="red", bold=True) + error.message]
    if error.suggestions:
        lines.append(f"Did you mean: {', '.join(error.suggestions)}?")
    if error.hint:
        lines.append(f"Hint: {error.hint}")
    typer.echo("\n".join(lines), err=True)


class CatDocGroup(TyperGroup):
    """Turns every CatDocError raised below it into a clear message and an exit code."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CatDocError as error:
            report_error(error, as_json=bool(ctx.meta.get(_JSON_ERRORS)))
            raise typer.Exit(exit_code_for(error)) from None


HELP = """Validate, trace and explore the documents of a repository as a category-theory graph.

Examples:
catdoc init
catdoc validate
catdoc -C examples/traceability trace req-checkout test-checkout-e2e
catdoc list objects --category requirements --format json
"""

app = typer.Typer(
    name="catdoc",
    cls=CatDocGroup,
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_show_locals=False,
)
list_app = typer.Typer(
    help="List the entities of the model.\n\n"
    "Examples:\ncatdoc list categories\ncatdoc list objects --category design --limit 20",
    no_args_is_help=True,
)
show_app = typer.Typer(
    help="Show one entity in detail.\n\n"
    "Examples:\ncatdoc show object req-checkout\ncatdoc show functor specify --format json",
    no_args_is_help=True,
)
app.add_typer(list_app, name="list")
app.add_typer(show_app, name="show")


@dataclass
class State:
    """Global options, kept on the command context for the commands."""

    project: Path | None = None
    _service: CatDoc | None = None

    @property
    def start(self) -> Path:
        return self.project or Path.cwd()

    def service(self) -> CatDoc:
        """The project's service, created on first use (loading is lazy in the service too)."""
        if self._service is None:
            if self.project is not None and not self.project.is_dir():
                raise CatDocError(
                    PROJECT_NOT_FOUND,
                    f"--project {self.project}: no such directory.",
                    "Pass an existing directory inside a CatDoc project.",
                )
            from catdoc.service import CatDoc

            self._service = CatDoc(self.start)
        return self._service


def _version(value: bool) -> None:
    if value:
        from catdoc import __version__

        typer.echo(f"catdoc {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    project: Annotated[
        Path | None,
        typer.Option(
            "--project",
            "-C",
            metavar="DIR",
            help="Run as if started in DIR (the project is the nearest ancestor with .catdoc/).",
            show_default=False,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    ctx.obj = State(project=project)


def state(ctx: typer.Context) -> State:
    return ctx.ensure_object(State)


def service(ctx: typer.Context) -> CatDoc:
    return state(ctx).service()


# --------------------------------------------------------------------------- output formats
class OutputFormat(enum.StrEnum):
    text = "text"
    json = "json"


def remember_format(ctx: typer.Context, _param: typer.CallbackParam, value: Any) -> Any:
    """Option callback: errors are printed as JSON when the output is JSON."""
    ctx.meta[_JSON_ERRORS] = str(value) == "json"
    return value


ServeProjectOption = Annotated[
    Path | None,
    typer.Option(
        "--project",
        "-C",
        metavar="DIR",
        help="A directory inside the project (default: the global --project, else cwd).",
        show_default=False,
    ),
]
"""`--project` repeated after a long-running command (`catdoc mcp --project DIR`), as assistant
configurations usually write it."""

FormatOption = Annotated[
    OutputFormat,
    typer.Option(
        "--format",
        "-f",
        help="text: readable tables; json: the result as camelCase JSON (errors too, on stderr).",
        case_sensitive=False,
        callback=remember_format,
    ),
]


def as_jsonable(data: Any) -> Any:
    """Pydantic models (or lists of them) as JSON-ready camelCase data."""
    if isinstance(data, list):
        return [as_jsonable(item) for item in data]
    if hasattr(data, "model_dump"):
        return data.model_dump(mode="json", by_alias=True)
    return data


def print_json(data: BaseModel | Sequence[BaseModel] | dict[str, Any]) -> None:
    if hasattr(data, "model_dump_json"):
        text = data.model_dump_json(by_alias=True, indent=2)  # type: ignore[union-attr]
    else:
        text = json.dumps(as_jsonable(data), ensure_ascii=False, indent=2)
    typer.echo(text)


def console() -> Console:
    """Rich console for stdout; piped output gets 120 columns (not 80) unless COLUMNS is set."""
    from rich.console import Console

    stream = sys.stdout
    width = None if stream.isatty() or os.environ.get("COLUMNS") else PIPE_WIDTH
    return Console(file=stream, width=width, highlight=False, soft_wrap=False)


def print_table(
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    title: str | None = None,
    caption: str | None = None,
) -> None:
    """A rich table; cells are plain text (no markup is interpreted in user data)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, caption=caption, caption_justify="left", title_justify="left")
    for index, column in enumerate(columns):
        table.add_column(column, overflow="fold", no_wrap=index == 0)
    for row in rows:
        table.add_row(*(Text(cell_text(value)) for value in row))
    console().print(table)


def print_fields(fields: Sequence[tuple[str, Any]], *, title: str | None = None) -> None:
    """Key/value lines for one entity; empty values are left out."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, show_header=False, box=None, title_justify="left", pad_edge=False)
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    for key, value in fields:
        if value not in (None, "", [], {}):
            table.add_row(key, Text(cell_text(value)))
    console().print(table)


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(cell_text(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={cell_text(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def count(n: int, noun: str, plural: str | None = None) -> str:
    """'1 functor', '2 functors'."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def page_caption(page: Any) -> str:
    """'1–50 of 120 (next page: --offset 50)' for a `results.Page`."""
    if page.total == 0:
        return "No matches."
    end = page.offset + len(page.items)
    if not page.items:
        return f"None of {page.total} at offset {page.offset}."
    text = f"{page.offset + 1}–{end} of {page.total}"
    if end < page.total:
        text += f" (next page: --offset {end})"
    return text
