"""The edit operations on the model: every change to `.catdoc/` is a sequence of these.

A `ModelEdit` works on one loaded project inside one transaction (see `catdoc.edit.transaction`).
Each operation first checks the change against the model as it stands after the previous
operations and refuses a bad one with the validator's own code (`CAT_DANGLING_SOURCE`,
`FUN_OBJECT_TARGET_MISSING`, `DUPLICATE_ID` …) before anything is written; then it changes the
ruamel nodes of the entries it touches, so comments and key order stay as they were.
"""

from __future__ import annotations

from catdoc.edit.base import IN_USE, Change
from catdoc.edit.mappings import MappingOperations
from catdoc.edit.objects import ObjectOperations
from catdoc.edit.renames import RenameOperations
from catdoc.edit.reviews import ReviewOperations


class ModelEdit(ObjectOperations, MappingOperations, RenameOperations, ReviewOperations):
    """The operations of one transaction. Faces never build one: they call the service."""


__all__ = ["IN_USE", "Change", "ModelEdit"]
