"""What changed in the model between two git revisions: entities added, removed and changed,
functor and natural-transformation entries changed, and findings new or resolved — the review
summary of a pull request.

The model at a revision is rebuilt in a temporary directory from `git` (everything under
`.catdoc/` but the cache, and the documents its objects name) and read by the normal loader, so
a revision is checked exactly as a checkout of it would be. Revisions go through
`catdoc.git_revisions`, which refuses anything that is not plainly one commit.
"""

from __future__ import annotations

import os
import posixpath
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from catdoc.change_results import EntityChange, EntityKind, MappingChange, ModelDiff
from catdoc.errors import LOAD_ERROR, NOT_FOUND, CatDocError, quoted
from catdoc.git_revisions import TreeFile, normal_path, read_blobs, resolve, tree_files
from catdoc.project import Project, load_project
from catdoc.project_files import CACHE_DIR, CATDOC_DIR
from catdoc.validate import Finding, Report, validate_project
from catdoc.yaml_source import MAX_FILE_BYTES

OwnerKind = Literal["functor", "naturalTransformation"]
Table = Literal["objectMapping", "morphismMapping", "components"]
_TABLES: tuple[tuple[OwnerKind, Table, str], ...] = (
    ("functor", "objectMapping", "object_mapping"),
    ("functor", "morphismMapping", "morphism_mapping"),
    ("naturalTransformation", "components", "components"),
)
"""(owner kind, table as written in the file, attribute of the model)."""


def diff_models(
    root: Path, rev1: str, rev2: str | None, current: tuple[Project, Report] | None = None
) -> ModelDiff:
    """The model at `rev1` against the model at `rev2`; with `rev2` None, against the working
    tree (`current`: its loaded project and report, when the caller has them)."""
    commit1 = resolve(root, rev1)
    commit2 = resolve(root, rev2) if rev2 is not None else None
    with tempfile.TemporaryDirectory(prefix="catdoc-diff-") as scratch:
        before = model_at(root, commit1, rev1, Path(scratch) / "from")
        report1 = validate_project(before)
        if commit2 is not None:
            after = model_at(root, commit2, str(rev2), Path(scratch) / "to")
            report2 = validate_project(after)
        elif current is not None:
            after, report2 = current
        else:
            after = load_project(root)
            report2 = validate_project(after)
        added, removed, changed = _entity_changes(before, after)
        mappings = list(_mapping_changes(before, after))
        new, resolved = _finding_changes(report1, report2)
    return ModelDiff(
        from_revision=rev1,
        from_commit=commit1,
        to_revision=rev2 if rev2 is not None else "working tree",
        to_commit=commit2,
        added=added,
        removed=removed,
        changed=changed,
        mappings=mappings,
        new_findings=new,
        resolved_findings=resolved,
        unchanged=not (added or removed or changed or mappings or new or resolved),
    )


def model_at(root: Path, commit: str, revision: str, into: Path) -> Project:
    """The model of `commit`, written into the directory `into` (with the documents its objects
    name, so the validator sees the same files) and loaded from there."""
    files = tree_files(root, commit)
    catdoc = CATDOC_DIR + "/"
    cache = f"{catdoc}{CACHE_DIR}/"
    model = [f for p, f in files.items() if p.startswith(catdoc) and not p.startswith(cache)]
    if not model:
        raise CatDocError(
            NOT_FOUND,
            f"The project has no {CATDOC_DIR}/ at {quoted(revision)} ({commit[:12]}).",
            "Compare with a revision that already had the CatDoc model (see `git log -- "
            f"{CATDOC_DIR}`).",
        )
    for entry in model:
        if entry.size > MAX_FILE_BYTES:
            raise CatDocError(
                LOAD_ERROR,
                f"The model at {quoted(revision)} does not load: {entry.path} is "
                f"{entry.size / 2**20:.1f} MiB; CatDoc reads model files of at most "
                f"{MAX_FILE_BYTES // 2**20} MiB.",
                "Split the model into files under .catdoc/categories/ in that revision.",
            )
    (into / CATDOC_DIR).mkdir(parents=True)
    _write(root, into, _with_link_targets(root, model, files))
    try:
        project = load_project(into)
    except CatDocError as exc:
        raise CatDocError(
            LOAD_ERROR,
            f"The model at {quoted(revision)} ({commit[:12]}) does not load: {exc.message}",
            f"{exc.hint} Check out that revision to fix it, or compare from a later one."
            if exc.hint
            else "Check out that revision to fix it, or compare from a later one.",
        ) from None
    named = {normal_path(o.path) for o in project.object_by_id.values() if o.path}
    documents = [files[p] for p in sorted(named) if p in files and not p.startswith(catdoc)]
    _write(root, into, _with_link_targets(root, documents, files))
    return project


