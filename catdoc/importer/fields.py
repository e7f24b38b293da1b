"""An object's fields from a document's front matter, text and options, and what changed.

Metadata comes from YAML front matter and, key by key where front matter is silent, from what the
text states itself (`catdoc.text_metadata`: a PEP's `Title:`/`Author:`/`Created:` headers, reST
field lists such as `:Author:` or Sphinx's `:description:` and `:keywords:`).
"""

from __future__ import annotations

import datetime as dt
import os
import re
from typing import Any

from catdoc.documents import document_title, text_metadata
from catdoc.importer.files import _Doc
from catdoc.importer.mkdocs import HOMEPAGE_TITLE, MkDocsPage
from catdoc.importer.names import humanize
from catdoc.model import DocObject
from catdoc.text_metadata import parse_date

_CREATED_KEYS = ("created", "date")
_UPDATED_KEYS = ("updated", "lastmod", "last_modified", "modified")


def _fields(
    doc: _Doc,
    domain: str | None,
    page: MkDocsPage | None = None,
    toc_title: str | None = None,
) -> dict[str, Any]:
    """The object's fields (on-disk keys, file order) from front matter, text and options;
    `page` when the document is a page of an MkDocs project (its title may come from there);
    `toc_title` the title a mystmd project's `toc` gives it, which mystmd shows only where the
    page has no title of its own (`catdoc.importer.mystmd`)."""
    meta = {**text_metadata(doc.front.body, doc.kind), **doc.front.meta}
    consumed = {"id", "title"}
    fields: dict[str, Any] = {"id": doc.object_id}
    homepage = page is not None and page.homepage
    fallback = HOMEPAGE_TITLE if homepage else humanize(doc.parts[-1])
    title = document_title(
        meta,
        doc.front.body,
        toc_title or fallback,
        kind=doc.kind,
        nav_title=page.nav_title if page is not None else None,
        mkdocs_meta=page is not None and doc.front.body_start_line == 1,
        structure=doc.structure,
    )
    if doc.included.title and _scalar(meta.get("title")) is None and page is None:
        title = doc.included.title  # an included file's title comes first, as Sphinx renders it
    if title != fallback or doc.existing is None or not doc.existing.title:
        fields["title"] = title
    dom = domain if domain is not None else _scalar(meta.get("domain"))
    if dom is not None:
        fields["domain"] = dom
    consumed.add("domain")
    fields["path"] = doc.rel
    raw_tags = meta.get("tags")
    tags = _tags(raw_tags)
    if tags is not None:
        fields["tags"] = tags
        consumed.add("tags")
    left = [v for v in raw_tags if isinstance(v, dict | list)] if isinstance(raw_tags, list) else []
    if left:
        shown = ", ".join(repr(v) for v in left[:3])
        verb = "is not a tag" if len(left) == 1 else "are not tags"
        doc.notes.append(f"tags: {shown} {verb} (a tag is text); left out.")
    for key in ("author", "authors"):
        author = _author(meta.get(key))
        if author is not None:
            fields["author"] = author
            consumed.add(key)
            break
    for target, keys in (("created", _CREATED_KEYS), ("updated", _UPDATED_KEYS)):
        for key in keys:
            if key not in meta:
                continue
            value = _date(meta[key])
            if value is None:
                where = "front matter" if key in doc.front.meta else "the document's"
                doc.notes.append(
                    f"{where} {key}: {meta[key]!r} is not a date (YYYY-MM-DD or "
                    "12-Sep-2020); kept in metadata."
                )
                continue
            fields[target] = value
            consumed.add(key)
            break
    for target, keys in (("summary", ("summary", "description")), ("url", ("url",))):
        for key in keys:
            value = _scalar(meta.get(key))
            if value is not None:
                fields[target] = value
                consumed.add(key)
                break
    extra = {k: v for k, v in meta.items() if k not in consumed}
    if extra:
        fields["metadata"] = extra
    return fields


def _scalar(value: Any) -> str | None:
    """A front matter value as text (numbers too); None for missing, empty or structured values."""
    if isinstance(value, bool) or value is None or isinstance(value, dict | list):
        return None
    text = str(value).strip()
    return text or None


def _tags(value: Any) -> list[str] | None:
    if isinstance(value, list):
        tags = [t for t in (_scalar(v) for v in value) if t]
    elif isinstance(value, str):
        tags = [t for t in re.split(r"[,\s]+" if "," not in value else r"\s*,\s*", value) if t]
    else:
        return None
    return list(dict.fromkeys(tags))


def _author(value: Any) -> str | None:
    if isinstance(value, list):
        names = [n for n in (_author(v) for v in value) if n]
        return ", ".join(names) or None
    if isinstance(value, dict):
        return _scalar(value.get("name"))
    return _scalar(value)


def _date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        return parse_date(value)
    return None


def _changes(existing: DocObject, fields: dict[str, Any]) -> dict[str, Any]:
    """The fields whose value differs from the existing object (nothing is ever removed)."""
    changes: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "id":
            continue
        if key == "path":
            if existing.path is None or os.path.normpath(existing.path) != value:
                changes[key] = value
            continue
        if key == "metadata":
            delta = {k: v for k, v in value.items() if existing.metadata.get(k, _MISSING) != v}
            if delta:
                changes[key] = delta
            continue
        if getattr(existing, key) != value:
            changes[key] = value
    return changes


_MISSING = object()
