"""A second process that makes the kept rows (`kept_rows`) of the last pieces of a large model
file while this one makes those of the first and builds the models of all: on two cores the
first read of a 55 MB file takes about a fifth less wall time (its CPU time stays the same).

The worker is a fresh interpreter (`python -P -c`) that imports only what parsing needs (about
0.15 s of CPU), started only for a file of `PARALLEL_CHARS` or more and only when
another core was mostly idle while this process cut the file. Its work is one `marshal` value
in a temporary file given as its input; it answers a piece at a time (the piece's rows as
`marshal` data in a second temporary file, then their length on its output: values only,
nothing in them runs), so this process builds the models of the worker's first pieces while it
parses the last. Whatever goes wrong with it (it cannot start, dies, is killed, answers
something else) makes this process parse the pieces it did not answer itself: the worker can
only save time, never change a result. It ends with the read that started it: killed if this
process stops waiting (an interrupt, a piece that sends the file to a whole parse), and on its
own if this process dies (its next write to its output fails).
"""

from __future__ import annotations

import contextlib
import gc
import marshal
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from catdoc import kept_rows
from catdoc.cores import Sample
from catdoc.kept_rows import Row

PARALLEL_CHARS = 16 << 20
"""Text from which a first read uses a worker: below it, starting one costs what it saves."""
SHARE = 0.65
"""The worker's part of the text: this process also builds the models of every piece (see
`parsed_cache.load`), and the worker starts late by the time it takes to import."""
IDLE = 0.6
"""How much of a core must have been idle while the file was cut."""
_LENGTH = 8
"""Bytes of the length before each piece's answer."""

Piece = tuple[str, int, int, int]
"""(the list's key, start and end of the text of some of its consecutive items, their count)."""

_SOURCE = Path(__file__).resolve().parent.parent
_CODE = "import sys; sys.path.insert(0, sys.argv[1]); from catdoc.row_worker import main; main()"


class WholeParse(Exception):
    """The worker found a piece that does not parse alone: the file is parsed whole."""


class Worker:
    """A started worker; its pieces are `pieces[first:]` of those `start` was given. It writes
    each piece's answer to a file of its own and then the answer's length to its output (the
    answers could fill a pipe while this process is busy, and stop the worker)."""

    def __init__(
        self, process: subprocess.Popen[bytes], answers: BinaryIO, first: int, most: int
    ) -> None:
        self.first = first
        self._process = process
        self._answers = answers
        self._most = most

    def answers(self, counts: list[int]) -> Iterator[list[Row]]:
        """The rows of the worker's pieces, of `counts` items each, as each comes. It stops
        early when the worker fails or answers something else (the pieces it did not answer are
        then parsed here), and raises `WholeParse` when it found a piece that does not parse
        alone."""
        lengths = self._process.stdout
        assert lengths is not None
        for count in counts:
            try:
                head = lengths.read(_LENGTH)
                size = int.from_bytes(head, "little") if len(head) == _LENGTH else -1
                if not 0 < size <= self._most:
                    return
                data = self._answers.read(size)
                rows = marshal.loads(data) if len(data) == size else None
            except (OSError, ValueError, EOFError, TypeError):
                return
            if rows is False:
                raise WholeParse
            if not _are_rows(rows, count):
                return
            yield rows

    def stop(self) -> None:
        """Kills the worker if it is still running, and collects it."""
        if self._process.poll() is None:
            self._process.kill()
        with contextlib.suppress(OSError):
            if self._process.stdout is not None:
                self._process.stdout.close()
        self._answers.close()
        self._process.wait()


def _are_rows(rows: object, count: int) -> bool:
    """Whether `rows` are `count` rows as `kept_rows.rows` makes them."""
    return (
        type(rows) is list
        and len(rows) == count
        and all(
            type(row) is tuple
            and len(row) == 2
            and type(row[0]) is bytes
            and type(row[1]) is list
            and len(row[1]) == 3
            for row in rows
        )
    )


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
        return _started(payload, first)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def _started(payload: bytes, first: int) -> Worker:
    """A worker given `payload`, with its answers' file. Its work is a file, not a pipe: fed
    through a pipe by a thread of this busy process, it came hundreds of switch intervals late.
    Both files are unlinked at once (the worker and this process hold them open)."""
    with tempfile.TemporaryFile() as work:
        work.write(payload)
        work.seek(0)
        handle, name = tempfile.mkstemp(prefix="catdoc-rows-")
        try:
            try:
                answers = open(name, "rb")  # noqa: SIM115  # its own offset; closed by `stop`
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(name)  # before the worker starts
            try:
                process = subprocess.Popen(
                    [sys.executable, "-P", "-c", _CODE, str(_SOURCE), str(handle)],
                    stdin=work,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    pass_fds=(handle,),
                )
            except BaseException:
                answers.close()
                raise
        finally:
            os.close(handle)
    return Worker(process, answers, first, 16 * len(payload) + (1 << 20))


def texts(text: str, pieces: Iterable[Piece]) -> Iterator[tuple[str, str, int]]:
    """(key, text, count) of each piece, its text cut out only when it is reached."""
    for key, start, end, count in pieces:
        yield key, text[start:end], count


def _size(piece: Piece) -> int:
    return piece[2] - piece[1]


def main() -> None:
    """The worker: reads (rel, [(key, text, count), …]) and writes each piece's rows to the
    answers' file (its descriptor is the last argument) as it makes them, then their length to
    its output; False for the first piece that sends the file to a whole parse."""
    gc.disable()  # one-off: its trees are freed by their counts
    rel, work = marshal.loads(sys.stdin.buffer.read())
    lengths = sys.stdout.buffer
    with open(int(sys.argv[-1]), "wb") as answers:
        for key, text, count in work:
            rows = kept_rows.piece_rows(text, rel, key, count)
            data = marshal.dumps(False if rows is None else rows)
            answers.write(data)
            answers.flush()  # whole in the file before its length is told
            lengths.write(len(data).to_bytes(_LENGTH, "little"))
            lengths.flush()
            if rows is None:
                return
