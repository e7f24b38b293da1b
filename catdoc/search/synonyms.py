"""Synonym expansion from the WordNet table shipped as package data.

The table (`data/synonyms.json.gz`, built by `scripts/build_synonyms.py` from Princeton WordNet
3.0, licence in `data/WORDNET_LICENSE`) maps a lemma to at most three synonyms of its most
frequent senses. Nothing is downloaded at run time. Inflected query words are reduced to a lemma
with WordNet's own detachment rules and exception lists (the "morphy" procedure).
"""

from __future__ import annotations

import gzip
import json
import threading
from functools import cache
from importlib import resources

from catdoc.search.query import STOPWORDS

MAX_PER_TERM = 3
"""Expansion terms per query word: enough to bridge vocabularies, few enough to keep precision."""

_SUFFIXES = (
    ("ies", "y"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("sses", "ss"),
    ("xes", "x"),
    ("ses", "s"),
    ("zes", "z"),
    ("men", "man"),
    ("s", ""),
    ("ing", ""),
    ("ing", "e"),
    ("ed", ""),
    ("ed", "e"),
    ("er", ""),
    ("est", ""),
)
_lock = threading.Lock()


@cache
def _table() -> tuple[dict[str, list[str]], dict[str, str]]:
    with _lock:
        raw = resources.files("catdoc.search").joinpath("data/synonyms.json.gz").read_bytes()
        data = json.loads(gzip.decompress(raw))
        return data["synonyms"], data["exceptions"]


def lemma(word: str) -> str | None:
    """The WordNet lemma a word form belongs to, if the table knows it."""
    table, exceptions = _table()
    if word in table:
        return word
    base = exceptions.get(word)
    if base:
        return base
    for suffix, repl in _SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            candidate = word[: len(word) - len(suffix)] + repl
            if candidate in table:
                return candidate
    return None


def synonyms(word: str) -> list[str]:
    """Close synonyms of one word (lower case; multi-word synonyms contain spaces)."""
    if word in STOPWORDS or len(word) < 3 or word.isdigit():
        return []
    base = lemma(word)
    if base is None:
        return []
    irregular = [base] if word in _table()[1] else []
    return [*irregular, *(s for s in _table()[0][base] if s != word)][:MAX_PER_TERM]


def expand(words: tuple[str, ...]) -> dict[str, list[str]]:
    """word → its expansion terms; words without any are left out. Bigrams are looked up too
    ("log in" → "log on"), and no expansion repeats an original word."""
    originals = set(words)
    out: dict[str, list[str]] = {}
    for first, second in zip(words, words[1:], strict=False):
        pair = f"{first} {second}"
        if pair in _table()[0]:
            out[pair] = [s for s in _table()[0][pair] if s not in originals][:MAX_PER_TERM]
    for word in words:
        found = [s for s in synonyms(word) if s not in originals]
        if found:
            out[word] = found
    return {k: v for k, v in out.items() if v}
