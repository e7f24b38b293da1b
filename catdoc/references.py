"""What a reference in a document names: an object id, a document path, a file stem or title, a
reST label, or what a configured role (`:doc:`, `:ref:`, `:pep:` …) or header field (a PEP's
`Requires:`) makes of its target.

The importer resolves the references of the documents it adopts with this, and the mapping
suggestions resolve those of every document in the project: one rule for both.

An `@id` mention that names no object is still a reference (reported `unresolved`) when it is
written as CatDoc writes ids. In Markdown, CatDoc's own syntax, that is any mention without a
capital letter (ids are slugs; `@JelleZijlstra's` in a note is a person). In reST, AsciiDoc and
plain text, where `@` mostly means something else, it must also look like one of the project's
ids: its first word (up to the first `-`, `_`, `.` or digit, case ignored) is, or nearly is, the
first word of some id (`@req-refunds` where `req-auth` exists; the typo `@logn-form` beside
`login`), so `by @max-muoto in #8107` in a changelog is no broken id. A Markdown document that
a docs tool renders is held to the same rule, `@` being nothing there either (or a GitHub
handle, as pymdownx.magiclink writes it): a page MyST-Parser reads in a Sphinx project
(sphinx-book-theme's changelog thanks `by @bsipocz in https://…/pull/975`) or a page of an
MkDocs project (Python-Markdown's `authors.md`: `@waylan is the current maintainer`). There a
`#id` mention counts only when written as an id, as in reST (`Tracker #s: 1683066` is prose).

A Markdown link written with a scheme (`[](source-files:repository)`) counts only in a document
MyST-Parser reads, and only when that scheme is none of the URL schemes it is configured with
(`myst_url_schemes`; `inv:` names another project's inventory and `path:` a download, neither a
document): MyST-Parser then resolves it as a label or a document, as the `[](label)` it is.
`project:a.md` is the path `a.md`. There an anchor link (`[](#known-limitations)`) that names a
label of the project counts too: MyST-Parser looks for it on the page first (the page's own
label: `self`), then across the project, as for `[](label)`; one that names no label is taken
for a heading's anchor, no reference. Elsewhere an anchor points into the same page.

A page of a mystmd project (Jupyter Book 2, `catdoc.importer.mystmd`) is read as mystmd reads
it: `@label` is a reference to the target `label` (its own page's first, then any page's, as
`[](#label)`), and an `@x` that names no target is a citation of a bibliography entry, no
reference (one that names an object id still is CatDoc's `@id`); an anchor link names a target
anywhere in the project; where no label is one, `@x`, `[](#x)` and `[](x)` name a heading's
implicit target (its slug) in a page of the same mystmd project (`Known.implicit_labels`); a
link with a scheme counts only when it names a target (mystmd's legacy `[](label)`) or another
MyST project (`xref:guide/page`, `external` when the project's `references:` lists `guide`); a
`#id` counts only when written the CatDoc way.

An AsciiDoc cross reference in a page of an Antora component names a resource by its resource
id (`xref:admin:setup.adoc[]`, `xref:shop::index.adoc#pay[]`: `catdoc.antora`), not a path.

An AsciiDoc cross reference to an id (`<<limits>>`, `xref:limits[]`), which the document does
not define, is a link to `#limits`: Asciidoctor looks for the id in that document only (with
what it includes), never in another, and renders a link that leads nowhere. It counts (as
`unresolved`) when another document defines that id, where it was surely meant to point
(`xref:other.adoc#limits[]` says so); an id no document defines may come from attributes set
outside the tree (an Antora playbook's `idprefix`) and is left unreported. Ids compare as
Asciidoctor compares them, case and all (`label_key`), where reST and MyST labels compare as
Sphinx normalises them.
"""

from __future__ import annotations

import difflib
import fnmatch
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

from catdoc.antora import AntoraComponents
from catdoc.documents import (
    DOCUMENT_SUFFIXES,
    Kind,
    Reference,
    Structure,
    kind_of,
    label_key,
    labels_of,
    may_define_labels,
    normalize_label,
    written_as_id,
)
from catdoc.markup import MYST_PROJECT, URI_SCHEME
from catdoc.model import ImportConfig

