"""Loading `.catdoc/`: root discovery, merging, positions, schema and syntax errors, staleness."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.errors import LOAD_ERROR, PATH_OUTSIDE_PROJECT, PROJECT_NOT_FOUND, CatDocError
from catdoc.project import _Indexes, id_lines, load_project, model_version
from catdoc.project_files import find_root, resolve_inside, stamp
from catdoc.service import CatDoc

BASIC = """\
# a comment that must not matter
categories:
  - id: req
    name: Requirements
    objects:
      - id: a
        title: A
        created: 2026-01-05
      - id: b
        title: B
    morphisms:
      - id: f
        name: depends-on
        source: a
        target: b
        futureKey: kept
functors: []
"""


def make(root: Path, text: str = BASIC, extra: dict[str, str] | None = None) -> Path:
    (root / ".catdoc").mkdir(parents=True, exist_ok=True)
    (root / ".catdoc" / "category.yaml").write_text(text, encoding="utf-8")
    for name, body in (extra or {}).items():
        (root / ".catdoc" / "categories").mkdir(exist_ok=True)
        (root / ".catdoc" / "categories" / name).write_text(body, encoding="utf-8")
    return root


def test_find_root_walks_up(tmp_path: Path) -> None:
    make(tmp_path)
    deep = tmp_path / "docs" / "a" / "b"
    deep.mkdir(parents=True)
    assert find_root(deep) == tmp_path.resolve()


def test_find_root_without_project_says_how_to_fix(tmp_path: Path) -> None:
    with pytest.raises(CatDocError) as info:
        find_root(tmp_path)
    assert info.value.code == PROJECT_NOT_FOUND
    assert "catdoc init" in info.value.hint


def test_load_basic_project_with_positions(tmp_path: Path) -> None:
    project = load_project(make(tmp_path))
    assert [c.id for c in project.categories] == ["req"]
    a = project.object_by_id["a"]
    assert a.created is not None and a.created.isoformat() == "2026-01-05"
    assert project.category_of_object == {"a": "req", "b": "req"}
    assert project.locate(a) == ".catdoc/category.yaml:6"
    assert project.locate(project.morphism_by_id["f"]) == ".catdoc/category.yaml:12"
    assert project.locate(project.categories[0]) == ".catdoc/category.yaml:3"


def test_unknown_keys_are_kept_for_round_trip(tmp_path: Path) -> None:
    project = load_project(make(tmp_path))
    mor = project.morphism_by_id["f"]
    assert mor.unknown_keys() == ["futureKey"]
    assert mor.model_dump()["futureKey"] == "kept"


def test_extra_files_are_merged_and_duplicates_name_both_places(tmp_path: Path) -> None:
    extra = """\
categories:
  - id: design
    objects:
      - id: a
        title: duplicate of req's a
