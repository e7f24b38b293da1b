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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml_rs
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from catdoc import yaml_source
from catdoc.edit.layout import Cut, Unfit, cut_dumped, cut_file
from catdoc.edit.nodes import plain, to_yaml
from catdoc.edit.plain_yaml import dump_item, entry_text
from catdoc.errors import LOAD_ERROR, CatDocError
from catdoc.project import gc_paused

SECTIONS = ("categories", "functors", "naturalTransformations")
ITEM_LISTS = ("objects", "morphisms")
"""Lists inside a category whose items are edited one by one (a category may hold thousands)."""
MERGE = "<<"
"""A merge key: the loader resolves it, yaml-rs and the kept trees of `_before` differ then."""


def roundtrip_yaml() -> YAML:
    """A ruamel.yaml instance that round-trips comments, key order and quoting."""
    rt = YAML()
    rt.preserve_quotes = True
    rt.indent(mapping=2, sequence=4, offset=2)
    rt.width = 4096
    return rt


class _Handed:
    """A node handed out for editing, with its data at that moment: unchanged nodes keep
    their text. `index` is its place in its list; None for a node appended by the edit."""

    index: int | None
    node: Any
    removed: bool
    original: Any

    def __post_init__(self) -> None:
        if self.original is None:
            self.original = plain(self.node)

    @property
    def changed(self) -> bool:
        return self.removed or self.index is None or plain(self.node) != self.original


@dataclass
class _Entry(_Handed):
    """An entry of a top-level list (a category, functor or natural transformation)."""

    section: str
    index: int | None
    node: Any
    removed: bool = False
    original: Any = None


@dataclass
class _Item(_Handed):
    """An object or morphism handed out from inside a category entry that is not itself out."""

    owner: tuple[str, str]  # (section, entry id)
    key: str  # "objects" | "morphisms"
    index: int | None
    node: Any
    removed: bool = False
    original: Any = None


