"""The one API every face calls. It holds the loaded project, reloads it when its files change,
and answers with the pydantic models of `catdoc.results`; failures are CatDocErrors."""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

from catdoc import results as r
from catdoc.errors import LOAD_ERROR, NOT_FOUND, VALIDATION_ERROR, CatDocError, not_found, quoted
from catdoc.git_revisions import normal_path
from catdoc.model import Category, DocObject, Functor, Morphism, NaturalTransformation, as_path
from catdoc.paging import MAX_LIMIT, check_page
from catdoc.progress import Progress, throttled
from catdoc.project import Project, current_config, gc_paused, load_project, refresh_version
from catdoc.project_files import find_root, resolve_inside, stamp
from catdoc.service_browse import BrowseOperations
from catdoc.service_chain import ChainOperations
from catdoc.service_clusters import ClusterOperations
from catdoc.service_concepts import ConceptOperations
from catdoc.service_coverage import CoverageOperations
from catdoc.service_edits import EditOperations
from catdoc.service_impact import ImpactOperations, objects_by_path
from catdoc.service_suspects import SuspectOperations

T = TypeVar("T")
logger = logging.getLogger(__name__)

DEFAULT_CONTENT_CHARS = 20_000
DEFAULT_CONTEXT_NODES = 100
MAX_CONTEXT_DEPTH = 5


def _page(
    matches: Sequence[Any] | Iterable[Any],
    limit: int,
    offset: int,
    summary: Callable[[Any], T],
    *,
    total: int | None = None,
) -> r.Page[T]:
    """One page of `matches` (already checked bounds); only the page's items are summarised.
    With `total`, `matches` may be any iterable: nothing past the page is read."""
    if total is None:
        listed = cast(Sequence[Any], matches)
        total, window = len(listed), listed[offset : offset + limit]
    else:
        window = itertools.islice(matches, offset, offset + limit)
    return r.Page[T](items=[summary(m) for m in window], total=total, limit=limit, offset=offset)


def _domain_of(obj: DocObject) -> tuple[str | None]:
    return (obj.domain,)


def _tags_of(obj: DocObject) -> Iterable[str]:
    return dict.fromkeys(obj.tags)  # a tag written twice lists the object once


def _objects_by(
    project: Project, keys: Callable[[DocObject], Iterable[str | None]]
) -> dict[str | None, list[DocObject]]:
    """The objects under each of their keys (tags, domain), in model order: a filter by one
    key reads only its objects."""
    out: dict[str | None, list[DocObject]] = {}
    for cat in project.categories:
        for obj in cat.objects:
            for key in keys(obj):
                out.setdefault(key, []).append(obj)
    return out


