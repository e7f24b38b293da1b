"""How many cores are idle: work that can go to a second process asks before starting one."""

from __future__ import annotations

import os
import time

IDLE_SAMPLE = 0.1
"""Seconds over which `idle_cores` reads the kernel's counters."""


class Sample:
    """Counts the machine's idle time from now on, so that a decision made later measures the
    interval in between, at no cost in waiting (see `idle`)."""

    def __init__(self) -> None:
        self._before = _cpu_times()

    def idle(self, working: bool = True) -> float:
        """How many of the cores this process may use were idle since the sample started; where
        the kernel's counters cannot be read, from the load average of the last minute (none
        idle where there is none), less the core of this process when it was `working` all
        along."""
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        cores = cores or os.cpu_count() or 1
        after = _cpu_times()
        if self._before is None or after is None:
            return max(0.0, cores - working - _load())
        spent = [b - a for a, b in zip(self._before, after, strict=True)]
        total = sum(spent)
        if total <= 0:
            return float(cores - working)
        return cores * (spent[3] + spent[4]) / total


def idle_cores(sample: float = IDLE_SAMPLE) -> float:
    """How many of the cores this process may use are idle, measured over `sample` seconds
    while this process waits."""
    counting = Sample()
    time.sleep(sample)
    return counting.idle(working=False)


def _load() -> float:
    """The load average of the last minute; where there is none (Windows), every core is
    taken as busy."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return float(os.cpu_count() or 1)


def _cpu_times() -> list[int] | None:
    """The machine's CPU time by kind (user, nice, system, idle, iowait, …), in ticks, or None
    where the kernel does not tell (not Linux)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            times = [int(n) for n in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return times if len(times) > 4 else None
