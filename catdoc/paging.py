"""Paging bounds shared by every list and search: one limit, one offset bound, one message."""

from __future__ import annotations

from catdoc.errors import VALIDATION_ERROR, CatDocError

MAX_LIMIT = 200
MAX_OFFSET = 1_000_000
"""Deepest offset any list or search pages to: far past any real project, and small enough that
every layer below (SQLite's 64-bit integers, candidate lists) takes it without overflowing."""


def check_page(limit: int, offset: int) -> None:
    """Reject out-of-range paging with a message that says the allowed range."""
    if not 1 <= limit <= MAX_LIMIT:
        raise CatDocError(
            VALIDATION_ERROR,
            f"limit must be between 1 and {MAX_LIMIT}, got {limit}.",
            "Pass a smaller limit and page with offset.",
        )
    if not 0 <= offset <= MAX_OFFSET:
        shown = f"{offset:,}" if offset.bit_length() < 64 else "a number that large"
        raise CatDocError(
            VALIDATION_ERROR,
            f"offset must be between 0 and {MAX_OFFSET:,}, got {shown}.",
            "Page from 0 upwards; no list or search has that many entries.",
        )
