"""Synonym expansion from the WordNet table shipped as package data.

The table (`data/synonyms.tsv.gz`, built by `scripts/build_synonyms.py` from Princeton WordNet
3.0, licence in `data/WORDNET_LICENSE`) maps a lemma to at most three synonyms of its most
frequent senses. Nothing is downloaded at run time. Inflected query words are reduced to a lemma
with WordNet's own detachment rules and exception lists (the "morphy" procedure).
"""

from __future__ import annotations

import bisect
import gzip
import itertools
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
LIGHT_VERBS = frozenset(
    {
        "become",
        "bring",
        "carry",
        "come",
        "deal",
        "die",
        "fail",
        "fall",
        "feel",
        "find",
        "get",
        "give",
        "go",
        "hold",
        "keep",
        "like",
        "look",
        "make",
        "mean",
        "meet",
        "move",
        "need",
        "occur",
        "pass",
        "put",
        "reach",
        "run",
        "see",
        "seem",
        "set",
        "stand",
        "take",
        "think",
        "turn",
        "use",
        "want",
    }
)
"""Very common verbs whose WordNet senses scatter (`fail` → neglect, miscarry; `run` → lam):
they are neither expanded nor used as expansions (`build` → make, `occur` → take place), since
their synonyms match far more unrelated text than related text."""
_lock = threading.Lock()


@cache
def _lines() -> list[str]:
    """The sorted lines of the table; looked up by binary search, never parsed whole."""
    with _lock:
        raw = resources.files("catdoc.search").joinpath("data/synonyms.tsv.gz").read_bytes()
        return gzip.decompress(raw).decode("utf-8").splitlines()


def _lookup(key: str) -> str | None:
    lines = _lines()
    probe = key + "\t"
    i = bisect.bisect_left(lines, probe)
    if i < len(lines) and lines[i].startswith(probe):
        return lines[i][len(probe) :]
    return None


def _synonyms_of(lemma_: str) -> list[str]:
    found = _lookup(lemma_)
    return found.split("|") if found else []


_PLURALS = frozenset({"ies", "ches", "shes", "sses", "xes", "ses", "zes", "men", "s"})
_OTHER_ENDINGS = frozenset(suffix for suffix, _ in _SUFFIXES) - _PLURALS
_NOT_PLURALS = ("ss", "ics")
"""Endings of words that are not the plural of a singular (`class`, `physics`)."""


def lemma(word: str) -> str | None:
    """The WordNet lemma a word form belongs to, if the table knows it. A plural is read as the
    plural of its singular when the table knows that: WordNet's own entries for plurals hold
    their rarer senses (`minutes` → transactions, `fields` → the comedian, `sessions` → the
    composer)."""
    own = _lookup(word) is not None
    irregular = None if own else _lookup("~" + word)
    if irregular:
        return irregular
    plural = not word.endswith(_NOT_PLURALS)
    if plural and (singular := _detached(word, _PLURALS)):
        return singular
    if own:
        return word
    return _detached(word, _OTHER_ENDINGS)  # the plural endings were tried above


def _detached(word: str, endings: frozenset[str]) -> str | None:
    """The first lemma the table knows that a detachment rule for one of `endings` gives."""
    for suffix, repl in _SUFFIXES:
        if suffix in endings and word.endswith(suffix) and len(word) > len(suffix) + 1:
            candidate = word[: len(word) - len(suffix)] + repl
            if _lookup(candidate) is not None:
                return candidate
    return None


def synonyms(word: str) -> list[str]:
    """Close synonyms of one word (lower case; multi-word synonyms contain spaces)."""
    if word in STOPWORDS or len(word) < 3 or word.isdigit():
        return []
    base = lemma(word)
    if base is None:
        return []
    if base in LIGHT_VERBS:
        return []
    irregular = [base] if base != word and _lookup("~" + word) else []
    found = [s for s in _synonyms_of(base) if s != word and _specific(s)]
    return [*irregular, *found][:MAX_PER_TERM]


def _specific(term: str) -> bool:
    """Whether an expansion says something on its own: no light verb, not only stop words."""
    words = term.split()
    return not any(w in LIGHT_VERBS for w in words) and not all(w in STOPWORDS for w in words)


def expand(words: tuple[str, ...]) -> dict[str, list[str]]:
    """word → its expansion terms; words without any are left out. Bigrams are looked up too
    ("log in" → "log on"), and no expansion repeats an original word."""
    originals = set(words)
    out: dict[str, list[str]] = {}
    for first, second in itertools.pairwise(words):
        pair = f"{first} {second}"
        found = [s for s in _synonyms_of(pair) if s not in originals and _specific(s)]
        out[pair] = found[:MAX_PER_TERM]
    for word in words:
        found = [s for s in synonyms(word) if s not in originals]
        if found:
            out[word] = found
    return {k: v for k, v in out.items() if v}
