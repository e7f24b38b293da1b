"""The core commands: init, validate, list, show, trace, graph."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from catdoc.cli.app import (
    EXIT_FAILED,
    FormatOption,
    LimitOption,
    OffsetOption,
    OutputFormat,
    app,
    bounded,
    count,
    echo,
    echo_painted,
    list_app,
    page_caption,
    painted,
    print_fields,
    print_json,
    print_table,
    range_caption,
    remember_format,
    service,
    show_app,
    state,
)
from catdoc.cli.completion import (
    complete_categories,
    complete_functors,
    complete_morphisms,
    complete_objects,
    complete_transformations,
)
from catdoc.errors import CatDocError
from catdoc.paging import MAX_LIMIT
from catdoc.visible import json_visible

if TYPE_CHECKING:
    from catdoc import results as r
    from catdoc.suggest import Suggestions

MAX_DEPTH = 50
"""The longest trace the service accepts; the option says so before the service is asked."""

CategoryOption = Annotated[
    str | None,
    typer.Option(
        "--category",
        "-c",
        help="Category id, name or alias.",
        show_default=False,
        autocompletion=complete_categories,
    ),
]
ObjectIdArgument = Annotated[
    str, typer.Argument(metavar="ID", help="The object's id.", autocompletion=complete_objects)
]


# --------------------------------------------------------------------------- init
@app.command()
def init(
    ctx: typer.Context,
    directory: Annotated[
        Path | None,
        typer.Argument(
            metavar="DIR",
            help="Where to create .catdoc/ (default: --project DIR, else the current directory).",
            show_default=False,
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(help="Project name for config.yaml (default: the directory's name)."),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Rewrite the template files if .catdoc/ exists (the replaced ones are kept in "
            ".catdoc/backups/), or create a project inside another one.",
        ),
    ] = False,
    bare: Annotated[
        bool,
        typer.Option(
            "--bare", help="Only config.yaml and an empty model (to adopt docs with catdoc import)."
        ),
    ] = False,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Create a new project: .catdoc/ with category.yaml, config.yaml and docs/example.md.

    Refuses to touch an existing .catdoc/, or to start a project inside
    another one, unless --force is given; --force first copies every file it
    replaces to .catdoc/backups/init-<UTC time>/. With --bare the model starts
    empty (no example); the example of a plain init also gives way to the
    first import.

    Examples:
    catdoc init
    catdoc init docs-project --name "Payments docs"
    catdoc init --bare && catdoc import docs --link
    catdoc init --force --format json
    """
    from catdoc.service import CatDoc

    result = CatDoc.init(directory or state(ctx).start, name=name, force=force, bare=bare)
    if fmt is OutputFormat.json:
        print_json(result)
        return
    verb = "Rewrote" if result.overwritten else "Created"
    echo(f"{verb} a CatDoc project in {result.root}:")
    for rel in result.created:
        echo(f"  {rel}")
    if result.backup:
        echo(f"The files it replaced are kept in {result.backup}/.")
    if result.set_aside:
        echo(f"Moved there too, so the model is the template alone: {', '.join(result.set_aside)}.")
    if bare:
        echo("Next: `catdoc import DOCS --link`, then `catdoc validate --suggest`.")
    else:
        echo("Next: edit .catdoc/category.yaml, then run `catdoc validate`.")


