"""Concepts through the service, on the traceability example: tags, keywords and key phrases
with weights and passages; categories with their subcategories; incremental updates (an edited
document's concepts change and nothing else is recomputed; a removed one's links go); errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.service import CatDoc


@pytest.fixture
def svc(example_copy: Path) -> CatDoc:
    return CatDoc(example_copy)


def test_a_documents_concepts_are_its_tags_then_key_phrases(svc: CatDoc) -> None:
    found = svc.extract_concepts("req-cart")
    assert found.title == "Shopping cart" and found.category == "requirements"
    tags = [c for c in found.concepts if c.source == "tag"]
    assert {c.label for c in tags} == {"cart", "customer"} and all(c.weight == 1 for c in tags)
    phrases = [c for c in found.concepts if c.source == "phrase"]
    assert 3 <= len(phrases) <= 10 and all(0 < c.weight <= 1 for c in phrases)
    weights = [c.weight for c in found.concepts]
    assert weights == sorted(weights, reverse=True)
    assert all(c.key == c.key.casefold() for c in found.concepts)
    assert any(c.passages for c in phrases)
    assert found.model_dump() == svc.extract_concepts("req-cart").model_dump()


def test_concepts_are_named_by_any_surface_form(svc: CatDoc) -> None:
    label = next(c.label for c in svc.extract_concepts("req-cart").concepts if " " in c.label)
    for form in (label, label.upper(), f"  {label.title()}  "):
        page = svc.concept_search(form, limit=5)
        assert page.concept.label == label and page.total >= 1
        assert any(hit.id == "req-cart" for hit in page.items)
    assert (
        svc.concept_search("Security").concept.key == svc.concept_search("securities").concept.key
    )


def test_unknown_concepts_and_bad_arguments(svc: CatDoc) -> None:
    with pytest.raises(CatDocError) as err:
        svc.concept_search("securty")
    assert err.value.code == NOT_FOUND and "security" in err.value.suggestions
    with pytest.raises(CatDocError) as err:
        svc.source_concepts(["cart", "no such concept anywhere"])
    assert err.value.code == NOT_FOUND
    for call in (
        lambda: svc.list_concepts(sort="popularity"),
        lambda: svc.list_concepts(limit=0),
        lambda: svc.concept_search(" "),
        lambda: svc.source_concepts([]),
    ):
        with pytest.raises(CatDocError) as err:
            call()
        assert err.value.code == VALIDATION_ERROR and err.value.hint
    with pytest.raises(CatDocError) as err:
        svc.extract_concepts("nope")
    assert err.value.code == NOT_FOUND


def test_lists_sort_page_and_count_by_category(svc: CatDoc) -> None:
    everything = svc.list_concepts(limit=200)
    weights = [c.weight for c in everything.items]
    assert weights == sorted(weights, reverse=True) and everything.total > len(everything.items)
    by_name = svc.list_concepts(sort="name", limit=200).items
    assert [c.label.casefold() for c in by_name] == sorted(c.label.casefold() for c in by_name)
    by_docs = svc.list_concepts(sort="documentCount", limit=200).items
    assert [c.document_count for c in by_docs] == sorted(
        (c.document_count for c in by_docs), reverse=True
    )
    second = svc.list_concepts(limit=5, offset=5)
    assert second.items == everything.items[5:10]
    counts = svc.concept_counts()
    for category in ("requirements", "tests"):
        page = svc.list_concepts(category=category, limit=1)
        assert page.total == counts[category] > 0 and page.category == category
    beyond = svc.list_concepts(offset=10_000)
    assert beyond.items == [] and beyond.message


def test_sources_union_and_per_concept(svc: CatDoc) -> None:
    union = svc.source_concepts(["checkout", "payment"], limit=200)
    per = svc.concept_sources(["checkout", "payment"], limit=200)
    ids = [{s.id for s in page.items} for page in per.concepts]
    assert {s.id for s in union.items} == ids[0] | ids[1] and union.total == len(union.items)
    both = [s for s in union.items if len(s.concepts) == 2]
    assert union.items[: len(both)] == both
    assert {s.id for s in both} == ids[0] & ids[1]
    documents = svc.document_concepts()
    for source in union.items:
        assert set(source.concepts) <= set(documents[source.id])


def test_editing_a_document_recomputes_only_it(svc: CatDoc) -> None:
    before = {k: dict(v) for k, v in svc.document_concepts().items()}
    path = svc.root / "docs" / "requirements" / "cart.md"
    path.write_text(
        path.read_text(encoding="utf-8")
        + "\n\n## Gift wrapping\n\nGift wrapping paper is chosen per line. Gift wrapping paper, "
        "however, costs extra.\n",
        encoding="utf-8",
    )
    engine = svc.search_engine()
    stats = engine.sync(svc.project(), force=True)
    assert stats.indexed == 1
    after = svc.document_concepts()
    assert "gift wrap paper" in after["req-cart"]
    assert after["req-cart"] != before["req-cart"]
    assert {k: v for k, v in after.items() if k != "req-cart"} == {
        k: v for k, v in before.items() if k != "req-cart"
    }
    hits = svc.concept_search("gift wrapping paper").items
    assert [(h.id, h.heading_path[-1], h.occurrences) for h in hits] == [
        ("req-cart", "Gift wrapping", 2)
    ]


def test_keywords_count_and_removal_drops_links(svc: CatDoc) -> None:
    path = svc.root / "docs" / "requirements" / "cart.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("tags: [cart, customer]", "keywords: Basket Rules"), "utf-8")
    found = {c.label: c for c in svc.extract_concepts("req-cart").concepts}
    assert found["Basket Rules"].source == "keyword" and found["Basket Rules"].weight == 1
    assert svc.concept_sources(["basket rule"]).concepts[0].total == 1
    svc.remove_object("req-cart", cascade=True)
    assert "req-cart" not in svc.document_concepts()
    with pytest.raises(CatDocError) as err:
        svc.concept_sources(["basket rules"])
    assert err.value.code == NOT_FOUND
    assert all(hit.id != "req-cart" for hit in svc.concept_search("cart", limit=200).items)


def test_the_word_runs_of_concept_keys_are_remembered_within_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A large build meets more keys than it may remember; every answer stays the same."""
    from catdoc.search import concept_store, keyphrases

    monkeypatch.setattr(concept_store, "GRAMS_KEPT", 3)
    concept_store.clear_caches()
    keys = [f"word{n} other{n} third{n}" for n in range(10)]
    for key in keys * 2:
        assert concept_store._grams_of(key) == keyphrases.grams(key)
        assert len(concept_store._grams) <= 3
    concept_store.clear_caches()


def test_a_document_without_concepts_says_why(svc: CatDoc) -> None:
    svc.upsert_object("requirements", "req-blank", {"title": "Blank"})
    found = svc.extract_concepts("req-blank")
    assert found.concepts == []
    assert found.message == (
        "This document has no concepts: it has no tags and no keywords, and no key phrases were "
        "found in its text (is its file empty or missing?)."
    )
