"""Load and merge the YAML model, and remember where everything came from.

Reading uses yaml-rs (a Rust parser, ~15x faster than PyYAML's C loader on large models). It
gives no node positions, so `file:line` is found lazily, only for entities a finding names, from
a one-pass index of the `id:` lines of the file; load errors get theirs from `catdoc.yaml_lines`.
Size, nesting and integer bounds, and merge keys, are in `catdoc.yaml_source`.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import os
import re
import stat as stat_module
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from catdoc import journal, kept_rows, parsed_cache, yaml_lines, yaml_source
from catdoc.errors import (
    LOAD_ERROR,
    PROJECT_NOT_FOUND,
    CatDocError,
)
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
    setting_range,
)
from catdoc.project_files import (
    CATDOC_DIR,
    CONFIG_FILE,
    REVIEWS_FILE,
    cache_dir,
    inside_catdoc,
    model_files,
    stamp,
)

_ID_LINE = re.compile(
    r"[ \t]*(?:-[ \t]+)?(?:id:[ \t]*(\S[^#]*?)[ \t]*(?:#.*)?"
    r"|\{[ \t]*id:[ \t]*(\"[^\"]*\"|'[^']*'|[^\s,}#]+).*)$"
)
"""An `id:` line: block style (`- id: x`) or a flow mapping that starts with it (`- {id: x, …}`)."""


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
    """A hash of the model files' and `reviews.yaml`'s contents: what an edit's
    `expected_version` is checked against (see `refresh_version`)."""
    model_digest: str = ""
    """The hash of the config and model files alone."""
    reviews_seen: tuple[int, int, int] | None = None
    """`reviews.yaml`'s (mtime, size, inode) when `version` took it in; None when absent."""
    ids_unique: bool = False
    """The loader found no id twice among all entities of every kind: the indexes are then
    built without looking for duplicates."""
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

    @cached_property
    def category_of_morphism(self) -> dict[str, str]:
        """Built on first use: few commands need the home of 300,000 morphisms."""
        first = self.morphism_by_id
        homes: dict[str, str] = {}
        for cat in self.categories:
            if self.ids_unique:
                homes.update(dict.fromkeys([mor.id for mor in cat.morphisms], cat.id))
                continue
            for mor in cat.morphisms:
                if first.get(mor.id) is mor:
                    homes[mor.id] = cat.id
        return homes

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
                text = (self.root / origin).read_text(encoding="utf-8-sig")
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
        for cat in project.categories:
            if project.ids_unique:
                cats[cat.id] = cat
            else:
                put("category", cats, cat)
            for kind, entities, table, home in (
                ("object", cat.objects, objs, obj_cat),
                ("morphism", cat.morphisms, mors, None),
            ):
                ids = [entity.id for entity in entities]
                if project.ids_unique or _all_new(ids, table):
                    table.update(zip(ids, entities, strict=True))  # no duplicate: in bulk
                    if home is not None:
                        home.update(dict.fromkeys(ids, cat.id))
                    continue
                for entity in entities:
                    if put(kind, table, entity) and home is not None:
                        home[entity.id] = cat.id
        funs: dict[str, Functor] = {}
        for fun in project.functors:
            put("functor", funs, fun)
        nats: dict[str, NaturalTransformation] = {}
        for nat in project.natural_transformations:
            put("natural transformation", nats, nat)
        return cls(cats, objs, mors, funs, nats, obj_cat, dups)


def _all_new(ids: list[str], known: dict[str, Any]) -> bool:
    """Whether no id repeats, in `ids` or in `known`: then a category's entities can be taken
    in bulk instead of one by one."""
    return len(set(ids)) == len(ids) and known.keys().isdisjoint(ids)


def _parse_yaml(path: Path, rel: str) -> tuple[Any, str]:
    """The file's data and text; see `catdoc.yaml_source` for the bounds it enforces."""
    text = yaml_source.read_text(path, rel)
    return yaml_source.parse(text, rel), text


def _describe_loc(data: Any, loc: tuple[Any, ...]) -> tuple[str, str]:
    """Turn a pydantic error location into (entity, field) using the raw data."""
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
            where = f"#{loc[i + 1] + 1}" if ident is None else repr(yaml_source.shown(ident))
            entity = f"{kinds[key]} {where}"
            rest = []
            i += 2
            continue
        rest.append(yaml_source.shown(key))
        if isinstance(node, dict | list):
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                node = None
        i += 1
    return entity, ".".join(rest) or "(whole entry)"