LINKS = "references"
"""The morphism type (name) of links, wiki links and @mentions; a role's own name otherwise."""
ANCHOR = "#"
"""What starts the target of a link to an id of the linking document (AsciiDoc's `<<limits>>`
is `#limits`): it names no other document."""

_WEB_SUFFIXES = (".html", ".htm")
_SCHEME = re.compile(rf"({URI_SCHEME}):")
MYST_NOT_DOCUMENTS = frozenset({"inv", "path"})
"""MyST-Parser's own link schemes that name no document of the project."""
_MARKDOWN_LINKS = ("markdown", "text")
"""The kinds whose `[text](target)` links are read (an AsciiDoc `xref:ops:run.adoc[]` names an
Antora resource, reported as written)."""
MYSTMD_XREF = "xref"
"""mystmd's scheme for a page or target of another MyST project (`xref:guide/page#label`)."""
_FIRST_WORD = re.compile(r"[^-_.\d]*")
LEAD_CUTOFF = 0.8
"""How close (difflib's ratio) a mention's first word must be to an id's to count as a typo of
it: `logn` for `login` (0.89), not `max` for `make` (0.57)."""


def common_folder(paths: Iterable[str]) -> str:
    """The deepest folder holding every one of `paths` ('' when one is at the project root, or
    relative and absolute paths are mixed): where absolute `:doc:` paths start by default, and
    what folder categories are named below."""
    folders = [posixpath.dirname(path) for path in paths]
    if not folders or not all(folders):
        return ""
    try:
        return posixpath.commonpath(folders)
    except ValueError:
        return ""


@dataclass
class Known:
    """One document a reference may name: its object id, path, title, its text (for the labels
    it defines) and the labels of the files it includes, which Sphinx gives the including
    document (`catdoc.includes`); the structure of its text when the caller has it."""

    object_id: str
    path: str | None = None
    title: str | None = None
    text: str | None = None
    kind: Kind = "markdown"
    included_labels: tuple[str, ...] = ()
    structure: Structure | None = None
    included_files: tuple[str, ...] = ()
    """The files it includes (project-relative): an AsciiDoc xref to one is internal."""
    tool_labels: tuple[str, ...] = ()
    """Labels its docs tool gives it beyond those `labels_of` reads (a mystmd page's `:label:`
    options and front matter `label:`), normalised."""
    implicit_labels: tuple[str, ...] = ()
    """The implicit targets of its headings (a mystmd page's heading slugs): found only from a
    page of the same `scope`, and only when no label is."""
    scope: str | None = None
    """The folder of the mystmd project it is a page of (None: none)."""


