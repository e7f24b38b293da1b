"""One model file opened for editing, entry by entry, keeping every untouched byte.

A round trip of a whole file through ruamel.yaml keeps comments and key order but is pure Python:
about 12 s for a 1 MB `category.yaml`. An edit usually touches one or two entries of the
top-level lists (`categories`, `functors`, `naturalTransformations`), so libyaml finds where each
entry starts and ends, only the touched entries go through the round trip (each as a small
document of its own), and their new text replaces the old.

The result is trusted only when it parses to exactly the data the edit meant; a file whose shape
does not allow the cut (flow style, entries sharing lines, aliases between entries …) or that
fails the check is edited whole instead, with the same data as the outcome.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

import yaml
import yaml_rs
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from catdoc.errors import LOAD_ERROR, CatDocError

SECTIONS = ("categories", "functors", "naturalTransformations")
_ITEM_LEAD = re.compile(r"[ ]*-[ ]+")


def roundtrip_yaml() -> YAML:
    """A ruamel.yaml instance that round-trips comments, key order and quoting."""
    rt = YAML()
    rt.preserve_quotes = True
    rt.indent(mapping=2, sequence=4, offset=2)
    rt.width = 4096
    return rt


@dataclass(frozen=True)
class _Cut:
    """Where the entries of one top-level block sequence are: `starts[i]`…`ends[i]` is entry i's
    text (from the start of its line), `indent` the column of its `-`.

    Blank lines and comments at or left of the `-` after an entry belong to the gap before the
    next one (typically a heading comment for it): they are outside every entry, so they stay
    where they are whatever happens to the entries around them.
    """

    starts: list[int]
    ends: list[int]
    indent: int
    ids: list[str | None]

    @property
    def end(self) -> int:
        """Where the last entry's own text ends: new entries go there."""
        return self.ends[-1]


class _Unfit(Exception):
    """The file cannot be edited entry by entry as it is."""


@dataclass
class _Entry:
    section: str
    index: int | None  # position in the file's section; None for an appended entry
    node: Any
    removed: bool = False
    original: Any = None  # the entry's data when handed out; unchanged entries keep their text

    def __post_init__(self) -> None:
        if self.original is None:
            self.original = _plain(self.node)

    @property
    def changed(self) -> bool:
        return self.removed or self.index is None or _plain(self.node) != self.original


