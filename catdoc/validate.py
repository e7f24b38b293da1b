"""The validators: every check of DESIGN §2 with a stable code, producing the report of §3.

Soundness rule: a check passes only with proof. Path equality comes from `catdoc.paths`, which
answers True / False / None; None (undecided within its bound) becomes a warning, never a pass,
and a check that cannot be made because something else is broken becomes an info saying so.
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
import stat
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from catdoc.errors import CatDocError, not_found
from catdoc.model import (
    Category,
    Config,
    DocObject,
    Entity,
    Functor,
    Morphism,
    NaturalTransformation,
    PathSpec,
    as_path,
)
from catdoc.paths import Path, PathError, Presentation
from catdoc.project import Project, resolve_inside

Severity = Literal["error", "warning", "info"]
LawStatus = Literal["holds", "fails", "unknown"]

THIN_RELATION_BUDGET = 50_000
"""Relations a functor out of a thin category is checked against before the answer is unknown."""
CLOSURE_WORK_BUDGET = 1_000_000
"""Composable pairs the composition-closure lint inspects per category at most."""
MAX_LAW_FINDINGS = 10
"""Failures / unknowns listed per functor for the relations implied by a thin source."""


class Code(StrEnum):
    """Every code the validator can emit; `CODES` gives each one's severity and meaning."""

    DUPLICATE_ID = "DUPLICATE_ID"
    SCHEMA_UNKNOWN_KEY = "SCHEMA_UNKNOWN_KEY"
    OBJ_PATH_OUTSIDE_PROJECT = "OBJ_PATH_OUTSIDE_PROJECT"
    OBJ_FILE_MISSING = "OBJ_FILE_MISSING"
    CAT_DANGLING_SOURCE = "CAT_DANGLING_SOURCE"
    CAT_DANGLING_TARGET = "CAT_DANGLING_TARGET"
    CAT_IDENTITY_NOT_LOOP = "CAT_IDENTITY_NOT_LOOP"
    CAT_DUPLICATE_IDENTITY = "CAT_DUPLICATE_IDENTITY"
    CAT_EQUATION_UNKNOWN_MORPHISM = "CAT_EQUATION_UNKNOWN_MORPHISM"
    CAT_EQUATION_NOT_COMPOSABLE = "CAT_EQUATION_NOT_COMPOSABLE"
    CAT_EQUATION_NOT_PARALLEL = "CAT_EQUATION_NOT_PARALLEL"
    CAT_PARENT_MISSING = "CAT_PARENT_MISSING"
    CAT_PARENT_CYCLE = "CAT_PARENT_CYCLE"
    CAT_ALIAS_AMBIGUOUS = "CAT_ALIAS_AMBIGUOUS"
    CAT_RELATED_MISSING = "CAT_RELATED_MISSING"
    CAT_COMPOSITE_MISSING = "CAT_COMPOSITE_MISSING"
    CAT_COMPOSITE_MISSING_MORE = "CAT_COMPOSITE_MISSING_MORE"
    FUN_SOURCE_MISSING = "FUN_SOURCE_MISSING"
    FUN_TARGET_MISSING = "FUN_TARGET_MISSING"
    FUN_OBJECT_UNMAPPED = "FUN_OBJECT_UNMAPPED"
    FUN_OBJECT_TARGET_MISSING = "FUN_OBJECT_TARGET_MISSING"
    FUN_MAPPING_UNKNOWN_OBJECT = "FUN_MAPPING_UNKNOWN_OBJECT"
    FUN_MAPPING_UNKNOWN_MORPHISM = "FUN_MAPPING_UNKNOWN_MORPHISM"
    FUN_MORPHISM_UNMAPPED = "FUN_MORPHISM_UNMAPPED"
    FUN_IMAGE_UNKNOWN_MORPHISM = "FUN_IMAGE_UNKNOWN_MORPHISM"
    FUN_IMAGE_NOT_COMPOSABLE = "FUN_IMAGE_NOT_COMPOSABLE"
    FUN_NOT_TYPED = "FUN_NOT_TYPED"
    FUN_IDENTITY_NOT_PRESERVED = "FUN_IDENTITY_NOT_PRESERVED"
    FUN_IDENTITY_UNKNOWN = "FUN_IDENTITY_UNKNOWN"
    FUN_EQUATION_FAILS = "FUN_EQUATION_FAILS"
    FUN_EQUATION_UNKNOWN = "FUN_EQUATION_UNKNOWN"
    FUN_NOT_CHECKED = "FUN_NOT_CHECKED"
    NAT_SOURCE_FUNCTOR_MISSING = "NAT_SOURCE_FUNCTOR_MISSING"
    NAT_TARGET_FUNCTOR_MISSING = "NAT_TARGET_FUNCTOR_MISSING"
    NAT_NOT_PARALLEL = "NAT_NOT_PARALLEL"
    NAT_COMPONENT_MISSING = "NAT_COMPONENT_MISSING"
    NAT_COMPONENT_UNKNOWN_OBJECT = "NAT_COMPONENT_UNKNOWN_OBJECT"
    NAT_COMPONENT_UNKNOWN_MORPHISM = "NAT_COMPONENT_UNKNOWN_MORPHISM"
    NAT_COMPONENT_NOT_COMPOSABLE = "NAT_COMPONENT_NOT_COMPOSABLE"
    NAT_COMPONENT_NOT_TYPED = "NAT_COMPONENT_NOT_TYPED"
    NAT_SQUARE_FAILS = "NAT_SQUARE_FAILS"
    NAT_SQUARE_UNKNOWN = "NAT_SQUARE_UNKNOWN"
    NAT_SQUARE_NOT_CHECKED = "NAT_SQUARE_NOT_CHECKED"


@dataclass(frozen=True)
class CodeInfo:
    severity: Severity
    meaning: str
    fix: str


