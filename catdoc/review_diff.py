"""What changed in a document since it was reviewed, from git's history of the file.

The stamp holds only a fingerprint, so the reviewed text is found by walking the file's recent
commits (`git log`, bounded) and fingerprinting each version (one `git cat-file --batch` reads
them all) until one matches; the diff from that version to the working file is what the
reviewer has to read. Git runs as a subprocess with a timeout and no shell; when it is missing,
the project is not a repository, the file is untracked or no recent version matches, the
answer says so instead of a diff.
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from catdoc.fingerprints import text_fingerprint

MAX_REVISIONS = 100
"""Commits of a file searched for the reviewed text."""
MAX_DIFF_LINES = 60
"""Lines of a diff kept (the rest is counted)."""
GIT_TIMEOUT = 10.0


@dataclass(frozen=True)
class ReviewedDiff:
    """A unified diff from the reviewed version (`revision`) to the working file, or `note`
    saying why there is none."""

    lines: list[str] = field(default_factory=list)
    revision: str | None = None
    note: str = ""
    truncated: int = 0


def _git(
    root: Path, args: list[str], data: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    git = shutil.which("git")
    if git is None:
        raise FileNotFoundError("git")
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}
    return subprocess.run(
        [git, "-C", str(root), *args],
        input=data,
        capture_output=True,
        timeout=GIT_TIMEOUT,
        check=False,
        env=env,
    )


def _versions(output: bytes, revisions: list[str]) -> dict[str, bytes]:
    """The blobs `git cat-file --batch` printed, by revision (missing ones left out)."""
    found: dict[str, bytes] = {}
    at = 0
    for revision in revisions:
        end = output.find(b"\n", at)
        if end < 0:
            break
        header = output[at:end].split()
        at = end + 1
        if len(header) != 3 or header[1] != b"blob":
            continue
        size = int(header[2])
        found[revision] = output[at : at + size]
        at += size + 1
    return found


def reviewed_diff(root: Path, rel: str, stamped: str, current: str) -> ReviewedDiff:
    """The diff of document `rel` (project-relative) since the version whose fingerprint is
    `stamped`; `current` is its text now."""
    try:
        log = _git(root, ["log", f"-n{MAX_REVISIONS}", "--format=%H", "--", rel])
    except FileNotFoundError:
        return ReviewedDiff(note="git is not installed, so the reviewed text cannot be shown.")
    except (OSError, subprocess.SubprocessError) as exc:
        return ReviewedDiff(note=f"git could not be run ({type(exc).__name__}).")
    problem = log.stderr.decode("utf-8", "replace").strip()
    if log.returncode != 0 and "not a git repository" in problem:
        return ReviewedDiff(note="the project is not in a git repository; no history to diff.")
    if log.returncode != 0 and "does not have any commits" not in problem:
        first = problem.splitlines()[0][:200] if problem else f"exit status {log.returncode}"
        return ReviewedDiff(note=f"git log failed: {first}")
    revisions = log.stdout.decode("ascii", "replace").split() if log.returncode == 0 else []
    if not revisions:
        return ReviewedDiff(note=f"{rel} has no history in git (untracked or never committed).")
    request = "".join(f"{rev}:./{rel}\n" for rev in revisions).encode()
    try:
        batch = _git(root, ["cat-file", "--batch"], request)
    except (OSError, subprocess.SubprocessError) as exc:
        return ReviewedDiff(note=f"git could not be run ({type(exc).__name__}).")
    versions = _versions(batch.stdout, revisions)
    for revision in revisions:
        blob = versions.get(revision)
        if blob is None:
            continue
        text = blob.decode("utf-8-sig", "replace").replace("\r\n", "\n")
        if text_fingerprint(text) != stamped:
            continue
        lines = list(
            difflib.unified_diff(
                text.splitlines(),
                current.splitlines(),
                f"{rel} (reviewed, {revision[:10]})",
                f"{rel} (now)",
                lineterm="",
                n=2,
            )
        )
        return ReviewedDiff(
            lines[:MAX_DIFF_LINES], revision, "", max(0, len(lines) - MAX_DIFF_LINES)
        )
    return ReviewedDiff(
        note=f"none of the last {len(revisions)} commit(s) of {rel} holds the reviewed text "
        "(it was reviewed before it was committed, or longer ago)."
    )


__all__ = ["MAX_DIFF_LINES", "MAX_REVISIONS", "ReviewedDiff", "reviewed_diff"]
