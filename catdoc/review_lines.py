"""The one-stamp-per-line layout CatDoc writes in `reviews.yaml`, read without a YAML parser.

A YAML parser and the checks of each value take seconds over a 70,000-stamp file; matched line
by line against the grammar CatDoc writes, the same file takes a fifth of a second, so a fresh
checkout (no cache yet) answers `catdoc suspects` quickly. The grammar admits only plain or
double-quoted scalars that every YAML reader takes as the same text. Anything else (a layout
written by hand, a comment after a stamp, a scalar a YAML reader turns into a date, a boolean or
null, a repeated key, a fingerprint too long) makes `read` answer None and the caller parses the
file as YAML, which also reports what is wrong. On every file this reader accepts, both ways
give the same stamps (`tests/test_review_lines.py` checks it on generated and mutated files).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass
from typing import Any

import yaml_rs

_RESERVED = r"(?!(?i:true|false|yes|no|on|off|null|y|n)(?![\w.\-/+]|:[\w.\-/+]))"
"""Not a plain scalar YAML reads as a boolean or null (CatDoc quotes these; a hand edit may
not)."""
_PLAIN = rf"{_RESERVED}[A-Za-z_][\w.\-/+]*+(?::[\w.\-/+]++)*+"
_BAD = r'\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff"\\'
_NOT_A_DATE = r"(?!\d{4}-)"
_KEY = rf'(?:{_PLAIN}|"{_NOT_A_DATE}[^{_BAD}]*+")'
_ID = rf'(?:{_PLAIN}|"{_NOT_A_DATE}[^{_BAD}\s,:]*+")'
_PRINT = rf'(?:{_RESERVED}[A-Za-z_][\w\-]{{0,63}}+|"{_NOT_A_DATE}[\w\-]{{1,64}}+")'
_TEXT = rf'(?:{_PLAIN}|"[^{_BAD}]*+")'
_ENDS = rf"(?:{_ID}: {_PRINT}(?:, {_ID}: {_PRINT})*+)?+"
_LINE = re.compile(
    rf"  ({_KEY}): \{{source: \{{({_ENDS})\}}, target: \{{({_ENDS})\}}"
    rf"(?:, by: ({_TEXT}))?(?:, at: ({_TEXT}))?\}}"
)
_PAIR = re.compile(rf"({_ID}): ({_PRINT})")
_TOP = ("version: 1", "stamps:", "stamps: {}")


@dataclass(frozen=True, slots=True)
class Lines:
    """The stamps of a file in CatDoc's layout: per link key, the `signature` of its ends
    (`catdoc.reviews.signature`) and its line, parsed into a stamp only when asked."""

    signatures: dict[str, str]
    lines: dict[str, str]


def read(text: str) -> Lines | None:
    """The stamps of `text` when every line is in CatDoc's layout; None to parse it as YAML."""
    if "\0" in text or "\r" in text or "\t" in text or text.startswith("\ufeff"):
        return None
    signatures: dict[str, str] = {}
    lines: dict[str, str] = {}
    seen: set[str] = set()  # the top-level lines met (`version: 1`, `stamps:`)
    body = False  # in the block under `stamps:`
    match = _LINE.fullmatch
    for line in text.split("\n"):
        found = match(line) if body else None
        if found is None:
            if not line.strip(" ") or line.lstrip(" ").startswith("#"):
                continue
            top = line.removesuffix(" {}")
            if (body and line.startswith("  ")) or top in seen or line not in _TOP:
                return None
            seen.add(top)
            body = line == "stamps:"
            continue
        key, source, target = found.group(1, 2, 3)
        if key[0] == '"':
            key = key[1:-1]
        if (
            key in lines
            or (", " in source and _repeats(source))
            or (", " in target and _repeats(target))
        ):
            return None
        ends = source + "\x1d" + target
        signatures[key] = ends.replace('"', "").replace(": ", "\x1e").replace(", ", "\x1f")
        lines[key] = line
    return Lines(signatures, lines)


def _repeats(ends: str) -> bool:
    """Whether an end of several documents names one twice (a YAML reader refuses the repeated
    key). The grammar keeps `, `, `: ` and `"` out of ids and fingerprints, so splitting on them
    is exact."""
    pairs = ends.split(", ")
    if len(pairs) == 2:  # the usual case: a morphism's two ends
        first, second = pairs
        return first[: first.index(": ")].strip('"') == second[: second.index(": ")].strip('"')
    ids = [pair[: pair.index(": ")].strip('"') for pair in pairs]
    return len(set(ids)) != len(ids)


def stamp_fields(
    line: str,
) -> tuple[dict[str, str], dict[str, str], str | None, str | None]:
    """(source, target, by, at) of a line `read` accepted."""
    found = _LINE.fullmatch(line)
    if found is None:
        raise ValueError(f"not a stamp line in CatDoc's layout: {line!r}")
    source, target, by, at = found.group(2, 3, 4, 5)
    return (
        {_unquoted(k): _unquoted(v) for k, v in _PAIR.findall(source)},
        {_unquoted(k): _unquoted(v) for k, v in _PAIR.findall(target)},
        None if by is None else _text(by),
        None if at is None else _text(at),
    )


def _unquoted(scalar: str) -> str:
    return scalar[1:-1] if scalar[0] == '"' else scalar


@functools.lru_cache(maxsize=256)
def _text(scalar: str) -> str:
    """A `by` or `at` value as the YAML way reads it: there a date-like scalar, even a quoted
    one, becomes a date, which `as_text` writes back (`2026-11-23 09:08:16` as `…T09:08:16`)."""
    if not re.match(r'"\d{4}-', scalar):
        return _unquoted(scalar)
    return str(as_text(yaml_rs.loads(f"v: {scalar}\n")["v"]))


def as_text(value: Any) -> Any:
    """A date or time as the text CatDoc writes for it (`2026-11-23T05:18:00Z`); else `value`.
    The YAML reader turns timestamp-like scalars, even quoted ones, into dates."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None and value.utcoffset() == dt.timedelta(0):
            return value.replace(tzinfo=None).isoformat() + "Z"
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value
