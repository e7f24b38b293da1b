"""The first search index build as a whole process: `catdoc index` from cold, on a copy.

    python benchmarks/index_bench.py benchmarks/out/100000 --runs 1
    python benchmarks/index_bench.py benchmarks/out/10000 --runs 3
    python benchmarks/index_bench.py benchmarks/out/10000 --runs 3 --phases   # where CPU goes

The project is copied once to a temporary folder (the generated one is never written to); each
run deletes the copy's `.catdoc/cache/` and starts `python -m catdoc -C COPY index --format json`
in a new process, whose wall time, CPU time (user + system) and peak resident set size are read
from the operating system when it ends (`os.wait4`). Prints the median of each; the process
includes interpreter start-up and loading the model, as a first search does.

`--phases` instead builds in this process after loading the model, and splits the build's CPU
time: stemming titles and headings, inserting the documents (text indexes included), the
concept pass, and the rest (reading and chunking the files, mostly).
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
from collections.abc import Callable
from pathlib import Path
from typing import Any


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


PHASES = ("stemming", "inserting", "concepts")


def build_in_process(copy: Path) -> dict[str, float]:
    """CPU seconds of one cold build in this process, by phase (plus `build`, the whole)."""
    from catdoc.search import concept_store
    from catdoc.search.index import SearchIndex
    from catdoc.service import CatDoc

    spent = dict.fromkeys(PHASES, 0.0)

    def timed(owner: object, name: str, phase: str) -> Callable[[], None]:
        original = getattr(owner, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent[phase] += time.process_time() - started

        setattr(owner, name, wrapper)
        return lambda: setattr(owner, name, original)

    shutil.rmtree(copy / ".catdoc" / "cache", ignore_errors=True)
    svc = CatDoc(copy)
    svc.project()
    undo = [
        timed(SearchIndex, "stem", "stemming"),
        timed(SearchIndex, "_insert", "inserting"),
        timed(concept_store, "store", "concepts"),
    ]
    started = time.process_time()
    try:
        svc.build_index()
    finally:
        for restore in undo:
            restore()
    spent["build"] = time.process_time() - started
    svc.search_engine().close()
    return spent


def phases(copy: Path, runs: int) -> None:
    samples = [build_in_process(copy) for _ in range(runs)]
    median = {key: statistics.median(s[key] for s in samples) for key in samples[0]}
    rest = median["build"] - sum(median[p] for p in PHASES)
    print(f"{copy.name}: {runs} builds in process, load average {os.getloadavg()[0]:.1f}")
    print("| phase | CPU |")
    print("|---|---|")
    for phase in PHASES:
        print(f"| {phase} | {median[phase]:.2f} s |")
    print(f"| the rest (reading, chunking …) | {rest:.2f} s |")
    print(f"| build | {median['build']:.2f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--phases", action="store_true", help="CPU by phase, in process")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="catdoc-index-bench-") as scratch:
        copy = Path(scratch) / "project"
        shutil.copytree(args.project, copy, ignore=shutil.ignore_patterns("cache"))
        if args.phases:
            phases(copy, args.runs)
            return
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
