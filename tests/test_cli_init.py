"""`catdoc init` over an existing project: it says so (inside one too) and changes nothing;
`--force` copies every file it replaces into `.catdoc/backups/` first; an init that fails at
any write leaves the project byte for byte (and time for time) as it was."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catdoc import scaffold
from catdoc.cli import app
from catdoc.errors import ALREADY_EXISTS, IO_ERROR, CatDocError
from catdoc.scaffold import init_project, template_text
from catdoc.service import CatDoc

runner = CliRunner()
EDITED = "# my own model\ncategories: []\n"


def tree(root: Path) -> dict[str, tuple[bytes, int, int] | None]:
    """Every file and folder under `root`: bytes, mode and modification time (None: a folder)."""
    out: dict[str, tuple[bytes, int, int] | None] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        stat = path.stat()
        out[rel] = (path.read_bytes(), stat.st_mode, stat.st_mtime_ns) if path.is_file() else None
    return out


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    init_project(root)
    (root / ".catdoc/category.yaml").write_text(EDITED, encoding="utf-8")
    (root / ".catdoc/categories").mkdir()
    (root / ".catdoc/categories/more.yaml").write_text("categories: []\n", encoding="utf-8")
    (root / "docs").mkdir()
    return root


def test_init_in_a_project_says_so_and_changes_nothing(project: Path) -> None:
    before = tree(project)
    result = runner.invoke(app, ["init", str(project)])
    assert result.exit_code == 1
    assert "is a CatDoc project already" in result.stderr and "--force" in result.stderr
    assert ".catdoc/backups/" in result.stderr
    assert tree(project) == before


def test_init_inside_a_project_says_so_and_changes_nothing(project: Path) -> None:
    before = tree(project)
    result = runner.invoke(app, ["-C", str(project / "docs"), "init", "--format", "json"])
    assert result.exit_code == 1
    error = json.loads(result.stderr)["error"]
    assert error["code"] == ALREADY_EXISTS
    assert f"inside the CatDoc project at {project}" in error["message"]
    assert "--force" in error["hint"] and f"catdoc -C {project}" in error["hint"]
    assert tree(project) == before


def test_force_nests_a_project_on_purpose(project: Path) -> None:
    result = runner.invoke(app, ["init", str(project / "docs"), "--force", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["overwritten"] is False and data["backup"] is None
    assert CatDoc(project / "docs").validate().is_valid
    assert (project / ".catdoc/category.yaml").read_text() == EDITED


def test_force_keeps_a_backup_of_what_it_replaces(project: Path) -> None:
    config = project / ".catdoc/config.yaml"
    config.write_text(config.read_text() + "# tuned by hand\n", encoding="utf-8")
    edited_config = config.read_bytes()
    result = runner.invoke(app, ["init", str(project), "--force"])
    assert result.exit_code == 0, result.output
    (backup,) = (project / ".catdoc/backups").iterdir()
    assert backup.name.startswith("init-") and backup.name.endswith("Z")
    assert f"kept in .catdoc/backups/{backup.name}/" in result.stdout
    assert (backup / "category.yaml").read_text() == EDITED
    assert (backup / "config.yaml").read_bytes() == edited_config
    assert not (backup / "docs").exists(), "an unchanged file needs no backup"
    assert (project / ".catdoc/category.yaml").read_text() == template_text("category.yaml")
    assert not (project / ".catdoc/categories/more.yaml").exists()
    assert (backup / "categories/more.yaml").read_text() == "categories: []\n"
    assert "Moved there too, so the model is the template alone" in result.stdout
    again = init_project(project, force=True, bare=True)  # within the same second, too
    assert again.backup is not None and again.backup != f".catdoc/backups/{backup.name}"
    assert (project / again.backup / "category.yaml").read_text() == template_text("category.yaml")
    assert init_project(project, force=True, bare=True).backup is None  # nothing to lose


@pytest.mark.parametrize("fail_at", [1, 2, 3])
def test_a_failed_forced_init_puts_everything_back(
    project: Path, monkeypatch: pytest.MonkeyPatch, fail_at: int
) -> None:
    for rel in ("config.yaml", "docs/example.md"):  # three files to replace, then
        path = project / ".catdoc" / rel
        path.write_text(path.read_text() + "\n# edited\n", encoding="utf-8")
    before = tree(project)
    calls = []
    real_write = scaffold.atomic_write

    def failing(path: Path, text: str) -> None:
        calls.append(path)
        if len(calls) == fail_at:
            raise CatDocError(IO_ERROR, f"Cannot write {path}: disk full.", "Free some space.")
        real_write(path, text)

    monkeypatch.setattr(scaffold, "atomic_write", failing)
    with pytest.raises(CatDocError) as caught:
        init_project(project, force=True)
    assert caught.value.code == IO_ERROR
    assert tree(project) == before


@pytest.mark.parametrize("fail_at", [1, 3, 4])
def test_a_failed_fresh_init_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_at: int
) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    (root / "README.md").write_text("hello\n", encoding="utf-8")
    before = tree(root)
    calls = []
    real_write = scaffold.atomic_write

    def failing(path: Path, text: str) -> None:
        calls.append(path)
        if len(calls) == fail_at:
            raise CatDocError(IO_ERROR, f"Cannot write {path}: disk full.", "Free some space.")
        real_write(path, text)

    monkeypatch.setattr(scaffold, "atomic_write", failing)
    result = runner.invoke(app, ["init", str(root)])
    assert result.exit_code == 1 and "disk full" in result.stderr
    assert tree(root) == before


def test_something_in_the_way_is_refused_before_any_write(project: Path) -> None:
    (project / ".catdoc/docs/example.md").unlink()
    (project / ".catdoc/docs/example.md").mkdir()
    before = tree(project)
    result = runner.invoke(app, ["init", str(project), "--force"])
    assert result.exit_code == 1 and "is in the way" in result.stderr
    assert tree(project) == before


@pytest.mark.parametrize("failing", ["mkdir", "mkstemp"])
def test_init_where_it_cannot_write_says_so_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    """A folder it may not write (chmod 555 as a non-root user) or cannot make (`/proc/self`):
    the folder's creation and the temporary file once raised PermissionError past the
    IO_ERROR (monkeypatched here: root writes anywhere)."""

    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    if failing == "mkdir":
        monkeypatch.setattr(Path, "mkdir", refused)
    else:
        monkeypatch.setattr(tempfile, "mkstemp", refused)
    result = runner.invoke(app, ["init", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Cannot write" in result.stderr and "Permission denied" in result.stderr
    assert f"Check that {tmp_path / '.catdoc'} is a folder you may write to" in " ".join(
        result.stderr.split()
    )


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_init_in_proc_is_an_io_error() -> None:
    result = runner.invoke(app, ["init", "/proc/self"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "Cannot write" in result.stderr


def test_init_under_a_file_is_an_io_error_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    result = runner.invoke(app, ["init", str(tmp_path / "afile" / "sub")])
    assert result.exit_code == 1, result.output
    assert "Not a directory" in result.stderr
    assert isinstance(result.exception, SystemExit)  # an error said, no traceback
    assert (tmp_path / "afile").read_text() == "x"
