"""The release artefacts the distribution tests check, built once per test session.

`scripts/release.py --no-check` builds the sdist, the wheel and the npm tarball into a temporary
directory; when CATDOC_DIST_DIR is set (the release script's own check does that), the artefacts
already there are checked instead, so a release checks exactly what it ships.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Dist:
    sdist: Path
    wheel: Path
    npm_tarball: Path


_built: dict[str, Dist] = {}


def release_artefacts(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    """The artefacts of one release build, shared by every test of the session."""
    if "dist" not in _built:
        given = os.environ.get("CATDOC_DIST_DIR")
        out = Path(given) if given else tmp_path_factory.mktemp("dist")
        if not given:
            release = [sys.executable, str(REPO / "scripts/release.py"), "--out", str(out)]
            built = subprocess.run(
                [*release, "--no-check"], cwd=out, capture_output=True, text=True
            )
            assert built.returncode == 0, built.stdout + built.stderr
        (sdist,) = out.glob("catdoc-*.tar.gz")
        (wheel,) = out.glob("catdoc-*.whl")
        (tarball,) = out.glob("catdoc-mcp-server-*.tgz")
        _built["dist"] = Dist(sdist, wheel, tarball)
    return _built["dist"]


def outside_environment(**extra: str) -> dict[str, str]:
    """The environment of a program that must not see the source tree or this test's venv."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    return {**env, **extra}


async def list_tools_over_stdio(command: list[str], cwd: Path, **env: str) -> set[str]:
    """The tool names a stdio MCP server started by `command` lists to the SDK's client."""
    program, *args = command
    environment = outside_environment(**env)
    params = StdioServerParameters(command=program, args=args, env=environment, cwd=str(cwd))
    async with Client(params) as client:
        return {tool.name for tool in (await client.list_tools()).tools}
