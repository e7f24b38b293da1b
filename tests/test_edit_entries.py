"""Editing entries of a model file: untouched text stays byte for byte, comments between entries
stay where they are, and files that cannot be cut are edited whole with the same data."""

from __future__ import annotations

from typing import Any

import pytest
import yaml_rs
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from catdoc.edit.entries import EntryFile
from catdoc.errors import LOAD_ERROR, CatDocError

MODEL = """\
# The model.
name: demo
categories:
  # first, untouched: odd spacing and flow style stay exactly as written
  - id: a
    name:   A
    objects: [{id: a1}, {id: a2}]
  - id: b   # the one we edit
    name: B
    objects:
      - id: b1   # keep me
        title: B one

  # ---- heading of the functors
functors:
  - id: f
    sourceCategory: a
    targetCategory: b
    objectMapping: {a1: b1}
"""


def _add_b2_and_c(edited: EntryFile) -> None:
    b = edited.entry("categories", "b")
    b["objects"].append(CommentedMap(id="b2", title="B two"))
    edited.append("categories", CommentedMap(id="c", name="C"))


@pytest.mark.parametrize("indent", [0, 2, 4])
def test_only_the_touched_entries_change(indent: int) -> None:
    text = MODEL.replace("\n  ", "\n" + " " * indent) if indent != 2 else MODEL
    edited = EntryFile.open("category.yaml", text)
    _add_b2_and_c(edited)
    after = edited.render()
    assert after is not None
    expected = yaml_rs.loads(text)
    expected["categories"][1]["objects"].append({"id": "b2", "title": "B two"})
    expected["categories"].append({"id": "c", "name": "C"})
    assert yaml_rs.loads(after) == expected
    assert after.startswith(text[: text.index("- id: b")])  # entry a and the header
    assert "# keep me" in after and "# ---- heading of the functors" in after
    assert after.index("id: c") < after.index("# ---- heading")  # new entry before the gap
    assert after.endswith(text[text.index("functors:") :])


def test_an_untouched_render_is_none_and_a_handed_out_entry_is_not_a_change() -> None:
    edited = EntryFile.open("category.yaml", MODEL)
    assert edited.entry("categories", "a") is not None
    assert edited.render() is None


def test_removing_the_last_entry_keeps_the_comment_after_it() -> None:
    edited = EntryFile.open("category.yaml", MODEL)
    _add_b2_and_c(edited)
    grown = edited.render()
    assert grown is not None
    shrunk = EntryFile.open("category.yaml", grown)
    shrunk.remove("categories", "c")
    shrunk.entry("categories", "b")["objects"].pop()
    assert shrunk.render() == MODEL


def test_a_section_the_file_lacks_is_added_at_the_end() -> None:
    edited = EntryFile.open("category.yaml", "categories:\n  - id: a\n")
    edited.append("naturalTransformations", CommentedMap(id="eta", sourceFunctor="f"))
    after = edited.render()
    assert after is not None
    assert after.startswith("categories:\n  - id: a\n")
    assert yaml_rs.loads(after)["naturalTransformations"] == [{"id": "eta", "sourceFunctor": "f"}]


@pytest.mark.parametrize(
    "text",
    [
        "categories: [{id: a, name: A}, {id: b, name: B, objects: [{id: b1}]}]\n",
        "categories:\n  - id: a\n    name: A\n    tags: &t [x]\n"
        "  - id: b\n    name: B\n    tags: *t\n    objects: [{id: b1}]\n",
        "categories:\n  - id: b\n    objects: [{id: b1}]\n  - id: b\n    name: twice\n",
    ],
    ids=["flow", "aliases", "duplicate-ids"],
)
def test_files_that_cannot_be_cut_are_edited_whole(text: str) -> None:
    edited = EntryFile.open("category.yaml", text)
    edited.entry("categories", "b")["objects"].append(CommentedMap(id="b2"))
    after = edited.render()
    assert after is not None
    data = yaml_rs.loads(after)
    b = next(c for c in data["categories"] if c["id"] == "b")
    assert [o["id"] for o in b["objects"]] == ["b1", "b2"]