@dataclass
class EntryFile:
    """A model file being edited. Entries are handed out as ruamel nodes to change in place;
    `render` gives the new text (None when nothing changed)."""

    rel: str
    text: str
    kept: Callable[[], Any] | None = None
    """Gives the tree of `text` kept by `catdoc.parsed_cache` when it is current, else None: the
    check of a splice then needs no parse of the file as it was."""
    _cuts: dict[str, Cut] | None = None
    _whole: Any = None
    _entries: dict[tuple[str, str], _Entry] = field(default_factory=dict)
    _appended: list[_Entry] = field(default_factory=list)
    _removed: bool = False  # an entry was removed from the whole document
    _replaced: list[_Entry] = field(default_factory=list)  # removed, then added again
    _items: list[_Item] = field(default_factory=list)
    _parsed: tuple[str, Any] | None = None  # (the rendered text, its tree as the loader reads it)

    @classmethod
    def open(cls, rel: str, text: str, kept: Callable[[], Any] | None = None) -> EntryFile:
        edited = cls(rel, text, kept)
        try:
            edited._cuts = _cuts(text)
        except Unfit:
            edited._load_whole()
        return edited

    # ------------------------------------------------------------------ reading
    def loaded(self, section: str, ident: str) -> Any:
        """The entry's node if it has been handed out (and so may have changed), else None."""
        found = self._entries.get((section, ident))
        return None if found is None or found.removed else found.node

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
        self._merge_items(key, node)
        return node

    def _merge_items(self, owner: tuple[str, str], node: Any) -> None:
        """Move the items handed out of the entry `owner` into its now whole `node`."""
        mine = [item for item in self._items if item.owner == owner]
        if not mine:
            return
        self._items = [item for item in self._items if item.owner != owner]
        for key in {item.key for item in mine}:
            seq = node.get(key)
            if not seq:  # absent or `[]`: items handed out of an empty cut start a block list
                seq = node[key] = CommentedSeq()
            doomed = []
            for item in mine:
                if item.key != key:
                    continue
                if item.index is None:
                    seq.append(item.node)
                elif item.removed:
                    doomed.append(item.index)
                else:
                    seq[item.index] = item.node
            for index in sorted(doomed, reverse=True):
                del seq[index]
            if not seq:
                del node[key]

    # ------------------------------------------------------------------ items of a category
    def item(self, section: str, ident: str, key: str, item_id: str) -> Any:
        """The item of list `key` (objects, morphisms) of an entry whose id is `item_id`, or
        None; only that item is read unless the entry cannot be cut finer."""
        sub = self._sub(section, ident, key)
        if sub is None:
            return _find(self.entry(section, ident), key, item_id)
        for item in self._items:
            mine = item.owner == (section, ident) and item.key == key
            if mine and str(item.node.get("id")) == item_id:
                return None if item.removed else item.node
        if item_id not in sub.ids:
            return None
        index = sub.ids.index(item_id)
        piece = _shift(self.text[sub.starts[index] : sub.ends[index]], 2 - sub.indent)
        try:
            node = roundtrip_yaml().load(f"{key}:\n{piece}")[key][0] if piece else None
        except YAMLError:
            node = None
        if node is None:
            return _find(self.entry(section, ident), key, item_id)
        self._items.append(_Item((section, ident), key, index, node))
        return node

    def append_item(self, section: str, ident: str, key: str, node: CommentedMap) -> None:
        """Add an item at the end of list `key` of an entry."""
        if self._sub(section, ident, key) is None:
            owner = self.entry(section, ident)
            if not isinstance(owner.get(key), list):
                owner[key] = CommentedSeq()
            owner[key].append(node)
            return
        self._items.append(_Item((section, ident), key, None, node))

    def remove_item(self, section: str, ident: str, key: str, item_id: str) -> bool:
        """Remove an item of list `key`; a list left empty goes with its key."""
        found = self.item(section, ident, key, item_id)
        if found is None:
            return False
        record = next((i for i in self._items if i.node is found), None)
        sub = self._sub(section, ident, key)
        left = (
            0
            if sub is None
            else len(sub.ids)
            + sum(
                (i.index is None) - i.removed
                for i in self._items
                if i.owner == (section, ident) and i.key == key
            )
        )
        if record is None or left <= 1:
            owner = self.entry(section, ident)  # merges the items handed out so far
            seq = owner[key]
            seq.pop(next(n for n, node in enumerate(seq) if node is found))
            if not seq:
                del owner[key]
            return True
        if record.index is None:
            self._items.remove(record)
        else:
            record.removed = True
        return True

    def _sub(self, section: str, ident: str, key: str) -> Cut | None:
        """The cut of list `key` inside entry `ident`, while the entry itself is not out."""
        if self._whole is not None or (section, ident) in self._entries or not self._cuts:
            return None
        cut = self._cuts.get(section)
        if cut is None or ident not in cut.ids or not cut.subs:
            return None
        return cut.subs[cut.ids.index(ident)].get(key)

    def _parse_entry(self, section: str, cut: Cut, index: int) -> Any:
        piece = _shift(self.text[cut.starts[index] : cut.ends[index]], 2 - cut.indent)
        if piece is None:
            return None
        fast = _read_by_blocks(piece)
        if fast is not None:
            return fast
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
        # Entries and items handed out from the cut are re-found in the whole document.
        cuts = self._cuts or {}
        for owner in {item.owner for item in self._items}:
            if owner not in self._entries:
                section, ident = owner
                index = cuts[section].ids.index(ident)
                self._entries[owner] = _Entry(section, index, doc[section][index])
                self._merge_items(owner, self._entries[owner].node)
        handed = self._handed()
        self._whole, self._cuts, self._entries, self._replaced = doc, None, {}, []
        doomed: list[tuple[str, int]] = []
        for old in handed:
            if old.index is None:
                continue
            node = self._whole[old.section][old.index]
            if node is not old.node:
                _replace_contents(node, old.node)
            if old.removed:
                doomed.append((old.section, old.index))
            else:
                self._entries[(old.section, str(node.get("id")))] = _Entry(
                    old.section, old.index, node, False, old.original
                )
        for section, index in sorted(doomed, reverse=True):
            del self._whole[section][index]
            self._removed = True
            self._keep_list(section)
        for old in self._appended:
            self._seq(old.section).append(old.node)
            self._entries[(old.section, str(old.node.get("id")))] = old
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
        gone = self._entries.get((section, ident))
        if gone is not None and gone.removed:  # the removal must still cut the old text out
            self._replaced.append(gone)
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
            self._keep_list(section)
            return True
        entry.removed = True
        if entry.index is None:
            self._appended.remove(entry)
            del self._entries[(section, ident)]
        return True

    def _handed(self) -> list[_Entry]:
        """Every entry handed out, including those removed and then added again."""
        return [*self._replaced, *self._entries.values()]

    def _keep_list(self, section: str) -> None:
        """An emptied list becomes a fresh one: ruamel would dump the comments it held before
        a bare `[]` at the left margin, which is not YAML (the key's own comment stays)."""
        if not self._whole[section]:
            self._whole[section] = CommentedSeq()

    def _seq(self, section: str) -> Any:
        if not isinstance(self._whole.get(section), list):
            self._whole[section] = CommentedSeq()
        return self._whole[section]

    # ------------------------------------------------------------------ writing
    def parsed(self, text: str) -> tuple[Any] | None:
        """(the tree of `text`, as `yaml_source.parse` gives it) when the check of the splice
        that rendered `text` parsed it already, else None; handed out once."""
        held, self._parsed = self._parsed, None
        return (held[1],) if held is not None and held[0] is text else None

    def render(self) -> str | None:
        """The file's new text, or None when nothing changed."""
        if (
            not any(entry.changed for entry in self._handed())
            and not any(item.changed for item in self._items)
            and not self._removed
        ):
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
        """The file with changed entries and items re-dumped in place, removed ones cut out and
        new ones after the last of their list; None unless it parses to what the edit meant."""
        assert self._cuts is not None
        edits: list[tuple[int, int, str]] = []  # (start, stop, new text) of the original
        tails: dict[str, list[str]] = {}
        for entry in self._handed():
            if entry.index is None or not entry.changed:
                continue
            cut = self._cuts[entry.section]
            text = "" if entry.removed else _dump_item(entry.section, entry.node, cut.indent)
            if text is None:
                return None
            edits.append((cut.starts[entry.index], cut.ends[entry.index], text))
        appended: dict[tuple[tuple[str, str], str], list[str]] = {}
        for item in self._items:
            if not item.changed:
                continue
            sub = self._sub(*item.owner, item.key)
            if sub is None:
                return None
            text = "" if item.removed else _dump_item(item.key, item.node, sub.indent)
            if text is None:
                return None
            if item.index is None:
                appended.setdefault((item.owner, item.key), []).append(text)
            else:
                edits.append((sub.starts[item.index], sub.ends[item.index], text))
        openings: list[tuple[int, int, str]] = []  # lists opened after the items of others
        for (owner, key), texts in appended.items():
            sub = self._sub(*owner, key)
            assert sub is not None
            if sub.opening is not None:
                openings += sub.opening.edits("".join(texts))
            else:
                edits.append((sub.end, sub.end, "".join(texts)))
        edits += openings
        for entry in self._appended:
            cut = self._cuts.get(entry.section)
            text = _dump_item(entry.section, entry.node, cut.indent if cut else 2)
            if text is None:
                return None
            tails.setdefault(entry.section, []).append(text)
        for section, texts in tails.items():
            cut = self._cuts.get(section)
            if cut is not None and cut.opening is not None:  # `key: []` becomes a block list
                edits += cut.opening.edits("".join(texts))
            elif cut is not None:
                edits.append((cut.end, cut.end, "".join(texts)))
        for section, cut in self._cuts.items():
            gone = {e.index for e in self._handed() if e.section == section and e.removed}
            if section not in tails and cut.ids and len(gone - {None}) == len(cut.ids):
                colon = _header_end(self.text, section, cut.starts[0])
                if colon is None:
                    return None
                edits.append((colon, colon, " []"))  # an emptied list stays a list
        pieces, position = [], 0
        for start, stop, text in sorted(edits, key=lambda edit: (edit[0], edit[1])):
            if start < position:
                return None  # overlapping edits: let the whole-file edit decide
            pieces += [self.text[position:start], text]
            position = stop
        pieces.append(self.text[position:])
        spliced = "".join(pieces)
        for section, texts in tails.items():
            if section not in self._cuts:
                if spliced and not spliced.endswith("\n"):
                    spliced += "\n"
                spliced += f"{section}:\n" + "".join(texts)
        return spliced if self._means(spliced) else None

    def _means(self, spliced: str) -> bool:
        """Whether `spliced` parses to the file's tree with the edit's changes made, and to
        nothing else. Its tree is kept for the check of the new file (`parsed`)."""
        with gc_paused():  # two trees of the whole file, without cycles
            try:
                before = self._before()
                after = _tree_of(spliced, self.rel)
            except (yaml_rs.YAMLDecodeError, ValueError, CatDocError):
                return False
            if not self._expected(before, after):
                return False
        if MERGE not in spliced:  # else its tree differs from the loader's
            self._parsed = (spliced, after)
        return True

    def _before(self) -> Any:
        """The tree of the file as it was: kept, or parsed."""
        if not self.text.strip():
            return {}
        kept = self.kept() if self.kept is not None and MERGE not in self.text else None
        return kept.tree() if kept is not None else yaml_rs.loads(self.text)

    def _expected(self, before: Any, after: Any) -> bool:
        """Whether `after` is `before` with the edit's changes made."""
        if not isinstance(before, dict):
            return False
        if not self._read_right(before):
            return False
        expected = dict(before)
        for section in SECTIONS:
            items = list(before.get(section) or [])
            changed = False
            for owner in {item.owner for item in self._items if item.owner[0] == section}:
                index = self._cuts[section].ids.index(owner[1]) if self._cuts else -1
                items[index] = self._with_items(owner, items[index])
                changed = True
            for entry in self._handed():
                if entry.section == section and entry.index is not None:
                    items[entry.index] = None if entry.removed else plain(entry.node)
                    changed = True
            new = [plain(e.node) for e in self._appended if e.section == section]
            if changed or new:
                expected[section] = [item for item in items if item is not None] + new
        return after == expected

    def _read_right(self, before: dict[str, Any]) -> bool:
        """Every entry and item handed out read, before any change, as the data the file holds
        at its place: a cut that was off would show here."""
        for entry in self._handed():
            if entry.index is not None:
                held = (before.get(entry.section) or [])[entry.index : entry.index + 1]
                if held != [entry.original]:
                    return False
        for item in self._items:
            if item.index is None:
                continue
            section, ident = item.owner
            cut = self._cuts[section] if self._cuts else None
            if cut is None:
                return False
            owner = (before.get(section) or [])[cut.ids.index(ident)]
            held = (owner.get(item.key) or [])[item.index : item.index + 1]
            if held != [item.original]:
                return False
        return True

    def _with_items(self, owner: tuple[str, str], entry: dict[str, Any]) -> dict[str, Any]:
        """An entry's plain data with the changes of the items handed out of it."""
        entry = dict(entry)
        for key in ITEM_LISTS:
            mine = [item for item in self._items if item.owner == owner and item.key == key]
            if not mine:
                continue
            seq: list[Any] = list(entry.get(key) or [])
            for item in mine:
                if item.index is not None:
                    seq[item.index] = None if item.removed else plain(item.node)
            seq = [x for x in seq if x is not None]
            seq += [plain(item.node) for item in mine if item.index is None]
            entry[key] = seq
        return entry


