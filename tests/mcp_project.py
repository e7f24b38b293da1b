"""A small, valid CatDoc project for the MCP tests, and helpers to call tools through a client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp.types import CallToolResult

MODEL = """\
# Test project for the MCP server.  (this comment must survive imports)
categories:
  - id: requirements
    name: Requirements
    description: What the product must do.
    aliases: [reqs]
    objects:
      - id: req-login
        title: Users log in
        domain: requirements
        path: docs/req-login.md
        tags: [security]
      - id: req-session
        title: Sessions expire
        domain: requirements
        content: A session ends after thirty minutes without activity.
    morphisms:
      - id: login-needs-session
        name: depends-on   # a typed relationship
        source: req-login
        target: req-session
  - id: design
    name: Design
    objects:
      - id: des-login-form
        title: Login form
        domain: design
        content: The login form posts the credentials to the session service.
      - id: des-session-store
        title: Session store
        domain: design
        content: Sessions live in a store with a time to live.
    morphisms:
      - id: form-uses-store
        name: uses
        source: des-login-form
        target: des-session-store
functors:
  - id: realize
    name: Requirements to Design
    sourceCategory: requirements
    targetCategory: design
    objectMapping: {req-login: des-login-form, req-session: des-session-store}
    morphismMapping: {login-needs-session: form-uses-store}
  - id: realize-v2
    name: Requirements to Design, v2
    sourceCategory: requirements
    targetCategory: design
    objectMapping: {req-login: des-login-form, req-session: des-session-store}
    morphismMapping: {login-needs-session: form-uses-store}
naturalTransformations:
  - id: upgrade
    name: v1 to v2
    sourceFunctor: realize
    targetFunctor: realize-v2
    components: {req-login: [], req-session: []}
"""

LONG_WORDS = 6000
LOGIN_DOC = "# Users log in\n\nA user logs in with a password. " + "detail " * LONG_WORDS + "\n"


def make_project(root: Path) -> Path:
    """Write the test project under `root` and return `root`."""
    (root / ".catdoc").mkdir(parents=True)
    (root / ".catdoc" / "category.yaml").write_text(MODEL, encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "req-login.md").write_text(LOGIN_DOC, encoding="utf-8")
    return root


def error_of(result: CallToolResult) -> dict[str, Any]:
    """The `error` body of a tool error (fails the test when the call succeeded)."""
    assert result.is_error, f"expected a tool error, got {result.content}"
    body = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert set(body) == {"error"}
    assert {"code", "message", "hint"} <= set(body["error"])
    return body["error"]


def data_of(result: CallToolResult) -> dict[str, Any]:
    """The structured output of a successful call; the text block carries the same JSON."""
    assert not result.is_error, result.content
    assert result.structured_content is not None
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    return result.structured_content


async def served_tools(root: Path) -> set[str]:
    """The tool names an in-process server for `root` registers: what a server started any
    other way (stdio, a broken project) must list too."""
    from catdoc.mcp_server import build_server
    from catdoc.service import CatDoc

    return {tool.name for tool in await build_server(CatDoc(root)).list_tools()}
