"""Reading model and config YAML safely: bounded size, nesting and integers, merge keys resolved,
and a `file:line` for every load error.

yaml-rs parses (fast, no positions). Lines are found only when an error is reported, by one pass
over PyYAML's libyaml event stream (`yaml_lines`), so the happy path pays for none of it. The
one check that must run before yaml-rs is nesting: yaml-rs recurses natively and crashes the
process at about ten thousand levels, so text with a very deep line is measured first.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml_rs

from catdoc import yaml_lines
from catdoc.errors import LOAD_ERROR, CatDocError

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest model or config file read (64 MiB); split larger models into `categories/*.yaml`."""
MAX_NESTING = 64
"""Deepest nesting of mappings and lists in a file (the document's top level counts as 1)."""
MAX_INT_DIGITS = 4300
"""Longest integer accepted, in decimal digits (Python's own conversion limit)."""

_INT_BOUND = 10**MAX_INT_DIGITS
_DEEP_LINE = re.compile(rf"\n[ ?:-]{{{2 * MAX_NESTING}}}")
"""A line indented this far may hide nesting deep enough to overflow the native parser. (A
leading newline in the pattern lets the regex engine skip ahead: 8 ms on a 5 MB model, not 160.)"""
_YAML_ERROR_POS = re.compile(r"line (\d+), column (\d+)")
_MERGE = "<<"
_SPLIT_HINT = (
    "Split the model into several files under .catdoc/categories/ (same top-level shape as "
    "category.yaml; they are merged on load)."
)


def load_error(where: str, message: str, hint: str) -> CatDocError:
    return CatDocError(LOAD_ERROR, f"{where}: {message}", hint)


def read_text(path: Path, rel: str) -> str:
    """The file's text (see `decoded`); refused before reading when over `MAX_FILE_BYTES`."""
    return decoded(read_data(path, rel), rel)


def read_data(path: Path, rel: str) -> bytes:
    """The file's bytes; refused before reading when over `MAX_FILE_BYTES`."""
    try:
        with path.open("rb") as handle:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise _too_big(rel, size)
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise load_error(
            f"{rel}:1", f"cannot read ({exc.strerror}).", "Check the file's permissions."
        ) from None
    if len(data) > MAX_FILE_BYTES:
        raise _too_big(rel, len(data))
    return data


