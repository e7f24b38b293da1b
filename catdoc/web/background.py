"""The work the dashboard's process does in the background (vectors being computed for search),
as its header shows it: no request waits for that work, so without this it would go unseen.

A `BackgroundWork` is a `Progress` the service's background workers report to (from their
threads, via `CatDoc.watch_vectors`); it keeps the latest report of each step still running, and
a sequence number the event stream compares to notice a change.
"""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Step:
    """A step under way: `done` of `total` (None while that is not known)."""

    step: str
    done: int
    total: int | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class BackgroundWork:
    """The steps under way, in the order they started; a finished step (done == total) leaves."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._steps: dict[str, Step] = {}
        self._seq = 0

    def __call__(self, step: str, done: int, total: int | None) -> None:
        with self._lock:
            if done == total:
                self._steps.pop(step, None)
            else:
                self._steps[step] = Step(step, done, total)
            self._seq += 1

    def running(self) -> tuple[int, list[Step]]:
        """(sequence number, the steps under way): the number changes with every report."""
        with self._lock:
            return self._seq, list(self._steps.values())
