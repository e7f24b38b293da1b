"""Every code the validator can emit, with its default severity, meaning and fix."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

Severity = Literal["error", "warning", "info"]


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
    SUSPECT_LINK = "SUSPECT_LINK"


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
    (
        Code.SUSPECT_LINK,
        "warning",
        "a link's documents changed since its review, or it was never reviewed (reviews on)",
        "read both ends (`catdoc suspects` shows the diff), then `catdoc review KEY`",
    ),
]
CODES: dict[Code, CodeInfo] = {code: CodeInfo(sev, what, fix) for code, sev, what, fix in _TABLE}
"""Default severity, meaning and fix of every code (the README's table is checked against it)."""


_PATH_CODES: dict[str, dict[str, Code]] = {
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
"""The code a `PathError` kind gives, by what the path is: an image, a component, an equation."""
