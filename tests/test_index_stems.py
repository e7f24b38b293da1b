"""The index stems a heading path as its headings one after the other, so a build stems each
distinct heading once instead of every path that repeats it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.search.index import HEADING_SEPARATOR, ChunkRecord, DocRecord, SearchIndex, _stems_of

words = st.text(
    alphabet=st.sampled_from(list("abcXYZ éüß-_'.:›/ 0123456789ŒΩя中")), min_size=0, max_size=20
)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    return SearchIndex(tmp_path_factory.mktemp("stems") / "index.sqlite")


@settings(max_examples=60, deadline=None)
@given(parts=st.lists(words, min_size=1, max_size=4))
def test_a_heading_path_stems_as_its_headings_in_turn(index: SearchIndex, parts: list[str]) -> None:
    whole, *each = index.stem([HEADING_SEPARATOR.join(parts), *parts])
    assert whole == [term for terms in each for term in terms]


def _record(ident: str, title: str, headings: list[list[str]]) -> DocRecord:
    chunks = [ChunkRecord(n, heading, None, None, "text") for n, heading in enumerate(headings)]
    return DocRecord(
        id=ident,
        fields_hash="",
        file_sig="",
        content_hash="",
        title=title,
        category=None,
        domain=None,
        path=None,
        url=None,
        author=None,
        file_type=None,
        date=None,
        summary=None,
        tags=[],
        concepts=["Query sets"],
        body="text",
        chunks=chunks,
    )


def test_the_stems_of_a_batch_are_those_of_each_text_alone(index: SearchIndex) -> None:
    records = [
        _record("a", "Running queries", [["Running queries"], ["Running queries", "Caching"]]),
        _record("b", "Caching", [["Caching", "Running queries", "Notes"], []]),
    ]
    stems = _stems_of(records, index.stemmer)
    for text in ["Running queries", "Caching", "Query sets"]:
        assert stems[text] == index.stem([text])[0]
    for record in records:
        for chunk in record.chunks:
            path = HEADING_SEPARATOR.join(chunk.heading)
            assert stems[path] == index.stem([path])[0]
