"""Shell completion through the real entry point (`_CATDOC_COMPLETE` as the shells' scripts set
it): commands, entity ids with their titles, `-C`, no project; completion reads the model files
only and writes nothing. And `catdoc.entity_ids` against the loader on models written in block,
flow and indentless styles."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.entity_ids import entity_ids, scan
from catdoc.project import load_project

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"
KINDS = ("category", "object", "morphism", "functor", "natural transformation")


@pytest.fixture
def root(example_copy: Path) -> Path:
    return example_copy


def complete(shell: str, line: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """What the shell's completion script asks `catdoc` for `line` (the word under the cursor
    is the last one; a trailing space starts a new, empty word)."""
    words = line.split(" ")
    values = {k: v for k, v in os.environ.items() if not k.startswith(("_CATDOC", "COMP_"))}
    values["_CATDOC_COMPLETE"] = f"complete_{shell}"
    if shell == "bash":
        values |= {"COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)}
    else:
        values["_TYPER_COMPLETE_ARGS"] = line
    return subprocess.run(
        [sys.executable, "-m", "catdoc"],
        cwd=cwd,
        env=values | env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def bash(line: str, cwd: Path) -> list[str]:
    done = complete("bash", line, cwd)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.split()


def tree(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `root` with its bytes and modification time."""
    return {
        p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.mark.slow
def test_ids_by_kind_through_bash(root: Path) -> None:
    assert bash("catdoc show object req-c", root) == ["req-cart", "req-checkout"]
    assert bash("catdoc chain spec-ca", root) == ["spec-cart-api"]
    assert bash("catdoc list objects --category ", root) == [
        "requirements",
        "specifications",
        "design",
        "implementation",
        "tests",
    ]
    assert bash("catdoc show functor sp", root) == ["specify"]
    assert bash("catdoc trace req-checkout test-checkout-", root) == [
        "test-checkout-unit",
        "test-checkout-e2e",
    ]
    assert bash("catdoc map specify req-ch", root) == ["req-checkout"]
    assert "chain" in bash("catdoc ch", root)


@pytest.mark.slow
def test_titles_beside_ids_in_zsh_and_fish(root: Path) -> None:
    zsh = complete("zsh", "catdoc show object req-c", root)
    assert zsh.returncode == 0, zsh.stderr
    assert '"req-cart":"Shopping cart"' in zsh.stdout
    fish = complete(
        "fish", "catdoc show object req-c", root, _TYPER_COMPLETE_FISH_ACTION="get-args"
    )
    assert fish.returncode == 0, fish.stderr
    assert "req-cart\tShopping cart" in fish.stdout


@pytest.mark.slow
def test_project_option_and_no_project(root: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert bash(f"catdoc -C {root} show functor sp", elsewhere) == ["specify"]
    assert bash(f"catdoc show functor -C {root} sp", elsewhere) == ["specify"]
    assert bash("catdoc show object req-c", elsewhere) == []


@pytest.mark.slow
def test_a_project_that_cannot_be_read_completes_nothing(root: Path) -> None:
    model = root / ".catdoc" / "category.yaml"
    model.write_bytes(b"\xff\xfe not utf-8 " + model.read_bytes())
    assert bash("catdoc show object req-c", root) == []
    model.unlink()
    model.symlink_to(root.parent / "outside.yaml")
    (root.parent / "outside.yaml").write_text(EXAMPLE.joinpath(".catdoc/category.yaml").read_text())
    assert bash("catdoc show object req-c", root) == []


@pytest.mark.slow
def test_completion_writes_nothing(root: Path) -> None:
    before = tree(root)
    for line in ("catdoc show object ", "catdoc search ", "catdoc list objects --category "):
        complete("bash", line, root)
    assert tree(root) == before
    assert not (root / ".catdoc" / "cache").exists()


@pytest.mark.slow
def test_install_and_show_completion(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("_CATDOC", "COMP_"))} | {
        "HOME": str(tmp_path),
        "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1",
    }

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "catdoc", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    shown = run("--show-completion", "bash")
    assert shown.returncode == 0, shown.stderr
    assert "_CATDOC_COMPLETE=complete_bash" in shown.stdout
    installed = run("--install-completion", "bash")
    assert installed.returncode == 0, installed.stderr
    assert (
        "_CATDOC_COMPLETE=complete_bash" in (tmp_path / ".bash_completions/catdoc.sh").read_text()
    )
    assert ".bash_completions/catdoc.sh" in (tmp_path / ".bashrc").read_text()


def test_entity_ids_match_the_loader_on_the_example() -> None:
    project = load_project(EXAMPLE)
    expected = [("category", c.id, c.name) for c in project.categories]
    expected += [("object", o.id, o.title) for c in project.categories for o in c.objects]
    expected += [("morphism", m.id, "") for c in project.categories for m in c.morphisms]
    expected += [("functor", f.id, f.name) for f in project.functors]
    expected += [("natural transformation", n.id, n.name) for n in project.natural_transformations]
    found = {(e.kind, e.id): e.label for e in entity_ids(EXAMPLE, KINDS)}
    assert set(found) == {(kind, ident) for kind, ident, _ in expected}
    for kind, ident, label in expected:
        if kind != "morphism":
            assert found[(kind, ident)] == (label or ""), ident
    assert [e.id for e in entity_ids(EXAMPLE, ["functor"], "sp")] == ["specify"]


IDS = st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True)
TITLES = st.text(st.sampled_from("abc XYZ:#-'\"é→"), min_size=1, max_size=24).map(str.strip)