@dataclass
class Resolver:
    """Lookups built once per import (or suggestion run); each `resolve` is a few dict reads."""

    roles: dict[str, str]
    docs_root: str = ""
    fields: dict[str, str] = field(default_factory=dict)
    ids: set[str] = field(default_factory=set)
    paths: dict[str, str] = field(default_factory=dict)
    stems: dict[str, set[str]] = field(default_factory=dict)
    names: dict[str, set[str]] = field(default_factory=dict)
    labels: dict[str, set[str]] = field(default_factory=dict)
    suffixes: tuple[str, ...] = ()
    leads: set[str] = field(default_factory=set)
    """The first words of the ids (`_lead`), which an unresolved mention must be like."""
    antora: AntoraComponents | None = None
    """The Antora components whose pages' xrefs name resources, not paths."""
    includes: dict[str, frozenset[str]] = field(default_factory=dict)
    """The files each AsciiDoc document (by path) includes, without their suffixes."""
    implicit: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    """(mystmd project folder, heading slug) → the pages with that implicit target."""
    scopes: dict[str, str] = field(default_factory=dict)
    """The mystmd project folder of each page (by path) of one."""

    @classmethod
    def build(
        cls,
        known: Iterable[Known],
        settings: ImportConfig,
        docs_root: str = "",
        antora: AntoraComponents | None = None,
    ) -> Resolver:
        """`docs_root` (project-relative) is used unless config.yaml sets `import.docsRoot`;
        `antora` learns the components of the known documents."""
        root = settings.docs_root if settings.docs_root is not None else docs_root
        found = cls(
            settings.role_rules,
            posixpath.normpath(root.strip("/") or "."),
            settings.field_rules,
            antora=antora,
        )
        suffixes: set[str] = set()
        for doc in known:
            found.ids.add(doc.object_id)
            keys = {(doc.title or "").casefold()}
            if doc.path:
                path = PurePosixPath(doc.path)
                found.paths.setdefault(doc.path, doc.object_id)
                found.stems.setdefault(path.stem.casefold(), set()).add(doc.object_id)
                keys |= {path.stem.casefold(), doc.path.casefold()}
                suffixes.add(path.suffix)
            for key in keys - {""}:
                found.names.setdefault(key, set()).add(doc.object_id)
            if doc.text is not None and may_define_labels(doc.text, doc.kind):
                for label, _line in labels_of(doc.text, doc.kind, doc.structure):
                    found.labels.setdefault(label, set()).add(doc.object_id)
            for label in (*doc.included_labels, *doc.tool_labels):
                found.labels.setdefault(label, set()).add(doc.object_id)
            if doc.path and doc.scope is not None:
                found.scopes[doc.path] = doc.scope
                for slug in doc.implicit_labels:
                    found.implicit.setdefault((doc.scope, slug), set()).add(doc.object_id)
            if doc.path and doc.included_files and doc.kind == "asciidoc":
                stems = frozenset(posixpath.splitext(rel)[0] for rel in doc.included_files)
                found.includes[doc.path] = stems
        if antora is not None:
            antora.learn(found.paths)
        found.suffixes = tuple(sorted(suffixes | DOCUMENT_SUFFIXES))
        found.leads = {_lead(ident) for ident in found.ids}
        return found

    def _rules(self, ref: Reference) -> dict[str, str] | None:
        """The rules a role or a header field is read by (None for the other kinds)."""
        return self.roles if ref.kind == "role" else self.fields if ref.kind == "field" else None

    def counts(
        self,
        ref: Reference,
        kind: Kind = "markdown",
        source_path: str = "",
        *,
        myst: frozenset[str] | None = None,
        rendered: bool = False,
        mystmd: bool = False,
    ) -> bool:
        """Whether the reference (in a document of `kind` at `source_path`) names a document at
        all: a role or a header field only when it is configured, an `@id` mention only when it
        names an object or is written as an id, a link with a scheme only where MyST-Parser
        reads it as no URL, a link to an AsciiDoc id only when another document defines it (see
        the module). `myst` is given for a document MyST-Parser reads: the schemes it takes for
        URLs; `rendered` says another docs tool (MkDocs) renders it; `mystmd` that it is a page
        of a mystmd project (see the module)."""
        mystmd = mystmd and kind == "markdown"
        if ref.kind == "link" and ref.target.startswith(ANCHOR):
            if kind in _MARKDOWN_LINKS:
                known = self._labelled(source_path, ref.target[1:])
                return (myst is not None or mystmd) and known
            owners = self.labels.get(label_key(ref.target[1:], kind), set())
            return bool(owners) and self.paths.get(source_path) not in owners
        if ref.kind == "object":
            if ref.target in self.ids or (mystmd and self._labelled(source_path, ref.target)):
                return True
            if mystmd:
                return False  # a citation of a bibliography entry
            if kind == "markdown" and myst is None and not rendered:
                return ref.target == ref.target.lower()
            return self._id_like(ref.target)
        if ref.kind == "morphism":
            return (myst is None and not rendered and not mystmd) or written_as_id(ref.target)
        if ref.kind == "link" and kind in _MARKDOWN_LINKS and (scheme := _SCHEME.match(ref.target)):
            if mystmd:
                known = normalize_label(ref.target) in self.labels
                return scheme.group(1) == MYSTMD_XREF or known
            return myst is not None and scheme.group(1) not in myst | MYST_NOT_DOCUMENTS
        rules = self._rules(ref)
        return rules is None or ref.role in rules

    def _labelled(self, source_path: str, label: str) -> bool:
        """Whether a label names a target: one a document defines, or the implicit target of a
        heading of the source's mystmd project (`_implicit`)."""
        return normalize_label(label) in self.labels or bool(self._implicit(source_path, label))

    def _id_like(self, target: str) -> bool:
        lead = _lead(target)
        return lead in self.leads or bool(
            difflib.get_close_matches(lead, self.leads, n=1, cutoff=LEAD_CUTOFF)
        )

    def name_of(self, ref: Reference) -> str:
        """The morphism type a linked reference gets: the role's or the field's name."""
        return (ref.role or LINKS) if self._rules(ref) is not None else LINKS

    def expanded(self, source_path: str, refs: Iterable[Reference]) -> list[Reference]:
        """`refs` with each toctree `:glob:` pattern replaced by an entry for every document it
        matches, sorted, as Sphinx lists them: the pattern joined to the source's document name
        (a leading `/` from the docs root), matched by `fnmatch` against the names of the known
        documents under the docs root (`*` also across folders), the source itself left out. A
        pattern that matches nothing stays as it is, to be reported (Sphinx warns of it)."""
        out: list[Reference] = []
        for ref in refs:
            if not ref.pattern:
                out.append(ref)
                continue
            own = _docname(source_path, self.docs_root)
            if own is None:
                continue
            base = "" if ref.target.startswith("/") else posixpath.dirname(own)
            pattern = posixpath.normpath(posixpath.join("/", base, ref.target)).lstrip("/")
            names = sorted(
                name
                for path in self.paths
                if (name := _docname(path, self.docs_root)) is not None
                and name != own
                and fnmatch.fnmatchcase(name, pattern)
            )
            out += [replace(ref, target="/" + name, pattern=False) for name in names] or [ref]
        return out

    def matches(self, source_path: str, ref: Reference, *, mystmd: bool = False) -> set[str]:
        """Every object id the reference may name: one when it resolves, several when it is
        ambiguous (a label two documents define, a wiki name or role target two share). In a
        page of a mystmd project (`mystmd`) an `@label` names its target first, as `[](#label)`
        does."""
        if ref.kind == "object":
            if mystmd and self._labelled(source_path, ref.target):
                return self._anchor(source_path, ref.target)
            return {ref.target} if ref.target in self.ids else set()
        if ref.kind == "link":
            if ref.target.startswith(ANCHOR):
                return self._anchor(source_path, ref.target[1:])
            if ref.xref and self.antora is not None and self.antora.place(source_path):
                return _some(self._path(self.antora.resolve(source_path, ref.target)))
            return self._link(source_path, ref.target)
        if ref.kind == "wiki":
            if ref.target in self.ids:
                return {ref.target}
            return self.names.get(ref.target.casefold(), set())
        rules = self._rules(ref)
        if rules is None:
            return set()
        rule = rules.get(ref.role or "")
        target = ref.target.strip()
        if rule == "path":
            return _some(self._path(_doc_joined(source_path, target, self.docs_root)))
        if rule == "label":
            return self.labels.get(normalize_label(target), set())
        if rule is None:
            return set()
        name = rule.format(target=target.split("#", 1)[0].strip())
        if name in self.ids:
            return {name}
        return self.stems.get(name.casefold(), set())

    def _anchor(self, source_path: str, label: str) -> set[str]:
        """What an anchor names: in a Markdown page, its own label, else another page's (as
        MyST-Parser looks for it), else in a page of a mystmd project a heading's implicit
        target (`_implicit`); nothing in AsciiDoc, whose ids name no other document."""
        if kind_of(source_path) != "markdown":
            return set()
        found = self.labels.get(normalize_label(label), set())
        own = self.paths.get(source_path)
        return {own} if own in found else found or self._implicit(source_path, label)

    def _implicit(self, source_path: str, label: str) -> set[str]:
        """The pages of the source's mystmd project with a heading whose implicit target is
        `label`: its own page first, else every one (several are ambiguous; mystmd takes the
        first in the project's page order, which CatDoc does not know)."""
        scope = self.scopes.get(source_path)
        if scope is None:
            return set()
        found = self.implicit.get((scope, normalize_label(label)), set())
        own = self.paths.get(source_path)
        return {own} if own in found else found

    def _link(self, source_path: str, target: str) -> set[str]:
        """What a link names: the document at its path, relative to the linking document's
        folder. In Markdown, a path that starts with `/` is tried from the docs root first (as
        MyST takes it from Sphinx's source folder), then from the project root (as GitHub reads
        it), and a link that names no document names a label (as MyST reads it). An AsciiDoc
        xref to a file the document includes names the document itself, as Asciidoctor
        makes it a link within the document."""
        folder = posixpath.dirname(source_path)
        target = target.removeprefix(MYST_PROJECT)
        if kind_of(source_path) != "markdown":
            rel = _joined(folder, target, "")
            included = self.includes.get(source_path)
            if rel and included and posixpath.splitext(rel)[0] in included:
                return _some(self.paths.get(source_path))  # Asciidoctor: an internal xref
            return _some(self._path(rel))
        roots = (self.docs_root, "") if target.startswith("/") else ("",)
        for root in roots:
            hit = self._path(_joined(folder, target, root))
            if hit is not None:
                return {hit}
        return self.labels.get(normalize_label(target)) or self._implicit(source_path, target)

    def _path(self, rel: str | None) -> str | None:
        """The object at a project-relative path; the suffix may be left out, even where the
        name already ends in one (Sphinx's module pages: `celery.utils.text` is
        `celery.utils.text.rst`), or be `.html`."""
        if rel is None:
            return None
        if rel in self.paths:
            return self.paths[rel]
        base = posixpath.splitext(rel)[0] if rel.endswith(_WEB_SUFFIXES) else rel
        for stem in (base, posixpath.join(base, "index")):
            for suffix in self.suffixes:
                hit = self.paths.get(stem + suffix)
                if hit is not None:
                    return hit
        return None


