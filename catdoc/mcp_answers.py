"""The server's own answers to `initialize` and `tools/list`, kept from one start to the next.

Importing the MCP SDK and building the tools' JSON schemas takes about a second, and an assistant
waits for both answers before it can do anything. They depend only on the code (CatDoc's, the
SDK's, pydantic's), on `--read-only` and on the protocol version the client asks for (and on a
dashboard's URL: a start with `--dashboard` neither replays nor keeps them), so `catdoc mcp`
keeps the answers its SDK server gave, in a file named by a fingerprint of exactly those inputs,
and the next start replays them while the SDK loads. Any change of a source file of those
packages (an edit, an upgrade) changes the fingerprint; the file is then rebuilt from the
server's answers. Every start also re-asks its SDK server and rewrites the file if an answer
differs (with a warning when the one sent was out of date), so even a change the fingerprint
cannot see lasts one start at most.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

logger = logging.getLogger("catdoc.mcp")

FORMAT = 1
PACKAGES = ("catdoc", "mcp", "mcp_types", "pydantic", "pydantic_core")
"""The packages whose code makes the answers (tools, their schemas, the wire shapes)."""
MAX_VERSIONS = 8
"""Most requested protocol versions kept in one file (a client may ask for any string)."""
MAX_VERSION_CHARS = 64
"""Longest requested protocol version whose answers are kept (real ones are dates)."""
MAX_FILES = 8
"""Most answer files kept in the cache directory (one per code state and set of options)."""
PREFIX = "mcp-answers-"

Answers = dict[str, dict[str, Any]]
"""Requested protocol version → {"initialize": result, "tools/list": result}."""


def cache_home() -> Path:
    """CatDoc's per-user cache directory (`$XDG_CACHE_HOME/catdoc`, `~/.cache/catdoc`, or
    `%LOCALAPPDATA%\\catdoc` on Windows): the answers belong to the installed code, not to a
    project."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "catdoc"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "catdoc"


def fingerprint(options: dict[str, Any], packages: tuple[str, ...] = PACKAGES) -> str:
    """A digest of the Python, every source file of `packages` (path, size, mtime) and
    `options`: what the answers depend on."""
    digest = hashlib.sha256(json.dumps([FORMAT, sys.version, options]).encode())
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            digest.update(f"{name}: missing".encode())
            continue
        for folder, dirs, files in os.walk(os.path.dirname(spec.origin)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for file in sorted(f for f in files if f.endswith((".py", ".so", ".pyd"))):
                stat = os.stat(os.path.join(folder, file))
                digest.update(f"{folder}/{file}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:32]


class AnswerCache:
    """The kept answers for one fingerprint: `lookup` before the SDK is loaded, `observe` the
    SDK server's answers afterwards (which rewrites the file when they differ)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.answers = self._read()
        self.replayed: set[str] = set()
        """Protocol versions whose kept answers this process sent."""

    @classmethod
    def for_options(cls, options: dict[str, Any], home: Path | None = None) -> AnswerCache:
        return cls((home or cache_home()) / f"{PREFIX}{fingerprint(options)}.json")

    def _read(self) -> Answers:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return {}
        answers = data.get("answers")
        if not isinstance(answers, dict):
            return {}
        return {
            version: pair
            for version, pair in answers.items()
            if isinstance(pair, dict)
            and isinstance(pair.get("initialize"), dict)
            and isinstance(pair.get("tools/list"), dict)
        }

    def lookup(self, version: str, method: str) -> dict[str, Any] | None:
        """The kept result of `method` for a client that asked for `version` (None: not kept);
        noted as replayed."""
        result = self.answers.get(version, {}).get(method)
        if result is not None:
            self.replayed.add(version)
        return result

    def observe(self, version: str, initialize: dict[str, Any], tools: dict[str, Any]) -> None:
        """The SDK server's answers for `version`; kept (the file rewritten) when they are new."""
        pair = {"initialize": initialize, "tools/list": tools}
        if self.answers.get(version) == pair:
            return
        if version in self.replayed:
            logger.warning(
                "The tool list sent at start-up was out of date (kept from an earlier start); "
                "the next start sends the current one. Call tools/list to read it now."
            )
        elif len(self.answers) >= MAX_VERSIONS or len(version) > MAX_VERSION_CHARS:
            return
        self.answers[version] = pair
        self._write()

    def _write(self) -> None:
        text = json.dumps({"format": FORMAT, "answers": self.answers}, separators=(",", ":"))
        part = self.path.with_name(f"{self.path.name}.{os.getpid()}.part")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            part.write_text(text, "utf-8")
            os.replace(part, self.path)
            _prune(self.path.parent, keep=self.path)
        except OSError as exc:
            logger.info("Cannot keep the start-up answers in %s (%s).", self.path.parent, exc)
            part.unlink(missing_ok=True)


def _prune(folder: Path, keep: Path) -> None:
    """Remove all but the `MAX_FILES` newest answer files (older code states)."""
    files = sorted(folder.glob(f"{PREFIX}*.json"), key=_mtime, reverse=True)
    for old in files[MAX_FILES:]:
        if old != keep:
            old.unlink(missing_ok=True)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