@dataclass
class EntryFile:
    """A model file being edited. Entries are handed out as ruamel nodes to change in place;
    `render` gives the new text (None when nothing changed)."""

    rel: str
    text: str
    _cuts: dict[str, _Cut] | None = None
    _whole: Any = None
    _entries: dict[tuple[str, str], _Entry] = field(default_factory=dict)
    _appended: list[_Entry] = field(default_factory=list)
    _removed: bool = False  # an entry was removed from the whole document

    @classmethod
    def open(cls, rel: str, text: str) -> EntryFile:
        edited = cls(rel, text)
        try:
            edited._cuts = _cuts(text)
        except _Unfit:
            edited._load_whole()
        return edited

    # ------------------------------------------------------------------ reading
    def entry(self, section: str, ident: str) -> Any:
        """The entry of `section` whose id is `ident` (the first such), or None."""
        key = (section, ident)
        if key in self._entries:
            found = self._entries[key]
            return None if found.removed else found.node
        if self._whole is not None:
            seq = self._whole.get(section) if isinstance(self._whole, dict) else None
            for index, node in enumerate(seq if isinstance(seq, list) else []):
                if isinstance(node, dict) and str(node.get("id")) == ident:
                    self._entries[key] = _Entry(section, index, node)
                    return node
            return None
        cut = self._cuts.get(section) if self._cuts else None
        if cut is None or ident not in cut.ids:
            return None
        index = cut.ids.index(ident)
        node = self._parse_entry(section, cut, index)
        if node is None:
            self._load_whole()
            return self.entry(section, ident)
        self._entries[key] = _Entry(section, index, node)
        return node

    def _parse_entry(self, section: str, cut: _Cut, index: int) -> Any:
        piece = _shift(self.text[cut.starts[index] : cut.ends[index]], 2 - cut.indent)
        if piece is None:
            return None
        try:
            doc = roundtrip_yaml().load(f"{section}:\n{piece}")
        except YAMLError:
            return None
        return doc[section][0]

    def _load_whole(self) -> None:
        try:
            doc = roundtrip_yaml().load(self.text) if self.text.strip() else None
        except YAMLError as exc:
            raise CatDocError(
                LOAD_ERROR,
                f"{self.rel}: cannot be edited, it is not valid YAML: {exc}",
                "Fix the YAML first (`catdoc validate` shows where).",
            ) from None
        if doc is None:
            doc = CommentedMap()
        if not isinstance(doc, dict):
            raise CatDocError(
                LOAD_ERROR,
                f"{self.rel}: the top level is not a mapping; nothing was changed.",
                "Start the file with `categories:` (see `catdoc init`).",
            )
        # Entries handed out from the cut are re-found in the whole document.
        handed = list(self._entries.values())
        self._whole, self._cuts, self._entries = doc, None, {}
        for old in handed:
            if old.index is not None:
                node = self._whole[old.section][old.index]
                _replace_contents(node, old.node)
                self._entries[(old.section, str(node.get("id")))] = _Entry(
                    old.section, old.index, node, old.removed, old.original
                )
        for old in self._appended:
            self._seq(old.section).append(old.node)
        self._appended = []

    # ------------------------------------------------------------------ changing
    def append(self, section: str, node: CommentedMap) -> None:
        ident = str(node.get("id"))
        if self._whole is not None:
            self._seq(section).append(node)
            self._entries[(section, ident)] = _Entry(section, None, node)
            return
        added = _Entry(section, None, node)
        self._appended.append(added)
        self._entries[(section, ident)] = added

    def remove(self, section: str, ident: str) -> bool:
        node = self.entry(section, ident)
        if node is None:
            return False
        entry = self._entries[(section, ident)]
        if self._whole is not None:
            seq = self._seq(section)
            seq.pop(next(i for i, item in enumerate(seq) if item is node))
            del self._entries[(section, ident)]
            self._removed = True
            return True
        entry.removed = True
        if entry.index is None:
            self._appended.remove(entry)
            del self._entries[(section, ident)]
        return True

    def _seq(self, section: str) -> Any:
        if not isinstance(self._whole.get(section), list):
            self._whole[section] = CommentedSeq()
        return self._whole[section]

    # ------------------------------------------------------------------ writing
    def render(self) -> str | None:
        """The file's new text, or None when nothing changed."""
        if not any(entry.changed for entry in self._entries.values()) and not self._removed:
            return None
        if self._whole is None:
            spliced = self._splice()
            if spliced is not None:
                return spliced
            self._load_whole()
        buffer = io.StringIO()
        roundtrip_yaml().dump(self._whole, buffer)
        return buffer.getvalue()

    def _splice(self) -> str | None:
        """The file with changed entries re-dumped in place, removed ones cut out and new ones
        after the last entry of their section; None unless it parses to what the edit meant."""
        assert self._cuts is not None
        replacements: dict[int, str] = {}  # start offset → new text for the span
        spans: dict[int, int] = {}
        tails: dict[str, list[str]] = {}
        for entry in self._entries.values():
            if entry.index is None or not entry.changed:
                continue
            cut = self._cuts[entry.section]
            text = "" if entry.removed else _dump_item(entry.section, entry.node, cut.indent)
            if text is None:
                return None
            start = cut.starts[entry.index]
            replacements[start], spans[start] = text, cut.ends[entry.index]
        for entry in self._appended:
            cut = self._cuts.get(entry.section)
            text = _dump_item(entry.section, entry.node, cut.indent if cut else 2)
            if text is None:
                return None
            tails.setdefault(entry.section, []).append(text)
        for section, texts in tails.items():
            cut = self._cuts.get(section)
            if cut is not None:
                at = cut.end
                replacements[at] = replacements.get(at, "") + "".join(texts)
                spans.setdefault(at, at)
        pieces, position = [], 0
        for start in sorted(replacements):
            pieces += [self.text[position:start], replacements[start]]
            position = spans[start]
        pieces.append(self.text[position:])
        spliced = "".join(pieces)
        for section, texts in tails.items():
            if section not in self._cuts:
                if spliced and not spliced.endswith("\n"):
                    spliced += "\n"
                spliced += f"{section}:\n" + "".join(texts)
        return spliced if self._means(spliced) else None

    def _means(self, spliced: str) -> bool:
        try:
            before = yaml_rs.loads(self.text) if self.text.strip() else {}
            after = yaml_rs.loads(spliced)
        except (yaml_rs.YAMLDecodeError, ValueError):
            return False
        if not isinstance(before, dict):
            return False
        expected = dict(before)
        for section in SECTIONS:
            items = list(before.get(section) or [])
            changed = False
            for entry in self._entries.values():
                if entry.section == section and entry.index is not None:
                    items[entry.index] = None if entry.removed else _plain(entry.node)
                    changed = True
            new = [_plain(e.node) for e in self._appended if e.section == section]
            if changed or new:
                expected[section] = [item for item in items if item is not None] + new
        return after == expected


