"""References between imported documents: resolved, reported, and (with `link`) kept.

A reference whose target is in the source's category becomes a morphism (type `references` for
links, wiki links and @mentions, the role's name for `:doc:`, `:pep:` …), one per (source, target,
type). One whose target is in another category cannot be a morphism (a morphism joins two objects
of one category): it is kept as the source object's `metadata.related` and its category's
`related`, where `catdoc validate --suggest` finds it to propose functor mappings.

A label (`:ref:`) resolves against the documents of this import and those imported before: the
earlier documents' labels are read from their files, the labels' one source of truth, and only
when a reference of this import names a label none of its own documents defines. A label that
a file included by a document (`.. include::`) defines is that document's, as in Sphinx
(`catdoc.includes`), also when the file lies outside the imported tree; so are the references
written in it. A role whose
target starts with an intersphinx inventory's name (`:ref:`python:logging-config``), as the
document's Sphinx project names them in its `conf.py`, points at another project's pages: it is
`external`, not `unresolved`; a label of a page Sphinx generates (`genindex`) is `generated`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection
from typing import Any

from catdoc.documents import (
    TOCTREE,
    Kind,
    Reference,
    kind_of,
    label_key,
    may_define_labels,
    normalize_label,
    read_object_text,
    sniff_kind,
)
from catdoc.errors import CatDocError
from catdoc.importer.docs_tools import Reading
from catdoc.importer.files import _Doc
from catdoc.importer.mystmd import MystProject
from catdoc.importer.names import _unique, slugify
from catdoc.importer.planner import _Planner
from catdoc.importer.sphinx_conf import SphinxProjects
from catdoc.includes import IncludeReader
from catdoc.model import DEFAULT_FIELDS, Morphism
from catdoc.references import ANCHOR, MYSTMD_XREF, Known, Resolver, sole


def _link_references(
    planner: _Planner,
    docs: list[_Doc],
    *,
    link: bool,
    docs_root: str,
    reader: IncludeReader,
    fragments: Collection[str],
) -> list[dict[str, Any]]:
    """Report every reference; with `link`, keep the resolved ones (see module doc). `reader`
    follows the includes of documents imported earlier; `fragments` are the files this
    import's documents include."""
    imported = {item.object_id for item in planner.items if item.action != "skipped"}
    docs = [d for d in docs if d.object_id in imported]
    fields = planner.project.config.import_.field_rules
    tools = planner.tools
    readings = {doc.rel: tools.reading(doc.rel, doc.kind) for doc in docs}
    found = [
        (
            doc,
            readings[doc.rel].references(doc.text, fields=fields, structure=doc.structure)
            + doc.included.references,
        )
        for doc in docs
    ]
    resolver = _resolver(planner, found, readings, docs_root, reader, fragments)
    existing: dict[tuple[str, str, str], str] = {}
    for cat in planner.project.categories:
        for mor in cat.morphisms:
            existing.setdefault((mor.source, mor.target, mor.label), mor.id)
    planned: dict[tuple[str, str, str], str] = {}
    used_ids = set(planner.project.morphism_by_id)
    out: list[dict[str, Any]] = []
    for doc, refs in found:
        related: dict[str, str] = {}  # target object → its category
        reading = readings[doc.rel]
        for ref in resolver.expanded(doc.rel, refs):
            if not reading.counts(resolver, ref):
                continue
            entry = _entry(planner, resolver, reading, doc, ref)
            out.append(entry)
            target = entry["resolved"]
            if entry["kind"] == "morphism" or target is None:
                continue
            key = (doc.object_id, target, resolver.name_of(ref))
            if target == doc.object_id:
                entry["status"] = "self"
            elif entry["category"] != doc.category:
                entry["status"] = "cross-category"
                related[target] = entry["category"]
            elif key in existing:
                entry["status"] = "already-linked"
                entry["morphism"] = existing[key]
            elif not link:
                entry["status"] = "same-category"
            else:
                if key not in planned:
                    planned[key] = _add_morphism(planner, doc, key, used_ids)
                entry["status"] = "linked"
                entry["morphism"] = planned[key]
        if link and related:
            planner.relate(doc, related)
    return out


