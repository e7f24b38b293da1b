"""The benchmark generator and runner: the generated project is lawful and the runner works.

Timings are not asserted here (machines differ); `python benchmarks/run.py` checks the budgets.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import run  # noqa: E402
from benchmarks.generate import MANIFEST, generate, load_manifest  # noqa: E402
from catdoc.service import CatDoc  # noqa: E402


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(203, tmp_path_factory.mktemp("bench") / "203")


def test_generated_project_validates_clean(project: Path) -> None:
    report = CatDoc(project).validate()
    assert report.is_valid
    assert report.errors == []
    assert report.warnings == []
    assert report.summary.categories_checked == 4
    assert report.summary.functors_checked == 4
    assert report.summary.natural_transformations_checked == 1


def test_generated_project_has_the_promised_shape(project: Path) -> None:
    svc = CatDoc(project)
    model = svc.project()
    info = load_manifest(project)
    assert len(model.object_by_id) == info["objects"] == 203
    assert len(model.morphism_by_id) == info["morphisms"] == 3 * 203
    assert [c.id for c in model.categories] == ["requirements", "specifications", "design", "tests"]
    for obj in model.object_by_id.values():
        assert obj.path is not None and (project / obj.path).is_file()
        assert obj.tags and obj.author and obj.created
    text = (project / model.categories[0].objects[0].path).read_text(encoding="utf-8")
    assert text.startswith("---\nid: req-00000\n")
    assert "\n## Details\n" in text
    assert 250 <= len(text.split("---", 2)[2].split()) <= 350


def test_flow_style_entries_are_located(project: Path) -> None:
    model = CatDoc(project).project()
    first = model.categories[0]
    assert model.locate(first.objects[1]).startswith(".catdoc/category.yaml:")
    assert model.locate(first.morphisms[0]).startswith(".catdoc/category.yaml:")


def test_generation_is_deterministic_and_regenerates_in_place(tmp_path: Path) -> None:
    first = generate(40, tmp_path / "a", seed=3)
    second = generate(40, tmp_path / "b", seed=3)
    model = Path(".catdoc/category.yaml")
    assert (first / model).read_bytes() == (second / model).read_bytes()
    doc = Path("docs/tests/test-00007.md")
    assert (first / doc).read_bytes() == (second / doc).read_bytes()
    generate(16, first, seed=4)
    assert load_manifest(first)["objects"] == 16
    assert not (first / doc).exists()


def test_generator_refuses_foreign_directories_and_tiny_sizes(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(FileExistsError, match="refusing to overwrite"):
        generate(40, tmp_path)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    with pytest.raises(ValueError, match="at least 8"):
        generate(5, tmp_path / "small")


def test_runner_measures_every_workload(project: Path) -> None:
    assert run.ensure_project(203, project.parent) == project
    rows = [
        *run.bench_validate(project, 203, 1),
        *run.bench_commands(project, 203, 1),
        *run.bench_mcp_start(project, 203, 1),
        *run.bench_trace(project, 203, 1),
        *run.bench_list(project, 203, 1),
    ]
    names = [row.workload for row in rows]
    assert names == [
        "validate (process)",
        "validate CPU (process)",
        "validate peak RSS",
        "validate unchanged (kept report)",
        "trace (process)",
        "trace CPU (process)",
        "trace peak RSS",
        "list objects (process)",
        "list objects CPU (process)",
        "list objects peak RSS",
        "mcp start → tools/list (process)",
        "trace (cold)",
        "trace (warm)",
        "list objects (warm)",
        "list objects by tag (warm)",
    ]
    assert all(row.samples and min(row.samples) > 0 for row in rows)
    table = run.table(rows)
    assert table.splitlines()[0] == "| workload | size | median | min | max | budget | ok? |"
    assert len(table.splitlines()) == 2 + len(rows)


def test_runner_reuses_a_matching_project_and_replaces_a_stale_one(tmp_path: Path) -> None:
    made = run.ensure_project(24, tmp_path)
    stamp = (made / MANIFEST).stat().st_mtime_ns
    assert run.ensure_project(24, tmp_path) == made
    assert (made / MANIFEST).stat().st_mtime_ns == stamp
    run.ensure_project(24, tmp_path, seed=1)
    assert load_manifest(made)["seed"] == 1
