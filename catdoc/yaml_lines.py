"""Where things are in a YAML text: lines of nodes, duplicate keys, tags, aliases, nesting.

Only error reporting calls these (yaml-rs, the loader's parser, gives no positions). Each is one
pass over libyaml's event stream through PyYAML: iterative, so any nesting depth is safe, and a
few times slower than parsing, which is paid once per reported error, never on a clean load.
Lines are 1-based; when a node cannot be found, the nearest enclosing one (or line 1) is given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

Path = tuple[Any, ...]
"""Keys and list indexes from the document's top level down to a node, as pydantic's `loc`."""

_STANDARD_TAG = "tag:yaml.org,2002:"
_INT = re.compile(r"[-+]?(0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9][0-9_]*)")
_REPLAY_DEPTH = 64
_REPLAY_EVENTS = 1_000_000
"""yaml-rs's alias limits: aliases within aliases, and events replayed in all."""


class SyntaxProblem(Exception):
    """libyaml found the text malformed at `line`."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


@dataclass
class _Frame:
    path: Path
    is_map: bool
    is_key: bool = False
    expect_key: bool = True
    key: Any = None
    index: int = 0
    keys: set[str] = field(default_factory=set)


def _events(text: str) -> Iterator[yaml.Event]:
    """libyaml's events; a syntax error ends the stream as `SyntaxProblem`."""
    import yaml  # PyYAML on first use: a file that loads cleanly never needs it

    try:
        yield from yaml.parse(text, Loader=yaml.CSafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise SyntaxProblem(mark.line + 1 if mark else 1, exc.problem or str(exc)) from None
    except yaml.YAMLError as exc:
        raise SyntaxProblem(1, str(exc)) from None


def _walk(text: str) -> Iterator[tuple[Path, yaml.NodeEvent, _Frame | None]]:
    """(path, event, enclosing frame) of every node; a mapping key comes with path None-keyed."""
    import yaml

    stack: list[_Frame] = []
    for event in _events(text):
        if isinstance(event, yaml.CollectionEndEvent):
            done = stack.pop()
            if done.is_key and stack:
                stack[-1].expect_key = False
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        parent = stack[-1] if stack else None
        is_key = False
        if parent is None:
            path: Path = ()
        elif parent.is_map and parent.expect_key:
            is_key = True
            parent.key = event.value if isinstance(event, yaml.ScalarEvent) else None
            path = (*parent.path, None)
            if not isinstance(event, yaml.CollectionStartEvent):
                parent.expect_key = False
        elif parent.is_map:
            path = (*parent.path, parent.key)
            parent.expect_key = True
        else:
            path = (*parent.path, parent.index)
            parent.index += 1
        yield path, event, parent if is_key else None
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append(_Frame(path, isinstance(event, yaml.MappingStartEvent), is_key=is_key))


def _line(event: yaml.Event) -> int:
    return int(event.start_mark.line) + 1


def _safely(scan: Iterator[int]) -> int | None:
    """The first line `scan` yields; None when it yields none; a syntax error's own line."""
    try:
        return next(scan, None)
    except SyntaxProblem as problem:
        return problem.line


def lines_of(text: str, paths: Iterable[Path]) -> list[int]:
    """The line of each path's node, or of its deepest ancestor that exists."""
    wanted = [tuple(_normal(p) for p in path) for path in paths]
    prefixes = {path[:n] for path in wanted for n in range(len(path) + 1)}
    found: dict[Path, int] = {}
    try:
        for path, event, key_of in _walk(text):
            if key_of is None and path in prefixes and path not in found:
                found[path] = _line(event)
    except SyntaxProblem:
        pass
    out = []
    for path in wanted:
        hits = [found[path[:n]] for n in range(len(path), -1, -1) if path[:n] in found]
        out.append(hits[0] if hits else 1)
    return out


def _normal(part: Any) -> Any:
    """A loc part as `_walk` spells it: list indexes as ints, mapping keys as their text."""
    if isinstance(part, int) and not isinstance(part, bool):
        return part
    return part if isinstance(part, str) else repr(type(part))


def duplicate_key(text: str) -> int:
    """The line of the first key that repeats an earlier key of the same mapping."""

    def scan() -> Iterator[int]:
        import yaml

        for _path, event, key_of in _walk(text):
            if key_of is None or not isinstance(event, yaml.ScalarEvent):
                continue
            if event.value in key_of.keys:
                yield _line(event)
            key_of.keys.add(event.value)

    return _safely(scan()) or 1


def tagged(text: str, tag: str) -> int:
    """The line of the first node carrying `tag` (`!!x` or a full tag), else of any non-standard
    tag, else of the first text mention of it."""
    full = _STANDARD_TAG + tag[2:] if tag.startswith("!!") else tag

    def scan(exact: bool) -> Iterator[int]:
        for _path, event, _key in _walk(text):
            found = getattr(event, "tag", None)
            if found and (found == full if exact else "python/" in found):
                yield _line(event)

    return _safely(scan(True)) or _safely(scan(False)) or _mention(text, tag)


def alias_overflow(text: str) -> int:
    """The line of the first alias that nests aliases too deep or replays too many events."""

    def scan() -> Iterator[int]:
        import yaml

        depth: dict[str, int] = {}
        size: dict[str, int] = {}
        open_: list[list[Any]] = []  # anchor, deepest alias nesting inside, events inside
        total = 0
        for event in _events(text):
            if isinstance(event, yaml.CollectionEndEvent):
                anchor, inner, count = open_.pop()
                if anchor:
                    depth[anchor], size[anchor] = inner, count
                _count(open_, inner, count)
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue
            if isinstance(event, yaml.CollectionStartEvent):
                open_.append([event.anchor, 0, 1])
                continue
            inner, count = 0, 1
            if isinstance(event, yaml.AliasEvent):
                inner, count = depth.get(event.anchor, 0) + 1, size.get(event.anchor, 1)
                total += count
                if inner > _REPLAY_DEPTH or total > _REPLAY_EVENTS:
                    yield _line(event)
            elif event.anchor:
                depth[event.anchor], size[event.anchor] = 0, 1
            _count(open_, inner, count)

    return _safely(scan()) or _mention(text, "*")


def _count(open_: list[list[Any]], inner: int, count: int) -> None:
    if open_:
        open_[-1][1] = max(open_[-1][1], inner)
        open_[-1][2] += count


def too_deep(text: str, bound: int) -> int | None:
    """The line where mappings and lists (aliases expanded) first nest deeper than `bound`.

    Raises `SyntaxProblem` when libyaml cannot read the text.
    """
    import yaml

    heights: dict[str, int] = {}
    open_: list[tuple[str | None, int]] = []  # anchor, height of the tallest child so far
    for event in _events(text):
        if isinstance(event, yaml.CollectionEndEvent):
            anchor, tallest = open_.pop()
            height = tallest + 1
            if anchor:
                heights[anchor] = height
            if open_:
                open_[-1] = (open_[-1][0], max(open_[-1][1], height))
            continue
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_) + 1 > bound:
                return _line(event)
            open_.append((event.anchor, 0))
            continue
        if isinstance(event, yaml.AliasEvent):
            height = heights.get(event.anchor, 0)
            if len(open_) + height > bound:
                return _line(event)
            if open_:
                open_[-1] = (open_[-1][0], max(open_[-1][1], height))
        elif isinstance(event, yaml.ScalarEvent) and event.anchor:
            heights[event.anchor] = 0
    return None


