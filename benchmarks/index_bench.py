"""The first search index build as a whole process: `catdoc index` from cold, on a copy.

    python benchmarks/index_bench.py benchmarks/out/100000 --runs 1
    python benchmarks/index_bench.py benchmarks/out/10000 --runs 3
    python benchmarks/index_bench.py benchmarks/out/10000 --runs 3 --phases   # where CPU goes
    python benchmarks/index_bench.py benchmarks/out/100000 --runs 1 --model-read

The project is copied once to a temporary folder (the generated one is never written to); each
run deletes the copy's `.catdoc/cache/` (with `--model-read`, all but the parsed model an earlier
command kept) and starts `python -m catdoc -C COPY index --format json`
in a new process, whose wall time and CPU time (user + system, its worker processes included)
are read from the operating system when it ends (`os.wait4`). Peak resident memory is read
from `/proc` while it runs (`VmHWM`, every 50 ms): of the process itself, and the largest of its
worker processes (the operating system's own count for a child started by fork and exec starts
at its parent's size at the fork, so it says nothing of the worker). Prints the median of each;
the process includes interpreter start-up and loading the model, as a first search does.

`--phases` instead builds in this process after loading the model, and splits this process's
CPU time: stemming titles and headings, inserting the documents (text indexes included), the
concept pass, and the rest. A build large enough for worker processes reads, chunks and stems
the documents and finds and ranks their concepts there, outside these numbers.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def build(copy: Path, model_read: bool = False) -> tuple[float, float, float, float]:
    """(wall s, CPU s, peak RSS MiB of the process, of its largest worker) of one cold
    `catdoc index` process; with `model_read`, the model was read before (its parsed copy in
    `.catdoc/cache/parsed/` is kept) and only the search index is new."""
    cache = copy / ".catdoc" / "cache"
    for entry in cache.iterdir() if cache.is_dir() else ():
        if not (model_read and entry.name == "parsed"):
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "catdoc", "-C", str(copy), "index", "--format", "json"],
        stdout=subprocess.DEVNULL,
    )
    peaks: dict[int, float] = {}
    watching = threading.Event()
    watcher = threading.Thread(target=_watch, args=(child.pid, peaks, watching))
    watcher.start()
    try:
        _, status, usage = os.wait4(child.pid, 0)
    finally:
        watching.set()
        watcher.join()
    wall = time.perf_counter() - started
    child.returncode = code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"catdoc index failed with exit status {code}")
    workers = [peak for pid, peak in peaks.items() if pid != child.pid]
    return wall, usage.ru_utime + usage.ru_stime, peaks.get(child.pid, 0.0), max(workers, default=0)


def _watch(main: int, peaks: dict[int, float], stop: threading.Event) -> None:
    """Record the peak RSS (MiB) of `main` and of its worker processes until `stop`."""
    while not stop.wait(0.05):
        for pid in [main, *_workers_of(main)]:
            peak = _peak(pid)
            if peak is not None:
                peaks[pid] = max(peaks.get(pid, 0.0), peak)


def _workers_of(parent: int) -> list[int]:
    """The worker processes (multiprocessing's, not its resource tracker) of `parent`."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            cmdline = Path(entry.path, "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == parent and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return found


def _peak(pid: int) -> float | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None


PHASES = ("stemming", "inserting", "concepts")


def build_in_process(copy: Path) -> dict[str, float]:
    """CPU seconds of one cold build in this process, by phase (plus `build`, the whole)."""
    from catdoc.search import concept_store
    from catdoc.search.index import SearchIndex
    from catdoc.search.stemming import Stemmer
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
        timed(Stemmer, "stem", "stemming"),
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
    print(f"| the rest (reading and chunking here, committing …) | {rest:.2f} s |")
    print(f"| build | {median['build']:.2f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--phases", action="store_true", help="CPU by phase, in process")
    parser.add_argument(
        "--model-read",
        action="store_true",
        help="the model was read by an earlier command (its parsed copy kept); else from YAML",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="catdoc-index-bench-") as scratch:
        copy = Path(scratch) / "project"
        shutil.copytree(args.project, copy, ignore=shutil.ignore_patterns("cache"))
        if args.phases:
            phases(copy, args.runs)
            return
        if args.model_read:  # as after any earlier command: the model read and kept once
            subprocess.run(
                [sys.executable, "-m", "catdoc", "-C", str(copy), "list", "objects", "-n", "1"],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        runs = [build(copy, args.model_read) for _ in range(args.runs)]
    wall, cpu, rss, workers = (statistics.median(run[n] for run in runs) for n in range(4))
    load = os.getloadavg()[0]
    model = "model read before" if args.model_read else "model from YAML"
    print(f"{args.project.name}: {args.runs} cold builds ({model}), load average {load:.1f}")
    print("| measure | value |")
    print("|---|---|")
    print(f"| wall | {wall:.1f} s |")
    print(f"| CPU (user + system) | {cpu:.1f} s |")
    print(f"| peak RSS | {rss:,.0f} MiB |")
    print(f"| peak RSS of a worker | {workers:,.0f} MiB |")


if __name__ == "__main__":
    main()
