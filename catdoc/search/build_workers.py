"""Worker processes for a large index build: they read, chunk and stem the documents and find
their concepts' candidates, then rank the candidates, while this process writes to SQLite (one
writer) and looks up what only the index being written can tell (each word's IDF).

Reading and chunking 100,000 documents and finding their candidates costs about as much CPU as
inserting them; with a worker the two run side by side. Workers are started fresh (`spawn`):
they hold no copy of the loaded model, no thread of a long-running face can leave a lock held
in them, and each costs about 0.2 s of CPU to start, which is why a build of fewer than
`PARALLEL_FROM` documents stays in this process. Work goes out in batches, a few ahead of the
one this process waits for (a fast worker never piles up texts in memory), and comes back in
order, so the index written is the one a build in this process writes.

Workers ignore Ctrl-C: this process stops handing out work, waits for the batches under way (a
fraction of a second) and collects every worker before the interrupt goes on. A worker that
fails or dies fails the build with a `CatDocError` saying so, and nothing is written.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TypeVar

from catdoc.cores import idle_cores
from catdoc.errors import IO_ERROR, CatDocError
from catdoc.search import concept_store
from catdoc.search.concept_store import Row, RowsJob
from catdoc.search.index import PreparedBatch, prepare
from catdoc.search.reading import Pending, read_record
from catdoc.search.stemming import Stemmer

PARALLEL_FROM = 2_000
"""Documents to read from which a build uses worker processes."""
MAX_WORKERS = 3
"""This process keeps a core to itself: inserting is the longest part of a build. (Two cores:
one worker, which keeps up with the inserts; a second one only takes CPU time from them.)"""
IDLE_MARGIN = 0.6
"""A core at least 40% idle counts as idle (kernel threads keep a few percent of one busy)."""
AHEAD = 2
"""Batches handed out per worker beyond the one this process waits for."""
HINT = "Run the command again; if it fails again, report the message above."

Read = tuple[PreparedBatch, list[tuple[int, str | None]]]
"""A batch's records ready to insert, and (position in the batch, date) of each document whose
content did not change."""
T = TypeVar("T")
R = TypeVar("R")


def workers_for(documents: int) -> int:
    """How many worker processes a build of `documents` uses (0: none, build here): one per
    idle core beyond the one this process needs. Handing work to another process costs CPU
    (the texts cross a pipe), so on cores that other programs keep busy a build here finishes
    first."""
    if documents < PARALLEL_FROM:
        return 0
    idle = idle_cores()
    return max(0, min(int(idle - 1 + IDLE_MARGIN), MAX_WORKERS))


class BuildPool:
    """The worker processes of one build (of the project at `root`); a context manager."""

    def __init__(self, root: Path, workers: int) -> None:
        self._executor = ProcessPoolExecutor(
            workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start,
            initargs=(str(root),),
        )
        self._window = workers * (1 + AHEAD)

    def __enter__(self) -> BuildPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Hand out nothing more, wait for the batches under way, collect every worker."""
        self._executor.shutdown(wait=True, cancel_futures=True)

    def read(self, batches: Iterable[list[Pending]]) -> Iterator[tuple[list[Pending], Read]]:
        """Each batch with its documents read and prepared (see `Read`), in order."""
        return self._ordered(_read, batches)

    def rows(self, jobs: Iterable[RowsJob]) -> Iterator[list[Row]]:
        """`concept_store.batch_rows` of each job, in order (see `ConceptWork`)."""
        for _, rows in self._ordered(_rows, jobs):
            yield rows

    def _ordered(self, work: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        under_way: deque[tuple[T, Future[R]]] = deque()
        try:
            for item in items:
                under_way.append((item, self._submit(work, item)))
                if len(under_way) > self._window:
                    first, future = under_way.popleft()
                    yield first, _result(future)
            while under_way:
                first, future = under_way.popleft()
                yield first, _result(future)
        finally:
            for _, future in under_way:
                future.cancel()

    def _submit(self, work: Callable[[T], R], item: T) -> Future[R]:
        try:
            return self._executor.submit(work, item)
        except BrokenProcessPool:
            raise _stopped() from None


def _result(future: Future[R]) -> R:
    try:
        return future.result()
    except BrokenProcessPool:
        raise _stopped() from None
    except CatDocError:
        raise
    except Exception as exc:
        raise CatDocError(
            IO_ERROR,
            f"A worker process building the search index failed: {type(exc).__name__}: {exc}",
            HINT,
        ) from exc


def _stopped() -> CatDocError:
    return CatDocError(
        IO_ERROR,
        "A worker process building the search index stopped unexpectedly (killed, or out of "
        "memory); nothing was written.",
        HINT,
    )


# ---------------------------------------------------------------------------------- in a worker
_root: Path
_resolve: Callable[[str], Path]
_stemmer: Stemmer


def _start(root: str) -> None:
    """Set a worker up: Ctrl-C is this process's to handle; one path resolver and one stemmer
    serve every batch of the build."""
    global _root, _resolve, _stemmer
    from catdoc.project_files import InsideResolver

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _root = Path(root)
    _resolve = InsideResolver(_root)
    _stemmer = Stemmer()


def _read(batch: Sequence[Pending]) -> Read:
    records, unchanged = [], []
    for n, doc in enumerate(batch):
        record = read_record(_root, doc, _resolve)
        if doc.known_hash == record.content_hash:
            unchanged.append((n, record.date))
        else:
            records.append(record)
    return prepare(records, _stemmer), unchanged


def _rows(job: RowsJob) -> list[Row]:
    return concept_store.batch_rows(job, _stemmer)
