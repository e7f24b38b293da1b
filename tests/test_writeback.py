"""Atomic writes and comment-preserving YAML edits."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml.comments import CommentedMap

from catdoc.errors import LOAD_ERROR, CatDocError
from catdoc.writeback import atomic_write, edit_yaml

ORIGINAL = """\
# Project model — hand-written, keep this comment
categories:
  - id: req   # requirements layer
    name: Requirements
    objects:
      - id: a
        title: "Quoted title"
functors: []
"""


def test_atomic_write_replaces_and_keeps_mode(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_text("old")
    path.chmod(0o640)
    atomic_write(path, "new")
    assert path.read_text() == "new"
    assert path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_edit_keeps_comments_order_and_quotes(tmp_path: Path) -> None:
    path = tmp_path / "category.yaml"
    path.write_text(ORIGINAL)

    def add(doc: CommentedMap) -> None:
        doc["categories"][0]["objects"].append(CommentedMap(id="b", title="B"))

    edit_yaml(path, add)
    text = path.read_text()
    assert text.startswith("# Project model — hand-written, keep this comment\n")
    assert "# requirements layer" in text
    assert 'title: "Quoted title"' in text
    assert text.index("categories") < text.index("functors")
    assert "- id: b" in text


def test_failed_edit_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "category.yaml"
    path.write_text(ORIGINAL)

    def boom(doc: CommentedMap) -> None:
        doc["categories"] = []
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        edit_yaml(path, boom)
    assert path.read_text() == ORIGINAL


def test_edit_of_invalid_yaml_is_a_load_error(tmp_path: Path) -> None:
    path = tmp_path / "category.yaml"
    path.write_text("categories: [\n")
    with pytest.raises(CatDocError) as info:
        edit_yaml(path, lambda doc: None)
    assert info.value.code == LOAD_ERROR
    assert path.read_text() == "categories: [\n"


def test_edit_creates_missing_file_from_empty(tmp_path: Path) -> None:
    path = tmp_path / "new.yaml"
    edit_yaml(path, lambda doc: doc.update(categories=[]), empty=CommentedMap())
    assert path.read_text() == "categories: []\n"
