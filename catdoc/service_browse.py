"""The service's browsing operations: categories with statistics (sorted, filtered, paged), the
index summary, and one document's structure. The counts come from the search index, which each
call brings up to date first (cheap when nothing changed); they are kept until it changes."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, get_args

from catdoc import results as r
from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.paging import MAX_LIMIT, check_page
from catdoc.service_base import ServiceBase

if TYPE_CHECKING:
    from catdoc.model import Category, DocObject
    from catdoc.search.engine import SyncStats
    from catdoc.search.index import SearchIndex
    from catdoc.search.statistics import DocumentRow, IndexFacts

CategorySort = Literal[
    "model", "name", "objectCount", "popularity", "documentCount", "chunkCount", "conceptCount"
]
"""`model`: the order of the model files; `popularity` is `objectCount`; counts sort most first.
The one list of category orders: the MCP tool's argument and the CLI's choices come from it."""
CATEGORY_SORTS: tuple[str, ...] = get_args(CategorySort)
INDEX_SORTS = frozenset({"documentCount", "chunkCount", "conceptCount"})
DETAILS = ("basic", "detailed", "comprehensive")
GLOB_CHARS = frozenset("*?[")
Detail = Literal["basic", "detailed", "comprehensive"]


class BrowseOperations(ServiceBase):
    """Category statistics, the index summary and document structure (mixed into `CatDoc`)."""

    _facts: tuple[tuple[int, int], IndexFacts] | None = None
    """The last counts read from the index, with the (generation, data_version) they hold for."""

    # ------------------------------------------------------------------ index access
    def _read_index(self, action: Callable[[SearchIndex, IndexFacts], Any]) -> tuple[Any, int]:
        """Sync the index, then run `action` with the (cached) counts; also how many documents
        the sync had to (re)index or drop."""
        from catdoc.search import semantic
        from catdoc.search.statistics import index_facts, state_token

        engine = self.search_engine()

        def run(index: SearchIndex, stats: SyncStats | None) -> tuple[Any, int]:
            key = (engine.generation, state_token(index))
            cached = self._facts
            if cached is None or cached[0] != key:
                cached = (key, index_facts(index, semantic.MODEL_ID))
                self._facts = cached
            pending = 0 if stats is None else stats.indexed + stats.removed
            return action(index, cached[1]), pending

        return engine.read(self.project(), run)

    # ------------------------------------------------------------------ categories
    def browse_categories(
        self,
        *,
        sort_by: str = "model",
        filter: str | None = None,
        category: str | None = None,
        include_children: bool = False,
        limit: int = 50,
        offset: int = 0,
        statistics: bool = False,
        include_members: bool = False,
        member_limit: int = 100,
        member_offset: int = 0,
    ) -> r.CategoryPage:
        """One page of the categories: those matching `filter` (see `category_matches`), or
        only `category` (and, with `include_children`, every category below it), in `sort_by`
        order (ties keep the model's order). `statistics` adds each category's index counts
        and totals over every match; sorting by an index count implies it."""
        if sort_by not in CATEGORY_SORTS:
            raise CatDocError(
                VALIDATION_ERROR,
                f"sortBy {sort_by!r} is not known.",
                f"Use one of: {', '.join(CATEGORY_SORTS)}.",
            )
        check_page(limit, offset)
        check_page(member_limit, member_offset)
        if include_children and category is None:
            raise CatDocError(
                VALIDATION_ERROR,
                "includeChildren needs a category: it adds the categories below that one.",
                "Pass category (id, name or alias) with includeChildren, or leave includeChildren "
                "out to list every category.",
            )
        project = self.project()
        cats = project.categories
        if category is not None:
            wanted = (
                self.category_and_descendants(category)
                if include_children
                else [self.category(category).id]
            )
            cats = [project.category_by_id[c] for c in wanted]
        needle = (filter or "").strip()
        if needle:
            cats = [c for c in cats if category_matches(c, needle)]
        counted = statistics or sort_by in INDEX_SORTS
        stats: dict[str, r.CategoryStatistics] = {}
        if counted:
            stats = self._category_statistics(cats)
        ordered = _sorted(cats, sort_by, stats)
        page = ordered[offset : offset + limit]
        items: list[r.CategoryItemDetail | r.CategoryItem] = []
        for cat in page:
            base: r.Result = (
                self.show_category(cat.id, limit=member_limit, offset=member_offset)
                if include_members
                else self._category_summary(cat)
            )
            view = r.CategoryItemDetail if include_members else r.CategoryItem
            fields = {name: getattr(base, name) for name in type(base).model_fields}
            items.append(view.model_construct(**fields, statistics=stats.get(cat.id)))
        return r.CategoryPage(
            categories=items,
            total=len(ordered),
            limit=limit,
            offset=offset,
            sort_by=sort_by,
            filter=needle or None,
            statistics=_totals(ordered, stats) if counted else None,
            message=None
            if items
            else _empty_categories(len(project.categories), needle, offset, len(ordered), category),
        )

    def _category_statistics(self, cats: list[Category]) -> dict[str, r.CategoryStatistics]:
        facts, _ = self._read_index(lambda _index, facts: facts)
        concepts = self.concept_counts()
        out = {}
        for cat in cats:
            found = facts.categories.get(cat.id)
            out[cat.id] = r.CategoryStatistics(
                document_count=found.documents if found else 0,
                chunk_count=found.chunks if found else 0,
                concept_count=concepts.get(cat.id, 0),
            )
        return out

    # ------------------------------------------------------------------ index summary
    def index_summary(self, detail: str = "basic") -> r.IndexSummary:
        """The library at a glance, at one of three levels of `detail` (see `IndexSummary`)."""
        if detail not in DETAILS:
            raise CatDocError(
                VALIDATION_ERROR,
                f"detail {detail!r} is not known.",
                f"Use one of: {', '.join(DETAILS)} (basic is the smallest answer).",
            )
        from catdoc.search.statistics import index_files

        project = self.project()
        (facts, (index_bytes, written)), pending = self._read_index(
            lambda index, facts: (facts, index_files(index))
        )
        objects = len(project.object_by_id)
        counts = r.SummaryCounts(
            objects=objects,
            documents=facts.documents,
            unreadable=facts.unreadable,
            without_text=max(objects - facts.documents - facts.unreadable, 0),
            passages=facts.chunks,
            categories=len(project.categories),
            morphisms=sum(len(c.morphisms) for c in project.categories),
            functors=len(project.functors),
            natural_transformations=len(project.natural_transformations),
        )
        state = r.IndexState(up_to_date=pending == 0, pending=pending)
        summary = r.IndexSummary(
            detail=detail, counts=counts, state=state, message=_summary_message(counts, facts)
        )
        if detail == "basic":
            return summary
        full = detail == "comprehensive"
        concepts = self.concept_counts()
        summary.categories = [
            _summary_category(cat, facts, concepts, full=full) for cat in project.categories
        ]
        summary.file_types = facts.file_types
        summary.dates = r.SummaryDates(
            oldest_document=facts.oldest, newest_document=facts.newest, last_index_write=written
        )
        state.schema_version = facts.schema
        if full:
            from catdoc.search import semantic

            summary.sizes = r.SummarySizes(
                document_bytes=facts.document_bytes, index_bytes=index_bytes
            )
            state.documents_without_text = counts.without_text
            state.unreadable_documents = counts.unreadable
            state.vectors_available = semantic.available()
            rows = {"documents": facts.objects, "chunks": facts.chunks}
            state.vectors = [
                r.VectorState(scope=scope, present=n, missing=max(rows[scope] - n, 0))
                for scope, n in facts.vectors.items()
            ]
        return summary

    # ------------------------------------------------------------------ document structure
    def document_structure(
        self, object_id: str, *, limit: int = MAX_LIMIT, offset: int = 0
    ) -> r.DocumentStructure:
        """A document's heading tree (every section) and one page of its passages, each with
        its heading path and line range, from the search index's chunks."""
        from catdoc.search.statistics import document_row

        obj = self.object(object_id)
        check_page(limit, offset)
        row, _ = self._read_index(lambda index, _facts: document_row(index, obj.id))
        passages = row.passages if row else []
        sections, owner = _sections(passages)
        structure = r.DocumentStructure(
            id=obj.id,
            title=row.title if row else obj.label,
            category=self.project().category_of_object.get(obj.id),
            path=obj.path,
            section_count=len(sections),
            passage_count=len(passages),
            line_count=max((p.end_line or 0 for p in passages), default=None) or None,
            sections=sections,
            passages=[
                r.DocumentPassage(
                    index=p.index,
                    heading_path=p.heading,
                    section=owner[n],
                    start_line=p.start_line,
                    end_line=p.end_line,
                    chars=p.chars,
                )
                for n, p in enumerate(passages)
            ][offset : offset + limit],
            limit=limit,
            offset=offset,
        )
        structure.message = _empty_structure(obj, row, len(passages), offset)
        return structure


def category_matches(cat: Category, needle: str) -> bool:
    """Case-insensitive. With a glob character (`* ? [`), the glob must match the whole id, name,
    an alias, or the description; otherwise the text is a substring of one of them."""
    fields = [cat.id, cat.label, *cat.aliases, cat.description or ""]
    lowered = needle.casefold()
    if GLOB_CHARS & set(needle):
        return any(fnmatch.fnmatchcase(f.casefold(), lowered) for f in fields if f)
    return any(lowered in f.casefold() for f in fields)


def _sorted(
    cats: list[Category], sort_by: str, stats: dict[str, r.CategoryStatistics]
) -> list[Category]:
    """`cats` in `sort_by` order; Python's sort is stable, so ties keep the model's order."""
    keys: dict[str, Callable[[Category], Any]] = {
        "name": lambda c: (c.label.casefold(), c.id),
        "objectCount": lambda c: -len(c.objects),
        "popularity": lambda c: -len(c.objects),
        "documentCount": lambda c: -stats[c.id].document_count,
        "chunkCount": lambda c: -stats[c.id].chunk_count,
        "conceptCount": lambda c: -stats[c.id].concept_count,
    }
    key = keys.get(sort_by)
    return list(cats) if key is None else sorted(cats, key=key)


def _totals(cats: list[Category], stats: dict[str, r.CategoryStatistics]) -> r.CategoryTotals:
    n = len(cats)
    documents = sum(s.document_count for s in stats.values())
    chunks = sum(s.chunk_count for s in stats.values())
    objects = sum(len(c.objects) for c in cats)
    return r.CategoryTotals(
        categories=n,
        objects=objects,
        morphisms=sum(len(c.morphisms) for c in cats),
        documents=documents,
        chunks=chunks,
        concepts=sum(s.concept_count for s in stats.values()),
        average_objects_per_category=round(objects / n, 1) if n else 0.0,
        average_documents_per_category=round(documents / n, 1) if n else 0.0,
        average_chunks_per_category=round(chunks / n, 1) if n else 0.0,
        most_popular_category=max(cats, key=lambda c: len(c.objects)).id if cats else None,
        least_popular_category=min(cats, key=lambda c: len(c.objects)).id if cats else None,
    )


def _empty_categories(
    existing: int, needle: str, offset: int, total: int, category: str | None
) -> str:
    if existing == 0:
        return (
            "The project has no categories yet: import documents (`catdoc import PATH`) or add "
            "categories to .catdoc/category.yaml."
        )
    if total and offset >= total:
        return f"offset {offset} is past the last of {total} matching categories: page from 0."
    scope = f" among {category!r} and the categories below it" if category else ""
    return (
        f"No category matches the filter {needle!r}{scope} (a case-insensitive substring of the "
        "id, name, an alias or the description; a glob with * or ? must match one of them "
        "whole). Try a shorter filter, or leave it out to see every category."
    )


def _summary_category(
    cat: Category, facts: IndexFacts, concepts: dict[str, int], *, full: bool
) -> r.SummaryCategory:
    from catdoc.search.statistics import CategoryFacts

    found = facts.categories.get(cat.id) or CategoryFacts()
    return r.SummaryCategory(
        id=cat.id,
        name=cat.label,
        objects=len(cat.objects),
        documents=found.documents,
        passages=found.chunks,
        concepts=concepts.get(cat.id, 0),
        morphisms=len(cat.morphisms) if full else None,
        oldest=found.oldest if full else None,
        newest=found.newest if full else None,
    )


def _summary_message(counts: r.SummaryCounts, facts: IndexFacts) -> str | None:
    """What the counts leave unsaid: an empty project, no text at all, and which objects are
    not documents because their file cannot be read."""
    if counts.objects == 0:
        return (
            "The project has no objects yet: import documents (`catdoc import PATH`) to fill "
            "the index."
        )
    said: list[str] = []
    if counts.documents == 0 and counts.unreadable < counts.objects:
        said.append(
            f"None of the {counts.objects:,} objects has text to index: give them a document "
            "file (path) or inline content."
        )
    if counts.unreadable:
        one = counts.unreadable == 1
        named = ", ".join(f"{ident} ({why.rstrip('.')})" for ident, why in facts.unreadable_named)
        more = ", …" if counts.unreadable > len(facts.unreadable_named) else ""
        said.append(
            f"{counts.unreadable:,} of the {counts.objects:,} objects "
            f"{'has a document file' if one else 'have document files'} that cannot be read "
            f"(missing, binary or not UTF-8), so {'it is' if one else 'they are'} left out of "
            f"the documents, passages and file types: {named}{more}. Restore the file or fix "
            "the object's `path`; catdoc_document_structure (`catdoc structure ID`) tells why "
            "for one object."
        )
    return " ".join(said) or None


def _sections(passages: list[Any]) -> tuple[list[r.DocumentSection], list[int | None]]:
    """The heading tree of the passages (flattened, in document order) and each passage's
    section. Consecutive passages under the same heading path share its section."""
    sections: list[r.DocumentSection] = []
    open_: list[int] = []
    owner: list[int | None] = []
    for p in passages:
        path = p.heading
        keep = 0
        while (
            keep < min(len(open_), len(path))
            and sections[open_[keep]].heading_path[-1] == (path[keep])
        ):
            keep += 1
        del open_[keep:]
        for depth in range(keep, len(path)):
            sections.append(
                r.DocumentSection(
                    index=len(sections),
                    heading_path=path[: depth + 1],
                    level=depth + 1,
                    parent=open_[-1] if open_ else None,
                    start_line=p.start_line,
                    end_line=p.end_line,
                    passage_count=0,
                )
            )
            open_.append(len(sections) - 1)
        for n in open_:
            section = sections[n]
            section.passage_count += 1
            if p.end_line is not None:
                section.end_line = max(section.end_line or p.end_line, p.end_line)
        owner.append(open_[-1] if open_ else None)
    return sections, owner


def _empty_structure(
    obj: DocObject, row: DocumentRow | None, total: int, offset: int
) -> str | None:
    if total and offset >= total:
        return f"offset {offset} is past the last of {total} passages: page from 0."
    if total:
        return None
    if row is not None and row.error:
        return (
            f"{obj.id} has no passages: its document could not be read ({row.error.rstrip('.')}). "
            "Make it a readable UTF-8 text file, or give the object the path of one."
        )
    if not obj.path and not obj.content:
        return (
            f"{obj.id} has no document: neither a file (path) nor inline content, so there is "
            "no structure to show. Use `catdoc show object` (MCP: catdoc_show_object) for its "
            "fields and links."
        )
    return f"{obj.id}'s document has no text, so it has no sections or passages."
