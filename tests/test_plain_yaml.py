"""The fast writer of plain entries writes exactly what ruamel writes, or leaves it to ruamel."""

from __future__ import annotations

import io
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from catdoc.edit.entries import roundtrip_yaml
from catdoc.edit.layout import cut_dumped
from catdoc.edit.nodes import flow_safe
from catdoc.edit.plain_yaml import dump_item

SAFE = st.text(alphabet=st.sampled_from(list("aZ0 _./-yesnotrul")), max_size=10)
ANY = st.text(alphabet=st.sampled_from(list("abAZ09 _./()+,'-:#\"~é!\n")), max_size=12)
QUOTED = st.builds(
    DoubleQuotedScalarString,
    st.text(alphabet=st.sampled_from(list("aZ0 _,:#'\"\\→é\u2028\x85\ufeff\x7f\t\n")), max_size=12),
)
"""Text read from double quotes (kept so by the round trip), some of it needing escapes."""
SCALARS = st.one_of(
    SAFE, ANY, QUOTED, st.integers(-(10**6), 10**6), st.booleans(), st.none(), st.dates()
)
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
    """The entry with its lists of scalars in flow style (`tags: [a, b]`) where the edit path
    writes them so."""
    out = CommentedMap()
    for key, value in entry.items():
        if isinstance(value, list) and flow_safe(value):
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


@settings(max_examples=300, deadline=None)
@given(ENTRIES, st.sampled_from([2, 4, 6]), st.booleans())
def test_an_entry_read_from_a_file_is_written_as_ruamel_writes_it(
    entry: dict[str, Any], indent: int, flow: bool
) -> None:
    written = by_ruamel(with_flow_lists(entry) if flow else CommentedMap(entry), 2)
    node = roundtrip_yaml().load("objects:\n" + written)["objects"][0]
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


def test_a_functor_named_in_double_quotes_is_written_fast() -> None:
    node = CommentedMap({"id": "f", "name": DoubleQuotedScalarString("Requirements → Design")})
    node["objectMapping"] = CommentedMap({"a": "b"})
    assert dump_item(node, 2) == by_ruamel(node, 2)
    assert dump_item(node, 2) is not None
    escaped = CommentedMap({"id": "f", "name": DoubleQuotedScalarString('say "hi"')})
    assert dump_item(escaped, 2) is None


def test_a_functor_read_from_a_file_is_written_fast() -> None:
    text = 'f:\n  - id: f\n    name: "A \\u2192 B"\n    objectMapping:\n      a: b\n'
    node = roundtrip_yaml().load(text)["f"][0]
    assert (
        dump_item(node, 2)
        == by_ruamel(node, 2)
        == '  - id: f\n    name: "A → B"\n' + ("    objectMapping:\n      a: b\n")
    )
