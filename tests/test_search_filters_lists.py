"""Search filters that take lists (OR within a filter, AND across filters), the source filter,
chunkRange, cardsOnly, clusterId, include_content and the card on every hit — through the core,
checked against a brute-force filter of the generated model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from filters_project import CATEGORIES, TAGS, URLS, Doc, make_docs, write_project
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catdoc import results as r
from catdoc.clusters import Clustering
from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.search.filters import make_filters
from catdoc.search.hit_details import HIT_CONTENT_CHARS
from catdoc.service import CatDoc

DOCS = make_docs()
BY_ID = {d.id: d for d in DOCS}
SOURCES = ["inline", "docs/alpha", "./docs/misc/", "docs", "docs/alp", *URLS, URLS[0] + "alpha"]


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> CatDoc:
    return CatDoc(write_project(tmp_path_factory.mktemp("filters") / "proj", DOCS))


def hits(svc: CatDoc, scope: str = "documents", query: str = "common", **raw: Any) -> set[Any]:
    response = svc.search(query, scope=scope, filters=make_filters(raw), limit=200)
    assert response.total == len(response.results)
    if response.scope == "chunks":
        return {(h.id, h.chunk_index) for h in response.results}
    return {h.id for h in response.results}


def refused(call: Any, *words: str) -> CatDocError:
    with pytest.raises(CatDocError) as err:
        call()
    assert err.value.code == VALIDATION_ERROR, err.value
    text = f"{err.value.message} {err.value.hint}"
    assert all(w in text for w in words), text
    return err.value


# ---------------------------------------------------------------------------- the oracle
def descendants(category: str) -> set[str]:
    found = {category}
    for child, parent in CATEGORIES.items():
        if parent == category:
            found |= descendants(child)
    return found


def from_source(doc: Doc, source: str) -> bool:
    if source == "inline":
        return doc.path is None
    if "://" in source:
        return doc.url is not None and doc.url.startswith(source)
    folder = source.removeprefix("./").strip("/")
    return doc.path is not None and (doc.path == folder or doc.path.startswith(folder + "/"))


def listed(value: str | list[str] | None) -> list[str] | None:
    return [value] if isinstance(value, str) else value


def passes(doc: Doc, raw: dict[str, Any], members: dict[str, set[str]]) -> bool:
    """What the filters mean, written out over the model (OR within, AND across)."""
    if cats := listed(raw.get("category")):
        wanted = set(cats)
        if raw.get("include_children"):
            wanted = set().union(*(descendants(c) for c in cats))
        if doc.category not in wanted:
            return False
    if (tags := listed(raw.get("tags"))) and not {t.lower() for t in tags} & set(doc.tags):
        return False
    if (types := listed(raw.get("file_type"))) and doc.file_type not in {
        t.lower().lstrip(".") for t in types
    }:
        return False
    if (sources := listed(raw.get("source"))) and not any(from_source(doc, s) for s in sources):
        return False
    return not (raw.get("cluster_id") and doc.id not in members[raw["cluster_id"]])


def one_or_list(values: list[str]) -> st.SearchStrategy[str | list[str] | None]:
    return (
        st.none()
        | st.sampled_from(values)
        | st.lists(st.sampled_from(values), min_size=1, max_size=3)
    )


FILTERS = st.fixed_dictionaries(
    {
        "category": one_or_list(list(CATEGORIES)),
        "include_children": st.booleans(),
        "tags": one_or_list([*TAGS, "Blue", "unused"]),
        "file_type": one_or_list(["md", "txt", ".TXT", "rst"]),
        "source": one_or_list(SOURCES),
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=FILTERS, cluster=st.integers(-1, 3))
def test_documents_match_a_brute_force_filter_of_the_model(
    svc: CatDoc, raw: dict[str, Any], cluster: int
) -> None:
    members = {c.id: set(c.members) for c in svc.clusters().clusters}
    if cluster >= 0:
        raw["cluster_id"] = sorted(members)[cluster]
    expected = {d.id for d in DOCS if passes(d, raw, members)}
    assert hits(svc, **raw) == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    raw=FILTERS,
    start=st.integers(0, 4),
    width=st.none() | st.integers(0, 3),
)
def test_passages_match_a_brute_force_filter_of_the_model(
    svc: CatDoc, raw: dict[str, Any], start: int, width: int | None
) -> None:
    end = None if width is None else start + width
    raw["chunk_range"] = {"start": start, "end": end}
    expected = {
        (d.id, n)
        for d in DOCS
        if passes(d, raw, {})
        for n in d.passages()
        if n >= start and (end is None or n <= end)
    }
    assert hits(svc, "chunks", **raw) == expected


# ---------------------------------------------------------------------------- list filters
def test_one_value_still_works_as_before(svc: CatDoc) -> None:
    """Single values, as JSON sent them before lists were accepted, mean a list of one."""
    for name, value in [("category", "alpha"), ("tags", "red"), ("file_type", "txt")]:
        assert hits(svc, **{name: value}) == hits(svc, **{name: [value]})
    assert hits(svc, category="alpha") == {d.id for d in DOCS if d.category == "alpha"}
    filters = r.SearchFilters.model_validate({"category": "Alpha", "fileType": ".md"})
    assert filters.category == ["Alpha"] and filters.file_type == [".md"]


def test_or_within_a_filter_and_across_filters(svc: CatDoc) -> None:
    red_or_blue = {d.id for d in DOCS if {"red", "blue"} & set(d.tags)}
    assert hits(svc, tags=["red", "BLUE"]) == red_or_blue
    assert hits(svc, tags=["red", "blue"]) == hits(svc, tags="red") | hits(svc, tags="blue")
    both = hits(svc, category=["alpha", "gamma"])
    assert both == {d.id for d in DOCS if d.category in ("alpha", "gamma")}
    assert hits(svc, category=["alpha", "gamma"], file_type="txt") == both & hits(
        svc, file_type="txt"
    )
    assert hits(svc, category="beta", include_children=True) == hits(
        svc, category=["beta", "gamma"]
    )


def test_unknown_category_in_a_list_is_not_found(svc: CatDoc) -> None:
    with pytest.raises(CatDocError) as err:
        hits(svc, category=["alpha", "alpah"])
    assert err.value.code == NOT_FOUND and "alpah" in err.value.message


# ---------------------------------------------------------------------------- source
def test_source_inline_folder_file_and_url(svc: CatDoc) -> None:
    inline = {d.id for d in DOCS if d.path is None}
    assert inline and hits(svc, source="inline") == inline
    assert hits(svc, source="INLINE") == inline
    alpha = {d.id for d in DOCS if d.path and d.path.startswith("docs/alpha/")}
    assert hits(svc, source="docs/alpha") == alpha == hits(svc, source="./docs/alpha/")
    assert hits(svc, source="docs/alp") == set()  # a folder, never a prefix of a name
    one = next(d for d in DOCS if d.path)
    assert hits(svc, source=one.path) == {one.id}
    wiki = {d.id for d in DOCS if d.url and d.url.startswith(URLS[0])}
    assert wiki and hits(svc, source=URLS[0]) == wiki
    assert hits(svc, source=["inline", URLS[0]]) == inline | wiki


# ---------------------------------------------------------------------------- chunkRange
def test_chunk_range_selects_passage_numbers_both_ends_included(svc: CatDoc) -> None:
    response = svc.search("common", filters=make_filters({"chunk_range": "1:2"}), limit=200)
    assert response.scope == "chunks"
    assert any("chunkRange" in note for note in response.notes)
    assert {h.chunk_index for h in response.results} == {1, 2}
    assert hits(svc, "chunks", chunk_range={"start": 0, "end": 0}) == {(d.id, 0) for d in DOCS}
    assert hits(svc, "chunks", chunk_range={"start": 3}) == {
        (d.id, n) for d in DOCS for n in d.passages() if n >= 3
    }
    assert hits(svc, "chunks", chunk_range={"start": 900_000}) == set()


def test_passage_hits_carry_their_number(svc: CatDoc) -> None:
    response = svc.search("common", scope="chunks", limit=200)
    assert {(h.id, h.chunk_index) for h in response.results} == {
        (d.id, n) for d in DOCS for n in d.passages()
    }


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ({"start": 3, "end": 1}, ["start 3 is after end 1"]),
        ({"start": -1}, ["--chunk-range (MCP: chunkRange) start", "greater than or equal to 0"]),
        ({"end": 10**30}, ["--chunk-range (MCP: chunkRange) end", "1000000"]),
        ({"start": True}, ["--chunk-range (MCP: chunkRange) start", "integer"]),
        ({"start": "2"}, ["--chunk-range (MCP: chunkRange) start", "integer"]),
        ({"start": 1.5}, ["--chunk-range (MCP: chunkRange) start", "integer"]),
        ({"first": 1}, ["--chunk-range (MCP: chunkRange) first", "not permitted"]),
        ("2:1", ["start 2 is after end 1"]),
        ("2-5", ["'2-5' is not START:END"]),
        (":", ["':' is not START:END"]),
        ("a:b", ["'a:b' is not START:END"]),
        ([1, 2], ["--chunk-range (MCP: chunkRange)"]),
    ],
)
def test_bad_chunk_ranges_are_validation_errors(value: object, words: list[str]) -> None:
    error = refused(lambda: make_filters({"chunk_range": value}), *words)
    assert "passage numbers" in error.hint or "START:END" in error.message


# ---------------------------------------------------------------------------- bad lists
@pytest.mark.parametrize("name", ["category", "tags", "file_type", "source"])
@pytest.mark.parametrize(
    ("value", "words"),
    [
        ([], ["an empty list would match nothing", "leave the filter out"]),
        (["red", "  "], ["holds an empty value"]),
        ("", ["holds an empty value"]),
        ([f"v{n}" for n in range(101)], ["101 values; at most 100"]),
        (5, ["must be a string or a list of strings"]),
        (["red", 5], ["must be a string or a list of strings"]),
        ({"red": True}, ["must be a string or a list of strings"]),
    ],
)
def test_bad_list_values_are_validation_errors(name: str, value: object, words: list[str]) -> None:
    refused(lambda: make_filters({name: value}), *words)


# ---------------------------------------------------------------------------- cards
def test_every_hit_carries_its_card(svc: CatDoc) -> None:
    for scope in ("documents", "chunks"):
        response = svc.search("common", scope=scope, limit=200)
        assert response.results
        for hit in response.results:
            assert hit.summary == BY_ID[hit.id].summary


def test_cards_only_searches_the_summaries_alone(svc: CatDoc) -> None:
    response = svc.search("common", filters=make_filters({"cards_only": True}), limit=200)
    expected = {d.id for d in DOCS if d.summary and "common" in d.summary}
    assert expected and {h.id for h in response.results} == expected
    assert response.total == len(expected)
    assert all(h.summary == BY_ID[h.id].summary for h in response.results)
    word = next(w for w in ("apple", "river", "stone") if any(w in d.text for d in DOCS))
    in_cards = {d.id for d in DOCS if d.summary and word in d.summary}
    assert hits(svc, query=word, cards_only=True) == in_cards
    assert hits(svc, query="opening", cards_only=True) == set()  # body words only
    assert hits(svc, query="common", cards_only=True, category="alpha") == {
        i for i in expected if BY_ID[i].category == "alpha"
    }
    text = svc.search("common", mode="text", filters=make_filters({"cards_only": True}))
    assert {h.id for h in text.results} <= expected


@pytest.mark.parametrize(
    ("scope", "mode", "extra", "clash"),
    [
        ("chunks", "hybrid", {}, "scope chunks"),
        ("documents", "hybrid", {"chunk_range": "0:1"}, "chunkRange"),
        ("documents", "hybrid", {"object": "alpha-00"}, "object"),
        ("documents", "vector", {}, "mode vector"),
    ],
)
def test_cards_only_refuses_passages_and_vectors(
    svc: CatDoc, scope: str, mode: str, extra: dict[str, Any], clash: str
) -> None:
    filters = make_filters({"cards_only": True, **extra})
    error = refused(lambda: svc.search("common", scope=scope, mode=mode, filters=filters), clash)
    assert "cardsOnly" in error.message


# ---------------------------------------------------------------------------- content
def test_content_is_the_passage_or_the_document(svc: CatDoc) -> None:
    plain = svc.search("common", scope="chunks", limit=5)
    assert all(h.content is None for h in plain.results)
    passages = svc.search("common", scope="chunks", limit=200, include_content=True)
    for hit in passages.results:
        assert hit.content and "common" in hit.content.lower()
        assert hit.content_length == len(hit.content) and not hit.truncated
    documents = svc.search("common", limit=200, include_content=True)
    for hit in documents.results:
        assert hit.content is not None and hit.content.strip() == BY_ID[hit.id].text.strip()
        assert not hit.truncated


def test_long_documents_are_cut_with_a_flag(tmp_path: Path) -> None:
    docs = make_docs(3)
    docs[0].text += "\n\nLong tail words. " * (HIT_CONTENT_CHARS // 10)
    svc = CatDoc(write_project(tmp_path / "proj", docs))
    response = svc.search("tail", include_content=True)
    (hit,) = response.results
    assert hit.truncated and len(hit.content or "") == HIT_CONTENT_CHARS
    assert hit.content_length is not None and hit.content_length > HIT_CONTENT_CHARS


# ---------------------------------------------------------------------------- clusters
def test_cluster_filter_and_cluster_info(svc: CatDoc) -> None:
    clusters = svc.clusters().clusters
    assert clusters
    first = clusters[0]
    assert hits(svc, cluster_id=first.id) == set(first.members)
    assert hits(svc, cluster_id=first.id, tags="unused") == set()
    with pytest.raises(CatDocError) as err:
        hits(svc, cluster_id="cl-nothing")
    assert err.value.code == NOT_FOUND
    response = svc.search("common", limit=200, include_clusters=True)
    of = svc.cluster_of()
    for hit in response.results:
        assert hit.cluster_id == of.get(hit.id)
        assert hit.cluster_name == (svc.cluster(hit.cluster_id).name if hit.cluster_id else None)
    assert any(h.cluster_id for h in response.results)
    assert all(h.cluster_id is None for h in svc.search("common", limit=200).results)


def test_hits_are_decorated_from_one_clustering(
    svc: CatDoc, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clustering may change while a search decorates its hits (a background worker stores
    document vectors, which the clustering reads): the hits' cluster ids and names come from
    one clustering. Asked apart, an id of the first named no cluster of the second (NOT_FOUND)."""
    first = svc._clustering()
    later = Clustering([], first.documents, first.links)  # what a recomputation may give
    answers = iter([first, later, later, later])
    monkeypatch.setattr(svc, "_clustering", lambda: next(answers))
    response = svc.search("common", limit=200, include_clusters=True)
    assert any(h.cluster_id for h in response.results)
    for hit in response.results:
        assert hit.cluster_id == first.of.get(hit.id)
        assert hit.cluster_name == (first.by_id[hit.cluster_id].name if hit.cluster_id else None)
