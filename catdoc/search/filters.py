"""Search filters → one SQL condition over the `docs` table (and `chunks` for passage filters),
every value a bound parameter.

Filters combine with AND; a filter given a list (category, tags, fileType, source) matches any of
its values (OR). Lookups that name something that must exist (category, object, cluster) fail
with NOT_FOUND and suggestions; values that are merely absent from the index (a tag nobody uses,
an unknown author) just match nothing. Dates compare against a document's *effective date*: its
`updated` field, else `created`, else the modification time of its file. `cardsOnly` is no row
filter: it restricts the text match to the `summary` column (see `Condition.fts`).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence, Sized
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.globs import Glob, path_glob

if TYPE_CHECKING:
    from catdoc.model import Category, DocObject
    from catdoc.results import Cluster, SearchFilters

PERIOD_DAYS: dict[str, tuple[int, int]] = {
    "yesterday": (1, 1),
    "last_3_days": (3, 0),
    "last_week": (7, 0),
    "last_7_days": (7, 0),
    "last_month": (30, 0),
    "last_30_days": (30, 0),
}
"""period → (days back to the first day, days back to the last day), both inclusive of today."""


class FilterLookups(Protocol):
    """What the filters name in the project (a category with its descendants, an object, a
    cluster's members), looked up by whoever composes the search — the service — so that the
    search layer never reaches up to it. A lookup of a name that does not exist raises the
    CatDocError to report (NOT_FOUND with suggestions)."""

    def category(self, ref: str) -> Category: ...

    def category_and_descendants(self, ref: str) -> list[str]: ...

    def object(self, object_id: str) -> DocObject: ...

    def cluster(self, cluster_id: str) -> Cluster: ...


@dataclass
class Condition:
    """A SQL boolean over `d` (the docs table) — and `c` (the chunks table) when `passages` —
    and the values it binds, in order; `column` restricts the text match to one column."""

    sql: list[str] = field(default_factory=list)
    params: list[Any] = field(default_factory=list)
    object_id: str | None = None
    notes: list[str] = field(default_factory=list)
    passages: bool = False
    """Some filter is about passages (chunkRange): only a passage search can apply it."""
    column: str | None = None
    """The only FTS5 column the query words may match (`summary` for cardsOnly)."""

    def where(self) -> str:
        return " AND ".join(self.sql) if self.sql else "1"

    def key(self) -> tuple[str, ...]:
        """What makes two conditions select the same rows (for caches)."""
        return (self.where(), str(self.column), *map(str, self.params))

    def add(self, sql: str, *params: Any) -> None:
        self.sql.append(sql)
        self.params.extend(params)

    def fts(self, expression: str) -> str:
        """An FTS5 expression restricted to `column` (unchanged without one)."""
        if self.column is None or not expression:
            return expression
        return f"{{{self.column}}} : ({expression})"


CARD_SIGNALS = ("bm25", "coverage", "wordnet")
"""The ranking signals that look at a card's own words: cardsOnly ranks by these alone (titles,
concepts, passages and document vectors describe the rest of the document)."""


def card_weights(cond: Condition, weights: dict[str, float]) -> dict[str, float]:
    """The ranking weights in force under `cond`: with cardsOnly those of `CARD_SIGNALS`,
    scaled to sum to 1; otherwise `weights` unchanged."""
    if cond.column is None:
        return weights
    kept = {name: weight for name, weight in weights.items() if name in CARD_SIGNALS}
    total = sum(kept.values())
    return {name: weight / total for name, weight in kept.items()} if total else {"bm25": 1.0}


def resolve_scope(cond: Condition, scope: str, mode: str) -> str:
    """The scope a search runs in. The object and chunkRange filters make it a passage search
    (with a note); cardsOnly is about documents' cards, so it refuses passages and vectors."""
    if cond.column is not None:
        clashes = {
            "--scope chunks (MCP: scope chunks)": scope == "chunks",
            filter_name("object"): cond.object_id is not None,
            filter_name("chunk_range"): cond.passages,
            "--mode vector (MCP: mode vector)": mode == "vector",
        }
        clash = next((name for name, present in clashes.items() if present), None)
        if clash:
            raise CatDocError(
                VALIDATION_ERROR,
                f"{filter_name('cards_only')} cannot be combined with {clash}: cards are one "
                "summary per document, matched by their words.",
                "Leave out one of the two: the cards alone, or passages and meaning.",
            )
        return scope
    if scope == "documents" and (cond.object_id is not None or cond.passages):
        why = filter_name("object" if cond.object_id is not None else "chunk_range") + " filter"
        what = "of that one document" if cond.object_id is not None else "in that range"
        cond.notes.append(f"{why}: searching the passages (chunks) {what}.")
        return "chunks"
    return scope