_BLOCK_KEY = re.compile(r"    ([A-Za-z_]\w*):[ \n]")
"""A key of an entry whose `-` stands at column 2."""


def _read_by_blocks(piece: str) -> CommentedMap | None:
    """The node of an entry (its `-` at column 2) read key by key without ruamel's round trip
    (7 s for a functor mapping 25,000 objects): a key's block that `plain_yaml` writes
    back to the same text from its yaml-rs data is built from that data, any other is read by
    ruamel alone. None, for ruamel to read the whole entry, when the entry holds a comment or a
    blank line (ruamel keeps them on the nodes around), or is not a block mapping of such keys.
    """
    if "#" in piece or not piece.startswith("  - ") or not piece.endswith("\n"):
        return None
    lines = [line + "\n" for line in ("    " + piece[4:-1]).split("\n")]
    blocks: list[list[str]] = []
    for line in lines:
        if _BLOCK_KEY.match(line):
            blocks.append([line])
        elif blocks and line.startswith("     ") and line.strip():
            blocks[-1].append(line)
        else:
            return None
    node = CommentedMap()
    for block in blocks:
        text = "".join(block)
        key = _BLOCK_KEY.match(text).group(1)  # type: ignore[union-attr]
        if key in node:
            return None
        value = _canonical(key, text)
        if value is None:
            alone = _shift(text, -4)
            try:
                read = roundtrip_yaml().load(alone) if alone else None
            except YAMLError:
                return None
            if not isinstance(read, dict) or list(read) != [key]:
                return None
            value = (read[key],)
        node[key] = value[0]
    return node


