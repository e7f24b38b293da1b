"""The first search index build as a whole process: `catdoc index` from cold, on a copy.

    python benchmarks/index_bench.py benchmarks/out/100000 --runs 1
    python benchmarks/index_bench.py benchmarks/out/10000 --runs 3

The project is copied once to a temporary folder (the generated one is never written to); each
run deletes the copy's `.catdoc/cache/` and starts `python -m catdoc -C COPY index --format json`
in a new process, whose wall time, CPU time (user + system) and peak resident set size are read
from the operating system when it ends (`os.wait4`). Prints the median of each; the process
includes interpreter start-up and loading the model, as a first search does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def build(copy: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MiB) of one cold `catdoc index` process."""
    shutil.rmtree(copy / ".catdoc" / "cache", ignore_errors=True)
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "catdoc", "-C", str(copy), "index", "--format", "json"],
        stdout=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"catdoc index failed with exit status {code}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="catdoc-index-bench-") as scratch:
        copy = Path(scratch) / "project"
        shutil.copytree(args.project, copy, ignore=shutil.ignore_patterns("cache"))
        runs = [build(copy) for _ in range(args.runs)]
    wall, cpu, rss = (statistics.median(run[n] for run in runs) for n in range(3))
    load = os.getloadavg()[0]
    print(f"{args.project.name}: {args.runs} cold builds, load average {load:.1f}")
    print("| measure | value |")
    print("|---|---|")
    print(f"| wall | {wall:.1f} s |")
    print(f"| CPU (user + system) | {cpu:.1f} s |")
    print(f"| peak RSS | {rss:,.0f} MiB |")


if __name__ == "__main__":
    main()