def _replace_contents(target: Any, source: Any) -> None:
    """Make the whole-document node `target` hold what the cut-out node `source` holds."""
    for key in list(target):
        if key not in source:
            del target[key]
    for key, value in source.items():
        target[key] = value


def _dump_item(section: str, node: Any, indent: int) -> str | None:
    """The text of one entry as an item of `section`, its `-` at column `indent`."""
    seq = CommentedSeq([node])
    doc = CommentedMap()
    doc[section] = seq
    buffer = io.StringIO()
    roundtrip_yaml().dump(doc, buffer)
    dumped = buffer.getvalue()
    try:
        cut = _cuts(dumped)[section]
    except (_Unfit, KeyError):
        return None
    return _shift(dumped[cut.starts[0] : cut.end], indent - cut.indent)


def _plain(value: Any) -> Any:
    """ruamel nodes as plain data, as yaml-rs would read them back."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value


def _cuts(text: str) -> dict[str, _Cut]:
    """Where each entry of each top-level block sequence lies; `_Unfit` when the file cannot be
    cut safely. A section that is absent is simply not in the result."""
    if not text.strip():
        return {}
    if not getattr(yaml, "__with_libyaml__", False):
        raise _Unfit
    try:
        root = yaml.compose(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        raise _Unfit from None
    if not isinstance(root, yaml.MappingNode):
        raise _Unfit
    cuts: dict[str, _Cut] = {}
    for key, seq in root.value:
        if not isinstance(key, yaml.ScalarNode) or key.value not in SECTIONS:
            continue
        cuts[key.value] = _cut_sequence(text, seq)
    return cuts


def _cut_sequence(text: str, seq: Any) -> _Cut:
    if not isinstance(seq, yaml.SequenceNode) or seq.flow_style or not seq.value:
        raise _Unfit
    starts: list[int] = []
    ids: list[str | None] = []
    indents: set[int] = set()
    for item in seq.value:
        index = item.start_mark.index
        line = text.rfind("\n", 0, index) + 1
        if not isinstance(item, yaml.MappingNode) or not _ITEM_LEAD.fullmatch(text[line:index]):
            raise _Unfit
        if starts and line <= starts[-1]:
            raise _Unfit
        indents.add(len(text[line:index]) - len(text[line:index].lstrip(" ")))
        starts.append(line)
        ids.append(next((str(v.value) for k, v in item.value if k.value == "id"), None))
    end = seq.end_mark.index
    if (seq.end_mark.column != 0 and end != len(text)) or len(indents) != 1:
        raise _Unfit
    if len(set(ids)) != len(ids):
        raise _Unfit  # duplicate ids: leave the choice of entry to the whole-file edit
    indent = indents.pop()
    ends = [
        _without_gap(text, start, stop, indent)
        for start, stop in zip(starts, [*starts[1:], end], strict=True)
    ]
    return _Cut(starts, ends, indent, ids)


def _without_gap(text: str, start: int, stop: int, indent: int) -> int:
    """`stop` moved back over the blank lines and outdented comments that end an entry."""
    while stop > start:
        line_start = text.rfind("\n", start, stop - 1) + 1
        if line_start <= start:
            break
        line = text[line_start:stop]
        body = line.strip()
        if body and not (body.startswith("#") and len(line) - len(line.lstrip(" ")) <= indent):
            break
        stop = line_start
    return stop


def _shift(text: str, columns: int) -> str | None:
    """Every non-blank line moved right (or left) by `columns`; None if a line is too short."""
    if columns == 0:
        return text
    out = []
    for line in text.splitlines(keepends=True):
        if not line.strip():
            out.append(line)
        elif columns > 0:
            out.append(" " * columns + line)
        elif line[:-columns].strip():
            return None
        else:
            out.append(line[-columns:])
    return "".join(out)


__all__ = ["SECTIONS", "EntryFile", "roundtrip_yaml"]