@st.composite
def models(draw: st.DrawFn) -> dict[str, object]:
    names = draw(st.lists(IDS, min_size=1, max_size=12, unique=True))
    cut = draw(st.integers(1, len(names)))
    categories = []
    for number, chunk in enumerate((names[:cut], names[cut:])):
        objects = [{"id": n, "title": draw(TITLES)} for n in chunk]
        morphisms = [
            {"id": f"m{number}-{i}", "source": a["id"], "target": b["id"]}
            for i, (a, b) in enumerate(itertools.pairwise(objects))
        ]
        category: dict[str, object] = {"id": f"cat{number}", "name": draw(TITLES)}
        if objects:
            category["objects"] = objects
        if morphisms:
            category["morphisms"] = morphisms
        categories.append(category)
    return {
        "categories": categories,
        "functors": [
            {"id": "f", "name": draw(TITLES), "sourceCategory": "cat0", "targetCategory": "cat1"}
        ],
    }


@settings(max_examples=40, deadline=None)
@given(
    model=models(),
    flow=st.sampled_from([None, False]),
    indent=st.sampled_from([2, 4]),
    prefix=st.sampled_from(["", "a", "m0"]),
)
def test_scan_agrees_with_the_model_in_any_style(
    model: dict[str, object], flow: bool | None, indent: int, prefix: str
) -> None:
    text = yaml.safe_dump(
        model, default_flow_style=flow, indent=indent, sort_keys=False, allow_unicode=True
    )
    found = {(e.kind, e.id): e.label for e in scan(text, KINDS, prefix)}
    expected: dict[tuple[str, str], str] = {}
    for category in model["categories"]:  # type: ignore[attr-defined]
        expected[("category", category["id"])] = category["name"]
        for obj in category.get("objects", []):
            expected[("object", obj["id"])] = obj["title"]
        for mor in category.get("morphisms", []):
            expected[("morphism", mor["id"])] = ""
    expected[("functor", "f")] = model["functors"][0]["name"]  # type: ignore[index]
    wanted = {key: label for key, label in expected.items() if key[1].startswith(prefix)}
    assert set(found) == set(wanted), text
    for key, label in wanted.items():
        if key[0] != "morphism":
            assert found[key] == label, text
