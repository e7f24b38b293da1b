"""Reading one document for the index: its text, title, passages and content hash.

What is read is given as a `Pending`, plain values taken from the model (no model objects), so
the same reading runs in this process or in a worker process of a large build.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from catdoc.errors import CatDocError
from catdoc.search.index import ChunkRecord, DocRecord
from catdoc.search.keyphrases import front_keywords


class Pending(NamedTuple):
    """A document to (re)read: the object's fields that feed the index, its file's signature
    and modification time, and the content hash the index holds for it (None: not indexed)."""

    id: str
    title: str | None
    domain: str | None
    path: str | None
    content: str | None
    tags: tuple[str, ...]
    author: str | None
    created: dt.date | None
    updated: dt.date | None
    summary: str | None
    url: str | None
    category: str | None
    concepts: tuple[str, ...]
    fields_hash: str
    sig: str
    mtime: float | None
    known_hash: str | None


def read_record(root: Path, doc: Pending, resolve: Callable[[str], Path]) -> DocRecord:
    """The index's record of one document; a file that cannot be read is indexed with its
    error (and no text) rather than failing the build."""
    from catdoc.documents import (
        FrontMatter,
        chunk_text,
        document_title,
        read_document,
        sniff_kind,
        split_front_matter,
    )

    text, error = "", None
    try:
        text = (read_document(resolve(doc.path), doc.path) if doc.path else doc.content) or ""
    except CatDocError as exc:
        error = exc.message
    kind = sniff_kind(doc.path, text) if doc.path else "markdown"
    front = FrontMatter({}, text, 1) if kind == "rst" else split_front_matter(text)
    title = doc.title or document_title(front.meta, front.body, doc.id, kind=kind)
    chunks = [
        ChunkRecord(c.index, c.heading_path, c.start_line, c.end_line, c.text)
        for c in (chunk_text(text, kind=kind, front=front) if text.strip() else [])
    ]
    content = hashlib.blake2b(f"{doc.fields_hash}\0{text}".encode(), digest_size=16)
    date = doc.updated or doc.created or (dt.date.fromtimestamp(doc.mtime) if doc.mtime else None)
    return DocRecord(
        id=doc.id,
        fields_hash=doc.fields_hash,
        file_sig=doc.sig,
        content_hash=content.hexdigest(),
        title=title,
        category=doc.category,
        domain=doc.domain,
        path=doc.path,
        url=doc.url,
        author=doc.author,
        file_type=Path(doc.path).suffix.lstrip(".").casefold() if doc.path else None,
        date=date.isoformat() if date else None,
        summary=doc.summary,
        tags=list(doc.tags),
        concepts=list(doc.concepts),
        body=front.body,
        chunks=chunks,
        error=error,
        keywords=front_keywords(front.meta),
        kind=kind,
    )