MAX_LINK_HOPS = 40
"""Symlinks followed from one file of a revision, as the system follows them."""


def _with_link_targets(
    root: Path, entries: list[TreeFile], files: dict[str, TreeFile]
) -> list[TreeFile]:
    """`entries` and the files of the revision their symlinks lead to (in turn, up to
    `MAX_LINK_HOPS`), so the copy resolves each link as a checkout would: to the same file, or
    out of the project (which the loader refuses, as in a checkout)."""
    out = {entry.path: entry for entry in entries}
    links = [entry for entry in entries if entry.link]
    targets = _link_targets(root, links)
    for _hop in range(MAX_LINK_HOPS):
        following = []
        for link in links:
            target = normal_path(posixpath.join(posixpath.dirname(link.path), targets[link.oid]))
            entry = files.get(target)
            if entry is not None and entry.path not in out:
                out[entry.path] = entry
                if entry.link:
                    following.append(entry)
        if not following:
            break
        links = following
        targets |= _link_targets(root, following)
    return list(out.values())


def _link_targets(root: Path, links: list[TreeFile]) -> dict[str, str]:
    """Blob id → the target its symlinks name."""
    return {
        oid: os.fsdecode(data)
        for oid, data in read_blobs(root, [link.oid for link in links]).items()
    }


def _write(root: Path, into: Path, entries: list[TreeFile]) -> None:
    """Write `entries` below `into`, symlinks as symlinks. Files the document reader would
    refuse for their size are written as sparse files of that size (same answer, nothing read
    from git)."""
    from catdoc.documents import MAX_DOCUMENT_BYTES

    small = [e for e in entries if e.size <= max(MAX_DOCUMENT_BYTES, MAX_FILE_BYTES)]
    blobs = read_blobs(root, [e.oid for e in small])
    base = os.path.realpath(into)
    for entry in sorted(entries, key=lambda e: e.link):  # links last: none is written through
        target = os.path.realpath(os.path.join(base, entry.path))
        if os.path.commonpath([base, target]) != base:
            continue  # git never stores such a path; never write outside the scratch directory
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if entry.link:
            os.symlink(os.fsdecode(blobs[entry.oid]), target)
            continue
        with open(target, "wb") as handle:
            if entry.oid in blobs:
                handle.write(blobs[entry.oid])
            else:
                handle.truncate(entry.size)


# ------------------------------------------------------------------------------ comparing
def _entities(project: Project) -> Iterator[tuple[EntityKind, str, str | None, dict[str, Any]]]:
    """(kind, id, category, comparable fields) of every entity, in the model's order. The
    members of a category and the entries of mappings are compared on their own."""
    for cat in project.categories:
        if project.category_by_id.get(cat.id) is cat:
            yield "category", cat.id, None, _fields(cat, {"objects", "morphisms"})
    for cat in project.categories:
        for obj in cat.objects:
            if project.object_by_id.get(obj.id) is obj:
                yield "object", obj.id, cat.id, _fields(obj, set())
        for mor in cat.morphisms:
            if project.morphism_by_id.get(mor.id) is mor:
                yield "morphism", mor.id, cat.id, _fields(mor, set())
    for fun in project.functors:
        if project.functor_by_id.get(fun.id) is fun:
            yield "functor", fun.id, None, _fields(fun, {"object_mapping", "morphism_mapping"})
    for nat in project.natural_transformations:
        if project.nat_by_id.get(nat.id) is nat:
            yield "naturalTransformation", nat.id, None, _fields(nat, {"components"})


def _fields(entity: Any, leave_out: set[str]) -> dict[str, Any]:
    return entity.model_dump(mode="json", by_alias=True, exclude=leave_out)


def _entity_changes(
    before: Project, after: Project
) -> tuple[list[EntityChange], list[EntityChange], list[EntityChange]]:
    old = {(kind, ident): (cat, fields) for kind, ident, cat, fields in _entities(before)}
    new = {(kind, ident): (cat, fields) for kind, ident, cat, fields in _entities(after)}
    added, changed = [], []
    for (kind, ident), (cat, fields) in new.items():
        if (kind, ident) not in old:
            added.append(EntityChange(kind=kind, id=ident, category=cat))
            continue
        old_cat, old_fields = old[kind, ident]
        differ = [
            k for k in dict.fromkeys([*old_fields, *fields]) if old_fields.get(k) != fields.get(k)
        ]
        if old_cat != cat:
            differ.append("category")
        if differ:
            changed.append(EntityChange(kind=kind, id=ident, category=cat, fields=differ))
    removed = [
        EntityChange(kind=kind, id=ident, category=cat)
        for (kind, ident), (cat, _) in old.items()
        if (kind, ident) not in new
    ]
    return added, removed, changed