def _canonical(key: str, text: str) -> tuple[Any] | None:
    """(the value of `key: …` block `text`, as nodes) when `plain_yaml` writes it back as
    `text` exactly, its lists of scalars all in flow style (`[a, b]`, as paths in a mapping
    usually are) or all in block style; else None."""
    try:
        data = yaml_rs.loads(text)
    except (yaml_rs.YAMLDecodeError, ValueError):
        return None
    if not isinstance(data, dict) or list(data) != [key]:
        return None
    for flow in (True, False):
        value = to_yaml(data[key], flow)
        if entry_text(key, value, 4) == text:
            return (value,)
    return None


def _tree_of(text: str, rel: str) -> Any:
    """The tree of `text`: as the loader reads it (deep nesting refused) when it holds no merge
    key, else as yaml-rs gives it (merge keys left as keys, as `_before` reads the file)."""
    return yaml_rs.loads(text) if MERGE in text else yaml_source.parse(text, rel)


def _find(owner: Any, key: str, item_id: str) -> Any:
    """The item of list `owner[key]` whose id is `item_id`, or None."""
    seq = owner.get(key) if isinstance(owner, dict) else None
    for node in seq if isinstance(seq, list) else []:
        if isinstance(node, dict) and str(node.get("id")) == item_id:
            return node
    return None


