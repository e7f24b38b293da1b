"""The line reader of reviews.yaml (`catdoc.review_lines`) against the YAML reader: whatever it
accepts, it reads exactly as YAML does; what it cannot be sure of, it leaves to YAML."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catdoc import review_lines
from catdoc.errors import CatDocError
from catdoc.reviews import Stamp, _validate, new_text, parse_reviews, signature, stamp_line

ORDINARY_ID = st.from_regex(r"[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,5}){0,2}", fullmatch=True)
ORDINARY_PRINT = st.from_regex(r"[0-9a-f]{16}", fullmatch=True) | st.sampled_from(
    ["missing", "no-text", "unreadable"]
)
TRICKY = st.sampled_from(
    [
        "yes",
        "No",
        "null",
        "y",
        "on",
        "TRUE",
        "2026-11-23",
        "2026-1-5",
        "2026-11-23 09:08:16",
        "2026-11-23T09:08:16Z",
        "1e5",
        "0x10",
        "a b",
        "a: b",
        "a, b",
        'say "hi"',
        "back\\slash",
        "#tag",
        "é-ü",
        "a:b",
        "-dash",
        "",
        "x" * 65,
    ]
)
ORDINARY_WHO = st.sampled_from(
    ["Ada Lovelace", "ada@example.com", "2026-11-23T09:08:16Z", "2026-11-23", "yes", "Grace, H."]
)
ANY_TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\r"), max_size=12)
IDS = ORDINARY_ID | TRICKY | ANY_TEXT
PRINTS = ORDINARY_PRINT | TRICKY | ANY_TEXT.map(lambda s: s[:64])
WHO = st.none() | ORDINARY_ID | TRICKY | ANY_TEXT


def stamps_of(
    ids: st.SearchStrategy[str], prints: st.SearchStrategy[str], who: st.SearchStrategy = WHO
) -> st.SearchStrategy:
    ends = st.dictionaries(ids, prints, max_size=3)
    stamp = st.builds(Stamp, ends, ends, who, who)
    return st.dictionaries(ids.map(lambda s: f"morphism:{s}") | ids, stamp, max_size=6)


def assert_agrees(text: str) -> None:
    """The line reader answers None, or exactly what the YAML reader answers."""
    lines = review_lines.read(text)
    try:
        expected = _validate(text)
    except CatDocError:
        assert lines is None, "the line reader accepted a file YAML refuses"
        return
    if lines is None:
        return
    assert lines.lines.keys() == expected.keys()
    for key, stamp in expected.items():
        assert Stamp(*review_lines.stamp_fields(lines.lines[key])) == stamp
        assert lines.signatures[key] == signature(stamp.source, stamp.target)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stamps_of(IDS, PRINTS))
def test_any_file_catdoc_writes_reads_as_yaml_reads_it(stamps: dict[str, Stamp]) -> None:
    assert_agrees(new_text(stamps))


@settings(max_examples=60, deadline=None)
@given(stamps_of(ORDINARY_ID, ORDINARY_PRINT, st.none() | ORDINARY_ID | ORDINARY_WHO))
def test_ordinary_files_take_the_line_reader(stamps: dict[str, Stamp]) -> None:
    text = new_text(stamps)
    lines = review_lines.read(text)
    assert lines is not None
    assert_agrees(text)
    book = parse_reviews(text)
    assert book.lines == lines.lines and book.stamps == _validate(text)


MUTATIONS = st.sampled_from(
    [
        lambda t, i: t[:i] + t[i + 1 :],  # drop a character
        lambda t, i: t[:i] + " " + t[i:],
        lambda t, i: t[:i] + '"' + t[i:],
        lambda t, i: t[:i] + ", " + t[i:],
        lambda t, i: t[:i] + ": " + t[i:],
        lambda t, i: t[:i] + "#" + t[i:],
        lambda t, i: t[:i] + "\n" + t[i:],
        lambda t, i: t[:i] + "\n  " + t[i:],
        lambda t, i: t[:i] + "\t" + t[i:],
        lambda t, i: t[:i] + "{" + t[i:],
        lambda t, i: t[:i] + "yes" + t[i:],
        lambda t, i: t + t[t.index("stamps:") :],  # the stamps again
        lambda t, i: t + t[i:],
        lambda t, i: t.replace("version: 1", "version: 2"),
        lambda t, i: t.replace("stamps:\n", "stamps: {}\n"),
        lambda t, i: t.replace("\n  ", "\n   ", 1),
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stamps_of(ORDINARY_ID | TRICKY, ORDINARY_PRINT), MUTATIONS, st.integers(min_value=0))
def test_hand_edits_read_as_yaml_reads_them_or_go_to_yaml(
    stamps: dict[str, Stamp], mutate, at: int
) -> None:
    text = new_text(stamps)
    assert_agrees(mutate(text, at % (len(text) + 1)))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# only a comment\n",
        "version: 1\n",
        "version: 1\nstamps:\n",
        "version: 1\nstamps: {}\n",
        "version: 1\nstamps: {}\n  a: {source: {}, target: {}}\n",
        "stamps:\n  a: {source: {}, target: {}}\nversion: 1\n",
        "version: 1\nversion: 1\nstamps:\n",
        "stamps:\n  a: {source: {x: ab}, target: {}}\n  a: {source: {}, target: {}}\n",
        "stamps:\n  a: {source: {x: ab, x: cd}, target: {}}\n",
        "stamps:\n  a: {source: {x: ab}, target: {}}  # reviewed by hand\n",
        "stamps:\n  # a comment between stamps\n  a: {source: {x: ab}, target: {}}\n",
        'stamps:\n  a: {source: {x: ab}, target: {}, at: "2026-11-23 09:08:16"}\n',
        'stamps:\n  a: {source: {x: "2026-11-23"}, target: {}}\n',
        "stamps:\n  a: {source: {x: null}, target: {}}\n",
        "stamps:\n  a:\n    source: {x: ab}\n    target: {}\n",
        "\ufeffstamps:\n  a: {source: {x: ab}, target: {}}\n",
        "stamps:\n  a: {source: {x: ab}, target: {}}\r\n",
    ],
)
def test_edge_files(text: str) -> None:
    assert_agrees(text)


def test_the_date_a_yaml_reader_sees_is_the_date_written() -> None:
    line = stamp_line("a", Stamp({"x": "ab"}, {}, None, "2026-11-23T09:08:16Z"))
    text = f"stamps:\n{line}".replace('"2026-11-23T09:08:16Z"', '"2026-11-23 09:08:16"')
    lines = review_lines.read(text)
    assert lines is not None
    assert review_lines.stamp_fields(lines.lines["a"])[3] == "2026-11-23T09:08:16"
    assert_agrees(text)
