"""Progress of long steps (indexing, embedding, importing), reported to whichever face asked.

A long operation takes a `Progress` callable and calls it as `progress(step, done, total)`:
`step` is a short phrase that names what is going on ("Indexing documents"), `done` counts what
is finished of it and `total` how much there is in all, or None while that is not known (loading
a model). A step starts with its first report, `done` never goes down within it, `done == total`
marks it complete, and it ends when another step starts or the operation returns. The core
reports every unit of work; `throttled` thins that stream out for a face, so reporting stays
negligible next to the work itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

REPORTS_PER_SECOND = 10
"""At most this many reports of one step reach a face (first and last always do)."""


class Progress(Protocol):
    """What a long operation calls to say how far it is."""

    def __call__(self, step: str, done: int, total: int | None) -> None: ...


def no_progress(step: str, done: int, total: int | None) -> None:
    """The default: nobody is watching."""


class Throttled:
    """A `Progress` that passes on the first report of each step, its completion, and otherwise
    at most `REPORTS_PER_SECOND` reports a second (a report costs one clock read)."""

    def __init__(
        self,
        report: Progress,
        per_second: float = REPORTS_PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._report = report
        self._interval = 1.0 / per_second
        self._clock = clock
        self._step: str | None = None
        self._next = 0.0

    def __call__(self, step: str, done: int, total: int | None) -> None:
        now = self._clock()
        if step != self._step or done == total or now >= self._next:
            self._step, self._next = step, now + self._interval
            self._report(step, done, total)


def throttled(progress: Progress | None) -> Progress:
    """`progress` thinned out for a face, or `no_progress` when there is none."""
    if progress is None or progress is no_progress or isinstance(progress, Throttled):
        return progress or no_progress
    return Throttled(progress)


__all__ = ["REPORTS_PER_SECOND", "Progress", "Throttled", "no_progress", "throttled"]