def _resolver(
    planner: _Planner,
    found: list[tuple[_Doc, list[Reference]]],
    readings: dict[str, Reading],
    docs_root: str,
    reader: IncludeReader,
    fragments: Collection[str],
) -> Resolver:
    """Lookups over the model's objects and the imported documents (these win by path); the
    labels of documents imported earlier only when this import needs them (see module doc).
    A document's labels include those of the files it includes; a fragment's own labels are
    its includer's only."""
    project = planner.project
    docs = [doc for doc, _ in found]
    books = {d.rel for d in docs if readings[d.rel].book is not None}
    mine = [
        Known(
            d.object_id,
            d.rel,
            d.fields.get("title"),
            None if d.rel in fragments else d.front.body,
            d.kind,
            tuple(d.included.labels),
            d.structure,
            tuple(d.included.files),
            *readings[d.rel].page_targets(
                d.text, d.structure, d.front.meta, fragment=d.rel in fragments
            ),
        )
        for d in docs
    ]
    resolver = Resolver.build(mine, project.config.import_, docs_root, reader.antora)
    label_roles = {role for role, rule in resolver.roles.items() if rule == "label"}
    wanted = any(
        (
            (ref.kind == "role" and ref.role in label_roles)
            or (ref.kind == "link" and ref.target.startswith(ANCHOR))
            or (ref.kind == "object" and doc.rel in books and ref.target not in resolver.ids)
        )
        and label_key(ref.target.strip().removeprefix(ANCHOR), doc.kind) not in resolver.labels
        for doc, refs in found
        for ref in refs
    )
    imported = {d.object_id for d in docs}
    rel_of = {obj.id: rel for rel, obj in planner.by_path.items()}
    earlier = [
        _labelled_text(planner, obj, rel_of.get(obj.id), reader, fragments)
        if wanted and obj.id not in imported
        else Known(obj.id, obj.path, obj.title)
        for obj in project.object_by_id.values()
    ]
    return Resolver.build(mine + earlier, project.config.import_, docs_root, reader.antora)


def _labelled_text(
    planner: _Planner,
    obj: Any,
    rel: str | None,
    reader: IncludeReader,
    fragments: Collection[str],
) -> Known:
    """An object imported earlier, with the text of its document at `rel` (its
    project-relative path) when it may define labels, the labels of the files it includes and,
    for a page of a mystmd project, its own targets (`Reading.page_targets`); a file that cannot be
    read defines none. The text is left out of a fragment: its labels are its includer's. The
    included files' references are not read: only labels are wanted of an earlier document."""
    known = Known(obj.id, obj.path, obj.title)
    try:
        text = read_object_text(planner.project.root, obj)
    except CatDocError:
        return known
    if not text:
        return known
    kind: Kind = sniff_kind(obj.path, text) if obj.path else "markdown"
    own = may_define_labels(text, kind) and rel not in fragments
    included = tuple(reader.of(rel, text, kind, references=False).labels) if rel else ()
    reading = planner.tools.reading(rel, kind) if rel and rel not in fragments else None
    page = reading if reading is not None and reading.book is not None else None
    if not own and not included and page is None:
        return known
    known.text, known.kind, known.included_labels = (text if own else None), kind, included
    if page is not None:
        known.tool_labels, known.implicit_labels, known.scope = page.page_targets(text)
    return known


def _entry(
    planner: _Planner, resolver: Resolver, reading: Reading, doc: _Doc, ref: Any
) -> dict[str, Any]:
    """What a reference points at, and the category that holds it (None when unresolved); the
    objects it may mean when it names several (`ambiguous`)."""
    project = planner.project
    candidates: list[str] = []
    if ref.kind == "morphism":
        target = ref.target if ref.target in project.morphism_by_id else None
        category = project.category_of_morphism.get(target) if target else None
    else:
        matches = reading.matches(resolver, ref)
        target = sole(matches)
        candidates = sorted(matches) if len(matches) > 1 else []
        category = (
            planner.object_category.get(target) or project.category_of_object.get(target)
            if target
            else None
        )
    return {
        "source": doc.object_id,
        "path": doc.rel,
        "line": ref.line,
        "kind": ref.kind,
        "role": ref.role,
        "target": ref.target,
        "resolved": target,
        "category": category,
        "status": "exists"
        if target
        else _unmatched(resolver, planner.tools.sphinx, reading.book, doc.rel, ref, candidates),
        "morphism": None,
        "candidates": candidates,
    }


