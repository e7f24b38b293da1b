"""Antora components: the files a page's resource ids name, as Antora resolves them.

An Antora component version is a folder holding an `antora.yml` (its `name` and `version`) and
a `modules/` folder; each module (`modules/ROOT`, `modules/admin` …) keeps its files in family
folders: `pages`, `partials`, `examples`, `images`, `attachments`. A file there is a resource,
and a page names another resource by its resource id, `version@component:module:family$relative`
(`xref:admin:setup.adoc[]`, `include::partial$note.adoc[]`, `image::flow.png[]`; so do the
navigation files right in a module's folder, `modules/ROOT/nav.adoc`), as Antora's
`parseResourceId` reads one: the coordinates left out are the referring file's own, except that a
component given without a module means its `ROOT` module, the family is the one the syntax
implies (`page` for an xref, `image` for an image), and the relative path is taken from the
family folder's root (`xref:setup.adoc[]` in `pages/admin/intro.adoc` is `pages/setup.adoc`),
or from the referring file's folder when it starts with `./`; `..` steps up within the family.

The components are those whose `antora.yml` lies inside the project, found from the paths of
the files a reader knows (`learn`): a path is in a component when it runs
`<root>/modules/<module>/<family folder>/…` and `<root>/antora.yml` exists. A version given in
an id (`2.0@shop:…`) must be the component's (`_` is the unversioned one, `version: ~`); without
one, the referring file's own version, else the component's only version in the tree. A
version the tree does not hold names no file here.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from catdoc import yaml_source
from catdoc.documents import read_document
from catdoc.errors import CatDocError
from catdoc.project_files import resolve_inside

DESCRIPTOR = "antora.yml"
FAMILIES = {
    "page": "pages",
    "partial": "partials",
    "example": "examples",
    "image": "images",
    "attachment": "attachments",
}
"""Each resource family and the folder of a module that holds it."""
_FOLDERS = {folder: family for family, folder in FAMILIES.items()}
_RESOURCE_ID = re.compile(
    r"(?:([^@:$]+)@)?(?:(?:([^@:$]+):)?([^@:$]+)?:)?(?:([^@:$]+)\$)?([^:$][^@:$]*)\Z"
)
"""Antora's `RESOURCE_ID_RX`: version@component:module:family$relative."""
NAV = "nav"
"""The family of a module's navigation files (`modules/ROOT/nav.adoc`, listed by `antora.yml`'s
`nav`): their xrefs name pages as a page's do."""
UNVERSIONED = ""
"""The version of a component whose `antora.yml` says `version: ~` (written `_@` in an id)."""


@dataclass(frozen=True)
class Component:
    """One component version: where its `antora.yml` is (project-relative folder), its name and
    version (None when `antora.yml` leaves it to the git branch: `version: true`), and the
    `title` a site shows for it (None when `antora.yml` gives none: Antora shows the name)."""

    root: str
    name: str
    version: str | None
    title: str | None = None


@dataclass(frozen=True)
class Place:
    """Where a file sits in a component: its module, family and path inside the family folder."""

    component: Component
    module: str
    family: str
    relative: str

    @property
    def published(self) -> bool:
        """Whether Antora publishes the file as a page: one of the pages family no name of whose
        path there starts with `_` (`pages/_draft.adoc`, `pages/_parts/intro.adoc` are kept in
        the catalog for includes only, as Antora's `ContentCatalog.addFile` decides)."""
        return self.family == "page" and "/_" not in f"/{self.relative}"

    @property
    def name_parts(self) -> list[str]:
        """What a reader tells the file from the site's others by, as its resource id spells
        it (`2.0@shop:admin:guide/setup.adoc`): the version when the component has one, the
        component, the module unless `ROOT` (which an id may leave out), the folders inside
        the family folder and the file's stem."""
        *folders, name = self.relative.split("/")
        version = [self.component.version] if self.component.version else []
        module = [] if self.module == "ROOT" else [self.module]
        return [*version, self.component.name, *module, *folders, posixpath.splitext(name)[0]]


class AntoraComponents:
    """The components of a project, learnt from the paths of files in them (see module doc);
    each `antora.yml` is read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._at: dict[str, Component | None] = {}
        self._named: dict[str, list[Component]] = {}

    def learn(self, paths: Iterable[str]) -> None:
        """Find the components the project-relative `paths` lie in."""
        for path in paths:
            self.place(path)

    def place(self, path: str) -> Place | None:
        """Where the file at a project-relative path sits in a component, or None. A file right
        in a module's folder (`modules/ROOT/nav.adoc`) is of the `NAV` family."""
        parts = path.split("/")
        for at in range(len(parts) - 3, -1, -1):
            nav = at + 3 == len(parts)
            if parts[at] != "modules" or not (nav or parts[at + 2] in _FOLDERS):
                continue
            component = self._component("/".join(parts[:at]))
            if component is None:
                continue
            if nav:
                return Place(component, parts[at + 1], NAV, "")
            family = _FOLDERS[parts[at + 2]]
            return Place(component, parts[at + 1], family, "/".join(parts[at + 3 :]))
        return None

    def resolve(self, source: str, spec: str, family: str = "page") -> str | None:
        """The project-relative path of the resource `spec` names from the file at `source`
        (`family` is the one the syntax implies), or None when `source` is in no component,
        the id is malformed, or its component version is not in the project."""
        here = self.place(source)
        match = _RESOURCE_ID.match(spec.strip()) if here is not None else None
        if here is None or match is None:
            return None
        version, name, module, given, relative = match.groups()
        if name:
            module = module or "ROOT"
        else:
            name, module = here.component.name, module or here.module
            version = version if version is not None else here.component.version
        family = given or family
        component = self._version(name, version, here.component)
        if component is None or family not in FAMILIES:
            return None
        if relative.startswith("./"):
            relative = posixpath.join(posixpath.dirname(here.relative), relative[2:])
        relative = posixpath.normpath(relative)
        if relative.startswith("../") or relative in ("..", "."):
            return None
        parts = [component.root, "modules", module, FAMILIES[family], relative]
        return "/".join(part for part in parts if part)

    def _version(self, name: str, version: str | None, own: Component) -> Component | None:
        """The component version an id names: the version given (`_` the unversioned one), else
        the referring file's own when the id stays in its component, else the only one."""
        versions = self._named.get(name, [])
        if version is not None:
            wanted = UNVERSIONED if version == "_" else version
            return next((c for c in versions if c.version in (wanted, None)), None)
        if own.name == name:
            return own
        return versions[0] if len(versions) == 1 else None

    def _component(self, folder: str) -> Component | None:
        """The component whose `antora.yml` is in `folder` (project-relative), or None."""
        if folder not in self._at:
            self._at[folder] = found = self._read(folder)
            if found is not None:
                self._named.setdefault(found.name, []).append(found)
        return self._at[folder]

    def _read(self, folder: str) -> Component | None:
        rel = posixpath.join(folder, DESCRIPTOR) if folder else DESCRIPTOR
        try:
            data = yaml_source.parse(read_document(resolve_inside(self.root, rel), rel), rel)
        except (CatDocError, ValueError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            return None
        title = data.get("title")
        title = (title.strip() or None) if isinstance(title, str) else None
        version = data.get("version")
        if version is True or isinstance(version, dict):
            return Component(folder, data["name"], None, title)  # the git branch's: unknown
        version = UNVERSIONED if version is None else str(version)
        return Component(folder, data["name"], version, title)


__all__ = ["DESCRIPTOR", "FAMILIES", "NAV", "AntoraComponents", "Component", "Place"]
