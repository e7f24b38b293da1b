"""Terms of a text as the search index stores them: FTS5's `unicode61` tokens (diacritics
removed), each stemmed by FTS5's Porter stemmer.

SQLite is the reference: texts go through a scratch FTS5 table in memory and come back out of
its vocabulary. An ASCII text is split here instead (`unicode61` keeps runs of ASCII letters and
digits and folds their case: nothing else in ASCII is part of a token) and only words never seen
before go through SQLite, each once: a build's titles and headings are mostly made of the same
few thousand words, and the table costs about 40 µs a text where a dictionary look-up costs
nanoseconds. Other texts go through the table whole.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence

TOKENIZE = "porter unicode61 remove_diacritics 2"
WORDS_KEPT = 200_000
"""Stems of ASCII words remembered (forgotten all at once when full)."""
_ASCII_TOKEN = re.compile(r"[a-z0-9]+")


class Stemmer:
    """A scratch FTS5 table of its own (in memory) and the stems it gave. One thread at a
    time: the search index's users hold the engine's lock, a worker process has one thread."""

    def __init__(self) -> None:
        self._conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self._conn.execute(f"CREATE VIRTUAL TABLE stem_src USING fts5(x, tokenize='{TOKENIZE}')")
        self._conn.execute(
            "CREATE VIRTUAL TABLE stem_vocab USING fts5vocab('stem_src', 'instance')"
        )
        self._words: dict[str, list[str]] = {}

    def close(self) -> None:
        self._conn.close()

    def stem(self, texts: Sequence[str]) -> list[list[str]]:
        """Each text's terms, in order."""
        words = self._words
        if len(words) > WORDS_KEPT:
            words.clear()
        split: list[list[str] | None] = []
        asked: dict[str, None] = {}
        for text in texts:
            if text.isascii():
                tokens = _ASCII_TOKEN.findall(text.lower())
                split.append(tokens)
                asked.update((w, None) for w in tokens if w not in words)
            else:
                split.append(None)
                asked[text] = None
        whole: dict[str, list[str]] = {}
        if asked:
            found = dict(zip(asked, self._through_sqlite(list(asked)), strict=True))
            for text, terms in found.items():
                (words if text.isascii() else whole)[text] = terms
        return [
            whole[text] if tokens is None else [t for w in tokens for t in words[w]]
            for text, tokens in zip(texts, split, strict=True)
        ]

    def _through_sqlite(self, texts: Sequence[str]) -> list[list[str]]:
        out: list[list[str]] = [[] for _ in texts]
        rows = [(i, t) for i, t in enumerate(texts) if t]
        if not rows:
            return out
        conn = self._conn
        conn.execute("BEGIN")
        try:
            conn.executemany("INSERT INTO stem_src(rowid, x) VALUES (?, ?)", rows)
            for doc, term in conn.execute("SELECT doc, term FROM stem_vocab ORDER BY doc, offset"):
                out[doc].append(term)
            conn.execute("DELETE FROM stem_src")
        finally:
            conn.execute("COMMIT")
        return out
