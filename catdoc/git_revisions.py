"""What git knows about a project: which files changed since a revision, and the files of a
revision. Impact (`--changed-since`) and the model diff read git through here only.

A revision comes from a user or an assistant, so it is checked before git sees it: a revision
spelled like an option (`--upload-pack=…`, `-x`), with spaces, control characters or NUL, a range
(`a..b`), a `rev:path` or an over-long one is refused. The revision is then resolved once, with
`rev-parse --verify --end-of-options`, to a commit id, and only that id reaches other git
commands. git runs without a shell, with a timeout, and is never asked to prompt or to write.
"""

from __future__ import annotations

import os
import posixpath
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from catdoc.errors import GIT_ERROR, NOT_FOUND, VALIDATION_ERROR, CatDocError, quoted

GIT_TIMEOUT = 60.0
"""Seconds one git command may take (a huge repository's first diff refreshes its index)."""
MAX_REVISION_CHARS = 200
_REVISION = re.compile(r"[A-Za-z0-9_@][A-Za-z0-9._/~^@{}+-]*")
"""Commit ids, branch and tag names, HEAD~2, main^, HEAD@{1}, v1.0^{commit}: no option, no
whitespace or control character, no `:` (a path inside a revision) and no `\\`."""
_REVISION_HINT = (
    "Name one commit: a commit id, a branch or tag name, or HEAD~N (see `git log --oneline`)."
)


@dataclass(frozen=True)
class TreeFile:
    """A regular file or a symlink of a revision, under the project root."""

    path: str
    """Relative to the project root, with `/`."""
    oid: str
    size: int
    link: bool = False
    """A symlink: its blob is the link's target, as written."""


def check_revision(revision: str) -> str:
    """`revision` if it can only name a commit; a VALIDATION_ERROR otherwise (git never sees it)."""
    problem = None
    if not revision:
        problem = "An empty revision names no commit."
    elif len(revision) > MAX_REVISION_CHARS:
        problem = (
            f"The revision is {len(revision):,} characters long; revisions of at most "
            f"{MAX_REVISION_CHARS} are accepted."
        )
    elif revision.startswith("-"):
        problem = f"The revision {quoted(revision)} starts with '-', like an option of git."
    elif _is_range(revision):
        problem = f"{quoted(revision)} is a range of revisions; give one revision."
    elif ".." in revision or not _REVISION.fullmatch(revision):
        problem = (
            f"The revision {quoted(revision)} holds characters no revision name needs "
            "(whitespace, control characters, ':', '\\\\' or '..' inside a name)."
        )
    if problem:
        raise CatDocError(VALIDATION_ERROR, problem, _REVISION_HINT)
    return revision


def _is_range(revision: str) -> bool:
    """Whether `revision` is written as git's range of two revisions (`A..B`, `A...B`)."""
    ends = re.split(r"\.{2,3}", revision, maxsplit=1)
    return len(ends) == 2 and all(
        not end or (".." not in end and _REVISION.fullmatch(end)) for end in ends
    )


