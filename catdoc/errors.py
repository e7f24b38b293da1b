"""The one exception every face catches: a code, what went wrong, and how to fix it."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

NOT_FOUND = "NOT_FOUND"
VALIDATION_ERROR = "VALIDATION_ERROR"
PATH_OUTSIDE_PROJECT = "PATH_OUTSIDE_PROJECT"
PROJECT_NOT_FOUND = "PROJECT_NOT_FOUND"
LOAD_ERROR = "LOAD_ERROR"
ALREADY_EXISTS = "ALREADY_EXISTS"
IO_ERROR = "IO_ERROR"
BUSY = "BUSY"
"""Another writer holds the project lock; nothing was written."""
CONFLICT = "CONFLICT"
"""The model changed since the version the caller read; nothing was written."""
GIT_ERROR = "GIT_ERROR"
"""A git revision could not be read: git is missing, the project is not in a git repository,
or git failed."""


class CatDocError(Exception):
    """A user-facing failure: `code` is stable, `message` says what, `hint` says how to fix it."""

    def __init__(
        self,
        code: str,
        message: str,
        hint: str = "",
        suggestions: Iterable[str] = (),
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.suggestions = list(suggestions)

    def to_dict(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code, "message": self.message, "hint": self.hint}
        if self.suggestions:
            body["didYouMean"] = self.suggestions
        return {"error": body}

    def __str__(self) -> str:
        text = self.message
        if self.suggestions:
            text += f" Did you mean: {', '.join(self.suggestions)}?"
        if self.hint:
            text += f"\nHint: {self.hint}"
        return text


MAX_QUOTED_ID = 200
"""How much of a mistyped id a message quotes or compares: ids are short, hostile input is not."""


def quoted(ident: str) -> str:
    """`repr` of an id for a message, cut to `MAX_QUOTED_ID` characters."""
    if len(ident) <= MAX_QUOTED_ID:
        return repr(ident)
    return f"{ident[:MAX_QUOTED_ID]!r}… ({len(ident):,} characters)"


def closest(word: str, candidates: Iterable[str], n: int = 5) -> list[str]:
    """The closest existing ids to a mistyped one (prefix matches first, then fuzzy ones)."""
    word = word[:MAX_QUOTED_ID]
    pool = list(candidates)
    lowered = word.lower()
    prefix = sorted(c for c in pool if lowered and c.lower().startswith(lowered))[:n]
    fuzzy = difflib.get_close_matches(word, pool, n=n, cutoff=0.5)
    out: list[str] = []
    for c in [*prefix, *fuzzy]:
        if c not in out:
            out.append(c)
    return out[:n]


def not_found(kind: str, ident: str, existing: Iterable[str], list_hint: str = "") -> CatDocError:
    """`<Kind> not found: id` with the closest existing ids as suggestions."""
    suggestions = closest(ident, existing)
    hint = list_hint or f"List the existing {kind.lower()} ids and use one of them."
    return CatDocError(NOT_FOUND, f"{kind} not found: {quoted(ident)}.", hint, suggestions)
