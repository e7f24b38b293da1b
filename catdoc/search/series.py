"""Versioned series: documents whose titles are the same but for a version number.

Release notes and changelogs come one per version ("Django 1.4 release notes", "0.7 Changelog",
"Sphinx 8.1"); each summarises changes all over the project, so it names almost every subject
in passing and outranks the page about it. A tree says which of its documents form such a series
through their titles alone: several titles equal once their version numbers (two or more numbers
joined by dots) are masked. Ranking gives these documents a lower prior (the `series` signal of
`ranking`), except when the query names the document's own version ("what changed in 2.1").

A project may instead keep one changelog, a section per version ("pytest 9.2.0 (2026-01-10)",
"Bug fixes" …): its headings say so (`changelog_versions`), and it gets the same prior unless
the query names one of its versions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

VERSION = re.compile(r"(?<![\d.])\d+(?:\.\d+)+")
"""A version number: digits joined by dots (`1.4`, `v5.1.3`), not part of a longer number."""
MIN_SERIES = 3
"""Titles sharing one pattern that make a series: two could be a page and its sequel."""
SHARE = 0.7
"""The share of its score a series member keeps (on the relevance sets, 0.5 to 0.75 give the
same MRR@10; 0.85 less)."""


def pattern_of(title: str) -> tuple[str, str] | None:
    """(the title with its version numbers masked, case folded; its first version number), or
    None when the title holds no version number. Members of one series share the pattern."""
    found = VERSION.search(title)
    return (VERSION.sub("#", title.casefold()), found.group()) if found else None


def named_versions(query: str) -> frozenset[str]:
    """The version numbers a query names (a series member with one of these is what it asks)."""
    return frozenset(VERSION.findall(query))


def prior(version: str | None, named: frozenset[str]) -> float:
    """The factor of a document's score: `SHARE` for a member of a series (its `version`) whose
    version the query does not name, else 1."""
    return SHARE if version is not None and version not in named else 1.0


SECTION_NUMBER = re.compile(r"\s*\d+(?:\.\d+)+\.?\s+[^\W\d]")
"""A numbered section's heading (`1.2.3 Pass a compiler name`), which is no version's."""
MIN_CHANGELOG = 5
"""Distinct headings with a version number that make a document a changelog."""


def changelog_versions(headings: Iterable[str]) -> frozenset[str] | None:
    """The version numbers of a changelog's sections, or None when the headings are not a
    changelog's: at least `MIN_CHANGELOG` distinct headings hold a version number (not as a
    section number), and they are at least half of all (its "Bug fixes" and "Features" repeat
    under every version)."""
    distinct = set(headings)
    versioned = [h for h in distinct if VERSION.search(h) and not SECTION_NUMBER.match(h)]
    if len(versioned) < MIN_CHANGELOG or 2 * len(versioned) < len(distinct):
        return None
    return frozenset(v for heading in versioned for v in VERSION.findall(heading))


def changelog_prior(versions: frozenset[str], named: frozenset[str]) -> float:
    """`SHARE` for a changelog (its sections' `versions`) unless the query names one of them,
    or a release they belong to (`9.2` names `9.2.0` and `9.2.1`)."""
    for version in named:
        if version in versions or any(v.startswith(version + ".") for v in versions):
            return 1.0
    return SHARE
