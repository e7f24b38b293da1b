"""Editing a few categories of a large model file without re-writing all of it.

A round trip through ruamel.yaml keeps comments and key order but is pure Python: about 12 s
for a 1 MB `category.yaml` (2,000 objects). An import usually changes one or two categories, so
only their entries go through the round trip: libyaml finds where each entry of `categories:`
starts and ends, the chosen entries are edited as a small document of their own, and their new
text replaces the old. Every other byte of the file stays as it was.

The result is trusted only when it parses to exactly the data the edit meant (the untouched
entries and top-level keys unchanged, the edited and appended entries as edited); a file whose
shape does not allow the cut (flow style, entries sharing lines, aliases between entries …) or
that fails the check is edited whole instead, as before.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
import yaml_rs
from ruamel.yaml.error import YAMLError

from catdoc.writeback import atomic_write, edit_yaml, roundtrip_yaml

_ITEM_LEAD = re.compile(r"[ ]*-[ ]+")


@dataclass(frozen=True)
class _Cut:
    """Where the entries of `categories:` are: `starts[i]`…`starts[i + 1]` is entry i's text
    (from the start of its line), `end` where the last one ends, `indent` the column of `-`."""

    starts: list[int]
    end: int
    indent: int
    ids: list[str | None]

    @property
    def ends(self) -> list[int]:
        """Where each entry's text ends: where the next begins, the last at `end`."""
        return [*self.starts[1:], self.end]


def edit_categories(
    path: Path, ids: Collection[str], edit: Callable[[Any], Any], *, empty: Any = None
) -> Any:
    """`edit_yaml` for an edit that changes only the category entries with these ids, or
    appends new ones: `edit` receives a document whose `categories` holds just those entries
    (it must not rely on seeing the others). `empty` is as for `edit_yaml`."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    cut = _cut(text)
    if cut is None:
        return edit_yaml(path, edit, empty=empty)
    chosen = [i for i, ident in enumerate(cut.ids) if ident in ids]
    old = [_shift(text[cut.starts[i] : cut.ends[i]], 2 - cut.indent) for i in chosen]
    yaml_rt = roundtrip_yaml()
    try:
        doc = yaml_rt.load("categories:\n" + "".join(_present(old)))
    except (YAMLError, _Unfit):
        return edit_yaml(path, edit, empty=empty)
    outcome = edit(doc)
    buffer = io.StringIO()
    yaml_rt.dump(doc, buffer)
    spliced = _splice(text, cut, chosen, buffer.getvalue())
    if spliced is None:
        return edit_yaml(path, edit, empty=empty)
    atomic_write(path, spliced)
    return outcome


class _Unfit(Exception):
    """The entries cannot be cut out as they are."""


def _present(items: list[str | None]) -> list[str]:
    if any(item is None for item in items):
        raise _Unfit
    return [item for item in items if item is not None]


def _cut(text: str) -> _Cut | None:
    """Where each entry of the top-level `categories:` block sequence lies, or None."""
    if not text.strip() or not getattr(yaml, "__with_libyaml__", False):
        return None
    try:
        root = yaml.compose(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    seq = next(
        (v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "categories"),
        None,
    )
    if not isinstance(seq, yaml.SequenceNode) or seq.flow_style or not seq.value:
        return None
    starts, ids, indents = [], [], set()
    for item in seq.value:
        index = item.start_mark.index
        line = text.rfind("\n", 0, index) + 1
        if not isinstance(item, yaml.MappingNode) or not _ITEM_LEAD.fullmatch(text[line:index]):
            return None
        if starts and line <= starts[-1]:
            return None
        indents.add(len(text[line:index]) - len(text[line:index].lstrip(" ")))
        starts.append(line)
        ids.append(next((v.value for k, v in item.value if k.value == "id"), None))
    end = seq.end_mark.index
    if seq.end_mark.column != 0 and end != len(text):
        return None
    if len(indents) != 1:
        return None
    return _Cut(starts, end, indents.pop(), ids)


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


def _splice(text: str, cut: _Cut, chosen: list[int], dumped: str) -> str | None:
    """The file with the chosen entries replaced by the edited ones (and new ones after the
    last entry), or None unless it parses to what the edit meant."""
    edited = _cut(dumped)
    if edited is None or len(edited.ids) < len(chosen):
        return None
    try:
        shift = cut.indent - edited.indent
        items = _present(
            [_shift(dumped[s:e], shift) for s, e in zip(edited.starts, edited.ends, strict=True)]
        )
    except _Unfit:
        return None
    ends = cut.ends
    pieces, position = [], 0
    for index, item in zip(chosen, items, strict=False):
        pieces += [text[position : cut.starts[index]], item]
        position = ends[index]
    pieces += [text[position : cut.end], *items[len(chosen) :], text[cut.end :]]
    spliced = "".join(pieces)
    if not spliced.endswith("\n") and text.endswith("\n"):
        return None
    try:
        before, after = yaml_rs.loads(text), yaml_rs.loads(spliced)
        meant = yaml_rs.loads(dumped)["categories"]
    except (yaml_rs.YAMLDecodeError, TypeError, KeyError):
        return None
    expected = dict(before)
    entries = list(before["categories"])
    for index, entry in zip(chosen, meant, strict=False):
        entries[index] = entry
    expected["categories"] = entries + meant[len(chosen) :]
    return spliced if after == expected else None
