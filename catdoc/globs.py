"""Path globs matched by one automaton, in the three dialects CatDoc reads.

A pattern compiles to a list of positions, each with its moves on a character and its empty
moves. Matching follows the set of live positions one character at a time and remembers each
(set, character) step, so once warm a path costs one dictionary look-up per character, and no
pattern (`**/**/…`, `*a*a*a…`) can make it exponential, as it can a backtracking regex. Several
patterns compile into one automaton, which matches a path when any of them does, in one walk.

The dialects, each a small compiler:

- `path_glob`, the search filter's (`--path`): `*` and `?` stay inside a folder, `**` crosses
  folders, `**/` is any number of whole folders, `[…]` a class as in fnmatch, and a pattern
  without `/` matches the file name in any folder (as in .gitignore).
- `sphinx_glob`, Sphinx's `exclude_patterns` (`sphinx.util.matching`): `**` is any text (so
  `a/**/b` is `a/`, any text, `/b`: never `a/b`), `*` and `?` stay inside a name, `[!…]` never
  matches `/`.
- `parts_glob`, the import's `--exclude`: fnmatch on each name, `**` any number of names.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

GLOB_STATES = 2_000
GLOB_RESULTS = 20_000
"""Steps (sets of positions) and answers (paths) one compiled glob remembers before it forgets
them all and starts again: memory stays bounded whatever the pattern and the paths."""

Test = Callable[[str], bool]


def _any(_: str) -> bool:
    return True


def _not_slash(ch: str) -> bool:
    return ch != "/"


def _slash(ch: str) -> bool:
    return ch == "/"


@dataclass(frozen=True)
class Position:
    """A place in a pattern: its moves on a character (a test and how many positions ahead it
    leads) and its empty moves, counted the same way (0 stays, a negative count leads back)."""

    moves: tuple[tuple[Test, int], ...] = ()
    skips: tuple[int, ...] = ()


def _one(test: Test) -> Position:
    """One character that passes `test`."""
    return Position(((test, 1),))


def _many(test: Test) -> Position:
    """Any number of characters that pass `test` (`*`, `**`)."""
    return Position(((test, 0),), (1,))


class Glob:
    """Compiled patterns: `match(path)` tells whether any of them matches the whole path, read
    after `lead` (text every path is taken to start with)."""

    def __init__(self, patterns: Iterable[Sequence[Position]], lead: str = "") -> None:
        self._moves: list[list[tuple[Test, int]]] = []
        self._skips: list[list[int]] = []
        entries: list[int] = []
        self._accept = 0
        for positions in patterns:
            entries.append(len(self._moves))
            for position in positions:
                here = len(self._moves)
                self._moves.append([(test, here + ahead) for test, ahead in position.moves])
                self._skips.append([here + ahead for ahead in position.skips])
            self._accept |= 1 << len(self._moves)
            self._moves.append([])  # the pattern's end
            self._skips.append([])
        self._closures = [self._closure(n) for n in range(len(self._moves))]
        first = 0
        for entry in entries:
            first |= self._closures[entry]
        for ch in lead:
            first = self._step(first, ch)
        self._first = first
        self._rows: dict[int, dict[str | None, Any]] = {}
        self._results: dict[str, bool] = {}
        self._start = self._row(first)

    def _closure(self, node: int) -> int:
        """The positions reachable from `node` without reading a character, as a bit set."""
        reached, todo = 0, [node]
        while todo:
            n = todo.pop()
            if not reached >> n & 1:
                reached |= 1 << n
                todo += self._skips[n]
        return reached

    def _step(self, state: int, ch: str) -> int:
        out, rest = 0, state
        while rest:
            low = rest & -rest
            rest ^= low
            for test, target in self._moves[low.bit_length() - 1]:
                if test(ch):
                    out |= self._closures[target]
        return out

    def _row(self, state: int) -> dict[str | None, Any]:
        """The step table of a set of positions: character → next table, filled as paths need
        it; under "" the set itself (0: nothing can match any more), under None whether it holds
        the end of a pattern. When full, every table is dropped (tables link to each other,
        so a fresh start table is made too)."""
        row = self._rows.get(state)
        if row is None:
            if len(self._rows) >= GLOB_STATES:
                self._rows = {}
                self._start = self._row(self._first)
            row = self._rows[state] = {"": state, None: bool(state & self._accept)}
        return row

    def match(self, path: str) -> bool:
        known = self._results.get(path)
        if known is None:
            known = self._run(path)
            if len(self._results) >= GLOB_RESULTS:
                self._results.clear()
            self._results[path] = known
        return known

    def _run(self, path: str) -> bool:
        row = self._start
        for ch in path:
            following = row.get(ch)
            if following is None:
                following = row[ch] = self._row(self._step(row[""], ch))
            if not following[""]:
                return False
            row = following
        return bool(row[None])


def _class_end(text: str, i: int) -> int:
    """Where the class opened by the `[` before `text[i]` ends (its `]`), or -1: a `!` first,
    then a `]` first, are the class's own, as fnmatch and Sphinx read them."""
    j = i + (text[i : i + 1] == "!")
    j += text[j : j + 1] == "]"
    return text.find("]", j)


