"""An edit's result is built from the models it validated for the bytes it wrote (not parsed
again), its splice is checked against the kept tree of the file as it was when that is current,
and the project it returns is the project a fresh load gives, to the byte."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml_rs
from hypothesis import HealthCheck, given, settings
from test_edit_properties import Step, steps
from test_edit_properties import apply as apply_plan

from catdoc import parsed_cache, yaml_source
from catdoc.edit import ModelEdit, edit_model
from catdoc.edit import entries as entries_module
from catdoc.errors import CatDocError
from catdoc.project import Project, file_digest, load_project, model_file

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"
REL = ".catdoc/category.yaml"
EXTRA = """\
categories:
  - id: notes
    name: Notes
    objects:
      - id: note-a
        title: Note A
      - id: note-a   # the same id twice: ordinals and duplicates must come out the same
        title: Note A again
unknownTopKey: kept
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    target = tmp_path / "project"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("cache"))
    extra = target / ".catdoc" / "categories"
    extra.mkdir(exist_ok=True)
    (extra / "notes.yaml").write_text(EXTRA, encoding="utf-8")
    return target


def picture(project: Project) -> dict[str, Any]:
    """Everything a load decides, as text: models byte for byte, origins and ordinals, where
    each entity is located, indexes, duplicates, version and fingerprint."""

    def entity(item: Any) -> tuple[str, str | None, int, str]:
        return (item.model_dump_json(), item.origin, item.ordinal, project.locate(item))

    objects = [obj for cat in project.categories for obj in cat.objects]
    morphisms = [mor for cat in project.categories for mor in cat.morphisms]
    return {
        "categories": [entity(c) for c in project.categories],
        "objects": [entity(o) for o in objects],
        "morphisms": [entity(m) for m in morphisms],
        "functors": [entity(f) for f in project.functors],
        "nats": [entity(n) for n in project.natural_transformations],
        "files": project.files,
        "unknown": project.top_level_unknown,
        "version": project.version,
        "fingerprint": project.fingerprint,
        "ids_unique": project.ids_unique,
        "config": project.config.model_dump_json(),
        "indexes": [
            {k: v.model_dump_json() for k, v in table.items()}
            for table in (
                project.category_by_id,
                project.object_by_id,
                project.morphism_by_id,
                project.functor_by_id,
                project.nat_by_id,
            )
        ],
        "homes": (project.category_of_object, project.category_of_morphism),
        "duplicates": [
            (d.kind, d.id, d.first.origin, d.second.ordinal) for d in project.duplicates
        ],
    }


def known_of(root: Path, rels: list[str]) -> dict[str, tuple[str, Any]]:
    known = {}
    for rel in rels:
        raw = (root / rel).read_bytes()
        text = raw.decode("utf-8")
        known[rel] = (file_digest(raw), model_file(yaml_source.parse(text, rel), text, rel))
    return known


@pytest.mark.parametrize("cached", [False, True], ids=["parsed", "kept"])
def test_a_project_from_known_models_is_the_project_loaded(
    root: Path, cached: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if cached:  # the fresh load then reads the kept trees, validated from their JSON
        monkeypatch.setattr(parsed_cache, "MIN_CHARS", 0)
        load_project(root)
    rels = [REL, ".catdoc/categories/notes.yaml"]
    assert len(load_project(root).files) > len(rels)  # and files no edit wrote
    fresh = picture(load_project(root))
    for chosen in (rels, rels[:1], rels[1:]):
        assert picture(load_project(root, known=known_of(root, chosen))) == fresh


def test_a_known_model_of_other_bytes_is_not_taken(root: Path) -> None:
    fresh = picture(load_project(root))
    stale = known_of(root, [REL])
    (root / REL).write_text(
        (root / REL).read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8"
    )
    changed = picture(load_project(root))
    assert picture(load_project(root, known=stale)) == changed
    assert changed["version"] != fresh["version"]


def test_an_edit_returns_the_project_a_fresh_load_gives(root: Path) -> None:
    project = load_project(root)
    fun = project.functors[0]
    source = fun.source_category
    target = project.category_by_id[fun.target_category].objects[0].id
    outcome = edit_model(
        project,
        lambda e: (
            e.upsert_object(source, "x-new", {"title": "New"}),
            e.set_mapping(fun.id, objects={"x-new": target}),
        ),
    )
    assert picture(outcome.project) == picture(load_project(root))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=steps)
