"""Parsed model files kept as JSON (`catdoc.parsed_cache`): a load from the kept tree is exactly
a load from the YAML; a changed, replaced or planted file is never read from the cache; the
cache stays inside the project and a broken one only costs a parse."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc import parsed_cache, yaml_source
from catdoc.errors import CatDocError
from catdoc.project import load_project

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"
REL = ".catdoc/category.yaml"


@pytest.fixture(autouse=True)
def small_files_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsed_cache, "MIN_CHARS", 0)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    target = tmp_path / "project"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("cache"))
    model = target / REL
    model.write_text(
        model.read_text(encoding="utf-8").replace(
            "categories:\n",
            "reviewedOn: 2026-11-23\nstampedAt: 2026-11-23T09:08:16+05:00\ncategories:\n",
            1,
        ),
        encoding="utf-8",
    )
    return target


def dump(root: Path) -> list[object]:
    project = load_project(root)
    return [
        [c.model_dump() for c in project.categories],
        [f.model_dump() for f in project.functors],
        [n.model_dump() for n in project.natural_transformations],
        project.top_level_unknown,
        project.version,
    ]


def kept(root: Path) -> list[Path]:
    folder = root / ".catdoc" / "cache" / "parsed"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def kept_file(root: Path) -> Path:
    """The cache of `.catdoc/category.yaml`."""
    (place,) = [p for p in kept(root) if json.loads(p.read_bytes().split(b"\n")[0])["file"] == REL]
    return place


def stored(path: Path) -> bool:
    with path.open("rb") as handle:
        return json.loads(handle.readline())["stored"]


def test_the_second_unchanged_read_keeps_the_tree_and_the_third_uses_it(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = dump(root)
    assert [stored(p) for p in kept(root)] == [False, False]  # seen once: only the headers
    assert dump(root) == expected
    assert [stored(p) for p in kept(root)] == [True, True]
    parses: list[str] = []
    real = yaml_source.parse
    monkeypatch.setattr(
        yaml_source, "parse", lambda text, rel: parses.append(rel) or real(text, rel)
    )
    assert dump(root) == expected
    assert REL not in parses  # read from the kept tree, dates and all


def test_dates_come_back_as_dates(root: Path) -> None:
    text = (root / REL).read_text(encoding="utf-8")
    place = root / ".catdoc" / "cache" / "parsed" / "x.json"
    place.parent.mkdir(parents=True)
    for _ in range(3):
        data = parsed_cache.parse(root / REL, REL, text, text.encode(), lambda: place.parent)
    assert data["reviewedOn"] == dt.date(2026, 11, 23)
    assert data["stampedAt"] == dt.datetime(
        2026, 11, 23, 9, 8, 16, tzinfo=dt.timezone(dt.timedelta(hours=5))
    )
    assert data == yaml_source.parse(text, REL)


def test_a_change_within_one_clock_tick_is_read_from_the_yaml(root: Path) -> None:
    dump(root)
    dump(root)
    path = root / REL
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    changed = text.replace("Shopping cart", "Shopping Cart", 1)
    assert len(changed) == len(text) and changed != text
    with path.open("r+", encoding="utf-8") as handle:  # same inode, same size
        handle.write(changed)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_mtime_ns == before.st_mtime_ns
    fresh = tmp_copy(root)
    assert dump(root)[:4] == dump(fresh)[:4]
    assert "Shopping Cart" in json.dumps(dump(root)[0], default=str)


def tmp_copy(root: Path) -> Path:
    target = root.parent / "fresh"
    shutil.copytree(root, target, ignore=shutil.ignore_patterns("cache"))
    return target


def test_a_cache_committed_by_someone_else_is_not_used(root: Path) -> None:
    dump(root)
    dump(root)
    place = kept_file(root)
    lines = place.read_bytes().split(b"\n", 2)
    header = json.loads(lines[0])
    planted = lines[2].replace(b"Shopping cart", b"Planted")
    assert planted != lines[2]
    header["stat"][2] += 1  # another checkout's inode
    place.write_bytes(json.dumps(header).encode() + b"\n" + lines[1] + b"\n" + planted)
    assert "Planted" not in json.dumps(dump(root)[0], default=str)
    header["stat"][2] -= 1  # even a matching stat needs the digest of the text read
    header["digest"] = "0" * 32
    place.write_bytes(json.dumps(header).encode() + b"\n" + lines[1] + b"\n" + planted)
    assert "Planted" not in json.dumps(dump(root)[0], default=str)


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
        lambda p: p.write_bytes(b"\0" * 100),
        lambda p: p.write_bytes(p.read_bytes().replace(b'"date"', b'"bogus"')),
        lambda p: p.write_bytes(p.read_bytes().replace(b"[[[", b"[[[9, ", 1)),
    ],
)
def test_a_damaged_cache_costs_only_a_parse(root: Path, damage) -> None:
    expected = dump(root)
    dump(root)
    place = kept_file(root)
    damage(place)
    assert dump(root) == expected


def test_the_cache_stays_inside_the_project(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / ".catdoc" / "cache").mkdir(exist_ok=True)
    (root / ".catdoc" / "cache" / "parsed").symlink_to(outside)
    expected = dump(root)
    assert dump(root) == expected
    assert list(outside.iterdir()) == []


def test_a_fifo_in_the_cache_does_not_hang_a_load(root: Path) -> None:
    expected = dump(root)
    place = kept_file(root)
    place.unlink()
    os.mkfifo(place)
    assert dump(root) == expected


def test_a_read_only_cache_folder_is_skipped(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_root: Path) -> Path:
        raise CatDocError("LOAD_ERROR", "no cache here", "")

    monkeypatch.setattr("catdoc.project._parsed_folder", refuse)
    expected = dump(root)
    assert dump(root) == expected and kept(root) == []


OFFSETS = st.timedeltas(min_value=-dt.timedelta(hours=23), max_value=dt.timedelta(hours=23))
SCALARS = (
    st.text(max_size=8)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.none()
    | st.dates()
    | st.datetimes(timezones=st.none() | st.builds(dt.timezone, OFFSETS))
)
TREES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=4)
    ),
    max_leaves=30,
)


def same(a: object, b: object) -> bool:
    """Equal, and of the same types all the way down (1 is not True, offsets are kept)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same, a, b))  # type: ignore[arg-type]
    if isinstance(a, dt.datetime):
        return a == b and a.utcoffset() == b.utcoffset()  # type: ignore[union-attr]
    return a == b or repr(a) == repr(b)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=6), TREES, max_size=4))
def test_any_tree_comes_back_exactly_or_is_not_kept(tree: dict[str, object]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        place = Path(folder) / "t.json"
        parsed_cache._write(place, {"format": 1}, tree)
        header, body = parsed_cache._read(place)
    assert header == {"format": 1}
    if body is None:
        assert not parsed_cache._plain(tree, [], [])
        return
    assert same(parsed_cache._restored(body), tree)