def period_range(period: str, today: dt.date) -> tuple[dt.date, dt.date]:
    """The inclusive date range of a named period, counted back from `today`."""
    start, end = PERIOD_DAYS[period]
    return today - dt.timedelta(days=start), today - dt.timedelta(days=end)


def parse_date(value: Any, name: str) -> dt.date | None:
    """A `YYYY-MM-DD` date (or a date object); anything else is a VALIDATION_ERROR naming it."""
    if value is None or isinstance(value, dt.date):
        return value.date() if isinstance(value, dt.datetime) else value
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise CatDocError(
            VALIDATION_ERROR,
            f"{name} {value!r} is not a date.",
            f"Write {name} as YYYY-MM-DD, e.g. 2026-01-31.",
        ) from None


MAX_PATH_PATTERN = 1000
"""Longest path glob (characters) a search accepts: ample for any real path, and it bounds the
matcher's work per document, which is linear in the path for a given pattern."""


def check_path_pattern(pattern: str) -> None:
    """Refuse a path glob longer than `MAX_PATH_PATTERN` with a VALIDATION_ERROR."""
    if len(pattern) > MAX_PATH_PATTERN:
        raise CatDocError(
            VALIDATION_ERROR,
            f"The path filter is {len(pattern):,} characters long; at most {MAX_PATH_PATTERN} "
            "are accepted.",
            "Use a shorter glob: `**` matches any number of folders, e.g. 'docs/**/api-*.md'.",
        )


@lru_cache(maxsize=32)
def glob_regex(pattern: str) -> Glob:
    """The compiled matcher of a path glob (`catdoc.globs.path_glob`); used like a regex's
    `match`."""
    check_path_pattern(pattern)
    return path_glob(pattern)


def path_matches(path: str | None, pattern: str) -> bool:
    """SQL function `catdoc_glob(path, pattern)`; the pattern arrives as a bound value."""
    return path is not None and glob_regex(pattern).match(path)


FIELD_HINTS = {
    "category": "Give a category id, name or alias, or a list of them.",
    "tags": "Give a tag or a list of tags (any of them matches).",
    "file_type": "Give an extension such as md, or a list such as [md, rst].",
    "source": "Give 'inline', a folder such as docs/req, or a URL prefix — or a list of them.",
    "chunk_range": "Give --chunk-range as START:END (MCP: chunkRange as {start, end}): passage "
    "numbers counted from 0, both included, 0 ≤ start ≤ end ≤ 1,000,000; leave end out for 'to "
    "the last'.",
}
_OPTIONS = {"tags": "--tag", "cluster_id": "--cluster"}
"""The search command's options whose names are not the filter's, dashed."""


def filter_name(field: str) -> str:
    """A filter as both faces name it in messages: "--chunk-range (MCP: chunkRange)"."""
    from catdoc.results import SearchFilters

    info = SearchFilters.model_fields.get(field)
    argument = info.alias if info is not None and info.alias else field
    return f"{_OPTIONS.get(field, '--' + field.replace('_', '-'))} (MCP: {argument})"


def parse_chunk_range(text: str) -> dict[str, int | None]:
    """`START:END`, `START:` or `:END` (the CLI's form) as a chunkRange; anything else is a
    VALIDATION_ERROR."""
    start, colon, end = text.strip().partition(":")
    try:
        if not colon or not (start.strip() or end.strip()):
            raise ValueError(text)
        return {
            "start": int(start) if start.strip() else 0,
            "end": int(end) if end.strip() else None,
        }
    except ValueError:
        raise CatDocError(
            VALIDATION_ERROR,
            f"chunk range {text!r} is not START:END.",
            FIELD_HINTS["chunk_range"],
        ) from None


def make_filters(raw: dict[str, Any]) -> SearchFilters:
    """SearchFilters from loose input (CLI options, MCP arguments); a bad value becomes a
    VALIDATION_ERROR that names the field and the value."""
    from pydantic import ValidationError

    from catdoc.results import SearchFilters

    values = {k: v for k, v in raw.items() if v is not None}
    for name in ("since", "until"):
        if name in values:
            values[name] = parse_date(values[name], name)
    for name in ("chunk_range", "chunkRange"):
        if isinstance(values.get(name), str):
            values[name] = parse_chunk_range(values[name])
    try:
        return SearchFilters.model_validate(values)
    except ValidationError as exc:
        err = exc.errors()[0]
        fields = SearchFilters.model_fields
        allowed = ", ".join(f.alias or n for n, f in fields.items())
        given = str(err["loc"][0]) if err["loc"] else ""
        name = next((n for n, f in fields.items() if given in (n, f.alias)), None)
        label = filter_name(name) if name is not None else given or "filters"
        inner = ".".join(str(p) for p in err["loc"][1:])
        where = f"{label} {inner}" if inner else label
        hint = FIELD_HINTS.get(name or "")
        raise CatDocError(
            VALIDATION_ERROR,
            f"filter {where} = {err.get('input')!r}: {err['msg']}.",
            hint or f"Known filters: {allowed}; period is one of {', '.join(PERIOD_DAYS)}.",
        ) from None


def build_condition(
    lookups: FilterLookups, filters: SearchFilters, *, today: dt.date | None = None
) -> Condition:
    """Validate the filters against the project (categories, objects and clusters through
    `lookups`, in the order the filters are checked) and turn them into one SQL condition."""
    cond = Condition()
    since, until = parse_date(filters.since, "since"), parse_date(filters.until, "until")
    if filters.period is not None:
        if since is not None or until is not None:
            given = ", ".join(
                f"{name}={value.isoformat()}"
                for name, value in (("since", since), ("until", until))
                if value is not None
            )
            raise CatDocError(
                VALIDATION_ERROR,
                f"period={filters.period} conflicts with {given}: both set the date range.",
                "Use either period, or since/until — not both.",
            )
        if filters.period not in PERIOD_DAYS:
            raise CatDocError(
                VALIDATION_ERROR,
                f"period {filters.period!r} is not known.",
                f"Use one of: {', '.join(PERIOD_DAYS)}.",
            )
        since, until = period_range(filters.period, today or dt.date.today())
    if since is not None and until is not None and since > until:
        raise CatDocError(
            VALIDATION_ERROR,
            f"since={since.isoformat()} is after until={until.isoformat()}.",
            "Swap the two dates, or drop one of them.",
        )
    if filters.category:
        ids: dict[str, None] = {}
        for name in filters.category:
            found = (
                lookups.category_and_descendants(name)
                if filters.include_children
                else [lookups.category(name).id]
            )
            ids.update(dict.fromkeys(found))
        cond.add(f"d.category IN ({_marks(ids)})", *ids)
    elif filters.include_children:
        cond.notes.append(
            f"{filter_name('include_children')} has no effect without a category filter."
        )
    if filters.domain:
        cond.add("lower(d.domain) = ?", filters.domain.casefold())
    if filters.tags:
        tags = list(dict.fromkeys(t.strip().casefold() for t in filters.tags))
        # not correlated: SQLite lists the tagged documents once, then looks each row up there
        tagged = f"SELECT doc FROM doc_tags WHERE tag IN ({_marks(tags)})"
        cond.add(f"d.rowid IN ({tagged})", *tags)
    if filters.author:
        cond.add("lower(d.author) = ?", filters.author.strip().casefold())
    if filters.path:
        check_path_pattern(filters.path)
        cond.add("catdoc_glob(d.path, ?)", filters.path)
    if filters.file_type:
        types = list(dict.fromkeys(t.strip().lstrip(".").casefold() for t in filters.file_type))
        cond.add(f"d.file_type IN ({_marks(types)})", *types)
    if filters.source:
        _add_source(cond, filters.source)
    if since is not None:
        cond.add("d.date >= ?", since.isoformat())
    if until is not None:
        cond.add("d.date <= ?", until.isoformat())
    if filters.object:
        cond.object_id = lookups.object(filters.object).id
        cond.add("d.id = ?", cond.object_id)
    if filters.cluster_id is not None:
        members = lookups.cluster(filters.cluster_id).members
        cond.add("d.id IN (SELECT value FROM json_each(?))", json.dumps(members))
    if filters.chunk_range is not None:
        cond.passages = True
        cond.add("c.idx >= ?", filters.chunk_range.start)
        if filters.chunk_range.end is not None:
            cond.add("c.idx <= ?", filters.chunk_range.end)
    if filters.cards_only:
        cond.column = "summary"
    return cond


INLINE_SOURCE = "inline"


def _add_source(cond: Condition, sources: Sequence[str]) -> None:
    """Documents from any of `sources`: `inline` (no file: the text, if any, is the object's
    `content`), a URL prefix (anything with `://`, matched against the object's `url`), or a
    folder or file path relative to the project root (a folder matches every file below it,
    never a file that merely starts with the same letters)."""
    parts: list[str] = []
    params: list[Any] = []
    for raw in dict.fromkeys(s.strip() for s in sources):
        if raw.casefold() == INLINE_SOURCE:
            parts.append("d.path IS NULL")
        elif "://" in raw:
            parts.append("substr(d.url, 1, ?) = ?")
            params += [len(raw), raw]
        else:
            folder = raw.removeprefix("./").strip("/")
            if not folder or folder == ".":
                parts.append("d.path IS NOT NULL")
            else:
                parts.append("(d.path = ? OR substr(d.path, 1, ?) = ?)")
                params += [folder, len(folder) + 1, folder + "/"]
    cond.add("(" + " OR ".join(parts) + ")", *params)


def _marks(values: Sized) -> str:
    return ", ".join("?" * len(values))
