"""Projects for the terminal browser's tests: copies of the examples (so nothing is written into
the repository, and files can be edited), and a generated 10,000-object project."""

from __future__ import annotations

from pathlib import Path

import browse_project


def copy_example(name: str, parent: Path) -> Path:
    """`examples/<name>` copied to `parent/<name>`, without any derived cache."""
    return browse_project.copy_example(name, parent / name)


def make_big_project(root: Path, count: int = 10_000) -> Path:
    """One category of `count` objects with inline content (no documents to read)."""
    (root / ".catdoc").mkdir(parents=True)
    objects = "".join(f"      - id: o{i}\n        content: text {i}\n" for i in range(count))
    model = f"categories:\n  - id: big\n    name: Big\n    objects:\n{objects}"
    (root / ".catdoc" / "category.yaml").write_text(model, encoding="utf-8")
    return root
