"""A small project for the terminal browser's tests: a category hierarchy, Markdown and plain-text
documents, a functor with one missing and one wrong entry, and a natural transformation."""

from __future__ import annotations

from pathlib import Path

MODEL = """\
categories:
  - id: engineering
    name: Engineering
    description: Everything the team writes down.
  - id: requirements
    name: Requirements
    parent: engineering
    description: What the product must do.
    objects:
      - id: req-login
        title: Users log in
        path: docs/req/login.md
        tags: [security]
        author: Ada
      - id: req-session
        title: Sessions expire
        path: docs/req/session.md
      - id: req-audit
        title: Logins are audited
        content: Every login attempt is written to the audit log.
    morphisms:
      - id: login-needs-session
        name: depends-on
        source: req-login
        target: req-session
      - id: audit-watches-login
        name: watches
        source: req-audit
        target: req-login
  - id: design
    name: Design
    parent: engineering
    objects:
      - id: des-form
        title: Login form
        path: docs/design/form.md
      - id: des-store
        title: Session store
        path: docs/design/store.txt
    morphisms:
      - id: form-uses-store
        name: uses
        source: des-form
        target: des-store
      - id: store-feeds-form
        name: feeds
        source: des-store
        target: des-form
functors:
  - id: realize
    name: Requirements → Design
    sourceCategory: requirements
    targetCategory: design
    objectMapping:
      req-login: des-form
      req-session: des-store
    morphismMapping:
      login-needs-session: form-uses-store
      audit-watches-login: store-feeds-form
  - id: realize-v2
    name: Requirements → Design v2
    sourceCategory: requirements
    targetCategory: design
    objectMapping:
      req-login: des-form
      req-session: des-store
      req-audit: des-form
    morphismMapping:
      login-needs-session: form-uses-store
      audit-watches-login: []
naturalTransformations:
  - id: upgrade
    name: v1 ⇒ v2
    sourceFunctor: realize
    targetFunctor: realize-v2
    components:
      req-login: []
      req-session: []
"""

DOCS = {
    "docs/req/login.md": "---\ntitle: Users log in\n---\n# Users log in\n\nA user logs in with "
    "a **password** and a second factor.\n\n## Why\n\nAccounts hold payment data.\n",
    "docs/req/session.md": "# Sessions expire\n\nA session ends after thirty minutes.\n",
    "docs/design/form.md": "# Login form\n\nThe form posts the credentials to the session store.\n",
    "docs/design/store.txt": "Session store\n=============\nKeeps sessions with a time to live.\n",
}


def make_project(root: Path) -> Path:
    """Write the project under `root` (created if needed) and return `root`."""
    (root / ".catdoc").mkdir(parents=True, exist_ok=True)
    (root / ".catdoc" / "config.yaml").write_text("name: Login demo\n", encoding="utf-8")
    (root / ".catdoc" / "category.yaml").write_text(MODEL, encoding="utf-8")
    for rel, text in DOCS.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