def model_file(data: Any, text: str, rel: str) -> ModelFile:
    """The model of a model file's parsed YAML `data` (of `text`), checked as a load checks it;
    LOAD_ERROR at a line otherwise. `data` is consumed."""
    if data is None:
        return ModelFile()
    if not isinstance(data, dict):
        raise CatDocError(
            LOAD_ERROR,
            f"{rel}:1: the top level must be a mapping with 'categories', 'functors' and "
            f"'naturalTransformations', not a {type(data).__name__}"
            + (" (the file holds several YAML documents)." if "\n---" in text else "."),
            "Start the file with `categories:` (see `catdoc init` for an example).",
        )
    try:
        model = _validated(data)
    except (ValidationError, ValueError):
        # The entries validated so far were released; read them again for the whole report.
        _raise_schema_problems(yaml_source.parse(text, rel), text, rel)
        raise  # unreachable: the same data fails the same way as a whole
    problem = _free_form_problem(model)
    if problem:
        raise yaml_source.value_error(text, rel, problem)
    return model


def _validated(data: dict[str, Any]) -> ModelFile:
    """The file's model, validated one category at a time: each category's parsed entry is
    released as soon as its model exists, so the parsed tree and the models do not both stand
    whole in memory (at 100,000 objects each takes over half a gigabyte)."""
    raw = data.get("categories")
    if not isinstance(raw, list) or len(raw) < 2:
        return ModelFile.model_validate(data)
    model = ModelFile.model_validate({k: v for k, v in data.items() if k != "categories"})
    categories = []
    for index, entry in enumerate(raw):
        categories.append(Category.model_validate(entry))
        raw[index] = None
    model.categories = categories
    return model


_KEPT_LISTS: dict[str, tuple[str, type[Category | Functor | NaturalTransformation]]] = {
    "categories": ("categories", Category),
    "functors": ("functors", Functor),
    "naturalTransformations": ("natural_transformations", NaturalTransformation),
}
_TYPED_DATES = frozenset({"created", "updated"})
"""The fields of an object that are dates: pydantic reads their ISO text as the same date."""


def _from_kept(kept: parsed_cache.Kept, text: str, rel: str) -> ModelFile | None:
    """The file's model from its kept tree, each list item validated straight from its JSON
    where that gives what validating the YAML's tree gives (see `_direct`), or taken as the
    first read built it (`_built_models`). None when the tree is not a model file's usual shape
    or does not validate: the caller then validates the tree, which reports what is wrong
    where."""
    if not kept.lists.keys() <= _KEPT_LISTS.keys() or any(
        field in kept.top for field, _ in _KEPT_LISTS.values()
    ):
        return None
    try:
        model = ModelFile.model_validate(kept.top)
        for key, entries in kept.lists.items():
            field, kind = _KEPT_LISTS[key]
            built = kept.built.get(key, []) if kept.built is not None else []
            items: list[Any] = []
            for index, entry in enumerate(entries):
                item = built[index] if index < len(built) else None
                if item is None:
                    item = (
                        kind.model_validate_json(entry.json)
                        if _direct(kind, entry.exact, entry.date_shapes)
                        else kind.model_validate(entry.tree())
                    )
                items.append(item)
                entries[index] = None  # type: ignore[call-overload]  # released as it is read
            setattr(model, field, items)
    except (ValidationError, ValueError, RecursionError):
        return None
    problem = _free_form_problem(model)
    if problem:
        raise yaml_source.value_error(text, rel, problem)
    return model


def _built_models(key: str, rows: list[kept_rows.Row]) -> list[Entity | None]:
    """The models of list `key`'s items as a first read makes their rows (`parsed_cache.Build`):
    each validated from its JSON where `_direct` allows, else None (`_from_kept` validates it
    from its tree, and reports what does not validate)."""
    kind = _KEPT_LISTS[key][1] if key in _KEPT_LISTS else None
    built: list[Entity | None] = []
    for line, (exact, shapes, _) in rows:
        item = None
        if kind is not None and _direct(kind, exact, shapes):
            with suppress(ValidationError, ValueError, RecursionError):
                item = kind.model_validate_json(line)
        built.append(item)
    return built


def _direct(
    kind: type[Entity], exact: bool, date_shapes: Iterable[tuple[Sequence[str | None], str]]
) -> bool:
    """Whether an item's JSON validates to what its tree validates to: its numbers are all
    64-bit integers (pydantic writes a float as text its own way) and its dates only an
    object's `created` or `updated`."""
    return exact and all(
        date_kind == "date" and _object_date(kind, shape) for shape, date_kind in date_shapes
    )


