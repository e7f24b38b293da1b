"""Search benchmarks on a generated corpus (budgets in DESIGN.md §5 and issue 4).

Measures, on N documents of ~300 words (default 10,000):
- first index build (from an empty cache),
- re-index after one document changes,
- warm query latency (p50/p95) for hybrid document and chunk search,
- the CLI's first query from a cold process (index already built).

The corpus comes from `benchmarks/generate.py` (written once to `benchmarks/out/N`, git-ignored).
Hybrid runs without the optional vector extra (CATDOC_SEMANTIC=0), as a default install does.
Each measure is given as wall time and as CPU time (user + system of this process, or of the CLI
child process): on a shared, loaded machine the wall time includes waiting for a core.

    python benchmarks/search_bench.py            # 10,000 documents
    python benchmarks/search_bench.py --docs 1000 --queries 100
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
    args = parser.parse_args()
    os.environ["CATDOC_SEMANTIC"] = "0"
    sys.path.insert(0, str(HERE.parent))
    from catdoc.service import CatDoc

    root = corpus(args.docs, args.out or HERE / "out" / str(args.docs))
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
    for scope in ("documents", "chunks"):
        for text in texts[:5]:
            service.search(text, scope=scope)
        walls, cpus = [], []
        for text in texts:
            wall, cpu = time.perf_counter(), time.process_time()
            service.search(text, scope=scope)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        rows.append(
            (f"query p50, {scope} (warm)", statistics.median(walls), statistics.median(cpus))
        )
        rows.append((f"query p95, {scope} (warm)", percentile(walls, 0.95), percentile(cpus, 0.95)))
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


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


if __name__ == "__main__":
    main()
