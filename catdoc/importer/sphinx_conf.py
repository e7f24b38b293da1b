"""What a Sphinx project's `conf.py` says, read without running it: the intersphinx inventories it
names and which files Sphinx builds as pages.

`conf.py` is Python; it is parsed (`ast`), never run, and only what is written out as literals
counts; one longer than `MAX_CONF_CHARS` is not parsed (Sphinx's defaults). A Sphinx project's
source folder is the folder of its `conf.py`; the documents of a folder belong to the nearest
`conf.py` at or above it inside the project (a tree may hold several).

Inventories. `:ref:`python:logging-config`` and `:doc:`sphinx:usage/index`` name a page of another
project's documentation through the inventory `intersphinx_mapping` gives that name: such a
reference points outside the tree by design, and the importer reports it as `external`, not
`unresolved`. The names are the text keys of a dict written out where `intersphinx_mapping` is
assigned (`= {...}`, `= dict(python=...)`, or intersphinx_registry's
`= get_intersphinx_mapping(packages={"python", ...})`), updated (`.update({...})`) or set one at a
time (`intersphinx_mapping["python"] = ...`) at the top level. A theme's or a shared
configuration's helper that builds the mapping is read the same way where its inventories are
written out: a dict passed to a keyword argument whose name ends in `intersphinx_mapping`
(sphinx_celery's `build_config(extra_intersphinx_mapping={...})`), and a list of names assigned to
a top-level name ending in `intersphinx_enable` (sphinx-scrapy's `scrapy_intersphinx_enable =
["tox", ...]`). A mapping computed any other way names nothing.

Source files. Sphinx builds the files whose name ends in a suffix of `source_suffix` (a string, a
list, or a dict of suffixes; `.rst` when it is not written out as one) or one a Markdown parser
extension adds (`.md`: myst_parser, myst_nb, recommonmark, sphinx_markdown_parser; Sphinx merges
those into any `source_suffix`), less those `exclude_patterns`, `templates_path`,
`html_static_path` and `html_extra_path` match (`sphinx.util.matching.Matcher`: relative to the
source folder, `*` and `?` within a name, `**` across folders, a leading `**/` also at the top,
and a matching folder is not entered); a pattern that would take them past `MAX_EXCLUDE_TEXT`
characters is not read. The extensions are those of `extensions` (a list, `+=`,
`.append`, `.extend`), of a helper's keyword argument ending in `extensions` (sphinx_celery's
`extra_extensions=[...]`) and of `app.setup_extension("...")`; suffixes given to
`app.add_source_suffix(...)` count too. When the extensions are changed in any way that is not
written out, the suffixes cannot be known and every document suffix counts.

Default role. `default_role` names the role of interpreted text written without one
(`` `text` ``): with setuptools' `default_role = 'any'` it is `:any:`text``, a cross-reference
read as that role is; without it docutils makes it a `title-reference`, no reference at all. A
value not written out as a text leaves that default.

MyST links. MyST-Parser reads a Markdown link whose target starts with a scheme (`name:`) as a
URL only when `myst_url_schemes` names that scheme (`http`, `https`, `mailto` and `ftp` unless
written out as a list, tuple, set or dict of names); any other `[](source-files:repository)` is a
cross-reference to a label or a document. A value not written out leaves MyST-Parser's default.
"""

from __future__ import annotations

import ast
import functools
import posixpath
from dataclasses import dataclass
from pathlib import Path

from catdoc.documents import Kind, read_document
from catdoc.errors import CatDocError
from catdoc.globs import Glob, sphinx_glob
from catdoc.project_files import resolve_inside