def _mapping_changes(before: Project, after: Project) -> Iterator[MappingChange]:
    """Entry by entry, for the functors and transformations present at both revisions (a new or
    removed one is an entity change)."""
    owners: dict[OwnerKind, tuple[dict[str, Any], dict[str, Any]]] = {
        "functor": (before.functor_by_id, after.functor_by_id),
        "naturalTransformation": (before.nat_by_id, after.nat_by_id),
    }
    for kind, (old_owners, new_owners) in owners.items():
        for ident, new_owner in new_owners.items():
            old_owner = old_owners.get(ident)
            if old_owner is None:
                continue
            for _, table, attribute in (t for t in _TABLES if t[0] == kind):
                old_map, new_map = getattr(old_owner, attribute), getattr(new_owner, attribute)
                for key in dict.fromkeys([*old_map, *new_map]):
                    if old_map.get(key) != new_map.get(key):
                        yield MappingChange(
                            owner_kind=kind,
                            owner=ident,
                            table=table,
                            key=key,
                            before=old_map.get(key),
                            after=new_map.get(key),
                        )


def _all(report: Report) -> list[Finding]:
    return [*report.errors, *report.warnings, *report.infos]


def _finding_changes(old: Report, new: Report) -> tuple[list[Finding], list[Finding]]:
    """Findings compared by (code, ids): their messages and lines may move with any edit."""

    def keys(findings: Iterable[Finding]) -> set[tuple[str, tuple[str, ...]]]:
        return {(f.code, tuple(f.ids)) for f in findings}

    old_keys, new_keys = keys(_all(old)), keys(_all(new))
    fresh = [f for f in _all(new) if (f.code, tuple(f.ids)) not in old_keys]
    gone = [f for f in _all(old) if (f.code, tuple(f.ids)) not in new_keys]
    return fresh, gone


# ------------------------------------------------------------------------------ text
MAX_LISTED = 200
"""Entries a text summary lists per section; JSON has them all."""


def render_diff(diff: ModelDiff) -> str:
    """The diff as Markdown for a pull request's review: counts first, then each section."""
    short = diff.to_commit[:12] if diff.to_commit else None
    to = f"{diff.to_revision} ({short})" if short else diff.to_revision
    lines = [f"### CatDoc model: {diff.from_revision} ({diff.from_commit[:12]}) → {to}", ""]
    if diff.unchanged:
        lines.append("No change to the model, and no finding appeared or went away.")
        return "\n".join(lines) + "\n"
    lines += [
        f"**{len(diff.added)} added, {len(diff.removed)} removed, {len(diff.changed)} changed; "
        f"{_count(len(diff.mappings), 'mapping entry', 'mapping entries')} changed; "
        f"{_count(len(diff.new_findings), 'new finding')}, "
        f"{len(diff.resolved_findings)} resolved.**",
    ]
    sections = [
        ("Added", [_entity(c) for c in diff.added]),
        ("Removed", [_entity(c) for c in diff.removed]),
        ("Changed", [f"{_entity(c)}: {', '.join(c.fields)}" for c in diff.changed]),
        ("Mappings", [_mapping(m) for m in diff.mappings]),
        ("New findings", [_finding(f) for f in diff.new_findings]),
        ("Resolved findings", [_finding(f) for f in diff.resolved_findings]),
    ]
    for title, items in sections:
        if not items:
            continue
        lines += ["", f"#### {title} ({len(items)})"]
        lines += [f"- {item}" for item in items[:MAX_LISTED]]
        if len(items) > MAX_LISTED:
            lines.append(f"- … and {len(items) - MAX_LISTED} more (all of them: --format json)")
    return "\n".join(lines) + "\n"


def _count(n: int, noun: str, plural: str | None = None) -> str:
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def _code(text: Any) -> str:
    """Inline Markdown code, safe for text that holds backticks."""
    text = str(text) if not isinstance(text, list) else "[" + ", ".join(text) + "]"
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _entity(change: EntityChange) -> str:
    kind = "natural transformation" if change.kind == "naturalTransformation" else change.kind
    where = f" ({change.category})" if change.category else ""
    return f"{kind} {_code(change.id)}{where}"


def _mapping(change: MappingChange) -> str:
    owner = "functor" if change.owner_kind == "functor" else "natural transformation"
    head = f"{owner} {_code(change.owner)} {change.table} {_code(change.key)}"
    if change.before is None:
        return f"{head}: added, ↦ {_code(change.after)}"
    if change.after is None:
        return f"{head}: removed (was ↦ {_code(change.before)})"
    return f"{head}: {_code(change.before)} → {_code(change.after)}"


def _finding(finding: Finding) -> str:
    where = f" {finding.location}" if finding.location else ""
    return f"{finding.severity} {_code(finding.code)}{where}: {finding.message}"


__all__ = ["diff_models", "model_at", "render_diff"]