def huge_integer(text: str, digits: int) -> int:
    """The line of the first plain integer scalar of more than `digits` decimal digits."""

    def scan() -> Iterator[int]:
        import yaml

        for _path, event, _key in _walk(text):
            if not isinstance(event, yaml.ScalarEvent) or event.style or len(event.value) < 64:
                continue
            match = _INT.fullmatch(event.value)
            if match and _too_long(match.group(1).replace("_", ""), digits):
                yield _line(event)

    return _safely(scan()) or 1


def _too_long(number: str, digits: int) -> bool:
    base = {"0x": 16, "0o": 8, "0b": 2}.get(number[:2].lower())
    if base is None:
        return len(number.lstrip("0")) > digits
    return int(number[2:], base) >= 10**digits


def first_problem(text: str, detail: str) -> int:
    """For an error yaml-rs gives no position for: libyaml's error line, else the first line
    that mentions the error's quoted fragment, else 1."""
    try:
        for _event in _events(text):
            pass
    except SyntaxProblem as problem:
        return problem.line
    fragment = re.search(r"'([^']+)'", detail)
    return _mention(text, fragment.group(1)) if fragment else 1


def _mention(text: str, fragment: str) -> int:
    at = text.find(fragment) if fragment else -1
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


__all__ = [
    "SyntaxProblem",
    "alias_overflow",
    "duplicate_key",
    "first_problem",
    "huge_integer",
    "lines_of",
    "tagged",
    "too_deep",
]