CONF = "conf.py"
MAPPING = "intersphinx_mapping"
ENABLE = "intersphinx_enable"
REGISTRY = "get_intersphinx_mapping"
"""intersphinx_registry's function: the mapping of the packages it is given, by their names."""
DEFAULT_SUFFIXES = (".rst",)
MARKDOWN_PARSERS = frozenset({"myst_parser", "myst_nb", "recommonmark", "sphinx_markdown_parser"})
"""Extensions that make Sphinx build `.md` files."""
MARKDOWN_SUFFIX = ".md"
URL_SCHEMES = "myst_url_schemes"
DEFAULT_URL_SCHEMES = frozenset({"http", "https", "mailto", "ftp"})
"""MyST-Parser's `myst_url_schemes` when `conf.py` does not write it out."""
EXCLUDING = ("exclude_patterns", "templates_path", "html_static_path", "html_extra_path")
"""Settings whose patterns Sphinx leaves out of the source files (`env.find_files`)."""
MAX_CONF_CHARS = 256 * 1024
"""The longest `conf.py` parsed (real ones are tens of kilobytes): Python's syntax tree takes
hundreds of times the text's size, so 5 MB of `a = 1` lines took 3 GB."""
MAX_EXCLUDE_TEXT = 4_096
"""Characters of those patterns read at most, as long as the longest path a system takes: a
glob's automaton grows with the square of its length, so a `conf.py` with a pattern of a million
characters would fill the memory (Sphinx's own regular expression would not finish either)."""


@dataclass(frozen=True)
class SphinxConf:
    """What one `conf.py` says (see module doc): its inventory names, the suffixes of the files
    Sphinx builds (None: cannot be known) and the patterns it leaves out."""

    inventories: frozenset[str] = frozenset()
    suffixes: tuple[str, ...] | None = DEFAULT_SUFFIXES
    exclude: tuple[str, ...] = ()
    url_schemes: frozenset[str] = DEFAULT_URL_SCHEMES
    default_role: str | None = None

    def excludes(self, rel: str) -> bool:
        """Whether a path relative to the source folder matches a pattern, as Sphinx's
        `Matcher` matches it (a leading `**/` also matches at the top)."""
        return self._excluding.match(rel)

    def builds(self, rel: str) -> bool | None:
        """Whether Sphinx builds the file at `rel` (relative to the source folder) as a page;
        None when the suffixes cannot be known and no pattern leaves it out (nor a folder above
        it: Sphinx does not enter a folder a pattern matches)."""
        if self._excluding_below.match(rel):
            return False
        if self.suffixes is None:
            return None
        return rel.endswith(self.suffixes)

    @functools.cached_property
    def _excluding(self) -> Glob:
        return sphinx_glob(_matched(self.exclude))

    @functools.cached_property
    def _excluding_below(self) -> Glob:
        return sphinx_glob(_matched(self.exclude), below=True)


def _matched(patterns: tuple[str, ...]) -> list[str]:
    """The patterns Sphinx's `Matcher` matches: those given, and each `**/…` without its `**/`
    (so that it also matches at the top)."""
    return [*patterns, *(p[3:] for p in patterns if p.startswith("**/"))]


class SphinxProjects:
    """The `conf.py` in force for the documents of each folder: the nearest one at or above it
    inside the project, each read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._of: dict[str, tuple[str, SphinxConf] | None] = {}

    def of(self, folder: str) -> tuple[str, SphinxConf] | None:
        """The source folder and `conf.py` of a project-relative folder ('' is the root); None
        outside a Sphinx project."""
        folder = posixpath.normpath(folder) if folder else ""
        folder = "" if folder == "." else folder
        if folder == ".." or folder.startswith(("../", "/")):
            return None  # outside the project
        if folder not in self._of:
            conf = self._read(posixpath.join(folder, CONF))
            if conf is not None:
                self._of[folder] = (folder, conf)
            else:
                self._of[folder] = self.of(posixpath.dirname(folder)) if folder else None
        return self._of[folder]

    def inventories(self, folder: str) -> frozenset[str]:
        """The intersphinx inventory names for the documents of a project-relative folder."""
        found = self.of(folder)
        return found[1].inventories if found else frozenset()

    def builds(self, rel: str) -> bool | None:
        """Whether Sphinx builds a project-relative file as a page (`SphinxConf.builds`); None
        outside a Sphinx project or when it cannot be known."""
        found = self.of(posixpath.dirname(rel))
        if found is None:
            return None
        source, conf = found
        return conf.builds(posixpath.relpath(rel, source or "."))

    def myst_url_schemes(self, rel: str, kind: Kind) -> frozenset[str] | None:
        """The link schemes MyST-Parser reads as URLs in a project-relative Markdown file that a
        Sphinx project builds (or may build); None for any other file, which MyST-Parser does
        not read: there a link with a scheme is a URL and `@` keeps CatDoc's meaning."""
        found = self.of(posixpath.dirname(rel)) if kind == "markdown" else None
        if found is None or self.builds(rel) is False:
            return None
        return found[1].url_schemes

    def default_role(self, rel: str, kind: Kind) -> str | None:
        """The `default_role` of a project-relative reST file that a Sphinx project builds (or
        may build); None for any other file, or when `conf.py` sets none."""
        found = self.of(posixpath.dirname(rel)) if kind == "rst" else None
        if found is None or self.builds(rel) is False:
            return None
        return found[1].default_role

    def excludes_folder(self, rel: str) -> bool:
        """Whether a project-relative folder is one Sphinx does not enter (a folder with a
        `conf.py` of its own is another project's source folder, entered all the same)."""
        found = self.of(posixpath.dirname(rel))
        own = self.of(rel)
        if found is None or (own is not None and own[0] == posixpath.normpath(rel)):
            return False
        source, conf = found
        return conf.excludes(posixpath.relpath(rel, source or "."))

    def _read(self, rel: str) -> SphinxConf | None:
        """The `conf.py` at `rel`; None when there is none (or it cannot be read: a folder, a
        link out of the project, a FIFO …)."""
        try:
            text = read_document(resolve_inside(self.root, rel), rel)
        except CatDocError:
            return None
        return read_conf(text)


