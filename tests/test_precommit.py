"""The pre-commit hooks of this repository, run as users run them: `pre-commit try-repo` installs
CatDoc from this checkout into its own virtual environment (from the package index pip is
configured with) and runs the hooks in a temporary git repository holding a small CatDoc
project — both on a valid model, then `catdoc-validate` on a broken one."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from git_project import MODEL, init_repo

REPO = Path(__file__).resolve().parents[1]
HOOKS = REPO / ".pre-commit-hooks.yaml"

pytestmark = pytest.mark.slow


def test_the_hooks_are_declared_for_the_whole_project() -> None:
    hooks = {hook["id"]: hook for hook in yaml.safe_load(HOOKS.read_text(encoding="utf-8"))}
    assert set(hooks) == {"catdoc-validate", "catdoc-suspects"}
    assert hooks["catdoc-validate"]["entry"] == "catdoc validate --strict"
    assert hooks["catdoc-suspects"]["entry"] == "catdoc suspects"
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        files, exclude = re.compile(hook["files"]), re.compile(hook["exclude"])
        for path in (".catdoc/category.yaml", "sub/.catdoc/categories/x.yaml", "docs/a.md"):
            assert files.search(path) and not exclude.search(path), path
        assert exclude.search(".catdoc/cache/index.sqlite")
        assert not files.search("src/main.py")


def _try_repo(project: Path, home: Path, *hooks: str) -> subprocess.CompletedProcess[str]:
    """`pre-commit try-repo <this checkout> [HOOK] --all-files` in `project` (every hook when
    none is named); skips the test (saying why) when pre-commit cannot build the hooks'
    environment."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PIP_PREFER_BINARY": "1"}
    env.pop("VIRTUAL_ENV", None)
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), *hooks]
    result = subprocess.run(
        [*command, "--all-files", "--color", "never"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    output = result.stdout + result.stderr
    if "Installing environment" in output and "An unexpected error has occurred" in output:
        error = next(line for line in output.splitlines() if "unexpected error" in line)
        pytest.skip(f"pre-commit could not create the hook's environment: {error[:300]}")
    return result


@pytest.mark.skipif(
    importlib.util.find_spec("pre_commit") is None, reason="pre-commit is not installed"
)
@pytest.mark.skipif(not (REPO / ".git").exists(), reason="not run from a git checkout")
def test_the_hooks_run_through_pre_commit_try_repo(tmp_path: Path) -> None:
    project = init_repo(tmp_path / "project")
    home = tmp_path / "pre-commit-home"
    passed = _try_repo(project, home)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    for name in ("catdoc validate", "catdoc suspects"):
        line = next(line for line in passed.stdout.splitlines() if line.startswith(name))
        assert line.endswith("Passed"), passed.stdout

    broken = MODEL.replace("source: r1, target: r2}", "source: r1, target: r9}")
    (project / ".catdoc" / "category.yaml").write_text(broken, encoding="utf-8")
    failed = _try_repo(project, home, "catdoc-validate")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "Failed" in failed.stdout and "CAT_DANGLING_TARGET" in failed.stdout
