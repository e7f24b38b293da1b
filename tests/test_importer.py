"""`catdoc import`: adopting a docs tree, idempotent re-runs, links, conflicts, safety."""

from __future__ import annotations

import difflib
import html
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.edit.base import MAX_ID_LENGTH, allowed_id
from catdoc.errors import NOT_FOUND, PATH_OUTSIDE_PROJECT, VALIDATION_ERROR, CatDocError
from catdoc.importer.files import _excluded
from catdoc.importer.mkdocs import _text_of
from catdoc.importer.names import _unique, humanize, slugify
from catdoc.service import CatDoc

MODEL = ".catdoc/category.yaml"

TREE = {
    "docs/specs/auth.md": (
        "---\nid: req-auth\ntitle: Authentication\ntags: [security, login]\nauthor: Ada\n"
        "date: 2024-02-01\npriority: high\n---\n# Ignored heading\n\n"
        "Users log in, see @login and [login](login.md).\nDesign: @design-api\n"
    ),
    "docs/specs/login.md": "# Login flow\n\nBack to [[Authentication]].\n",
    "docs/specs/index.md": "# Requirements overview\n\nSee #some-morphism.\n",
    "docs/design/api.md": (
        "---\nid: design-api\ndomain: design\n---\n# API\n\nImplements @req-auth.\n"
    ),
    "docs/design/index.md": "# Design overview\n\nSee [api](api.md) and [site](https://x.org/a.md).\n",
    "docs/design/db.rst": "========\nDatabase\n========\n\nTables.\n",
    "docs/guide/intro.txt": "Plain text guide.\n",
    "docs/guide/setup.markdown": "Setup\n=====\n\nSteps.\n",
    "docs/guide/deep/notes.md": "# Notes\n",
    "docs/broken.md": "---\ntitle: [unclosed\n---\nbody\n",
}


def make_project(root: Path, tree: dict[str, str] = TREE) -> CatDoc:
    CatDoc.init(root)
    with (root / MODEL).open("a", encoding="utf-8") as model:
        model.write("# edited: the example stays (tests/test_adopt_links.py replaces it)\n")
    for rel, text in tree.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "docs/logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (root / "docs/.hidden.md").write_text("# hidden\n")
    return CatDoc(root)


def items(result) -> dict[str, tuple[str, str | None, str | None]]:
    return {i.path: (i.action, i.object_id, i.category) for i in result.items}


def items_by_path(result):
    return {i.path: i for i in result.items}


def created(result) -> list[str]:
    """The paths an import made objects of, sorted."""
    return sorted(i.path for i in result.items if i.action == "created")


@pytest.fixture
def project(tmp_path: Path) -> CatDoc:
    return make_project(tmp_path)


def test_adopt_a_docs_tree(project: CatDoc) -> None:
    result = project.import_documents(["docs"])
    got = items(result)
    assert got["docs/specs/auth.md"] == ("created", "req-auth", "specs")
    assert got["docs/specs/login.md"] == ("created", "login", "specs")
    assert got["docs/specs/index.md"] == ("created", "specs-index", "specs")
    assert got["docs/design/api.md"] == ("created", "design-api", "design")
    assert got["docs/design/index.md"] == ("created", "design-index", "design")
    assert got["docs/design/db.rst"] == ("created", "db", "design")
    assert got["docs/guide/intro.txt"] == ("created", "intro", "guide")
    assert got["docs/guide/deep/notes.md"] == ("created", "notes", "guide-deep")
    assert got["docs/broken.md"][0] == "skipped"
    assert got["docs/logo.png"][0] == "skipped"
    assert "docs/.hidden.md" not in got
    assert (result.created, result.skipped, result.updated) == (9, 2, 0)
    assert result.written == [MODEL]
    reasons = {i.path: i.reason for i in result.items}
    assert "not valid YAML" in reasons["docs/broken.md"]
    assert "not a document type" in reasons["docs/logo.png"]
    assert "2 files of this import would have id 'index'" in reasons["docs/design/index.md"]

    auth = project.object("req-auth")
    assert auth.title == "Authentication" and auth.tags == ["security", "login"]
    assert auth.author == "Ada" and str(auth.created) == "2024-02-01"
    assert auth.metadata == {"priority": "high"} and auth.path == "docs/specs/auth.md"
    assert project.object("login").title == "Login flow"
    assert project.object("db").title == "Database"
    assert project.object("setup").title == "Setup"
    assert project.object("intro").title == "Intro"
    assert project.object("design-api").domain == "design"
    guide = project.category("guide")
    assert guide.name == "Guide" and project.category("guide-deep").name == "Guide / Deep"

    report = project.validate()
    assert report.is_valid, report.errors
    assert not report.warnings, report.warnings
    shown = project.show_object("req-auth")
    assert shown.content and "Users log in" in shown.content


def test_rerun_is_idempotent(project: CatDoc, tmp_path: Path) -> None:
    project.import_documents(["docs"], link=True)
    before = (tmp_path / MODEL).read_bytes()
    again = project.import_documents(["docs"], link=True)
    assert again.created == again.updated == 0
    assert again.unchanged == 9
    assert again.written == [] and again.morphisms_created == []
    assert (tmp_path / MODEL).read_bytes() == before


def test_update_after_edit_touches_only_changed_fields(project: CatDoc, tmp_path: Path) -> None:
    project.import_documents(["docs"])
    model = tmp_path / MODEL
    text = model.read_text()
    model.write_text(text.replace("      - id: login\n", "      - id: login  # keep me\n"))
    doc = tmp_path / "docs/specs/login.md"
    doc.write_text("---\ntags: [flow]\nowner: Bob\n---\n# Login flow v2\n")
    result = project.import_documents(["docs/specs"])
    got = items(result)
    assert got["docs/specs/login.md"][0] == "updated"
    assert got["docs/specs/auth.md"][0] == "unchanged"
    login = project.object("login")
    assert login.title == "Login flow v2" and login.tags == ["flow"]
    assert login.metadata == {"owner": "Bob"}
    assert "- id: login  # keep me" in model.read_text()