"""
    project = load_project(make(tmp_path, extra={"design.yaml": extra}))
    assert [c.id for c in project.categories] == ["req", "design"]
    assert project.files == [".catdoc/category.yaml", ".catdoc/categories/design.yaml"]
    [dup] = project.duplicates
    assert (dup.kind, dup.id) == ("object", "a")
    assert project.locate(dup.first) == ".catdoc/category.yaml:6"
    assert project.locate(dup.second) == ".catdoc/categories/design.yaml:4"


def test_duplicate_ids_in_one_file_get_distinct_lines(tmp_path: Path) -> None:
    text = BASIC.replace("      - id: b\n", "      - id: a\n")
    project = load_project(make(tmp_path, text))
    [dup] = project.duplicates
    assert project.locate(dup.first) == ".catdoc/category.yaml:6"
    assert project.locate(dup.second) == ".catdoc/category.yaml:9"


def test_yaml_syntax_error_reports_file_line_col(tmp_path: Path) -> None:
    make(tmp_path, "categories:\n  - id: x\n    objects: [a,\n")
    with pytest.raises(CatDocError) as info:
        load_project(tmp_path)
    assert info.value.code == LOAD_ERROR
    assert info.value.message.startswith(".catdoc/category.yaml:3:")
    assert "YAML syntax error" in info.value.message


BOM = b"\xef\xbb\xbf"


def test_a_byte_order_mark_is_not_part_of_the_first_key(tmp_path: Path) -> None:
    """An editor's BOM before `categories:` once made the key `\\ufeffcategories` (0 categories,
    "valid"); lines and the version still come from the bytes as they are."""
    make(tmp_path, BASIC.removeprefix("# a comment that must not matter\n"))
    model = tmp_path / ".catdoc" / "category.yaml"
    model.write_bytes(BOM + model.read_bytes())
    config = tmp_path / ".catdoc" / "config.yaml"
    config.write_bytes(BOM + b"search:\n  limit: 7\n")
    project = load_project(tmp_path)
    assert [cat.id for cat in project.categories] == ["req"]
    assert project.config.search.limit == 7
    assert project.locate(project.object_by_id["b"]) == ".catdoc/category.yaml:8"
    assert project.version == model_version(tmp_path)


def test_an_edit_of_a_file_with_a_byte_order_mark_reads_as_it_was_written(tmp_path: Path) -> None:
    make(tmp_path, BASIC.removeprefix("# a comment that must not matter\n"))
    model = tmp_path / ".catdoc" / "category.yaml"
    model.write_bytes(BOM + model.read_bytes())
    result = CatDoc(tmp_path).upsert_object("req", "b", {"title": "Bee"})
    after = load_project(tmp_path)
    assert after.object_by_id["b"].title == "Bee"
    assert [cat.id for cat in after.categories] == ["req"]
    assert result.version == after.version == model_version(tmp_path)


@pytest.mark.parametrize(
    ("rel", "text", "line"),
    [
        (".catdoc/category.yaml", BASIC.replace("title: B", "title: x\0y"), 10),
        (".catdoc/config.yaml", "search:\n  limit: 7\0\n", 2),
    ],
)
def test_a_nul_byte_is_a_load_error_at_its_line(
    tmp_path: Path, rel: str, text: str, line: int
) -> None:
    """yaml-rs cut `title: x\\0y` at the NUL; YAML allows no NUL in a stream at all."""
    make(tmp_path)
    (tmp_path / rel).write_text(text, encoding="utf-8")
    with pytest.raises(CatDocError) as info:
        load_project(tmp_path)
    assert info.value.code == LOAD_ERROR
    assert info.value.message.startswith(f"{rel}:{line}: the line holds a NUL byte")


@given(st.text(st.characters(codec="utf-8", exclude_characters="\r"), max_size=40), st.data())
@settings(max_examples=60, deadline=None)
def test_a_nul_byte_anywhere_is_refused_at_its_line(tmp_path_factory, tail: str, data) -> None:
    root = tmp_path_factory.mktemp("nul")
    text = BASIC + tail
    at = data.draw(st.integers(0, len(text)))
    make(root, text[:at] + "\0" + text[at:])
    with pytest.raises(CatDocError) as info:
        load_project(root)
    line = text[:at].count("\n") + 1
    assert info.value.message.startswith(f".catdoc/category.yaml:{line}: the line holds a NUL")


def test_schema_error_names_entity_field_and_expectation(tmp_path: Path) -> None:
    make(tmp_path, BASIC.replace("        title: B\n", "        title: B\n        tags: oops\n"))
    with pytest.raises(CatDocError) as info:
        load_project(tmp_path)
    message = info.value.message
    assert ".catdoc/category.yaml:11: object 'b', field 'tags'" in message  # the field's line
    assert "valid list" in message


def test_missing_required_field(tmp_path: Path) -> None:
    make(tmp_path, BASIC.replace("        target: b\n", ""))
    with pytest.raises(CatDocError) as info:
        load_project(tmp_path)
    assert "morphism 'f', field 'target': Field required" in info.value.message


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    make(tmp_path, "- just\n- a list\n")
    with pytest.raises(CatDocError, match="top level must be a mapping"):
        load_project(tmp_path)


def test_empty_model_file_is_an_empty_project(tmp_path: Path) -> None:
    project = load_project(make(tmp_path, "# nothing yet\n"))
    assert project.categories == [] and project.functors == []


def test_numeric_ids_are_strings(tmp_path: Path) -> None:
    project = load_project(make(tmp_path, "categories:\n  - id: 5\n    objects:\n      - id: 7\n"))
    assert project.categories[0].id == "5"
    assert "7" in project.object_by_id


def test_original_typescript_format_identities(tmp_path: Path) -> None:
    text = """\
categories:
  - id: c
    name: C
    objects:
      - {id: x, title: X, domain: c, content: "inline text"}
    morphisms:
      - id: id-x
        name: id_x
        source: x
        target: x
        metadata: {isIdentity: true}
functors:
  - id: f
    name: F
    sourceCategory: c
    targetCategory: c
    objectMapping: {x: x}
    morphismMapping: {id-x: id-x}
