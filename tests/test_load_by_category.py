"""Loading validates a model file one category at a time (to keep memory down at scale): the
models and the error reports must be exactly those of validating the file whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catdoc import yaml_source
from catdoc.errors import LOAD_ERROR, CatDocError
from catdoc.model import ModelFile
from catdoc.project import load_project


def _category(index: int, broken: bool) -> str:
    tags = "oops" if broken else "[a]"
    return (
        f"  - id: c{index}\n"
        f"    objects:\n"
        f"      - {{id: o{index}a, title: A}}\n"
        f"      - {{id: o{index}b, tags: {tags}}}\n"
        f"    morphisms:\n"
        f"      - {{id: m{index}, source: o{index}a, target: o{index}b}}\n"
    )


def _write(root: Path, broken: list[bool]) -> str:
    entries = "".join(_category(i, b) for i, b in enumerate(broken))
    text = "categories:\n" + entries if entries else "categories: []\n"
    text += "functors: []\nfutureTopKey: 1\n"
    (root / ".catdoc").mkdir(parents=True, exist_ok=True)
    (root / ".catdoc" / "category.yaml").write_text(text, encoding="utf-8")
    return text


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(broken=st.lists(st.booleans(), min_size=0, max_size=5))
def test_by_category_matches_the_whole_file(tmp_path: Path, broken: list[bool]) -> None:
    text = _write(tmp_path, broken)
    whole = yaml_source.parse(text, "x")
    if any(broken):
        with pytest.raises(CatDocError) as info:
            load_project(tmp_path)
        assert info.value.code == LOAD_ERROR
        message = info.value.message
        assert f"{sum(broken)} schema problem(s)" in message  # every category's problem counted
        for index, bad in enumerate(broken):
            assert (f"object 'o{index}b', field 'tags'" in message) == bad
        return
    project = load_project(tmp_path)
    expected = ModelFile.model_validate(whole)
    assert [c.model_dump() for c in project.categories] == [
        c.model_dump() for c in expected.categories
    ]
    assert project.top_level_unknown == [(".catdoc/category.yaml", "futureTopKey")]
    assert all(o.origin == ".catdoc/category.yaml" for c in project.categories for o in c.objects)


def test_same_id_entries_keep_their_own_ordinals(tmp_path: Path) -> None:
    """Entities share one origin record only while their id is the first of its kind."""
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / ".catdoc" / "category.yaml").write_text(
        "categories:\n  - id: c\n    objects:\n      - {id: a}\n      - {id: a}\n      - {id: b}\n",
        encoding="utf-8",
    )
    objects = load_project(tmp_path).categories[0].objects
    assert [(o.origin, o.ordinal) for o in objects] == [
        (".catdoc/category.yaml", 0),
        (".catdoc/category.yaml", 1),
        (".catdoc/category.yaml", 0),
    ]