def test_comments_and_key_order_are_kept(project: CatDoc, tmp_path: Path) -> None:
    model = tmp_path / MODEL
    original = model.read_text()
    project.import_documents(["docs"], link=True)
    text = model.read_text()
    for line in original.splitlines():
        if "#" in line:
            assert line in text
    assert text.index("- id: requirements") < text.index("- id: design\n")
    assert text.startswith(original.split("categories:")[0])


def test_link_creates_morphisms_within_one_category_only(project: CatDoc) -> None:
    result = project.import_documents(["docs"], link=True)
    by = {(r["source"], r["kind"], r["target"]): r for r in result.references}
    assert by[("req-auth", "object", "login")]["status"] == "linked"
    assert by[("req-auth", "link", "login.md")]["morphism"] == "req-auth-references-login"
    assert by[("login", "wiki", "Authentication")]["status"] == "linked"
    assert by[("req-auth", "object", "design-api")]["status"] == "cross-category"
    assert by[("design-api", "object", "req-auth")]["status"] == "cross-category"
    assert by[("design-index", "link", "api.md")]["status"] == "linked"
    assert by[("specs-index", "morphism", "some-morphism")]["status"] == "unresolved"
    assert not any(r["target"].startswith("https") for r in result.references)
    assert sorted(result.morphisms_created) == [
        "design-index-references-design-api",
        "login-references-req-auth",
        "req-auth-references-login",
    ]
    mor = project.morphism("req-auth-references-login")
    assert (mor.name, mor.source, mor.target) == ("references", "req-auth", "login")
    assert project.validate().is_valid
    again = project.import_documents(["docs"], link=True)
    assert again.morphisms_created == []
    assert {r["status"] for r in again.references if r["kind"] == "wiki"} == {"already-linked"}


def test_references_are_reported_without_link(project: CatDoc) -> None:
    result = project.import_documents(["docs/specs/auth.md"])
    assert result.morphisms_created == []
    statuses = {(r["target"], r["status"]) for r in result.references}
    assert ("login", "unresolved") in statuses  # login.md is not imported (yet)
    assert ("design-api", "unresolved") in statuses
    result = project.import_documents(["docs/specs"])
    assert ("login", "same-category") in {(r["target"], r["status"]) for r in result.references}


def test_front_matter_id_conflict_is_refused_unless_forced(project: CatDoc, tmp_path: Path) -> None:
    (tmp_path / "docs/export.md").write_text("---\nid: req-export\n---\n# Export v2\n")
    before = (tmp_path / MODEL).read_text()
    result = project.import_documents(["docs/export.md"])
    assert items(result)["docs/export.md"][0] == "skipped"
    assert "already exists" in result.items[0].reason and "--force" in result.items[0].reason
    assert (tmp_path / MODEL).read_text() == before
    forced = project.import_documents(["docs/export.md"], force=True)
    assert items(forced)["docs/export.md"] == ("updated", "req-export", "requirements")
    obj = project.object("req-export")
    assert obj.path == "docs/export.md" and obj.title == "Export v2"


def test_same_id_twice_in_one_import(project: CatDoc, tmp_path: Path) -> None:
    for name in ("a.md", "b.md"):
        (tmp_path / "dup" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "dup" / name).write_text("---\nid: twin\n---\ntext\n")
    result = project.import_documents(["dup"])
    got = items(result)
    assert got["dup/a.md"][:2] == ("created", "twin")
    assert got["dup/b.md"][0] == "skipped"