# --------------------------------------------------------------------------- validate
class ReportFormat(enum.StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


@app.command()
def validate(
    ctx: typer.Context,
    category: CategoryOption = None,
    functor: Annotated[
        str | None,
        typer.Option(
            help="Validate only this functor.",
            show_default=False,
            autocompletion=complete_functors,
        ),
    ] = None,
    natural_transformation: Annotated[
        str | None,
        typer.Option(
            help="Validate only this natural transformation.",
            show_default=False,
            autocompletion=complete_transformations,
        ),
    ] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too (exit 1).")] = False,
    suggest: Annotated[
        bool,
        typer.Option(
            "--suggest",
            help="Also propose functor mappings (and functors) from the documents' references "
            "across categories (either way), each with the command that applies it; sarif and "
            "github carry them as notes.",
        ),
    ] = False,
    fmt: Annotated[
        ReportFormat,
        typer.Option(
            "--format",
            "-f",
            help="text: readable; json: the report as camelCase JSON; sarif: SARIF 2.1.0 for "
            "code scanning; github: GitHub Actions annotations.",
            case_sensitive=False,
            callback=remember_format,
        ),
    ] = ReportFormat.text,
) -> None:
    """Check the model: categories, functors and natural transformations.

    Checks everything, or one entity with --category, --functor or
    --natural-transformation. Exit status: 0 valid, 1 invalid (or warnings
    with --strict), 2 when the project cannot be loaded or the command line
    is wrong. A whole run keeps its report in .catdoc/cache/; the next one
    gives it back while the model, CatDoc and the documents' paths are
    unchanged and reviews are off.

    Examples:
    catdoc validate
    catdoc validate --strict --format json
    catdoc validate --functor specify
    catdoc validate --suggest
    catdoc validate --format sarif > catdoc.sarif
    catdoc -C examples/traceability validate --category requirements
    """
    from catdoc.validate import render_report
    from catdoc.validate.ci_formats import load_failure, to_github, to_sarif

    chosen = [o for o in (category, functor, natural_transformation) if o is not None]
    if len(chosen) > 1:
        raise typer.BadParameter(
            "give at most one of --category, --functor and --natural-transformation "
            "(or none to validate everything)."
        )
    svc = service(ctx)
    try:
        report = svc.validate(
            category=category, functor=functor, natural_transformation=natural_transformation
        )
    except CatDocError as error:  # CI reads these formats: show it there too, then fail
        if fmt is ReportFormat.sarif:
            from catdoc import __version__

            print_json(to_sarif(load_failure(error), __version__, loaded=False))
        elif fmt is ReportFormat.github:
            echo(to_github(load_failure(error)))
        raise
    suggestions = svc.suggest_mappings(functor) if suggest else None
    if fmt is ReportFormat.sarif:
        from catdoc import __version__

        print_json(to_sarif(report, __version__, suggestions=suggestions))
    elif fmt is ReportFormat.github:
        annotations = to_github(report, suggestions)
        if annotations:
            echo(annotations)
    elif fmt is ReportFormat.json:
        if suggestions is None:
            print_json(report)
        else:
            print_json(
                {
                    **report.model_dump(mode="json", by_alias=True),
                    "suggestions": suggestions.model_dump(mode="json", by_alias=True),
                }
            )
    else:
        echo_painted(render_report(report, paint=painted))
        if suggestions is not None:
            _print_suggestions(suggestions)
    if not report.is_valid or (strict and report.warnings):
        raise typer.Exit(EXIT_FAILED)


MAX_SHOWN_COMMANDS = 20
"""Mapping commands printed per suggested functor (`--format json` has them all)."""


def _print_suggestions(found: Suggestions) -> None:
    if not found.mappings and not found.functors:
        echo("\nSuggestions: none (no document refers to one in another category).")
        return
    if found.mappings:
        echo(f"\nSuggested mappings ({len(found.mappings)}), best supported first:")
        for s in found.mappings:
            places = ", ".join(s.evidence)
            more = "…" if s.references > len(s.evidence) else ""
            echo(
                f"  {s.functor}: {s.source} ↦ {s.target}  ({count(s.references, 'reference')}: "
                f"{places}{more})"
            )
            echo(f"    {s.command}")
    for f in found.functors:
        echo(
            f"\nSuggested functor {f.id}: {f.source_category} → {f.target_category} "
            f"({count(f.references, 'reference')}, {count(len(f.object_mapping), 'mapping')}):"
        )
        for command in f.commands[: MAX_SHOWN_COMMANDS + 1]:
            echo(f"    {command}")
        hidden = len(f.commands) - MAX_SHOWN_COMMANDS - 1
        if hidden > 0:
            echo(f"    … and {hidden} more `catdoc map` commands (see --format json).")


# --------------------------------------------------------------------------- list
@list_app.command("objects")
def list_objects(
    ctx: typer.Context,
    category: CategoryOption = None,
    domain: Annotated[
        str | None, typer.Option(help="Only objects of this domain.", show_default=False)
    ] = None,
    tag: Annotated[
        list[str] | None,
        typer.Option("--tag", "-t", help="Only objects with this tag (repeat: all of them)."),
    ] = None,
    limit: LimitOption = 50,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """List objects (documents), filtered by category, domain and tags.

    Examples:
    catdoc list objects
    catdoc list objects --category requirements --tag security
    catdoc list objects --limit 20 --offset 20 --format json
    """
    page = service(ctx).list_objects(
        category=category, domain=domain, tags=tag or (), limit=limit, offset=offset
    )
    if fmt is OutputFormat.json:
        print_json(page)
        return
    print_table(
        ["ID", "Title", "Category", "Domain", "Path", "Tags"],
        [(o.id, o.title, o.category, o.domain, o.path, o.tags) for o in page.items],
        caption=page_caption(page),
    )


@list_app.command("morphisms")
def list_morphisms(
    ctx: typer.Context,
    category: CategoryOption = None,
    source: Annotated[
        str | None,
        typer.Option(
            help="Only morphisms from this object.",
            show_default=False,
            autocompletion=complete_objects,
        ),
    ] = None,
    target: Annotated[
        str | None,
        typer.Option(
            help="Only morphisms into this object.",
            show_default=False,
            autocompletion=complete_objects,
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(help="Only morphisms of this type, e.g. depends-on.", show_default=False),
    ] = None,
    limit: LimitOption = 50,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """List morphisms (typed relationships), filtered by category, ends and type.

    Examples:
    catdoc list morphisms --category design
    catdoc list morphisms --source req-checkout --format json
    catdoc list morphisms --name depends-on --limit 10
    """
    page = service(ctx).list_morphisms(
        category=category, source=source, target=target, name=name, limit=limit, offset=offset
    )
    if fmt is OutputFormat.json:
        print_json(page)
        return
    print_table(
        ["ID", "Type", "Source", "Target", "Category"],
        [
            (
                m.id,
                m.name + (" (identity)" if m.is_identity else ""),
                m.source,
                m.target,
                m.category,
            )
            for m in page.items
        ],
        caption=page_caption(page),
    )


@list_app.command("functors")
def list_functors(
    ctx: typer.Context,
    limit: LimitOption = 50,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """List the functors (traceability maps between categories), in the model's order.

    Examples:
    catdoc list functors
    catdoc list functors --limit 20 --offset 20
    catdoc list functors --format json
    """
    page = service(ctx).functor_page(limit=limit, offset=offset)
    if fmt is OutputFormat.json:
        print_json(page)
        return
    if not page.total and page.message:
        echo(page.message)
        return
    print_table(
        ["ID", "Name", "Source → Target", "Objects mapped", "Morphisms mapped"],
        [
            (
                f.id,
                f.name,
                f"{f.source_category} → {f.target_category}",
                f.objects_mapped,
                f.morphisms_mapped,
            )
            for f in page.functors
        ],
        caption=range_caption(
            page.offset, len(page.functors), page.total, what=count(page.total, "functor")
        ),
    )


@list_app.command("natural-transformations")
def list_natural_transformations(
    ctx: typer.Context,
    limit: LimitOption = 50,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """List the natural transformations between functors, in the model's order.

    Examples:
    catdoc list natural-transformations
    catdoc list natural-transformations --limit 20 --offset 20
    catdoc list natural-transformations --format json
    """
    page = service(ctx).natural_transformation_page(limit=limit, offset=offset)
    if fmt is OutputFormat.json:
        print_json(page)
        return
    if not page.total and page.message:
        echo(page.message)
        return
    nats = page.natural_transformations
    print_table(
        ["ID", "Name", "Source ⇒ Target", "Components"],
        [
            (n.id, n.name, f"{n.source_functor} ⇒ {n.target_functor}", n.component_count)
            for n in nats
        ],
        caption=range_caption(
            page.offset, len(nats), page.total, what=count(page.total, "natural transformation")
        ),
    )


# --------------------------------------------------------------------------- show
@show_app.command("category")
def show_category(
    ctx: typer.Context,
    ref: Annotated[
        str,
        typer.Argument(
            metavar="ID", help="Category id, name or alias.", autocompletion=complete_categories
        ),
    ],
    limit: LimitOption = 50,
    offset: OffsetOption = 0,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show a category: hierarchy, equations, objects, morphisms and functors.

    Its objects and morphisms are paged like `list`: --limit of each from
    --offset (the counts stay totals).

    Examples:
    catdoc show category requirements
    catdoc show category requirements --limit 20 --offset 20
    catdoc show category REQ --format json
    """
    cat = service(ctx).show_category(ref, limit=limit, offset=offset)
    if fmt is OutputFormat.json:
        print_json(cat)
        return
    print_fields(
        [
            ("id", cat.id),
            ("name", cat.name),
            ("description", cat.description),
            ("hierarchy", " / ".join(cat.hierarchy)),
            ("children", cat.children),
            ("aliases", cat.aliases),
            ("related", cat.related),
            ("semantics", cat.semantics),
            ("functors out", cat.functors_out),
            ("functors in", cat.functors_in),
            ("defined at", cat.location),
        ],
        title=f"Category {cat.id}",
    )
    if cat.equations:
        print_table(
            ["Left path", "Right path"],
            [(" · ".join(lhs) or "id", " · ".join(rhs) or "id") for lhs, rhs in cat.equations],
            title="Equations (diagrammatic order)",
        )
    print_table(
        ["ID", "Title", "Path"],
        [(o.id, o.title, o.path) for o in cat.objects],
        title=f"Objects ({cat.object_count})",
        caption=range_caption(offset, len(cat.objects), cat.object_count),
    )
    print_table(
        ["ID", "Type", "Source", "Target"],
        [(m.id, m.name, m.source, m.target) for m in cat.morphisms],
        title=f"Morphisms ({cat.morphism_count})",
        caption=range_caption(offset, len(cat.morphisms), cat.morphism_count),
    )


@show_app.command("object")
def show_object(
    ctx: typer.Context,
    object_id: ObjectIdArgument,
    max_chars: Annotated[
        int, typer.Option(help="Cut the document text after this many characters.", min=0)
    ] = 2000,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show an object: its fields, relationships, functor images and document text.

    Examples:
    catdoc show object req-checkout
    catdoc show object req-checkout --max-chars 0
    catdoc show object design-payment-adapter --format json
    """
    obj = service(ctx).show_object(object_id, max_chars=max_chars)
    if fmt is OutputFormat.json:
        print_json(obj)
        return
    print_fields(
        [
            ("id", obj.id),
            ("title", obj.title),
            ("category", obj.category),
            ("domain", obj.domain),
            ("path", obj.path),
            ("tags", obj.tags),
            ("author", obj.author),
            ("created", obj.created),
            ("updated", obj.updated),
            ("summary", obj.summary),
            ("url", obj.url),
            ("metadata", obj.metadata),
            ("images", [f"{fun} ↦ {image}" for fun, image in obj.images.items()]),
            ("defined at", obj.location),
        ],
        title=f"Object {obj.id}",
    )
    rows = [("→", m.name, m.target, m.id) for m in obj.outgoing]
    rows += [("←", m.name, m.source, m.id) for m in obj.incoming]
    if rows:
        print_table(["", "Type", "Other end", "Morphism"], rows, title="Relationships")
    if obj.content_error:
        echo(f"(document not readable: {obj.content_error})")
    elif obj.content and max_chars:
        echo("")
        echo(obj.content.rstrip())
        if obj.truncated:
            echo(
                f"… ({obj.content_length - max_chars} more characters; use --max-chars to see more)"
            )


@show_app.command("morphism")
def show_morphism(
    ctx: typer.Context,
    morphism_id: Annotated[
        str,
        typer.Argument(metavar="ID", help="The morphism's id.", autocompletion=complete_morphisms),
    ],
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show a morphism: its ends, type, metadata and images under functors.

    Examples:
    catdoc show morphism checkout-depends-on-cart
    catdoc show morphism checkout-depends-on-cart --format json
    """
    mor = service(ctx).show_morphism(morphism_id)
    if fmt is OutputFormat.json:
        print_json(mor)
        return
    print_fields(
        [
            ("id", mor.id),
            ("type", mor.name),
            ("category", mor.category),
            ("source", f"{mor.source} ({mor.source_title})"),
            ("target", f"{mor.target} ({mor.target_title})"),
            ("identity", mor.is_identity),
            ("metadata", mor.metadata),
            (
                "images",
                [f"{fun} ↦ {' · '.join(path) or 'id'}" for fun, path in mor.images.items()],
            ),
            ("defined at", mor.location),
        ],
        title=f"Morphism {mor.id}",
    )


def _print_mapping(title: str, entries: list[r.MappingEntry]) -> None:
    def shown(value: list[str] | str | None) -> str:
        if value is None:
            return "(missing)"
        if isinstance(value, list):
            return " · ".join(value) or "id"
        return value

    print_table(
        ["From", "To", "Status", "Problems"],
        [(e.key, shown(e.value), e.status, " ".join(e.problems)) for e in entries],
        title=title,
    )


@show_app.command("functor")
def show_functor(
    ctx: typer.Context,
    functor_id: Annotated[
        str,
        typer.Argument(metavar="ID", help="The functor's id.", autocompletion=complete_functors),
    ],
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show a functor: its mappings with a verdict per entry, and the functor laws.

    Examples:
    catdoc show functor specify
    catdoc show functor specify --format json
    """
    fun = service(ctx).show_functor(functor_id)
    if fmt is OutputFormat.json:
        print_json(fun)
        return
    print_fields(
        [
            ("id", fun.id),
            ("name", fun.name),
            ("categories", f"{fun.source_category} → {fun.target_category}"),
            ("identity preservation", fun.identity_preservation),
            ("composition preservation", fun.composition_preservation),
            ("defined at", fun.location),
        ],
        title=f"Functor {fun.id}",
    )
    _print_mapping("Object mapping", fun.object_mapping)
    _print_mapping("Morphism mapping", fun.morphism_mapping)


@show_app.command("natural-transformation")
def show_natural_transformation(
    ctx: typer.Context,
    nat_id: Annotated[
        str,
        typer.Argument(
            metavar="ID",
            help="The natural transformation's id.",
            autocompletion=complete_transformations,
        ),
    ],
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Show a natural transformation: its functors and components with verdicts.

    Examples:
    catdoc show natural-transformation unit-gates-e2e
    catdoc show natural-transformation unit-gates-e2e --format json
    """
    nat = service(ctx).show_natural_transformation(nat_id)
    if fmt is OutputFormat.json:
        print_json(nat)
        return
    print_fields(
        [
            ("id", nat.id),
            ("name", nat.name),
            ("functors", f"{nat.source_functor} ⇒ {nat.target_functor}"),
            ("categories", f"{nat.source_category} → {nat.target_category}"),
            ("defined at", nat.location),
        ],
        title=f"Natural transformation {nat.id}",
    )
    _print_mapping("Components", nat.components)


# --------------------------------------------------------------------------- trace, graph
@app.command()
def trace(
    ctx: typer.Context,
    source: Annotated[
        str,
        typer.Argument(
            metavar="SOURCE", help="Object id to start from.", autocompletion=complete_objects
        ),
    ],
    target: Annotated[
        str,
        typer.Argument(
            metavar="TARGET", help="Object id to reach.", autocompletion=complete_objects
        ),
    ],
    max_depth: Annotated[
        int,
        typer.Option(
            callback=bounded(1, MAX_DEPTH), help=f"Longest path, in hops (1–{MAX_DEPTH})."
        ),
    ] = 8,
    limit: Annotated[
        int,
        typer.Option(
            "--limit",
            "-n",
            callback=bounded(1, MAX_LIMIT),
            help=f"At most this many paths (1–{MAX_LIMIT}).",
        ),
    ] = 10,
    functors: Annotated[
        bool,
        typer.Option("--functors/--no-functors", help="Also cross functors (object ↦ F(object))."),
    ] = True,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Find paths from one object to another, shortest first.

    Inside a category a path follows morphisms; it may also cross functors,
    from an object A to its image F(A). The search is bounded (k shortest
    simple paths), so it is quick even on dense graphs.

    Examples:
    catdoc trace req-checkout test-checkout-e2e
    catdoc trace req-checkout impl-payment-client --max-depth 4 --limit 3
    catdoc trace spec-checkout-api spec-payment-api --no-functors --format json
    """
    result = service(ctx).trace(
        source, target, max_depth=max_depth, limit=limit, via_functors=functors
    )
    if fmt is OutputFormat.json:
        print_json(result)
        return
    if not result.found:
        echo(result.message or "")
        return
    for number, path in enumerate(result.paths, 1):
        parts = [path.nodes[0]]
        for hop in path.hops:
            arrow = f" ={hop.id}=> " if hop.kind == "functor" else f" --{hop.label}--> "
            parts.append(arrow + hop.target)
        echo(f"{number}. [{path.length} hop{'s' if path.length != 1 else ''}] {''.join(parts)}")
    if result.truncated:
        echo(f"More paths exist; raise --limit (now {limit}) to see them.")


class GraphFormat(enum.StrEnum):
    json = "json"
    dot = "dot"
    mermaid = "mermaid"


@app.command()
def graph(
    ctx: typer.Context,
    fmt: Annotated[
        GraphFormat,
        typer.Option(
            "--format",
            "-f",
            help="json (nodes and edges), dot (Graphviz) or mermaid (flowchart).",
            case_sensitive=False,
            callback=remember_format,
        ),
    ] = GraphFormat.json,
    category: CategoryOption = None,
) -> None:
    """Export the graph: objects as nodes; morphisms and functor hops as edges.

    Examples:
    catdoc graph > graph.json
    catdoc graph --format dot | dot -Tsvg > graph.svg
    catdoc graph --format mermaid --category design
    """
    text = service(ctx).export_graph(fmt.value, category=category)
    if fmt is GraphFormat.json:
        typer.echo(json_visible(text), nl=False)
    else:
        echo(text, nl=False)  # labels are escaped for DOT/Mermaid already; this is the guard
