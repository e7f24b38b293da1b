"""Synonym expansion from the WordNet table shipped as package data.

The table (`data/synonyms.tsv.gz`, built by `scripts/build_synonyms.py` from Princeton WordNet
3.0, licence in `data/WORDNET_LICENSE`) holds every lemma with its parts of speech, and for an
unambiguous one (a sense that dominates its uses) at most three synonyms of that sense. Nothing
is downloaded at run time. Inflected query words are reduced to a lemma with WordNet's own
detachment rules, each for the parts of speech it makes, and exception lists (the "morphy"
procedure).
"""

from __future__ import annotations

import bisect
import gzip
import itertools
import threading
from collections.abc import Callable
from functools import cache
from importlib import resources

from catdoc.search.query import STOPWORDS

MAX_PER_TERM = 3
"""Expansion terms per query word: enough to bridge vocabularies, few enough to keep precision."""

_RULES = (
    ("s", "", "nv"),
    ("es", "", "nv"),
    ("ies", "y", "nv"),
    ("men", "man", "n"),
    ("ing", "", "v"),
    ("ing", "e", "v"),
    ("ed", "", "v"),
    ("ed", "e", "v"),
    ("er", "", "a"),
    ("er", "e", "a"),
    ("est", "", "a"),
    ("est", "e", "a"),
)
"""WordNet's detachment rules (ending, replacement, the parts of speech the result must have:
`-er` makes an adjective's comparative, so `user` is no form of `us`, nor `buffer` of `buff`);
the shortest plural ending is tried first (`uses` is `use`, not `us`)."""
_PLURAL_ENDINGS = frozenset({"s", "es", "ies", "men"})
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


def _parts_of(word: str) -> str:
    """The parts of speech (`nvar` letters) of a WordNet lemma; '' when it is none."""
    found = _lookup(word)
    return found.rpartition("\t")[2] if found is not None and "\t" in found else ""


def _synonyms_of(lemma_: str) -> list[str]:
    found = _lookup(lemma_)
    listed = found.partition("\t")[0] if found else ""
    return listed.split("|") if listed else []


NOT_PLURALS = ("ss", "ics")
"""Endings of words that are not the plural of a singular (`class`, `physics`)."""


def lemma(word: str) -> str | None:
    """The WordNet lemma a word form belongs to, if the table knows it: the form the table says
    to read it as (an irregular form, or a plural whose own entry holds a rarer sense than its
    singular: see `scripts/build_synonyms.py`), the word itself, or what a detachment rule
    makes of it."""
    if not word[:1].isalnum() or "\t" in word or "\n" in word:
        return None  # no word: the table's own marks and separators
    read_as = _lookup("~" + word) or _lookup("=" + word)
    if read_as:
        return read_as
    if _lookup(word) is not None:
        return word
    if not word.endswith(NOT_PLURALS) and (singular := detached(word, _parts_of, plural=True)):
        return singular
    return detached(word, _parts_of, plural=False)


def detached(word: str, parts_of: Callable[[str], str], *, plural: bool) -> str | None:
    """The first lemma a detachment rule for a plural ending (or for any other) makes of
    `word` that has a part of speech the rule makes, by `parts_of` (`nvar` letters)."""
    for suffix, repl, parts in _RULES:
        if (suffix in _PLURAL_ENDINGS) != plural:
            continue
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            candidate = word[: len(word) - len(suffix)] + repl
            if any(part in parts for part in parts_of(candidate)):
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
