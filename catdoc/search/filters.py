"""Search filters → one SQL condition over the `docs` table, every value a bound parameter.

Filters combine with AND. Lookups that name something that must exist (category, object) fail
with NOT_FOUND and suggestions; values that are merely absent from the index (a tag nobody uses,
an unknown author) just match nothing. Dates compare against a document's *effective date*: its
`updated` field, else `created`, else the modification time of its file.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from catdoc.errors import VALIDATION_ERROR, CatDocError

if TYPE_CHECKING:
    from catdoc.results import SearchFilters
    from catdoc.service import CatDoc

PERIOD_DAYS: dict[str, tuple[int, int]] = {
    "yesterday": (1, 1),
    "last_3_days": (3, 0),
    "last_week": (7, 0),
    "last_7_days": (7, 0),
    "last_month": (30, 0),
    "last_30_days": (30, 0),
}
"""period → (days back to the first day, days back to the last day), both inclusive of today."""


@dataclass
class Condition:
    """A SQL boolean over `d` (the docs table) and the values it binds, in order."""

    sql: list[str] = field(default_factory=list)
    params: list[Any] = field(default_factory=list)
    object_id: str | None = None
    notes: list[str] = field(default_factory=list)

    def where(self) -> str:
        return " AND ".join(self.sql) if self.sql else "1"

    def key(self) -> tuple[str, ...]:
        """What makes two conditions select the same rows (for caches)."""
        return (self.where(), *map(str, self.params))

    def add(self, sql: str, *params: Any) -> None:
        self.sql.append(sql)
        self.params.extend(params)


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


@lru_cache(maxsize=64)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """A path glob as a regex: `*` and `?` stay inside one folder, `**` crosses folders, and a
    pattern without `/` matches the file name in any folder (as in .gitignore)."""
    pattern = pattern.strip()
    if pattern.startswith("./"):
        pattern = pattern[2:]
    if "/" not in pattern:
        pattern = "**/" + pattern
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape("["))
                i += 1
            else:
                out.append(fnmatch.translate(pattern[i : end + 1])[4:-3])
                i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def path_matches(path: str | None, pattern: str) -> bool:
    """SQL function `catdoc_glob(path, pattern)`; the pattern arrives as a bound value."""
    return path is not None and glob_regex(pattern).match(path) is not None


def make_filters(raw: dict[str, Any]) -> SearchFilters:
    """SearchFilters from loose input (CLI options, MCP arguments); a bad value becomes a
    VALIDATION_ERROR that names the field and the value."""
    from pydantic import ValidationError

    from catdoc.results import SearchFilters

    values = {k: v for k, v in raw.items() if v is not None}
    for name in ("since", "until"):
        if name in values:
            values[name] = parse_date(values[name], name)
    try:
        return SearchFilters.model_validate(values)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "filters"
        allowed = ", ".join(SearchFilters.model_fields)
        raise CatDocError(
            VALIDATION_ERROR,
            f"filter {where}={err.get('input')!r}: {err['msg']}.",
            f"Known filters: {allowed}; period is one of {', '.join(PERIOD_DAYS)}.",
        ) from None


def build_condition(
    service: CatDoc, filters: SearchFilters, *, today: dt.date | None = None
) -> Condition:
    """Validate the filters against the project and turn them into one SQL condition."""
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
        ids = (
            service.category_and_descendants(filters.category)
            if filters.include_children
            else [service.category(filters.category).id]
        )
        cond.add(f"d.category IN ({', '.join('?' * len(ids))})", *ids)
    elif filters.include_children:
        cond.notes.append("include_children has no effect without a category filter.")
    if filters.domain:
        cond.add("lower(d.domain) = ?", filters.domain.casefold())
    for tag in dict.fromkeys(t.casefold() for t in filters.tags if t.strip()):
        cond.add("EXISTS (SELECT 1 FROM doc_tags t WHERE t.doc = d.rowid AND t.tag = ?)", tag)
    if filters.author:
        cond.add("lower(d.author) = ?", filters.author.strip().casefold())
    if filters.path:
        cond.add("catdoc_glob(d.path, ?)", filters.path)
    if filters.file_type:
        cond.add("d.file_type = ?", filters.file_type.strip().lstrip(".").casefold())
    if since is not None:
        cond.add("d.date >= ?", since.isoformat())
    if until is not None:
        cond.add("d.date <= ?", until.isoformat())
    if filters.object:
        cond.object_id = service.object(filters.object).id
        cond.add("d.id = ?", cond.object_id)
    return cond
