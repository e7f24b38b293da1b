"""A large index build reads documents in worker processes: the index it writes is the one a
build in this process writes, a worker's failure is a clear `CatDocError` (never a hang),
Ctrl-C leaves no process behind, and small projects never start a worker."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.generate import generate
from catdoc.errors import CatDocError
from catdoc.progress import Progress
from catdoc.search import build_workers
from catdoc.search.build_workers import BuildPool
from catdoc.search.stemming import Stemmer
from catdoc.service import CatDoc

INDEX = Path(".catdoc") / "cache" / "search.sqlite3"


def tables(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of an index file, FTS5's own tables included (but the stamp of
    the model files, which names their folder)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name"
            )
        ]
        out = {
            name: conn.execute(f'SELECT * FROM "{name}" ORDER BY 1').fetchall() for name in names
        }
        out["meta"] = [row for row in out["meta"] if row[0] != "model_stamp"]
        return out
    finally:
        conn.close()


def build(root: Path, *, workers: int, progress: Progress | None = None) -> None:
    """Build the index of `root` from scratch, with `workers` worker processes (0: here)."""
    shutil.rmtree(root / ".catdoc" / "cache", ignore_errors=True)
    saved = build_workers.workers_for
    build_workers.workers_for = lambda documents: workers  # type: ignore[assignment]
    try:
        CatDoc(root).build_index(progress=progress)
    finally:
        build_workers.workers_for = saved  # type: ignore[assignment]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(1_200, tmp_path_factory.mktemp("parallel") / "p")


def test_workers_write_the_index_a_build_here_writes(project: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(project, copy)
    build(project, workers=0)
    here = tables(project / INDEX)
    reports: list[tuple[str, int, int | None]] = []
    build(copy, workers=2, progress=lambda *r: reports.append(r))
    assert tables(copy / INDEX) == here
    assert here["docs"] and here["doc_concepts"] and here["chunks_fts_data"]
    steps = list(dict.fromkeys(step for step, _, _ in reports))
    assert steps == ["Reading documents", "Indexing documents"]
    for step in steps:
        done = [d for s, d, _ in reports if s == step]
        assert done == sorted(done) and (step, done[-1], done[-1]) in reports


def test_an_update_by_workers_is_the_update_here(project: Path, tmp_path: Path) -> None:
    """Changed documents are re-indexed, touched ones (same text, new time) only get their new
    signature: with workers as here."""
    results = []
    for workers in (0, 2):
        copy = tmp_path / f"copy{workers}"
        shutil.copytree(project, copy)
        build(copy, workers=0)
        docs = sorted((copy / "docs").rglob("*.md"))
        for n, path in enumerate(docs[:300]):
            text = path.read_text("utf-8")
            path.write_text(text + "\n\nA new closing paragraph.\n" if n % 2 else text, "utf-8")
            os.utime(path, ns=(10**18 + n, 10**18 + n))
        saved = build_workers.workers_for
        build_workers.workers_for = lambda documents, w=workers: w  # type: ignore[misc]
        try:
            result = CatDoc(copy).build_index()
        finally:
            build_workers.workers_for = saved  # type: ignore[assignment]
        assert result.indexed == 150
        results.append(tables(copy / INDEX))
    assert results[0] == results[1]


def test_small_projects_stay_in_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert build_workers.workers_for(build_workers.PARALLEL_FROM - 1) == 0
    assert build_workers.workers_for(0) == 0

    def refuse(*args: object) -> None:
        raise AssertionError("a small build started worker processes")

    monkeypatch.setattr(build_workers, "BuildPool", refuse)
    root = generate(100, tmp_path / "small")
    result = CatDoc(root).build_index()
    assert result.indexed == result.documents > 0


def test_workers_take_the_idle_cores_but_one(monkeypatch: pytest.MonkeyPatch) -> None:
    many = build_workers.PARALLEL_FROM * 10
    for idle, workers in [(2.0, 1), (1.5, 1), (1.3, 0), (1.0, 0), (0.0, 0), (8.0, 3), (3.7, 3)]:
        monkeypatch.setattr(build_workers, "idle_cores", lambda idle=idle: idle)
        assert build_workers.workers_for(many) == workers


def test_idle_cores_are_at_most_the_cores_this_process_may_use() -> None:
    idle = build_workers.idle_cores()
    assert 0.0 <= idle <= len(os.sched_getaffinity(0))


# ---------------------------------------------------------------------------------- failures
def fails(item: int) -> int:
    if item == 3:
        raise ValueError("no such thing")
    return item


def dies(item: int) -> int:
    if item == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return item


def slow(item: int) -> int:
    time.sleep(0.2)
    return item


def test_a_worker_error_is_a_clear_catdoc_error(tmp_path: Path) -> None:
    with BuildPool(tmp_path, 2) as pool:
        taken = []
        with pytest.raises(CatDocError) as caught:
            for _, value in pool._ordered(fails, range(10)):
                taken.append(value)
    assert taken == [0, 1, 2]
    assert caught.value.code == "IO_ERROR"
    assert "worker process building the search index failed" in caught.value.message
    assert "ValueError: no such thing" in caught.value.message
    assert not multiprocessing.active_children()


def test_a_worker_that_dies_fails_the_build_without_hanging(tmp_path: Path) -> None:
    started = time.monotonic()
    with BuildPool(tmp_path, 2) as pool, pytest.raises(CatDocError) as caught:
        list(pool._ordered(dies, range(10)))
    assert "stopped unexpectedly" in caught.value.message
    assert time.monotonic() - started < 60
    assert not multiprocessing.active_children()


def test_an_interrupt_leaves_no_worker_behind(tmp_path: Path) -> None:
    def interrupted() -> Iterator[int]:
        with BuildPool(tmp_path, 2) as pool:
            for _, value in pool._ordered(slow, range(100)):
                yield value
                if value == 2:
                    raise KeyboardInterrupt

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        list(interrupted())
    assert time.monotonic() - started < 30
    assert not multiprocessing.active_children()


def test_a_failing_build_writes_nothing(project: Path, tmp_path: Path) -> None:
    """A worker that fails mid-build rolls the whole write back: the index stays empty."""
    copy = tmp_path / "copy"
    shutil.copytree(project, copy)
    shutil.rmtree(copy / ".catdoc" / "cache", ignore_errors=True)
    read = BuildPool.read

    def failing_read(self: BuildPool, batches: object) -> Iterator[object]:
        for n, item in enumerate(read(self, batches)):  # type: ignore[arg-type]
            if n == 1:
                raise CatDocError("IO_ERROR", "A worker process building the index failed.")
            yield item

    saved = build_workers.workers_for
    build_workers.workers_for = lambda documents: 1  # type: ignore[assignment]
    BuildPool.read = failing_read  # type: ignore[assignment,method-assign]
    try:
        with pytest.raises(CatDocError):
            CatDoc(copy).build_index()
    finally:
        BuildPool.read = read  # type: ignore[method-assign]
        build_workers.workers_for = saved  # type: ignore[assignment]
    assert tables(copy / INDEX)["docs"] == []
    assert not multiprocessing.active_children()


# ---------------------------------------------------------------------------------- stemming
texts = st.text(
    alphabet=st.sampled_from(list("abcXYZ éüß-_'.:›/ 0123456789ŒΩя中\t\n~`")), max_size=40
)


@settings(max_examples=80, deadline=None)
@given(batch=st.lists(texts, max_size=8))
def test_the_stemmer_gives_the_terms_sqlite_gives(batch: list[str]) -> None:
    """ASCII texts are split here and only their words go through SQLite: the same terms."""
    stemmer = Stemmer()
    try:
        assert stemmer.stem(batch) == stemmer._through_sqlite(batch)
        assert stemmer.stem(batch) == stemmer._through_sqlite(batch)
    finally:
        stemmer.close()


def test_the_stemmer_splits_ascii_as_unicode61_does() -> None:
    stemmer = Stemmer()
    try:
        every = "".join(chr(c) for c in range(1, 128))
        assert stemmer.stem([every, f"Running{every}queries"]) == stemmer._through_sqlite(
            [every, f"Running{every}queries"]
        )
    finally:
        stemmer.close()
