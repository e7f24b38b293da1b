"""Editing some categories of a model file: the rest of the file is kept byte for byte, and a
file that cannot be cut safely is edited whole, with the same result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml_rs
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from catdoc import category_edit
from catdoc.category_edit import edit_categories

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
  # trailing comment of the list
functors: []
"""


def add_object(doc: Any) -> None:
    """The kind of edit an import makes: an object into `b`, a new category `c`."""
    by_id = {c["id"]: c for c in doc["categories"]}
    assert set(by_id) <= {"b"}, "only the chosen entries are handed to the edit"
    by_id["b"]["objects"].append(CommentedMap(id="b2", title="B two"))
    doc["categories"].append(CommentedMap(id="c", name="C", objects=CommentedSeq()))


def expected_data(text: str) -> dict[str, Any]:
    data = yaml_rs.loads(text)
    data["categories"][1]["objects"].append({"id": "b2", "title": "B two"})
    data["categories"].append({"id": "c", "name": "C", "objects": []})
    return data


@pytest.mark.parametrize("indent", [0, 2, 4])
def test_only_the_chosen_entries_change(tmp_path: Path, indent: int) -> None:
    text = MODEL.replace("\n  ", "\n" + " " * indent) if indent != 2 else MODEL
    path = tmp_path / "category.yaml"
    path.write_text(text, encoding="utf-8")
    edit_categories(path, {"b", "c"}, add_object)
    after = path.read_text(encoding="utf-8")
    assert yaml_rs.loads(after) == expected_data(text)
    head = text[: text.index("- id: b")]
    assert after.startswith(head)  # entry a, its comments and the header: byte for byte
    assert after.endswith("functors: []\n")
    assert "# keep me" in after and "# trailing comment of the list" in after
    assert after.index("id: c") < after.index("functors:")


def test_files_that_cannot_be_cut_are_edited_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Flow-style lists and aliases between entries: the whole-file round trip, same data."""
    whole: list[Path] = []
    real = category_edit.edit_yaml

    def spy(path: Path, edit: Any, *, empty: Any = None) -> Any:
        whole.append(path)
        return real(path, edit, empty=empty)

    monkeypatch.setattr(category_edit, "edit_yaml", spy)
    flow = "categories: [{id: a, name: A}, {id: b, name: B, objects: [{id: b1}]}]\n"
    aliased = (
        "categories:\n  - id: a\n    name: A\n    tags: &t [x]\n"
        "  - id: b\n    name: B\n    tags: *t\n    objects: [{id: b1}]\n"
    )
    for name, text in [("flow", flow), ("aliased", aliased)]:
        path = tmp_path / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        edit_categories(path, {"b"}, _edit_b)
        assert whole[-1] == path
        data = yaml_rs.loads(path.read_text(encoding="utf-8"))
        assert [o["id"] for o in data["categories"][1]["objects"]] == ["b1", "b2"]


def _edit_b(doc: Any) -> None:
    """Here the whole document arrives: `b` is found among all entries."""
    b = next(c for c in doc["categories"] if c["id"] == "b")
    b["objects"].append(CommentedMap(id="b2", title="B two"))


def test_a_missing_file_starts_from_empty(tmp_path: Path) -> None:
    path = tmp_path / "new.yaml"

    def create(doc: Any) -> None:
        doc["categories"] = CommentedSeq([CommentedMap(id="c", name="C")])

    edit_categories(path, {"c"}, create, empty=CommentedMap())
    assert yaml_rs.loads(path.read_text(encoding="utf-8")) == {
        "categories": [{"id": "c", "name": "C"}]
    }
