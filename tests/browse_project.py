"""A small project for the browsing tests: a category hierarchy, aliases and descriptions, a
document with nested headings, inline content, a missing file, an object with no text, and an
empty category; plus a copy of the traceability example."""

from __future__ import annotations

import shutil
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

MODEL = """\
categories:
  - id: engineering
    name: Engineering
    description: Everything technical.
    aliases: [eng]
    objects:
      - id: eng-overview
        title: Engineering overview
        path: docs/overview.md
        created: 2024-03-01
  - id: backend
    name: Backend services
    parent: engineering
    description: Servers and storage.
    objects:
      - id: api-guide
        title: API guide
        path: docs/api.md
        updated: 2025-06-30
      - id: db-notes
        title: Database notes
        content: The database keeps one table per customer. Backups run nightly.
    morphisms:
      - id: api-uses-db
        name: uses
        source: api-guide
        target: db-notes
  - id: frontend
    name: Frontend
    parent: engineering
    objects:
      - id: ui-missing
        title: Missing screen
        path: docs/missing.md
  - id: ops
    name: Operations
    description: Running the product, payment on-call included.
    objects:
      - id: ops-abstract
        title: An idea without text
  - id: archive
    name: Archive
"""

OVERVIEW = """\
# Engineering overview

How the product is built.
"""

API = """\
# API guide

Every call needs a token.

## Authentication

Clients authenticate first.

### Tokens

Tokens expire after one hour.

### Keys

Keys never expire.

## Errors

Errors come back as JSON with a code.
"""
"""Lines: `# API guide` 1, text 3; `## Authentication` 5–7; `### Tokens` 9–11; `### Keys`
13–15; `## Errors` 17–19."""


def make_browse_project(root: Path) -> Path:
    """Write the browsing test project under `root` and return `root`."""
    (root / ".catdoc").mkdir(parents=True)
    (root / ".catdoc" / "category.yaml").write_text(MODEL, encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "overview.md").write_text(OVERVIEW, encoding="utf-8")
    (root / "docs" / "api.md").write_text(API, encoding="utf-8")
    return root


def copy_example(name: str, dest: Path) -> Path:
    """A copy of an example project without its search cache, so tests never share an index."""
    shutil.copytree(EXAMPLES / name, dest, ignore=shutil.ignore_patterns("cache"))
    return dest
