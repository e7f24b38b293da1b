"""YAML front matter: the `---` block at the top of a Markdown or text document.

Split from the rest of document handling so the markup and reference modules can read a body
without importing the whole of `catdoc.documents`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml_rs

MAX_FRONT_MATTER_DEPTH = 64
MAX_FRONT_MATTER_DIGITS = 1000
"""Front matter nested deeper, or holding an integer with more digits, is refused as bad front
matter: no real metadata looks like that, and such values break printing and hashing."""


@dataclass(frozen=True)
class FrontMatter:
    """A document split into its YAML front matter and its body.

    A broken front matter leaves `meta` empty and says why in `error`: readers (search) go on
    with the body, the importer refuses the file so no metadata is silently dropped.
    """

    meta: dict[str, Any]
    body: str
    body_start_line: int
    error: str | None = None


def normalize_newlines(text: str) -> str:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


_FM_OPEN = re.compile(r"\A\ufeff?---[ \t]*\n")
_FM_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.M)
_YAML_LINE = re.compile(r"line (\d+)")


def _bounds(text: str) -> tuple[str, tuple[int, int, int] | None]:
    """The text with its newlines normalised, and where its front matter's YAML starts and ends
    and its body starts (None without front matter): found by the `---` lines alone."""
    text = normalize_newlines(text)
    opening = _FM_OPEN.match(text)
    closing = _FM_CLOSE.search(text, opening.end()) if opening else None
    if opening is None or closing is None:
        return text, None
    end = closing.end() + (1 if text[closing.end() : closing.end() + 1] == "\n" else 0)
    return text, (opening.end(), closing.start(), end)


def split_front_matter(text: str) -> FrontMatter:
    """Split YAML front matter (between `---` lines at the very top) from the body."""
    text, bounds = _bounds(text)
    if bounds is None:
        return FrontMatter({}, text, 1)
    start, stop, end = bounds
    body, body_start = text[end:], text.count("\n", 0, end) + 1
    raw = text[start:stop]
    if not raw.strip():
        return FrontMatter({}, body, body_start)
    last = body_start - 1
    try:
        meta = yaml_rs.loads(raw)
    except yaml_rs.YAMLDecodeError as exc:
        detail = str(exc).strip()
        pos = _YAML_LINE.search(detail)
        where = f"line {int(pos.group(1)) + 1}" if pos else f"lines 1–{last}"
        reason = detail.splitlines()[-1].strip() if detail else "syntax error"
        return FrontMatter(
            {},
            body,
            body_start,
            f"front matter (lines 1–{last}) is not valid YAML at {where}: {reason}. Fix the YAML "
            "between the `---` lines (quote values that contain `: ` or start with `@`, `#`, `[`).",
        )
    except Exception as exc:  # the parser's own failures (recursion, value conversion, …)
        reason = _first_line(exc)
        return FrontMatter(
            {}, body, body_start, f"front matter (lines 1–{last}) cannot be read: {reason}."
        )
    if not isinstance(meta, dict):
        return FrontMatter(
            {},
            body,
            body_start,
            f"front matter (lines 1–{last}) must be a mapping of keys such as `title: …`, "
            f"not a {type(meta).__name__}. Write one `key: value` per line.",
        )
    problem = _unusable_value(meta)
    if problem:
        return FrontMatter(
            {},
            body,
            body_start,
            f"front matter (lines 1–{last}) {problem}. Quote the value to keep it as text, or "
            "remove it.",
        )
    return FrontMatter({str(k): v for k, v in meta.items()}, body, body_start)


def _first_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:200] if lines else type(exc).__name__


_BIG_INT = 10**MAX_FRONT_MATTER_DIGITS


def _unusable_value(meta: dict[Any, Any]) -> str | None:
    """What makes parsed front matter unsafe to use (a key or value nested too deeply, an integer
    too long to print), or None. Iterative, so depth itself cannot overflow the stack."""
    stack: list[tuple[Any, int, Any]] = [(meta, 0, None)]
    seen: set[int] = set()
    while stack:
        value, depth, top = stack.pop()
        if isinstance(value, int) and not isinstance(value, bool):
            if not -_BIG_INT < value < _BIG_INT:
                where = f" under `{top}`" if isinstance(top, str) else ""
                return f"holds an integer of more than {MAX_FRONT_MATTER_DIGITS:,} digits{where}"
            continue
        if not isinstance(value, dict | list | tuple | set | frozenset) or id(value) in seen:
            continue
        if depth >= MAX_FRONT_MATTER_DEPTH:
            return f"is nested more than {MAX_FRONT_MATTER_DEPTH} levels deep"
        seen.add(id(value))
        if isinstance(value, dict):
            pairs = [(k, k) for k in value] + [(v, k) for k, v in value.items()]
        else:
            pairs = [(item, None) for item in value]
        for child, key in pairs:
            stack.append((child, depth + 1, key if depth == 0 and isinstance(key, str) else top))
    return None


def body_lines(text: str, kind: str) -> tuple[list[str], int]:
    """The lines after any front matter (not for rst) and the 0-based file line of the first."""
    if kind == "rst":
        return normalize_newlines(text).split("\n"), 0
    text, bounds = _bounds(text)  # the body is where the `---` lines say: no YAML is parsed
    if bounds is None:
        return text.split("\n"), 0
    return text[bounds[2] :].split("\n"), text.count("\n", 0, bounds[2])
