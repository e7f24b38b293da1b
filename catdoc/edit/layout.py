"""Where the entries of a block-style model file are, found from its lines alone.

Composing a 5 MB model with libyaml takes seconds (its node tree is built in Python), and an edit
only needs to know where each entry of `categories`, `functors` and `naturalTransformations`
starts and ends, and inside a category, where each object and morphism does. In block style
that follows from indentation: an item of a list at indent n is a line `- …` at exactly column
n, and nothing inside an item (nested keys, block scalars, continuation lines) can stand at
column n or left of it.

The scan is only a proposal: an entry file checks that each entry it hands out reads back as the
data the file holds there, and that the edited text parses to what the edit meant; anything this
scan gets wrong (or declines, raising `Unfit`) is edited through a whole-file round trip instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import accumulate

_ITEM = re.compile(r"( *)- ?")
_KEY = re.compile(r"( *)([A-Za-z_][\w]*)[ \t]*:(?:[ \t]+(#.*)?)?[ \t]*$")
"""A key with nothing but a comment after the colon: the start of a block value."""
_EMPTY = re.compile(r"( *)([A-Za-z_][\w]*)[ \t]*:([ \t]*\[[ \t]*\])[ \t]*(?:#.*)?$")
"""A key whose value is an empty flow list (`functors: []`, as `catdoc init` writes)."""
_ANY_KEY = re.compile(r"( *)([A-Za-z_][\w]*)[ \t]*:")
_ID = re.compile(
    r"(?:- +)?\{?[ \t]*id:[ \t]*"
    r"(\"[^\"\\]*\"|'(?:[^']|'')*'|[^\s,}#'\"&*!|>][^,}#]*?)[ \t]*(?:[,}]|#|$)"
)
"""`id: value` on an item's first line (block or flow) or among its keys; plain or simply quoted."""


class Unfit(Exception):
    """The text cannot be cut into entries by its lines."""


@dataclass(frozen=True)
class Opening:
    """Where the first items of a list that has none go: `drop` (start, stop) is the `[]` to
    take away (empty when there is none), the items go at `at` after `lead` (the key line of a
    list the entry lacks so far)."""

    drop: tuple[int, int]
    at: int
    lead: str = ""

    def edits(self, items: str) -> list[tuple[int, int, str]]:
        """(start, stop, new text) that give the list these items' text."""
        start, stop = self.drop
        opened = (self.at, self.at, self.lead + items)
        return [(start, stop, ""), opened] if stop > start else [opened]


@dataclass(frozen=True)
class Cut:
    """Where the items of one block list are: `starts[i]`…`ends[i]` is item i's text (from the
    start of its line), `indent` the column of its `-`, `ids` the items' ids.

    Blank lines and comments at or left of the `-` after an item belong to the gap before the
    next one (typically a heading comment for it): they are outside every item, so they stay
    where they are whatever happens to the items around them.
    """

    starts: list[int]
    ends: list[int]
    indent: int
    ids: list[str]
    subs: list[dict[str, Cut]] = field(default_factory=list)
    """Per item, the cuts of its nested lists (for categories: `objects`, `morphisms`)."""
    opening: Opening | None = None
    """For a list with no items yet (`key: []`, `key:` alone, or a key its entry lacks)."""

    @property
    def end(self) -> int:
        """Where the last item's own text ends: new items go there."""
        return self.ends[-1]


@dataclass(frozen=True)
class _Lines:
    text: str
    offsets: list[int]  # offset of each line's start, plus len(text) at the end
    lines: list[str]  # without line ends
    marks: list[bool]  # whether each line holds more than blanks and a comment
    indents: list[int]  # each line's leading spaces

    @classmethod
    def of(cls, text: str) -> _Lines:
        """The lines, each one's start, meaning and indent found once (a 100,000-object
        model has 1.6 million lines, looked at several times each)."""
        lines = text.split("\n")
        offsets = [0, *accumulate(len(line) + 1 for line in lines)]
        offsets[-1] = len(text)
        marks = [bool(body) and body[0] != "#" for body in map(str.strip, lines)]
        indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        return cls(text, offsets, lines, marks, indents)

    def meaningful(self, number: int) -> bool:
        return self.marks[number]

    def indent(self, number: int) -> int:
        return self.indents[number]


