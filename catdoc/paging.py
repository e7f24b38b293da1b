"""Paging bounds shared by every list and search: one limit, one message."""

from __future__ import annotations

from catdoc.errors import VALIDATION_ERROR, CatDocError

MAX_LIMIT = 200


def check_page(limit: int, offset: int) -> None:
    """Reject out-of-range paging with a message that says the allowed range."""
    if not 1 <= limit <= MAX_LIMIT:
        raise CatDocError(
            VALIDATION_ERROR,
            f"limit must be between 1 and {MAX_LIMIT}, got {limit}.",
            "Pass a smaller limit and page with offset.",
        )
    if offset < 0:
        raise CatDocError(VALIDATION_ERROR, f"offset must be ≥ 0, got {offset}.", "Use 0 or more.")
