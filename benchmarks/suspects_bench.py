"""Time `suspects` on a generated project (default 10,000 objects, 30,000 morphisms, 4 functors,
1 natural transformation: about 50,000 links).

A copy of the project (its search index left out) gets every link stamped (`review --all`, also
timed), then a few documents change; `CatDoc.suspects()` is timed, the model already loaded and
median of 3 each:

- first run: no cache at all (every document read and hashed, reviews.yaml read) — what a
  fresh checkout in CI pays;
- new process: the caches in memory empty, the fingerprints `.catdoc/cache/` keeps (by file
  `stat`) present — what `catdoc suspects` pays on an unchanged project;
- warm: a long-running face (MCP server, TUI), one `stat` per document.

Then whole `catdoc suspects` processes (loading the model too), wall and CPU time: without
`.catdoc/cache/` (a fresh checkout) and with it.

The copy is not a git repository, so each changed document's diff note costs one failed
`git log`. Budget (issue 14): under 1 s.

    python benchmarks/suspects_bench.py                # benchmarks/out/10000, made if missing
    python benchmarks/suspects_bench.py --docs 1000 --changed 20
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUDGET_S = 1.0
RUNS = 3


def corpus(n: int) -> Path:
    out = HERE / "out" / str(n)
    if not (out / ".catdoc").is_dir():
        subprocess.run(
            [sys.executable, str(HERE / "generate.py"), str(n), str(out)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return out


def median_of(runs: int, call: Callable[[], object], before: Callable[[], None]) -> float:
    times = []
    for _ in range(runs):
        before()
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def process_times(root: Path, keep_cache: bool) -> tuple[float, float]:
    """Median wall and CPU seconds of whole `catdoc suspects` processes."""
    walls, cpus = [], []
    for _ in range(RUNS):
        if not keep_cache:
            shutil.rmtree(root / ".catdoc" / "cache", ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "catdoc", "-C", str(root), "suspects"],
            stdout=subprocess.DEVNULL,
            check=False,
        )
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--changed", type=int, default=5, help="documents edited after review")
    args = parser.parse_args()

    from catdoc import fingerprints, reviews
    from catdoc.service import CatDoc

    def forget() -> None:
        fingerprints._SHARED.clear()
        reviews._CACHE.clear()

    def forget_all() -> None:
        forget()
        for name in (fingerprints.CACHE_FILE,):
            (root / ".catdoc" / "cache" / name).unlink(missing_ok=True)

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        shutil.copytree(corpus(args.docs), root, ignore=shutil.ignore_patterns("cache"))
        svc = CatDoc(root)
        project = svc.project()
        forget_all()
        started = time.perf_counter()
        svc.review(all=True, by="bench")
        stamped = time.perf_counter() - started
        paths = sorted(o.path for o in project.object_by_id.values() if o.path)
        for rel in paths[:: max(1, len(paths) // args.changed)][: args.changed]:
            path = root / rel
            path.write_text(path.read_text(encoding="utf-8") + "\nA changed sentence.\n", "utf-8")
        svc = CatDoc(root)
        svc.project()
        report = svc.suspects()
        first = median_of(RUNS, svc.suspects, forget_all)
        cold = median_of(RUNS, svc.suspects, forget)
        warm = median_of(RUNS, svc.suspects, lambda: None)
        print(
            f"{len(project.object_by_id):,} objects, {report.links_checked:,} links, "
            f"{args.changed} documents changed → {report.total:,} suspect links"
        )
        print(f"review --all (stamp every link, cold):  {stamped:6.3f} s")
        print(f"suspects, first run (median of {RUNS}):   {first:6.3f} s")
        print(f"suspects, new process (median of {RUNS}): {cold:6.3f} s")
        print(f"suspects, warm (median of {RUNS}):        {warm:6.3f} s")
        for label, keep in (("no cache", False), ("cache kept", True)):
            wall, cpu = process_times(root, keep)
            print(f"catdoc suspects process, {label + ':':11} {wall:6.3f} s wall, {cpu:.3f} s CPU")
        verdict = "within" if max(first, cold, warm) < BUDGET_S else "OVER"
        print(f"budget {BUDGET_S:.1f} s: {verdict}")


if __name__ == "__main__":
    main()