naturalTransformations: []
"""
    project = load_project(make(tmp_path, text))
    assert project.morphism_by_id["id-x"].is_identity
    functor = project.functor_by_id["f"]
    assert functor.source_category == "c"
    assert functor.morphism_mapping == {"id-x": "id-x"}
    assert functor.model_dump()["objectMapping"] == {"x": "x"}


def test_config_errors_are_load_errors(tmp_path: Path) -> None:
    make(tmp_path)
    (tmp_path / ".catdoc" / "config.yaml").write_text("dashboard: {port: not-a-port}\n")
    with pytest.raises(CatDocError, match=r"dashboard\.port"):
        load_project(tmp_path)


def test_stamp_changes_when_a_model_file_changes(tmp_path: Path) -> None:
    make(tmp_path)
    project = load_project(tmp_path)
    assert stamp(tmp_path) == project.fingerprint
    path = tmp_path / ".catdoc" / "category.yaml"
    path.write_text(BASIC + "\n# edited\n")
    os.utime(path, ns=(1, 1))
    assert stamp(tmp_path) != project.fingerprint
    before = stamp(tmp_path)
    (tmp_path / ".catdoc" / "categories").mkdir()
    (tmp_path / ".catdoc" / "categories" / "x.yaml").write_text("categories: []\n")
    assert stamp(tmp_path) != before


def test_resolve_inside_refuses_escapes(tmp_path: Path) -> None:
    root = make(tmp_path / "proj")
    (root / "docs").mkdir()
    assert resolve_inside(root, "docs/x.md") == (root / "docs" / "x.md").resolve()
    assert resolve_inside(root, root / "docs") == (root / "docs").resolve()
    outside = tmp_path / "secret.txt"
    outside.write_text("s")
    (root / "docs" / "link").symlink_to(outside)
    for bad in ["../secret.txt", str(outside), "/etc/passwd", "docs/../../secret.txt", "docs/link"]:
        with pytest.raises(CatDocError) as info:
            resolve_inside(root, bad)
        assert info.value.code == PATH_OUTSIDE_PROJECT


def test_id_lines_handles_quotes_comments_and_lists() -> None:
    text = "a:\n  - id: 'x'  # c\n  - id: \"y\"\n  -   id: z\n  id: x\n"
    assert id_lines(text) == {"x": [2, 5], "y": [3], "z": [4]}


def test_current_config_follows_every_edit(tmp_path: Path) -> None:
    """The remembered config is the file's current one, even after an edit of the same size
    within the file system's timestamp granularity."""
    from catdoc.project import current_config

    config = tmp_path / ".catdoc" / "config.yaml"
    config.parent.mkdir()
    for limit in (11, 12, 13, 12):
        config.write_text(f"search:\n  limit: {limit}\n", encoding="utf-8")
        assert current_config(tmp_path).search.limit == limit
    config.write_text("search:\n  limit: -1\n", encoding="utf-8")
    with pytest.raises(CatDocError):
        current_config(tmp_path)
    config.unlink()
    assert current_config(tmp_path).search.limit == 10


IDS = st.sampled_from(["a", "b", "c", "req"])
FILES = st.lists(
    st.lists(st.tuples(IDS, st.lists(IDS, max_size=3), st.lists(IDS, max_size=3)), max_size=2),
    min_size=1,
    max_size=3,
)


@settings(max_examples=60, deadline=None)
@given(FILES)
def test_indexes_and_origins_are_those_of_the_entity_by_entity_path(files: list) -> None:
    """Ids drawn from a few letters repeat within a file, across files and across kinds: the
    indexes, duplicates and ordinals the loader gives match those found one entity at a time
    (what a project that has an id twice anywhere gets)."""
    import tempfile

    def text(categories: list) -> str:
        lines = ["categories:"]
        for cat, objects, morphisms in categories:
            lines += [f"  - id: {cat}", "    objects:"]
            lines += [f"      - id: {o}" for o in objects] or ["      []"]
            lines.append("    morphisms:")
            lines += [f"      - {{id: {m}, source: a, target: b}}" for m in morphisms] or [
                "      []"
            ]
        return "\n".join(lines if categories else ["categories: []"]) + "\n"

    with tempfile.TemporaryDirectory() as folder:
        root = make(
            Path(folder),
            text(files[0]),
            {f"f{n}.yaml": text(categories) for n, categories in enumerate(files[1:])},
        )
        project = load_project(root)
        loaded = project._indexes
        origins = [
            (e.origin, e.ordinal) for c in project.categories for e in (c, *c.objects, *c.morphisms)
        ]
        project.ids_unique = False
        checked = _Indexes.build(project)
    assert loaded == checked
    places = {}
    expected = []
    for cat in project.categories:
        for entity in (cat, *cat.objects, *cat.morphisms):
            key = (entity.origin, entity.id)
            expected.append((entity.origin, places.get(key, 0)))
            places[key] = places.get(key, 0) + 1
    assert origins == expected


def test_a_large_model_loaded_while_collecting_cycles_is_frozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server or the terminal UI (the collector on) freezes a large model after loading it, so
    later collections do not traverse it; a one-shot command (collector off) or a small model
    is left as it is."""
    import gc

    from catdoc import project as project_module

    make(tmp_path)
    was_enabled = gc.isenabled()
    gc.unfreeze()
    try:
        gc.enable()
        load_project(tmp_path)
        assert gc.get_freeze_count() == 0  # 3 entities: below the threshold
        monkeypatch.setattr(project_module, "FREEZE_AFTER", 3)
        gc.disable()
        load_project(tmp_path)
        assert gc.get_freeze_count() == 0  # nothing collects: nothing to spare
        gc.enable()
        load_project(tmp_path)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        if not was_enabled:
            gc.disable()
