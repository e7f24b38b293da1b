"""Document lengths in tokens, read from what FTS5 already stores for BM25.

FTS5 keeps each row's token count per column (the `_docsize` table) and the totals over all rows
(the averages record, row 1 of the `_data` table), both as SQLite varints: reading them costs a
look-up per row, where measuring the text would read it whole.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

AVERAGES_ROW = 1
"""The `_data` row holding FTS5's averages record: the row count, then each column's total."""


def varints(blob: bytes) -> list[int]:
    """The SQLite varints of `blob` in order (big-endian groups of 7 bits, the 9th byte whole;
    an unfinished last one is left out)."""
    out: list[int] = []
    value = count = 0
    for byte in blob:
        if count == 8:
            out.append((value << 8) | byte)
            value = count = 0
            continue
        value = (value << 7) | (byte & 0x7F)
        count += 1
        if byte < 0x80:
            out.append(value)
            value = count = 0
    return out


def lengths(conn: sqlite3.Connection, table: str, rowids: Sequence[int]) -> dict[int, int]:
    """rowid → its tokens over every column of the FTS5 `table` (rows FTS5 lacks are left out)."""
    out: dict[int, int] = {}
    for start in range(0, len(rowids), 500):
        part = rowids[start : start + 500]
        rows = conn.execute(
            f"SELECT id, sz FROM {table}_docsize WHERE id IN ({', '.join('?' * len(part))})", part
        )
        out.update((rowid, sum(varints(size))) for rowid, size in rows)
    return out


def average_length(conn: sqlite3.Connection, table: str) -> float:
    """The mean tokens per row of the FTS5 `table` over every column (0 when it is empty)."""
    row = conn.execute(f"SELECT block FROM {table}_data WHERE id = ?", (AVERAGES_ROW,)).fetchone()
    numbers = varints(row[0]) if row and row[0] else []
    return sum(numbers[1:]) / numbers[0] if numbers and numbers[0] else 0.0
