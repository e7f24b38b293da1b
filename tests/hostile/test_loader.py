"""Hostile and broken `.catdoc/` input: every outcome is a loaded project or a CatDocError that
names `file:line`; nothing crashes, hangs, or reads or writes outside the project."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.errors import LOAD_ERROR, PATH_OUTSIDE_PROJECT, CatDocError
from catdoc.paging import MAX_LIMIT
from catdoc.project import load_project
from catdoc.project_files import resolve_inside
from catdoc.service import CatDoc
from catdoc.validate import Code, validate_project
from catdoc.yaml_source import MAX_FILE_BYTES, MAX_NESTING

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/.catdoc"))
MODEL = ".catdoc/category.yaml"
CONFIG = ".catdoc/config.yaml"
HUGE = "9" * 5000
runner = CliRunner()


def make(root: Path, model: str, config: str | None = None) -> Path:
    (root / ".catdoc").mkdir(parents=True, exist_ok=True)
    (root / MODEL).write_text(model, encoding="utf-8")
    if config is not None:
        (root / CONFIG).write_text(config, encoding="utf-8")
    return root


def nested(depth: int) -> str:
    """`metadata` nested `depth` mappings deep, in block style, at line 5."""
    lines = ["categories:", "  - id: c", "    objects:", "      - id: a", "        metadata:"]
    lines += [" " * (10 + i) + f"k{i}:" for i in range(depth - 1)]
    lines.append(" " * (10 + depth - 1) + "k: v")
    return "\n".join(lines) + "\n"


def assert_load_error(root: Path, where: str, *words: str) -> CatDocError:
    """The service raises LOAD_ERROR naming `where`; the CLI exits 2 without a traceback."""
    with pytest.raises(CatDocError) as info:
        CatDoc(root).project()
    error = info.value
    assert error.code == LOAD_ERROR, error
    assert where in error.message, error.message
    for word in words:
        assert word in str(error), str(error)
    result = runner.invoke(app, ["-C", str(root), "validate"])
    assert result.exit_code == 2, result.output
    assert where in result.output and "Traceback" not in result.output, result.output
    return error


# ---------------------------------------------------------------- 1, 10: huge integers
HUGE_INTS = {
    "id": (f"categories:\n  - id: {HUGE}\n", None, f"{MODEL}:2"),
    "equation": (f"categories:\n  - id: c\n    equations:\n      - [[{HUGE}], [f]]\n", None, ":4"),
    "metadata": (
        f"categories:\n  - id: c\n    objects:\n      - id: a\n        metadata: {{n: {HUGE}}}\n",
        None,
        f"{MODEL}:5",
    ),
    "unknown key": (f"categories:\n  - id: c\n    future: {HUGE}\n", None, f"{MODEL}:3"),
    "config": ("categories: []\n", f"name: x\nextra: {HUGE}\n", f"{CONFIG}:2"),
    "config port": ("categories: []\n", f"dashboard:\n  port: {HUGE}\n", f"{CONFIG}:2"),
}


@pytest.mark.parametrize("case", HUGE_INTS)
def test_huge_integer_is_a_load_error_with_its_line(tmp_path: Path, case: str) -> None:
    model, config, where = HUGE_INTS[case]
    assert_load_error(make(tmp_path, model, config), where)


def test_huge_integer_written_while_serving_is_a_load_error(tmp_path: Path) -> None:
    root = make(tmp_path, "categories:\n  - id: c\n")
    svc = CatDoc(root)
    assert len(svc.list_categories()) == 1
    (root / MODEL).write_text(f"categories:\n  - id: c\n  - id: {HUGE}\n", encoding="utf-8")
    os.utime(root / MODEL, ns=(1, 1))
    with pytest.raises(CatDocError) as info:
        svc.list_categories()
    assert info.value.code == LOAD_ERROR and f"{MODEL}:3" in info.value.message


# ---------------------------------------------------------------- 2: NUL bytes, long names
BAD_PATHS = {
    "nul": "docs/a\0.md",
    "long file name": "docs/" + "a" * 300 + ".md",
    "long directory name": "d" * 300 + "/a.md",
    "long path": "/".join(["d" * 200] * 30),
}


@pytest.mark.parametrize("case", BAD_PATHS)
def test_resolve_inside_refuses_unusable_paths(tmp_path: Path, case: str) -> None:
    with pytest.raises(CatDocError) as info:
        resolve_inside(tmp_path, BAD_PATHS[case])
    assert "Traceback" not in str(info.value) and info.value.hint


@pytest.mark.parametrize("case", BAD_PATHS)
def test_unusable_object_path_is_a_finding_not_a_crash(tmp_path: Path, case: str) -> None:
    path = json.dumps(BAD_PATHS[case])
    root = make(
        tmp_path, f"categories:\n  - id: c\n    objects:\n      - id: a\n        path: {path}\n"
    )
    report = validate_project(load_project(root))
    (finding,) = [f for f in report.warnings + report.errors if f.ids == ["a"]]
    assert finding.code == Code.OBJ_FILE_MISSING and finding.location == f"{MODEL}:4"
    for args in (["validate"], ["show", "object", "a"], ["search", "anything"]):
        result = runner.invoke(app, ["-C", str(root), *args])
        assert result.exit_code in {0, 1, 2}, result.output
        assert "Traceback" not in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output


# ---------------------------------------------------------------- 3: nesting depth
def test_nesting_up_to_the_bound_loads(tmp_path: Path) -> None:
    """The bound counts the whole file: top level, list, category, list, object, metadata…"""
    project = load_project(make(tmp_path, nested(MAX_NESTING - 5)))
    assert project.object_by_id["a"].metadata


@pytest.mark.parametrize("depth", [MAX_NESTING - 4, 3000])
def test_deep_nesting_is_a_load_error_with_its_line(tmp_path: Path, depth: int) -> None:
    error = assert_load_error(make(tmp_path, nested(depth)), f"{MODEL}:", str(MAX_NESTING))
    line = int(re.search(rf"{re.escape(MODEL)}:(\d+)", error.message).group(1))
    assert 5 <= line <= 5 + depth


@pytest.mark.parametrize(
    "text",
    [
        "categories:\n  - id: c\n    metadata: " + "[" * 300 + "]" * 300 + "\n",
        "a0: &a0 [x]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 80)),
        "categories:\n" + "".join(" " * i + "- \n" for i in range(2, 400)),
    ],
    ids=["flow", "aliases", "block sequences"],
)
def test_other_deep_shapes_are_load_errors(tmp_path: Path, text: str) -> None:
    assert_load_error(make(tmp_path, text), f"{MODEL}:")


def test_very_deep_block_nesting_does_not_crash_the_process(tmp_path: Path) -> None:
    """20,000 levels overflow the native parser's stack; a real process shows it survives."""
    root = make(tmp_path, nested(20_000))
    done = subprocess.run(
        [sys.executable, "-m", "catdoc", "-C", str(root), "validate"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert f"{MODEL}:" in done.stderr and "Traceback" not in done.stderr


# ---------------------------------------------------------------- 4: parent chains and cycles
CHAIN = 3000
"""Cubic in this size takes minutes; linear takes a fraction of a second."""


def parent_chain(n: int, cycle: bool) -> str:
    lines = ["categories:"]
    for i in range(n):
        parent = (i + 1) % n if cycle else i + 1
        lines.append(f"  - id: c{i}" + (f"\n    parent: c{parent}" if cycle or i + 1 < n else ""))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("cycle", [False, True], ids=["chain", "cycle"])
def test_long_parent_chains_validate_in_linear_work(tmp_path: Path, cycle: bool) -> None:
    svc = CatDoc(make(tmp_path, parent_chain(CHAIN, cycle)))
    report = svc.validate()
    cycles = [f for f in report.errors if f.code == Code.CAT_PARENT_CYCLE]
    assert len(cycles) == (1 if cycle else 0)
    assert len(svc.show_category("c0").hierarchy) == CHAIN
    scoped = svc.validate(category="c5")
    assert [f.code for f in scoped.errors] == ([Code.CAT_PARENT_CYCLE] if cycle else [])


# ---------------------------------------------------------------- 5: file size
@pytest.mark.parametrize("name", ["category.yaml", "config.yaml", "categories/big.yaml"])
def test_oversized_model_file_is_refused_before_reading(tmp_path: Path, name: str) -> None:
    root = make(tmp_path, "categories: []\n")
    big = root / ".catdoc" / name
    big.parent.mkdir(exist_ok=True)
    with big.open("wb") as handle:  # sparse: refused by its size, never read
        handle.truncate(MAX_FILE_BYTES + 1)
    assert_load_error(root, f".catdoc/{name}:1", "MiB", "categories/")


# ---------------------------------------------------------------- 6: symlink escapes
@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "outside"
    secret.mkdir()
    (secret / "secret.yaml").write_text("categories:\n  - id: secret-content\n", encoding="utf-8")
    return secret


@pytest.mark.parametrize("name", ["category.yaml", "config.yaml", "categories/x.yaml"])
def test_model_file_symlinked_outside_is_refused(tmp_path: Path, outside: Path, name: str) -> None:
    root = make(tmp_path / "proj", "categories: []\n")
    link = root / ".catdoc" / name
    link.parent.mkdir(exist_ok=True)
    link.unlink(missing_ok=True)
    link.symlink_to(outside / "secret.yaml")
    with pytest.raises(CatDocError) as info:
        load_project(root)
    assert info.value.code == PATH_OUTSIDE_PROJECT and "secret-content" not in str(info.value)
    result = runner.invoke(app, ["-C", str(root), "list", "categories"])
    assert result.exit_code == 2 and "secret-content" not in result.output


def test_categories_dir_symlinked_outside_is_refused(tmp_path: Path, outside: Path) -> None:
    root = make(tmp_path / "proj", "categories: []\n")
    (root / ".catdoc" / "categories").symlink_to(outside)
    with pytest.raises(CatDocError) as info:
        load_project(root)
    assert info.value.code == PATH_OUTSIDE_PROJECT


def test_symlink_inside_the_project_still_loads(tmp_path: Path) -> None:
    root = make(tmp_path, "categories: []\n")
    (root / "shared.yaml").write_text("categories:\n  - id: shared\n", encoding="utf-8")
    (root / ".catdoc" / "categories").mkdir()
    (root / ".catdoc" / "categories" / "s.yaml").symlink_to(root / "shared.yaml")
    assert [c.id for c in load_project(root).categories] == ["shared"]


def test_cache_symlinked_outside_is_never_written(tmp_path: Path, outside: Path) -> None:
    root = make(tmp_path / "proj", "categories:\n  - id: c\n    objects: [{id: a, content: x}]\n")
    (root / ".catdoc" / "cache").symlink_to(outside, target_is_directory=True)
    before = sorted(outside.iterdir())
    result = runner.invoke(app, ["-C", str(root), "search", "x"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "cache" in result.output
    assert sorted(outside.iterdir()) == before


def test_init_force_does_not_write_through_a_symlinked_catdoc(
    tmp_path: Path, outside: Path
) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / ".catdoc").symlink_to(outside, target_is_directory=True)
    result = runner.invoke(app, ["init", str(root), "--force"])
    assert result.exit_code == 2, result.output
    assert "symlink" in result.output.lower()
    assert sorted(p.name for p in outside.iterdir()) == ["secret.yaml"]


def test_init_force_does_not_write_through_a_symlinked_template_file(
    tmp_path: Path, outside: Path
) -> None:
    root = make(tmp_path / "proj", "categories: []\n")
    (root / CONFIG).symlink_to(outside / "secret.yaml")
    result = runner.invoke(app, ["init", str(root), "--force"])
    assert result.exit_code == 2, result.output
    assert (outside / "secret.yaml").read_text(encoding="utf-8").startswith("categories:")


# ---------------------------------------------------------------- 7: every load error has a line
LINE_CASES = {
    "duplicate key": ("categories:\n  - id: c\n    name: A\n    name: B\n", None, f"{MODEL}:4"),
    "duplicate top-level key": ("categories: []\nfunctors: []\ncategories: []\n", None, ":3"),
    "null entry": ("categories:\n  - id: c\n  - null\n", None, f"{MODEL}:3"),
    "null id": ("categories:\n  - id: c\n  - id: null\n    name: X\n", None, f"{MODEL}:3"),
    "categories as a map": ("functors: []\ncategories:\n  c: {}\n", None, f"{MODEL}:3"),
    "python tag": ("categories:\n  - id: c\n    name: !!python/name:os.system x\n", None, ":3"),
    "python object tag": ("categories:\n  - id: !!python/object:os.system {}\n", None, ":2"),
    "bad int tag": ("categories:\n  - id: c\n    name: !!int x\n", None, f"{MODEL}:3"),
    "alias depth": (
        "a0: &a0 [x]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 70)),
        None,
        f"{MODEL}:",
    ),
    "mapping as morphisms": ("categories:\n- id: c\n  morphisms: 3\n", None, f"{MODEL}:3"),
    "equation side": ("categories:\n- id: c\n  equations:\n  - [[f], {a: 1}]\n", None, ":4"),
    "config type": ("categories: []\n", "name: x\ndashboard:\n  port: abc\n", f"{CONFIG}:3"),
    "config not a map": ("categories: []\n", "name: x\nsearch: [1]\n", f"{CONFIG}:2"),
    "config duplicate": ("categories: []\n", "name: x\nname: y\n", f"{CONFIG}:2"),
    "config top level": ("categories: []\n", "- a\n", f"{CONFIG}:1"),
    "top level list": ("- a\n- b\n", None, f"{MODEL}:1"),
    "two documents": ("categories: []\n---\ncategories: []\n", None, f"{MODEL}:"),
}


@pytest.mark.parametrize("case", LINE_CASES)
def test_every_load_error_names_file_and_line(tmp_path: Path, case: str) -> None:
    model, config, where = LINE_CASES[case]
    error = assert_load_error(make(tmp_path, model, config), where)
    assert re.search(r"\.catdoc/[\w/]+\.yaml:\d+", error.message), error.message


# ---------------------------------------------------------------- 8: config ranges
CONFIG_RANGES = {
    "search limit 0": ("search: {limit: 0}\n", 1, f"1–{MAX_LIMIT}"),
    "search limit too big": ("name: x\nsearch:\n  limit: 100000\n", 3, f"1–{MAX_LIMIT}"),
    "port": ("dashboard:\n  port: 70000\n", 2, "1–65535"),
    "warnings": ("validation:\n  maxCompositionWarnings: -1\n", 2, "0"),
}


@pytest.mark.parametrize("case", CONFIG_RANGES)
def test_config_values_out_of_range_name_config_line_and_range(tmp_path: Path, case: str) -> None:
    config, line, allowed = CONFIG_RANGES[case]
    error = assert_load_error(make(tmp_path, "categories: []\n", config), f"{CONFIG}:{line}")
    assert allowed in error.message and "--limit" not in str(error)


# ---------------------------------------------------------------- 9: merge keys
MERGE = """\
base: &base
  semantics: thin
  description: shared
categories:
  - <<: *base
    id: c
    description: own
  - <<: [*base, {name: Named}]
    id: d
"""


def test_yaml_merge_keys_are_resolved(tmp_path: Path) -> None:
    project = load_project(make(tmp_path, MERGE))
    c, d = project.categories
    assert (c.semantics, c.description) == ("thin", "own")
    assert (d.semantics, d.name, d.description) == ("thin", "Named", "shared")
    assert "<<" not in c.unknown_keys()


def test_bad_merge_value_is_a_load_error(tmp_path: Path) -> None:
    assert_load_error(make(tmp_path, "categories:\n  - id: c\n    <<: 3\n"), f"{MODEL}:3", "<<")


# ---------------------------------------------------------------- fuzzing
OUTCOMES = (CatDocError,)


def load_outcome(root: Path) -> None:
    """Load, validate and show: a project, a report and objects that serialise as JSON, or a
    CatDocError."""
    try:
        project = load_project(root)
    except OUTCOMES:
        return
    report = validate_project(project)
    json.dumps(report.model_dump(mode="json", by_alias=True))
    svc = CatDoc(root)
    for obj in list(project.object_by_id)[:3]:
        with contextlib.suppress(OUTCOMES):
            json.dumps(svc.show_object(obj).model_dump(mode="json", by_alias=True))


def emit(value: object) -> str:
    """Flow-style YAML text of a generated value (integers of any size written out raw)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{emit(k)}: {emit(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(emit(v) for v in value) + "]"
    if isinstance(value, Raw):
        return value.text
    return json.dumps(value)


class Raw:
    """A scalar written exactly as given (huge integers, tags, aliases)."""

    def __init__(self, text: str) -> None:
        self.text = text


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=12),
    st.sampled_from(["id", "name", "source", "target", "path", "objects", "metadata"]),
    st.builds(Raw, st.sampled_from([HUGE, "-" + HUGE, "!!python/object:os.system {}", "1e999"])),
    st.builds(Raw, st.sampled_from(["!!binary aGk=", "!!set {a}", '"a\\0b"', '"\\x01\\x7f"'])),
)
keys = st.one_of(st.sampled_from(["id", "name", "metadata", "path", "<<", "parent"]), st.text())
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)
models = st.fixed_dictionaries(
    {"categories": st.lists(st.dictionaries(keys, values, max_size=6), max_size=3)},
    optional={"functors": values, "naturalTransformations": values},
)
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(model=models, config=st.one_of(st.none(), values), depth=st.integers(0, 100))
def test_fuzz_random_documents_load_or_raise_catdoc_error(
    tmp_path: Path, model: dict[str, object], config: object, depth: int
) -> None:
    text = emit(model)
    if depth:
        text = text[:-1] + ", deep: " + "[" * depth + "]" * depth + "}"
    make(tmp_path, text, None if config is None else emit(config))
    load_outcome(tmp_path)


NASTY = [
    "\0",
    "\x01",
    "\t",
    "<<: *x\n",
    "&x ",
    "*x",
    "!!python/object:os.system ",
    "- null\n",
    HUGE,
    "[[[[",
    "}",
    ": ",
    "- ",
    "\n  ",
    "\n- id: ",
    "id: null",
    "'",
    '"',
    "#",
    "---\n",
    "? ",
    "|\n",
    "\ufeff",
]


@FUZZ
@given(
    source=st.sampled_from([p for d in EXAMPLES for p in sorted(d.rglob("*.yaml"))]),
    edits=st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 40), st.sampled_from(NASTY)),
        min_size=1,
        max_size=4,
    ),
)
def test_fuzz_mutated_examples_load_or_raise_catdoc_error(
    tmp_path: Path, source: Path, edits: list[tuple[float, int, str]]
) -> None:
    text = source.read_text(encoding="utf-8")
    for where, cut, insert in edits:
        at = int(where * len(text))
        text = text[:at] + insert + text[at + cut :]
    root = make(tmp_path, "categories: []\n")
    home = next(d for d in EXAMPLES if d in source.parents)
    target = root / ".catdoc" / source.relative_to(home)
    target.parent.mkdir(exist_ok=True)
    target.write_text(text, encoding="utf-8")
    load_outcome(root)