_TABLE: list[tuple[Code, Severity, str, str]] = [
    (
        Code.DUPLICATE_ID,
        "error",
        "two entities of one kind share an id",
        "rename one of the two (both places are named)",
    ),
    (
        Code.SCHEMA_UNKNOWN_KEY,
        "warning",
        "a key CatDoc does not know (it is kept)",
        "fix the spelling or move the data under `metadata`",
    ),
    (
        Code.OBJ_PATH_OUTSIDE_PROJECT,
        "error",
        "an object's `path` leaves the project root",
        "use a path relative to the root that stays inside it",
    ),
    (
        Code.OBJ_FILE_MISSING,
        "warning",
        "an object's `path` names no existing file",
        "create the file, fix the path, or drop `path`",
    ),
    (
        Code.CAT_DANGLING_SOURCE,
        "error",
        "a morphism's source is not an object of its category",
        "declare the object there, or fix the id",
    ),
    (
        Code.CAT_DANGLING_TARGET,
        "error",
        "a morphism's target is not an object of its category",
        "declare the object there, or fix the id",
    ),
    (
        Code.CAT_IDENTITY_NOT_LOOP,
        "error",
        "an identity marker on a morphism that is not a loop",
        "remove the marker or make source = target",
    ),
    (
        Code.CAT_DUPLICATE_IDENTITY,
        "error",
        "two identity markers on one object",
        "keep one marker (or none: identities are implicit)",
    ),
    (
        Code.CAT_EQUATION_UNKNOWN_MORPHISM,
        "error",
        "an equation uses a morphism its category lacks, or a broken one",
        "use morphism ids of that category",
    ),
    (
        Code.CAT_EQUATION_NOT_COMPOSABLE,
        "error",
        "an equation side is not a composable path",
        "order the steps so each ends where the next starts",
    ),
    (
        Code.CAT_EQUATION_NOT_PARALLEL,
        "error",
        "the sides of an equation have different ends",
        "make both sides go between the same objects",
    ),
    (
        Code.CAT_PARENT_MISSING,
        "error",
        "`parent` names no category",
        "fix the id or remove `parent`",
    ),
    (
        Code.CAT_PARENT_CYCLE,
        "error",
        "the `parent` hierarchy has a cycle",
        "remove `parent` from one category of the cycle",
    ),
    (
        Code.CAT_ALIAS_AMBIGUOUS,
        "error",
        "an alias also names another category (any case)",
        "rename or remove one of them",
    ),
    (Code.CAT_RELATED_MISSING, "warning", "`related` names no category", "fix the id or remove it"),
    (
        Code.CAT_COMPOSITE_MISSING,
        "warning",
        "f: A→B and g: B→C are declared, no declared morphism goes A→C",
        "declare one, or configure `validation.compositionClosure`",
    ),
    (
        Code.CAT_COMPOSITE_MISSING_MORE,
        "info",
        "how many missing composites were not listed",
        "raise `validation.maxCompositionWarnings` to see them",
    ),
    (
        Code.FUN_SOURCE_MISSING,
        "error",
        "a functor's source category does not exist",
        "fix `sourceCategory`",
    ),
    (
        Code.FUN_TARGET_MISSING,
        "error",
        "a functor's target category does not exist",
        "fix `targetCategory`",
    ),
    (
        Code.FUN_OBJECT_UNMAPPED,
        "error",
        "an object of the source has no image",
        "add it to `objectMapping`",
    ),
    (
        Code.FUN_OBJECT_TARGET_MISSING,
        "error",
        "an object's image is not an object of the target",
        "map it to an object of the target category",
    ),
    (
        Code.FUN_MAPPING_UNKNOWN_OBJECT,
        "error",
        "an `objectMapping` key is not an object of the source",
        "fix or remove the key",
    ),
    (
        Code.FUN_MAPPING_UNKNOWN_MORPHISM,
        "error",
        "a `morphismMapping` key is not a morphism of the source",
        "fix or remove the key",
    ),
    (
        Code.FUN_MORPHISM_UNMAPPED,
        "error",
        "a generator of the source has no image",
        "add it to `morphismMapping` (a path, or `[]`)",
    ),
    (
        Code.FUN_IMAGE_UNKNOWN_MORPHISM,
        "error",
        "an image path uses a morphism the target lacks",
        "use morphism ids of the target category",
    ),
    (
        Code.FUN_IMAGE_NOT_COMPOSABLE,
        "error",
        "an image path's steps do not meet",
        "order the steps so each ends where the next starts",
    ),
    (
        Code.FUN_NOT_TYPED,
        "error",
        "F(f) does not go F(source) → F(target)",
        "map f to a path between the images of its ends",
    ),
    (
        Code.FUN_IDENTITY_NOT_PRESERVED,
        "error",
        "an identity marker's image is provably not an identity",
        "map it to `[]` or leave it unmapped",
    ),
    (
        Code.FUN_IDENTITY_UNKNOWN,
        "warning",
        "undecided whether an identity marker's image is an identity",
        "map it to `[]` or add an equation to the target",
    ),
    (
        Code.FUN_EQUATION_FAILS,
        "error",
        "a source equation (or thinness) provably fails after mapping",
        "change the images, or add the equation to the target",
    ),
    (
        Code.FUN_EQUATION_UNKNOWN,
        "warning",
        "undecided whether a source equation holds after mapping",
        "add an equation to the target that states it",
    ),
    (
        Code.FUN_NOT_CHECKED,
        "info",
        "parts of a functor not checked because something they need is broken",
        "fix the errors reported for those parts",
    ),
    (
        Code.NAT_SOURCE_FUNCTOR_MISSING,
        "error",
        "the source functor does not exist",
        "fix `sourceFunctor`",
    ),
    (
        Code.NAT_TARGET_FUNCTOR_MISSING,
        "error",
        "the target functor does not exist",
        "fix `targetFunctor`",
    ),
    (
        Code.NAT_NOT_PARALLEL,
        "error",
        "the functors do not share source and target categories",
        "use two functors C → D with the same C and D",
    ),
    (
        Code.NAT_COMPONENT_MISSING,
        "error",
        "an object of the source has no component",
        "add `A: <path F(A) → G(A)>` to `components`",
    ),
    (
        Code.NAT_COMPONENT_UNKNOWN_OBJECT,
        "error",
        "a `components` key is not an object of the source",
        "fix or remove the key",
    ),
    (
        Code.NAT_COMPONENT_UNKNOWN_MORPHISM,
        "error",
        "a component uses a morphism the target lacks",
        "use morphism ids of the target category",
    ),
    (
        Code.NAT_COMPONENT_NOT_COMPOSABLE,
        "error",
        "a component path's steps do not meet",
        "order the steps so each ends where the next starts",
    ),
    (
        Code.NAT_COMPONENT_NOT_TYPED,
        "error",
        "η_A does not go F(A) → G(A)",
        "use a path from F(A) to G(A)",
    ),
    (
        Code.NAT_SQUARE_FAILS,
        "error",
        "a naturality square F(f)·η_B = η_A·G(f) provably fails",
        "fix the components or images, or add an equation",
    ),
    (
        Code.NAT_SQUARE_UNKNOWN,
        "warning",
        "undecided whether a naturality square commutes",
        "add an equation to the target that states it",
    ),
    (
        Code.NAT_SQUARE_NOT_CHECKED,
        "info",
        "squares not checked because a functor or component is broken",
        "fix the errors reported for them",
    ),
]
CODES: dict[Code, CodeInfo] = {code: CodeInfo(sev, what, fix) for code, sev, what, fix in _TABLE}
"""Default severity, meaning and fix of every code (the README's table is checked against it)."""


# --------------------------------------------------------------------------- report models
class _Model(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, serialize_by_alias=True, populate_by_name=True
    )


class Finding(_Model):
    """One problem: what, where, and (in `message`) how to fix it."""

    severity: Severity
    code: str
    message: str
    ids: list[str] = Field(default_factory=list)
    location: str = ""
    category: str | None = None
    functor: str | None = None
    natural_transformation: str | None = None


class FunctorLaws(_Model):
    functor: str
    identity_preservation: LawStatus
    composition_preservation: LawStatus


