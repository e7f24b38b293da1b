"""What every edit operation works on: the files being edited, an index of the model kept
current as operations run, and the checks that refuse a bad change before anything is written."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal

from ruamel.yaml.comments import CommentedMap

from catdoc import parsed_cache, yaml_source
from catdoc.edit.entries import EntryFile
from catdoc.edit.review_intents import ReviewIntents
from catdoc.errors import (
    NOT_FOUND,
    PATH_OUTSIDE_PROJECT,
    VALIDATION_ERROR,
    CatDocError,
    closest,
    quoted,
)
from catdoc.model import DocObject, PathSpec, as_path
from catdoc.project import Project, file_digest
from catdoc.project_files import (
    CACHE_DIR,
    CATDOC_DIR,
    MODEL_FILE,
    InsideResolver,
    inside_catdoc,
    resolve_inside,
)

DEFAULT_FILE = f"{CATDOC_DIR}/{MODEL_FILE}"
MAX_ID_LENGTH = 200
_ID = re.compile(r"[^\W][\w.\-/:+]*")
IN_USE = "IN_USE"

OBJECT_FIELDS = (
    "title",
    "domain",
    "path",
    "content",
    "tags",
    "author",
    "created",
    "updated",
    "summary",
    "url",
    "metadata",
)
CATEGORY_FIELDS = ("name", "description", "aliases", "parent", "related", "semantics")


@dataclass
class Change:
    """What one operation did to one entity."""

    kind: str
    id: str
    action: str  # created | updated | removed | renamed
    detail: str = ""


@dataclass
class MorphismEnds:
    category: str
    source: str
    target: str


@dataclass
class ModelIndex:
    """Where everything is, kept current as operations run."""

    category_file: dict[str, str] = field(default_factory=dict)
    functor_file: dict[str, str] = field(default_factory=dict)
    nat_file: dict[str, str] = field(default_factory=dict)
    object_category: dict[str, str] = field(default_factory=dict)
    morphisms: dict[str, MorphismEnds] = field(default_factory=dict)
    functors: dict[str, tuple[str, str]] = field(default_factory=dict)
    nats: dict[str, tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, project: Project) -> ModelIndex:
        index = cls()
        for cat in project.categories:
            index.category_file.setdefault(cat.id, cat.origin or DEFAULT_FILE)
        index.object_category = dict(project.category_of_object)
        for mor_id, cat_id in project.category_of_morphism.items():
            mor = project.morphism_by_id[mor_id]
            index.morphisms[mor_id] = MorphismEnds(cat_id, mor.source, mor.target)
        for fun in project.functor_by_id.values():
            index.functor_file[fun.id] = fun.origin or DEFAULT_FILE
            index.functors[fun.id] = (fun.source_category, fun.target_category)
        for nat in project.nat_by_id.values():
            index.nat_file[nat.id] = nat.origin or DEFAULT_FILE
            index.nats[nat.id] = (nat.source_functor, nat.target_functor)
        return index


def _kept(root: Path, rel: str, text: str) -> parsed_cache.Kept | None:
    """The tree of model file `rel`, holding `text`, as `catdoc.parsed_cache` keeps it, when
    that is current (nothing is made or written)."""
    folder = root / CATDOC_DIR / CACHE_DIR / "parsed"
    return parsed_cache.current(
        root / rel,
        rel,
        text,
        file_digest(text.encode("utf-8", "surrogatepass")),
        partial(inside_catdoc, root, folder),
    )


class EditBase:
    """The model being edited: its files, an index kept current as operations run, checks."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.root = project.root
        self.changes: list[Change] = []
        self.touched: set[str] = set()
        self.documents: dict[Path, str] = {}
        self.deletions: set[Path] = set()
        """Files the edit removes, in the same all-or-nothing write (`delete_file`)."""
        self.reviews = ReviewIntents()
        """What the operations mean for the review stamps (`catdoc.edit.reviews`)."""
        self._files: dict[str, EntryFile] = {}
        self._index = ModelIndex.of(project)
        self._inside = InsideResolver(project.root)
        """Document paths of this edit, each folder resolved once (an import names thousands)."""
        self._real_root = project.root.resolve()

    def delete_file(self, rel: str) -> None:
        """Remove a file of CatDoc's own (a path under `.catdoc/`, relative to the root) in the
        edit's write: it is gone exactly when the edit's other files are written. A folder is
        refused, and so is any other file: only those may a recovered journal delete (see
        `catdoc.journal`)."""
        path = resolve_inside(self.root, rel)
        if not path.is_relative_to(self._real_root / CATDOC_DIR):
            raise CatDocError(
                PATH_OUTSIDE_PROJECT,
                f"{rel} is not under {CATDOC_DIR}/; an edit deletes only CatDoc's own files.",
                "Remove other files yourself (an edit removes an entity, never its document).",
            )
        if path.is_dir():
            raise CatDocError(
                VALIDATION_ERROR,
                f"{rel} is a folder; an edit deletes files only.",
                "Name the files to delete.",
            )
        self.deletions.add(self.root / rel)

    def _file(self, rel: str) -> EntryFile:
        if rel not in self._files:
            path = self.root / rel
            text = yaml_source.read_text(path, rel) if path.is_file() else ""
            self._files[rel] = EntryFile.open(rel, text, partial(_kept, self.root, rel, text))
        return self._files[rel]

    def parsed(self, rel: str, text: str) -> tuple[Any] | None:
        """(the tree of `text`, rendered for `rel`) when the edit parsed it already."""
        edited = self._files.get(rel)
        return edited.parsed(text) if edited is not None else None

    def rendered(self) -> dict[str, str]:
        """Project-relative model file → new text, for every file that changed."""
        out = {}
        for rel, edited in self._files.items():
            text = edited.render()
            if text is not None:
                out[rel] = text
        return out

    def _entry(self, section: str, ident: str, rel: str) -> tuple[EntryFile, Any]:
        edited = self._file(rel)
        node = edited.entry(section, ident)
        if node is None:
            raise CatDocError(
                VALIDATION_ERROR,
                f"{rel}: {section} entry {ident!r} was not found in the file as loaded.",
                "The file changed meanwhile; run the command again.",
            )
        return edited, node

    def _category_node(self, cat_id: str) -> Any:
        return self._entry("categories", cat_id, self._index.category_file[cat_id])[1]

    def _functor_node(self, fun_id: str) -> Any:
        return self._entry("functors", fun_id, self._index.functor_file[fun_id])[1]

    def _nat_node(self, nat_id: str) -> Any:
        return self._entry("naturalTransformations", nat_id, self._index.nat_file[nat_id])[1]

    def _item(self, cat_id: str, key: str, item_id: str) -> Any:
        """An object or morphism node of a category (only it is read, where the file allows)."""
        rel = self._index.category_file[cat_id]
        node = self._file(rel).item("categories", cat_id, key, item_id)
        if node is None:
            raise CatDocError(
                VALIDATION_ERROR,
                f"{rel}: {key[:-1]} {item_id!r} was not found in category {cat_id!r} as loaded.",
                "The file changed meanwhile; run the command again.",
            )
        return node

    def _append_item(self, cat_id: str, key: str, node: Any) -> None:
        self._file(self._index.category_file[cat_id]).append_item("categories", cat_id, key, node)

    def _remove_item(self, cat_id: str, key: str, item_id: str) -> None:
        rel = self._index.category_file[cat_id]
        self._file(rel).remove_item("categories", cat_id, key, item_id)

    def _functor_view(self, fun_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """A functor's (object mapping, morphism mapping) as plain data, from its node when this
        transaction has it out, else from the model as loaded (unchanged then)."""
        node = self._file(self._index.functor_file[fun_id]).loaded("functors", fun_id)
        if node is not None:
            return (
                {str(k): v for k, v in (node.get("objectMapping") or {}).items()},
                {str(k): v for k, v in (node.get("morphismMapping") or {}).items()},
            )
        fun = self.project.functor_by_id[fun_id]
        return dict(fun.object_mapping), dict(fun.morphism_mapping)

    def _components_view(self, nat_id: str) -> dict[str, Any]:
        """A natural transformation's components, as `_functor_view` reads mappings."""
        rel = self._index.nat_file[nat_id]
        node = self._file(rel).loaded("naturalTransformations", nat_id)
        if node is not None:
            return {str(k): v for k, v in (node.get("components") or {}).items()}
        return dict(self.project.nat_by_id[nat_id].components)

    def _equations_view(self, cat_id: str) -> list[Any]:
        """A category's equations, as `_functor_view` reads mappings."""
        node = self._file(self._index.category_file[cat_id]).loaded("categories", cat_id)
        if node is not None:
            return list(node.get("equations") or [])
        cat = self.project.category_by_id.get(cat_id)
        return [list(eq) for eq in cat.equations] if cat is not None else []

    def _note(self, kind: str, ident: str, action: str, detail: str = "") -> None:
        self.changes.append(Change(kind, ident, action, detail))
        self.touched.add(ident)

    def _check_new_id(self, kind: str, ident: str, taken: Iterable[str]) -> None:
        if not isinstance(ident, str) or not ident:
            raise CatDocError(VALIDATION_ERROR, f"{_a(kind)} {kind} id must be a non-empty string.")
        if not allowed_id(ident):
            raise CatDocError(
                VALIDATION_ERROR,
                f"{kind.capitalize()} id {ident[:80]!r} is not allowed: {ID_RULE}.",
                "Choose an id like 'req-refund' or 'REQ_012'.",
            )
        if kind in ("functor", "natural transformation") and ":" in ident:
            raise CatDocError(
                VALIDATION_ERROR,
                f"{kind.capitalize()} id {ident[:80]!r} is not allowed: a {kind} id may not "
                "contain ':', which separates the parts of a review's link key "
                "(functor:F:object:A, nat:η:A); with it two links could share one key.",
                "Choose an id without ':', e.g. with '-'.",
            )
        if ident in taken:
            raise CatDocError(
                "DUPLICATE_ID",
                f"{_a(kind)} {kind} with id {ident!r} already exists; ids of {kind}s are unique "
                "across the project.",
                f"Choose another id, or edit the existing {kind}.",
            )

    def _need_category(self, cat_id: str) -> None:
        if cat_id not in self._index.category_file:
            raise missing("Category", cat_id, self._index.category_file)

    def _need_object(self, obj_id: str) -> str:
        if obj_id not in self._index.object_category:
            raise missing("Object", obj_id, self._index.object_category)
        return self._index.object_category[obj_id]

    def _need_morphism(self, mor_id: str) -> MorphismEnds:
        if mor_id not in self._index.morphisms:
            raise missing("Morphism", mor_id, self._index.morphisms)
        return self._index.morphisms[mor_id]

    def _need_functor(self, fun_id: str) -> tuple[str, str]:
        if fun_id not in self._index.functors:
            raise missing("Functor", fun_id, self._index.functors)
        return self._index.functors[fun_id]

    def _need_nat(self, nat_id: str) -> tuple[str, str]:
        if nat_id not in self._index.nats:
            raise missing("Natural transformation", nat_id, self._index.nats)
        return self._index.nats[nat_id]

    def _check_path(self, spec: PathSpec, category: str, code_unknown: str, what: str) -> None:
        """Every step is a morphism of `category`, and consecutive steps meet."""
        steps = as_path(spec)
        previous: MorphismEnds | None = None
        for step in steps:
            mor = self._index.morphisms.get(step)
            if mor is None or mor.category != category:
                raise CatDocError(
                    code_unknown,
                    f"{what}: {step!r} is not a morphism of category {category!r}.",
                    f"Use morphism ids of {category!r} (catdoc_list_morphisms / "
                    "`catdoc list morphisms`), or [] for the identity.",
                )
            if previous is not None and previous.target != mor.source:
                raise CatDocError(
                    code_unknown.split("_")[0] + "_IMAGE_NOT_COMPOSABLE"
                    if code_unknown.startswith("FUN")
                    else "NAT_COMPONENT_NOT_COMPOSABLE",
                    f"{what}: the path {steps} does not compose: a step ends at "
                    f"{previous.target!r} but the next starts at {mor.source!r}.",
                    "Give the steps in diagrammatic order (first step first), each starting "
                    "where the previous one ends.",
                )
            previous = mor

    def _target_file(self, file: str | None) -> str:
        if file is None:
            return DEFAULT_FILE
        rel = resolve_inside(self.root, file).relative_to(self.root).as_posix()
        allowed = rel == DEFAULT_FILE or (
            rel.startswith(f"{CATDOC_DIR}/categories/")
            and rel.count("/") == 2
            and rel.endswith((".yaml", ".yml"))
        )
        if not allowed:
            raise CatDocError(
                VALIDATION_ERROR,
                f"{file!r} is not a model file.",
                f"Use {DEFAULT_FILE} or .catdoc/categories/NAME.yaml.",
            )
        return rel

    def _every_id(self) -> list[str]:
        return [ident for ids in self._ids_by_kind().values() for ident in ids]

    def _ids_by_kind(self) -> dict[EntityKind, Collection[str]]:
        return {
            "object": self._index.object_category.keys(),
            "morphism": self._index.morphisms.keys(),
            "category": self._index.category_file.keys(),
            "functor": self._index.functors.keys(),
            "natural transformation": self._index.nats.keys(),
        }

    def _kind_of(self, ident: str, kind: EntityKind | None) -> EntityKind:
        """Which entity `ident` names: of `kind` when given; else the one kind that has it (ids
        are unique within a kind only, so an id two kinds share must say which)."""
        ids = self._ids_by_kind()
        if kind is not None:
            if ident not in ids[kind]:
                raise missing(kind.capitalize(), ident, ids[kind])
            return kind
        kinds = [name for name, known in ids.items() if ident in known]
        if not kinds:
            raise missing("Entity", ident, self._every_id())
        if len(kinds) > 1:
            raise CatDocError(
                VALIDATION_ERROR,
                f"{ident!r} names a {' and a '.join(kinds)}; nothing was changed.",
                "Say which: --kind " + " or --kind ".join(KIND_OPTIONS[k] for k in kinds) + ".",
            )
        return kinds[0]


EntityKind = Literal["object", "morphism", "category", "functor", "natural transformation"]
KIND_OPTIONS: dict[EntityKind, str] = {
    "object": "object",
    "morphism": "morphism",
    "category": "category",
    "functor": "functor",
    "natural transformation": "transformation",
}
"""How the command line names each kind (`catdoc rm ID --kind transformation`)."""


ID_RULE = (
    f"use letters, digits and `_ . - / : +`, starting with a letter, digit or `_`, at most "
    f"{MAX_ID_LENGTH} characters"
)


def allowed_id(ident: str) -> bool:
    """Whether a new entity may have id `ident` (`ID_RULE`)."""
    return len(ident) <= MAX_ID_LENGTH and _ID.fullmatch(ident) is not None


def _a(kind: str) -> str:
    """The article before `kind` (an object, a morphism …), capitalised."""
    return "An" if kind[0] in "aeiou" else "A"


def missing(kind: str, ident: str, existing: Iterable[str]) -> CatDocError:
    return CatDocError(
        NOT_FOUND,
        f"{kind} not found: {quoted(str(ident))}.",
        f"Use an existing {kind.lower()} id.",
        closest(str(ident), existing),
    )


def in_use(what: str, uses: list[Any]) -> CatDocError:
    """The refusal to remove something still used; `uses` are descriptions or (description,
    remover) pairs."""
    described = [use[0] if isinstance(use, tuple) else use for use in uses]
    more = f" and {len(described) - 10} more" if len(described) > 10 else ""
    return CatDocError(
        IN_USE,
        f"{what} is still used by {', '.join(described[:10])}{more}; nothing was removed.",
        "Remove those first, or pass cascade (MCP) / --cascade (CLI) to remove them too.",
    )


def new_entry(ident: str, name: str | None, **fields: Any) -> CommentedMap:
    """A new model entry: `id`, then `name` when given, then the fields in the order given."""
    node = CommentedMap()
    node["id"] = ident
    if name is not None:
        node["name"] = name
    for key, value in fields.items():
        node[key] = value
    return node


def only_fields(fields: Mapping[str, Any], allowed: tuple[str, ...], kind: str) -> None:
    unknown = sorted(set(fields) - set(allowed))
    if unknown:
        raise CatDocError(
            VALIDATION_ERROR,
            f"Unknown {kind} field(s): {', '.join(unknown)}.",
            f"The {kind} fields are: {', '.join(allowed)}.",
        )


def check_object_fields(object_id: str, fields: Mapping[str, Any]) -> None:
    """The fields must make a valid object (types as in the file format)."""
    from pydantic import ValidationError

    probe = {k: v for k, v in fields.items() if v is not None and k != "metadata"}
    try:
        DocObject.model_validate({"id": object_id, **probe})
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise CatDocError(
            VALIDATION_ERROR,
            f"Object {object_id!r}: field {where!r}: {err['msg']}.",
            "Give the field the type the file format expects (see the README's format reference).",
        ) from None
    metadata = fields.get("metadata")
    if metadata is not None and not isinstance(metadata, Mapping):
        raise CatDocError(VALIDATION_ERROR, "metadata must be a mapping of keys to values.")


def slug(text: str) -> str:
    slug = re.sub(r"[^\w.\-/:+]+", "-", text).strip("-")
    return slug[:MAX_ID_LENGTH] or "morphism"


def fresh_id(base: str, taken: Mapping[str, Any]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"