def test_an_empty_file_starts_a_model() -> None:
    edited = EntryFile.open("new.yaml", "")
    node: Any = CommentedMap(id="c", name="C")
    node["objects"] = CommentedSeq()
    edited.append("categories", node)
    after = edited.render()
    assert after is not None
    assert yaml_rs.loads(after) == {"categories": [{"id": "c", "name": "C", "objects": []}]}


def test_editing_invalid_yaml_is_a_load_error() -> None:
    with pytest.raises(CatDocError) as info:
        EntryFile.open("category.yaml", "categories: [\n")
    assert info.value.code == LOAD_ERROR


@pytest.mark.parametrize("whole", [False, True])
def test_an_entry_removed_and_added_again_is_there_once(whole: bool) -> None:
    """Removing an entry and adding one with the same id in one edit replaces it."""
    edited = EntryFile.open("category.yaml", MODEL)
    edited.remove("categories", "b")
    edited.append("categories", CommentedMap(id="b", name="B again"))
    if whole:
        edited._load_whole()
    after = edited.render()
    assert after is not None
    categories = yaml_rs.loads(after)["categories"]
    assert [c["id"] for c in categories] == ["a", "b"]
    assert categories[1] == {"id": "b", "name": "B again"}
    if not whole:  # a whole-file edit re-dumps the file; a spliced one keeps the rest
        assert after.startswith(MODEL[: MODEL.index("- id: b")])
        assert "# ---- heading of the functors" in after


@pytest.mark.parametrize("header", ["", "   # maps"])
@pytest.mark.parametrize("trailing", ["", "  # trailing note\n"])
@pytest.mark.parametrize("after", ["", "naturalTransformations: []\n"])
def test_removing_the_last_entry_under_a_comment_leaves_an_empty_list(
    header: str, trailing: str, after: str
) -> None:
    """The emptied list is still a list (the model refuses `functors:` with nothing), and the
    comment above the removed entry stays."""
    text = (
        f"categories:\n  - id: a\n    name: A\nfunctors:{header}\n  # the only functor\n"
        f"  - id: f\n    sourceCategory: a\n    targetCategory: a\n{trailing}{after}"
    )
    edited = EntryFile.open("category.yaml", text)
    edited.remove("functors", "f")
    rendered = edited.render()
    assert rendered is not None
    assert yaml_rs.loads(rendered)["functors"] == []
    assert "# the only functor" in rendered


@pytest.mark.parametrize(
    ("written", "grown"),
    [
        ("functors: []\n", "functors:\n{items}\n"),
        ("functors:   [ ]   # none yet\n", "functors:   # none yet\n{items}\n"),
        ("functors: []", "functors:\n{items}\n"),  # no line end at the end of the file
        ("functors:\n", "functors:\n{items}\n"),
        ("functors:\n# closing words\n", "functors:\n{items}\n# closing words\n"),
    ],
    ids=["flow", "flow-comment", "no-line-end", "null", "null-comment"],
)
def test_items_added_to_an_empty_section_leave_the_rest_byte_for_byte(
    written: str, grown: str
) -> None:
    """`functors: []` (as `catdoc init` writes) takes new items in place: the file is not
    re-dumped, so the comments, blank lines and spacing elsewhere stay exactly as they were."""
    head = "# The model.\ncategories:\n  - id: a   # first\n    name:   A\n\n# Traceability:\n"
    edited = EntryFile.open("category.yaml", head + written)
    edited.entry("categories", "a")["name"] = "A again"
    edited.append("functors", CommentedMap(id="f", sourceCategory="a", targetCategory="a"))
    edited.append("functors", CommentedMap(id="g", sourceCategory="a", targetCategory="a"))
    items = "  - id: f\n    sourceCategory: a\n    targetCategory: a\n" + (
        "  - id: g\n    sourceCategory: a\n    targetCategory: a"
    )
    new_head = head.replace("name:   A\n", "name: A again\n")
    assert edited.render() == new_head + grown.format(items=items)


def test_an_empty_section_left_alone_is_not_rewritten() -> None:
    """Removing every object of a file whose other sections are `[]` keeps those as written."""
    text = MODEL.replace("functors:", "naturalTransformations: []  # later\nfunctors:")
    edited = EntryFile.open("category.yaml", text)
    edited.entry("categories", "b")["objects"].pop()
    after = edited.render()
    assert after is not None
    assert "naturalTransformations: []  # later\n" in after
    assert after.startswith(text[: text.index("- id: b")])