def read_conf(source: str) -> SphinxConf:
    """What `source` (a `conf.py`) says (see module doc); Sphinx's defaults when it is not
    Python, or longer than `MAX_CONF_CHARS`."""
    if len(source) > MAX_CONF_CHARS:
        return SphinxConf()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return SphinxConf()
    return SphinxConf(
        _inventory_names(tree),
        _suffixes(tree),
        _excluded(tree),
        _url_schemes(tree),
        _default_role(tree),
    )


def _default_role(tree: ast.Module) -> str | None:
    """`default_role` as the last top-level assignment of a text gives it (lower case, as
    docutils looks roles up); None when none is written out."""
    role = None
    for node in tree.body:
        for target, value, augmented in _assignments(node):
            if _named(target, "default_role") and not augmented:
                written = _text(value)
                role = next(iter(written)).strip().lower() or None if written else None
    return role


def _suffixes(tree: ast.Module) -> tuple[str, ...] | None:
    """The suffixes of the files Sphinx builds; None when the extensions are not written out."""
    extensions: set[str] = set()
    suffixes: set[str] = set()
    written = False  # a literal `source_suffix`
    for node in ast.walk(tree):
        for target, value, augmented in _assignments(node):
            if _named(target, "extensions"):
                listed = _strings(value)
                if listed is None:
                    return None
                extensions |= listed
            elif _named(target, "source_suffix"):
                found = _suffix_keys(value)
                if found is not None:
                    suffixes |= found
                    written = written or not augmented
            elif isinstance(target, ast.Subscript) and _named(target.value, "source_suffix"):
                suffixes |= _text(target.slice)
        if isinstance(node, ast.keyword) and node.arg and node.arg.endswith("extensions"):
            extensions |= _strings(node.value) or set()
        if isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names):
            return None  # a star import may set anything
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        method, owner, first = node.func.attr, node.func.value, node.args[:1]
        if _named(owner, "extensions") and method in ("append", "insert", "extend"):
            last = node.args[-1] if node.args else None
            added = _strings(last) if method == "extend" else _text(last) or None
            if added is None:
                return None
            extensions |= added
        elif method == "setup_extension" or method == "add_source_suffix":
            named = _text(first[0]) if first else set()
            if not named:
                return None
            (extensions if method == "setup_extension" else suffixes).update(named)
        elif _named(owner, "source_suffix") and method == "update":
            suffixes |= {key for arg in node.args for key in _suffix_keys(arg) or ()}
    if not written:
        suffixes |= set(DEFAULT_SUFFIXES)
    if {name.split(".")[0] for name in extensions} & MARKDOWN_PARSERS:
        suffixes.add(MARKDOWN_SUFFIX)
    return tuple(sorted(suffixes))


def _url_schemes(tree: ast.Module) -> frozenset[str]:
    """`myst_url_schemes` as the last top-level assignment that writes it out gives it."""
    schemes = DEFAULT_URL_SCHEMES
    for node in tree.body:
        for target, value, augmented in _assignments(node):
            written = _suffix_keys(value) if _named(target, URL_SCHEMES) else None
            if written is not None and not augmented:
                schemes = frozenset(written)
    return schemes


