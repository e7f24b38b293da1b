"""The fast writer of plain entries writes exactly what ruamel writes, or leaves it to ruamel."""

from __future__ import annotations

import io
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from catdoc.edit.entries import roundtrip_yaml
from catdoc.edit.layout import cut_dumped
from catdoc.edit.plain_yaml import dump_item

SAFE = st.text(alphabet=st.sampled_from(list("aZ0 _./-yesnotrul")), max_size=10)
ANY = st.text(alphabet=st.sampled_from(list("abAZ09 _./()+,'-:#\"~é!\n")), max_size=12)
SCALARS = st.one_of(SAFE, ANY, st.integers(-(10**6), 10**6), st.booleans(), st.none(), st.dates())
KEYS = st.text(alphabet=st.sampled_from(list("abcz_-09")), min_size=1, max_size=6)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=8,
)
ENTRIES = st.builds(lambda ident, rest: {"id": ident, **rest}, SAFE, st.dictionaries(KEYS, VALUES))


def by_ruamel(node: Any, indent: int) -> str:
    doc = CommentedMap()
    doc["objects"] = CommentedSeq([node])
    buffer = io.StringIO()
    roundtrip_yaml().dump(doc, buffer)
    dumped = buffer.getvalue()
    cut = cut_dumped(dumped)
    lines = dumped[cut.starts[0] : cut.end].splitlines(keepends=True)
    shift = indent - cut.indent
    return "".join(" " * shift + line if line.strip() else line for line in lines)


def with_flow_lists(entry: dict[str, Any]) -> CommentedMap:
    """The entry with its lists of scalars in flow style (`tags: [a, b]`), as the importer
    writes them."""
    out = CommentedMap()
    for key, value in entry.items():
        if isinstance(value, list) and not any(isinstance(v, list | dict) for v in value):
            value = CommentedSeq(value)
            value.fa.set_flow_style()
        out[key] = value
    return out


@settings(max_examples=300, deadline=None)
@given(ENTRIES, st.sampled_from([2, 4, 6]), st.booleans())
def test_what_it_writes_is_what_ruamel_writes(entry: dict[str, Any], indent: int, flow: bool):
    node = with_flow_lists(entry) if flow else CommentedMap(entry)
    fast = dump_item(node, indent)
    if fast is not None:
        assert fast == by_ruamel(node, indent)


def test_an_imported_object_is_written_fast() -> None:
    tags = CommentedSeq(["reliability", "security"])
    tags.fa.set_flow_style()
    node = CommentedMap(
        {"id": "req-1", "title": "Requirement 1 limit stream", "path": "docs/r/req-1.md"}
    )
    node["tags"] = tags
    assert dump_item(node, 6) == by_ruamel(node, 6)
    assert dump_item(node, 6) is not None


def test_comments_quotes_and_entries_without_id_go_to_ruamel() -> None:
    commented = CommentedMap({"id": "a", "title": "A"})
    commented.yaml_add_eol_comment("why", "title")
    assert dump_item(commented, 2) is None
    assert dump_item(CommentedMap({"id": "a", "title": "x: y"}), 2) is None
    assert dump_item(CommentedMap({"id": "a", "n": "123"}), 2) is None
    assert dump_item(CommentedMap({"title": "A"}), 2) is None
