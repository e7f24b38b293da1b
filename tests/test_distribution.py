"""The Python distribution: one version, `python -m catdoc`, an sdist and a wheel that twine
accepts, the wheel's contents, and the wheel installed outside the source tree (a fresh venv,
pipx, uvx) running `catdoc init`, `validate` and the MCP server over stdio."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
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

BIN = Path(sys.executable).parent
TEMPLATE = ["category.yaml", "config.yaml", "docs/example.md"]
PACKAGE_DATA = [
    "catdoc/search/data/synonyms.tsv.gz",
    "catdoc/search/data/minilm-tokenizer.json.gz",
    "catdoc/web/static/cytoscape.min.js",
    "catdoc/web/static/dashboard.js",
    "catdoc/web/static/dashboard.css",
    "catdoc/web/templates/base.html",
    "catdoc/tui/catdoc.tcss",
]
LICENCES = [
    "catdoc/web/static/cytoscape.LICENSE",
    "catdoc/search/data/WORDNET_LICENSE",
    "catdoc/search/data/MINILM_NOTICE",
]


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    return release_artefacts(tmp_path_factory)


def run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=outside_environment(**env), capture_output=True, text=True
    )


def test_the_version_has_one_source() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    init = (REPO / "catdoc/__init__.py").read_text(encoding="utf-8")
    assert re.findall(r'^__version__ = "([^"]+)"$', init, re.M) == [catdoc.__version__]


@pytest.mark.parametrize("module", ["catdoc", "catdoc.mcp_server"])
def test_python_m_prints_the_version(module: str) -> None:
    shown = subprocess.run(
        [sys.executable, "-m", module, "--version"], capture_output=True, text=True, cwd=REPO
    )
    assert shown.returncode == 0, shown.stderr
    name = "catdoc" if module == "catdoc" else "catdoc-mcp"
    assert shown.stdout.strip() == f"{name} {catdoc.__version__}"


def test_python_m_catdoc_runs_the_command_line(tmp_path: Path) -> None:
    example = str(REPO / "examples/traceability")
    checked = subprocess.run(
        [sys.executable, "-m", "catdoc", "-C", example, "validate"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    broken = subprocess.run(
        [sys.executable, "-m", "catdoc", "-C", str(tmp_path), "validate"],
        capture_output=True,
        text=True,
    )
    assert broken.returncode == 2 and "Error:" in broken.stderr


@pytest.mark.slow
def test_sdist_and_wheel_pass_twine_check(dist: Dist) -> None:
    assert dist.wheel.name == f"catdoc-{catdoc.__version__}-py3-none-any.whl"
    assert dist.sdist.name == f"catdoc-{catdoc.__version__}.tar.gz"
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(dist.sdist), str(dist.wheel)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    top = f"catdoc-{catdoc.__version__}"
    with tarfile.open(dist.sdist) as sdist:
        names = set(sdist.getnames())
    needed = ["LICENSE", "README.md", "pyproject.toml", "catdoc/__init__.py", *LICENCES]
    needed += [f".catdoc-template/{rel}" for rel in TEMPLATE]
    assert {f"{top}/{rel}" for rel in needed} <= names
    assert not [n for n in names if "/.venv" in n or "__pycache__" in n or "/dist/" in n]


@pytest.mark.slow
def test_the_wheel_holds_the_data_and_licences_and_no_tests(dist: Dist) -> None:
    names = set(zipfile.ZipFile(dist.wheel).namelist())
    info = f"catdoc-{catdoc.__version__}.dist-info"
    expected = {
        *(f"catdoc/_template/{rel}" for rel in TEMPLATE),
        *PACKAGE_DATA,
        *LICENCES,
        f"{info}/licenses/LICENSE",
        *(f"{info}/licenses/{rel}" for rel in LICENCES),
        "catdoc/__main__.py",
    }
    assert expected <= names, sorted(expected - names)
    tops = {name.split("/")[0] for name in names}
    assert tops == {"catdoc", info}
    stray = [n for n in names if re.search(r"(^|/)(tests?|conftest\.py|test_[^/]*\.py)($|/)", n)]
    assert stray == []
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    metadata = zipfile.ZipFile(dist.wheel).read(f"{info}/METADATA").decode()
    assert f"Version: {catdoc.__version__}" in metadata
    assert "License-Expression: MIT" in metadata
    entry_points = zipfile.ZipFile(dist.wheel).read(f"{info}/entry_points.txt").decode()
    assert "catdoc = catdoc.entry_point:main" in entry_points
    assert "catdoc-mcp = catdoc.mcp_start:main" in entry_points


def init_and_validate(catdoc_command: list[str], work: Path) -> Path:
    """`catdoc init` then `catdoc validate` with an installed command, outside the source tree."""
    created = run([*catdoc_command, "init", "fresh", "--name", "fresh"], work)
    assert created.returncode == 0, created.stdout + created.stderr
    root = work / "fresh"
    assert (root / ".catdoc/docs/example.md").is_file()
    checked = run([*catdoc_command, "-C", str(root), "validate"], work)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    return root


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A working directory outside the source tree."""
    assert not tmp_path.is_relative_to(REPO)
    return tmp_path


