"""The edit commands: add, map, component, rm, mv.

Each one is one call to a write method of `CatDoc` (one transaction: lock, version check, all
files or none, comments kept) and prints its `EditResult`: what changed, the files written and
the findings about what it touched. Exit status: 0 done, 1 the edit left an error among those
findings or was refused (BUSY, CONFLICT, IN_USE, a validator code), 2 the command line or an id
is wrong.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from catdoc.cli.app import (
    EXIT_FAILED,
    FormatOption,
    OutputFormat,
    app,
    count,
    echo,
    echo_painted,
    painted,
    print_json,
    service,
)
from catdoc.cli.completion import (
    complete_any,
    complete_categories,
    complete_functors,
    complete_objects,
    complete_objects_or_morphisms,
    complete_transformations,
)
from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.visible import visible

if TYPE_CHECKING:
    from catdoc.edit import EditResult, EntityKind
    from catdoc.model import PathSpec
    from catdoc.service import CatDoc

add_app = typer.Typer(
    help="Create an entity, or update the given fields of an existing one.\n\n"
    "Examples:\n"
    "catdoc add object requirements req-refund --title Refunds --tag payment\n"
    "catdoc add morphism requirements req-refund req-payment --name depends-on\n"
    "catdoc add category audits --name Audits --parent requirements\n"
    "catdoc add functor audit --from requirements --to audits\n"
    "catdoc add transformation eta2 --from implement --to implement-v2",
    no_args_is_help=True,
)
app.add_typer(add_app, name="add")

ExpectOption = Annotated[
    str | None,
    typer.Option(
        "--expect-version",
        metavar="VERSION",
        help="Refuse (CONFLICT, nothing written) unless the model is still at this version "
        "(printed by every edit).",
        show_default=False,
    ),
]
UnsetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--unset",
        metavar="FIELD",
        help="Remove this field (repeat; `metadata.KEY` removes one metadata key).",
        show_default=False,
    ),
]
FileOption = Annotated[
    str | None,
    typer.Option(
        "--file",
        metavar="FILE",
        help="Model file for a new entity: .catdoc/category.yaml (default) or "
        ".catdoc/categories/NAME.yaml.",
        show_default=False,
    ),
]
NameOption = Annotated[str | None, typer.Option("--name", help="Its name.", show_default=False)]

IDENTITY = ("[]", "id")
"""How a command line writes the identity path (the empty path) of `map` and `component`."""


class Semantics(enum.StrEnum):
    free = "free"
    thin = "thin"


# --------------------------------------------------------------------------- output
def show(result: EditResult, fmt: OutputFormat) -> None:
    """Print the result; exit 1 when the edit left an error behind among its findings."""
    if fmt is OutputFormat.json:
        print_json(result)
    else:
        _print_text(result)
    if not result.valid:
        raise typer.Exit(EXIT_FAILED)


def _print_text(result: EditResult) -> None:
    if not result.changes and not result.files:
        echo("Nothing changed: the model already says that.")
    for change in result.changes:
        detail = f" ({change.detail})" if change.detail else ""
        echo(f"{change.action.capitalize()} {change.kind} {change.id}{detail}")
    if result.files:
        echo(f"Files written: {', '.join(result.files)}")
    echo(f"Version: {result.version}")
    if not result.findings_total:
        return
    echo(
        f"{count(result.errors, 'error')} and {count(result.warnings, 'warning')} "
        "about what changed:"
    )
    for finding in result.findings:
        where = f" {finding.location}" if finding.location else ""
        label = painted(finding.severity, finding.severity)
        echo_painted(f"  {label} {visible(f'{finding.code}{where}: {finding.message}')}")
    if result.findings_total > len(result.findings):
        echo(f"  … and {result.findings_total - len(result.findings)} more (catdoc validate).")


# --------------------------------------------------------------------------- parsing
def _fields(values: dict[str, Any], unset: list[str] | None) -> dict[str, Any]:
    """The given options as fields, plus `--unset FIELD` as None (`metadata.KEY` inside
    metadata). Options not given are left out, so they stay as they are; the service refuses
    a field name it does not know."""
    fields = {key: value for key, value in values.items() if value is not None}
    for name in unset or ():
        key, dot, meta_key = name.partition(".")
        if dot and (key != "metadata" or not meta_key):
            raise typer.BadParameter(
                f"{name!r}: only metadata has keys (metadata.KEY).", param_hint="--unset"
            )
        if meta_key:
            fields.setdefault("metadata", {})[meta_key] = None
        elif key in fields:
            raise typer.BadParameter(f"{key} is both given and unset.", param_hint="--unset")
        else:
            fields[key] = None
    return fields


def _metadata(pairs: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{pair!r} is not KEY=VALUE.", param_hint="--meta")
        out[key.strip()] = value
    return out


def _category_id(svc: CatDoc, ref: str | None) -> str | None:
    """A category given by id, name or alias, as its id (None stays None)."""
    return None if ref is None else svc.category(ref).id


def _kind(svc: CatDoc, ident: str) -> str | None:
    """What `ident` names (object, morphism …), or None when nothing does."""
    try:
        return svc.locate_entity(ident).kind
    except CatDocError as error:
        if error.code == NOT_FOUND:
            return None
        raise


def parse_path(svc: CatDoc, text: str) -> PathSpec:
    """A path as a command line writes it: a morphism id, steps joined by `,` or `.` (first step
    first), or `[]` / `id` for the identity. An existing morphism id is taken as written."""
    text = text.strip()
    if _kind(svc, text) == "morphism":
        return text
    if text in IDENTITY:
        return []
    separator = "," if "," in text else "." if "." in text else None
    if separator is None:
        return text
    steps = [step.strip() for step in text.split(separator)]
    if not all(steps):
        raise CatDocError(
            VALIDATION_ERROR,
            f"The path {text!r} has an empty step.",
            f"Join morphism ids with {separator!r}, first step first (e.g. f{separator}g); "
            "for the identity write [] or id.",
        )
    return steps


def _target(remove: bool, value: str | None, what: str) -> str | None:
    """The new value, or None with --remove; exactly one of them must be given."""
    if remove and value is not None:
        raise typer.BadParameter(f"give {what} or --remove, not both.")
    if not remove and value is None:
        raise typer.BadParameter(f"give {what}, or --remove to remove the entry.")
    return value


# --------------------------------------------------------------------------- add
@add_app.command("object")
def add_object(
    ctx: typer.Context,
    category: Annotated[
        str,
        typer.Argument(
            metavar="CATEGORY",
            help="Category id, name or alias.",
            autocompletion=complete_categories,
        ),
    ],
    object_id: Annotated[str, typer.Argument(metavar="ID", help="The object's id.")],
    title: Annotated[str | None, typer.Option(help="Title.", show_default=False)] = None,
    path: Annotated[
        str | None,
        typer.Option(help="Document file, relative to the project root.", show_default=False),
    ] = None,
    content_file: Annotated[
        Path | None,
        typer.Option(
            "--content-file",
            metavar="FILE",
            help="Write this file's text as the document (at --path, the object's path, or "
            "docs/CATEGORY/ID.md).",
            exists=True,
            dir_okay=False,
            show_default=False,
        ),
    ] = None,
    content: Annotated[
        str | None,
        typer.Option(
            help="Write this text as the document (like --content-file).", show_default=False
        ),
    ] = None,
    tag: Annotated[
        list[str] | None,
        typer.Option("--tag", "-t", help="Tag (repeat; replaces the tags).", show_default=False),
    ] = None,
    domain: Annotated[str | None, typer.Option(help="Domain.", show_default=False)] = None,
    summary: Annotated[
        str | None, typer.Option(help="One-paragraph summary.", show_default=False)
    ] = None,
    author: Annotated[str | None, typer.Option(help="Author.", show_default=False)] = None,
    url: Annotated[str | None, typer.Option(help="URL.", show_default=False)] = None,
    meta: Annotated[
        list[str] | None,
        typer.Option(
            "--meta",
            metavar="KEY=VALUE",
            help="Metadata entry (repeat; merged with the existing metadata).",
            show_default=False,
        ),
    ] = None,
    unset: UnsetOption = None,
    expect_version: ExpectOption = None,
    expect_content_version: Annotated[
        str | None,
        typer.Option(
            "--expect-content-version",
            metavar="V",
            help="With --content/--content-file: the contentVersion `catdoc show object "
            "--format json` gave; if the document's text changed since, nothing is written "
            "(CONFLICT).",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Add an object (a document) to a category, or update the given fields of an existing one.

    Fields not given stay as they are; --unset removes one. --content or --content-file writes
    the document itself, in the same all-or-nothing write as the model.

    Examples:
    catdoc add object requirements req-refund --title Refunds --tag payment --tag customer
    catdoc add object reqs req-refund --content-file notes/refund.md --meta priority=high
    catdoc add object requirements req-refund --unset summary --format json
    """
    if content is not None and content_file is not None:
        raise typer.BadParameter("give --content or --content-file, not both.")
    if content_file is not None:
        try:
            content = content_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CatDocError(
                VALIDATION_ERROR,
                f"--content-file {content_file}: cannot be read as UTF-8 text ({exc}).",
                "Give a readable UTF-8 text file.",
            ) from None
    values: dict[str, Any] = {
        "title": title,
        "domain": domain,
        "path": path,
        "tags": tag or None,
        "author": author,
        "summary": summary,
        "url": url,
        "metadata": _metadata(meta) or None,
    }
    fields = _fields(values, unset)
    svc = service(ctx)
    result = svc.upsert_object(
        svc.category(category).id,
        object_id,
        fields,
        content=content,
        expected_version=expect_version,
        expected_content_version=expect_content_version,
    )
    show(result, fmt)