def test_slug_collisions_are_deterministic(project: CatDoc, tmp_path: Path) -> None:
    for rel in ("x/a/intro.md", "x/b/intro.md", "x/c/Intro!.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("text\n")
    result = project.import_documents(["x/c/Intro!.md", "x/b/intro.md", "x/a/intro.md"])
    assert [i.object_id for i in result.items] == ["a-intro", "b-intro", "c-intro"]
    assert "3 files of this import would have id 'intro'; used 'a-intro'." in (
        result.items[0].reason or ""
    )
    (tmp_path / "x" / "d").mkdir()
    (tmp_path / "x" / "d" / "a-intro.md").write_text("text\n")
    again = project.import_documents(["x/d/a-intro.md"])
    assert again.items[0].object_id == "d-a-intro"
    assert "id 'a-intro' belongs to another object; used 'd-a-intro'." in (
        again.items[0].reason or ""
    )


def test_new_object_in_a_functor_source_says_what_to_map(project: CatDoc) -> None:
    result = project.import_documents(["docs/specs/login.md"], category="requirements")
    assert "functor(s) realize" in (result.items[0].reason or "")
    codes = {f.code for f in project.validate().errors}
    assert "FUN_OBJECT_UNMAPPED" in codes


def test_explicit_category_and_domain(project: CatDoc, tmp_path: Path) -> None:
    result = project.import_documents(
        ["docs/guide"], category="Field Notes", domain="ops", recursive=False
    )
    assert {i.category for i in result.items} == {"field-notes"}
    assert {i.path for i in result.items} == {"docs/guide/intro.txt", "docs/guide/setup.markdown"}
    cat = project.category("field-notes")
    assert cat.name == "Field Notes" and cat.origin == MODEL
    assert {o.domain for o in cat.objects} == {"ops"}
    again = project.import_documents(["docs/guide/intro.txt"], category="reqs")
    assert "stays in category 'field-notes'" in (again.items[0].reason or "")


def test_tags_that_are_not_text_are_left_out_with_a_note(project: CatDoc, tmp_path: Path) -> None:
    doc = tmp_path / "docs" / "tagged.md"
    doc.write_text("---\ntags: [a, {b: c}, [d]]\n---\n# Tagged\n", encoding="utf-8")
    result = project.import_documents(["docs/tagged.md"])
    (item,) = result.items
    assert project.show_object(item.object_id or "").tags == ["a"]
    assert "{'b': 'c'}, ['d'] are not tags (a tag is text); left out" in (item.reason or "")


def test_category_from_domain(project: CatDoc) -> None:
    result = project.import_documents(["docs/design"], category_from="domain")
    got = items(result)
    assert got["docs/design/api.md"][2] == "design"
    assert got["docs/design/db.rst"][2] == "design"  # no domain: grouped by folder
    assert "no `domain`" in (items_by_path(result)["docs/design/db.rst"].reason or "")


def test_objects_go_to_the_file_that_defines_the_category(project: CatDoc, tmp_path: Path) -> None:
    extra = tmp_path / ".catdoc/categories/guide.yaml"
    extra.parent.mkdir()
    extra.write_text("# guides live here\ncategories:\n  - id: guide\n    name: Guide\n")
    result = project.import_documents(["docs/guide/intro.txt"])
    assert result.written == [".catdoc/categories/guide.yaml"]
    text = extra.read_text()
    assert text.startswith("# guides live here\n") and "path: docs/guide/intro.txt" in text


def test_glob_and_single_file(project: CatDoc, tmp_path: Path) -> None:
    result = project.import_documents(["docs/**/index.md"])
    assert {i.path for i in result.items} == {
        "docs/specs/index.md",
        "docs/design/index.md",
    }
    single = project.import_documents([str(tmp_path / "docs/guide/deep/notes.md")])
    assert items(single)["docs/guide/deep/notes.md"] == ("created", "notes", "deep")


def test_explicit_binary_file_is_skipped(project: CatDoc) -> None:
    result = project.import_documents(["docs/logo.png"])
    assert result.items[0].action == "skipped" and "binary" in (result.items[0].reason or "")
    assert result.written == []


def test_paths_outside_the_project_are_refused(project: CatDoc, tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-outside.md"
    outside.write_text("# secret\n")
    before = (tmp_path / MODEL).read_text()
    for path in ("../x.md", str(outside), "../*.md"):
        with pytest.raises(CatDocError) as info:
            project.import_documents([path])
        assert info.value.code == PATH_OUTSIDE_PROJECT
    assert (tmp_path / MODEL).read_text() == before
    (tmp_path / "docs/escape.md").symlink_to(outside)
    with pytest.raises(CatDocError) as info:
        project.import_documents(["docs/escape.md"])
    assert info.value.code == PATH_OUTSIDE_PROJECT
    walked = project.import_documents(["docs/guide"])
    assert all(i.path != "docs/escape.md" for i in walked.items)
    tree = project.import_documents(["docs"], recursive=True)
    assert items(tree)["docs/escape.md"][0] == "skipped"
    assert "secret" not in (tmp_path / MODEL).read_text()


def test_missing_paths_and_bad_options_write_nothing(project: CatDoc, tmp_path: Path) -> None:
    before = (tmp_path / MODEL).read_text()
    for kwargs, code in (
        ({"paths": ["docs/specs/auth.md", "docs/nope.md"]}, NOT_FOUND),
        ({"paths": ["docs/*.nothing"]}, NOT_FOUND),
        ({"paths": []}, VALIDATION_ERROR),
        ({"paths": ["docs"], "category_from": "colour"}, VALIDATION_ERROR),
    ):
        with pytest.raises(CatDocError) as info:
            project.import_documents(**kwargs)
        assert info.value.code == code and info.value.hint
    assert (tmp_path / MODEL).read_text() == before


def test_exclude_leaves_files_and_folders_out_of_folders_and_globs(
    project: CatDoc, tmp_path: Path
) -> None:
    (tmp_path / ".catdoc/config.yaml").write_text("import:\n  exclude: ['docs/**/deep']\n")
    svc = CatDoc(tmp_path)
    result = svc.import_documents(
        ["docs", "docs/design/db.rst"],
        exclude=["docs/guide/*.txt", "docs/specs", str(tmp_path / "docs/design/*.rst")],
    )
    got = items(result)
    assert not [path for path in got if path.startswith(("docs/specs/", "docs/guide/deep/"))]
    assert "docs/guide/intro.txt" not in got and got["docs/guide/setup.markdown"][0] == "created"
    assert got["docs/design/db.rst"][0] == "created"  # named explicitly: taken all the same
    assert result.excluded == 3  # intro.txt, and the folders specs/ and deep/ once each
    glob = svc.import_documents(["docs/**/*.md"], exclude=["**/index.md"])
    assert sorted(items(glob)) == [
        "docs/broken.md",
        "docs/design/api.md",
        "docs/specs/auth.md",
        "docs/specs/login.md",
    ]
    assert glob.excluded == 3  # the two index.md, and deep/notes.md (config.yaml)


def test_an_exclude_pattern_outside_the_project_is_refused(project: CatDoc, tmp_path: Path) -> None:
    before = (tmp_path / MODEL).read_text()
    for pattern in ("../*.md", str(tmp_path.parent / "x")):
        with pytest.raises(CatDocError) as info:
            project.import_documents(["docs"], exclude=[pattern])
        assert info.value.code == PATH_OUTSIDE_PROJECT
    assert (tmp_path / MODEL).read_text() == before


@given(
    st.lists(st.sampled_from(["docs", "a", "b.md", "_build", "x y"]), min_size=1, max_size=5),
    st.data(),
)
@settings(max_examples=200)
def test_a_pattern_made_from_a_path_excludes_it_and_what_is_below(
    parts: list[str], data: st.DataObject
) -> None:
    """Any part replaced by `*` and any run of parts by `**`: the path still matches."""
    pattern = [data.draw(st.sampled_from([part, "*", "?" * len(part), part])) for part in parts]
    start = data.draw(st.integers(0, len(parts)))
    end = data.draw(st.integers(start, len(parts)))
    pattern[start:end] = ["**"]
    glob = "/".join(pattern)
    assert _excluded("/".join(parts), [glob])
    assert _excluded("/".join([*parts, "below.md"]), [glob])
    assert not _excluded("/".join(["other", *parts]), ["/".join(parts)])


def test_a_pattern_of_many_double_stars_is_matched_in_linear_time() -> None:
    """`**/**/…/x` tried every way to split a deep path among its `**` parts: C(52, 12) ways for
    40 folders and 12 of them. The walk over pattern parts does it in 40 steps."""
    deep = "/".join(["a"] * 40)
    assert not _excluded(deep + "/y.md", ["**/" * 12 + "x"])
    assert _excluded(deep + "/x", ["**/" * 12 + "x"])
    assert _excluded(deep, ["**/a/**/a"])


# ---------------------------------------------------------------------------------- CLI
def test_cli_import_json_and_text(project: CatDoc, tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["-C", str(tmp_path), "import", "docs", "--link", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["created"] == 9 and data["written"] == [MODEL]
    assert "req-auth-references-login" in data["morphismsCreated"]
    text = runner.invoke(app, ["-C", str(tmp_path), "import", "docs"])
    assert text.exit_code == 0
    assert "unchanged 9" in text.stdout and "Nothing to write" in text.stdout


def test_cli_text_of_a_whole_tree_counts_files_and_puts_what_to_fix_first(
    tmp_path: Path,
) -> None:
    CatDoc.init(tmp_path, bare=True)
    pages = tmp_path / "docs/pages"
    pages.mkdir(parents=True)
    for n in range(60):  # each links the next; the last links a page that is not there
        (pages / f"p{n:02}.md").write_text(f"# Page {n}\n\nNext: [on](p{n + 1:02}.md).\n")
    (tmp_path / "docs/notes.md").write_text("# Notes\n\nSee [gone](missing.md).\n")
    out = CliRunner().invoke(
        app, ["-C", str(tmp_path), "import", "docs", "--link"], env={"COLUMNS": "200"}
    )
    assert out.exit_code == 0, out.output
    assert "Import: 61 files by category" in out.stdout
    assert "│ pages " in out.stdout and "│ 60 " in out.stdout
    assert "docs/pages/p07.md" not in out.stdout  # the files are counted, not listed
    references = out.stdout[out.stdout.index("References (ambiguous and unresolved first)") :]
    first_rows = [line for line in references.splitlines() if line.startswith("│")][:2]
    assert all("unresolved" in row for row in first_rows), first_rows
    assert "… and 11 more (use --format json)." in out.stdout
    assert "Morphisms created (59):" in out.stdout and "… and 49 more" in out.stdout


def test_cli_paths_are_relative_to_the_working_directory(
    project: CatDoc, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path / "docs/guide")
    result = CliRunner().invoke(app, ["import", "intro.txt", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["items"][0]["path"] == "docs/guide/intro.txt"


def test_cli_exclude_is_relative_to_the_working_directory(
    project: CatDoc, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path / "docs")
    runner = CliRunner()
    args = ["import", ".", "--exclude", "guide", "--exclude", "specs/*.md"]
    result = runner.invoke(app, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["excluded"] == 4  # guide/ (a folder, once) and the three specs/*.md
    assert not [i for i in data["items"] if i["path"].startswith(("docs/guide", "docs/specs"))]
    text = runner.invoke(app, args)
    assert "skipped 2, excluded 4." in text.stdout


def write_files(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_a_sphinx_tree_gives_the_files_sphinx_builds(project: CatDoc, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {  # Django: .txt pages, and requirements.txt in exclude_patterns
            "dj/conf.py": (
                "source_suffix = '.txt'\nextensions = ['djangodocs']\n"
                "exclude_patterns = ['_build', '_theme', 'requirements.txt', '**/includes/*']\n"
            ),
            "dj/index.txt": "Index\n=====\n",
            "dj/topics/db.txt": "Databases\n=========\n",
            "dj/requirements.txt": "sphinx\n",
            "dj/notes.rst": "Notes\n=====\n",  # no source suffix
            "dj/_build/html/index.txt": "built\n",
            "dj/_theme/LICENSE.txt": "licence\n",
            "dj/topics/includes/part.txt": "part\n",
            "dj/conf.md": "not built\n",
        },
    )
    result = project.import_documents(["dj"])
    assert sorted(items(result)) == ["dj/conf.py", "dj/index.txt", "dj/topics/db.txt"]
    assert items(result)["dj/conf.py"][0] == "skipped"  # conf.py is never a document
    assert result.not_built == 6  # _build/ and _theme/ once each
    glob = project.import_documents(["dj/**/*.txt"])
    assert glob.not_built == 4  # a glob counts the files it matches in _build/ and _theme/
    named = project.import_documents(["dj/requirements.txt", "dj/notes.rst"])
    assert [i.action for i in named.items] == ["created", "created"] and named.not_built == 0


def test_a_myst_project_imports_markdown(project: CatDoc, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "myst/conf.py": "extensions = ['sphinx.ext.autodoc', 'myst_parser']\n",
            "myst/index.md": "# Index\n",
            "myst/api.rst": "API\n===\n",
            "myst/notes.txt": "notes\n",
            "plain/conf.py": "project = 'rst only'\n",
            "plain/readme.md": "# Readme\n",
        },
    )
    result = project.import_documents(["myst", "plain"])
    assert created(result) == [
        "myst/api.rst",
        "myst/index.md",
    ]
    assert result.not_built == 2


def test_a_project_inside_an_excluded_folder_is_its_own(project: CatDoc, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "outer/conf.py": "exclude_patterns = ['api', 'old']\n",
            "outer/index.rst": "Index\n=====\n",
            "outer/old/page.rst": "Old\n===\n",
            "outer/api/conf.py": "project = 'api'\n",
            "outer/api/ref.rst": "Ref\n===\n",
        },
    )
    result = project.import_documents(["outer"])
    assert created(result) == [
        "outer/api/ref.rst",
        "outer/index.rst",
    ]
    assert result.not_built == 1


def test_extensions_computed_at_run_time_filter_no_suffix(project: CatDoc, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "comp/conf.py": (
                "extensions = BASE_EXTENSIONS + ['sphinx.ext.todo']\n"
                "exclude_patterns = ['drafts']\n"
            ),
            "comp/index.md": "# Index\n",
            "comp/notes.txt": "notes\n",
            "comp/drafts/wip.rst": "WIP\n===\n",
        },
    )
    result = project.import_documents(["comp"])
    assert created(result) == [
        "comp/index.md",
        "comp/notes.txt",
    ]
    assert result.not_built == 1  # drafts/: the patterns written out still count
    runner = CliRunner()
    (tmp_path / "comp/conf.py").write_text("exclude_patterns = ['drafts', '*.txt']\n")
    text = runner.invoke(app, ["-C", str(tmp_path), "import", "comp"])
    assert "not built by Sphinx 3." in text.stdout  # drafts/, notes.txt and index.md


def test_cli_errors(project: CatDoc, tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["-C", str(tmp_path), "import", "../x.md", "--format", "json"])
    assert result.exit_code == 2
    assert json.loads(result.stderr)["error"]["code"] == PATH_OUTSIDE_PROJECT
    result = runner.invoke(app, ["-C", str(tmp_path), "import", "docs", "--category-from", "x"])
    assert result.exit_code == 2


def test_an_import_into_existing_categories_only_adds_lines(tmp_path: Path) -> None:
    """After a first import the model holds `functors: []` and the init comments; a second import
    into the same categories inserts its objects and morphisms and changes no byte around them
    (not even spacing a round trip would normalise)."""
    CatDoc.init(tmp_path)
    tree = {
        "docs/requirements/a.md": "# A\n\nNeeds [b](b.md).\n",
        "docs/requirements/b.md": "# B\n",
        "docs/design/db.rst": "==\nDB\n==\n",
        "docs/design/api.md": "# API\n\nStores in [the db](db.rst).\n",
    }
    for rel, text in tree.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    CatDoc(tmp_path).import_documents(["docs/requirements/a.md", "docs/design/db.rst"])
    before = (tmp_path / MODEL).read_text(encoding="utf-8")
    assert "functors: []" in before and "\n\n  - id: design\n" in before
    before = before.replace("name: Design", "name:    Design    # spacing kept")
    (tmp_path / MODEL).write_text(before, encoding="utf-8")
    result = CatDoc(tmp_path).import_documents(["docs"], link=True)
    after = (tmp_path / MODEL).read_text(encoding="utf-8")
    assert (result.created, result.unchanged, len(result.morphisms_created)) == (2, 2, 2)
    old, new = before.splitlines(), after.splitlines()
    changes = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    assert {kind for kind, *_ in changes} == {"equal", "insert"}
    assert "    morphisms:\n      - id: a-references-b\n" in after


# --------------------------------------------------------------------------- ids it cannot use
LONG = "a" * 247  # with ".md", a file name of 250 bytes: legal, but its slug is over 200


def test_a_bad_front_matter_id_or_a_long_name_skips_or_shortens_one_file(tmp_path: Path) -> None:
    """Either aborted the whole import (rc 2, nothing imported) without naming the file."""
    svc = make_project(
        tmp_path,
        {
            "docs/bad.md": '---\nid: "bad id"\n---\n# Bad\n',
            f"docs/{LONG}.md": "# Long\n",
            f"docs/{LONG}.txt": "# Long too\n",
            "docs/ok.md": "# Ok\n",
        },
    )
    result = svc.import_documents(["docs"])
    got = items_by_path(result)
    assert got["docs/bad.md"].action == "skipped"
    assert "front matter id 'bad id' is not allowed" in (got["docs/bad.md"].reason or "")
    assert got["docs/ok.md"].action == "created"
    long_ids = {got[f"docs/{LONG}.{ext}"].object_id for ext in ("md", "txt")}
    assert len(long_ids) == 2 and all(ident and len(ident) == 200 for ident in long_ids)
    assert long_ids <= set(CatDoc(tmp_path).project().object_by_id)


def test_the_cli_names_the_skipped_file_and_imports_the_rest(tmp_path: Path) -> None:
    make_project(tmp_path, {"docs/bad.md": "---\nid: x y\n---\n# Bad\n", "docs/ok.md": "# Ok\n"})
    result = CliRunner().invoke(app, ["-C", str(tmp_path), "import", "docs", "-f", "json"])
    assert result.exit_code == 0, result.output
    got = {item["path"]: item for item in json.loads(result.stdout)["items"]}
    assert got["docs/bad.md"]["action"] == "skipped" and "'x y'" in got["docs/bad.md"]["reason"]
    assert got["docs/ok.md"]["action"] == "created"


@settings(max_examples=200, deadline=None)
@given(
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=400),
    st.sets(st.text("a-", min_size=195, max_size=200), max_size=5),
)
def test_generated_ids_are_allowed_and_unique(name: str, used: set[str]) -> None:
    base = slugify(name)[:MAX_ID_LENGTH].rstrip("-") or "document"
    before = set(used)
    for _ in range(3):
        ident = _unique(base, used)
        assert ident not in before and allowed_id(ident)
        before.add(ident)


MKDOCS_YML = """\
site_name: Demo
docs_dir: site-src
theme:
  name: material
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
extra:
  key: !ENV [DEMO_KEY, none]
nav:
  - Home: index.md
  - Guide:
      - Install: guide/install.md
      - guide/routing.md
      - Again: index.md
  - Source: https://github.com/x/y
  - Meta: /meta.md
  - <code>demo.&#8203;util</code> <!-- API -->: api/util.md
"""
MKDOCS_TREE = {
    "mkdocs.yml": MKDOCS_YML,
    "site-src/index.md": "Welcome.\n\n## Features\n",
    "site-src/guide/install.md": "---\ntitle: Installing Demo\n---\n## Steps\n",
    "site-src/guide/routing.md": "## HTTP Routing\n\nText.\n\n## WebSocket Routing\n",
    "site-src/meta.md": "title: Not this\n\n# Nor this\n",
    "site-src/notes.md": "Title: From Meta\nauthor: Ada\n\n# Heading\n",
    "site-src/changes.md": "---\nsummary: x\n---\ntitle: prose\n\n## Lone\n\n### Part\n",
    "README.md": "title: Not meta\n\n## Install\n\nText.\n\n## Usage\n",
    "site-src/part.md": "# Part title\n",
    "site-src/api/util.md": "::: demo.util\n",
    "site-src/whole.md": "```{include} part.md\n```\n\n## One\n\n## Two\n",  # MyST, not MkDocs
    "docs/.keep": "",
}


def test_titles_in_an_mkdocs_project_come_as_mkdocs_gives_them(tmp_path: Path) -> None:
    """starlette's pages open with prose and have `##` sections only: their titles are the
    `nav` entries of mkdocs.yml (which uses `!!python/name:` tags), not a heading far down."""
    svc = make_project(tmp_path, MKDOCS_TREE)
    svc.import_documents(["site-src", "README.md"])
    titles = {o.path: o.title for o in CatDoc(tmp_path).project().object_by_id.values()}
    assert titles["site-src/index.md"] == "Home"  # its first nav entry
    assert titles["site-src/guide/install.md"] == "Installing Demo"  # front matter wins
    assert titles["site-src/guide/routing.md"] == "Routing"  # no nav title, no lone heading
    assert titles["site-src/meta.md"] == "Meta"  # `/meta.md`: from docs_dir
    assert titles["site-src/notes.md"] == "From Meta"  # MultiMarkdown meta-data
    assert titles["site-src/changes.md"] == "Changes"  # after front matter, `title:` is prose
    assert titles["README.md"] == "README"  # outside docs_dir: no page of the site
    assert titles["site-src/whole.md"] == "Whole"  # MkDocs includes no MyST `{include}`
    # a nav title is HTML: its text, as themes write `page.title | striptags` (Python-Markdown)
    assert titles["site-src/api/util.md"] == "demo.\u200butil"


MYSTMD_TREE = {
    "book/myst.yml": (
        "version: 1\nproject:\n  toc:\n    - file: index.md\n      title: User Guide\n"
        "    - title: Part\n      children:\n        - file: guide/intro.md\n"
        "          title: Getting Started\n        - file: guide/plain\n          title: Plain\n"
        "        - file: ../outside.md\n          title: Not this\n"
        "    - file: notes.md\n      title: Nav Notes\n"
    ),
    "book/index.md": "---\ntitle: Jupyter Book User Guide\n---\nWelcome.\n",
    "book/guide/intro.md": "Prose first.\n\n## Steps\n\n## More\n",
    "book/guide/plain.md": "Text.\n",
    "book/notes.md": "# Notes heading\n\nText.\n",
    "outside.md": "Text.\n",
    "docs/.keep": "",
}


def test_titles_in_a_mystmd_project_come_as_mystmd_shows_them(tmp_path: Path) -> None:
    """mystmd titles a page by its front matter, then its heading, and only then by its `toc`
    entry in `myst.yml` (jupyter-book's `index.md`, `title: User Guide` in the toc, is
    "Jupyter Book User Guide"); a `file:` outside the config's folder is not read."""
    svc = make_project(tmp_path, MYSTMD_TREE)
    svc.import_documents(["book", "outside.md"])
    titles = {o.path: o.title for o in CatDoc(tmp_path).project().object_by_id.values()}
    assert titles["book/index.md"] == "Jupyter Book User Guide"  # front matter wins
    assert titles["book/guide/intro.md"] == "Getting Started"  # no title of its own
    assert titles["book/guide/plain.md"] == "Plain"  # a toc `file:` without its suffix
    assert titles["book/notes.md"] == "Notes heading"  # its heading wins over the toc
    assert titles["outside.md"] == "Outside"


def test_a_mystmd_project_is_the_nearest_myst_yml_with_a_project(tmp_path: Path) -> None:
    from catdoc.importer.mystmd import MystProjects

    tree = {
        "a/myst.yml": "version: 1\nproject:\n  references:\n    guide: https://x.org\n",
        "a/site/myst.yml": "version: 1\nsite:\n  template: book-theme\n",  # no project
        "a/site/page.md": "",
        "b/myst.yml": "project: &p\n  toc: [*p]\n",  # a toc that holds itself
        "c/myst.yml": "- not a mapping\n",
    }
    for rel, text in tree.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    books = MystProjects(tmp_path)
    found = books.of("a/site/page.md")
    assert found is not None and found.folder == "a" and found.references == {"guide"}
    self_holding = books.of("b/x.md")
    assert self_holding is not None and self_holding.titles == {}
    assert books.of("c/x.md") is None
    assert books.of("x.md") is None


def test_a_myst_yml_inherits_what_its_extends_names(tmp_path: Path) -> None:
    """mystmd's `extends:` (myst-cli's `getValidatedConfigsFromFile`): each inherited `project:`
    fills the keys the config leaves out, a later one over an earlier one; a URL is not
    fetched, and a config outside the project, unreadable, or in a cycle inherits nothing."""
    from catdoc.importer.mystmd import MystProjects

    tree = {
        "shared/base.yml": (
            "version: 1\nproject:\n  references:\n    guide: https://x.org\n"
            "  toc:\n    - file: intro.md\n      title: Base intro\n"
        ),
        "shared/later.yml": "version: 1\nextends: base.yml\nproject:\n  references: {spec: x}\n",
        "a/myst.yml": "version: 1\nextends: ../shared/base.yml\n",  # no project of its own
        "b/myst.yml": (
            "version: 1\nextends: [../shared/base.yml, ../shared/later.yml]\n"
            "project:\n  toc:\n    - file: intro.md\n      title: Own intro\n"
        ),
        "c/myst.yml": "version: 1\nextend:\n  - https://example.org/myst.yml\n  - ../../x.yml\n"
        "  - /etc/passwd\n  - myst.yml\n  - missing.yml\n  - 3\nproject: {}\n",
        "d/myst.yml": "version: 1\nextends: ../e/myst.yml\n",
        "e/myst.yml": "version: 1\nextends: ../d/myst.yml\nproject:\n  references: {e: x}\n",
    }
    for rel, text in tree.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    (tmp_path.parent / "x.yml").write_text("project:\n  references: {out: x}\n")
    books = MystProjects(tmp_path)
    a = books.of("a/intro.md")
    assert a is not None and a.references == {"guide"} and a.titles == {"intro.md": "Base intro"}
    b = books.of("b/intro.md")
    assert b is not None and b.references == {"spec"}  # later.yml's own, over base.yml's
    assert b.titles == {"intro.md": "Own intro"}
    c = books.of("c/x.md")
    assert c is not None and c.references == frozenset() and c.titles == {}
    d = books.of("d/x.md")
    assert d is not None and d.references == {"e"}  # e.yml's cycle back to d is cut


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Set up", "set-up"),
        ("2. Next steps", "id-2-next-steps"),  # an id starts with a letter
        ("-Leading and trailing-", "id-leading-and-trailing"),
        ("What's \u201cnew\u201d?", "whats-new"),  # quotes dropped, then `?` is a `-`
        ("pyproject.toml  options", "pyproject-toml-options"),
        ("\u00dcber", "id-ber"),  # only a-z, 0-9 and `-` stay
        ("!!!", "id"),  # `---`, then `id----`: what createHtmlId gives
    ],
)
def test_a_mystmd_heading_slug_is_createhtmlid_of_its_label(title: str, slug: str) -> None:
    from catdoc.importer.mystmd import heading_slug

    assert heading_slug(title) == slug


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_a_mystmd_heading_slug_is_always_an_html_id(title: str) -> None:
    from catdoc.importer.mystmd import heading_slug

    slug = heading_slug(title)
    assert slug == "" or re.fullmatch(r"[a-z](?:-?[a-z0-9])*", slug)


def test_mystmd_implicit_targets_leave_out_the_lifted_title_and_labelled_headings() -> None:
    from catdoc.documents import structure_of
    from catdoc.importer.mystmd import implicit_targets

    def slugs(text: str, meta: dict[str, object]) -> tuple[str, ...]:
        return implicit_targets(text, structure_of(text, "markdown"), meta)

    text = "% note\n\n# Title\n\n## A\n\n(b)=\n\n## B\n\n# Title\n"
    assert slugs(text, {}) == ("a", "title")  # the second `# Title` stays
    assert slugs(text, {"title": "Other"}) == ("title", "a")  # a title of its own: kept
    assert slugs(text, {"title": None}) == ("title", "a")  # `title: null` lifts nothing
    assert slugs("(top)=\n# Title\n\n## A\n", {"title": "Other"}) == ("a",)  # labelled
    assert slugs("Intro.\n\n# Title\n", {}) == ("title",)  # not first: stays


def test_mkdocs_configs_that_inherit_or_cannot_be_read(tmp_path: Path) -> None:
    tree = {
        "a/base.yml": "docs_dir: pages\nnav:\n  - Base title: x.md\n",
        "a/mkdocs.yml": "INHERIT: base.yml\nsite_name: A\n",
        "a/pages/x.md": "Text.\n",
        "b/mkdocs.yaml": "nav: [\n",  # not YAML: no MkDocs project
        "b/docs/y.md": "title: Meta\n\nText.\n",
        "c/mkdocs.yml": "nav: &n\n  - *n\n  - Deep: z.md\n",  # a nav that holds itself
        "c/docs/z.md": "Text.\n",
        "docs/.keep": "",
    }
    svc = make_project(tmp_path, tree)
    svc.import_documents(["a/pages", "b/docs", "c/docs"])
    titles = {o.path: o.title for o in CatDoc(tmp_path).project().object_by_id.values()}
    assert titles["a/pages/x.md"] == "Base title"
    assert titles["b/docs/y.md"] == "Y"
    assert titles["c/docs/z.md"] == "Deep"


def test_an_mkdocs_config_over_the_bound_is_passed_over(tmp_path: Path) -> None:
    """PyYAML took 37 s and 1.6 GB for 12 MB of short lists; a config longer than
    `MAX_CONFIG_CHARS` is passed over, as one that cannot be parsed."""
    from catdoc.importer.mkdocs import MAX_CONFIG_CHARS, MkDocsSites

    nav = "nav:\n  - Nav title: x.md\n"
    pad = "#" * 99 + "\n"
    tree = {
        "a/mkdocs.yml": nav + pad * ((MAX_CONFIG_CHARS - len(nav)) // len(pad)),
        "b/mkdocs.yml": nav + pad * (MAX_CONFIG_CHARS // len(pad) + 1),
    }
    for rel, text in tree.items():
        (tmp_path / rel).parent.mkdir(parents=True)
        (tmp_path / rel).write_text(text)
    sites = MkDocsSites(tmp_path)
    assert [page.nav_title if (page := sites.page(f"{d}/docs/x.md")) else None for d in "ab"] == [
        "Nav title",
        None,
    ]


def test_zensical_configs_the_homepage_autodoc_headings_and_capitalised_names(
    tmp_path: Path,
) -> None:
    """griffe's nav is in zensical.toml (pymdown's in zensical.yml); a homepage with no title of
    its own is "Home", as MkDocs has it; `# ::: griffe.Alias` is an mkdocstrings heading; and a
    file name with capitals keeps them (`pageTitle`), as MkDocs keeps them."""
    tree = {
        "g/zensical.toml": (
            '[project]\nsite_name = "G"\nnav = [\n  { "Home" = "index.md" },\n'
            '  { "Guide" = [ { "Loading" = "guide/loading.md" } ] },\n]\n'
        ),
        "g/docs/index.md": "Welcome.\n",
        "g/docs/guide/loading.md": "# Loading APIs\n",
        "g/docs/alias.md": "# ::: griffe.Alias\n",
        "p/zensical.yml": "docs_dir: src\nnav:\n  - '9.0': releases/9.0.md\n",
        "p/src/releases/9.0.md": "# 9.0 Migration Notes\n",
        "p/src/index.md": "## A\n\nText.\n\n## B\n",
        "p/src/pageTitle.md": "Page content.\n",
        "t/zensical.toml": "[project\n",  # not TOML: no site
        "t/docs/x.md": "Text.\n",
        "docs/.keep": "",
    }
    svc = make_project(tmp_path, tree)
    svc.import_documents(["g/docs", "p/src", "t/docs"])
    titles = {o.path: o.title for o in CatDoc(tmp_path).project().object_by_id.values()}
    assert titles["g/docs/index.md"] == "Home"
    assert titles["g/docs/guide/loading.md"] == "Loading"
    assert titles["g/docs/alias.md"] == "griffe.Alias"
    assert titles["p/src/releases/9.0.md"] == "9.0"
    assert titles["p/src/index.md"] == "Home"  # several `##` sections, no nav entry
    assert titles["p/src/pageTitle.md"] == "pageTitle"
    assert titles["t/docs/x.md"] == "X"


def test_a_titleless_page_keeps_a_dotted_file_name_and_sphinx_only_fields_are_dropped(
    tmp_path: Path,
) -> None:
    """celery's docs/reference/celery.app.amqp.rst has no title (`Celery.app.amqp` before), and
    its index pages `:Release: |version|` and `:Date: |today|` (a note: not a date)."""
    tree = {
        "docs/celery.app.amqp.rst": "Documents the module.\n",
        "docs/getting-started.rst": "Text.\n",
        "docs/guide.rst": "============\n User Guide\n============\n\n:Release: |version|\n"
        ":Date: |today|\n",
    }
    svc = make_project(tmp_path, tree)
    result = svc.import_documents(["docs"])
    assert not [i.reason for i in result.items if i.reason and i.path.endswith(".rst")]
    project = CatDoc(tmp_path).project()
    titles = {o.path: o.title for o in project.object_by_id.values()}
    assert titles["docs/celery.app.amqp.rst"] == "celery.app.amqp"
    assert titles["docs/getting-started.rst"] == "Getting started"
    assert project.object_by_id["guide"].metadata == {}
    assert humanize("my_pkg.sub_mod") == "my_pkg.sub_mod" and humanize("v1.2") == "V1.2"


_STRIP_COMMENTS = re.compile(r"<!--.*?-->", re.DOTALL)
_STRIP_TAGS = re.compile(r"<.*?>", re.DOTALL)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["<", "!", "-", ">", "a", " ", "&amp;", "<!--", "-->", "<b>"])))
def test_a_nav_titles_text_is_markupsafes_striptags(parts: list[str]) -> None:
    """The one-pass tag and comment removal gives what MarkupSafe's expressions give."""
    title = "".join(parts)
    expected = html.unescape(" ".join(_STRIP_TAGS.sub("", _STRIP_COMMENTS.sub("", title)).split()))
    assert _text_of(title) == expected


@pytest.mark.parametrize(
    ("title", "text"),
    [
        ("<!--" * 200_000, "<!--" * 200_000),
        ("<" * 400_000, "<" * 400_000),
        ("<a" * 200_000 + ">", ""),
    ],
)
def test_a_nav_title_of_unclosed_tags_is_read_in_linear_time(title: str, text: str) -> None:
    """MarkupSafe's expressions retry from every `<` with no end after it (a minute for 160 KB
    of `<!--`); one pass does not."""
    assert _text_of(title) == text
