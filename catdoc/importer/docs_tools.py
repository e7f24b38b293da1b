"""The docs tools that build a tree's pages (Sphinx, MkDocs, mystmd), and so how each document's
references are read and which of them count: one rule for an import and for
`validate --suggest`, which must find the same links in the same documents.

A tool decides what a document's text means: in a page Sphinx builds, reST interpreted text
without a role has `conf.py`'s `default_role` and a Markdown link with a scheme is a URL only
for the schemes MyST-Parser takes; in a page MkDocs or MyST-Parser renders, `@` and `#` mean
nothing to the tool, so an unknown mention counts only when written as an id; in a page of a
mystmd project `@label` is a cross-reference or a citation, and the page's headings and front
matter give it targets (`catdoc.importer.mystmd`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catdoc.documents import Kind, Reference, extract_references, structure_of
from catdoc.front_matter import split_front_matter
from catdoc.importer.mkdocs import MkDocsSites
from catdoc.importer.mystmd import MystProject, MystProjects, implicit_targets, labels, page_label
from catdoc.importer.sphinx_conf import SphinxProjects
from catdoc.markup import Structure
from catdoc.references import Resolver


@dataclass(frozen=True, slots=True)
class Reading:
    """How one document (at project-relative `rel`) is read, by the tool that builds it."""

    rel: str
    kind: Kind
    default_role: str | None
    myst: frozenset[str] | None
    """The schemes MyST-Parser takes for URLs, when it reads the document."""
    rendered: bool
    """Whether MkDocs renders it."""
    book: MystProject | None
    """The mystmd project it is a page of."""

    def references(
        self, text: str, *, fields: Mapping[str, Any], structure: Structure | None = None
    ) -> list[Reference]:
        """The references written in the document's own text."""
        return extract_references(
            text,
            kind=self.kind,
            fields=fields,
            structure=structure,
            citations=self.book is not None,
            default_role=self.default_role,
        )

    def counts(self, resolver: Resolver, ref: Reference) -> bool:
        """Whether the reference names a document at all (`Resolver.counts`)."""
        return resolver.counts(
            ref,
            self.kind,
            self.rel,
            myst=self.myst,
            rendered=self.rendered,
            mystmd=self.book is not None,
        )

    def matches(self, resolver: Resolver, ref: Reference) -> set[str]:
        """The object ids the reference may name (`Resolver.matches`)."""
        return resolver.matches(self.rel, ref, mystmd=self.book is not None)

    def page_targets(
        self,
        text: str,
        structure: Structure | None = None,
        meta: dict[str, Any] | None = None,
        *,
        fragment: bool = False,
    ) -> tuple[tuple[str, ...], tuple[str, ...], str | None]:
        """(tool labels, implicit targets, project folder) of a page of a mystmd project: its
        directives' `:label:` options and front matter `label:`, its headings' slugs; nothing
        for any other document, nor for a `fragment` (a file a page includes, whose targets
        are its includer's). These are the `Known` fields of the same names. The text's
        structure and front matter are read here, only for a page, unless the caller has them."""
        if self.book is None or fragment:
            return (), (), None
        structure = structure_of(text, self.kind) if structure is None else structure
        meta = split_front_matter(text).meta if meta is None else meta
        own = labels(structure) + page_label(meta)
        return own, implicit_targets(text, structure, meta), self.book.folder


@dataclass
class DocsTools:
    """The Sphinx projects, MkDocs sites and mystmd projects of a project root."""

    sphinx: SphinxProjects
    mkdocs: MkDocsSites
    mystmd: MystProjects

    @classmethod
    def at(cls, root: Path, sphinx: SphinxProjects | None = None) -> DocsTools:
        """The tools of the project at `root`; `sphinx` its Sphinx projects when the caller
        has read them already (each reads its `conf.py` files once)."""
        return cls(sphinx or SphinxProjects(root), MkDocsSites(root), MystProjects(root))

    def reading(self, rel: str, kind: Kind) -> Reading:
        """How the document at `rel` (project-relative) is read."""
        markdown = kind == "markdown"
        return Reading(
            rel,
            kind,
            self.sphinx.default_role(rel, kind),
            self.sphinx.myst_url_schemes(rel, kind),
            markdown and self.mkdocs.page(rel) is not None,
            self.mystmd.of(rel) if markdown else None,  # mystmd reads Markdown
        )


__all__ = ["DocsTools", "Reading"]
