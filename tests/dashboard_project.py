"""The traceability example plus a category whose texts try to inject markup."""

from __future__ import annotations

import shutil
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "traceability"

HOSTILE_TITLE = "<img src=x onerror=window.__xss=1> Hostile"
HOSTILE_MODEL = """\
categories:
  - id: hostile
    name: "<script>window.__xss=4</script>Hostile"
    objects:
      - id: evil-doc
        title: "<img src=x onerror=window.__xss=1> Hostile"
        path: docs/hostile/evil.md
"""
HOSTILE_DOC = """\
# Evil <script>window.__xss=2</script>

<img src=x onerror="window.__xss=3">

[click](javascript:window.__xss=5) and **bold text**.
"""


def make_dashboard_project(root: Path) -> Path:
    """Copy the example to `root` and add the hostile category; returns `root`."""
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("cache"))
    (root / ".catdoc" / "categories" / "hostile.yaml").write_text(HOSTILE_MODEL, encoding="utf-8")
    (root / "docs" / "hostile").mkdir()
    (root / "docs" / "hostile" / "evil.md").write_text(HOSTILE_DOC, encoding="utf-8")
    return root
