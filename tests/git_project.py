"""A small CatDoc project in a temporary git repository, for tests of what changed between
revisions (impact --changed-since, diff, the pre-commit hooks)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

MODEL = """\
categories:
  - id: req
    name: Requirements
    objects:
      - {id: r1, title: Login, path: docs/r1.md}
      - {id: r2, title: Session, path: docs/r2.md}
    morphisms:
      - {id: m1, name: depends-on, source: r1, target: r2}
  - id: spec
    name: Specifications
    semantics: thin
    objects:
      - {id: s1, title: Login API, path: docs/s1.md}
      - {id: s2, title: Session API, path: docs/s2.md}
    morphisms:
      - {id: n1, name: uses, source: s1, target: s2}
functors:
  - id: F
    name: Specify
    sourceCategory: req
    targetCategory: spec
    objectMapping: {r1: s1, r2: s2}
    morphismMapping: {m1: n1}
"""
DOCUMENTS = ("r1", "r2", "s1", "s2")
_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(root: Path, *args: str) -> str:
    """Run git in `root` with a fixed identity and no user or system configuration."""
    result = subprocess.run(
        ["git", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **_ENV},
        timeout=60,
    )
    return result.stdout


def write_project(root: Path, model: str = MODEL) -> Path:
    """The model and one document per object under `root` (created if needed)."""
    (root / ".catdoc").mkdir(parents=True, exist_ok=True)
    (root / ".catdoc" / "category.yaml").write_text(model, encoding="utf-8")
    (root / ".catdoc" / "config.yaml").write_text("name: demo\n", encoding="utf-8")
    (root / "docs").mkdir(exist_ok=True)
    for name in DOCUMENTS:
        (root / "docs" / f"{name}.md").write_text(f"# {name}\n\nText of {name}.\n", "utf-8")
    return root


def commit_all(repo: Path, message: str) -> str:
    """Stage everything and commit; the new commit's id."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def init_repo(repo: Path, subdir: str = "") -> Path:
    """A git repository at `repo` with the project (at `repo/subdir`) committed; the project
    root."""
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    root = write_project(repo / subdir if subdir else repo)
    commit_all(repo, "model")
    return root
