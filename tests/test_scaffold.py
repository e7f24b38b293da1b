"""`catdoc init`: the template, no silent overwrite, atomic files, and the packaged template."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from catdoc.errors import ALREADY_EXISTS, IO_ERROR, CatDocError
from catdoc.project import load_project
from catdoc.scaffold import init_project, template_dir
from catdoc.service import CatDoc

REPO = Path(__file__).resolve().parent.parent
TEMPLATE_FILES = ["category.yaml", "config.yaml", "docs/example.md"]


def test_init_creates_the_template_files(tmp_path: Path) -> None:
    result = init_project(tmp_path / "proj", name="Payments docs")
    root = tmp_path / "proj"
    assert result.root == str(root.resolve()) and not result.overwritten
    assert result.created == [f".catdoc/{f}" for f in TEMPLATE_FILES] + [".catdoc/.gitignore"]
    for rel in TEMPLATE_FILES:
        assert (root / ".catdoc" / rel).is_file()
    assert "name: Payments docs\n" in (root / ".catdoc/config.yaml").read_text()
    assert (root / ".catdoc/.gitignore").read_text() == "cache/\nlock\njournal.json*\n"
    mode = (root / ".catdoc/category.yaml").stat().st_mode & 0o777
    assert mode & 0o044, "files are readable by others like any file the user creates"
    assert not list((root / ".catdoc").glob(".*.tmp")), "no temp files left behind"


def test_the_template_validates_clean(tmp_path: Path) -> None:
    init_project(tmp_path)
    report = CatDoc(tmp_path).validate()
    assert report.is_valid and not report.warnings, report.model_dump()
    assert CatDoc(tmp_path).project().config.name == tmp_path.name


def test_names_that_need_quoting_stay_valid_yaml(tmp_path: Path) -> None:
    init_project(tmp_path / "a", name="docs: v2 # draft")
    assert CatDoc(tmp_path / "a").project().config.name == "docs: v2 # draft"
    init_project(tmp_path / "b", name="yes")
    assert CatDoc(tmp_path / "b").project().config.name == "yes"


def test_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    init_project(tmp_path)
    model = tmp_path / ".catdoc/category.yaml"
    model.write_text("categories: []\n")
    with pytest.raises(CatDocError) as caught:
        init_project(tmp_path)
    assert caught.value.code == ALREADY_EXISTS
    assert "--force" in caught.value.hint
    assert model.read_text() == "categories: []\n", "nothing is changed"


def test_force_rewrites_template_files_sets_the_model_aside_and_keeps_others(
    tmp_path: Path,
) -> None:
    init_project(tmp_path)
    extra = tmp_path / ".catdoc/categories/mine.yaml"
    extra.parent.mkdir()
    extra.write_text("categories: [{id: mine, name: Mine}]\n")
    (tmp_path / ".catdoc/notes.txt").write_text("mine")
    (tmp_path / ".catdoc/.gitignore").write_text("local/\n")
    result = init_project(tmp_path, force=True, bare=True)
    assert result.overwritten and result.backup is not None
    assert result.set_aside == [".catdoc/categories/mine.yaml"]
    assert not extra.exists()  # else the "empty" model would still hold its categories
    assert (tmp_path / result.backup / "categories/mine.yaml").read_text().startswith("categories")
    assert (tmp_path / ".catdoc/notes.txt").read_text() == "mine"
    assert load_project(tmp_path).categories == []
    assert (tmp_path / ".catdoc/.gitignore").read_text() == "local/\ncache/\nlock\njournal.json*\n"


def test_a_file_in_the_way_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(CatDocError) as caught:
        init_project(tmp_path / "file")
    assert caught.value.code == IO_ERROR
    (tmp_path / "p").mkdir()
    (tmp_path / "p/.catdoc").write_text("x")
    with pytest.raises(CatDocError) as caught:
        init_project(tmp_path / "p", force=True)
    assert caught.value.code == IO_ERROR


def test_template_is_found_from_source() -> None:
    files = {p.name for p in Path(str(template_dir())).iterdir()}
    assert {"category.yaml", "config.yaml", "docs"} <= files


@pytest.mark.slow
def test_init_works_from_an_installed_wheel(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "-q"]
    build = [*pip, "wheel", str(REPO), "--no-deps", "--no-build-isolation", "-w", str(wheels)]
    subprocess.run(build, check=True, capture_output=True)
    (wheel,) = wheels.glob("catdoc-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for rel in TEMPLATE_FILES:
        assert f"catdoc/_template/{rel}" in names
    site = tmp_path / "site"
    install = [*pip, "install", "--no-deps", "--target", str(site), str(wheel)]
    subprocess.run(install, check=True, capture_output=True)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run(
        [sys.executable, "-c", "import catdoc; print(catdoc.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.startswith(str(site)), "the installed copy is the one imported"
    init = subprocess.run(
        [sys.executable, "-m", "catdoc", "init", "fresh", "--name", "fresh"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert init.returncode == 0, init.stderr
    assert (work / "fresh/.catdoc/docs/example.md").is_file()
    check = subprocess.run(
        [sys.executable, "-m", "catdoc", "-C", "fresh", "validate"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr
