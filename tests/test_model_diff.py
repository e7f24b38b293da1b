"""The model diff between git revisions of a temporary repository: entities added, removed and
changed, mapping entries, findings new and resolved, the working tree, the Markdown summary,
and the revisions that cannot be compared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from git_project import MODEL, commit_all, git, init_repo
from typer.testing import CliRunner

from catdoc.change_results import ModelDiff
from catdoc.cli import app
from catdoc.errors import LOAD_ERROR, NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.git_revisions import check_revision
from catdoc.model_diff import MAX_LISTED, render_diff
from catdoc.service import CatDoc

runner = CliRunner()

SECOND = (
    MODEL.replace(
        "{id: r1, title: Login, path: docs/r1.md}",
        "{id: r1, title: Sign-in, path: docs/r1.md, tags: [auth]}\n"
        "      - {id: r3, title: Logout, path: docs/r3.md}",
    )
    .replace(
        "      - {id: n1, name: uses, source: s1, target: s2}\n",
        "      - {id: n2, name: uses, source: s2, target: s1}\n",
    )
    .replace("objectMapping: {r1: s1, r2: s2}", "objectMapping: {r1: s1, r2: s1, r3: s2}")
    .replace("morphismMapping: {m1: n1}", "morphismMapping: {m1: n2}")
    .replace("    name: Specify\n", "    name: Specify v2\n")
    .replace("functors:", "  - {id: tests, name: Tests}\nfunctors:", 1)
)
"""Adds category `tests`, object `r3`, morphism `n2`; removes morphism `n1`; changes `r1`
(title, tags) and functor F (name) and three of F's entries. F then maps m1: r1 → r2 to
n2: s2 → s1, but F(r1) = s1: a functor typing error that the first revision did not have."""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "repo")
    (root / ".catdoc" / "category.yaml").write_text(SECOND, encoding="utf-8")
    (root / "docs" / "r3.md").write_text("# r3\n", encoding="utf-8")
    commit_all(root, "second")
    return root


def _entities(items: list) -> set[tuple[str, str]]:
    return {(c.kind, c.id) for c in items}


def test_entities_mappings_and_findings_between_two_commits(repo: Path) -> None:
    diff = CatDoc(repo).diff("HEAD~1", "HEAD")
    assert diff.from_revision == "HEAD~1" and diff.to_revision == "HEAD"
    assert diff.from_commit == git(repo, "rev-parse", "HEAD~1").strip()
    assert diff.to_commit == git(repo, "rev-parse", "HEAD").strip()
    assert _entities(diff.added) == {("category", "tests"), ("object", "r3"), ("morphism", "n2")}
    assert _entities(diff.removed) == {("morphism", "n1")}
    changed = {(c.kind, c.id): c.fields for c in diff.changed}
    assert changed == {("object", "r1"): ["title", "tags"], ("functor", "F"): ["name"]}
    assert next(c for c in diff.added if c.id == "r3").category == "req"
    entries = {(m.table, m.key): (m.before, m.after) for m in diff.mappings}
    assert entries == {
        ("objectMapping", "r2"): ("s2", "s1"),
        ("objectMapping", "r3"): (None, "s2"),
        ("morphismMapping", "m1"): ("n1", "n2"),
    }
    assert all(m.owner == "F" and m.owner_kind == "functor" for m in diff.mappings)
    new = {(f.code, tuple(f.ids)) for f in diff.new_findings}
    assert new and all("m1" in ids or "F" in ids for _, ids in new)
    assert all(f.severity == "error" for f in diff.new_findings)
    assert diff.resolved_findings == [] and not diff.unchanged


def test_the_other_way_round_new_findings_are_resolved(repo: Path) -> None:
    forward = CatDoc(repo).diff("HEAD~1", "HEAD")
    back = CatDoc(repo).diff("HEAD", "HEAD~1")
    assert _entities(back.added) == _entities(forward.removed)
    assert _entities(back.removed) == _entities(forward.added)
    assert {(f.code, tuple(f.ids)) for f in back.resolved_findings} == {
        (f.code, tuple(f.ids)) for f in forward.new_findings
    }
    assert back.new_findings == []


def test_the_working_tree_is_the_default_and_documents_count(repo: Path) -> None:
    svc = CatDoc(repo)
    assert svc.diff("HEAD").unchanged and svc.diff("HEAD").to_commit is None
    (repo / "docs" / "s2.md").unlink()
    (repo / ".catdoc" / "category.yaml").write_text(
        SECOND.replace("{id: r2, title: Session,", "{id: r2, title: Sessions,"), encoding="utf-8"
    )
    diff = svc.diff("HEAD")
    assert diff.to_revision == "working tree"
    assert [(c.id, c.fields) for c in diff.changed] == [("r2", ["title"])]
    assert [(f.code, f.ids) for f in diff.new_findings] == [("OBJ_FILE_MISSING", ["s2"])]


def test_an_unchanged_history_has_nothing_to_report(repo: Path) -> None:
    (repo / "README.md").write_text("not part of the model\n", encoding="utf-8")
    commit_all(repo, "readme")
    diff = CatDoc(repo).diff("HEAD~1", "HEAD")
    assert diff.unchanged and "No change to the model" in render_diff(diff)


def test_moving_an_object_to_another_category_is_a_change(repo: Path) -> None:
    moved = SECOND.replace("      - {id: r3, title: Logout, path: docs/r3.md}\n", "").replace(
        "  - {id: tests, name: Tests}",
        "  - id: tests\n    name: Tests\n    objects:\n"
        "      - {id: r3, title: Logout, path: docs/r3.md}",
    )
    (repo / ".catdoc" / "category.yaml").write_text(moved, encoding="utf-8")
    diff = CatDoc(repo).diff("HEAD")
    assert [(c.kind, c.id, c.category, c.fields) for c in diff.changed] == [
        ("object", "r3", "tests", ["category"])
    ]


def test_natural_transformation_components_are_mapping_changes(tmp_path: Path) -> None:
    nat = (
        "naturalTransformations:\n  - id: eta\n    sourceFunctor: F\n    targetFunctor: F\n"
        "    components: {r1: [], r2: []}\n"
    )
    root = init_repo(tmp_path / "repo")
    (root / ".catdoc" / "category.yaml").write_text(MODEL + nat, encoding="utf-8")
    commit_all(root, "eta")
    changed = nat.replace("{r1: [], r2: []}", "{r1: []}").replace("id: eta", "id: eta\n    name: η")
    (root / ".catdoc" / "category.yaml").write_text(MODEL + changed, encoding="utf-8")
    diff = CatDoc(root).diff("HEAD")
    assert [(c.kind, c.fields) for c in diff.changed] == [("naturalTransformation", ["name"])]
    assert [(m.owner_kind, m.table, m.key, m.before, m.after) for m in diff.mappings] == [
        ("naturalTransformation", "components", "r2", [], None)
    ]


def test_models_split_over_files_and_in_a_subdirectory(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "mono", subdir="product")
    extra = root / ".catdoc" / "categories"
    extra.mkdir()
    (extra / "tests.yaml").write_text(
        "categories:\n  - id: tests\n    objects:\n      - {id: t1, content: inline}\n",
        encoding="utf-8",
    )
    (root / ".catdoc" / "cache").mkdir()
    (root / ".catdoc" / "cache" / "junk.yaml").write_text(": not yaml :\n", encoding="utf-8")
    commit_all(tmp_path / "mono", "tests layer")
    diff = CatDoc(root).diff("HEAD~1", "HEAD")
    assert _entities(diff.added) == {("category", "tests"), ("object", "t1")}
    assert diff.new_findings == []


def test_symlinks_of_a_revision_are_followed_as_a_checkout_follows_them(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "mono", subdir="product")
    shared = root / "shared"
    shared.mkdir()
    (shared / "tests.yaml").write_text(
        "categories:\n  - id: tests\n    objects:\n      - {id: t1, path: docs/t1.md}\n",
        encoding="utf-8",
    )
    (root / "docs").mkdir(exist_ok=True)
    (shared / "t1.md").write_text("# T1\n", encoding="utf-8")
    (root / "docs" / "t1.md").symlink_to("../shared/t1.md")  # a document through a link
    (root / ".catdoc" / "categories").mkdir()
    (root / ".catdoc" / "categories" / "tests.yaml").symlink_to("../../shared/tests.yaml")
    commit_all(tmp_path / "mono", "tests layer, linked")
    svc = CatDoc(root)
    assert svc.validate().is_valid
    unchanged = svc.diff("HEAD")
    assert (unchanged.added, unchanged.removed, unchanged.new_findings) == ([], [], [])
    added = svc.diff("HEAD~1", "HEAD")
    assert _entities(added.added) == {("category", "tests"), ("object", "t1")}
    assert added.new_findings == []  # the linked document is there in the revision too
    (root / ".catdoc" / "categories" / "tests.yaml").unlink()
    (root / ".catdoc" / "categories" / "tests.yaml").symlink_to("/etc/passwd")
    commit_all(tmp_path / "mono", "a link out of the project")
    with pytest.raises(CatDocError) as outside:
        svc.diff("HEAD~1", "HEAD")  # as `catdoc validate` on a checkout of it
    assert outside.value.code == LOAD_ERROR and "outside the project" in outside.value.message


def test_a_revision_without_the_model_or_with_a_broken_one(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("before CatDoc\n", encoding="utf-8")
    commit_all(repo, "readme")
    root = init_repo(repo)
    with pytest.raises(CatDocError) as absent:
        CatDoc(root).diff("HEAD~1")
    assert absent.value.code == NOT_FOUND and ".catdoc/" in absent.value.message
    (root / ".catdoc" / "category.yaml").write_text("categories: [\n", encoding="utf-8")
    commit_all(root, "broken")
    (root / ".catdoc" / "category.yaml").write_text(MODEL, encoding="utf-8")
    with pytest.raises(CatDocError) as broken:
        CatDoc(root).diff("HEAD")
    assert broken.value.code == LOAD_ERROR
    assert "The model at 'HEAD'" in broken.value.message
    assert ".catdoc/category.yaml:" in broken.value.message


@pytest.mark.parametrize(
    "revision", ["--upload-pack=touch pwned", "-x", "HEAD HEAD", "a\0b", "x" * 5000, "a..b"]
)
def test_hostile_revisions_are_refused(repo: Path, revision: str) -> None:
    for args in ((revision,), ("HEAD", revision)):
        with pytest.raises(CatDocError) as refused:
            CatDoc(repo).diff(*args)
        assert refused.value.code == VALIDATION_ERROR
    assert not (repo / "pwned").exists()


def test_markdown_summary_for_a_pull_request(repo: Path) -> None:
    text = render_diff(CatDoc(repo).diff("HEAD~1", "HEAD"))
    assert text.startswith("### CatDoc model: HEAD~1 (")
    assert "**3 added, 1 removed, 2 changed; 3 mapping entries changed;" in text
    assert "- object `r1` (req): title, tags" in text
    assert "- functor `F` objectMapping `r3`: added, ↦ `s2`" in text
    assert "- functor `F` morphismMapping `m1`: `n1` → `n2`" in text
    assert "#### New findings" in text and "#### Resolved findings" not in text


def test_long_sections_are_cut_in_text_only() -> None:
    from catdoc.change_results import EntityChange

    many = [EntityChange(kind="object", id=f"o{i}") for i in range(MAX_LISTED + 5)]
    diff = ModelDiff(
        from_revision="a",
        from_commit="0" * 40,
        to_revision="working tree",
        to_commit=None,
        added=many,
        removed=[],
        changed=[],
        mappings=[],
        new_findings=[],
        resolved_findings=[],
        unchanged=False,
    )
    text = render_diff(diff)
    assert text.count("\n- object ") == MAX_LISTED and "… and 5 more" in text


def test_cli_text_json_and_errors(repo: Path) -> None:
    text = runner.invoke(app, ["-C", str(repo), "diff", "HEAD~1", "HEAD"])
    assert text.exit_code == 0, text.output
    assert "#### Added (3)" in text.stdout
    data = runner.invoke(app, ["-C", str(repo), "diff", "HEAD~1", "-f", "json"])
    body = json.loads(data.stdout)
    assert body["fromRevision"] == "HEAD~1" and body["toCommit"] is None
    assert {"added", "removed", "changed", "mappings", "newFindings"} <= set(body)
    option = runner.invoke(app, ["-C", str(repo), "diff", "--upload-pack=x"])
    assert option.exit_code == 2
    smuggled = runner.invoke(app, ["-C", str(repo), "diff", "-f", "json", "--", "-x"])
    assert smuggled.exit_code == 2
    assert json.loads(smuggled.stderr)["error"]["code"] == VALIDATION_ERROR
    unknown = runner.invoke(app, ["-C", str(repo), "diff", "nope"])
    assert unknown.exit_code == 2 and "No commit is named 'nope'" in unknown.stderr


@pytest.mark.parametrize(
    ("revision", "said"),
    [
        ("main..dev", "a range of revisions"),
        ("main...dev", "a range of revisions"),
        ("HEAD:../../etc/passwd", "characters no revision name needs"),
        ("refs/heads/../../x", "characters no revision name needs"),
    ],
)
def test_a_refused_revision_is_named_for_what_it_is(revision: str, said: str) -> None:
    with pytest.raises(CatDocError) as refused:
        check_revision(revision)
    assert refused.value.code == VALIDATION_ERROR and said in refused.value.message