def _object_date(kind: type[Entity], shape: Sequence[str | None]) -> bool:
    """Whether dates at `shape` inside a `kind` item (list positions as None) are objects'
    date fields."""
    return (
        kind is Category
        and len(shape) == 3
        and shape[0] == "objects"
        and shape[1] is None
        and shape[2] in _TYPED_DATES
    )


def _raise_schema_problems(data: Any, text: str, rel: str) -> None:
    """Validate `data` whole and raise LOAD_ERROR listing its first problems at their lines."""
    try:
        ModelFile.model_validate(data)
    except ValidationError as exc:
        problems = []
        errors = exc.errors()[:20]
        lines = yaml_lines.lines_of(text, [err["loc"] for err in errors])
        for err, line in zip(errors, lines, strict=True):
            entity, fld = _describe_loc(data, tuple(err["loc"]))
            problems.append(f"  {rel}:{line}: {entity}, field '{fld}': {err['msg']}")
        more = exc.error_count() - len(problems)
        tail = f"\n  … and {more} more" if more > 0 else ""
        raise CatDocError(
            LOAD_ERROR,
            f"{rel}: {exc.error_count()} schema problem(s):\n" + "\n".join(problems) + tail,
            "Fix each field to the type shown (see the file-format reference in the README).",
        ) from None
    except ValueError:  # an integer too long to become an id's text
        raise yaml_source.value_error(text, rel, "integer") from None


def _free_form_problem(model: ModelFile) -> str | None:
    """Metadata and unknown keys hold any YAML: check their nesting and integers are bounded.

    The second number is how deep the entity's own mapping stands in the file.
    """
    check = yaml_source.check_values
    entries: list[tuple[Entity, int]] = [(model, 0)]
    for cat in model.categories:
        entries.append((cat, 2))
        entries += [(obj, 4) for obj in cat.objects]
        entries += [(mor, 4) for mor in cat.morphisms]
    entries += [(fun, 2) for fun in model.functors]
    entries += [(nat, 2) for nat in model.natural_transformations]
    for entity, level in entries:
        extra = entity.__pydantic_extra__
        if extra and (problem := check(extra, level)):
            return problem
        meta = getattr(entity, "metadata", None)
        if meta and (problem := check(meta, level + 1)):
            return problem
    return None


def current_config(root: Path) -> Config:
    """`load_config`, remembered while config.yaml holds the same bytes: a search reads its
    settings on every call, and parsing the YAML each time costs more than a warm query's
    ranking step (reading and comparing the small file does not). Anything but a plain file
    of ordinary size is loaded afresh each time, so its errors are raised each time. Treat the
    answer as read-only."""
    path = root / CATDOC_DIR / CONFIG_FILE
    try:
        st = path.lstat()
        if stat_module.S_ISREG(st.st_mode) and st.st_size <= CONFIG_CACHE_BYTES:
            return _config_with(root, path.read_bytes())
    except OSError:
        pass
    return load_config(root)


CONFIG_CACHE_BYTES = 1 << 16


@functools.lru_cache(maxsize=16)
def _config_with(root: Path, content: bytes) -> Config:
    return load_config(root)


def load_config(root: Path) -> Config:
    path = root / CATDOC_DIR / CONFIG_FILE
    rel = f"{CATDOC_DIR}/{CONFIG_FILE}"
    if not path.is_file():
        return Config()
    inside_catdoc(root, path)
    data, text = _parse_yaml(path, rel)
    if data is None:
        return Config()
    if not isinstance(data, dict):
        raise CatDocError(
            LOAD_ERROR, f"{rel}:1: must be a mapping of settings.", "See the README's settings."
        )
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        line = yaml_lines.lines_of(text, [loc])[0]
        fld = ".".join(yaml_source.shown(p) for p in loc)
        allowed = setting_range(loc)
        raise CatDocError(
            LOAD_ERROR,
            f"{rel}:{line}: setting '{fld}' in {CONFIG_FILE}: {err['msg']}"
            + (f" (allowed: {allowed})." if allowed else "."),
            f"Fix the value in {rel}" + (f" to one in {allowed}." if allowed else "."),
        ) from None
    except ValueError:  # an integer too long to become a setting's text
        raise yaml_source.value_error(text, rel, "integer") from None
    subs = [config, config.dashboard, config.import_, config.search, config.validation]
    for level, sub in enumerate(subs):
        extra = sub.__pydantic_extra__
        if extra and (problem := yaml_source.check_values(extra, min(level, 1))):
            raise yaml_source.value_error(text, rel, problem)
    config.mark_origin(rel)
    return config


