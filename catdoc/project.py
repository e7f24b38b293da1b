"""Find the project root, load and merge the YAML model, and remember where everything came from.

Reading uses yaml-rs (a Rust parser, ~15x faster than PyYAML's C loader on large models). It
gives no node positions, so `file:line` is found lazily, only for entities a finding names, from
a one-pass index of the `id:` lines of the file.
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
import stat as stat_module
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml_rs
from pydantic import ValidationError

from catdoc import journal
from catdoc.errors import LOAD_ERROR, PATH_OUTSIDE_PROJECT, PROJECT_NOT_FOUND, CatDocError
from catdoc.lock import held_here, project_lock
from catdoc.model import (
    Category,
    Config,
    DocObject,
    Entity,
    Functor,
    ModelFile,
    Morphism,
    NaturalTransformation,
)

CATDOC_DIR = ".catdoc"
MODEL_FILE = "category.yaml"
CONFIG_FILE = "config.yaml"
EXTRA_DIR = "categories"
CACHE_DIR = "cache"

_ID_LINE = re.compile(
    r"[ \t]*(?:-[ \t]+)?(?:id:[ \t]*(\S[^#]*?)[ \t]*(?:#.*)?"
    r"|\{[ \t]*id:[ \t]*(\"[^\"]*\"|'[^']*'|[^\s,}#]+).*)$"
)
"""An `id:` line: block style (`- id: x`) or a flow mapping that starts with it (`- {id: x, …}`)."""
_YAML_ERROR_POS = re.compile(r"line (\d+), column (\d+)")


def find_root(start: Path | str | None = None) -> Path:
    """The nearest ancestor of `start` (default: the working directory) holding `.catdoc/`."""
    here = Path(start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / CATDOC_DIR).is_dir():
            return candidate
    raise CatDocError(
        PROJECT_NOT_FOUND,
        f"No CatDoc project found at or above {here} (no {CATDOC_DIR}/ directory).",
        "Run `catdoc init` in the project's root, or pass --project DIR.",
    )


def resolve_inside(root: Path, user_path: str | Path) -> Path:
    """Resolve a user-given path against the root; refuse anything that lands outside it."""
    base = root.resolve()
    raw = Path(user_path)
    target = (raw if raw.is_absolute() else base / raw).resolve()
    if not target.is_relative_to(base):
        raise CatDocError(
            PATH_OUTSIDE_PROJECT,
            f"Path {str(user_path)!r} resolves outside the project root {base}.",
            "Give a path inside the project (relative to its root); `..`, absolute paths "
            "elsewhere and symlinks that leave the project are refused.",
        )
    return target


def model_files(root: Path) -> list[Path]:
    """`category.yaml` first, then `categories/*.yaml` in name order."""
    catdoc = root / CATDOC_DIR
    files = [catdoc / MODEL_FILE] if (catdoc / MODEL_FILE).is_file() else []
    extra = catdoc / EXTRA_DIR
    if extra.is_dir():
        files += sorted(p for p in extra.iterdir() if p.suffix in {".yaml", ".yml"} and p.is_file())
    return files


def stamp(root: Path) -> tuple[tuple[str, int, int], ...]:
    """A cheap fingerprint of the model's files: changes when any is added, removed or edited.

    Long-running faces call it on every request, so it uses `os` calls on strings rather than
    pathlib (which spends more time building paths than the system spends on the `stat`s).
    Same files, same order as `model_files`, plus the config and the `categories/` directory.
    """
    catdoc = os.path.join(root, CATDOC_DIR)
    extra = os.path.join(catdoc, EXTRA_DIR)
    model = os.path.join(catdoc, MODEL_FILE)
    parts: list[tuple[str, int, int]] = []
    extra_is_dir = False
    for path in (os.path.join(catdoc, CONFIG_FILE), extra, model):
        try:
            st = os.stat(path)
        except OSError:
            continue
        if path == extra:
            extra_is_dir = stat_module.S_ISDIR(st.st_mode)
        elif path == model and not stat_module.S_ISREG(st.st_mode):
            continue
        parts.append((path, st.st_mtime_ns, st.st_size))
    if extra_is_dir:
        try:
            entries = sorted(os.scandir(extra), key=lambda entry: entry.name)
        except OSError:
            entries = []
        for entry in entries:
            if os.path.splitext(entry.name)[1] not in {".yaml", ".yml"}:
                continue
            try:
                if entry.is_file():
                    st = entry.stat()
                    parts.append((entry.path, st.st_mtime_ns, st.st_size))
            except OSError:
                continue
    return tuple(parts)


@dataclass(frozen=True)
class Duplicate:
    """Two entities of one kind that share an id."""

    kind: str
    id: str
    first: Entity
    second: Entity


@dataclass
class Project:
    """A loaded project: the merged model, its indexes, and where each entity came from."""

    root: Path
    config: Config
    categories: list[Category] = field(default_factory=list)
    functors: list[Functor] = field(default_factory=list)
    natural_transformations: list[NaturalTransformation] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    top_level_unknown: list[tuple[str, str]] = field(default_factory=list)
    fingerprint: tuple[tuple[str, int, int], ...] = ()
    version: str = ""
    """A hash of the model files' contents: what an edit's `expected_version` is checked against."""
    _line_index: dict[str, dict[str, list[int]]] = field(default_factory=dict, repr=False)

    # --- indexes (first occurrence wins; later ones are reported as duplicates) ---
    @cached_property
    def _indexes(self) -> _Indexes:
        return _Indexes.build(self)

    @property
    def category_by_id(self) -> dict[str, Category]:
        return self._indexes.categories

    @property
    def object_by_id(self) -> dict[str, DocObject]:
        return self._indexes.objects

    @property
    def morphism_by_id(self) -> dict[str, Morphism]:
        return self._indexes.morphisms

    @property
    def functor_by_id(self) -> dict[str, Functor]:
        return self._indexes.functors

    @property
    def nat_by_id(self) -> dict[str, NaturalTransformation]:
        return self._indexes.nats

    @property
    def category_of_object(self) -> dict[str, str]:
        return self._indexes.object_category

    @property
    def category_of_morphism(self) -> dict[str, str]:
        return self._indexes.morphism_category

    @property
    def duplicates(self) -> list[Duplicate]:
        return self._indexes.duplicates

    def locate(self, entity: Entity) -> str:
        """`file:line` of an entity's YAML node (just `file` when the line cannot be found)."""
        origin = entity.origin
        if not origin:
            return ""
        ident = getattr(entity, "id", None)
        lines = self._lines_of(origin).get(str(ident), []) if ident is not None else []
        ordinal = entity.ordinal
        if ordinal < len(lines):
            return f"{origin}:{lines[ordinal]}"
        return origin

    def _lines_of(self, origin: str) -> dict[str, list[int]]:
        if origin not in self._line_index:
            try:
                text = (self.root / origin).read_text(encoding="utf-8")
            except OSError:
                text = ""
            self._line_index[origin] = id_lines(text)
        return self._line_index[origin]


