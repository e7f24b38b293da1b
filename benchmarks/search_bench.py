"""Search benchmarks on a generated corpus (budgets in DESIGN.md §5 and issue 4).

Measures, on N documents of ~300 words (default 10,000):
- first index build (from an empty cache),
- re-index after one document changes,
- warm query latency (p50/p95) for hybrid document and chunk search, and text-only documents,
- the CLI's first query from a cold process (index already built).

The corpus comes from `benchmarks/generate.py` (written once to `benchmarks/out/N`, git-ignored).
By default hybrid runs without vectors (`search.vectors: off` in the corpus' config.yaml), as a
default install does. `--vectors auto` (needs `catdoc[semantic]`) measures hybrid document search
with vectors instead: the first hybrid query while vectors are missing, then warm queries with
every document vector in place, plus the nearest-neighbour scan and the query embedding alone.
Embedding N documents takes minutes, so the vectors are saved next to the corpus
(`doc-vectors.npz`, by document id) and restored on later runs.
Each measure is given as wall time and as CPU time (user + system of this process, or of the CLI
child process): on a shared, loaded machine the wall time includes waiting for a core.

    python benchmarks/search_bench.py            # 10,000 documents
    python benchmarks/search_bench.py --docs 1000 --queries 100
    python benchmarks/search_bench.py --docs 2000 --vectors auto
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BUDGETS = {
    "first index build": 15.0,
    "re-index after one change": 0.2,
    "query p50, documents (warm)": 0.02,
    "CLI first query, cold process": 1.0,
}


def corpus(n: int, out: Path) -> Path:
    """The generated project, made once; its search cache is removed for a clean first build."""
    if not (out / ".catdoc").is_dir():
        subprocess.run(
            [sys.executable, str(HERE / "generate.py"), str(n), str(out)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    shutil.rmtree(out / ".catdoc" / "cache", ignore_errors=True)
    return out


def queries(root: Path, count: int, seed: int = 7) -> list[str]:
    """1–3 word queries drawn from the corpus' own words (so they match, as real ones do)."""
    rng = random.Random(seed)
    files = sorted((root / "docs").rglob("*.md"))
    words: list[str] = []
    for path in rng.sample(files, min(40, len(files))):
        words += re.findall(r"[a-z]{4,}", path.read_text(encoding="utf-8").lower())
    vocabulary = sorted(set(words))
    return [" ".join(rng.sample(vocabulary, rng.randint(1, 3))) for _ in range(count)]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--out", type=Path, help="corpus directory (default benchmarks/out/N)")
    parser.add_argument("--vectors", choices=("off", "auto"), default="off")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent))
    from benchmarks.search_quality import set_vectors
    from catdoc.service import CatDoc

    root = corpus(args.docs, args.out or HERE / "out" / str(args.docs))
    set_vectors(root, args.vectors)
    rows: list[tuple[str, float, float]] = []

    def timed(name: str, action: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        result = action()
        rows.append((name, time.perf_counter() - wall, time.process_time() - cpu))
        return result

    service = CatDoc(root)
    project = timed("load model (not part of the index)", service.project)
    engine = service.search_engine()
    stats = timed("first index build", lambda: engine.sync(project))
    assert stats.indexed == args.docs, stats

    victim = next(o for o in project.object_by_id.values() if o.path)
    path = root / str(victim.path)
    original = path.read_text(encoding="utf-8")
    path.write_text(original + "\nAn edited closing line.\n", encoding="utf-8")
    try:
        stats = timed("re-index after one change", lambda: engine.sync(project, force=True))
        assert stats.indexed == 1, stats
    finally:
        path.write_text(original, encoding="utf-8")
    engine.sync(project, force=True)

    texts = queries(root, args.queries)
    runs: list[tuple[str, str, str]] = [("documents", "hybrid", "documents")]
    if args.vectors == "auto":
        rows += vector_setup(service, root, texts)
    else:
        runs.append(("chunks", "hybrid", "chunks"))
    runs.append(("documents", "text", "documents, text mode"))
    for scope, mode, label in runs:
        for text in texts[:5]:
            service.search(text, scope=scope, mode=mode)
        walls, cpus = [], []
        for text in texts:
            wall, cpu = time.perf_counter(), time.process_time()
            service.search(text, scope=scope, mode=mode)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        rows.append(
            (f"query p50, {label} (warm)", statistics.median(walls), statistics.median(cpus))
        )
        rows.append((f"query p95, {label} (warm)", percentile(walls, 0.95), percentile(cpus, 0.95)))
    if args.vectors == "auto":
        rows += vector_parts(service, texts)
    engine.close()

    walls, cpus = [], []
    for text in texts[:5]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "catdoc", "-C", str(root), "search", text, "--format", "json"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        walls.append(time.perf_counter() - wall)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    rows.append(
        ("CLI first query, cold process", statistics.median(walls), statistics.median(cpus))
    )

    load = os.getloadavg()[0]
    print(f"{args.docs} documents, {args.queries} queries, load average {load:.1f}\n")
    print("| measure | wall | CPU | budget |")
    print("|---|---|---|---|")
    for name, wall, cpu in rows:
        budget = BUDGETS.get(name)
        limit = "" if budget is None else "< " + _duration(budget)
        print(f"| {name} | {_duration(wall)} | {_duration(cpu)} | {limit} |")


def vector_setup(service: Any, root: Path, texts: list[str]) -> list[tuple[str, float, float]]:
    """Time the first hybrid query while document vectors are missing (it must not wait for
    them), then put every vector in place: restored from `doc-vectors.npz`, or computed (with
    a vector-mode query, which waits) and saved there."""
    import numpy as np

    from catdoc.search.semantic import MODEL_ID

    engine = service.search_engine()
    wall, cpu = time.perf_counter(), time.process_time()
    response = service.search(texts[0])
    timing = ("first hybrid query, vectors missing", *_since(wall, cpu))
    assert any("Vectors are being computed" in note for note in response.notes), response.notes
    engine.close()
    saved = root / "doc-vectors.npz"
    rowid_of = {ident: known.rowid for ident, known in engine.index.known().items()}
    if saved.is_file():
        data = np.load(saved)
        rows = [
            (rowid_of[str(ident)], vector.astype(np.float32).tobytes())
            for ident, vector in zip(data["ids"], data["vectors"], strict=True)
            if str(ident) in rowid_of
        ]
        engine.index.put_vectors("doc", MODEL_ID, rows)
    wall, cpu = time.perf_counter(), time.process_time()
    service.search(texts[0], mode="vector")
    computed = ("compute missing document vectors (vector mode)", *_since(wall, cpu))
    id_of = {rowid: ident for ident, rowid in rowid_of.items()}
    stored = engine.index.vectors("doc", MODEL_ID)
    np.savez(
        saved,
        ids=np.array([id_of[rowid] for rowid, _ in stored]),
        vectors=np.stack([np.frombuffer(blob, dtype=np.float32) for _, blob in stored]),
    )
    return [timing, computed]


def vector_parts(service: Any, texts: list[str]) -> list[tuple[str, float, float]]:
    """The two parts of the vector signal alone: embedding an uncached query, and the scan."""
    from catdoc.search import semantic

    engine = service.search_engine()
    model = semantic.embedder()
    out = []
    for name, action in (
        ("query embedding (not cached)", lambda text: model.embed([text])),
        (
            "nearest-neighbour scan, 300 of all documents",
            lambda text: semantic.nearest(
                semantic.similarity(engine._vectors["doc"], text, None), 300
            ),
        ),
    ):
        walls, cpus = [], []
        for text in texts:
            wall, cpu = time.perf_counter(), time.process_time()
            action(text)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        out.append((f"{name}, p50", statistics.median(walls), statistics.median(cpus)))
    return out


def _since(wall: float, cpu: float) -> tuple[float, float]:
    return time.perf_counter() - wall, time.process_time() - cpu


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


if __name__ == "__main__":
    main()