def _excluded(tree: ast.Module) -> tuple[str, ...]:
    """The patterns written out for the settings that leave files out (`EXCLUDING`), those
    that fit in `MAX_EXCLUDE_TEXT` characters; a part computed at run time adds nothing."""
    patterns: list[str] = []
    for node in ast.walk(tree):
        for target, value, _ in _assignments(node):
            if isinstance(target, ast.Name) and target.id in EXCLUDING:
                patterns += sorted(_strings(value) or ())
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in EXCLUDING
            and node.args
        ):
            if node.func.attr == "append":
                patterns += sorted(_text(node.args[-1]))
            elif node.func.attr == "extend":
                patterns += sorted(_strings(node.args[0]) or ())
    kept: list[str] = []
    budget = MAX_EXCLUDE_TEXT
    for pattern in dict.fromkeys(p.strip("/") for p in patterns if p.strip("/")):
        if len(pattern) <= budget:
            budget -= len(pattern)
            kept.append(pattern)
    return tuple(kept)


def _assignments(node: ast.AST) -> list[tuple[ast.AST, ast.AST | None, bool]]:
    """(target, value, augmented) of an assignment statement; none for other nodes."""
    if isinstance(node, ast.Assign):
        return [(target, node.value, False) for target in node.targets]
    if isinstance(node, ast.AnnAssign):
        return [(node.target, node.value, False)] if node.value is not None else []
    if isinstance(node, ast.AugAssign):
        return [(node.target, node.value, True)]
    return []


def _named(node: ast.AST | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _strings(node: ast.AST | None, *, strict: bool = True) -> set[str] | None:
    """The texts of a list, tuple or set display of texts; None when it is anything else. Not
    `strict`, a display of texts and other things gives its texts (inventory names are known
    one by one; suffixes and extensions are not known when any item is not written out)."""
    if not isinstance(node, ast.List | ast.Tuple | ast.Set):
        return None
    texts = [_text(item) for item in node.elts]
    return set().union(*texts) if all(texts) or not strict else None


def _suffix_keys(node: ast.AST | None) -> set[str] | None:
    """The suffixes of a `source_suffix` value: a text, a list, tuple or set of texts, or a
    dict's text keys; None when it is not written out."""
    if isinstance(node, ast.Dict):
        keys = [_text(key) for key in node.keys]
        return set().union(*keys) if all(keys) else None
    return _text(node) or _strings(node)


def _inventory_names(tree: ast.Module) -> frozenset[str]:
    """The inventory names a `conf.py` gives `intersphinx_mapping` (see module doc)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if _is_mapping(target):
                    names |= _keys(node.value)
                elif isinstance(target, ast.Subscript) and _is_mapping(target.value):
                    names |= _text(target.slice)
                elif isinstance(target, ast.Name) and target.id.endswith(ENABLE):
                    names |= _strings(node.value, strict=False) or set()
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "update"
            and _is_mapping(node.value.func.value)
        ):
            for arg in node.value.args:
                names |= _keys(arg)
            names |= {kw.arg for kw in node.value.keywords if kw.arg}
    for found in ast.walk(tree):
        if isinstance(found, ast.keyword) and found.arg and found.arg.endswith(MAPPING):
            names |= _keys(found.value)
    return frozenset(names)


def _is_mapping(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Name) and node.id == MAPPING


def _keys(node: ast.AST | None) -> set[str]:
    """The text keys of a dict display, of `dict(name=...)`, or of intersphinx_registry's
    `get_intersphinx_mapping(packages={"python", ...})`."""
    if isinstance(node, ast.Dict):
        return {key for item in node.keys for key in _text(item)}
    if not isinstance(node, ast.Call):
        return set()
    if isinstance(node.func, ast.Name) and node.func.id == "dict":
        return {kw.arg for kw in node.keywords if kw.arg} | {
            key for arg in node.args for key in _keys(arg)
        }
    called = (
        node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    )
    if called == REGISTRY:
        packages = [kw.value for kw in node.keywords if kw.arg == "packages"] + node.args[:1]
        return {
            name for collection in packages for name in _strings(collection, strict=False) or ()
        }
    return set()


def _text(node: ast.AST | None) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
        return {node.value}
    return set()
