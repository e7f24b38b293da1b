"""The ids of a project's entities read straight off its model files, for shell completion.

A shell waits for these on every Tab, so they are found without loading the project: no YAML
parse (0.9 s at 10,000 objects, 5.5 s at 100,000), no validation, no lock, no journal recovery,
no cache. A search of each model file for its section keys (`categories:`, `objects:`,
`morphisms:`, `functors:`, `naturalTransformations:`), then of the stretches under the wanted
ones for the `id:` keys of their items (told apart by indentation, as a YAML reader would),
each with the item's `title:` (or `name:`) when it is on the id's line (flow style) or at the
id's indentation (block style). An `id:` nested deeper (in metadata) or a flow mapping that does
not start with its id is not seen: completion offers less, never something the project lacks in
that place. Nothing is written; any failure yields nothing. At 100,000 objects (45 MB of YAML)
the ids of one prefix take about 0.4 s, every object id about 2 s.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from catdoc.errors import CatDocError
from catdoc.project_files import find_root, model_files
from catdoc.yaml_source import read_text

Kind = Literal["category", "object", "morphism", "functor", "natural transformation"]

SECTIONS: dict[tuple[str, ...], Kind] = {
    ("categories",): "category",
    ("categories", "objects"): "object",
    ("categories", "morphisms"): "morphism",
    ("functors",): "functor",
    ("naturalTransformations",): "natural transformation",
}
"""The keys above an item, outermost first, and the kind of entity the item is."""

_SCALAR = r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\n]|'')*'"
_KEY_END = re.compile(r"s[ \t]*:[ \t]*(?:#[^\n]*)?(?=\n|$)")
"""Where a section key may end: all five end in `s:`. Starting at a literal keeps the search
in C at memory speed (a pattern anchored at each line start costs a second at 100,000)."""
_KEY_LINE = re.compile(
    r"(?P<indent>[ \t]*)(?P<dash>-[ \t]+)?"
    r"(?P<key>categories|objects|morphisms|functors|naturalTransformations)[ \t]*:"
)
_LEAD = re.compile(r"(?P<indent>[ \t]*)(?P<dash>-[ \t]+)?(?P<flow>\{[ \t]*)?")
_FLOW_LABEL = re.compile(
    rf"[,{{][ \t]*(title|name)[ \t]*:[ \t]*({_SCALAR}|(?:[^,}}#\n]|(?<![ \t])#)*)"
)
_BLOCK_LABEL = re.compile(
    rf"(title|name)[ \t]*:[ \t]*({_SCALAR}|(?:[^#\n]|(?<![ \t])#)*?)[ \t]*(?:(?<=[ \t])#.*)?$"
)
"""A `title:` or `name:` key and its value; a `#` starts a comment only after a blank."""
WINDOW = 4096
"""Characters after a section key searched for its first item, and after a block-style id for
its item's title or name."""


@dataclass(frozen=True)
class EntityId:
    """One entity: its kind, id and a label to show beside it (title, else name; may be "")."""

    kind: Kind
    id: str
    label: str = ""


def entity_ids(
    start: Path | str | None, kinds: Collection[Kind], prefix: str = ""
) -> list[EntityId]:
    """The entities of `kinds` whose id starts with `prefix`, in model order, each id once, in
    the project at or above `start` (default: the working directory). Never raises: no
    project, an unreadable or oversized model file, anything at all, gives []."""
    try:
        root = find_root(start)
        found: list[EntityId] = []
        seen: set[tuple[Kind, str]] = set()
        for path in model_files(root):
            for entity in scan(read_text(path, path.name), kinds, prefix):
                if (entity.kind, entity.id) not in seen:
                    seen.add((entity.kind, entity.id))
                    found.append(entity)
        return found
    except (CatDocError, OSError, ValueError, RecursionError):
        return []


@dataclass
class _Section:
    """A stretch of text under one section key: the open keys (column of each key's text,
    name) and the column its items' keys start at."""

    start: int
    end: int
    path: list[tuple[int, str]]
    item_column: int
    kind: Kind | None


def scan(text: str, kinds: Collection[Kind], prefix: str = "") -> Iterator[EntityId]:
    """The entities of `kinds` in one model file's text whose id starts with `prefix`.

    Only the stretches under a wanted kind's key are searched, so completing a functor does
    not walk 300,000 morphisms. A category's own item may sit in the stretch after the
    previous category's `objects:` or `morphisms:`; it is told apart there by its smaller
    indentation, as a YAML reader would."""
    ids = re.compile(rf"id[ \t]*:[ \t]*(?=[\"']?{re.escape(prefix)})(?P<id>{_SCALAR}|[^\s,}}#]+)")
    for section in _sections(text):
        if section.kind in kinds:
            for match in ids.finditer(text, section.start, section.end):
                entity = _entity(text, match, section, kinds)
                if entity is not None:
                    yield entity
        elif "category" in kinds and section.kind in ("object", "morphism"):
            yield from _outer_categories(text, section, ids)