class Summary(_Model):
    categories_checked: int = 0
    functors_checked: int = 0
    natural_transformations_checked: int = 0
    total_errors: int = 0
    total_warnings: int = 0
    total_infos: int = 0
    functor_laws: list[FunctorLaws] = Field(default_factory=list)


class Report(_Model):
    """The original CatDoc report keys (`isValid`, `errors`, `warnings`, `summary`, `timestamp`)."""

    is_valid: bool
    errors: list[Finding] = Field(default_factory=list)
    warnings: list[Finding] = Field(default_factory=list)
    infos: list[Finding] = Field(default_factory=list)
    summary: Summary = Field(default_factory=Summary)
    timestamp: str


# --------------------------------------------------------------------------- helpers
def _known_keys(model: type[BaseModel]) -> list[str]:
    return [f.alias or to_camel(name) for name, f in model.model_fields.items()]


def _fmt(path: Path) -> str:
    return f"[{', '.join(path.steps)}]" if path.steps else f"[] (identity of {path.source})"


def _spec(spec: PathSpec) -> str:
    steps = as_path(spec)
    return steps[0] if isinstance(spec, str) else f"[{', '.join(steps)}]"


def _did_you_mean(word: str, pool: Iterable[str]) -> str:
    match = difflib.get_close_matches(word, list(pool), n=1, cutoff=0.6)
    return f" Did you mean {match[0]!r}?" if match else ""


@dataclass
class _FunctorData:
    """What a functor does, as far as it is well-defined, plus its findings."""

    source: Presentation
    target: Presentation
    objects: dict[str, str] = field(default_factory=dict)
    images: dict[str, Path] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    laws: FunctorLaws | None = None


_PATH_CODES = {
    "functor": {
        "unknown_morphism": Code.FUN_IMAGE_UNKNOWN_MORPHISM,
        "broken_morphism": Code.FUN_IMAGE_UNKNOWN_MORPHISM,
        "not_composable": Code.FUN_IMAGE_NOT_COMPOSABLE,
    },
    "component": {
        "unknown_morphism": Code.NAT_COMPONENT_UNKNOWN_MORPHISM,
        "broken_morphism": Code.NAT_COMPONENT_UNKNOWN_MORPHISM,
        "not_composable": Code.NAT_COMPONENT_NOT_COMPOSABLE,
    },
    "equation": {
        "unknown_morphism": Code.CAT_EQUATION_UNKNOWN_MORPHISM,
        "broken_morphism": Code.CAT_EQUATION_UNKNOWN_MORPHISM,
        "not_composable": Code.CAT_EQUATION_NOT_COMPOSABLE,
        "not_parallel": Code.CAT_EQUATION_NOT_PARALLEL,
        "unknown_object": Code.CAT_EQUATION_NOT_PARALLEL,
    },
}


