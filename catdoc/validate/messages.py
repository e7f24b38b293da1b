"""How findings spell paths and path specs, and suggest the id that was probably meant."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from catdoc.model import PathSpec, as_path
from catdoc.paths import Path


def _fmt(path: Path) -> str:
    return f"[{', '.join(path.steps)}]" if path.steps else f"[] (identity of {path.source})"


def _spec(spec: PathSpec) -> str:
    steps = as_path(spec)
    return steps[0] if isinstance(spec, str) else f"[{', '.join(steps)}]"


def _did_you_mean(word: str, pool: Iterable[str]) -> str:
    match = difflib.get_close_matches(word, list(pool), n=1, cutoff=0.6)
    return f" Did you mean {match[0]!r}?" if match else ""


def _listed(items: list[str]) -> str:
    """The first ten items, comma-separated, with `…` when there are more."""
    return ", ".join(items[:10]) + (" …" if len(items) > 10 else "")
