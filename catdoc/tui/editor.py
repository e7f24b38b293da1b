"""`e`: open the selection in the user's editor ($EDITOR, else $VISUAL) at its file and line.

An entity opens at its YAML entry (the `location` its summary carries, `file:line`), a finding
at the YAML node it names, a document view at the document file. The app is suspended while the
editor runs and the view is read again when it closes, so what was edited shows at once.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import SuspendNotSupported

from catdoc.errors import CatDocError
from catdoc.project_files import resolve_inside
from catdoc.tui.screens.base import CatDocScreen
from catdoc.visible import visible

if TYPE_CHECKING:
    from catdoc.service import CatDoc
    from catdoc.tui.app import CatDocApp
    from catdoc.tui.refs import Ref

LINE_EDITORS = frozenset(
    {"vi", "vim", "nvim", "gvim", "view", "nano", "pico", "emacs", "emacsclient", "micro", "kak"}
    | {"joe", "jed", "mg", "ne"}
)
"""Editors that take `+LINE` before the file to open it at that line."""
NO_EDITOR = "Set EDITOR (or VISUAL) to your editor, e.g. `export EDITOR=vim`, to edit with `e`."


@dataclass(frozen=True)
class EditTarget:
    """A file to open, and the line to put the cursor on when known."""

    path: Path
    line: int | None = None


def editor_command(target: EditTarget, environ: Mapping[str, str]) -> list[str] | None:
    """The command that opens `target`: `[editor…, +LINE, path]` for editors that take `+LINE`,
    `[editor…, path]` for the others; None when neither EDITOR nor VISUAL is set."""
    setting = (environ.get("EDITOR") or "").strip() or (environ.get("VISUAL") or "").strip()
    if not setting:
        return None
    try:
        command = shlex.split(setting)
    except ValueError:  # unbalanced quotes: take the setting as one program name
        command = [setting]
    if target.line is not None and Path(command[0]).name in LINE_EDITORS:
        command.append(f"+{target.line}")
    return [*command, str(target.path)]


def at_location(root: Path, location: str) -> EditTarget | None:
    """`file:line` (or just `file`), relative to the project root, as a target inside it."""
    if not location:
        return None
    file, _, line = location.rpartition(":")
    if not (file and line.isdigit()):
        file, line = location, ""
    try:
        path = resolve_inside(root, file)
    except CatDocError:
        return None
    return EditTarget(path, int(line) if line else None)


def entity_target(service: CatDoc, ref: Ref) -> EditTarget | None:
    """The YAML entry of an entity, from the `location` its summary or detail carries."""
    if ref.kind == "object":
        location = service.show_object(ref.id).location
    elif ref.kind == "morphism":
        location = service.show_morphism(ref.id).location
    else:
        summaries = {
            "category": service.list_categories,
            "functor": service.list_functors,
            "naturalTransformation": service.list_natural_transformations,
        }[ref.kind]()
        location = next((s.location for s in summaries if s.id == ref.id), "")
    return at_location(service.root, location)


def document_target(service: CatDoc, ref: Ref) -> EditTarget | None:
    """An object's document file (None when it has only inline content, or is no object)."""
    if ref.kind != "object":
        return None
    path = service.show_object(ref.id).path
    return at_location(service.root, path) if path else None


def edit_selection(app: CatDocApp) -> None:
    """`e`: open what the current screen has selected (see `CatDocScreen.edit_target`)."""
    screen = app.screen
    try:
        target = screen.edit_target() if isinstance(screen, CatDocScreen) else None
    except CatDocError as error:  # the selection is gone, or the files broke meanwhile
        app.notify(visible(error.message), severity="error", markup=False)
        return
    open_in_editor(app, target)


def open_in_editor(app: CatDocApp, target: EditTarget | None) -> None:
    """Run the editor on `target` with the app suspended, then read the project again. Every
    reason it cannot (nothing selected, no editor set, no terminal) is a notification."""
    if target is None:
        app.notify("Nothing to edit here: select an entity or a finding first.", severity="warning")
        return
    command = editor_command(target, os.environ)
    if command is None:
        app.notify(NO_EDITOR, title="No editor", severity="warning", markup=False, timeout=8)
        return
    failure: OSError | None = None
    try:
        with app.suspend():
            try:
                subprocess.run(command, check=False)
            except OSError as error:  # caught inside, so the terminal is given back
                failure = error
    except SuspendNotSupported:
        where = f"{target.path}:{target.line}" if target.line else str(target.path)
        message = f"This terminal cannot hand over to an editor; open {where} yourself."
        app.notify(visible(message), severity="warning", markup=False)
        return
    if failure is not None:
        reason = failure.strerror or str(failure)
        message = f"Cannot run the editor {command[0]!r}: {reason}. {NO_EDITOR}"
        app.notify(visible(message), severity="error", markup=False)
        return
    app.action_reload()


__all__ = [
    "EditTarget",
    "at_location",
    "document_target",
    "edit_selection",
    "editor_command",
    "entity_target",
    "open_in_editor",
]
