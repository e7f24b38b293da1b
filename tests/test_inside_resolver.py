"""`InsideResolver` (one directory lookup per batch) must answer exactly as `resolve_inside`:
the same path (and whether it is a file), or a refusal with the same code, for every path,
symlinks in and out included."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catdoc.errors import CatDocError
from catdoc.project_files import InsideResolver, _is_file, resolve_inside

PARTS = [
    *("docs", "inner", "out-dir", "in-dir", "a.md", "A.md", "b.md", "out.md", "in.md", "loop"),
    *("pipe.md", "..", "."),
]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("resolver")
    root, outside = base / "project", base / "outside"
    (root / "docs" / "inner").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.md").write_text("x", encoding="utf-8")
    for folder in (root / "docs", root / "docs" / "inner"):
        (folder / "a.md").write_text("a", encoding="utf-8")
        os.symlink(outside, folder / "out-dir")
        os.symlink(root / "docs", folder / "in-dir")
        os.symlink(outside / "secret.md", folder / "out.md")
        os.symlink(folder / "a.md", folder / "in.md")
        os.symlink(folder / "loop", folder / "loop")
        os.mkfifo(folder / "pipe.md")
    return root


def _answer(resolve: object, rel: str) -> tuple[str, str]:
    try:
        return "path", str(resolve(rel))  # type: ignore[operator]
    except CatDocError as exc:
        return "refused", exc.code


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.lists(st.sampled_from(PARTS), min_size=1, max_size=4), min_size=1, max_size=8),
    st.sampled_from([1, 3, InsideResolver.LIST_AFTER]),
)
def test_batch_answers_like_resolve_inside(tree: Path, paths: list[list[str]], after: int) -> None:
    batch = InsideResolver(tree)
    batch.LIST_AFTER = after  # answers from folder listings, early or late
    for parts in paths:
        rel = "/".join(parts)
        assert _answer(batch, rel) == _answer(lambda r: resolve_inside(tree, r), rel), rel
        expected = _answer(lambda r: _is_file(resolve_inside(tree, r)), rel)
        assert _answer(batch.is_file, rel) == expected, rel


def test_symlinks_leaving_the_project_are_refused(tree: Path) -> None:
    batch = InsideResolver(tree)
    for rel in ("docs/out.md", "docs/out-dir/secret.md", "docs/inner/out-dir/secret.md"):
        with pytest.raises(CatDocError):
            batch(rel)
    assert batch("docs/in.md") == (tree / "docs" / "a.md").resolve()
