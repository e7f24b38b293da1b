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

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Protocol

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


@dataclass(frozen=True)
class Step:
    """A step under way: `done` of `total` (None while that is not known)."""

    step: str
    done: int
    total: int | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class BackgroundWork:
    """The work a long-running face's process does in the background (vectors for search), as
    the face shows it: no request waits for that work, so without this it would go unseen.

    A `Progress` the service's background workers report to from their threads (via
    `CatDoc.watch_vectors`): it keeps the latest report of each step under way, in the order the
    steps started (a finished one, done == total, leaves), and a sequence number that changes
    with every report, which the dashboard's event stream compares to notice a change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._steps: dict[str, Step] = {}
        self._seq = 0

    def __call__(self, step: str, done: int, total: int | None) -> None:
        self.report(step, done, total)

    def report(self, step: str, done: int, total: int | None) -> bool:
        """Take a report; whether it finished a step that was under way (a face says so)."""
        with self._lock:
            self._seq += 1
            if done == total:
                return self._steps.pop(step, None) is not None
            self._steps[step] = Step(step, done, total)
            return False

    def running(self) -> tuple[int, list[Step]]:
        """(sequence number, the steps under way)."""
        with self._lock:
            return self._seq, list(self._steps.values())


__all__ = [
    "REPORTS_PER_SECOND",
    "BackgroundWork",
    "Progress",
    "Step",
    "Throttled",
    "no_progress",
    "throttled",
]