# --------------------------------------------------------------------------- the validator
class _Validator:
    def __init__(self, project: Project) -> None:
        self.project = project
        self.config: Config = project.config
        self.findings: list[Finding] = []
        self.scoped: str | None = None
        self._presentations: dict[int, Presentation] = {}
        self._dirs: dict[str, str] = {}
        self._functors: dict[int, _FunctorData | None] = {}
        self._missing_functor_findings: dict[int, list[Finding]] = {}
        self._alias_claims: dict[str, list[tuple[str, str]]] | None = None

    # --- plumbing ---
    def finding(
        self,
        code: Code,
        message: str,
        ids: Iterable[str],
        entity: Entity | None = None,
        *,
        severity: Severity | None = None,
        category: str | None = None,
        functor: str | None = None,
        nat: str | None = None,
        location: str | None = None,
    ) -> Finding:
        where = (
            location if location is not None else (self.project.locate(entity) if entity else "")
        )
        return Finding(
            severity=severity or CODES[code].severity,
            code=code.value,
            message=message,
            ids=list(dict.fromkeys(ids)),
            location=where,
            category=category,
            functor=functor,
            natural_transformation=nat,
        )

    def add(
        self,
        code: Code,
        message: str,
        ids: Iterable[str],
        entity: Entity | None = None,
        **context: str | None,
    ) -> None:
        self.findings.append(self.finding(code, message, ids, entity, **context))  # type: ignore[arg-type]

    def presentation(self, cat: Category) -> Presentation:
        key = id(cat)
        if key not in self._presentations:
            self._presentations[key] = Presentation.of(cat)
        return self._presentations[key]

    def where_object(self, obj: str) -> str:
        home = self.project.category_of_object.get(obj)
        return f" ({obj!r} is an object of category {home!r})" if home else ""

    # --- project-wide ---
    def check_duplicates(self, scope: set[int] | None) -> None:
        for dup in self.project.duplicates:
            if scope is not None and id(dup.first) not in scope and id(dup.second) not in scope:
                continue
            first, second = self.project.locate(dup.first), self.project.locate(dup.second)
            unique = (
                "in the project" if dup.kind in {"object", "morphism"} else f"among {dup.kind}s"
            )
            self.add(
                Code.DUPLICATE_ID,
                f"Duplicate {dup.kind} id {dup.id!r}: declared at {first or '?'} and again at "
                f"{second or '?'}. Rename one of them; {dup.kind} ids must be unique {unique}.",
                [dup.id],
                location=second,
            )

    def check_unknown_keys(self, entity: Entity, kind: str, **ctx: object) -> None:
        extra = entity.unknown_keys()
        if not extra:
            return
        known = _known_keys(type(entity))
        label = getattr(entity, "id", "")
        for key in extra:
            self.add(
                Code.SCHEMA_UNKNOWN_KEY,
                f"Unknown key {key!r} in {kind} {label!r}; it is kept but CatDoc ignores it."
                f"{_did_you_mean(key, known)} Rename it to a known key "
                f"({', '.join(known)}) or move it under `metadata`.",
                [label] if label else [],
                entity,
                **ctx,
            )

    def check_top_level(self) -> None:
        known = ["categories", "functors", "naturalTransformations"]
        for origin, key in self.project.top_level_unknown:
            self.add(
                Code.SCHEMA_UNKNOWN_KEY,
                f"Unknown top-level key {key!r} in {origin}; it is ignored."
                f"{_did_you_mean(key, known)} Use only {', '.join(known)} at the top level.",
                [],
                location=origin,
            )
        config = self.config
        for sub, kind in (
            (config, "config.yaml"),
            (config.dashboard, "config.yaml `dashboard`"),
            (config.import_, "config.yaml `import`"),
            (config.search, "config.yaml `search`"),
            (config.validation, "config.yaml `validation`"),
        ):
            for key in sub.unknown_keys():
                known = _known_keys(type(sub))
                self.add(
                    Code.SCHEMA_UNKNOWN_KEY,
                    f"Unknown setting {key!r} in {kind}; it is ignored.{_did_you_mean(key, known)}"
                    f" Known settings here: {', '.join(known)}.",
                    [],
                    location=config.origin,
                )

    def check_object_path(self, obj: DocObject, cat: str) -> None:
        if not obj.path:
            return
        try:
            exists = self.file_exists(obj.path)
        except CatDocError:
            self.add(
                Code.OBJ_PATH_OUTSIDE_PROJECT,
                f"Object {obj.id!r} has path {obj.path!r}, which resolves outside the project "
                "root. Give a path relative to the project root that stays inside it (no `..`, "
                "no absolute path elsewhere, no symlink that leaves the project).",
                [obj.id],
                obj,
                category=cat,
            )
            return
        if not exists:
            self.add(
                Code.OBJ_FILE_MISSING,
                f"Object {obj.id!r} has path {obj.path!r}, but no such file exists. Create the "
                "file, correct the path (relative to the project root), or remove `path`.",
                [obj.id],
                obj,
                category=cat,
            )

    def file_exists(self, raw: str) -> bool:
        """Whether a document path is a file; raises if it leaves the project (`resolve_inside`).

        Directories are resolved once each and the last component with one `lstat`, so checking
        ten thousand documents costs ten thousand system calls, not a full `realpath` each.
        """
        head, tail = os.path.split(raw)
        if tail in {"", ".", ".."}:
            return resolve_inside(self.project.root, raw).is_file()
        parent = self._dirs.get(head)
        if parent is None:
            parent = self._dirs[head] = str(resolve_inside(self.project.root, head or "."))
        full = os.path.join(parent, tail)
        try:
            mode = os.lstat(full).st_mode
        except OSError:
            return False
        if stat.S_ISLNK(mode):
            return resolve_inside(self.project.root, full).is_file()
        return stat.S_ISREG(mode)

    # --- categories ---
    def check_category(self, cat: Category) -> None:
        ctx = {"category": cat.id}
        self.check_unknown_keys(cat, "category", **ctx)
        pres = self.presentation(cat)
        for obj in cat.objects:
            self.check_unknown_keys(obj, "object", **ctx)
            self.check_object_path(obj, cat.id)
        identity_of: dict[str, Morphism] = {}
        for mor in cat.morphisms:
            self.check_unknown_keys(mor, "morphism", **ctx)
            self.check_morphism(cat, pres, mor, identity_of)
        for index, exc in pres.equation_errors:
            code = _PATH_CODES["equation"][exc.kind]
            left, right = cat.equations[index]
            self.add(
                code,
                f"Equation #{index + 1} of category {cat.id!r} ({_spec(left)} = {_spec(right)}): "
                f"{exc.message} Each side must be a composable path of morphisms of this "
                "category (first step first) and both sides must go between the same objects.",
                [cat.id, *([exc.morphism] if exc.morphism else [])],
                cat,
                **ctx,
            )
        self.check_parent(cat)
        self.check_related(cat)
        self.check_aliases(cat)
        self.check_closure(cat, pres)

    def check_morphism(
        self, cat: Category, pres: Presentation, mor: Morphism, identity_of: dict[str, Morphism]
    ) -> None:
        objects = pres.objects
        if mor.id not in pres.marked and mor.source in objects and mor.target in objects:
            return  # the common case, kept cheap for large models
        ctx = {"category": cat.id}
        for end, code in (
            ("source", Code.CAT_DANGLING_SOURCE),
            ("target", Code.CAT_DANGLING_TARGET),
        ):
            obj = getattr(mor, end)
            if obj in pres.objects:
                continue
            home = self.project.category_of_object.get(obj)
            if home:
                fix = (
                    f" {obj!r} is an object of category {home!r}; a morphism stays inside one "
                    "category, so move the morphism (or the object), or relate the two "
                    "categories with a functor."
                )
            else:
                fix = (
                    f" No object has this id.{_did_you_mean(obj, pres.objects)} Declare the "
                    f"object in {cat.id!r} or fix the {end} id."
                )
            self.add(
                code,
                f"Morphism {mor.id!r} has {end} {obj!r}, which is not an object of category "
                f"{cat.id!r}.{fix}",
                [mor.id, obj],
                mor,
                **ctx,
            )
        if not mor.is_identity:
            return
        if mor.source != mor.target:
            self.add(
                Code.CAT_IDENTITY_NOT_LOOP,
                f"Morphism {mor.id!r} is marked as an identity but goes {mor.source!r} → "
                f"{mor.target!r}; an identity is a loop. Remove the identity marker "
                "(metadata.isIdentity) or make source and target equal.",
                [mor.id],
                mor,
                **ctx,
            )
            return
        first = identity_of.setdefault(mor.source, mor)
        if first is not mor:
            self.add(
                Code.CAT_DUPLICATE_IDENTITY,
                f"Object {mor.source!r} has two identity markers: {first.id!r} "
                f"({self.project.locate(first) or '?'}) and {mor.id!r}. An object has exactly one "
                "identity (it exists implicitly); keep one marker or none.",
                [mor.source, first.id, mor.id],
                mor,
                **ctx,
            )

    def check_parent(self, cat: Category) -> None:
        if cat.parent is None:
            return
        cats = self.project.category_by_id
        if cat.parent not in cats:
            self.add(
                Code.CAT_PARENT_MISSING,
                f"Category {cat.id!r} has parent {cat.parent!r}, which is not a category."
                f"{_did_you_mean(cat.parent, cats)} Fix the id or remove `parent`.",
                [cat.id, cat.parent],
                cat,
                category=cat.id,
            )
            return
        chain = [cat.id]
        here = cats[cat.parent]
        while here.id not in chain:
            chain.append(here.id)
            if here.parent is None or here.parent not in cats:
                return
            here = cats[here.parent]
        on_cycle = here.id == cat.id
        if not on_cycle or (self.scoped is None and min(chain) != cat.id):
            return  # report each cycle once, on its smallest id
        cycle = " → ".join([*chain, cat.id])
        self.add(
            Code.CAT_PARENT_CYCLE,
            f"The category hierarchy has a cycle: {cycle}. Remove `parent` from one of these "
            "categories so the hierarchy becomes a tree.",
            chain,
            cat,
            category=cat.id,
        )

    def check_related(self, cat: Category) -> None:
        cats = self.project.category_by_id
        for rel in cat.related:
            if rel not in cats:
                self.add(
                    Code.CAT_RELATED_MISSING,
                    f"Category {cat.id!r} lists related category {rel!r}, which does not exist."
                    f"{_did_you_mean(rel, cats)} Fix the id or remove it from `related`.",
                    [cat.id, rel],
                    cat,
                    category=cat.id,
                )

    def check_aliases(self, cat: Category) -> None:
        claims = self.alias_claims
        for alias in dict.fromkeys(a.lower() for a in cat.aliases):
            others = [(cid, how) for cid, how in claims[alias] if cid != cat.id]
            if not others:
                continue
            first_alias_owner = next(cid for cid, how in claims[alias] if how == "alias")
            if self.scoped is None and first_alias_owner != cat.id:
                continue
            said = ", ".join(f"{how} of category {cid!r}" for cid, how in others)
            self.add(
                Code.CAT_ALIAS_AMBIGUOUS,
                f"Alias {alias!r} of category {cat.id!r} is ambiguous: it is also the {said} "
                "(alias lookup ignores case). Rename or remove one of them.",
                [cat.id, *(cid for cid, _ in others)],
                cat,
                category=cat.id,
            )

    def check_closure(self, cat: Category, pres: Presentation) -> None:
        settings = self.config.validation
        if settings.composition_closure == "off":
            return
        severity: Severity = "info" if settings.composition_closure == "info" else "warning"
        succ: dict[str, set[str]] = {}
        for gen in pres.generators.values():
            if not gen.alias:
                succ.setdefault(gen.source, set()).add(gen.target)
        outgoing: dict[str, list[tuple[str, str]]] | None = None
        limit = settings.max_composition_warnings
        listed = total = work = 0
        exhausted = True
        for a in pres.ordered_objects:
            mine = succ.get(a)
            if not mine:
                continue
            later = [succ[b] for b in mine if b in succ]
            if not later:
                continue
            work += sum(map(len, later))
            missing = set().union(*later) - mine - {a}
            total += len(missing)
            if work > CLOSURE_WORK_BUDGET:
                exhausted = False
                break
            if not missing or listed >= limit:
                continue
            if outgoing is None:
                outgoing = defaultdict(list)
                for mid, gen in pres.generators.items():
                    if not gen.alias:
                        outgoing[gen.source].append((mid, gen.target))
            for f, b in outgoing[a]:
                for g, c in outgoing.get(b, ()):
                    if c not in missing or listed >= limit:
                        continue
                    missing.discard(c)
                    listed += 1
                    self.add(
                        Code.CAT_COMPOSITE_MISSING,
                        f"In category {cat.id!r}, {f!r}: {a} → {b} and {g!r}: {b} → {c} are "
                        f"declared but no declared morphism {a} → {c} names their composite. "
                        f"Declare one (and, for free semantics, an equation [[{f}, {g}], [h]]), "
                        "or set `validation: {compositionClosure: off}` in config.yaml.",
                        [f, g, a, c],
                        self.project.morphism_by_id.get(f) or cat,
                        severity=severity,
                        category=cat.id,
                    )
        more = total - listed
        if more > 0 or not exhausted:
            count = f"{more} more" if exhausted else f"at least {more} more"
            self.add(
                Code.CAT_COMPOSITE_MISSING_MORE,
                f"Category {cat.id!r}: {count} pair(s) of composable morphisms have no declared "
                "composite (not listed). Raise `validation.maxCompositionWarnings` to list them, "
                "or set `validation.compositionClosure` to `off`.",
                [cat.id],
                cat,
                category=cat.id,
            )

    @property
    def alias_claims(self) -> dict[str, list[tuple[str, str]]]:
        if self._alias_claims is None:
            claims: dict[str, list[tuple[str, str]]] = defaultdict(list)
            for cat in self.project.categories:
                for how, word in (("id", cat.id), ("name", cat.name)):
                    if word:
                        claims[word.lower()].append((cat.id, how))
                for alias in dict.fromkeys(a.lower() for a in cat.aliases):
                    claims[alias].append((cat.id, "alias"))
            self._alias_claims = claims
        return self._alias_claims

    # --- functors ---
    def functor_data(self, fun: Functor) -> _FunctorData | None:
        """Analyse a functor once (its findings are kept for when the functor is checked)."""
        key = id(fun)
        if key not in self._functors:
            self._functors[key] = self._analyse_functor(fun)
        return self._functors[key]

    def _analyse_functor(self, fun: Functor) -> _FunctorData | None:
        cats = self.project.category_by_id
        src, tgt = cats.get(fun.source_category), cats.get(fun.target_category)
        missing: list[Finding] = []
        for role, ident, code in (
            ("source", fun.source_category, Code.FUN_SOURCE_MISSING),
            ("target", fun.target_category, Code.FUN_TARGET_MISSING),
        ):
            if ident not in cats:
                missing.append(
                    self.finding(
                        code,
                        f"Functor {fun.id!r} has {role} category {ident!r}, which does not exist."
                        f"{_did_you_mean(ident, cats)} Fix `{role}Category` or declare the "
                        "category.",
                        [fun.id, ident],
                        fun,
                        functor=fun.id,
                    )
                )
        if src is None or tgt is None:
            self._missing_functor_findings[id(fun)] = missing
            return None
        return _FunctorCheck(self, fun, self.presentation(src), self.presentation(tgt)).run()

    def check_functor(self, fun: Functor) -> FunctorLaws:
        self.check_unknown_keys(fun, "functor", functor=fun.id)
        data = self.functor_data(fun)
        if data is None:
            self.findings += self._missing_functor_findings[id(fun)]
            return FunctorLaws(
                functor=fun.id, identity_preservation="unknown", composition_preservation="unknown"
            )
        self.findings += data.findings
        assert data.laws is not None
        return data.laws

    # --- natural transformations ---
    def check_nat(self, nat: NaturalTransformation) -> None:
        self.check_unknown_keys(nat, "natural transformation", nat=nat.id)
        _NatCheck(self, nat).run()


