"""Time traceability coverage at N objects (default 10,000; budget: under a second).

Measures, on benchmarks/generate.py's project: `CatDoc.coverage()` over every functor with the
model loaded (median of the runs), and `catdoc coverage --format json` in a fresh process (model
load included, median of three).

    python benchmarks/coverage_bench.py
    python benchmarks/coverage_bench.py --docs 1000 --runs 5
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent))
    from benchmarks.generate import generate
    from catdoc.service import CatDoc

    root = HERE / "out" / str(args.docs)
    if not (root / "benchmark.json").is_file():
        generate(args.docs, root)
    svc = CatDoc(root)
    svc.project()
    warm = []
    for _ in range(args.runs):
        started = time.perf_counter()
        report = svc.coverage()
        warm.append(time.perf_counter() - started)
    cold = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "catdoc", "-C", str(root), "coverage", "--format", "json"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        cold.append(time.perf_counter() - started)
    print(f"{args.docs} objects, {len(report.functors)} functors\n")
    print("| measure | median | budget |")
    print("|---|---|---|")
    print(f"| coverage, model loaded | {statistics.median(warm) * 1000:.1f} ms | < 1 s |")
    print(f"| `catdoc coverage`, new process | {statistics.median(cold):.2f} s | < 1 s |")


if __name__ == "__main__":
    main()
