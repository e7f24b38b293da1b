"""Version control folders inside a project: their configuration and hooks run commands, so no
document, import or recovered write may reach into them."""

from __future__ import annotations

from pathlib import Path

VCS_METADATA = frozenset({".git", ".hg", ".svn", ".bzr", ".jj"})
"""Their names (a worktree's `.git` is a file), compared case-insensitively."""


def in_vcs_metadata(rel: str | Path) -> str | None:
    """The version control folder a project-relative path goes through, or None."""
    for part in Path(rel).parts:
        if part.casefold() in VCS_METADATA:
            return part
    return None


__all__ = ["VCS_METADATA", "in_vcs_metadata"]