def cut_file(
    text: str, sections: tuple[str, ...], nested: dict[str, tuple[str, ...]]
) -> dict[str, Cut]:
    """The cut of each top-level block list named in `sections` (absent ones are left out);
    `nested[section]` names the lists inside its items to cut too."""
    if text.startswith(("%", "---")) or "\r" in text or "\t" in text:
        raise Unfit  # directives, several documents, CR line ends or tabs: not worth the risk
    doc = _Lines.of(text)
    keys: dict[str, int] = {}
    for number, line in enumerate(doc.lines):
        if not doc.meaningful(number) or line[0] == " " or line[0] == "-":
            continue  # indented lines, and items of an indentless list, belong to a key above
        if line.startswith(("[", "{", "?", "...", "&", "!", "*", '"', "'")):
            raise Unfit  # not a plain top-level mapping of simple keys
        match = _KEY.fullmatch(line)
        name = match.group(2) if match else line.split(":", 1)[0].strip()
        if name in keys:
            raise Unfit
        keys[name] = number if match or _EMPTY.fullmatch(line) else -1
    cuts: dict[str, Cut] = {}
    for name in sections:
        if name not in keys:
            continue
        start = keys[name]
        if start < 0:
            raise Unfit  # a section written in flow style
        stop = next(
            (
                n
                for n in range(start + 1, len(doc.lines))
                if doc.meaningful(n) and doc.indent(n) == 0 and not doc.lines[n].startswith("-")
            ),
            len(doc.lines),
        )
        empty = _empty(doc, start, stop, 2)
        cuts[name] = empty or _cut_list(doc, start + 1, stop, nested.get(name, ()))
    return cuts


def _empty(doc: _Lines, key: int, stop: int, indent: int) -> Cut | None:
    """The cut of the list of the key on line `key` when it has no items yet (`key: []`, or
    `key:` with nothing up to line `stop`); its items will stand at column `indent`."""
    flow = _EMPTY.fullmatch(doc.lines[key])
    if flow is None and (
        not _KEY.fullmatch(doc.lines[key]) or any(doc.meaningful(n) for n in range(key + 1, stop))
    ):
        return None
    start = doc.offsets[key]
    drop = (start + flow.start(3), start + flow.end(3)) if flow else (start, start)
    at = doc.offsets[key + 1]
    lead = "\n" if at == len(doc.text) and not doc.text.endswith("\n") else ""
    return Cut([], [], indent, [], opening=Opening(drop, at, lead))


def cut_dumped(text: str) -> Cut:
    """The cut of the one list a freshly dumped `key:\\n  - item` document holds."""
    doc = _Lines.of(text)
    return _cut_list(doc, 1, len(doc.lines), ())


def _cut_list(doc: _Lines, first: int, stop: int, nested: tuple[str, ...]) -> Cut:
    """The items of the block list on lines `first` up to `stop` (exclusive)."""
    marks, indents = doc.marks, doc.indents
    lines = [n for n in range(first, stop) if marks[n]]
    if not lines:
        raise Unfit
    item = _ITEM.match(doc.lines[lines[0]])
    if item is None:
        raise Unfit
    indent = len(item.group(1))
    starts: list[int] = []
    for n in lines:
        column = indents[n]
        if column < indent:
            raise Unfit
        if column == indent:
            if not _ITEM.match(doc.lines[n]) or doc.lines[n][indent] != "-":
                raise Unfit
            starts.append(n)
    bounds = [*starts[1:], stop]
    ids = [_item_id(doc, start, end, indent) for start, end in zip(starts, bounds, strict=True)]
    if len(set(ids)) != len(ids):
        raise Unfit  # duplicate ids: leave the choice of entry to the whole-file edit
    ends = [
        _without_gap(doc, start, end, indent) for start, end in zip(starts, bounds, strict=True)
    ]
    subs = [_nested(doc, start, end, nested) for start, end in zip(starts, ends, strict=True)]
    return Cut(
        [doc.offsets[n] for n in starts],
        [doc.offsets[n] for n in ends],
        indent,
        ids,
        subs if nested else [],
    )