class _FunctorCheck:
    """Checks one functor whose source and target categories exist."""

    def __init__(self, v: _Validator, fun: Functor, src: Presentation, tgt: Presentation) -> None:
        self.v = v
        self.fun = fun
        self.data = _FunctorData(src, tgt)
        self.identity_fails = False
        self.identity_unknown = False
        self.composition_fails = False
        self.composition_unknown = False
        self.unchecked: list[str] = []

    def add(self, code: Code, message: str, ids: Iterable[str]) -> None:
        finding = self.v.finding(code, message, [self.fun.id, *ids], self.fun, functor=self.fun.id)
        self.data.findings.append(finding)

    def run(self) -> _FunctorData:
        self.map_objects()
        self.map_generators()
        self.check_equations()
        if self.unchecked:
            shown = ", ".join(self.unchecked[:10]) + (" …" if len(self.unchecked) > 10 else "")
            self.composition_unknown = True
            self.add(
                Code.FUN_NOT_CHECKED,
                f"Functor {self.fun.id!r}: {len(self.unchecked)} item(s) of source category "
                f"{self.data.source.id!r} could not be checked ({shown}) because they are broken "
                "there or their images are; fix the errors reported for them and validate again.",
                [],
            )
        self.data.laws = FunctorLaws(
            functor=self.fun.id,
            identity_preservation=_status(self.identity_fails, self.identity_unknown),
            composition_preservation=_status(self.composition_fails, self.composition_unknown),
        )
        return self.data

    def map_objects(self) -> None:
        fun, src, tgt = self.fun, self.data.source, self.data.target
        mapping = fun.object_mapping
        for obj in src.ordered_objects:
            image = mapping.get(obj)
            if image is None:
                self.identity_fails = self.composition_fails = True
                self.add(
                    Code.FUN_OBJECT_UNMAPPED,
                    f"Functor {fun.id!r} does not map object {obj!r} of {src.id!r}. Add "
                    f"`{obj}: <object of {tgt.id}>` to its objectMapping.",
                    [obj],
                )
            elif image not in tgt.objects:
                self.identity_fails = self.composition_fails = True
                self.add(
                    Code.FUN_OBJECT_TARGET_MISSING,
                    f"Functor {fun.id!r} maps object {obj!r} to {image!r}, which is not an object "
                    f"of target category {tgt.id!r}{self.v.where_object(image)}."
                    f"{_did_you_mean(image, tgt.objects)} Map it to an object of {tgt.id!r}.",
                    [obj, image],
                )
            else:
                self.data.objects[obj] = image
        for key in mapping:
            if key not in src.objects:
                self.add(
                    Code.FUN_MAPPING_UNKNOWN_OBJECT,
                    f"Functor {fun.id!r} maps {key!r}, which is not an object of source category "
                    f"{src.id!r}{self.v.where_object(key)}.{_did_you_mean(key, src.objects)} "
                    "Fix the key or remove the entry from objectMapping.",
                    [key],
                )

    def map_generators(self) -> None:
        fun, src, tgt = self.fun, self.data.source, self.data.target
        mapping = fun.morphism_mapping
        for mid in src.broken:
            self.unchecked.append(mid)
        for mid, gen in src.generators.items():
            spec = mapping.get(mid)
            if spec is None:
                if not gen.alias:
                    self.composition_fails = True
                    self.add(
                        Code.FUN_MORPHISM_UNMAPPED,
                        f"Functor {fun.id!r} does not map morphism {mid!r} ({gen.source} → "
                        f"{gen.target}) of {src.id!r}. Add `{mid}: <path in {tgt.id} from "
                        f"{self.data.objects.get(gen.source, '?')} to "
                        f"{self.data.objects.get(gen.target, '?')}>` to morphismMapping "
                        "(a list of morphism ids, or [] for an identity).",
                        [mid],
                    )
                continue
            fa, fb = self.data.objects.get(gen.source), self.data.objects.get(gen.target)
            try:
                image = tgt.resolve(spec, at=fa)
            except PathError as exc:
                self.fail_image(gen.alias)
                if exc.kind == "unknown_object":
                    continue  # the empty image of a generator whose source is unmapped
                self.add(
                    _PATH_CODES["functor"][exc.kind],
                    f"Functor {fun.id!r} maps morphism {mid!r} to {_spec(spec)}: {exc.message} "
                    f"An image must be a composable path of morphisms of {tgt.id!r}, "
                    "first step first.",
                    [mid, *([exc.morphism] if exc.morphism else [])],
                )
                continue
            if fa is None or fb is None:
                continue  # typing cannot be judged; the unmapped object is already an error
            if (image.source, image.target) != (fa, fb):
                self.fail_image(gen.alias)
                self.add(
                    Code.FUN_NOT_TYPED,
                    f"Functor {fun.id!r} maps morphism {mid!r}: {gen.source} → {gen.target} to "
                    f"{_fmt(image)}, which goes {image.source} → {image.target}; it must go "
                    f"F({gen.source}) = {fa} → F({gen.target}) = {fb}. Map it to a path of "
                    f"{tgt.id!r} between those objects.",
                    [mid],
                )
                continue
            if gen.alias:
                self.check_identity_image(mid, image)
            else:
                self.data.images[mid] = image
        for key in mapping:
            if key not in src.generators and key not in src.broken:
                home = self.v.project.category_of_morphism.get(key)
                where = f" ({key!r} is a morphism of category {home!r})" if home else ""
                self.add(
                    Code.FUN_MAPPING_UNKNOWN_MORPHISM,
                    f"Functor {fun.id!r} maps {key!r}, which is not a morphism of source "
                    f"category {src.id!r}{where}.{_did_you_mean(key, src.generators)} Fix the "
                    "key or remove the entry from morphismMapping.",
                    [key],
                )

    def fail_image(self, alias: bool) -> None:
        if alias:
            self.identity_fails = True
        else:
            self.composition_fails = True

    def check_identity_image(self, mid: str, image: Path) -> None:
        verdict = self.data.target.equal(image, Path(image.source, image.source))
        if verdict is True:
            return
        if verdict is False:
            self.identity_fails = True
            self.add(
                Code.FUN_IDENTITY_NOT_PRESERVED,
                f"Functor {self.fun.id!r} maps identity {mid!r} to {_fmt(image)}, which is not "
                f"the identity of {image.source!r} in {self.data.target.id!r}. Map it to [] "
                "(or leave it unmapped: an identity maps to an identity by definition).",
                [mid],
            )
        else:
            self.identity_unknown = True
            self.add(
                Code.FUN_IDENTITY_UNKNOWN,
                f"Functor {self.fun.id!r} maps identity {mid!r} to {_fmt(image)}; whether that "
                f"equals the identity in {self.data.target.id!r} could not be decided within the "
                "search bound. Map it to [] (or leave it unmapped).",
                [mid],
            )

    def translate(self, path: Path) -> Path | None:
        images = self.data.images
        fa = self.data.objects.get(path.source)
        fb = self.data.objects.get(path.target)
        if fa is None or fb is None or any(step not in images for step in path.steps):
            return None
        steps: list[str] = []
        for step in path.steps:
            steps += images[step].steps
        return Path(fa, fb, tuple(steps))

    def check_equations(self) -> None:
        src, tgt = self.data.source, self.data.target
        self.unchecked += [f"equation #{i + 1}" for i, _ in src.equation_errors]
        if src.semantics == "thin":
            if tgt.semantics != "thin":
                self.check_thin_source()
            return
        for number, (left, right) in enumerate(src.equations, 1):
            fl, fr = self.translate(left), self.translate(right)
            if fl is None or fr is None:
                self.unchecked.append(f"equation #{number}")
                continue
            self.judge(
                tgt.equal(fl, fr),
                f"equation #{number} of {src.id!r} ({_fmt(left)} = {_fmt(right)})",
                fl,
                fr,
                [*left.steps, *right.steps],
            )

    def judge(self, verdict: bool | None, what: str, fl: Path, fr: Path, ids: list[str]) -> None:
        if verdict is True:
            return
        fun, tgt = self.fun.id, self.data.target.id
        if verdict is False:
            self.composition_fails = True
            self.add(
                Code.FUN_EQUATION_FAILS,
                f"Functor {fun!r} does not preserve {what}: its images {_fmt(fl)} and {_fmt(fr)} "
                f"are different morphisms of {tgt!r}. Change the images so they are equal, or "
                f"add the equation to {tgt!r} if it holds there.",
                ids,
            )
        else:
            self.composition_unknown = True
            self.add(
                Code.FUN_EQUATION_UNKNOWN,
                f"Functor {fun!r}: could not decide within the search bound whether {what} "
                f"still holds; its images are {_fmt(fl)} and {_fmt(fr)} in {tgt!r}. Add an "
                f"equation to {tgt!r} that states it directly, or simplify the images.",
                ids,
            )

    def check_thin_source(self) -> None:
        """A thin source equates all parallel paths; check a generating set of those relations.

        For each root r, with tree paths t(x) from a breadth-first search, every path from r to
        z equals t(z) using only the relations t(x)·f = t(y) (induction on length), so those
        relations generate thinness at r. If the target is free without equations it is
        left-cancellative, so roots covering every object suffice; otherwise every object is a
        root.
        """
        src, tgt = self.data.source, self.data.target
        edges = [(mid, g.source, g.target) for mid, g in src.generators.items() if not g.alias]
        if any(mid not in self.data.images for mid, _, _ in edges) or len(self.data.objects) < len(
            src.objects
        ):
            self.unchecked.append(f"thinness of {src.id!r}")
            return
        outgoing: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for mid, a, b in edges:
            outgoing[a].append((mid, b))
        roots = list(src.ordered_objects) if tgt.equations else self.roots(outgoing)
        budget = THIN_RELATION_BUDGET
        reported = 0
        for root in roots:
            tree: dict[str, tuple[str, ...]] = {root: ()}
            image: dict[str, tuple[str, ...]] = {root: ()}
            queue = deque([root])
            while queue:
                x = queue.popleft()
                for mid, y in outgoing.get(x, ()):
                    via = image[x] + self.data.images[mid].steps
                    if y not in tree:
                        tree[y] = (*tree[x], mid)
                        image[y] = via
                        queue.append(y)
                        continue
                    budget -= 1
                    if budget < 0:
                        self.composition_unknown = True
                        self.add(
                            Code.FUN_EQUATION_UNKNOWN,
                            f"Functor {self.fun.id!r}: {src.id!r} is thin, so its parallel "
                            f"paths must have equal images; checking stopped after "
                            f"{THIN_RELATION_BUDGET} relations. Make {tgt.id!r} thin too if "
                            "that is meant, or validate a smaller category.",
                            [],
                        )
                        return
                    fr, fy = self.data.objects[root], self.data.objects[y]
                    lhs, rhs = Path(fr, fy, via), Path(fr, fy, image[y])
                    verdict = tgt.equal(lhs, rhs)
                    if verdict is not True:
                        left = Path(root, y, (*tree[x], mid))
                        right = Path(root, y, tree[y])
                        self.judge(
                            verdict,
                            f"thinness of {src.id!r} (paths {_fmt(left)} and {_fmt(right)} "
                            f"from {root} to {y} are equal there)",
                            lhs,
                            rhs,
                            [*left.steps, *right.steps],
                        )
                        reported += 1
                        if reported >= MAX_LAW_FINDINGS:
                            return

    def roots(self, outgoing: dict[str, list[tuple[str, str]]]) -> list[str]:
        """Objects from which every object is reachable, found in one linear pass.

        A search from each object not yet reached stops at reached objects; a former root it
        reaches is dropped, since everything that root reaches is now reachable from the new one.
        """
        reached: set[str] = set()
        roots: dict[str, None] = {}
        for obj in self.data.source.ordered_objects:
            if obj in reached:
                continue
            reached.add(obj)
            stack = [obj]
            while stack:
                for _, y in outgoing.get(stack.pop(), ()):
                    if y in reached:
                        roots.pop(y, None)
                    else:
                        reached.add(y)
                        stack.append(y)
            roots[obj] = None
        return list(roots)