def _outer_categories(text: str, section: _Section, ids: re.Pattern[str]) -> Iterator[EntityId]:
    """The categories whose items start in an object or morphism stretch: found by a dash
    indented less than the stretch's key, then their id among the item's next lines."""
    column = section.path[-1][0]
    if column == 0:
        return
    outer = re.compile(rf"\n[ \t]{{0,{column - 1}}}-[ \t]")
    for item in outer.finditer(text, section.start, section.end):
        end = min(section.end, item.start() + WINDOW)
        for match in ids.finditer(text, item.start() + 1, end):
            entity = _entity(text, match, section, ("category",))
            if entity is not None:
                yield entity
                break


def _sections(text: str) -> list[_Section]:
    found: list[tuple[int, int, int, str]] = []  # (line start, line end, key column, key)
    for end in _KEY_END.finditer(text):
        start = text.rfind("\n", 0, end.start()) + 1
        line = _KEY_LINE.match(text, start, end.end())
        if line is not None and line.end("key") == end.start() + 1:
            column = len(line["indent"].expandtabs()) + len(line["dash"] or "")
            found.append((start, end.end(), column, line["key"]))
    sections: list[_Section] = []
    path: list[tuple[int, str]] = []
    for number, (_, after, column, key) in enumerate(found):
        while path and path[-1][0] >= column:
            path.pop()
        path.append((column, key))
        stop = found[number + 1][0] if number + 1 < len(found) else len(text)
        kind = SECTIONS.get(tuple(name for _, name in path))
        sections.append(_Section(after, stop, list(path), _item_column(text, after, stop), kind))
    return sections


def _item_column(text: str, start: int, end: int) -> int:
    """The column of the first item's key below a section key (-1: no item)."""
    for line in text[start : min(end, start + WINDOW)].split("\n")[1:]:
        lead = _LEAD.match(line)
        if lead is not None and lead["dash"]:
            return len(lead["indent"].expandtabs()) + len(lead["dash"])
        if line.strip() and not line.lstrip().startswith("#"):
            return -1
    return -1


def _entity(
    text: str, match: re.Match[str], section: _Section, kinds: Collection[Kind]
) -> EntityId | None:
    """The entity an `id:` match names, or None when it is not an item's own id key."""
    start = text.rfind("\n", 0, match.start()) + 1
    lead = _LEAD.fullmatch(text, start, match.start())
    if lead is None:
        return None
    dash = lead["dash"] or ""
    column = len(lead["indent"].expandtabs())
    kind, item_column = section.kind, section.item_column
    if dash and section.path[-1][0] > column:  # an item of an outer section: a category
        path = [level for level in section.path if level[0] <= column]
        kind = SECTIONS.get(tuple(name for _, name in path))
        item_column = column + len(dash)
    if kind is None or kind not in kinds or column + len(dash) != item_column:
        return None
    end = text.find("\n", match.end())
    rest = text[match.end() : end if end >= 0 else len(text)]
    if lead["flow"] is not None:
        found = _FLOW_LABEL.search(rest)
        return EntityId(kind, _unquote(match["id"]), _unquote(found[2].strip()) if found else "")
    return EntityId(kind, _unquote(match["id"]), _block_label(text, end, column + len(dash)))


def _block_label(text: str, start: int, column: int) -> str:
    """The title (else name) of a block-style item: a key at `column` on the lines after its
    id, up to the next line indented less or the next item."""
    label = ""
    if start < 0:
        return label
    for line in text[start + 1 : start + 1 + WINDOW].split("\n"):
        lead = _LEAD.match(line)
        indent = len(lead["indent"].expandtabs()) if lead else 0
        if not line.strip() or line.lstrip().startswith("#") or indent > column:
            continue
        if indent < column or (lead and lead["dash"]):
            break
        found = _BLOCK_LABEL.match(line, indent)
        if found is not None and (found[1] == "title" or not label):
            label = _unquote(found[2])
    return label


def _unquote(value: str) -> str:
    if value.startswith('"'):
        try:
            return str(json.loads(value))
        except ValueError:
            return value.strip('"')
    if value.startswith("'"):
        return value[1:-1].replace("''", "'")
    return value


__all__ = ["EntityId", "Kind", "entity_ids", "scan"]
