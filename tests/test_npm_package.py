"""The npm package `@catdoc/mcp-server`: its manifest and tarball, a global install from the
packed tarball that runs `catdoc` and serves MCP over stdio, and the Node shims' own behaviour
(no usable Python, the environment built on first use, argv, stdio, exit status and signals)
checked against a stand-in Python so no network is needed."""

from __future__ import annotations

import importlib.util
import json
import shutil
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from dist_artifacts import (
    REPO,
    Dist,
    list_tools_over_stdio,
    outside_environment,
    release_artefacts,
)
from mcp_project import make_project, served_tools

import catdoc

NPM = REPO / "packages" / "npm"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None or shutil.which("npm") is None, reason="no Node.js")


def release_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("release", REPO / "scripts/release.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    return release_artefacts(tmp_path_factory)


def test_the_manifest_names_the_commands() -> None:
    manifest = json.loads((NPM / "package.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "@catdoc/mcp-server"
    bins = manifest["bin"]
    assert set(bins) == {"catdoc", "catdoc-mcp", "mcp-server"}
    # `npx @catdoc/mcp-server` runs the bin named like the package without its scope.
    assert bins["mcp-server"] == bins["catdoc-mcp"]
    assert all((NPM / path).is_file() for path in bins.values())
    assert manifest["scripts"]["postinstall"] == "node lib/setup.js --postinstall"
    assert "dependencies" not in manifest, "the shims use Node's standard library alone"


@pytest.mark.parametrize(
    ("python", "npm"),
    [("0.1.0", "0.1.0"), ("1.2.0rc1", "1.2.0-rc.1"), ("1.2.0.dev3", "1.2.0-dev.3")],
)
def test_the_npm_version_is_derived_from_the_python_version(python: str, npm: str) -> None:
    assert release_module().npm_version(python) == npm


@pytest.mark.slow
def test_the_tarball_holds_the_wheel_the_shims_and_the_licence(dist: Dist) -> None:
    with tarfile.open(dist.npm_tarball) as tarball:
        names = set(tarball.getnames())
        manifest = json.load(tarball.extractfile("package/package.json"))  # type: ignore[arg-type]
    assert manifest["version"] == release_module().npm_version(catdoc.__version__)
    expected = {
        f"package/{dist.wheel.name}",
        "package/LICENSE",
        "package/README.md",
        "package/bin/catdoc.js",
        "package/bin/catdoc-mcp.js",
        "package/lib/environment.js",
        "package/lib/run.js",
        "package/lib/setup.js",
    }
    assert expected <= names, sorted(expected - names)
    assert not [n for n in names if "/venv/" in n or n.endswith(".tgz")]


@pytest.mark.slow
@pytest.mark.anyio
async def test_a_global_install_runs_catdoc_and_serves_mcp(dist: Dist, tmp_path: Path) -> None:
    prefix = tmp_path / "prefix"
    npm = {
        "npm_config_cache": str(tmp_path / "npm-cache"),
        "npm_config_update_notifier": "false",
        "npm_config_fund": "false",
        "npm_config_audit": "false",
        "CATDOC_PYTHON": sys.executable,
    }
    install = ["npm", "install", "--global", "--prefix", str(prefix), str(dist.npm_tarball)]
    installed = subprocess.run(
        install, cwd=tmp_path, env=outside_environment(**npm), capture_output=True, text=True
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    package = prefix / "lib/node_modules/@catdoc/mcp-server"
    assert (package / "venv/catdoc-wheel.txt").read_text().strip() == dist.wheel.name
    assert {p.name for p in (prefix / "bin").iterdir()} == {"catdoc", "catdoc-mcp", "mcp-server"}
    env = outside_environment()
    shown = subprocess.run(
        [str(prefix / "bin/catdoc"), "--version"], cwd=tmp_path, env=env, capture_output=True
    )
    assert shown.stdout.decode().strip() == f"catdoc {catdoc.__version__}", shown.stderr
    root = make_project(tmp_path / "proj")
    server = [str(prefix / "bin/catdoc-mcp"), "--project", str(root)]
    listed = await list_tools_over_stdio(server, tmp_path)
    assert listed == await served_tools(root) and len(listed) > 35


# A stand-in Python for the shims: answers the probe as Python VERSION (with or without the
# venv module) and "creates" a virtual environment whose catdoc commands echo what they get.
FAKE_PYTHON = """#!/bin/sh
if [ "$1" = "-c" ]; then
  echo '{"version": [VERSION], "executable": "'"$0"'", "venv": VENV}'
elif [ "$1 $2" = "-m venv" ]; then
  mkdir -p "$3/bin" && cp "$0" "$3/bin/python"
  cat > "$3/bin/catdoc" <<'EOF'
#!/bin/sh
for arg in "$@"; do echo "arg:$arg"; done
read -r line; echo "stdin:$line"
exit 3
EOF
  cat > "$3/bin/catdoc-mcp" <<'EOF'
#!/bin/sh
trap 'echo got-TERM >&2; exit 42' TERM
echo ready
while true; do sleep 0.05; done
EOF
  chmod +x "$3/bin/catdoc" "$3/bin/catdoc-mcp"
elif [ "$1 $2 $3" = "-m pip install" ]; then
  echo "pip writes this on stdout"
fi
"""


def fake_python(where: Path, version: str = "3, 12, 1", venv: bool = True) -> Path:
    script = FAKE_PYTHON.replace("VERSION", version).replace("VENV", json.dumps(venv))
    path = where / "python-fake"
    path.write_text(script)
    path.chmod(0o755)
    return path


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of packages/npm with a stand-in wheel, as if installed."""
    copy = tmp_path / "pkg"
    shutil.copytree(NPM, copy, ignore=shutil.ignore_patterns("venv", "*.whl", "node_modules"))
    (copy / "catdoc-0.0.0-py3-none-any.whl").write_bytes(b"")
    return copy


def shim(package: Path, name: str, *args: str, stdin: str = "", **env: str):  # type: ignore[no-untyped-def]
    return subprocess.run(
        [str(NODE), str(package / f"bin/{name}.js"), *args],
        input=stdin,
        env=outside_environment(**env),
        capture_output=True,
        text=True,
    )


def no_python_on_path(tmp_path: Path, old_python3: Path) -> str:
    """A PATH holding node and, as `python3`, only the given too-old Python."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "node").symlink_to(str(NODE))
    (bin_dir / "python3").symlink_to(old_python3)
    return str(bin_dir)


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("missing", "CATDOC_PYTHON=/nonexistent/python3: not found"),
        ("too old", "is Python 3.9.18, older than 3.11"),
        ("no venv module", "without the venv module"),
        ("nothing on PATH", "python3: is Python 3.10.2, older than 3.11"),
    ],
)
def test_without_a_usable_python_the_commands_say_how_to_fix_it(
    package: Path, tmp_path: Path, case: str, reason: str
) -> None:
    env = {"CATDOC_PYTHON": "/nonexistent/python3"}
    if case == "too old":
        env["CATDOC_PYTHON"] = str(fake_python(tmp_path, "3, 9, 18"))
    elif case == "no venv module":
        env["CATDOC_PYTHON"] = str(fake_python(tmp_path, venv=False))
    elif case == "nothing on PATH":
        env = {"PATH": no_python_on_path(tmp_path, fake_python(tmp_path, "3, 10, 2"))}
    for name in ("catdoc", "catdoc-mcp"):
        ran = shim(package, name, "--version", **env)
        assert ran.returncode == 1 and ran.stdout == ""
        assert "CatDoc needs Python 3.11 or newer, and none was found" in ran.stderr
        assert reason in ran.stderr
        assert f'node "{package}/lib/setup.js"' in ran.stderr, "the exact setup command"
        assert "CATDOC_PYTHON=/path/to/python" in ran.stderr
    assert not (package / "venv").exists()
    postinstall = subprocess.run(
        [str(NODE), str(package / "lib/setup.js"), "--postinstall"],
        env=outside_environment(**env),
        capture_output=True,
        text=True,
    )
    assert postinstall.returncode == 0, "a missing Python never fails the npm install"
    assert (
        "CatDoc needs Python 3.11 or newer" in postinstall.stderr and reason in postinstall.stderr
    )


def test_the_first_command_builds_the_environment_and_passes_everything_through(
    package: Path, tmp_path: Path
) -> None:
    python = str(fake_python(tmp_path))
    first = shim(package, "catdoc", "a b", "--c", stdin="hello\n", CATDOC_PYTHON=python)
    assert first.returncode == 3, first.stderr
    assert first.stdout == "arg:a b\narg:--c\nstdin:hello\n", "setup output stays off stdout"
    assert "building CatDoc's Python environment" in first.stderr
    assert "pip writes this on stdout" in first.stderr
    assert (package / "venv/catdoc-wheel.txt").read_text() == "catdoc-0.0.0-py3-none-any.whl\n"
    again = shim(package, "catdoc", stdin="x\n", CATDOC_PYTHON="/nonexistent/python3")
    assert (again.returncode, again.stdout, again.stderr) == (3, "stdin:x\n", "")


def test_a_signal_to_the_shim_reaches_the_server(package: Path, tmp_path: Path) -> None:
    env = outside_environment(CATDOC_PYTHON=str(fake_python(tmp_path)))
    proc = subprocess.Popen(
        [str(NODE), str(package / "bin/catdoc-mcp.js")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "ready\n"
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 42 and "got-TERM" in stderr