def _status(fails: bool, unknown: bool) -> LawStatus:
    return "fails" if fails else "unknown" if unknown else "holds"


class _NatCheck:
    """Checks one natural transformation η: F ⇒ G."""

    def __init__(self, v: _Validator, nat: NaturalTransformation) -> None:
        self.v = v
        self.nat = nat

    def add(self, code: Code, message: str, ids: Iterable[str]) -> None:
        self.v.add(code, message, [self.nat.id, *ids], self.nat, nat=self.nat.id)

    def run(self) -> None:
        nat, funs = self.nat, self.v.project.functor_by_id
        found: list[Functor] = []
        for role, ident, code in (
            ("source", nat.source_functor, Code.NAT_SOURCE_FUNCTOR_MISSING),
            ("target", nat.target_functor, Code.NAT_TARGET_FUNCTOR_MISSING),
        ):
            fun = funs.get(ident)
            if fun is None:
                self.add(
                    code,
                    f"Natural transformation {nat.id!r} has {role} functor {ident!r}, which does "
                    f"not exist.{_did_you_mean(ident, funs)} Fix `{role}Functor` or declare the "
                    "functor.",
                    [ident],
                )
            else:
                found.append(fun)
        if len(found) < 2:
            return
        f, g = found
        if (f.source_category, f.target_category) != (g.source_category, g.target_category):
            self.add(
                Code.NAT_NOT_PARALLEL,
                f"Natural transformation {nat.id!r} goes between functors that are not parallel: "
                f"{f.id!r} is {f.source_category} → {f.target_category} but {g.id!r} is "
                f"{g.source_category} → {g.target_category}. Both must have the same source and "
                "the same target category.",
                [f.id, g.id],
            )
            return
        fd, gd = self.v.functor_data(f), self.v.functor_data(g)
        if fd is None or gd is None:
            self.add(
                Code.NAT_SQUARE_NOT_CHECKED,
                f"Natural transformation {nat.id!r} was not checked: the source or target "
                f"category of {f.id!r} does not exist. Fix the functor (see its errors) and "
                "validate again.",
                [f.id, g.id],
            )
            return
        components = self.check_components(f, fd, g, gd)
        self.check_squares(f, fd, g, gd, components)

    def check_components(
        self, f: Functor, fd: _FunctorData, g: Functor, gd: _FunctorData
    ) -> dict[str, Path]:
        nat, src, tgt = self.nat, fd.source, fd.target
        paths: dict[str, Path] = {}
        for obj in src.ordered_objects:
            spec = nat.components.get(obj)
            if spec is None:
                self.add(
                    Code.NAT_COMPONENT_MISSING,
                    f"Natural transformation {nat.id!r} has no component for object {obj!r}. "
                    f"Add `{obj}: <path in {tgt.id} from {fd.objects.get(obj, '?')} to "
                    f"{gd.objects.get(obj, '?')}>` to components ([] when they are equal).",
                    [obj],
                )
                continue
            fa, ga = fd.objects.get(obj), gd.objects.get(obj)
            try:
                path = tgt.resolve(spec, at=fa)
            except PathError as exc:
                if exc.kind == "unknown_object":
                    continue  # empty component at an unmapped object; the functor says why
                self.add(
                    _PATH_CODES["component"][exc.kind],
                    f"Natural transformation {nat.id!r}: component at {obj!r} is {_spec(spec)}: "
                    f"{exc.message} A component must be a composable path of morphisms of "
                    f"{tgt.id!r}, first step first.",
                    [obj, *([exc.morphism] if exc.morphism else [])],
                )
                continue
            if fa is None or ga is None:
                continue
            if (path.source, path.target) != (fa, ga):
                self.add(
                    Code.NAT_COMPONENT_NOT_TYPED,
                    f"Natural transformation {nat.id!r}: component at {obj!r} is {_fmt(path)}, "
                    f"which goes {path.source} → {path.target}; it must go {f.id}({obj}) = {fa} "
                    f"→ {g.id}({obj}) = {ga}. Use a path of {tgt.id!r} between those objects.",
                    [obj],
                )
                continue
            paths[obj] = path
        for key in nat.components:
            if key not in src.objects:
                self.add(
                    Code.NAT_COMPONENT_UNKNOWN_OBJECT,
                    f"Natural transformation {nat.id!r} has a component for {key!r}, which is not "
                    f"an object of {src.id!r}{self.v.where_object(key)}."
                    f"{_did_you_mean(key, src.objects)} Fix the key or remove the entry.",
                    [key],
                )
        return paths

    def check_squares(
        self,
        f: Functor,
        fd: _FunctorData,
        g: Functor,
        gd: _FunctorData,
        eta: dict[str, Path],
    ) -> None:
        nat, src, tgt = self.nat, fd.source, fd.target
        skipped: list[str] = list(src.broken)
        for mid, gen in src.generators.items():
            if gen.alias:
                continue
            a, b = gen.source, gen.target
            ff, gf = fd.images.get(mid), gd.images.get(mid)
            ea, eb = eta.get(a), eta.get(b)
            if ff is None or gf is None or ea is None or eb is None:
                skipped.append(mid)
                continue
            left = Presentation.compose(ff, eb)
            right = Presentation.compose(ea, gf)
            verdict = tgt.equal(left, right)
            if verdict is True:
                continue
            square = (
                f"the naturality square of {mid!r}: {a} → {b}, "
                f"{f.id}({mid})·η_{b} = {_fmt(left)} versus η_{a}·{g.id}({mid}) = {_fmt(right)}"
            )
            if verdict is False:
                self.add(
                    Code.NAT_SQUARE_FAILS,
                    f"Natural transformation {nat.id!r}: {square}, does not commute in "
                    f"{tgt.id!r} (the paths are provably different). Fix the components η_{a} / "
                    f"η_{b} or the images of {mid!r}, or add an equation to {tgt.id!r} if they "
                    "are meant to be equal.",
                    [mid, a, b],
                )
            else:
                self.add(
                    Code.NAT_SQUARE_UNKNOWN,
                    f"Natural transformation {nat.id!r}: could not decide within the search "
                    f"bound whether {square}, commutes in {tgt.id!r}. Add an equation to "
                    f"{tgt.id!r} that states it directly.",
                    [mid, a, b],
                )
        if skipped:
            shown = ", ".join(skipped[:10]) + (" …" if len(skipped) > 10 else "")
            self.add(
                Code.NAT_SQUARE_NOT_CHECKED,
                f"Natural transformation {nat.id!r}: {len(skipped)} naturality square(s) were "
                f"not checked ({shown}) because a morphism, its image under {f.id!r} or "
                f"{g.id!r}, or a component is broken (see the errors). Fix those and validate "
                "again; an unchecked square is not a pass.",
                skipped,
            )