def _unmatched(
    resolver: Resolver,
    sphinx: SphinxProjects,
    book: MystProject | None,
    source_path: str,
    ref: Reference,
    candidates: list[str],
) -> str:
    """Why a reference names no one object: it names several, another project's page (or a
    PEP or RFC on the web), a page Sphinx generates, or nothing known."""
    if candidates:
        return "ambiguous"
    if _external(resolver, ref, sphinx, source_path) or _xref(book, ref):
        return "external"
    if _generated(resolver, ref, source_path):
        return "generated"
    return "unresolved"


WEB_ROLES = frozenset({"pep", "rfc"})
"""Sphinx's roles that name a page on the web (peps.python.org, the RFC index) whatever the
tree holds: one whose PEP or RFC is no document of the tree is a link out, not a broken one."""


def _external(resolver: Resolver, ref: Reference, sphinx: SphinxProjects, source_path: str) -> bool:
    """Whether a role names a page of an intersphinx inventory of the document's project, or a
    PEP or RFC that is not in the tree (a header field too, while it names PEPs as a PEP's do)."""
    if ref.kind == "field":
        return ref.role in DEFAULT_FIELDS and resolver.fields[ref.role] == DEFAULT_FIELDS[ref.role]
    if ref.kind != "role":
        return False
    if ref.role in WEB_ROLES:
        return True
    if ":" not in ref.target or ref.role == TOCTREE:  # a toctree lists this project's pages
        return False
    prefix = ref.target.split(":", 1)[0].strip()
    return bool(prefix) and prefix in sphinx.inventories(posixpath.dirname(source_path))


def _xref(book: MystProject | None, ref: Reference) -> bool:
    """Whether a link in a page of a mystmd project names a page of another MyST project its
    `references:` lists (`xref:guide/page`, `xref:guide#label`)."""
    if book is None or ref.kind != "link":
        return False
    scheme, _, rest = ref.target.partition(":")
    return scheme == MYSTMD_XREF and rest.split("/", 1)[0] in book.references


SPHINX_PAGES = frozenset({"genindex", "modindex", "py-modindex", "search"})
"""Labels Sphinx defines for the pages it generates (the index, the module index, search)."""

SPHINX_DOCS = frozenset({"genindex", "modindex", "search"})
"""The pages Sphinx generates that a toctree may list as if they were documents."""


def _generated(resolver: Resolver, ref: Reference, source_path: str) -> bool:
    """Whether a label reference (or a MyST link, `[Index](genindex)`, or a toctree entry)
    names a page Sphinx generates rather than a document."""
    if ref.kind == "link":
        return kind_of(source_path) == "markdown" and ref.target in SPHINX_PAGES
    if ref.kind == "role" and ref.role == TOCTREE:
        return ref.target in SPHINX_DOCS
    return (
        ref.kind == "role"
        and resolver.roles.get(ref.role or "") == "label"
        and normalize_label(ref.target.strip()) in SPHINX_PAGES
    )


def _add_morphism(planner: _Planner, doc: _Doc, key: tuple[str, str, str], used: set[str]) -> str:
    """Plan a morphism source → target of type `name`; returns its id."""
    source, target, name = key
    ident = _unique(slugify(f"{source}-{name}-{target}") or "references", used)
    mor = {"id": ident, "name": name, "source": source, "target": target}
    Morphism.model_validate(mor)
    planner.plan_for(doc.category).new_morphisms.append(mor)
    planner.morphisms_created.append(ident)
    return ident
