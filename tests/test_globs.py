"""`catdoc.globs`: one automaton for the three glob dialects (search `--path`, Sphinx's
`exclude_patterns`, import `--exclude`), checked against the plain definition of each; each
dialect's own tests (search, Sphinx oracle, import) stay beside its module."""

from __future__ import annotations

import ast
import fnmatch
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import catdoc.globs as globs
from catdoc.globs import Glob, parts_glob, path_glob, sphinx_glob

NAMES = st.lists(st.sampled_from([*"ab.-!^", "[", "]"]), max_size=3).map("".join)
PATHS = st.lists(NAMES, min_size=1, max_size=4).map("/".join)
PARTS = st.sampled_from(
    [
        *("a", "b", "", "*", "?", "**", "a*", "*b*", "[ab]", "[!a]", "[]a]", "[!]", "[", "[a-"),
        *("[--/]", "a**", "***", "*?**b"),
    ]
)
PART_PATTERNS = st.lists(PARTS, min_size=1, max_size=4).map("/".join)


def _parts_match(parts: list[str], pattern: list[str]) -> bool:
    """Path parts against pattern parts by definition: fnmatch part by part, `**` any number
    of parts, every split tried (exponential, and plainly right on small cases)."""
    if not pattern:
        return not parts
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_parts_match(parts[at:], rest) for at in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], head) and _parts_match(parts[1:], rest)


@settings(max_examples=400)
@given(st.lists(PART_PATTERNS, max_size=3), PATHS)
def test_exclude_patterns_match_as_fnmatch_part_by_part(patterns: list[str], path: str) -> None:
    """The import's dialect: the path, or a folder above it, matches some pattern part by part."""
    parts = path.split("/")
    expected = any(
        _parts_match(parts[:end], pattern.split("/"))
        for pattern in patterns
        for end in range(1, len(parts) + 1)
    )
    assert parts_glob(patterns).match(path) is expected


def test_a_double_star_part_may_stand_for_no_folder() -> None:
    glob = parts_glob(["docs/**/_build"])
    assert glob.match("docs/_build") and glob.match("docs/a/b/_build/x.html")
    assert not glob.match("docs/a_build") and not glob.match("docs")


@settings(max_examples=400)
@given(st.lists(st.text(alphabet="ab/*?[]!.", max_size=7), max_size=3), PATHS)
def test_sphinx_patterns_below_match_the_path_or_a_folder_above(
    patterns: list[str], path: str
) -> None:
    """Sphinx does not enter a folder a pattern matches: `below` is a walk of the folders."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:end]) for end in range(1, len(parts) + 1)]
    expected = any(sphinx_glob([p]).match(prefix) for p in patterns for prefix in prefixes)
    assert sphinx_glob(patterns, below=True).match(path) is expected


def test_a_sphinx_double_star_between_slashes_needs_a_folder() -> None:
    """`**` is Sphinx's `.*`: `a/**/b` is `a/.*/b`, two slashes with anything between."""
    glob = sphinx_glob(["a/**/b"])
    assert glob.match("a/x/y/b") and glob.match("a//b")
    assert not glob.match("a/b")


def test_no_pattern_matches_nothing() -> None:
    assert not parts_glob([]).match("a") and not sphinx_glob([], below=True).match("")


@pytest.mark.parametrize(
    ("glob", "path"),
    [
        (path_glob("**/" * 26 + "zzz"), "a/" * 60 + "a" * 100),
        (path_glob("*a" * 40 + "b"), "a/" * 60 + "a" * 3000),
        (path_glob("?**" * 100 + "[!a]"), "a/" * 60 + "a" * 3000),
        (sphinx_glob(["**a" * 40 + "b", "*a" * 40 + "b"], below=True), "a/" * 60 + "a" * 3000),
        (parts_glob(["**/" * 30 + "x", "*a" * 40 + "b"]), "/".join(["a"] * 2000)),
    ],
    ids=["path-double-star-folders", "path-stars", "path-mixed", "sphinx-stars", "parts"],
)
def test_no_pattern_makes_matching_slow(glob: Glob, path: str) -> None:
    """Patterns a backtracking regex takes minutes over: the walk reads each character once
    (so this finishes at once)."""
    assert glob.match(path) is False


def test_runs_of_stars_compile_as_one() -> None:
    """An exclude pattern's run of `*` in a name, and `**` parts in a row, are each one: a
    config.yaml with `*` 20,000 times took 37 s to compile (each empty move led to every later
    one of the run); now it finishes at once, and matches as fnmatch does."""
    glob = parts_glob(["*" * 20_000, "docs/" + "**/" * 5_000 + "x" + "*" * 5_000 + "y"])
    assert glob.match("anything")
    assert parts_glob(["docs/" + "**/" * 5_000 + "x" + "*" * 5_000 + "y"]).match("docs/a/xzy")
    assert not parts_glob(["docs/" + "**/" * 5_000 + "x" + "*" * 5_000 + "y"]).match("doc/xy")


def test_answers_stay_right_when_the_caches_are_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forgetting every step table (and answer) on the way must not change an answer."""
    paths = [f"docs/{d}/{n}.md" for d in ("a", "ab", "b/c") for n in ("ab1", "a", "xb2")]
    expected = [path_glob("docs/**/a*b?.md").match(path) for path in paths]
    monkeypatch.setattr(globs, "GLOB_STATES", 3)
    monkeypatch.setattr(globs, "GLOB_RESULTS", 2)
    small = path_glob("docs/**/a*b?.md")
    assert [small.match(path) for path in paths * 2] == expected * 2
    assert expected == [True, False, False] * 3


def test_globs_imports_nothing_of_catdoc() -> None:
    """`catdoc.globs` is below `search` and `importer`, which both use it."""
    tree = ast.parse(Path(globs.__file__).read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not [name for name in imported if name.split(".")[0] == "catdoc"]