# --------------------------------------------------------------------------- entry points
def validate_project(
    project: Project,
    *,
    category: str | None = None,
    functor: str | None = None,
    natural_transformation: str | None = None,
) -> Report:
    """Validate the whole project, or only the one entity named (raises NOT_FOUND if unknown)."""
    v = _Validator(project)
    summary = Summary()
    if category is not None:
        cat = project.category_by_id.get(category)
        if cat is None:
            raise not_found("Category", category, project.category_by_id)
        v.scoped = category
        v.check_duplicates({id(cat), *map(id, cat.objects), *map(id, cat.morphisms)})
        v.check_category(cat)
        summary.categories_checked = 1
    elif functor is not None:
        fun = project.functor_by_id.get(functor)
        if fun is None:
            raise not_found("Functor", functor, project.functor_by_id)
        v.scoped = functor
        v.check_duplicates({id(fun)})
        summary.functor_laws.append(v.check_functor(fun))
        summary.functors_checked = 1
    elif natural_transformation is not None:
        nat = project.nat_by_id.get(natural_transformation)
        if nat is None:
            raise not_found("Natural transformation", natural_transformation, project.nat_by_id)
        v.scoped = natural_transformation
        v.check_duplicates({id(nat)})
        v.check_nat(nat)
        summary.natural_transformations_checked = 1
    else:
        v.check_duplicates(None)
        v.check_top_level()
        for cat in project.categories:
            v.check_category(cat)
        for fun in project.functors:
            summary.functor_laws.append(v.check_functor(fun))
        for nat in project.natural_transformations:
            v.check_nat(nat)
        summary.categories_checked = len(project.categories)
        summary.functors_checked = len(project.functors)
        summary.natural_transformations_checked = len(project.natural_transformations)
    by_severity: dict[str, list[Finding]] = {"error": [], "warning": [], "info": []}
    for item in v.findings:
        by_severity[item.severity].append(item)
    summary.total_errors = len(by_severity["error"])
    summary.total_warnings = len(by_severity["warning"])
    summary.total_infos = len(by_severity["info"])
    now = dt.datetime.now(dt.UTC)
    return Report(
        is_valid=not by_severity["error"],
        errors=by_severity["error"],
        warnings=by_severity["warning"],
        infos=by_severity["info"],
        summary=summary,
        timestamp=now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z",
    )