def decoded(data: bytes, rel: str) -> str:
    """`data` as UTF-8 text without the byte order mark it may start with (an editor's, which
    would otherwise be part of the first key); anything else is refused at the line where it
    stops being so, and so is a NUL byte, which YAML forbids (the parser would cut the value
    at it)."""
    nul = data.find(b"\0")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise load_error(
            f"{rel}:{line}",
            "the line holds a NUL byte (character 0), which YAML does not allow.",
            "Remove the NUL byte from that line (editors show it as ^@ or \\0).",
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise load_error(
            f"{rel}:{line}", f"not UTF-8 text ({exc.reason}).", "Save the file as UTF-8."
        ) from None
    return text.removeprefix(BOM)


BOM = "\ufeff"
"""The byte order mark some editors put at the start of a UTF-8 file."""


def check_size(path: Path, rel: str) -> None:
    """Refuse a file over `MAX_FILE_BYTES` by its size alone, before anything reads it."""
    try:
        size = path.stat().st_size
    except OSError:
        return  # reading it reports the problem
    if size > MAX_FILE_BYTES:
        raise _too_big(rel, size)


def _too_big(rel: str, size: int) -> CatDocError:
    return load_error(
        f"{rel}:1",
        f"the file is {size / 2**20:.1f} MiB; CatDoc reads model and config files of at most "
        f"{MAX_FILE_BYTES // 2**20} MiB.",
        _SPLIT_HINT,
    )


def parse(text: str, rel: str) -> Any:
    """The YAML data of `text` with merge keys resolved; bad input raises LOAD_ERROR at a line."""
    if not text.strip():
        return None
    if may_nest_deep(text):
        _refuse_deep(text, rel)
    try:
        data = yaml_rs.loads(text)
    except yaml_rs.YAMLDecodeError as exc:
        raise _decode_error(text, rel, str(exc)) from None
    if _MERGE in text:
        data = _resolve_merges(data, text, rel)
    return data


def may_nest_deep(text: str) -> bool:
    """Whether a line of `text` is indented far enough to hide nesting past `MAX_NESTING`:
    only then is the nesting measured."""
    return bool(_DEEP_LINE.match("\n" + text[: 2 * MAX_NESTING]) or _DEEP_LINE.search(text))


def _refuse_deep(text: str, rel: str) -> None:
    try:
        line = yaml_lines.too_deep(text, MAX_NESTING)
    except yaml_lines.SyntaxProblem as problem:
        raise _syntax(f"{rel}:{problem.line}", problem.reason) from None
    if line is not None:
        raise _nesting_error(rel, line)


def _nesting_error(rel: str, line: int) -> CatDocError:
    return load_error(
        f"{rel}:{line}",
        f"mappings and lists are nested more than {MAX_NESTING} deep here.",
        "Flatten the data (for example, keep deep structures in a document file and point to "
        "it with `path`).",
    )


def _syntax(where: str, reason: str) -> CatDocError:
    return load_error(
        where,
        f"YAML syntax error: {reason}",
        "Fix the YAML at that position (check indentation, brackets and quotes).",
    )


def _decode_error(text: str, rel: str, detail: str) -> CatDocError:
    """yaml-rs's error, at the line it names or else the line `yaml_lines` finds for it."""
    reason = detail.strip().splitlines()[-1].strip() if detail.strip() else "syntax error"
    pos = _YAML_ERROR_POS.search(detail)
    if pos:
        return _syntax(f"{rel}:{pos.group(1)}:{pos.group(2)}", reason)
    if "duplicate mapping key" in detail:
        line = yaml_lines.duplicate_key(text)
        return load_error(
            f"{rel}:{line}",
            f"{reason}; a key may appear once per mapping.",
            "Remove or rename one of the two keys (merge them into one entry if both are meant).",
        )
    if "tag" in detail.lower():
        tag = re.search(r"'(!![^']*)'", detail)
        line = yaml_lines.tagged(text, tag.group(1) if tag else "")
        if "invalid tag" not in detail.lower():
            return load_error(
                f"{rel}:{line}", f"{reason}.", "Fix the value, or remove the tag in front of it."
            )
        return load_error(
            f"{rel}:{line}",
            f"{reason}. CatDoc reads plain YAML data only; language-specific tags "
            "(such as !!python/...) are refused.",
            "Remove the tag and write the value as plain YAML.",
        )
    if "alias" in detail:
        line = yaml_lines.alias_overflow(text)
        return load_error(
            f"{rel}:{line}",
            f"{reason}: aliases (*name) expand too far or too deep.",
            "Write the data out instead of nesting aliases within aliases.",
        )
    return _syntax(f"{rel}:{yaml_lines.first_problem(text, detail)}", reason)


def _resolve_merges(data: Any, text: str, rel: str) -> Any:
    """Apply YAML merge keys (`<<: *base`, `<<: [*a, *b]`): explicit keys win, then sources
    in order. Inner mappings first, so a merged source is itself already merged."""
    order: list[tuple[dict[Any, Any], tuple[Any, ...]]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            if _MERGE in node:
                order.append((node, path))
            stack.extend((v, (*path, k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(node))
    for node, path in reversed(order):
        if _MERGE not in node:
            continue  # the same mapping reached twice (an alias parsed as a shared object)
        sources = node.pop(_MERGE)
        if isinstance(sources, dict):
            sources = [sources]
        if not isinstance(sources, list) or not all(isinstance(s, dict) for s in sources):
            line = yaml_lines.lines_of(text, [(*path, _MERGE)])[0]
            raise load_error(
                f"{rel}:{line}",
                "a merge key `<<` must name a mapping or a list of mappings "
                f"(got {type(sources).__name__}).",
                "Write `<<: *anchor` or `<<: [*a, *b]`, where each anchor marks a mapping.",
            )
        merged: dict[Any, Any] = {}
        for source in reversed(sources):
            merged.update(source)
        merged.update(node)
        node.clear()
        node.update(merged)
    return data


def shown(value: Any, limit: int = 80) -> str:
    """`value` as short text for a message: safe for huge integers and deep structures."""
    if type(value) is int and not -_INT_BOUND < value < _INT_BOUND:
        return f"<an integer of more than {MAX_INT_DIGITS} digits>"
    if not isinstance(value, str | int | float | bool | None):
        return f"<a {type(value).__name__}>"
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "…"


def check_values(value: Any, level: int) -> str | None:
    """'depth' or 'integer' when free-form `value`, standing at nesting `level`, breaks a bound.

    Iterative, so any depth is safe to measure; small flat values (the usual metadata) cost a
    loop over their items.
    """
    stack = [(value, level)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            items: Any = [*node.keys(), *node.values()]
        elif isinstance(node, list | tuple | set | frozenset):
            items = node
        else:
            if type(node) is int and not -_INT_BOUND < node < _INT_BOUND:
                return "integer"
            continue
        if depth + 1 > MAX_NESTING:
            return "depth"
        stack.extend((item, depth + 1) for item in items)
    return None


def value_error(text: str, rel: str, problem: str) -> CatDocError:
    """The LOAD_ERROR for a value `check_values` (or pydantic, for an integer) refused."""
    if problem == "depth":
        try:
            line = yaml_lines.too_deep(text, MAX_NESTING) or 1
        except yaml_lines.SyntaxProblem as syntax:
            line = syntax.line
        return _nesting_error(rel, line)
    line = yaml_lines.huge_integer(text, MAX_INT_DIGITS)
    return load_error(
        f"{rel}:{line}",
        f"an integer here has more than {MAX_INT_DIGITS} digits.",
        "Write a shorter number, or quote it to keep it as text.",
    )


__all__ = [
    "MAX_FILE_BYTES",
    "MAX_INT_DIGITS",
    "MAX_NESTING",
    "check_size",
    "check_values",
    "load_error",
    "parse",
    "read_text",
    "shown",
    "value_error",
]
