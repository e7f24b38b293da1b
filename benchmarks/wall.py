"""A whole command, run N times: the median of its wall time, its CPU time (user + system, its
own and that of the processes it waited for, from `wait4`) and its peak resident memory (the
largest of those processes). `--before` runs a shell command before each run (untimed), e.g. to
remove a project's `.catdoc/cache/` so that every run is a first read.

    python benchmarks/wall.py 5 catdoc -C P validate
    python benchmarks/wall.py --before 'rm -rf P/.catdoc/cache' 3 python -m catdoc -C P validate
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=int)
    parser.add_argument("--before", help="a shell command run (untimed) before each run")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    walls, cpus, peaks = [], [], []
    for _ in range(args.runs):
        if args.before:
            subprocess.run(args.before, shell=True, check=True)
        start = time.perf_counter()
        child = subprocess.Popen(args.command, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        walls.append(time.perf_counter() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)
        peaks.append(usage.ru_maxrss / 1024)
        code = os.waitstatus_to_exitcode(status)
        print(f"  wall {walls[-1]:.2f} s, CPU {cpus[-1]:.2f} s, {peaks[-1]:.0f} MB, exit {code}")
    print(
        f"median of {args.runs}: wall {statistics.median(walls):.2f} s, "
        f"CPU {statistics.median(cpus):.2f} s, peak RSS {statistics.median(peaks):.0f} MB, "
        f"load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