def _stamp_origin(model: ModelFile, rel: str) -> set[str] | None:
    """Record the file of every entity and its ordinal among same-id entries of that file;
    return the file's ids when none repeats.

    When no id repeats in the file (the usual case, checked once for all its entities), every
    entity shares one record (it is replaced, never changed in place): one dict per entity
    would cost 90 MB at 100,000 objects."""
    groups: list[Sequence[Entity]] = []
    for cat in model.categories:
        groups += ((cat,), cat.objects, cat.morphisms)
    groups += (model.functors, model.natural_transformations)
    entities = [entity for group in groups for entity in group]
    ids = [getattr(entity, "id", "") for entity in entities]
    setter = object.__setattr__
    distinct = set(ids)
    if len(distinct) == len(ids):
        first = {"origin": rel, "ordinal": 0}
        for entity in entities:
            setter(entity, "__pydantic_private__", first)
        return distinct
    ordinals: dict[str, int] = {}
    for entity, ident in zip(entities, ids, strict=True):
        n = ordinals.get(ident, 0)
        ordinals[ident] = n + 1
        setter(entity, "__pydantic_private__", {"origin": rel, "ordinal": n})
    return None


def load_project(
    root: Path | str, *, known: Mapping[str, tuple[str, ModelFile]] | None = None
) -> Project:
    """Load `.catdoc/` under `root`; bad input raises CatDocError(LOAD_ERROR) with `file:line`.

    An interrupted multi-file write is finished or undone first (see `catdoc.journal`), and a load
    that overlapped a write is read again, so a reader never sees half of an edit.

    `known` maps a model file (project-relative) to (`file_digest` of its bytes, its
    `model_file`): an edit has just validated the text it wrote, so a file still holding those
    bytes takes that model instead of being parsed again (100,000 objects: about 2 s). Its
    bytes are still read and hashed, and everything else is done as for any load.
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
        project = _load_once(root, known or {})
        if project.fingerprint == stamp(root) and not journal.pending(root):
            break
    entities = _entity_count(project)
    if entities >= TRIM_AFTER:
        _hand_back_freed_memory()
    if gc.isenabled() and entities >= FREEZE_AFTER:
        gc.freeze()
    return project


TRIM_AFTER = 10_000
"""Entities from which a load hands the heap it freed back to the operating system."""


def _hand_back_freed_memory() -> None:
    """Return freed heap to the operating system. The YAML reader builds its own tree in native
    memory before the Python one, and the kept JSON lines are freed as the models are made;
    glibc keeps all of it for later: 85 MB of a first read of a 100,000-object model (36 MB of
    a later one), which a first search's build would otherwise carry on top. 6 ms; a no-op
    where the C library has no `malloc_trim`."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes

    try:
        return ctypes.CDLL(None).malloc_trim  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


FREEZE_AFTER = 50_000
"""Entities from which a load in a process that collects cycles (a server, the terminal UI)
freezes what is alive: the model's million objects, all just made, would otherwise be traversed
by the next few collections and by every full one after (at 100,000 objects a trace's first
graph took 1.4 s instead of 0.3 s, importing networkx 0.7 s). Frozen objects are still freed
when the model is replaced; only cyclic garbage alive at that moment is never collected."""


def _entity_count(project: Project) -> int:
    return sum(len(cat.objects) + len(cat.morphisms) for cat in project.categories)


_LOAD_ATTEMPTS = 5
"""Reads of a model that keeps changing underneath; the last one is returned as it is."""


def _load_once(root: Path, known: Mapping[str, tuple[str, ModelFile]]) -> Project:
    fingerprint = stamp(root)
    config = load_config(root)
    project = Project(root=root, config=config, fingerprint=fingerprint)
    version = _Version()
    version.add_file(root / CATDOC_DIR / CONFIG_FILE)
    seen: set[str] = set()
    unique = True
    with gc_paused():
        for path in model_files(root):
            rel = path.relative_to(root).as_posix()
            raw = yaml_source.read_data(path, rel)
            text = yaml_source.decoded(raw, rel)
            digest = file_digest(raw)
            version.add(path.name, len(raw), digest)
            del raw
            hit = known.get(rel)
            if hit is not None and hit[0] == digest:
                model = hit[1]
            else:
                model = _read_model(root, path, rel, text, digest)
            ids = _stamp_origin(model, rel)
            if unique and (ids is None or not seen.isdisjoint(ids)):
                unique = False
            elif unique:
                seen = seen | ids if seen else ids
            project.files.append(rel)
            project.categories += model.categories
            project.functors += model.functors
            project.natural_transformations += model.natural_transformations
            project.top_level_unknown += [(rel, key) for key in model.unknown_keys()]
    project.model_digest = version.hexdigest()
    refresh_version(project)
    project.ids_unique = unique
    return project