class CatDoc(
    EditOperations,
    ClusterOperations,
    BrowseOperations,
    ConceptOperations,
    CoverageOperations,
    ImpactOperations,
    SuspectOperations,
    ChainOperations,
):
    """A CatDoc project as a service. Create one per project; it is safe to share across threads.

    `start` is any directory inside the project (default: the working directory). The project is
    found and loaded lazily, so a face can start before `.catdoc/` exists or while it is broken.
    `background`: whether the process lives on to finish work started in the background (the
    vectors a hybrid search lacks); a one-shot command passes False, and its searches say how to
    compute the vectors instead of starting a worker that would die with it.
    """

    def __init__(self, start: Path | str | None = None, *, background: bool = True) -> None:
        self._start = Path(start).resolve() if start else Path.cwd().resolve()
        self.background = background
        self._root: Path | None = None
        self._lock = threading.RLock()
        self._project: Project | None = None
        self._load_error: tuple[Any, CatDocError] | None = None
        self._derived: dict[str, Any] = {}
        self._search_engine: Any = None
        self._vector_listeners: tuple[Progress, ...] = ()

    # ------------------------------------------------------------------ loading
    @property
    def start(self) -> Path:
        return self._start

    @property
    def root(self) -> Path:
        """The project root; raises PROJECT_NOT_FOUND until a `.catdoc/` exists."""
        if self._root is None:
            self._root = find_root(self._start)
        return self._root

    def project(self) -> Project:
        """The current model, reloaded when a file under `.catdoc/` changed since the last call."""
        with self._lock:
            root = self.root
            current = stamp(root)
            if self._project is not None and self._project.fingerprint == current:
                refresh_version(self._project)  # a review changes only reviews.yaml
                return self._project
            if self._load_error is not None and self._load_error[0] == current:
                raise self._load_error[1]
            try:
                project = load_project(root)
            except CatDocError as exc:
                if exc.code == LOAD_ERROR:
                    self._load_error = (current, exc)
                raise
            self._project, self._load_error, self._derived = project, None, {}
            return project

    def _adopt(self, project: Project) -> None:
        """Take the model an edit just wrote as the current one (no reload needed)."""
        with self._lock:
            self._project, self._load_error, self._derived = project, None, {}

    def held(self) -> Project | None:
        """The model last loaded, without looking at the files (None before the first load)."""
        return self._project

    def _current(self) -> Project:
        """The model this request already loaded, without another stat check: per-item helpers
        (summaries of thousands of objects) would otherwise stat the model files once per item."""
        return self._project if self._project is not None else self.project()

    def derived(self, key: str, build: Callable[[Project], T]) -> T:
        """Memoise something computed from the current project (dropped on reload)."""
        project = self.project()
        with self._lock:
            if key not in self._derived:
                with gc_paused():  # many small acyclic objects (indexes, graphs, reports)
                    self._derived[key] = build(project)
            return self._derived[key]

    # ------------------------------------------------------------------ lookups
    def category(self, ref: str) -> Category:
        """A category by id, exact name, or alias (case-insensitive)."""
        project = self.project()
        if ref in project.category_by_id:
            return project.category_by_id[ref]
        for cat in project.categories:
            if cat.name == ref:
                return cat
        lowered = ref.casefold()
        for cat in project.categories:
            if any(alias.casefold() == lowered for alias in cat.aliases):
                return cat
        refs = [
            *project.category_by_id,
            *(cat.name for cat in project.categories if cat.name),
            *(alias for cat in project.categories for alias in cat.aliases),
        ]
        raise not_found(
            "Category",
            ref,
            dict.fromkeys(refs),
            "Use catdoc_list_categories / `catdoc list categories` to see the ids, names and "
            "aliases.",
        )

    def object(self, object_id: str) -> DocObject:
        project = self.project()
        try:
            return project.object_by_id[object_id]
        except KeyError:
            pass
        # a document's path where an id belongs gets a hint, not a guess among the ids
        owners = sorted(
            self.derived("objects-by-path", objects_by_path).get(normal_path(object_id), [])
        )
        if owners:
            raise CatDocError(
                NOT_FOUND,
                f"Object not found: {quoted(object_id)} is the path of object "
                f"{', '.join(map(quoted, owners))}, not an id.",
                "Pass the object's id.",
                owners,
            )
        raise not_found(
            "Object",
            object_id,
            project.object_by_id,
            "See the ids with `catdoc list objects` (MCP: catdoc_list_objects).",
        )

    def morphism(self, morphism_id: str) -> Morphism:
        project = self.project()
        try:
            return project.morphism_by_id[morphism_id]
        except KeyError:
            raise not_found(
                "Morphism",
                morphism_id,
                project.morphism_by_id,
                "See the ids with `catdoc list morphisms` (MCP: catdoc_list_morphisms).",
            ) from None

    def functor(self, functor_id: str) -> Functor:
        project = self.project()
        try:
            return project.functor_by_id[functor_id]
        except KeyError:
            raise not_found(
                "Functor",
                functor_id,
                project.functor_by_id,
                "See the ids with `catdoc list functors` (MCP: catdoc_list_functors).",
            ) from None

    def natural_transformation(self, nat_id: str) -> NaturalTransformation:
        project = self.project()
        try:
            return project.nat_by_id[nat_id]
        except KeyError:
            raise not_found(
                "Natural transformation",
                nat_id,
                project.nat_by_id,
                "See the ids with `catdoc list natural-transformations` "
                "(MCP: catdoc_list_natural_transformations).",
            ) from None

    def locate_entity(self, ident: str) -> r.EntityRef:
        """What a bare id names and where it sits, so a face can jump to it (from a finding, a
        search hit, a trace). Objects and morphisms win over categories, functors, transformations.
        """
        project = self.project()
        positions = self.derived("positions", _positions)
        if ident in project.object_by_id:
            cat = project.category_of_object[ident]
            return r.EntityRef(
                kind="object", id=ident, category=cat, index=positions["object", ident]
            )
        if ident in project.morphism_by_id:
            cat = project.category_of_morphism[ident]
            return r.EntityRef(
                kind="morphism", id=ident, category=cat, index=positions["morphism", ident]
            )
        if ident in project.category_by_id:
            return r.EntityRef(kind="category", id=ident)
        if ident in project.functor_by_id:
            return r.EntityRef(kind="functor", id=ident)
        if ident in project.nat_by_id:
            return r.EntityRef(kind="naturalTransformation", id=ident)
        everything = [*project.object_by_id, *project.morphism_by_id, *project.category_by_id]
        raise not_found("Entity", ident, everything)

    # ------------------------------------------------------------------ summaries
    def _category_summary(self, cat: Category) -> r.CategorySummary:
        project = self.project()
        children = self.derived("children", _children_of)
        return r.CategorySummary(
            id=cat.id,
            name=cat.label,
            description=cat.description,
            aliases=cat.aliases,
            parent=cat.parent,
            children=children.get(cat.id, []),
            related=cat.related,
            semantics=cat.semantics,
            object_count=len(cat.objects),
            morphism_count=len(cat.morphisms),
            equation_count=len(cat.equations),
            location=project.locate(cat),
        )

    def _object_summary(self, obj: DocObject) -> r.ObjectSummary:
        return r.ObjectSummary(
            id=obj.id,
            title=obj.label,
            category=self._current().category_of_object.get(obj.id, ""),
            domain=obj.domain,
            path=obj.path,
            tags=obj.tags,
            author=obj.author,
            created=obj.created,
            updated=obj.updated,
            summary=obj.summary,
            url=obj.url,
        )

    def _morphism_summary(self, mor: Morphism) -> r.MorphismSummary:
        return r.MorphismSummary(
            id=mor.id,
            name=mor.label,
            category=self._current().category_of_morphism.get(mor.id, ""),
            source=mor.source,
            target=mor.target,
            is_identity=mor.is_identity,
            metadata=mor.metadata,
        )

    # ------------------------------------------------------------------ categories
    def list_categories(self) -> list[r.CategorySummary]:
        return [self._category_summary(cat) for cat in self.project().categories]

    def show_category(
        self, ref: str, *, limit: int | None = None, offset: int = 0
    ) -> r.CategoryDetail:
        """The category with its objects and morphisms; `limit`/`offset` page both member lists
        (the counts stay totals), so a 2,500-object layer need not be built in full."""
        window = _window(limit, offset)
        cat = self.category(ref)
        project = self.project()
        hierarchy, seen, node = [], set(), cat
        while node is not None and node.id not in seen:
            seen.add(node.id)
            hierarchy.append(node.id)
            node = project.category_by_id.get(node.parent) if node.parent else None
        return r.CategoryDetail(
            **self._category_summary(cat).model_dump(by_alias=False),
            hierarchy=hierarchy[::-1],
            equations=[(as_path(lhs), as_path(rhs)) for lhs, rhs in cat.equations],
            objects=[self._object_summary(o) for o in cat.objects[window]],
            morphisms=[self._morphism_summary(m) for m in cat.morphisms[window]],
            functors_out=[f.id for f in project.functors if f.source_category == cat.id],
            functors_in=[f.id for f in project.functors if f.target_category == cat.id],
        )

    def category_and_descendants(self, ref: str) -> list[str]:
        """The category's id followed by all categories below it in the hierarchy."""
        root = self.category(ref).id
        children = self.derived("children", _children_of)
        out, stack = [], [root]
        while stack:
            cid = stack.pop()
            if cid in out:
                continue
            out.append(cid)
            stack.extend(reversed(children.get(cid, [])))
        return out

    # ------------------------------------------------------------------ objects
    def list_objects(
        self,
        *,
        category: str | None = None,
        domain: str | None = None,
        tags: Iterable[str] = (),
        limit: int = 50,
        offset: int = 0,
    ) -> r.Page[r.ObjectSummary]:
        check_page(limit, offset)
        project = self.project()
        wanted = set(tags)
        cats = [self.category(category)] if category else project.categories
        if domain is None and not wanted:  # a page of everything: no pass over every object
            everything = itertools.chain.from_iterable(cat.objects for cat in cats)
            total = sum(len(cat.objects) for cat in cats)
            return _page(everything, limit, offset, self._object_summary, total=total)
        by_tag = (
            self.derived("objects-by-tag", lambda p: _objects_by(p, _tags_of)) if wanted else {}
        )
        pool: Iterable[DocObject]
        rest = wanted
        if category is not None:
            pool = cats[0].objects
        elif wanted:  # only the objects of the rarest tag asked for
            rarest = min(sorted(wanted), key=lambda t: len(by_tag.get(t, ())))
            pool, rest = by_tag.get(rarest, []), wanted - {rarest}
        else:  # a domain alone
            by_domain = self.derived("objects-by-domain", lambda p: _objects_by(p, _domain_of))
            pool = by_domain.get(domain, [])
        for tag in rest:  # the other tags, as sets of the objects that carry them
            carriers = {id(obj) for obj in by_tag.get(tag, ())}
            pool = [obj for obj in pool if id(obj) in carriers]
        matches = list(pool) if domain is None else [o for o in pool if o.domain == domain]
        return _page(matches, limit, offset, self._object_summary)

    def show_object(
        self, object_id: str, *, max_chars: int = DEFAULT_CONTENT_CHARS
    ) -> r.ObjectDetail:
        from catdoc.documents import content_version, read_object_text

        obj = self.object(object_id)
        project = self.project()
        content: str | None = None
        error: str | None = None
        try:
            content = read_object_text(project.root, obj)
        except CatDocError as exc:
            error = str(exc)
        length = len(content or "")
        adjacency = self.derived("adjacency", _adjacency)
        out_ids, in_ids = adjacency.get(obj.id, ([], []))
        images = {
            f.id: f.object_mapping[obj.id] for f in project.functors if obj.id in f.object_mapping
        }
        return r.ObjectDetail(
            **self._object_summary(obj).model_dump(by_alias=False),
            metadata=obj.metadata,
            content=None if content is None else content[:max_chars],
            content_length=length,
            truncated=length > max_chars,
            content_error=error,
            content_version=None if content is None else content_version(content),
            outgoing=[self._morphism_summary(project.morphism_by_id[m]) for m in out_ids],
            incoming=[self._morphism_summary(project.morphism_by_id[m]) for m in in_ids],
            images=images,
            location=project.locate(obj),
        )

    def document_stamp(self, object_id: str) -> tuple[int, int] | None:
        """(mtime_ns, size) of the object's document file, for faces that watch it; None when
        it has no readable file."""
        obj = self.project().object_by_id.get(object_id)
        if obj is None or not obj.path:
            return None
        try:
            info = resolve_inside(self.root, obj.path).stat()
        except (CatDocError, OSError):
            return None
        return info.st_mtime_ns, info.st_size

    # ------------------------------------------------------------------ morphisms
    def list_morphisms(
        self,
        *,
        category: str | None = None,
        source: str | None = None,
        target: str | None = None,
        name: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> r.Page[r.MorphismSummary]:
        check_page(limit, offset)
        project = self.project()
        cats = [self.category(category)] if category else project.categories
        matches = [
            mor
            for cat in cats
            for mor in cat.morphisms
            if (source is None or mor.source == source)
            and (target is None or mor.target == target)
            and (name is None or mor.label == name)
        ]
        if not matches:  # an end no object has, nor a dangling morphism: NOT_FOUND, suggested
            for end in (source, target):
                if end is not None:
                    self.object(end)
        return _page(matches, limit, offset, self._morphism_summary)

    def show_morphism(self, morphism_id: str) -> r.MorphismDetail:
        mor = self.morphism(morphism_id)
        project = self.project()
        objs = project.object_by_id
        images = {
            f.id: as_path(f.morphism_mapping[mor.id])
            for f in project.functors
            if mor.id in f.morphism_mapping
        }
        return r.MorphismDetail(
            **self._morphism_summary(mor).model_dump(by_alias=False),
            source_title=objs[mor.source].label if mor.source in objs else mor.source,
            target_title=objs[mor.target].label if mor.target in objs else mor.target,
            images=images,
            location=project.locate(mor),
        )

    # ------------------------------------------------------------------ functors, transformations
    def _functor_summary(self, fun: Functor) -> r.FunctorSummary:
        return r.FunctorSummary(
            id=fun.id,
            name=fun.label,
            source_category=fun.source_category,
            target_category=fun.target_category,
            objects_mapped=len(fun.object_mapping),
            morphisms_mapped=len(fun.morphism_mapping),
            location=self._current().locate(fun),
        )

    def list_functors(self) -> list[r.FunctorSummary]:
        """Every functor, in the model's order (for faces that show them all at once)."""
        return [self._functor_summary(f) for f in self.project().functors]

    def functor_page(self, *, limit: int = 50, offset: int = 0) -> r.FunctorPage:
        """One page of the functors, in the model's order; `message` says why it is empty."""
        check_page(limit, offset)
        functors = self.project().functors
        return r.FunctorPage(
            functors=[self._functor_summary(f) for f in functors[offset : offset + limit]],
            total=len(functors),
            limit=limit,
            offset=offset,
            message=_empty_page(
                "functors",
                len(functors),
                offset,
                "`catdoc add functor ID --from CATEGORY --to CATEGORY` maps one category "
                "onto another",
            ),
        )

    def show_functor(
        self, functor_id: str, *, limit: int | None = None, offset: int = 0
    ) -> r.FunctorDetail:
        """The functor with its mappings; `limit`/`offset` page both mapping lists."""
        window = _window(limit, offset)
        fun = self.functor(functor_id)
        project = self.project()
        report = self.validate(functor=fun.id)
        verdicts = _verdicts(report, "functor", fun.id)
        source = project.category_by_id.get(fun.source_category)
        obj_keys = [o.id for o in source.objects] if source else []
        mor_keys = [m.id for m in source.morphisms] if source else []
        laws = next((law for law in report.summary.functor_laws if law.functor == fun.id), None)
        return r.FunctorDetail(
            **self._functor_summary(fun).model_dump(by_alias=False),
            object_mapping=_entries(obj_keys, fun.object_mapping, verdicts, window=window),
            morphism_mapping=_entries(
                mor_keys,
                fun.morphism_mapping,
                verdicts,
                frozenset(m.id for m in source.morphisms if m.is_identity)
                if source
                else frozenset(),
                window=window,
            ),
            identity_preservation=laws.identity_preservation if laws else "unknown",
            composition_preservation=laws.composition_preservation if laws else "unknown",
        )

    def _nat_summary(self, nat: NaturalTransformation) -> r.NaturalTransformationSummary:
        return r.NaturalTransformationSummary(
            id=nat.id,
            name=nat.label,
            source_functor=nat.source_functor,
            target_functor=nat.target_functor,
            component_count=len(nat.components),
            location=self._current().locate(nat),
        )

    def list_natural_transformations(self) -> list[r.NaturalTransformationSummary]:
        """Every natural transformation, in the model's order (for faces that show them all)."""
        return [self._nat_summary(n) for n in self.project().natural_transformations]

    def natural_transformation_page(
        self, *, limit: int = 50, offset: int = 0
    ) -> r.NaturalTransformationPage:
        """One page of the natural transformations, in the model's order; `message` says why
        it is empty."""
        check_page(limit, offset)
        nats = self.project().natural_transformations
        return r.NaturalTransformationPage(
            natural_transformations=[self._nat_summary(n) for n in nats[offset : offset + limit]],
            total=len(nats),
            limit=limit,
            offset=offset,
            message=_empty_page(
                "natural transformations",
                len(nats),
                offset,
                "`catdoc add transformation ID --from FUNCTOR --to FUNCTOR` relates two "
                "parallel functors",
            ),
        )

    def show_natural_transformation(
        self, nat_id: str, *, limit: int | None = None, offset: int = 0
    ) -> r.NaturalTransformationDetail:
        """The transformation with its components; `limit`/`offset` page the components."""
        window = _window(limit, offset)
        nat = self.natural_transformation(nat_id)
        project = self.project()
        report = self.validate(natural_transformation=nat.id)
        verdicts = _verdicts(report, "natural_transformation", nat.id)
        fun = project.functor_by_id.get(nat.source_functor)
        source = project.category_by_id.get(fun.source_category) if fun else None
        keys = [o.id for o in source.objects] if source else []
        return r.NaturalTransformationDetail(
            **self._nat_summary(nat).model_dump(by_alias=False),
            source_category=fun.source_category if fun else None,
            target_category=fun.target_category if fun else None,
            components=_entries(keys, nat.components, verdicts, window=window),
        )

    # ------------------------------------------------------------------ validation
    def validate(
        self,
        *,
        category: str | None = None,
        functor: str | None = None,
        natural_transformation: str | None = None,
    ) -> Any:
        """Validate everything, or only the named entity. Returns a `catdoc.validate.Report`.

        Before the first load, a whole-project run takes the report the last one kept when
        nothing it depends on changed (`catdoc.validate.kept`), and loads nothing."""
        from catdoc.validate import kept_report, validate_and_keep, validate_project

        whole = category is None and functor is None and natural_transformation is None
        if whole and self._project is None and (kept := kept_report(self.root)) is not None:
            return kept
        if category is not None:
            category = self.category(category).id
        key = f"validate:{category}:{functor}:{natural_transformation}"
        self.refresh_review_state()
        return self.derived(
            key,
            lambda p: (
                validate_and_keep(p)
                if whole
                else validate_project(
                    p,
                    category=category,
                    functor=functor,
                    natural_transformation=natural_transformation,
                )
            ),
        )

    def suggest_mappings(self, functor: str | None = None) -> Any:
        """Functor mappings (and functors) the documents' cross-category references imply.
        Returns a `catdoc.suggest.Suggestions`; documents are read each time (not memoised)."""
        from catdoc.suggest import suggest_mappings

        return suggest_mappings(self.project(), functor)

    def findings(
        self,
        *,
        severity: str | None = None,
        code: str | None = None,
        category: str | None = None,
        entity: str | None = None,
    ) -> list[Any]:
        """The findings of the whole-project report (errors, warnings, infos), filtered (AND) by
        severity, code, category id, or an entity id they involve. `catdoc.validate.Finding`s."""
        report = self.validate()
        return [
            finding
            for finding in [*report.errors, *report.warnings, *report.infos]
            if (severity is None or finding.severity == severity)
            and (code is None or finding.code == code)
            and (category is None or finding.category == category)
            and (entity is None or entity in finding.ids)
        ]

    # ------------------------------------------------------------------ graph and tracing
    def trace(
        self,
        source: str,
        target: str,
        *,
        max_depth: int = 8,
        limit: int = 10,
        via_functors: bool = True,
    ) -> r.TraceResult:
        """Paths from `source` to `target`, shortest first; bounded, never enumerates all paths."""
        from catdoc.graph import trace_paths

        self.object(source)
        self.object(target)
        if not 1 <= max_depth <= 50:
            raise CatDocError(
                VALIDATION_ERROR,
                f"max_depth must be 1–50, got {max_depth}.",
                "Pass a depth between 1 and 50.",
            )
        if not 1 <= limit <= MAX_LIMIT:
            raise CatDocError(
                VALIDATION_ERROR,
                f"limit must be 1–{MAX_LIMIT}, got {limit}.",
                "Pass a smaller limit.",
            )
        return trace_paths(
            self.project(),
            source,
            target,
            max_depth=max_depth,
            limit=limit,
            via_functors=via_functors,
            graph=self.graph_around([source], max_depth, via_functors=via_functors),
        )

    def graph_around(
        self,
        starts: Sequence[str],
        depth: int | None,
        *,
        direction: str = "down",
        via_functors: bool = True,
    ) -> Any:
        """The trace graph as far as a walk from `starts` within `depth` hops reaches it
        (`HopIndex.near`), or the whole graph, built once per model, when that part is a large
        share of the project. Returns a networkx DiGraph."""
        from catdoc.graph import HopIndex, build_trace_graph

        hops = self.derived(
            f"trace-hops:{via_functors}", lambda p: HopIndex(p, via_functors=via_functors)
        )
        graph = hops.near(starts, depth, direction=direction)
        if graph is None:
            graph = self.derived(
                f"trace-graph:{via_functors}",
                lambda p: build_trace_graph(p, via_functors=via_functors),
            )
        return graph

    def context(
        self, object_id: str, depth: int = 1, *, limit: int = DEFAULT_CONTEXT_NODES
    ) -> r.ContextResult:
        """What surrounds an object: everything within `depth` (1–5) hops along morphisms and
        functor mappings, in both directions, at most `limit` objects (nearest first)."""
        from catdoc.graph import build_trace_graph, object_context

        self.object(object_id)
        if not 1 <= depth <= MAX_CONTEXT_DEPTH:
            raise CatDocError(
                VALIDATION_ERROR,
                f"depth must be 1–{MAX_CONTEXT_DEPTH}, got {depth}.",
                "Start with depth 1 (direct neighbours) and widen if needed.",
            )
        if not 1 <= limit <= MAX_LIMIT:
            raise CatDocError(
                VALIDATION_ERROR,
                f"limit must be 1–{MAX_LIMIT}, got {limit}.",
                "Pass a smaller limit.",
            )
        graph = self.derived("trace-graph:True", lambda p: build_trace_graph(p, via_functors=True))
        return object_context(self.project(), graph, object_id, depth=depth, limit=limit)

    def graph(self, *, category: str | None = None) -> r.GraphData:
        """Nodes (objects) and edges (morphisms, functor hops), optionally for one category."""
        from catdoc.graph import graph_data

        cat_id = self.category(category).id if category else None
        return self.derived(f"graph:{cat_id}", lambda p: graph_data(p, category=cat_id))

    def graph_page(self, category: str, *, limit: int, offset: int = 0) -> r.GraphData:
        """A bounded window of one category's graph: the objects at `offset` (file order) and the
        morphisms between them, so a face never has to draw thousands of nodes at once."""
        check_page(limit, offset)
        data = self.graph(category=category)
        nodes = data.nodes[offset : offset + limit]
        shown = {node.id for node in nodes}
        edges = [e for e in data.edges if e.source in shown and e.target in shown]
        return r.GraphData(nodes=nodes, edges=edges)

    def export_graph(self, fmt: str, *, category: str | None = None) -> str:
        """The graph as `json`, `dot` (Graphviz) or `mermaid` text."""
        from catdoc.graph import render_graph

        return render_graph(self.graph(category=category), fmt)

    # ------------------------------------------------------------------ writes
    @staticmethod
    def init(
        directory: Path | str, *, name: str | None = None, force: bool = False, bare: bool = False
    ) -> r.InitResult:
        """Create `.catdoc/` in `directory` from the template (no overwrite unless `force`);
        `bare`: config.yaml and an empty model only."""
        from catdoc.scaffold import init_project

        return init_project(Path(directory), name=name, force=force, bare=bare)

    def import_documents(
        self,
        paths: Sequence[str],
        *,
        recursive: bool | None = None,
        category_from: str | None = None,
        domain: str | None = None,
        category: str | None = None,
        link: bool | None = None,
        force: bool = False,
        exclude: Sequence[str] = (),
        progress: Progress | None = None,
    ) -> r.ImportResult:
        """Import documents (files, globs, directories) as objects; idempotent, atomic writes.

        `recursive`, `category_from` and `link` left as None take config.yaml's `import` settings;
        `exclude` globs (absolute, or relative to the project root) join its `import.exclude`.
        `progress` hears of each step (see `catdoc.progress`), a few times a second at most.
        """
        from catdoc.edit import edit_model
        from catdoc.importer import import_documents

        outcome = edit_model(
            self.project(),
            lambda edit: import_documents(
                edit,
                paths,
                recursive=recursive,
                category_from=category_from,
                domain=domain,
                category=category,
                link=link,
                force=force,
                exclude=exclude,
                progress=throttled(progress),
            ),
            validate=False,
        )
        self._adopt(outcome.project)
        written = [f for f in outcome.files if f.startswith(".catdoc/")]
        return outcome.value.model_copy(update={"written": written})

    # ------------------------------------------------------------------ search
    def watch_vectors(self, progress: Progress) -> Callable[[], None]:
        """Let `progress` hear the vectors computed in the background from now on (from the
        workers' threads, a few reports a second at most), beside any other listener: one
        process may serve several faces (`catdoc mcp --dashboard` logs them and shows them).
        Returns what stops `progress` listening."""
        listener = throttled(progress)
        with self._lock:
            self._vector_listeners = (*self._vector_listeners, listener)

        def stop() -> None:
            with self._lock:
                self._vector_listeners = tuple(
                    other for other in self._vector_listeners if other is not listener
                )

        return stop

    def _tell_vector_listeners(self, step: str, done: int, total: int | None) -> None:
        """The search engine's one background listener: passes each report on to every
        watcher. A watcher that fails (a face closing meanwhile) is logged and dropped from
        this report only; the vectors go on being computed."""
        for listener in self._vector_listeners:
            try:
                listener(step, done, total)
            except Exception:
                logger.exception("A listener of the background vectors failed.")

    def search_engine(self) -> Any:
        """The project's search index, opened on first use and kept warm (across reloads) for
        long-running faces. Returns a `catdoc.search.engine.SearchEngine`."""
        from catdoc.search.engine import SearchEngine

        with self._lock:
            if self._search_engine is None:
                self._search_engine = SearchEngine(self.root)
                self._search_engine.background_progress = self._tell_vector_listeners
                self._search_engine.background = self.background
            return self._search_engine

    def search(
        self,
        query: str,
        *,
        mode: str | None = None,
        scope: str = "documents",
        filters: r.SearchFilters | None = None,
        limit: int | None = None,
        offset: int = 0,
        debug: bool = False,
        progress: Progress | None = None,
        include_content: bool = False,
        include_clusters: bool | None = False,
    ) -> r.SearchResponse:
        """Ranked documents or passages for a query, filtered (AND) by `filters`. Each hit
        carries its document's card (`summary`); with `include_content` also its text, with
        `include_clusters` its document's cluster (True waits for the clusters to be computed;
        None uses them when at hand and otherwise has them computed in the background).

        `mode` and `limit` default to the project's `search` settings in config.yaml, and
        `search.vectors` decides whether hybrid ranking uses vectors (config.yaml is read on its
        own, once per call, so a cold process need not load the whole model to answer).
        `progress` hears of the indexing and embedding the query waits for, if any; a query
        that first had to index many documents says so in its notes.
        """
        from catdoc.search import run_search

        settings = current_config(self.root).search
        clusters = {
            False: None,
            True: self.clusters_now,
            None: self.ready_clusters,
        }[include_clusters]
        return run_search(
            self.search_engine(),
            self.project,
            self,
            query,
            mode=settings.mode if mode is None else mode,
            scope=scope,
            filters=filters or r.SearchFilters(),
            limit=settings.limit if limit is None else limit,
            offset=offset,
            debug=debug,
            vectors=settings.vectors,
            progress=throttled(progress),
            include_content=include_content,
            clusters=clusters,
        )

    def build_index(
        self, *, vectors: Sequence[str] = (), progress: Progress | None = None
    ) -> r.IndexResult:
        """Bring the search index up to date now (the first search does it otherwise) and
        compute every missing vector of the scopes in `vectors` ('documents', 'chunks'), which
        needs the semantic extra. `progress` hears of each step."""
        from catdoc.search.engine import SCOPES

        unknown = [scope for scope in vectors if scope not in SCOPES]
        if unknown:
            raise CatDocError(
                VALIDATION_ERROR,
                f"Vectors of {unknown[0]!r} cannot be computed: no such search scope.",
                f"Use one of: {', '.join(SCOPES)}.",
            )
        started = time.perf_counter()
        stats, computed = self.search_engine().build(
            self.project(), scopes=tuple(dict.fromkeys(vectors)), progress=throttled(progress)
        )
        return r.IndexResult(
            documents=stats.indexed + stats.touched + stats.unchanged,
            indexed=stats.indexed,
            removed=stats.removed,
            seconds=round(time.perf_counter() - started, 3),
            vectors=[
                r.VectorCount(scope=scope, computed=done, total=total)
                for scope, (done, total) in computed.items()
            ],
        )


def _positions(project: Project) -> dict[tuple[str, str], int]:
    """(kind, id) → index in its category's objects or morphisms (the first occurrence wins)."""
    positions: dict[tuple[str, str], int] = {}
    for cat in project.categories:
        for kind, items in (("object", cat.objects), ("morphism", cat.morphisms)):
            for index, item in enumerate(items):
                positions.setdefault((kind, item.id), index)
    return positions


def _empty_page(plural: str, total: int, offset: int, how_to_add: str) -> str | None:
    """Why a page of a model list is empty (None when it is not): the list has no entries
    yet (and how to add one), or `offset` lies past its end."""
    if not total:
        return f"The project has no {plural} yet: {how_to_add}."
    if offset >= total:
        return f"No {plural} at offset {offset}: there are {total}; page from 0."
    return None


def _window(limit: int | None, offset: int) -> slice:
    """The slice for optional paging of a member list (`limit=None`: everything from offset)."""
    if limit is not None:
        check_page(limit, offset)
        return slice(offset, offset + limit)
    if offset < 0:
        check_page(1, offset)
    return slice(offset, None)


def _children_of(project: Project) -> dict[str, list[str]]:
    children: dict[str, list[str]] = {}
    for cat in project.categories:
        if cat.parent:
            children.setdefault(cat.parent, []).append(cat.id)
    return children


def _adjacency(project: Project) -> dict[str, tuple[list[str], list[str]]]:
    """object id → (outgoing morphism ids, incoming morphism ids), identities left out."""
    adj: dict[str, tuple[list[str], list[str]]] = {}
    for cat in project.categories:
        for mor in cat.morphisms:
            if mor.is_identity:
                continue
            adj.setdefault(mor.source, ([], []))[0].append(mor.id)
            adj.setdefault(mor.target, ([], []))[1].append(mor.id)
    return adj


def _verdicts(report: Any, context: str, entity_id: str) -> dict[str, tuple[str, list[str]]]:
    """Mapping key → (worst severity, messages) from the findings about one functor or NT."""
    verdicts: dict[str, tuple[str, list[str]]] = {}
    rank = {"ok": 0, "warning": 1, "error": 2}
    for finding in [*report.errors, *report.warnings]:
        if getattr(finding, context, None) != entity_id:
            continue
        for ident in finding.ids:
            if ident == entity_id:
                continue
            status, messages = verdicts.get(ident, ("ok", []))
            if rank[finding.severity] > rank[status]:
                status = finding.severity
            verdicts[ident] = (status, [*messages, finding.message])
    return verdicts


def _entries(
    keys: Sequence[str],
    mapping: dict[str, Any],
    verdicts: dict[str, tuple[str, list[str]]],
    implicit: frozenset[str] = frozenset(),
    *,
    window: slice = slice(None),
) -> list[r.MappingEntry]:
    """One entry per source key (missing ones marked), then mapping keys the source lacks;
    only the entries in `window` are built.

    Keys in `implicit` (identity markers) need no entry: they map to identities by definition.
    """
    known = set(keys)
    ordered = list(keys) + [k for k in mapping if k not in known]
    entries = []
    for key in ordered[window]:
        status, problems = verdicts.get(key, ("ok", []))
        if key not in mapping and status == "ok" and key not in implicit:
            status = "missing"
        entries.append(
            r.MappingEntry(key=key, value=mapping.get(key), status=status, problems=problems)
        )
    return entries