def _fnmatch_class(chunk: str) -> Test:
    """The test of a character class `[…]`, as fnmatch reads it."""
    regex = re.compile(fnmatch.translate(chunk))
    return lambda ch: regex.match(ch) is not None


def path_glob(pattern: str) -> Glob:
    """The search filter's glob (see module doc). `[]` and `[!]` are no classes: fnmatch reads
    them as plain characters."""
    pattern = pattern.strip()
    if pattern.startswith("./"):
        pattern = pattern[2:]
    if "/" not in pattern:
        pattern = "**/" + pattern
    positions: list[Position] = []
    i = 0
    while i < len(pattern):
        char, end = pattern[i], pattern.find("]", i + 1)
        if pattern.startswith("**/", i):
            positions += [Position(skips=(1, 2)), Position(((_any, 0), (_slash, 1)))]
            i += 3
        elif pattern.startswith("**", i):
            positions.append(_many(_any))
            i += 2
        elif char == "*":
            positions.append(_many(_not_slash))
            i += 1
        elif char == "?":
            positions.append(_one(_not_slash))
            i += 1
        elif char == "[" and end != -1 and pattern[i + 1 : end] not in ("", "!"):
            positions.append(_one(_fnmatch_class(pattern[i : end + 1])))
            i = end + 1
        else:
            positions.append(_one(char.__eq__))
            i += 1
    return Glob([positions])


def sphinx_glob(patterns: Iterable[str], *, below: bool = False) -> Glob:
    """Sphinx's `exclude_patterns`, each as `sphinx.util.matching._translate_pattern` reads it
    (see module doc); `below`: matching the path or a folder above it, as Sphinx does not enter
    a folder a pattern matches."""
    suffix = [Position(((_slash, 1),), (2,)), _many(_any)] if below else []  # (/.*)?
    return Glob(_sphinx_positions(pattern) + suffix for pattern in patterns)


def _sphinx_positions(glob: str) -> list[Position]:
    """Sphinx's `_translate_pattern` as positions: `**` any text, `*` and `?` within a name,
    `[…]` a class (`[!…]` never `/`). A class that is no valid one makes the whole pattern
    literal, as Sphinx's regular expression would fail to compile."""
    out: list[Position] = []
    i, n = 0, len(glob)
    while i < n:
        char = glob[i]
        i += 1
        if char == "*" and glob[i : i + 1] == "*":
            i += 1
            out.append(_many(_any))
        elif char == "*":
            out.append(_many(_not_slash))
        elif char == "?":
            out.append(_one(_not_slash))
        elif char == "[":
            j = _class_end(glob, i)
            if j < 0:
                out.append(_one("[".__eq__))
                continue
            inner = glob[i:j].replace("\\", "\\\\").replace("[", "\\[")
            i = j + 1
            inner = (
                "^/" + inner[1:] if inner[0] == "!" else "\\" + inner if inner[0] == "^" else inner
            )
            try:
                regex = re.compile(f"[{inner}]")
            except re.error:
                return [_one(c.__eq__) for c in glob]
            out.append(_one(lambda ch, r=regex: r.fullmatch(ch) is not None))
        else:
            out.append(_one(char.__eq__))
    return out


def parts_glob(patterns: Iterable[str]) -> Glob:
    """The import's exclude patterns, matching a path or a folder above it: each name matched
    by one pattern part as fnmatch matches it, `**` any number of names. Every name is read
    after a `/` (the lead), so `**` stands for whole `/name` runs, none included."""
    return Glob(([*_parts_positions(pattern), *_any_parts()] for pattern in patterns), lead="/")


def _any_parts() -> list[Position]:
    """`**` as a part: any number of `/name`."""
    return [Position(((_slash, 1),), (2,)), Position(((_not_slash, 0),), (-1,))]


def _parts_positions(pattern: str) -> list[Position]:
    """A pattern's positions; a run of `*` in a name is one `*`, and `**` parts in a row are
    one, as they match the same: each empty move would otherwise lead to every later one of the
    run, a number of moves that grows with the square of its length."""
    out: list[Position] = []
    previous = None
    for part in pattern.split("/"):
        if part == "**":
            if previous != "**":
                out += _any_parts()
            previous = part
            continue
        previous = part
        out.append(_one(_slash))
        i, n = 0, len(part)
        while i < n:
            char = part[i]
            i += 1
            if char == "*":
                out.append(_many(_not_slash))
                while i < n and part[i] == "*":
                    i += 1
            elif char == "?":
                out.append(_one(_not_slash))
            elif char == "[":
                j = _class_end(part, i)
                if j < 0:
                    out.append(_one("[".__eq__))
                    continue
                test = _fnmatch_class(part[i - 1 : j + 1])
                out.append(_one(lambda ch, t=test: ch != "/" and t(ch)))
                i = j + 1
            else:
                out.append(_one(char.__eq__))
    return out
