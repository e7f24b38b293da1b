"""Turning user text into terms and safe FTS5 expressions.

User text never reaches the FTS5 query language as written: it is split into word tokens the way
the index's `unicode61` tokenizer splits text (letters and digits; everything else separates), and
every token or phrase is emitted as a double-quoted FTS5 string. So `C++`, `"`, `-x`, `AND`, `:`,
`*`, `NEAR(` and `^` are plain text, never operators.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"[^\W_]+")
_PHRASE = re.compile(r'"([^"]*)"')
_WORDS = re.compile(r"[\s'’]+")
"""What separates written words (an apostrophe too: `isn't` is no compound)."""

STOPWORDS = frozenset(
    {
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        # what contractions leave behind once the tokenizer splits at the apostrophe
        "s",
        "t",
        "d",
        "ll",
        "m",
        "re",
        "ve",
        "don",
        "doesn",
        "didn",
        "isn",
        "aren",
        "wasn",
        "weren",
        "hasn",
        "haven",
        "hadn",
        "wouldn",
        "shouldn",
        "couldn",
        "mustn",
        "cannot",
        # words that frame a question rather than say what it is about
        "also",
        "else",
        "ever",
        "happen",
        "happened",
        "happening",
        "happens",
        "may",
        "might",
        "must",
        "please",
        "shall",
        "whether",
        "whose",
    }
)
"""English function words (the common NLTK list), contraction leftovers and question framing
(`what happens when …`): left out of a query's terms unless nothing else is left, so ranking
rests on the words that say what the query is about. Quoted phrases keep every word."""


def tokens(text: str) -> list[str]:
    """Word tokens in lower case, in order (the index's tokenizer splits the same way)."""
    return [t.casefold() for t in _TOKEN.findall(text)]


def fts_string(words: list[str] | tuple[str, ...]) -> str:
    """One FTS5 string (a phrase when several words); tokens hold no quotes, but escape anyway."""
    return '"' + " ".join(words).replace('"', '""') + '"'


def any_of(items: list[str]) -> str:
    """An FTS5 OR over already-quoted strings ('' when there is nothing to match)."""
    return " OR ".join(items)


@dataclass(frozen=True)
class ParsedQuery:
    """The searchable content of a query: terms (stop words dropped unless nothing else is left)
    and quoted phrases, which must match as a phrase."""

    text: str
    terms: tuple[str, ...]
    phrases: tuple[tuple[str, ...], ...] = ()
    compounds: tuple[tuple[str, ...], ...] = ()
    """Words written joined by punctuation (`5.1`, `is_secure()`, `manage.py`): their tokens are
    terms, and their sequence counts as an optional phrase, so `Django 5.1` prefers `5.1` to
    `1.5`."""

    @property
    def words(self) -> tuple[str, ...]:
        """Terms plus the words of the phrases: what title and concept matching look for."""
        return tuple(dict.fromkeys([*self.terms, *(w for p in self.phrases for w in p)]))

    @property
    def empty(self) -> bool:
        return not self.terms and not self.phrases

    def _strings(self) -> list[str]:
        return [fts_string([t]) for t in self.terms] + [fts_string(p) for p in self.phrases]

    def fts(self) -> str:
        """OR of the terms and phrases: documents matching more of them score higher in BM25."""
        return any_of(self._strings())

    def fts_all(self) -> str:
        """AND of the terms and phrases ('' when there is only one: then it equals `fts`)."""
        strings = self._strings()
        return " AND ".join(strings) if len(strings) > 1 else ""


def parse(text: str) -> ParsedQuery:
    """Split a query into terms and `"quoted phrases"` (an unbalanced quote is just text)."""
    phrases: list[tuple[str, ...]] = []
    rest = text
    if text.count('"') >= 2:
        for match in _PHRASE.finditer(text):
            words = tuple(tokens(match.group(1)))
            if len(words) > 1:
                phrases.append(words)
        rest = _PHRASE.sub(lambda m: " " if len(tokens(m.group(1))) > 1 else m.group(1), text)
    words = tokens(rest)
    content = [w for w in words if w not in STOPWORDS] or words
    compounds = [tuple(part) for part in map(tokens, _WORDS.split(rest)) if len(part) > 1]
    return ParsedQuery(
        text=text,
        terms=tuple(dict.fromkeys(content)),
        phrases=tuple(dict.fromkeys(phrases)),
        compounds=tuple(dict.fromkeys(c for c in compounds if c not in phrases)),
    )