def _read_model(root: Path, path: Path, rel: str, text: str, digest: str) -> ModelFile:
    """A model file's model, from its kept tree when current (see `catdoc.parsed_cache`)."""
    folder = functools.partial(_parsed_folder, root)
    data = parsed_cache.load(path, rel, text, digest, folder, _built_models)
    model = _from_kept(data, text, rel) if type(data) is parsed_cache.Kept else None
    if model is None:  # not kept, or not valid: the YAML's tree reports where
        if type(data) is parsed_cache.Kept:
            data = data.tree()  # the tree the YAML gives, without parsing it again
        model = model_file(data, text, rel)
    return model


class _Version:
    """A hash of the config and model files' bytes, in `model_files` order after the config
    (`reviews.yaml` is added by `_with_reviews`)."""

    def __init__(self) -> None:
        self._digest = hashlib.blake2b(digest_size=10)

    def add(self, name: str, size: int, digest: str) -> None:
        """A file by its name, size and `file_digest` (the parsed cache checks the same one)."""
        self._digest.update(f"\0{name}\0{size}\0{digest}".encode())

    def add_file(self, path: Path) -> None:
        try:
            data = path.read_bytes()
        except OSError:
            return
        self.add(path.name, len(data), file_digest(data))

    def hexdigest(self) -> str:
        return self._digest.hexdigest()


def file_digest(data: bytes) -> str:
    """What identifies a file's bytes for the model's version and the parsed cache."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def reviews_key(root: Path) -> tuple[int, int, int] | None:
    """`reviews.yaml`'s (mtime, size, inode), or None: one `stat` tells a review happened."""
    try:
        st = os.stat(os.path.join(root, CATDOC_DIR, REVIEWS_FILE))
    except (OSError, ValueError):
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _reviews_digest(root: Path) -> str:
    """`reviews.yaml`'s part of the version: "" when absent. Read only when it is a regular file
    inside the project, never through a symlink leading out nor from a FIFO or device (reading
    one could block); such a file is refused by `read_reviews`, which says why."""
    path = root / CATDOC_DIR / REVIEWS_FILE
    try:
        real = path.resolve(strict=True)
        if not (real.is_relative_to(root.resolve()) and stat_module.S_ISREG(real.stat().st_mode)):
            return "refused"
        return file_digest(real.read_bytes())
    except (OSError, RuntimeError):  # missing (reviews off), unreadable, or a symlink loop
        return "" if not os.path.lexists(path) else "unreadable"


def _with_reviews(model_digest: str, reviews_digest: str) -> str:
    if not reviews_digest:
        return model_digest
    joined = f"{model_digest}\0{REVIEWS_FILE}\0{reviews_digest}".encode()
    return hashlib.blake2b(joined, digest_size=10).hexdigest()


def refresh_version(project: Project) -> None:
    """Bring `project.version` up to date with `reviews.yaml`. A review writes only that file,
    so the model is not loaded again: long-running faces call this on every request (one
    `stat`), and the file is hashed again only when its stat changed."""
    key = reviews_key(project.root)
    if key == project.reviews_seen and project.version:
        return
    project.reviews_seen = key
    digest = _reviews_digest(project.root) if key is not None else ""
    project.version = _with_reviews(project.model_digest, digest)


def model_version(root: Path) -> str:
    """The version edits are checked against: a hash of the model's bytes, as a load computes
    it from what it reads. Unlike `stamp` it cannot miss a change made within one tick of the
    file system's clock."""
    version = _Version()
    for path in [root / CATDOC_DIR / CONFIG_FILE, *model_files(root)]:
        version.add_file(path)
    return _with_reviews(version.hexdigest(), _reviews_digest(root))


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


def _parsed_folder(root: Path) -> Path:
    """`.catdoc/cache/parsed/` (see `catdoc.parsed_cache`), made and checked inside."""
    path = cache_dir(root) / "parsed"
    path.mkdir(exist_ok=True)
    return inside_catdoc(root, path)


__all__ = [
    "Duplicate",
    "Project",
    "current_config",
    "gc_paused",
    "id_lines",
    "load_config",
    "load_project",
    "model_file",
    "model_version",
    "refresh_version",
    "reviews_key",
]
