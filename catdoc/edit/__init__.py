"""The one write path: every change to the model goes through these edit operations.

`edit_model` runs a function of a `ModelEdit` in one transaction (lock, version check, all files
or none, comments kept); `edit_result` turns its outcome into the `EditResult` every face shows.
"""

from catdoc.edit.base import KIND_OPTIONS, EntityKind
from catdoc.edit.operations import IN_USE, Change, ModelEdit
from catdoc.edit.result import EditChange, EditResult, edit_result
from catdoc.edit.transaction import Outcome, edit_model

__all__ = [
    "IN_USE",
    "KIND_OPTIONS",
    "Change",
    "EditChange",
    "EditResult",
    "EntityKind",
    "ModelEdit",
    "Outcome",
    "edit_model",
    "edit_result",
]
