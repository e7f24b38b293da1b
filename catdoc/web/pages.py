"""The pages: each one reads its query, makes `CatDoc` calls and hands the results to a template.

Nothing here reads files, walks graphs or ranks: the service does; pages only pick, page and
label what it returns. A CatDocError becomes an error page with its message and hint.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from catdoc import results as r
from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.service import CatDoc
from catdoc.service_impact import objects_by_path
from catdoc.web.app import Site
from catdoc.web.graphs import (
    MAX_NODES,
    categories_drawing,
    graph_drawing,
    neighbourhood_drawing,
    trace_drawing,
)
from catdoc.web.render import document_html, entity_url

PAGE = 50
"""Rows per page of a member list, mapping table or finding list."""
SEARCH_PAGE = 20
"""Results per page of a search."""
SCOPES = {"documents": "documents", "chunks": "passages"}
"""Search scope → what the search form calls it."""
CHAIN_PER_GROUP = 100
"""Entries per category on an object's chain (the nearest); the heading says how many more."""
COVERAGE_LISTS = ("unmapped_objects", "orphans", "unmapped_morphisms")

ERROR_STATUS = {NOT_FOUND: 404, VALIDATION_ERROR: 400}
SEVERITIES = ("error", "warning", "info")
STATUSES = ("ok", "error", "warning", "missing")

Context = dict[str, Any]
Paged = TypeVar("Paged", r.Page[Any], r.SuspectReport, r.SearchResponse)


def _int(request: Request, name: str, default: int = 0) -> int:
    try:
        return max(0, int(request.query_params.get(name, default)))
    except ValueError:
        return default


def _text(request: Request, name: str) -> str | None:
    value = request.query_params.get(name, "").strip()
    return value or None


def _ident(request: Request) -> str:
    """The id a page is about: its path's last part, or `?id=` for `.` and `..` (`entity_url`)."""
    return request.path_params["id"] or request.query_params.get("id", "")


