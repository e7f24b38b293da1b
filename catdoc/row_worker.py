"""A second process that makes the kept rows (`kept_rows`) of the last pieces of a large model
file while this one makes those of the first: on two cores the first read of a 55 MB file
takes about an eighth less wall time (its CPU time stays the same).

The worker is a fresh interpreter (`python -P -c`) that imports only what parsing needs (about
0.15 s of CPU), started only for a file of `PARALLEL_CHARS` or more and only when
another core was mostly idle while this process cut the file. Work and answer cross its pipes
as `marshal` data (values only: nothing in them runs). Whatever goes wrong with it (it cannot
start, dies, is killed, answers something else) makes this process parse its pieces itself:
the worker can only save time, never change a result. It ends with the read that started it:
killed if this process stops waiting (an interrupt, a piece that sends the file to a whole
parse), and on its own if this process dies (its pipes close).
"""

from __future__ import annotations

import contextlib
import gc
import marshal
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Literal

from catdoc import kept_rows
from catdoc.cores import Sample
from catdoc.kept_rows import Row

PARALLEL_CHARS = 16 << 20
"""Text from which a first read uses a worker: below it, starting one costs what it saves."""
SHARE = 0.45
"""The worker's part of the text: it starts late by the time it takes to import."""
IDLE = 0.6
"""How much of a core must have been idle while the file was cut."""

Piece = tuple[str, int, int, int]
"""(the list's key, start and end of the text of some of its consecutive items, their count)."""
Answer = list[list[Row]] | Literal[False] | None
"""Each piece's rows; False when a piece sends the file to a whole parse; None when the worker
failed (its pieces are then parsed here)."""

_SOURCE = Path(__file__).resolve().parent.parent
_CODE = "import sys; sys.path.insert(0, sys.argv[1]); from catdoc.row_worker import main; main()"


class Worker:
    """A started worker; its pieces are `pieces[first:]` of those `start` was given."""

    def __init__(self, process: subprocess.Popen[bytes], payload: bytes, first: int) -> None:
        self.first = first
        self._process = process
        self._feeder = threading.Thread(target=_feed, args=(process.stdin, payload), daemon=True)
        self._feeder.start()

    def answer(self, counts: list[int]) -> Answer:
        """Waits for the rows of the worker's pieces, of `counts` items each (see `Answer`)."""
        assert self._process.stdout is not None
        try:
            out = self._process.stdout.read()
            code = self._process.wait()
            answer = marshal.loads(out) if code == 0 else None
        except (OSError, ValueError, EOFError, TypeError):
            return None
        if answer is False:
            return False
        if type(answer) is not list or len(answer) != len(counts):
            return None
        for rows, count in zip(answer, counts, strict=True):
            if type(rows) is not list or len(rows) != count:
                return None
        return answer

    def stop(self) -> None:
        """Kills the worker if it is still running, and collects it."""
        if self._process.poll() is None:
            self._process.kill()
        for stream in (self._process.stdin, self._process.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        self._process.wait()
        self._feeder.join()


def start(text: str, rel: str, pieces: list[Piece], sample: Sample) -> Worker | None:
    """A worker for the last pieces of `text` (about `SHARE` of it), or None when there is no
    use in one: the text is short, there are fewer than two pieces, no core was idle since
    `sample` started, or the worker cannot be started."""
    if len(text) < PARALLEL_CHARS or len(pieces) < 2 or sample.idle() < IDLE:
        return None
    goal = SHARE * len(text)
    first, theirs = len(pieces), 0
    while first > 1 and theirs + _size(pieces[first - 1]) / 2 < goal:  # half of it fits
        first -= 1
        theirs += _size(pieces[first])
    if first == len(pieces):
        return None
    payload = marshal.dumps((rel, list(texts(text, pieces[first:]))))
    try:
        process = subprocess.Popen(
            [sys.executable, "-P", "-c", _CODE, str(_SOURCE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    return Worker(process, payload, first)


def texts(text: str, pieces: Iterable[Piece]) -> Iterator[tuple[str, str, int]]:
    """(key, text, count) of each piece, its text cut out only when it is reached."""
    for key, start, end, count in pieces:
        yield key, text[start:end], count


def _size(piece: Piece) -> int:
    return piece[2] - piece[1]


def _feed(stream: IO[bytes] | None, payload: bytes) -> None:
    """Writes the work and closes the worker's input (a worker that died is seen by `answer`)."""
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError), stream:
        stream.write(payload)


def main() -> None:
    """The worker: reads (rel, [(key, text, count), …]) and writes each piece's rows, or False
    as soon as one piece sends the file to a whole parse."""
    gc.disable()  # one-off: its trees are freed by their counts
    rel, work = marshal.loads(sys.stdin.buffer.read())
    answer = kept_rows.each_piece_rows(work, rel)
    sys.stdout.buffer.write(marshal.dumps(False if answer is None else answer))
