"""The service's concept operations: the concepts of a category, of a document, the passages
about a concept and the documents holding some concepts.

Concepts are computed when documents are indexed (`catdoc.search.concept_store`); every call
brings the index up to date first (cheap when nothing changed). What is read across all
documents (every document's concepts, per-category totals, labels) is read in one pass and kept
until the index changes, so warm answers are dictionary look-ups.

A category's concepts are those of its documents and of every category below it, like a
category filter of the search with its children: a parent category is about what its
subcategories hold.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from catdoc import results as r
from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError, closest, quoted
from catdoc.paging import check_page
from catdoc.service_base import ServiceBase

if TYPE_CHECKING:
    from catdoc.search.engine import SyncStats
    from catdoc.search.index import SearchIndex

CONCEPT_SORTS = ("weight", "name", "documentCount")
"""`weight`: the sum of the concept's weights over the documents, most first; `name`: by label;
`documentCount`: the documents holding it, most first."""
MAX_CONCEPTS = 20
"""Concepts one call may ask about."""
LIST_HINT = "See the concepts with catdoc_list_concepts / `catdoc concepts list`."


@dataclass
class _Tables:
    """Everything read in one pass over the concepts of every document."""

    by_document: dict[str, dict[str, float]] = field(default_factory=dict)
    by_category: dict[str | None, dict[str, list[float]]] = field(default_factory=dict)
    """category → concept key → [weight sum, documents]."""
    labels: dict[str, tuple[str, int]] = field(default_factory=dict)
    sorted_lists: dict[tuple[Any, ...], list[r.ConceptSummary]] = field(default_factory=dict)
    counts: dict[str, int] | None = None


class ConceptOperations(ServiceBase):
    """Concepts of the documents: lists, search and sources (mixed into `CatDoc`)."""

    _concept_tables: tuple[tuple[int, int], _Tables] | None = None

    # ------------------------------------------------------------------ index access
    def _concepts_read(self, action: Callable[[SearchIndex, _Tables], Any]) -> Any:
        """Sync the index, then run `action` with the tables kept since its last change."""
        from catdoc.search import concept_store
        from catdoc.search.statistics import state_token

        engine = self.search_engine()

        def run(index: SearchIndex, _stats: SyncStats | None) -> Any:
            key = (engine.generation, state_token(index))
            cached = self._concept_tables
            if cached is None or cached[0] != key:
                tables = _Tables(labels=concept_store.labels(index))
                for ident, category, concept, weight in concept_store.all_links(index):
                    tables.by_document.setdefault(ident, {})[concept] = weight
                    total = tables.by_category.setdefault(category, {}).setdefault(
                        concept, [0.0, 0]
                    )
                    total[0] += weight
                    total[1] += 1
                cached = self._concept_tables = (key, tables)
            return action(index, cached[1])

        return engine.read(self.project(), run)

    # ------------------------------------------------------------------ interfaces
    def document_concepts(self) -> dict[str, dict[str, float]]:
        """object id → {concept key: weight} for every indexed document with concepts (kept
        until the index changes: read it, do not modify it)."""
        return self._concepts_read(lambda _index, tables: tables.by_document)

    def concept_counts(self) -> dict[str, int]:
        """category id → distinct concepts of its documents and its subcategories' (the
        `total` of `list_concepts(category=…)`)."""
        categories = {c.id: self.category_and_descendants(c.id) for c in self.project().categories}

        def count(_index: SearchIndex, tables: _Tables) -> dict[str, int]:
            if tables.counts is None:
                tables.counts = {
                    cat: len(set().union(*(tables.by_category.get(c, {}) for c in below)))
                    for cat, below in categories.items()
                }
            return tables.counts

        return self._concepts_read(count)

    # ------------------------------------------------------------------ listing
    def list_concepts(
        self,
        *,
        category: str | None = None,
        sort: str = "weight",
        limit: int = 50,
        offset: int = 0,
    ) -> r.ConceptPage:
        """One page of the concepts of `category` (its subcategories included) or of the whole
        project, in `sort` order (see `CONCEPT_SORTS`; ties by label)."""
        check_page(limit, offset)
        if sort not in CONCEPT_SORTS:
            raise CatDocError(
                VALIDATION_ERROR,
                f"Unknown concept order {quoted(sort)}.",
                f"Use one of: {', '.join(CONCEPT_SORTS)}.",
            )
        cat_ids: tuple[str | None, ...] | None = None
        if category is not None:
            cat_ids = tuple(self.category_and_descendants(category))

        def run(_index: SearchIndex, tables: _Tables) -> r.ConceptPage:
            cache_key = (cat_ids, sort)
            items = tables.sorted_lists.get(cache_key)
            if items is None:
                items = tables.sorted_lists[cache_key] = _sorted(tables, cat_ids, sort)
            message = None
            if not items:
                message = (
                    f"The documents of category {category!r} have no concepts: none has text, "
                    "tags or keywords in the index. Try another category, or none."
                    if category is not None
                    else "No document has concepts yet: give documents text, tags or keywords."
                )
            elif offset >= len(items):
                message = f"Only {len(items)} concepts; page from offset 0."
            return r.ConceptPage(
                items=items[offset : offset + limit],
                total=len(items),
                limit=limit,
                offset=offset,
                category=cat_ids[0] if cat_ids else None,
                sort=sort,
                message=message,
            )

        return self._concepts_read(run)

    # ------------------------------------------------------------------ one document
    def extract_concepts(self, object_id: str) -> r.DocumentConcepts:
        """One document's concepts, best first: tags and keywords (weight 1), then key phrases,
        each with the numbers of the passages that hold it."""
        from catdoc.search import concept_store

        obj = self.object(object_id)

        def run(index: SearchIndex, _tables: _Tables) -> r.DocumentConcepts:
            numbers = concept_store.passage_numbers(index, obj.id)
            concepts = [
                r.DocumentConcept(
                    key=key,
                    label=label,
                    weight=weight,
                    source=source,
                    passages=sorted(
                        numbers[chunk]
                        for chunk, _ in concept_store.parse_passages(links)
                        if chunk in numbers
                    ),
                )
                for key, weight, source, label, links in concept_store.document_links(index, obj.id)
            ]
            order = concept_store.SOURCES
            concepts.sort(key=lambda c: (-c.weight, order.index(c.source), c.key))
            row = concept_store.document_row(index, obj.id)
            return r.DocumentConcepts(
                id=obj.id,
                title=row[0] if row else obj.title or obj.id,
                category=row[1] if row else None,
                concepts=concepts,
                message=None
                if concepts
                else "This document has no concepts: it has no tags and no keywords, and no key "
                "phrases were found in its text (is its file empty or missing?).",
            )

        return self._concepts_read(run)

    # ------------------------------------------------------------------ one concept
    def concept_search(
        self, concept: str, *, limit: int = 10, offset: int = 0
    ) -> r.ConceptPassagePage:
        """The passages about a concept, most relevant first: the passages linked to it, each
        scored by the concept's weight in its document times 1 + ln(occurrences in it)."""
        from catdoc.search import concept_store, keyphrases

        check_page(limit, offset)

        def run(index: SearchIndex, tables: _Tables) -> r.ConceptPassagePage:
            ref = _resolve(index, tables, concept)
            scored: list[tuple[float, int, int]] = []
            for _key, _ident, _title, _cat, weight, links in concept_store.concept_documents(
                index, [ref.key]
            ):
                for chunk, n in concept_store.parse_passages(links):
                    scored.append((-weight * (1.0 + math.log(n)), chunk, n))
            scored.sort()
            page = scored[offset : offset + limit]
            rows = concept_store.passages(index, [chunk for _, chunk, _ in page])
            words = keyphrases.phrase_words(ref.label)
            expression = '"' + " ".join(words) + '"' if words else ""
            snippets = index.snippets("chunks", expression, [chunk for _, chunk, _ in page])
            items = [
                r.ConceptPassage(
                    id=rows[chunk]["id"],
                    title=rows[chunk]["title"],
                    category=rows[chunk]["category"],
                    passage=rows[chunk]["idx"],
                    heading_path=json.loads(rows[chunk]["heading"]),
                    start_line=rows[chunk]["start_line"],
                    end_line=rows[chunk]["end_line"],
                    occurrences=n,
                    score=round(-score, 4),
                    snippet=snippets.get(chunk, ("", []))[0],
                )
                for score, chunk, n in page
                if chunk in rows
            ]
            message = None
            if not scored:
                docs = tables.labels.get(ref.key, ("", 0))[1]
                message = (
                    f"No passage holds the words of {ref.label!r}: it is a tag or keyword of "
                    f"{docs} document(s). See them with `catdoc concepts sources` (MCP: "
                    "catdoc_concept_sources)."
                )
            elif offset >= len(scored):
                message = f"Only {len(scored)} passages; page from offset 0."
            return r.ConceptPassagePage(
                items=items,
                total=len(scored),
                limit=limit,
                offset=offset,
                concept=ref,
                message=message,
            )

        return self._concepts_read(run)

    # ------------------------------------------------------------------ several concepts
    def source_concepts(
        self, concepts: Sequence[str], *, limit: int = 20, offset: int = 0
    ) -> r.ConceptSourcePage:
        """The documents holding any of `concepts` (their union), those holding more of them
        first, then by the sum of their weights; each with the concepts it holds."""
        from catdoc.search import concept_store

        check_page(limit, offset)

        def run(index: SearchIndex, tables: _Tables) -> r.ConceptSourcePage:
            refs = _resolve_all(index, tables, concepts)
            order = {ref.key: n for n, ref in enumerate(refs)}
            found: dict[str, list[Any]] = {}
            for key, ident, title, category, weight, _ in concept_store.concept_documents(
                index, list(order)
            ):
                source = found.get(ident)
                if source is None:
                    source = found[ident] = [0, 0.0, ident, title, category, []]
                source[0] -= 1
                source[1] -= weight
                source[5].append(key)
            ranked = sorted(found.values())
            items = [
                r.ConceptSource(
                    id=ident,
                    title=title,
                    category=category,
                    concepts=sorted(keys, key=order.__getitem__),
                    weight=round(-weight, 4),
                )
                for _, weight, ident, title, category, keys in ranked[offset : offset + limit]
            ]
            return r.ConceptSourcePage(
                items=items,
                total=len(ranked),
                limit=limit,
                offset=offset,
                concepts=refs,
                message=None
                if offset < len(ranked) or not ranked
                else f"Only {len(ranked)} documents; page from offset 0.",
            )

        return self._concepts_read(run)

    def concept_sources(
        self, concepts: Sequence[str], *, limit: int = 20, offset: int = 0
    ) -> r.ConceptSources:
        """For each of `concepts`, one page of the documents holding it, by its weight there."""
        from catdoc.search import concept_store

        check_page(limit, offset)

        def run(index: SearchIndex, tables: _Tables) -> r.ConceptSources:
            refs = _resolve_all(index, tables, concepts)
            per: dict[str, list[tuple[float, str, str, str | None]]] = {ref.key: [] for ref in refs}
            for key, ident, title, category, weight, _ in concept_store.concept_documents(
                index, list(per)
            ):
                per[key].append((-weight, ident, title, category))
            pages = []
            for ref in refs:
                ranked = sorted(per[ref.key])
                pages.append(
                    r.ConceptSourcePage(
                        items=[
                            r.ConceptSource(
                                id=ident,
                                title=title,
                                category=category,
                                concepts=[ref.key],
                                weight=-weight,
                            )
                            for weight, ident, title, category in ranked[offset : offset + limit]
                        ],
                        total=len(ranked),
                        limit=limit,
                        offset=offset,
                        concepts=[ref],
                        message=None
                        if offset < len(ranked)
                        else f"Only {len(ranked)} documents; page from offset 0.",
                    )
                )
            return r.ConceptSources(concepts=pages)

        return self._concepts_read(run)


