"""Build CatDoc's release artefacts and check them.

    python scripts/release.py [--out dist] [--no-check]

1. `python -m build`: the sdist, and the wheel built from that sdist;
2. `twine check --strict` on both;
3. the npm package `@catdoc/mcp-server`: packages/npm copied to OUT/npm with the wheel and the
   licence, its version set to the wheel's, then `npm pack` into OUT;
4. unless --no-check: tests/test_distribution.py and tests/test_npm_package.py on exactly these
   artefacts (CATDOC_DIST_DIR=OUT): the wheel's contents, installs through a fresh venv, pipx,
   uvx and `npm install -g`, and the MCP server answering over stdio from each.

The version comes from `__version__` in catdoc/__init__.py alone; the npm version is derived.
Needs the test extra (`pip install -e '.[test]'`) and Node.js with npm.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NPM_SOURCE = REPO / "packages" / "npm"
# What a release writes into OUT, and removes from it first.
ARTEFACTS = ("catdoc-*.whl", "catdoc-*.tar.gz", "catdoc-mcp-server-*.tgz")
# What never goes from packages/npm into the tarball's staging copy.
NPM_LEFT_OUT = shutil.ignore_patterns("venv", "node_modules", "*.whl", "*.tgz")
PEP440_PRE = re.compile(r"^(\d+\.\d+\.\d+)(?:\.?(a|b|rc|dev)\.?(\d+))?$")


def npm_version(python_version: str) -> str:
    """The semver form of a PEP 440 version: 1.2.0 → 1.2.0, 1.2.0rc1 → 1.2.0-rc.1."""
    match = PEP440_PRE.match(python_version)
    if match is None:
        raise SystemExit(f"release: cannot turn version {python_version!r} into an npm version")
    base, label, number = match.groups()
    return base if label is None else f"{base}-{label}.{number}"


def build_python(out: Path) -> tuple[Path, Path]:
    """The sdist and the wheel, the wheel built from the sdist (so the sdist is complete)."""
    command = [sys.executable, "-m", "build", "--outdir", str(out)]
    if importlib.util.find_spec("uv") or shutil.which("uv"):
        command += ["--installer", "uv"]  # the isolated build environment in a second
    subprocess.run([*command, str(REPO)], check=True, cwd=out)
    (sdist,) = out.glob("catdoc-*.tar.gz")
    (wheel,) = out.glob("catdoc-*.whl")
    return sdist, wheel


def twine_check(*paths: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, paths)], check=True
    )


def wheel_version(wheel: Path) -> str:
    return wheel.name.split("-")[1]


def pack_npm(wheel: Path, out: Path) -> Path:
    """Stage packages/npm with the wheel and the licence in OUT/npm and `npm pack` it into OUT."""
    stage = out / "npm"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(NPM_SOURCE, stage, ignore=NPM_LEFT_OUT)
    shutil.copy2(wheel, stage / wheel.name)
    shutil.copy2(REPO / "LICENSE", stage / "LICENSE")
    manifest = json.loads((stage / "package.json").read_text(encoding="utf-8"))
    manifest["version"] = npm_version(wheel_version(wheel))
    (stage / "package.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("release: npm is not on PATH (install Node.js 18 or newer)")
    packed = subprocess.run(
        [npm, "pack", "--json", "--pack-destination", str(out)],
        cwd=stage,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "npm_config_update_notifier": "false"},
    )
    return out / json.loads(packed.stdout)[0]["filename"]


def check(out: Path) -> int:
    tests = ["tests/test_distribution.py", "tests/test_npm_package.py"]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests]
    env = {**os.environ, "CATDOC_DIST_DIR": str(out)}
    return subprocess.run(command, cwd=REPO, env=env).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "dist", help="where (default: dist/)")
    parser.add_argument("--no-check", action="store_true", help="build only, run no test")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for old in [p for pattern in ARTEFACTS for p in out.glob(pattern)]:
        old.unlink()
    sdist, wheel = build_python(out)
    twine_check(sdist, wheel)
    tarball = pack_npm(wheel, out)
    print(f"release: {sdist.name}, {wheel.name}, {tarball.name} in {out}")
    return 0 if args.no_check else check(out)


if __name__ == "__main__":
    sys.exit(main())