def render_report(report: Report) -> str:
    """The report as plain text: findings grouped by severity, then functor laws and totals."""
    lines: list[str] = []
    for title, items in (
        ("Errors", report.errors),
        ("Warnings", report.warnings),
        ("Info", report.infos),
    ):
        if not items:
            continue
        lines.append(f"{title} ({len(items)}):")
        for item in items:
            lines.append(f"  {item.location or '-'}  {item.code}  {item.message}")
        lines.append("")
    s = report.summary
    if s.functor_laws:
        lines.append("Functor laws:")
        for law in s.functor_laws:
            lines.append(
                f"  {law.functor}: identity preservation {law.identity_preservation}, "
                f"composition preservation {law.composition_preservation}"
            )
        lines.append("")
    verdict = "valid" if report.is_valid else "INVALID"
    lines.append(
        f"Checked {s.categories_checked} categor{'y' if s.categories_checked == 1 else 'ies'}, "
        f"{s.functors_checked} functor(s), {s.natural_transformations_checked} natural "
        f"transformation(s): {s.total_errors} error(s), {s.total_warnings} warning(s), "
        f"{s.total_infos} info(s) — {verdict}."
    )
    return "\n".join(lines)


__all__ = [
    "CODES",
    "Code",
    "Finding",
    "FunctorLaws",
    "Report",
    "Summary",
    "render_report",
    "validate_project",
]
