"""What progress reporting costs: a cold search index build with and without progress bars.

    python benchmarks/progress_bench.py benchmarks/out/10000 --repeat 3

Each run copies nothing: it deletes the project's `.catdoc/cache/`, loads the model (not timed)
and times `CatDoc.build_index` once with no progress and once drawing the CLI's rich bars to a
terminal-like sink, alternating, so both see the same machine load. Prints the median wall and
CPU seconds of each and how many reports reached the bars.
"""

from __future__ import annotations

import argparse
import io
import shutil
import statistics
import time
from pathlib import Path

from rich.console import Console

from catdoc.cli.progress_bars import ProgressBars
from catdoc.service import CatDoc


class Counted(ProgressBars):
    """The CLI's bars, counting the reports the throttle lets through."""

    reports = 0

    def __call__(self, step: str, done: int, total: int | None) -> None:
        Counted.reports += 1
        super().__call__(step, done, total)


def build(root: Path, bars: bool) -> tuple[float, float]:
    """Wall and CPU seconds of one cold index build."""
    shutil.rmtree(root / ".catdoc" / "cache", ignore_errors=True)
    svc = CatDoc(root)
    svc.project()
    progress = Counted(Console(force_terminal=True, file=io.StringIO(), width=100))
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        result = svc.build_index(progress=progress if bars else None)
    finally:
        progress.close()
    assert result.indexed == result.documents
    svc.search_engine().close()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    samples: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for _ in range(args.repeat):
        for bars in (False, True):
            samples[bars].append(build(args.project, bars))
    for bars, runs in samples.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        label = "with bars  " if bars else "no progress"
        walls = [round(w, 2) for w, _ in runs]
        print(f"{label}  wall {wall:6.2f} s  cpu {cpu:6.2f} s  runs {walls}")
    print(f"reports drawn per build: {Counted.reports / args.repeat:.0f}")


if __name__ == "__main__":
    main()