def test_any_edit_returns_the_project_a_fresh_load_gives(
    tmp_path_factory: pytest.TempPathFactory, plan: list[Step]
) -> None:
    target = tmp_path_factory.mktemp("known") / "project"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("cache"))
    outcome = edit_model(load_project(target), lambda e: apply_plan(e, plan))
    assert picture(outcome.project) == picture(load_project(target))


def test_the_splice_is_checked_against_the_kept_tree_and_means_the_same(
    root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(parsed_cache, "MIN_CHARS", 0)
    other = tmp_path / "other"
    shutil.copytree(root, other)
    load_project(root)  # keeps the trees
    kept = sorted((root / ".catdoc" / "cache" / "parsed").glob("*.json"))
    before = [path.read_bytes() for path in kept]
    parsed: list[str] = []
    real = yaml_rs.loads

    def counting(text: str) -> Any:
        parsed.append(text)
        return real(text)

    def edit(project_root: Path) -> str:
        project = load_project(project_root)
        original = (project_root / REL).read_text(encoding="utf-8")
        parsed.clear()
        outcome = edit_model(
            project, lambda e: e.upsert_object("requirements", "x-new", {"title": "New"})
        )
        assert outcome.files == [REL]
        new = (project_root / REL).read_text(encoding="utf-8")
        assert original not in parsed, "the file as it was comes from its kept tree"
        assert parsed.count(new) == 1, "the result is parsed once: its check, model and load"
        return new

    monkeypatch.setattr(entries_module.yaml_rs, "loads", counting)
    with_kept = edit(root)
    # the edit writes no kept tree (the file changed; whoever reads it next keeps it)
    assert [path.read_bytes() for path in kept] == before
    shutil.rmtree(other / ".catdoc" / "cache", ignore_errors=True)
    monkeypatch.setattr(parsed_cache, "MIN_CHARS", 1 << 20)
    parsed.clear()
    outcome = edit_model(
        load_project(other), lambda e: e.upsert_object("requirements", "x-new", {"title": "New"})
    )
    assert outcome.files == [REL]
    assert (other / REL).read_text(encoding="utf-8") == with_kept
    assert "x-new" in with_kept and with_kept.startswith(
        (EXAMPLE / REL).read_text(encoding="utf-8")[:200]
    )


def test_the_kept_tree_is_read_only_when_current_and_nothing_is_made(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parsed_cache, "MIN_CHARS", 0)
    path = root / REL
    text = path.read_text(encoding="utf-8")
    digest = file_digest(text.encode())
    folder = root / ".catdoc" / "cache" / "parsed"
    assert parsed_cache.current(path, REL, text, digest, lambda: folder) is None
    assert not folder.exists()
    load_project(root)
    found = parsed_cache.current(path, REL, text, digest, lambda: folder)
    assert found is not None and found.tree() == yaml_rs.loads(text)
    assert parsed_cache.current(path, REL, text, "0" * 32, lambda: folder) is None
    path.write_text(text, encoding="utf-8")  # same bytes, another stat: not trusted
    assert parsed_cache.current(path, REL, text, digest, lambda: folder) is None


def test_an_edit_the_loader_would_refuse_is_not_written(root: Path) -> None:
    deep: dict[str, Any] = {"leaf": 1}
    for _ in range(70):
        deep = {"d": deep}
    before = (root / REL).read_bytes()
    project = load_project(root)
    with pytest.raises(CatDocError) as caught:
        edit_model(
            project,
            lambda e: e.upsert_object("requirements", "x-deep", {"metadata": deep}),
        )
    assert caught.value.code == "VALIDATION_ERROR"
    assert "nothing was written" in caught.value.message
    assert (root / REL).read_bytes() == before
    load_project(root)


def test_a_model_edit_shares_the_tree_of_its_check(root: Path) -> None:
    edit = ModelEdit(load_project(root))
    edit.upsert_object("requirements", "x-new", {"title": "New"})
    (rel, text), *_ = edit.rendered().items()
    shared = edit.parsed(rel, text)
    assert shared is not None and shared[0] == yaml_source.parse(text, rel)
    assert edit.parsed(rel, text) is None  # handed out once