def _git(root: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run git in `root`; a missing git or a timeout is a GIT_ERROR."""
    env = {
        **os.environ,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",
        "LC_ALL": "C",
    }
    try:
        return subprocess.run(
            ["git", "-c", "core.quotePath=false", *args],
            cwd=root,
            input=stdin,
            capture_output=True,
            timeout=GIT_TIMEOUT,
            env=env,
            check=False,
        )
    except FileNotFoundError:
        raise CatDocError(
            GIT_ERROR,
            "git is not installed (or not on PATH), so revisions cannot be read.",
            "Install git, or leave out the revision.",
        ) from None
    except subprocess.TimeoutExpired:
        raise CatDocError(
            GIT_ERROR,
            f"git {args[0]} took longer than {GIT_TIMEOUT:.0f} s and was stopped.",
            "Retry; if it keeps happening, run the git command by hand to see why it is slow.",
        ) from None


def _failed(result: subprocess.CompletedProcess[bytes], what: str) -> CatDocError:
    said = result.stderr.decode("utf-8", "replace").strip().splitlines()
    detail = f": {said[-1][:300]}" if said else ""
    return CatDocError(
        GIT_ERROR,
        f"git could not {what}{detail}.",
        "Run the same git command by hand in the project to see the whole message.",
    )


def project_prefix(root: Path) -> str:
    """Where the project root sits in its git work tree ('' at the top, else 'sub/dir/')."""
    result = _git(root, "rev-parse", "--show-prefix")
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace")
        if "not a git repository" in message:
            raise CatDocError(
                GIT_ERROR,
                f"{root} is not inside a git repository, so there are no revisions to compare.",
                "Run it in a git checkout of the project (or `git init` and commit first).",
            )
        raise _failed(result, "find the repository")
    return result.stdout.decode("utf-8", "surrogateescape").strip()


def resolve(root: Path, revision: str) -> str:
    """The commit id `revision` names; NOT_FOUND when it names none."""
    check_revision(revision)
    project_prefix(root)  # a clear error outside a repository
    result = _git(
        root, "rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"
    )
    if result.returncode != 0:
        raise CatDocError(
            NOT_FOUND, f"No commit is named {quoted(revision)} in this repository.", _REVISION_HINT
        )
    return result.stdout.decode("ascii").strip()


def changed_files(root: Path, revision: str) -> list[str]:
    """Files under the project root that differ between `revision` and the working tree
    (committed, staged or not), plus new untracked ones, relative to the root, sorted. A moved
    file counts at both its paths: its old document is gone (rename detection, git's default,
    would name only the new path)."""
    commit = resolve(root, revision)
    diff = _git(
        root,
        "diff",
        "--name-only",
        "--no-renames",
        "--no-ext-diff",
        "--relative",
        "-z",
        commit,
        "--",
    )
    if diff.returncode != 0:
        raise _failed(diff, f"compare the working tree with {revision}")
    untracked = _git(root, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
    if untracked.returncode != 0:
        raise _failed(untracked, "list the untracked files")
    names = {
        normal_path(name.decode("utf-8", "surrogateescape"))
        for name in (diff.stdout + b"\0" + untracked.stdout).split(b"\0")
        if name
    }
    return sorted(names)


def tree_files(root: Path, commit: str, under: str = "") -> dict[str, TreeFile]:
    """The regular files and symlinks (no submodules) of `commit` below the project root, or
    below `under` inside it, by their path relative to the root."""
    prefix = project_prefix(root)
    where = prefix + under
    args = ["ls-tree", "-r", "-l", "-z", "--full-tree", commit]
    result = _git(root, *args, "--", where) if where else _git(root, *args)
    if result.returncode != 0:
        raise _failed(result, f"list the files of {commit[:12]}")
    files: dict[str, TreeFile] = {}
    for entry in result.stdout.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, kind, oid, size = meta.decode("ascii").split()
        path = raw_path.decode("utf-8", "surrogateescape")
        if kind != "blob" or mode not in _FILE_MODES or not path.startswith(prefix):
            continue
        rel = path[len(prefix) :]
        files[rel] = TreeFile(path=rel, oid=oid, size=int(size), link=mode == _LINK_MODE)
    return files


_LINK_MODE = "120000"
_FILE_MODES = ("100644", "100755", _LINK_MODE)


def read_blobs(root: Path, oids: list[str]) -> dict[str, bytes]:
    """The contents of the blobs `oids`, read in one `git cat-file --batch`."""
    if not oids:
        return {}
    unique = list(dict.fromkeys(oids))
    result = _git(root, "cat-file", "--batch", stdin="".join(f"{o}\n" for o in unique).encode())
    if result.returncode != 0:
        raise _failed(result, "read files of a revision")
    data, position, out = result.stdout, 0, {}
    for oid in unique:
        end = data.index(b"\n", position)
        header = data[position:end].split()
        if len(header) != 3:
            raise CatDocError(GIT_ERROR, f"git could not read the blob {oid}.", "Run `git fsck`.")
        size = int(header[2])
        out[oid] = data[end + 1 : end + 1 + size]
        position = end + 1 + size + 1
    return out


def normal_path(path: str) -> str:
    """A project-relative path as git names it: `/`, no `./`, no `a/../`, so an object's
    `path` compares with git's names."""
    return posixpath.normpath(path.replace("\\", "/")).removeprefix("./")