def _joined(folder: str, target: str, docs_root: str) -> str | None:
    """A link or `:doc:` target as a project-relative path, a leading `/` starting at
    `docs_root`; None when it leaves the project."""
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target:
        return None
    joined = (
        posixpath.join(docs_root, target.lstrip("/"))
        if target.startswith("/")
        else posixpath.join(folder, target)
    )
    norm = posixpath.normpath(joined)
    return None if norm == ".." or norm.startswith("../") else norm


def _doc_joined(source_path: str, target: str, docs_root: str) -> str | None:
    """A `:doc:` target as a project-relative path, the way Sphinx joins document names: a
    leading `/` starts at the docs root, and `..` stops there (Sphinx resolves
    `../topics/x` in a document at the root to `topics/x`). A source outside the docs root
    joins its own folder as links do."""
    folder = posixpath.dirname(source_path)
    inside = posixpath.relpath(folder or ".", docs_root)
    if target.startswith("/") or inside == ".." or inside.startswith("../"):
        return _joined(folder, target, docs_root)
    name = target.split("#", 1)[0].split("?", 1)[0]
    if not name:
        return None
    within = posixpath.normpath(posixpath.join("/", inside, name)).lstrip("/")
    return posixpath.normpath(posixpath.join(docs_root, within)) if within else None


def _docname(path: str, docs_root: str) -> str | None:
    """A project-relative path as a Sphinx document name: relative to the docs root, without
    its suffix; None outside the docs root."""
    inside = posixpath.relpath(path, docs_root) if docs_root != "." else path
    if inside == ".." or inside.startswith("../"):
        return None
    return posixpath.splitext(inside)[0]


def _lead(ident: str) -> str:
    """An id's first word, in lower case: `req` of `req-auth`, `adr` of `adr7`."""
    match = _FIRST_WORD.match(ident)
    return match.group().casefold() if match else ""


def sole(found: set[str]) -> str | None:
    """The one object id of `found`; None when it names none or several (ambiguous)."""
    return next(iter(found)) if len(found) == 1 else None


def _some(hit: str | None) -> set[str]:
    return {hit} if hit is not None else set()


__all__ = ["ANCHOR", "LINKS", "MYSTMD_XREF", "Known", "Resolver", "sole"]
