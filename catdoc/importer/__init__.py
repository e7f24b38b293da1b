"""Adopt an existing docs tree: each document becomes an object, grouped into categories.

An import runs inside one write-path transaction (`catdoc.edit`): it is planned from the model as
it is under the project lock, applied as edit operations, and written all or nothing, so a bad
file, an id conflict or a concurrent writer never leaves half an import behind or loses another
writer's objects. Re-running is idempotent: an object is found again by its document's path, and
only fields that changed are rewritten.

`files` finds and reads the documents (leaving out what is excluded, what a Sphinx project does
not build: `sphinx_conf`, the fragments other documents include: `catdoc.includes`, and the
files of an Antora component that are no page: `catdoc.antora`),
`planner` gives them ids and categories (with `names` and `fields`), `links` turns references
into morphisms, and `writing` turns the plans into edit operations. Each phase reports to the
caller's `Progress`.
"""

from __future__ import annotations

from collections.abc import Sequence

from catdoc import results as r
from catdoc.edit import ModelEdit
from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.importer.docs_tools import DocsTools
from catdoc.importer.files import (
    _antora_pages,
    _exclude_patterns,
    _expand,
    _leave_out_fragments,
    _read_documents,
)
from catdoc.importer.links import _link_references
from catdoc.importer.planner import _Planner
from catdoc.importer.template import (
    bare_model,
    remove_example_document,
    remove_template,
    untouched_template,
)
from catdoc.importer.writing import _apply_plans
from catdoc.includes import IncludeReader
from catdoc.progress import Progress, no_progress
from catdoc.references import common_folder

FINDING = "Finding documents"
PLANNING = "Planning objects"
LINKING = "Linking references"
WRITING = "Writing the model"


def import_documents(
    edit: ModelEdit,
    paths: Sequence[str],
    *,
    recursive: bool | None = None,
    category_from: str | None = None,
    domain: str | None = None,
    category: str | None = None,
    link: bool | None = None,
    force: bool = False,
    exclude: Sequence[str] = (),
    progress: Progress = no_progress,
) -> r.ImportResult:
    """Import files, globs and directories (inside the project) as objects through the edit
    operations of `edit`; see module doc. `exclude` globs (absolute, or relative to the project
    root) join config.yaml's `import.exclude`. `written` is left for the transaction to fill
    in, and the last step reported (`WRITING`) goes on until it is written."""
    project = edit.project
    settings = project.config.import_
    recursive = settings.recursive if recursive is None else recursive
    link = settings.link if link is None else link
    category_from = category_from or settings.category_from
    if category_from not in ("folder", "domain"):
        raise CatDocError(
            VALIDATION_ERROR,
            f"category_from must be 'folder' or 'domain', got {category_from!r}.",
            "Use --category-from folder (group by parent folder) or domain (front matter).",
        )
    if not paths:
        raise CatDocError(
            VALIDATION_ERROR,
            "Nothing to import: no paths given.",
            "Name files, globs (quoted, e.g. 'docs/**/*.md') or directories.",
        )
    root = project.root
    progress(FINDING, 0, None)
    patterns = _exclude_patterns(root, [*settings.exclude, *exclude])
    found = _expand(root, paths, recursive=recursive, exclude=patterns)
    skipped = found.skipped
    docs = _read_documents(found.files, skipped, progress)

    example = untouched_template(project)
    tools = DocsTools.at(root, found.sphinx)
    planner = _Planner(bare_model(project) if example else project, force=force, tools=tools)
    docs_root = settings.docs_root
    if docs_root is None:
        docs_root = common_folder([d.rel for d in docs])
    reader = IncludeReader(root, docs_root, {d.rel: d.text for d in docs})
    docs, fragments = _leave_out_fragments(
        docs, found.named, tools.sphinx, reader, planner.by_path, skipped
    )
    docs = _antora_pages(docs, found.named, reader.antora, planner.by_path, skipped)
    docs = planner.assign_ids(docs, skipped)
    common = common_folder([d.rel for d in docs])
    for done, doc in enumerate(docs):
        progress(PLANNING, done, len(docs))
        planner.place(doc, category, category_from, common, domain)
    progress(PLANNING, len(docs), len(docs))
    progress(LINKING, 0, None)
    references = _link_references(
        planner, docs, link=link, docs_root=common, reader=reader, fragments=set(fragments)
    )
    removed: list[str] = []
    progress(WRITING, 0, None)
    if planner.has_changes():
        removed = remove_template(edit, planner.category_ids()) if example else []
        document = remove_example_document(edit) if example else None
        removed += [document] if document else []
        _apply_plans(edit, planner.plans)

    items = sorted([*planner.items, *skipped], key=lambda item: item.path)
    counts = {action: sum(item.action == action for item in items) for action in _ACTIONS}
    return r.ImportResult(
        items=items,
        **counts,
        excluded=found.excluded,
        not_built=found.not_built,
        references=references,
        morphisms_created=planner.morphisms_created,
        example_removed=removed,
    )


_ACTIONS = ("created", "updated", "unchanged", "skipped")


__all__ = ["import_documents"]