def _within(total: int, offset: int, size: int = PAGE) -> int:
    """`offset`, or the last page's when it lies past the end (so rows and pager agree)."""
    return min(offset, max(0, total - 1) // size * size)


def _fetch(fetch: Callable[[int], Paged], offset: int, size: int = PAGE) -> Paged:
    """`fetch(offset)`, or the last page when `offset` lies past the end."""
    page = fetch(offset)
    if (last := _within(page.total, offset, size)) != offset:
        page = fetch(last)
    return page


def _pager(total: int, offset: int, size: int = PAGE) -> Context:
    """Where this page starts and ends, and the offsets of its neighbours (None at the ends);
    `offset` lies within `total` (`_within`)."""
    end = min(total, offset + size)
    return {
        "start": offset + 1 if total else 0,
        "end": end,
        "total": total,
        "prev": max(0, offset - size) if offset > 0 else None,
        "next": end if end < total else None,
    }


def _query(request: Request, **changes: Any) -> str:
    """This page's query string with some parameters changed (for pager links)."""
    params = dict(request.query_params)
    params.update({k: str(v) for k, v in changes.items()})
    return "?" + urlencode(params)


def _uncovered(
    request: Request, item: r.FunctorCoverage
) -> list[tuple[str, list[str], Context, str]]:
    """(list name, this page of its ids, its pager, its offset parameter) per coverage list."""
    out = []
    for name in COVERAGE_LISTS:
        ids: list[str] = getattr(item, name)
        key = f"{item.functor}.{name}"
        offset = _within(len(ids), _int(request, key))
        out.append((name, ids[offset : offset + PAGE], _pager(len(ids), offset), key))
    return out


class Pages:
    """The page builders; each returns a template context."""

    def __init__(self, svc: CatDoc) -> None:
        self.svc = svc

    def title(self, object_id: str) -> str:
        """An object's title, or its id when it does not exist (a dangling reference)."""
        try:
            return self.svc.object(object_id).label
        except CatDocError:
            return object_id

    def page_of(self, path: str) -> str | None:
        """The page of the object whose document is the file at `path`, if one is."""
        ids = self.svc.derived("objects-by-path", objects_by_path).get(path)
        return entity_url("object", ids[0]) if ids else None

    # ------------------------------------------------------------------ overview
    def overview(self, request: Request) -> Context:
        categories = self.svc.list_categories()
        functors = self.svc.list_functors()
        report = self.svc.validate()
        findings = [*report.errors, *report.warnings, *report.infos]
        codes = collections.Counter((f.severity, f.code) for f in findings)
        return {
            "title": "Overview",
            "categories": categories,
            "functors": functors,
            "transformations": self.svc.list_natural_transformations(),
            "report": report,
            "codes": sorted(codes.items(), key=lambda item: (SEVERITIES.index(item[0][0]), item)),
            "object_count": sum(c.object_count for c in categories),
            "morphism_count": sum(c.morphism_count for c in categories),
            "drawing": categories_drawing(categories, functors),
        }

    # ------------------------------------------------------------------ entities
    def category(self, request: Request) -> Context:
        cat = self.svc.show_category(_ident(request), limit=1)
        objects = _fetch(
            lambda o: self.svc.list_objects(category=cat.id, limit=PAGE, offset=o),
            _int(request, "o"),
        )
        morphisms = _fetch(
            lambda o: self.svc.list_morphisms(category=cat.id, limit=PAGE, offset=o),
            _int(request, "m"),
        )
        window = _within(cat.object_count, _int(request, "g"), MAX_NODES)
        drawing = graph_drawing(self.svc.graph_page(cat.id, limit=MAX_NODES, offset=window))
        return {
            "title": cat.name,
            "cat": cat,
            "objects": objects,
            "objects_pager": _pager(objects.total, objects.offset),
            "morphisms": morphisms,
            "morphisms_pager": _pager(morphisms.total, morphisms.offset),
            "drawing": drawing,
            "graph_pager": _pager(cat.object_count, window, MAX_NODES),
            "findings": self.svc.findings(category=cat.id)[:PAGE],
            "query": lambda **changes: _query(request, **changes),
        }

    def object(self, request: Request) -> Context:
        detail = self.svc.show_object(_ident(request))
        html = None
        if detail.content is not None:
            html = document_html(detail.content, detail.path, self.page_of)
        return {
            "title": detail.title,
            "obj": detail,
            "watch": detail.id,
            "document": html,
            "titles": {
                ident: self.title(ident)
                for mor in [*detail.outgoing, *detail.incoming]
                for ident in (mor.source, mor.target)
            }
            | {image: self.title(image) for image in detail.images.values()},
            "findings": self.svc.findings(entity=detail.id),
            "drawing": neighbourhood_drawing(detail, self.title),
        }

    def morphism(self, request: Request) -> Context:
        detail = self.svc.show_morphism(_ident(request))
        return {
            "title": detail.name,
            "mor": detail,
            "findings": self.svc.findings(entity=detail.id),
        }

    def _mapping(self, request: Request, entries: Sequence[r.MappingEntry], key: str) -> Context:
        """Mapping rows filtered by `status` and a substring `q` of key or value, then paged."""
        status, needle = _text(request, "status"), (_text(request, "q") or "").casefold()
        rows = [
            e
            for e in entries
            if (status is None or e.status == status)
            and (not needle or needle in f"{e.key} {e.value}".casefold())
        ]
        counts = collections.Counter(e.status for e in entries)
        offset = _within(len(rows), _int(request, key))
        return {
            "rows": rows[offset : offset + PAGE],
            "pager": _pager(len(rows), offset),
            "key": key,
            "counts": counts,
        }

    def functor(self, request: Request) -> Context:
        detail = self.svc.show_functor(_ident(request))
        return {
            "title": detail.name,
            "fun": detail,
            "tables": [
                ("Objects", "object", "object", self._mapping(request, detail.object_mapping, "o")),
                (
                    "Morphisms",
                    "morphism",
                    "morphism",
                    self._mapping(request, detail.morphism_mapping, "m"),
                ),
            ],
            "status": _text(request, "status"),
            "q": _text(request, "q") or "",
            "statuses": STATUSES,
            "findings": self.svc.findings(entity=detail.id),
            "query": lambda **changes: _query(request, **changes),
        }

    def transformation(self, request: Request) -> Context:
        detail = self.svc.show_natural_transformation(_ident(request))
        return {
            "title": detail.name,
            "nat": detail,
            "tables": [
                ("Components", "object", "morphism", self._mapping(request, detail.components, "o"))
            ],
            "status": _text(request, "status"),
            "q": _text(request, "q") or "",
            "statuses": STATUSES,
            "findings": self.svc.findings(entity=detail.id),
            "query": lambda **changes: _query(request, **changes),
        }

    # ------------------------------------------------------------------ queries
    def validation(self, request: Request) -> Context:
        severity, code, category = (_text(request, k) for k in ("severity", "code", "category"))
        everything = self.svc.findings()
        found = self.svc.findings(severity=severity, code=code, category=category)
        offset = _within(len(found), _int(request, "offset"))
        return {
            "title": "Validation",
            "report": self.svc.validate(),
            "findings": found[offset : offset + PAGE],
            "paging": _pager(len(found), offset),
            "severity": severity,
            "code": code,
            "category": category,
            "severities": SEVERITIES,
            "codes": sorted({f.code for f in everything}),
            "categories": [c.id for c in self.svc.list_categories()],
            "query": lambda **changes: _query(request, **changes),
        }

    def search(self, request: Request) -> Context:
        q = _text(request, "q")
        form = {k: _text(request, k) or "" for k in ("q", "mode", "scope", "category", "tags")}
        form |= {k: _text(request, k) or "" for k in ("author", "path")}
        context: Context = {"title": "Search", "form": form, "response": None, "error": None}
        context["categories"] = [c.id for c in self.svc.list_categories()]
        context["query"] = lambda **changes: _query(request, **changes)
        context["scopes"] = SCOPES
        if q is None:
            return context
        if form["scope"] not in {"", *SCOPES}:
            message = f"results {form['scope']!r} are not known."
            hint = f"Use one of: {', '.join(SCOPES.values())}."
            context["error"] = CatDocError(VALIDATION_ERROR, message, hint)
            return context
        tags = [t.strip() for t in form["tags"].split(",") if t.strip()]
        try:
            filters = r.SearchFilters(
                category=form["category"] or None,
                tags=tags or None,
                author=form["author"] or None,
                path=form["path"] or None,
            )
            response = _fetch(
                lambda offset: self.svc.search(
                    q,
                    mode=form["mode"] or None,
                    scope=form["scope"] or "documents",
                    filters=filters,
                    limit=SEARCH_PAGE,
                    offset=offset,
                ),
                _int(request, "offset"),
                SEARCH_PAGE,
            )
        except CatDocError as exc:
            context["error"] = exc
            return context
        context["response"] = response
        context["paging"] = _pager(response.total, response.offset, response.limit)
        return context

    def trace(self, request: Request) -> Context:
        source, target = _text(request, "source"), _text(request, "target")
        via = request.query_params.get("via", "functors") != "morphisms"
        context: Context = {
            "title": "Trace",
            "source": source or "",
            "target": target or "",
            "via_functors": via,
            "result": None,
            "error": None,
        }
        if source is None or target is None:
            return context
        try:
            result = self.svc.trace(source, target, via_functors=via)
        except CatDocError as exc:
            context["error"] = exc
            return context
        drawing = trace_drawing(result, self.title)
        context |= {"result": result, "drawing": drawing, "titles": self.title}
        return context

    # ------------------------------------------------------------------ traceability
    def coverage(self, request: Request) -> Context:
        """Every functor's shares and what it leaves uncovered: each list paged on its own
        (offset parameter `FUNCTOR.LIST`), so 10,000 orphans cost one page of rows."""
        report = self.svc.coverage()
        return {
            "title": "Coverage",
            "report": report,
            "lists": {item.functor: _uncovered(request, item) for item in report.functors},
            "query": lambda **changes: _query(request, **changes),
        }

    def suspects(self, request: Request) -> Context:
        category = _text(request, "category")
        report = _fetch(
            lambda offset: self.svc.suspects(category, limit=PAGE, offset=offset),
            _int(request, "offset"),
        )
        return {
            "title": "Suspect links",
            "report": report,
            "category": category,
            "categories": [c.id for c in self.svc.list_categories()],
            "paging": _pager(report.total, report.offset),
            "query": lambda **changes: _query(request, **changes),
        }

    def chain(self, request: Request) -> Context:
        result = self.svc.chain(_ident(request), per_group=CHAIN_PER_GROUP)
        return {"title": f"Chain of {result.title}", "chain": result, "watch": result.object}

    def activity(self, request: Request) -> Context:
        return {"title": "Activity"}


def page_routes(site: Site) -> list[Route]:
    """One route per page; each renders its template, or the error page."""
    pages = Pages(site.svc)

    def route(path: str, template: str, build: Callable[[Request], Context]) -> Route:
        def endpoint(request: Request) -> Response:
            try:
                context = build(request)
            except CatDocError as exc:
                status = ERROR_STATUS.get(exc.code, 503)
                context = {"title": "Error", "error": exc}
                return site.render(request, "error.html", context, status)
            return site.render(request, template, context)

        return Route(path, endpoint, name=template.removesuffix(".html"))

    return [
        route("/", "overview.html", pages.overview),
        route("/categories/{id:path}", "category.html", pages.category),
        route("/objects/{id:path}", "object.html", pages.object),
        route("/morphisms/{id:path}", "morphism.html", pages.morphism),
        route("/functors/{id:path}", "functor.html", pages.functor),
        route("/transformations/{id:path}", "transformation.html", pages.transformation),
        route("/validation", "validation.html", pages.validation),
        route("/search", "search.html", pages.search),
        route("/trace", "trace.html", pages.trace),
        route("/coverage", "coverage.html", pages.coverage),
        route("/suspects", "suspects.html", pages.suspects),
        route("/chain/{id:path}", "chain.html", pages.chain),
        route("/activity", "activity.html", pages.activity),
    ]