def _item_id(doc: _Lines, start: int, end: int, indent: int) -> str:
    """The `id:` of the item on lines `start`…`end`: on its first line or as one of its keys."""
    first = doc.lines[start][indent:]
    match = _ID.match(first.strip())
    if match:  # the usual `- id: …`: the other lines need no look
        return _scalar(match.group(1))
    key_indent = indent + len(first) - len(first[1:].lstrip(" ")) if first.strip() != "-" else None
    marks, indents = doc.marks, doc.indents
    for n in range(start + 1, end):
        if marks[n] and indents[n] == key_indent:
            match = _ID.match(doc.lines[n][key_indent:].strip())
            if match:
                return _scalar(match.group(1))
    raise Unfit


def _scalar(raw: str) -> str:
    raw = raw.strip()
    if raw.startswith('"'):
        return raw[1:-1]
    if raw.startswith("'"):
        return raw[1:-1].replace("''", "'")
    return raw


def _nested(doc: _Lines, start: int, end: int, names: tuple[str, ...]) -> dict[str, Cut]:
    """The cuts of the lists `names` among the keys of the item on lines `start`…`end`; a list
    the item lacks is cut as empty, to be opened at the item's end."""
    out: dict[str, Cut] = {}
    column = _key_column(doc, start, end) if names else None
    if column is None:
        return out
    present: dict[str, int] = {}
    marks, indents = doc.marks, doc.indents
    for n in range(start, end):
        if n == start or (marks[n] and indents[n] == column):
            key = _ANY_KEY.match(doc.lines[n], column)
            if key is not None and not key.group(1):
                present.setdefault(key.group(2), n)
    for name in names:
        n = present.get(name)
        if n is None:
            at = doc.offsets[end]
            lead = "\n" if at == len(doc.text) and not doc.text.endswith("\n") else ""
            opening = Opening((at, at), at, f"{lead}{' ' * column}{name}:\n")
            out[name] = Cut([], [], column + 2, [], opening=opening)
            continue
        if n == start:
            continue  # a list on the item's first line: left to the entry's round trip
        stop = next(
            (
                m
                for m in range(n + 1, end)
                if doc.meaningful(m)
                and (
                    doc.indent(m) < column
                    or (doc.indent(m) == column and doc.lines[m][column] != "-")
                )
            ),
            end,
        )
        cut = _empty(doc, n, stop, column + 2)
        if cut is None and _KEY.fullmatch(doc.lines[n]):
            try:
                cut = _cut_list(doc, n + 1, stop, ())
            except Unfit:
                continue
        if cut is not None:
            out[name] = cut
    return out


def _key_column(doc: _Lines, start: int, end: int) -> int | None:
    """The column of the keys of the item on lines `start`…`end`, or None when the item is not
    a block mapping (a flow mapping, a scalar …)."""
    dash = doc.indent(start)
    rest = doc.lines[start][dash + 1 :]
    first: int | None = start
    if rest.strip() and not rest.lstrip().startswith("#"):
        column = dash + 1 + len(rest) - len(rest.lstrip(" "))
    else:
        first = next((n for n in range(start + 1, end) if doc.meaningful(n)), None)
        if first is None:
            return None
        column = doc.indent(first)
    key = _ANY_KEY.match(doc.lines[first], column) if column > dash else None
    return column if key is not None and not key.group(1) else None


def _without_gap(doc: _Lines, start: int, stop: int, indent: int) -> int:
    """`stop` moved back over the blank lines and outdented comments that end an item."""
    while stop - 1 > start:
        line = doc.lines[stop - 1]
        body = line.strip()
        if body and not (body.startswith("#") and doc.indent(stop - 1) <= indent):
            break
        stop -= 1
    return stop


__all__ = ["Cut", "Unfit", "cut_dumped", "cut_file"]
