"""A small project for the search tests: categories with a hierarchy and aliases, documents with
front matter, headings, dates relative to today, an inline object and a plain-text file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

TODAY = dt.date.today()

LOGIN = """---
title: Login requirements
---

# Login requirements

Users sign in with an e-mail address and a password.

## Lockout

After five failed attempts the account is locked for fifteen minutes.

## Sessions

A session expires after thirty minutes without activity.
"""

EXPORT = """# Data export

Customers can download their invoices as CSV files.

## Format

Columns are separated by commas; amounts use a dot as decimal separator.
"""

AUTH = """# Authentication service design

The service checks passwords with Argon2 and issues signed session tokens.

## Rate limiting

Repeated failed logins from one address are throttled.
"""

NOTES = """Release notes

The importer now reads UTF-8 files only.
Older files must be converted first.
"""


def make_project(base: Path) -> Path:
    """Write the project under `base/proj` and return its root."""
    root = base / "proj"
    (root / ".catdoc").mkdir(parents=True)
    (root / "docs" / "req").mkdir(parents=True)
    (root / "docs" / "design").mkdir(parents=True)
    (root / "docs" / "req" / "login.md").write_text(LOGIN, encoding="utf-8")
    (root / "docs" / "req" / "export.md").write_text(EXPORT, encoding="utf-8")
    (root / "docs" / "design" / "auth.md").write_text(AUTH, encoding="utf-8")
    (root / "docs" / "design" / "notes.txt").write_text(NOTES, encoding="utf-8")
    yesterday = (TODAY - dt.timedelta(days=1)).isoformat()
    recent = (TODAY - dt.timedelta(days=5)).isoformat()
    (root / ".catdoc" / "category.yaml").write_text(
        f"""categories:
  - id: engineering
    name: Engineering
    objects: []
  - id: requirements
    name: Requirements
    aliases: [reqs]
    parent: engineering
    objects:
      - id: req-login
        domain: requirements
        path: docs/req/login.md
        tags: [security, auth]
        author: Ada Lovelace
        updated: {yesterday}
      - id: req-export
        title: Data export
        domain: requirements
        path: docs/req/export.md
        tags: [data]
        author: Grace Hopper
        created: 2024-06-01
  - id: design
    name: Design
    parent: engineering
    objects:
      - id: des-auth
        title: Authentication service
        domain: design
        path: docs/design/auth.md
        tags: [security]
        author: Ada Lovelace
        created: {recent}
      - id: des-notes
        title: Release notes
        domain: design
        path: docs/design/notes.txt
  - id: notes
    name: Notes
    objects:
      - id: note-cpp
        title: Language notes
        content: "C++ templates, the AND operator, key:value pairs and -x flags."
""",
        encoding="utf-8",
    )
    return root