def _replace_contents(target: Any, source: Any) -> None:
    """Make the whole-document node `target` hold what the cut-out node `source` holds."""
    for key in list(target):
        if key not in source:
            del target[key]
    for key, value in source.items():
        target[key] = value


def _dump_item(section: str, node: Any, indent: int) -> str | None:
    """The text of one entry as an item of `section`, its `-` at column `indent` (plain
    entries by `plain_yaml`, the rest by ruamel)."""
    fast = dump_item(node, indent)
    if fast is not None:
        return fast
    seq = CommentedSeq([node])
    doc = CommentedMap()
    doc[section] = seq
    buffer = io.StringIO()
    roundtrip_yaml().dump(doc, buffer)
    dumped = buffer.getvalue()
    try:
        cut = cut_dumped(dumped)
    except Unfit:
        return None
    return _shift(dumped[cut.starts[0] : cut.end], indent - cut.indent)


def _header_end(text: str, section: str, before: int) -> int | None:
    """Where the `section:` key line before offset `before` ends its key (after the colon);
    None when that line holds more than the key and a comment."""
    keys = list(re.finditer(rf"^{re.escape(section)}:(?=[ \t]*(#.*)?$)", text[:before], re.M))
    return keys[-1].end() if keys else None


def _cuts(text: str) -> dict[str, Cut]:
    """Where each entry of each top-level list lies (and each object and morphism of a
    category); `Unfit` when the file cannot be cut by its lines."""
    if not text.strip():
        return {}
    return cut_file(text, SECTIONS, {"categories": ITEM_LISTS})


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
