"""A fast writer for the plain entries an edit adds (an import adds thousands of objects): the
text ruamel writes for them with `roundtrip_yaml`'s layout, without ruamel's per-node machinery
(which costs about half a millisecond an object).

Only what it is sure to write as ruamel does is written here: mappings and lists without
comments, anchors or flow style; keys and strings that ruamel leaves plain (no quoting, one
line, nothing YAML would read as another type); text kept in double quotes that needs no
escape (a functor's `name: "A → B"`); integers, booleans, nulls and dates. For anything else
`dump_item` returns None and the caller asks ruamel. Callers check the result parses back to the
data anyway (`EntryFile._means`).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.resolver import implicit_resolvers
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

_PLAIN = re.compile(r"[A-Za-z0-9_./][A-Za-z0-9_ ./()+,'-]*(?<! )")
"""Strings ruamel writes unquoted (a conservative subset: no `:`, `#`, quotes first, …)."""
_TYPED = re.compile(
    "|".join(
        [
            r"(?i:y|n|yes|no|true|false|on|off|null|~)",
            r"[-+]?\.?[0-9][^ ]*|\.(?i:inf|nan)",
            r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*",
            r"\.\.\..*",
            *(f"(?:{regexp.pattern})" for _, _, regexp, _ in implicit_resolvers),
        ]
    ),
    re.VERBOSE,
)
"""Plain strings that YAML 1.1 or 1.2 would read as something else (or as the end of a
document): ruamel quotes them. Its own resolvers' patterns (`._` is a float to YAML 1.1) and,
to be sure, the same words in any case."""


_UNESCAPED = re.compile(
    r"[\x20\x21\x23-\x5b\x5d-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
    r"\U00010000-\U0010ffff]*"
)
"""Text ruamel writes between double quotes as it is (no escape): a functor's `"A → B"`."""
_QUOTED_MAX = 1000
"""Longer quoted text may be folded at ruamel's line width."""


class _Unsure(Exception):
    """Something ruamel might write otherwise: let ruamel write the item."""


def dump_item(node: Any, indent: int) -> str | None:
    """The text of a mapping as an item of a block list, its `-` at column `indent` (as
    `roundtrip_yaml` with mapping indent 2, sequence indent 4, offset 2 writes it), or None when
    ruamel should write it."""
    out: list[str] = []
    if not isinstance(node, dict) or "id" not in node:
        return None  # every entry and item has an id: the layout finds them by it
    try:
        _mapping(node, indent, out)
    except _Unsure:
        return None
    return "".join(out)


def entry_text(key: Any, value: Any, column: int) -> str | None:
    """The text of `key: value` with the key at `column`, or None when ruamel should write it."""
    out: list[str] = []
    try:
        _entry(" " * column, _key(key), value, column, out)
    except _Unsure:
        return None
    return "".join(out)


def _mapping(node: Any, dash: int, out: list[str]) -> None:
    """A mapping that is a list item: its first key after the `-` at column `dash`."""
    _check_container(node, dict)
    if not node:
        raise _Unsure
    column = dash + 2
    for n, (key, value) in enumerate(node.items()):
        lead = " " * dash + "- " if n == 0 else " " * column
        _entry(lead, _key(key), value, column, out)


def _entry(lead: str, key: str, value: Any, column: int, out: list[str]) -> None:
    """`key: value` at `column` (`lead` is what precedes the key on its line)."""
    if isinstance(value, dict):
        _check_container(value, dict)
        if not value:
            out.append(f"{lead}{key}: {{}}\n")
            return
        out.append(f"{lead}{key}:\n")
        inner = column + 2
        for sub_key, sub_value in value.items():
            _entry(" " * inner, _key(sub_key), sub_value, inner, out)
    elif isinstance(value, CommentedSeq) and value.fa.flow_style():
        _check_container(value, list, flow=True)
        out.append(f"{lead}{key}: [{', '.join(_flow_scalar(item) for item in value)}]\n")
    elif isinstance(value, list):
        _check_container(value, list)
        if not value:
            out.append(f"{lead}{key}: []\n")
            return
        out.append(f"{lead}{key}:\n")
        for item in value:
            if isinstance(item, dict):
                _mapping(item, column + 2, out)
            elif isinstance(item, list) or item is None:
                raise _Unsure
            else:
                out.append(f"{' ' * (column + 2)}- {_scalar(item)}\n")
    else:
        text = _scalar(value)
        out.append(f"{lead}{key}: {text}\n" if text else f"{lead}{key}:\n")


def _check_container(node: Any, kind: type, *, flow: bool = False) -> None:
    """Plain containers only: ruamel's own keep comments, anchors, tags, merges and (unless
    `flow`, a list written `[a, b]`) flow style. Block style is None in a node made here and
    False in one read from a file: ruamel writes both the same."""
    if type(node) is kind:
        return
    if type(node) not in (CommentedMap, CommentedSeq) or not isinstance(node, kind):
        raise _Unsure
    if node.ca.items or node.ca.comment or node.ca.end or node.anchor.value:
        raise _Unsure
    if node.tag.value is not None or getattr(node, "merge", None):
        raise _Unsure
    if bool(node.fa.flow_style()) is not flow:
        raise _Unsure


def _key(key: Any) -> str:
    if type(key) is not str or not _PLAIN.fullmatch(key) or _TYPED.fullmatch(key):
        raise _Unsure
    return key


def _flow_scalar(value: Any) -> str:
    """A scalar inside `[…]`: as in a block, but never one holding a comma, nor empty."""
    text = _scalar(value)
    if not text or "," in text:
        raise _Unsure
    return text


def _scalar(value: Any) -> str:
    """A scalar as ruamel writes it plain ('' for None)."""
    kind = type(value)
    if kind is str:
        if _PLAIN.fullmatch(value) and not _TYPED.fullmatch(value):
            return value
        raise _Unsure
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    if value is None:
        return ""
    if kind is dt.date:
        return value.isoformat()
    if (
        kind is DoubleQuotedScalarString
        and len(value) <= _QUOTED_MAX
        and _UNESCAPED.fullmatch(value)
        and value.anchor.value is None
    ):
        return f'"{value}"'
    raise _Unsure


__all__ = ["dump_item", "entry_text"]