def _sorted(
    tables: _Tables, categories: tuple[str | None, ...] | None, sort: str
) -> list[r.ConceptSummary]:
    """The concepts of these categories (all when None), totalled and sorted."""
    totals: dict[str, list[float]]
    if categories is None:
        parts = list(tables.by_category.values())
    else:
        parts = [tables.by_category[c] for c in categories if c in tables.by_category]
    if len(parts) == 1:
        totals = parts[0]
    else:
        totals = {}
        for part in parts:
            for key, (weight, docs) in part.items():
                total = totals.setdefault(key, [0.0, 0])
                total[0] += weight
                total[1] += docs
    labels = tables.labels
    rows = [
        (labels.get(key, (key, 0))[0], key, weight, int(docs))
        for key, (weight, docs) in totals.items()
    ]
    if sort == "name":
        rows.sort(key=lambda row: (row[0].casefold(), row[1]))
    elif sort == "documentCount":
        rows.sort(key=lambda row: (-row[3], -row[2], row[0].casefold(), row[1]))
    else:
        rows.sort(key=lambda row: (-row[2], -row[3], row[0].casefold(), row[1]))
    return [
        r.ConceptSummary(key=key, label=label, weight=round(weight, 4), document_count=docs)
        for label, key, weight, docs in rows
    ]