@add_app.command("morphism")
def add_morphism(
    ctx: typer.Context,
    category: Annotated[
        str,
        typer.Argument(
            metavar="CATEGORY",
            help="Category id, name or alias.",
            autocompletion=complete_categories,
        ),
    ],
    source: Annotated[
        str,
        typer.Argument(metavar="SOURCE", help="Source object id.", autocompletion=complete_objects),
    ],
    target: Annotated[
        str,
        typer.Argument(metavar="TARGET", help="Target object id.", autocompletion=complete_objects),
    ],
    name: Annotated[
        str | None,
        typer.Option("--name", help="The relationship's type (depends-on …).", show_default=False),
    ] = None,
    morphism_id: Annotated[
        str | None,
        typer.Option("--id", help="Its id (default: SOURCE-NAME-TARGET).", show_default=False),
    ] = None,
    expect_version: ExpectOption = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Add a morphism (a typed relationship) between two objects of one category.

    Examples:
    catdoc add morphism requirements req-refund req-payment --name depends-on
    catdoc add morphism design refund-service payment-service --id refund-calls-payment
    """
    svc = service(ctx)
    result = svc.add_morphism(
        svc.category(category).id,
        source,
        target,
        name=name,
        morphism_id=morphism_id,
        expected_version=expect_version,
    )
    show(result, fmt)


@add_app.command("category")
def add_category(
    ctx: typer.Context,
    category_id: Annotated[str, typer.Argument(metavar="ID", help="The category's id.")],
    name: NameOption = None,
    description: Annotated[
        str | None, typer.Option(help="What it holds.", show_default=False)
    ] = None,
    alias: Annotated[
        list[str] | None,
        typer.Option("--alias", help="Alias (repeat; replaces the aliases).", show_default=False),
    ] = None,
    parent: Annotated[
        str | None, typer.Option(help="Parent category id.", show_default=False)
    ] = None,
    related: Annotated[
        list[str] | None,
        typer.Option(help="Related category id (repeat; replaces the list).", show_default=False),
    ] = None,
    semantics: Annotated[
        Semantics | None,
        typer.Option(
            help="free: paths equal only by equations; thin: parallel paths are equal.",
            show_default=False,
        ),
    ] = None,
    unset: UnsetOption = None,
    file: FileOption = None,
    expect_version: ExpectOption = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Add a category, or update the given header fields of an existing one.

    Examples:
    catdoc add category audits --name Audits --parent requirements --semantics thin
    catdoc add category audits --file .catdoc/categories/audits.yaml
    catdoc add category requirements --alias reqs --alias REQ --unset description
    """
    values: dict[str, Any] = {
        "name": name,
        "description": description,
        "aliases": alias or None,
        "parent": parent,
        "related": related or None,
        "semantics": semantics.value if semantics is not None else None,
    }
    result = service(ctx).upsert_category(
        category_id,
        _fields(values, unset),
        file=file,
        expected_version=expect_version,
    )
    show(result, fmt)


@add_app.command("functor")
def add_functor(
    ctx: typer.Context,
    functor_id: Annotated[str, typer.Argument(metavar="ID", help="The functor's id.")],
    source: Annotated[
        str | None,
        typer.Option(
            "--from", help="Source category (required for a new functor).", show_default=False
        ),
    ] = None,
    target: Annotated[
        str | None,
        typer.Option(
            "--to", help="Target category (required for a new functor).", show_default=False
        ),
    ] = None,
    name: NameOption = None,
    file: FileOption = None,
    expect_version: ExpectOption = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Add a functor between two categories, or update an existing functor's header.

    Its mapping is filled with `catdoc map`.

    Examples:
    catdoc add functor audit --from requirements --to audits --name "Requirements → Audits"
    catdoc add functor audit --name "Audit trail"
    """
    svc = service(ctx)
    result = svc.upsert_functor(
        functor_id,
        name=name,
        source_category=_category_id(svc, source),
        target_category=_category_id(svc, target),
        file=file,
        expected_version=expect_version,
    )
    show(result, fmt)


@add_app.command("transformation")
def add_transformation(
    ctx: typer.Context,
    nat_id: Annotated[str, typer.Argument(metavar="ID", help="The transformation's id.")],
    source: Annotated[
        str | None,
        typer.Option("--from", help="Source functor (required when new).", show_default=False),
    ] = None,
    target: Annotated[
        str | None,
        typer.Option("--to", help="Target functor (required when new).", show_default=False),
    ] = None,
    name: NameOption = None,
    file: FileOption = None,
    expect_version: ExpectOption = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Add a natural transformation between two parallel functors, or update its header.

    Its components are set with `catdoc component`.

    Examples:
    catdoc add transformation eta2 --from implement --to implement-v2 --name η2
    catdoc add transformation eta2 --name "v1 ⇒ v2"
    """
    result = service(ctx).upsert_natural_transformation(
        nat_id,
        name=name,
        source_functor=source,
        target_functor=target,
        file=file,
        expected_version=expect_version,
    )
    show(result, fmt)


# --------------------------------------------------------------------------- map, component
RemoveOption = Annotated[
    bool, typer.Option("--remove", help="Remove the entry instead of setting it.")
]


@app.command("map")
def map_entry(
    ctx: typer.Context,
    functor: Annotated[
        str,
        typer.Argument(
            metavar="FUNCTOR", help="The functor's id.", autocompletion=complete_functors
        ),
    ],
    source: Annotated[
        str,
        typer.Argument(
            metavar="SRC",
            help="An object or a morphism of the source category.",
            autocompletion=complete_objects_or_morphisms,
        ),
    ],
    target: Annotated[
        str | None,
        typer.Argument(
            metavar="TGT",
            help="For an object: an object of the target category. For a morphism: a morphism "
            "id, a path `f,g` (or `f.g`), or `[]` / `id` for the identity.",
            show_default=False,
        ),
    ] = None,
    remove: RemoveOption = False,
    expect_version: ExpectOption = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Set one entry of a functor's mapping: F(SRC) = TGT.

    Examples:
    catdoc map specify req-refund spec-refund-api
    catdoc map implement design-uses-gateway svc-calls-client,client-calls-gateway
    catdoc map specify req-refund --remove
    """
    value = _target(remove, target, "TGT")
    svc = service(ctx)
    if _kind(svc, source) == "morphism":
        image = None if value is None else parse_path(svc, value)
        result = svc.set_mapping(
            functor, morphisms={source: image}, expected_version=expect_version
        )
    else:
        result = svc.set_mapping(functor, objects={source: value}, expected_version=expect_version)
    show(result, fmt)


@app.command("component")
def component(
    ctx: typer.Context,
    nat: Annotated[
        str,
        typer.Argument(
            metavar="NT",
            help="The natural transformation's id.",
            autocompletion=complete_transformations,
        ),
    ],
    obj: Annotated[
        str,
        typer.Argument(
            metavar="OBJ",
            help="An object of the functors' source category.",
            autocompletion=complete_objects,
        ),
    ],
    path: Annotated[
        str | None,
        typer.Argument(
            metavar="PATH",
            help="The component F(OBJ) → G(OBJ): a morphism id, a path `f,g` (or `f.g`), or "
            "`[]` / `id` for the identity.",
            show_default=False,
        ),
    ] = None,
    remove: RemoveOption = False,
    expect_version: ExpectOption = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Set the component of a natural transformation at one object.

    Examples:
    catdoc component eta req-checkout checkout-v1-to-v2
    catdoc component eta req-cart id
    catdoc component eta req-cart --remove
    """
    value = _target(remove, path, "PATH")
    svc = service(ctx)
    spec = None if value is None else parse_path(svc, value)
    show(svc.set_components(nat, {obj: spec}, expected_version=expect_version), fmt)


# --------------------------------------------------------------------------- rm, mv
class Kind(enum.StrEnum):
    """A kind of entity, as `--kind` names it."""

    object = "object"
    morphism = "morphism"
    category = "category"
    functor = "functor"
    transformation = "transformation"


KindOption = Annotated[
    Kind | None,
    typer.Option(
        "--kind",
        help="Which entity, when two kinds share the id (ids are unique within a kind).",
        show_default=False,
    ),
]


def _entity_kind(kind: Kind | None) -> EntityKind | None:
    from catdoc.edit import KIND_OPTIONS  # the write path loads on first use

    return None if kind is None else next(k for k, o in KIND_OPTIONS.items() if o == kind.value)


@app.command("rm")
def remove_entity(
    ctx: typer.Context,
    ident: Annotated[
        str,
        typer.Argument(
            metavar="ID",
            help="An object, morphism, category, functor or transformation.",
            autocompletion=complete_any,
        ),
    ],
    cascade: Annotated[
        bool,
        typer.Option(
            "--cascade",
            help="Also remove the morphisms, mapping entries, components and equations that "
            "use it (without it, an entity in use is refused: IN_USE).",
        ),
    ] = False,
    kind: KindOption = None,
    expect_version: ExpectOption = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Remove an entity from the model (its document file is kept).

    Examples:
    catdoc rm receipt-depends-on-cart
    catdoc rm req-receipt --cascade
    catdoc rm eta --format json
    """
    show(
        service(ctx).remove_entity(
            ident, cascade=cascade, kind=_entity_kind(kind), expected_version=expect_version
        ),
        fmt,
    )


@app.command("mv")
def rename(
    ctx: typer.Context,
    old: Annotated[
        str, typer.Argument(metavar="OLD", help="The current id.", autocompletion=complete_any)
    ],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The new id.")],
    kind: KindOption = None,
    expect_version: ExpectOption = None,
    fmt: FormatOption = OutputFormat.text,
) -> None:
    """Rename an entity and update every reference to it in the model.

    Morphism ends, mappings, components, equations, parents and functor headers follow.

    Examples:
    catdoc mv req-cart req-basket
    catdoc mv specify specify-v1 --format json
    """
    show(
        service(ctx).rename(old, new, kind=_entity_kind(kind), expected_version=expect_version),
        fmt,
    )