def id_lines(text: str) -> dict[str, list[int]]:
    """Map each value of an `id:` key to the 1-based lines it stands on, in document order."""
    index: dict[str, list[int]] = defaultdict(list)
    for number, line in enumerate(text.split("\n"), start=1):
        if "id:" in line and (match := _ID_LINE.match(line)):
            value = match.group(1) or match.group(2)
            index[value.strip().strip("'\"")].append(number)
    return dict(index)


@dataclass
class _Indexes:
    categories: dict[str, Category]
    objects: dict[str, DocObject]
    morphisms: dict[str, Morphism]
    functors: dict[str, Functor]
    nats: dict[str, NaturalTransformation]
    object_category: dict[str, str]
    morphism_category: dict[str, str]
    duplicates: list[Duplicate]

    @classmethod
    def build(cls, project: Project) -> _Indexes:
        dups: list[Duplicate] = []

        def put(kind: str, table: dict[str, Any], entity: Any) -> bool:
            seen = table.get(entity.id)
            if seen is not None:
                dups.append(Duplicate(kind, entity.id, seen, entity))
                return False
            table[entity.id] = entity
            return True

        cats: dict[str, Category] = {}
        objs: dict[str, DocObject] = {}
        mors: dict[str, Morphism] = {}
        obj_cat: dict[str, str] = {}
        mor_cat: dict[str, str] = {}
        for cat in project.categories:
            put("category", cats, cat)
            for obj in cat.objects:
                if put("object", objs, obj):
                    obj_cat[obj.id] = cat.id
            for mor in cat.morphisms:
                if put("morphism", mors, mor):
                    mor_cat[mor.id] = cat.id
        funs: dict[str, Functor] = {}
        for fun in project.functors:
            put("functor", funs, fun)
        nats: dict[str, NaturalTransformation] = {}
        for nat in project.natural_transformations:
            put("natural transformation", nats, nat)
        return cls(cats, objs, mors, funs, nats, obj_cat, mor_cat, dups)