@pytest.mark.slow
@pytest.mark.anyio
async def test_the_wheel_works_from_a_fresh_venv_outside_the_source_tree(
    dist: Dist, work: Path
) -> None:
    venv = work / "venv"
    made = run([str(BIN / "uv"), "venv", "--quiet", "--python", sys.executable, str(venv)], work)
    assert made.returncode == 0, made.stderr
    python = venv / "bin/python"
    install = [str(BIN / "uv"), "pip", "install", "--quiet", "--python", str(python)]
    installed = run([*install, str(dist.wheel)], work)
    assert installed.returncode == 0, installed.stderr
    where = run([str(python), "-c", "import catdoc; print(catdoc.__file__)"], work)
    assert Path(where.stdout.strip()).is_relative_to(venv), "the installed copy is the one imported"
    shown = run([str(venv / "bin/catdoc"), "--version"], work)
    assert shown.stdout.strip() == f"catdoc {catdoc.__version__}"
    root = init_and_validate([str(venv / "bin/catdoc")], work)
    server = [str(venv / "bin/catdoc-mcp"), "--project", str(root)]
    listed = await list_tools_over_stdio(server, work)
    assert listed == await served_tools(root) and len(listed) > 35


@pytest.mark.slow
def test_pipx_installs_the_wheel(dist: Dist, work: Path) -> None:
    home, bin_dir = work / "pipx-home", work / "pipx-bin"
    pipx = {"PIPX_HOME": str(home), "PIPX_BIN_DIR": str(bin_dir), "PIPX_MAN_DIR": str(work / "man")}
    command = [sys.executable, "-m", "pipx", "install", "--python", sys.executable]
    installed = run([*command, str(dist.wheel)], work, **pipx)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert {p.name for p in bin_dir.iterdir()} == {"catdoc", "catdoc-mcp"}
    for name in ("catdoc", "catdoc-mcp"):
        shown = run([str(bin_dir / name), "--version"], work)
        assert shown.stdout.strip() == f"{name} {catdoc.__version__}", shown.stderr


@pytest.mark.slow
@pytest.mark.anyio
async def test_uvx_runs_the_mcp_server_from_the_wheel(dist: Dist, work: Path) -> None:
    root = make_project(work / "proj")
    uvx = [str(BIN / "uvx"), "--python", sys.executable, "--from", str(dist.wheel)]
    server = [*uvx, "catdoc", "mcp", "--project", str(root)]
    listed = await list_tools_over_stdio(server, work, UV_PYTHON_DOWNLOADS="never")
    assert listed == await served_tools(root)


def test_the_readme_gives_every_install_way_and_its_client_configuration() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    install = readme.split("<!-- section:install -->")[1].split("<!-- /section:install -->")[0]
    for line in (
        "pip install catdoc",
        "pipx install catdoc",
        "uvx catdoc mcp --project",
        "npm install -g @catdoc/mcp-server",
        "npx -y @catdoc/mcp-server --project",
    ):
        assert line in install
    configuration = readme.split("### Configuration")[1].split("### Tools")[0]
    servers = [
        json.loads(block)["mcpServers"]["catdoc"]
        for block in re.findall(r"```json\n(.*?)\n```", configuration, re.S)
        if "mcpServers" in block
    ]
    commands = {server["command"]: server["args"][:2] for server in servers}
    assert commands["uvx"] == ["catdoc", "mcp"]
    assert commands["npx"] == ["-y", "@catdoc/mcp-server"]
    assert "catdoc-mcp" in commands
