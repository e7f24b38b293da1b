"""One change to the model, start to finish: lock, check, apply, write all or nothing, validate.

Every writer (the importer, the MCP tools, the CLI, the TUI) goes through `edit_model`:

1. take the project lock (bounded wait, then `BUSY`);
2. finish or undo a write a crash interrupted;
3. read the model as it is now (the caller's copy is reused when its files are unchanged) and
   compare its version with the caller's `expected_version` (`CONFLICT` when they differ);
4. run the operations; any refusal raises before anything is written;
5. check every changed file still is a valid model file, then write them, any documents and
   the review stamps (`catdoc.edit.reviews`) and remove the files the edit deletes, together
   (`catdoc.journal`);
6. load the result (the models of step 5 for the files just written) and return the findings
   that concern what was touched.

The cyclic garbage collector is paused while whole files' trees and models are built (at
100,000 objects a long-running face's collector otherwise traverses them again and again).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from catdoc import yaml_source
from catdoc.edit.operations import Change, ModelEdit
from catdoc.edit.reviews import finish_reviews
from catdoc.errors import CONFLICT, VALIDATION_ERROR, CatDocError
from catdoc.journal import commit_files, pending, recover
from catdoc.lock import project_lock
from catdoc.model import ModelFile
from catdoc.project import (
    Project,
    file_digest,
    gc_paused,
    load_project,
    model_file,
    model_version,
    refresh_version,
)
from catdoc.reviews import reviews_path
from catdoc.validate import Report, validate_project

T = TypeVar("T")

MAX_FINDINGS = 100
"""Findings returned with an edit; `findings_total` counts them all."""


@dataclass
class Outcome(Generic[T]):
    """What an edit did: the operations' own return value, and the state it left behind."""

    value: T
    changes: list[Change]
    files: list[str]
    """Project-relative paths of the files written."""
    project: Project
    report: Report | None
    touched: set[str]
    deleted: list[str] = field(default_factory=list)
    """Project-relative paths of the files removed."""


def edit_model(
    project: Project,
    apply: Callable[[ModelEdit], T],
    *,
    expected_version: str | None = None,
    lock_timeout: float | None = None,
    validate: bool = True,
) -> Outcome[T]:
    """Run `apply` on the current model and write what it changed, all or nothing.

    `lock_timeout` defaults to config.yaml's `edit.lockTimeout`.
    """
    root = project.root
    timeout = project.config.edit.lock_timeout if lock_timeout is None else lock_timeout
    with project_lock(root, timeout):
        if pending(root):
            recover(root)
        if model_version(root) != project.version:
            project = load_project(root)
        if expected_version is not None and expected_version != project.version:
            raise CatDocError(
                CONFLICT,
                f"The model changed since version {expected_version[:32]!r} was read (it is now "
                f"{project.version!r}); nothing was changed.",
                "Read the entities again (their results carry the new version) and repeat the "
                "edit if it still makes sense.",
            )
        with gc_paused():  # nodes, trees and models of whole files: nothing cyclic to find
            edit = ModelEdit(project)
            value = apply(edit)
            texts = edit.rendered()
            models = {
                rel: _check_model_text(rel, text, edit.parsed(rel, text))
                for rel, text in texts.items()
            }
            writes: dict[Path, str] = {root / rel: text for rel, text in texts.items()}
            writes.update(edit.documents)
            stamps = finish_reviews(edit, models)
            if stamps is not None:
                writes[reviews_path(root)] = stamps
            changes, touched, deletions = edit.changes, edit.touched, edit.deletions
            reload = bool(texts or edit.documents)
            del edit  # its nodes and index are not kept alive (nor frozen) by the load below
            if not writes and not deletions:
                return Outcome(value, changes, [], project, None, touched)
            commit_files(root, writes, deletions)
            files = sorted(path.relative_to(root).as_posix() for path in writes)
            known = {rel: (file_digest(text.encode()), models[rel]) for rel, text in texts.items()}
            del models, texts, writes
        after = load_project(root, known=known) if reload else project
        refresh_version(after)  # stamps alone were written: the same model, a new version
    with gc_paused():
        report = validate_project(after) if validate else None
    deleted = sorted(path.relative_to(root).as_posix() for path in deletions)
    return Outcome(value, changes, files, after, report, touched, deleted)


def _check_model_text(rel: str, text: str, parsed: tuple[Any] | None) -> ModelFile:
    """The edited file must still be a model file the loader reads (else nothing is written).
    `parsed` holds its tree when the edit parsed it already."""
    try:
        data = parsed[0] if parsed is not None else yaml_source.parse(text, rel)
        return model_file(data, text, rel)
    except CatDocError as exc:
        lines = exc.message.splitlines()
        shown = " ".join(line.strip() for line in lines[:2]) if len(lines) > 1 else lines[0]
        raise CatDocError(
            VALIDATION_ERROR,
            f"{rel}: the edit would make the file invalid ({shown}); nothing was written.",
            "Check the values given (types as in the file format).",
        ) from None


__all__ = ["MAX_FINDINGS", "Outcome", "edit_model"]
