"""The example model `catdoc init` writes gives way to the first import that adopts real documents.

The rule can never remove the user's work: the example goes only while `.catdoc/category.yaml` is
byte for byte the file `catdoc init` wrote and is the only model file (no `categories/*.yaml`).
Any edit to it, even a comment, keeps the example. Its entities are removed by the same
edit operations, in the same all-or-nothing write, as the import itself; so is the example
document, while it too is byte for byte as `catdoc init` wrote it (a crash leaves the model and
the document both as before or both as after).
"""

from __future__ import annotations

from catdoc.edit import ModelEdit
from catdoc.project import Project
from catdoc.project_files import CATDOC_DIR, MODEL_FILE
from catdoc.scaffold import EXAMPLE_DOCUMENT, template_text


def untouched_template(project: Project) -> bool:
    """Whether the model is still exactly the example `catdoc init` wrote."""
    if project.files != [f"{CATDOC_DIR}/{MODEL_FILE}"]:
        return False
    try:
        written = (project.root / CATDOC_DIR / MODEL_FILE).read_bytes()
    except OSError:
        return False
    return written == template_text(MODEL_FILE).encode("utf-8")


def bare_model(project: Project) -> Project:
    """The project with no categories, functors or transformations: what an import into the
    untouched example plans against."""
    return Project(
        root=project.root,
        config=project.config,
        files=list(project.files),
        fingerprint=project.fingerprint,
        version=project.version,
        model_digest=project.model_digest,
        reviews_seen=project.reviews_seen,
    )


def remove_template(edit: ModelEdit, reused: set[str]) -> list[str]:
    """Remove every entity of the example model through `edit`; returns what was removed.

    A category whose id the import uses again (`reused`) is emptied and its header cleared
    instead, so the import fills it rather than adding a second entry with the same id.
    """
    project = edit.project
    removed: list[str] = []
    for nat in project.natural_transformations:
        edit.remove_natural_transformation(nat.id)
        removed.append(f"natural transformation {nat.id}")
    for fun in project.functors:
        edit.remove_functor(fun.id)
        removed.append(f"functor {fun.id}")
    for cat in project.categories:
        for obj in cat.objects:
            edit.remove_object(obj.id, cascade=True)
        if cat.id in reused:
            edit.upsert_category(cat.id, dict.fromkeys(_HEADER))
        else:
            edit.remove_category(cat.id)
        removed.append(f"category {cat.id}")
    return removed


_HEADER = ("description", "aliases", "parent", "related", "semantics")
"""Category fields besides its name that an emptied example category loses."""


def remove_example_document(edit: ModelEdit) -> str | None:
    """Delete `.catdoc/docs/example.md` through `edit` when it is exactly the template's;
    returns its path."""
    rel = f"{CATDOC_DIR}/{EXAMPLE_DOCUMENT}"
    path = edit.root / rel
    try:
        if path.is_symlink() or path.read_bytes() != template_text(EXAMPLE_DOCUMENT).encode():
            return None
    except OSError:
        return None
    edit.delete_file(rel)
    return rel


__all__ = ["bare_model", "remove_example_document", "remove_template", "untouched_template"]