def _parse_yaml(path: Path, rel: str) -> tuple[Any, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        reason = f"{rel}: not UTF-8 text ({exc.reason})."
        raise CatDocError(LOAD_ERROR, reason, "Save the file as UTF-8.") from None
    except OSError as exc:
        reason = f"{rel}: cannot read ({exc.strerror})."
        raise CatDocError(LOAD_ERROR, reason, "Check the file's permissions.") from None
    try:
        return (yaml_rs.loads(text) if text.strip() else None), text
    except yaml_rs.YAMLDecodeError as exc:
        detail = str(exc)
        pos = _YAML_ERROR_POS.search(detail)
        where = f"{rel}:{pos.group(1)}:{pos.group(2)}" if pos else rel
        reason = detail.strip().splitlines()[-1].strip() if detail.strip() else "syntax error"
        raise CatDocError(
            LOAD_ERROR,
            f"{where}: YAML syntax error: {reason}",
            "Fix the YAML at that position (check indentation, brackets and quotes).",
        ) from None


def _describe_loc(data: Any, loc: tuple[Any, ...]) -> tuple[str, str, str | None]:
    """Turn a pydantic error location into (entity, field, entity id) using the raw data."""
    kinds = {
        "categories": "category",
        "objects": "object",
        "morphisms": "morphism",
        "functors": "functor",
        "naturalTransformations": "natural transformation",
    }
    node: Any = data
    entity = "file"
    ident: Any = None
    rest: list[str] = []
    i = 0
    while i < len(loc):
        key = loc[i]
        if key in kinds and i + 1 < len(loc) and isinstance(loc[i + 1], int):
            try:
                node = node[key][loc[i + 1]]
            except (KeyError, IndexError, TypeError):
                break
            ident = node.get("id") if isinstance(node, dict) else None
            where = f"#{loc[i + 1] + 1}" if ident is None else repr(str(ident))
            entity = f"{kinds[key]} {where}"
            rest = []
            i += 2
            continue
        rest.append(str(key))
        if isinstance(node, dict | list):
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                node = None
        i += 1
    return entity, ".".join(rest) or "(whole entry)", None if ident is None else str(ident)


def _validate_file(data: Any, text: str, rel: str) -> ModelFile:
    if data is None:
        return ModelFile()
    if not isinstance(data, dict):
        raise CatDocError(
            LOAD_ERROR,
            f"{rel}: the top level must be a mapping with 'categories', 'functors' and "
            f"'naturalTransformations', not a {type(data).__name__}.",
            "Start the file with `categories:` (see `catdoc init` for an example).",
        )
    try:
        return ModelFile.model_validate(data)
    except ValidationError as exc:
        problems = []
        lines = id_lines(text)
        for err in exc.errors()[:20]:
            entity, fld, ident = _describe_loc(data, tuple(err["loc"]))
            where = f"{rel}:{lines[ident][0]}" if ident in lines else rel
            problems.append(f"  {where}: {entity}, field '{fld}': {err['msg']}")
        more = exc.error_count() - len(problems)
        tail = f"\n  … and {more} more" if more > 0 else ""
        raise CatDocError(
            LOAD_ERROR,
            f"{rel}: {exc.error_count()} schema problem(s):\n" + "\n".join(problems) + tail,
            "Fix each field to the type shown (see the file-format reference in the README).",
        ) from None


def load_config(root: Path) -> Config:
    path = root / CATDOC_DIR / CONFIG_FILE
    rel = f"{CATDOC_DIR}/{CONFIG_FILE}"
    if not path.is_file():
        return Config()
    data, _ = _parse_yaml(path, rel)
    if data is None:
        return Config()
    if not isinstance(data, dict):
        raise CatDocError(LOAD_ERROR, f"{rel}: must be a mapping of settings.", "See the README.")
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        fld = ".".join(str(p) for p in err["loc"])
        raise CatDocError(
            LOAD_ERROR, f"{rel}: setting '{fld}': {err['msg']}", "Fix the setting's value."
        ) from None
    config.mark_origin(rel)
    return config


def _stamp_origin(model: ModelFile, rel: str, ordinals: dict[str, int]) -> None:
    """Record the file of every entity and its ordinal among same-id entries of that file."""

    def mark(entity: Entity) -> None:
        ident = getattr(entity, "id", "")
        n = ordinals.get(ident, 0)
        ordinals[ident] = n + 1
        entity.mark_origin(rel, n)

    for cat in model.categories:
        mark(cat)
        for obj in cat.objects:
            mark(obj)
        for mor in cat.morphisms:
            mark(mor)
    for fun in model.functors:
        mark(fun)
    for nat in model.natural_transformations:
        mark(nat)


def load_project(root: Path | str) -> Project:
    """Load `.catdoc/` under `root`; bad input raises CatDocError(LOAD_ERROR) with `file:line`.

    An interrupted multi-file write is finished or undone first (see `catdoc.journal`), and a load
    that overlapped a write is read again, so a reader never sees half of an edit.
    """
    root = Path(root).resolve()
    if not (root / CATDOC_DIR).is_dir():
        raise CatDocError(
            PROJECT_NOT_FOUND,
            f"{root} has no {CATDOC_DIR}/ directory.",
            "Run `catdoc init` there first.",
        )
    for _attempt in range(_LOAD_ATTEMPTS):
        if journal.pending(root):
            if held_here(root):
                journal.recover(root)
            else:
                with project_lock(root):
                    journal.recover(root)
        project = _load_once(root)
        if project.fingerprint == stamp(root) and not journal.pending(root):
            break
    return project


_LOAD_ATTEMPTS = 5
"""Reads of a model that keeps changing underneath; the last one is returned as it is."""


def _load_once(root: Path) -> Project:
    fingerprint = stamp(root)
    config = load_config(root)
    project = Project(root=root, config=config, fingerprint=fingerprint)
    version = model_version(root)
    with gc_paused():
        for path in model_files(root):
            rel = path.relative_to(root).as_posix()
            model = _validate_file(*_parse_yaml(path, rel), rel)
            _stamp_origin(model, rel, {})
            project.files.append(rel)
            project.categories += model.categories
            project.functors += model.functors
            project.natural_transformations += model.natural_transformations
            project.top_level_unknown += [(rel, key) for key in model.unknown_keys()]
    project.version = version
    return project


def model_version(root: Path) -> str:
    """A hash of the config and model files' bytes: the version edits are checked against.

    Unlike `stamp` it cannot miss a change made within one tick of the file system's clock.
    """
    digest = hashlib.blake2b(digest_size=10)
    catdoc = root / CATDOC_DIR
    for path in [catdoc / CONFIG_FILE, *model_files(root)]:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        digest.update(f"\0{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many objects that hold no cycles.

    Loading creates a few hundred thousand containers (parsed YAML, then models); each time the
    survivors grow by a quarter, Python re-traverses all of them, which costs about a quarter
    of a 10,000-object load and frees nothing. Reference counting still frees everything.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def cache_dir(root: Path) -> Path:
    path = root / CATDOC_DIR / CACHE_DIR
    path.mkdir(parents=True, exist_ok=True)
    return path


__all__ = [
    "Duplicate",
    "Project",
    "cache_dir",
    "find_root",
    "gc_paused",
    "id_lines",
    "load_config",
    "load_project",
    "model_files",
    "model_version",
    "resolve_inside",
    "stamp",
]
