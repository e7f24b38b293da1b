"""Progress bars for long commands (`catdoc import`, `search`, `index`), drawn on stderr.

Bars appear only when stderr is a terminal and the command prints text, never in `--format
json` or piped output; they are transient (erased when the command is done), so what stays on
the screen is the command's own output. Short work draws nothing: the bars start with the first
step that counts more than `HANDFUL` units, and a step of unknown length (loading the embedding
model, writing the model files) shows as a pulsing bar once they are on screen.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID

    from catdoc.cli.app import OutputFormat
    from catdoc.progress import Progress

HANDFUL = 20
"""Steps of at most this many documents or vectors are quick: no bar for them alone."""


class ProgressBars:
    """A `catdoc.progress.Progress` drawn by rich: one bar, for the step under way."""

    def __init__(self, console: Console, *, handful: int = HANDFUL) -> None:
        self._console = console
        self._handful = handful
        self._bars: RichProgress | None = None
        self._task: TaskID | None = None
        self._step: str | None = None

    def __call__(self, step: str, done: int, total: int | None) -> None:
        if self._bars is None:
            if total is None or total <= self._handful:
                return
            self._bars = _rich_progress(self._console)
        if step != self._step:
            if self._task is not None:
                self._bars.update(self._task, visible=False)
            self._task = self._bars.add_task(step, total=total, count="")
            self._step = step
        assert self._task is not None
        count = f"{done:,}/{total:,}" if total is not None else ""
        self._bars.update(self._task, completed=done, total=total, count=count)
        if not self._bars.live.is_started:
            self._bars.start()

    def close(self) -> None:
        """Erase the bars (they are transient)."""
        if self._bars is not None:
            self._bars.stop()
            self._bars = None


def _rich_progress(console: Console) -> RichProgress:
    from rich.progress import (
        BarColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        TextColumn("{task.fields[count]}", markup=False),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )


@contextmanager
def progress_bars(fmt: OutputFormat) -> Iterator[Progress | None]:
    """Bars on stderr for the `with` block when stderr is a terminal and `fmt` is text;
    otherwise None (no progress is reported at all)."""
    from catdoc.cli.app import OutputFormat

    if fmt is not OutputFormat.text or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console

    bars = ProgressBars(Console(file=sys.stderr, highlight=False))
    try:
        yield bars
    finally:
        bars.close()


__all__ = ["HANDFUL", "ProgressBars", "progress_bars"]
