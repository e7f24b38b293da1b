"""Atomic replacement of one file."""

from __future__ import annotations

from pathlib import Path

from catdoc.writeback import atomic_write


def test_atomic_write_replaces_and_keeps_mode(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_text("old")
    path.chmod(0o640)
    atomic_write(path, "new")
    assert path.read_text() == "new"
    assert path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]