def _resolve(index: SearchIndex, tables: _Tables, concept: str) -> r.ConceptRef:
    """A concept by label or any surface form of it (normalised like the index: case, stems)."""
    from catdoc.search import concept_store

    text = " ".join(str(concept).split())
    if not text:
        raise CatDocError(
            VALIDATION_ERROR, "The concept is empty.", "Name a concept, e.g. a tag or a phrase."
        )
    key = concept_store.key_of(index, text)
    found = tables.labels.get(key) if key else None
    if found is None:
        suggestions = closest(text, concept_store.near_labels(index, key or text.casefold()))
        raise CatDocError(
            NOT_FOUND,
            f"Concept not found: {quoted(text)}; no document has it.",
            LIST_HINT,
            suggestions,
        )
    return r.ConceptRef(key=key, label=found[0])


def _resolve_all(
    index: SearchIndex, tables: _Tables, concepts: Sequence[str]
) -> list[r.ConceptRef]:
    if isinstance(concepts, str) or not concepts:
        raise CatDocError(
            VALIDATION_ERROR,
            "Give a list of one or more concepts.",
            'Pass concepts as a list of labels, e.g. ["query set", "security"].',
        )
    if len(concepts) > MAX_CONCEPTS:
        raise CatDocError(
            VALIDATION_ERROR,
            f"At most {MAX_CONCEPTS} concepts per call, got {len(concepts)}.",
            "Ask about fewer concepts at once.",
        )
    refs: dict[str, r.ConceptRef] = {}
    for concept in concepts:
        ref = _resolve(index, tables, concept)
        refs.setdefault(ref.key, ref)
    return list(refs.values())
