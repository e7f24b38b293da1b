"""Result models the service returns: one shape for every face (CLI JSON, MCP, TUI, dashboard)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Annotated, Any, Generic, Literal, TypeVar, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    model_validator,
)
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from catdoc.search.hit_details import HIT_CONTENT_CHARS


class Result(BaseModel):
    """camelCase on the wire, like the file format. Schemas are built on first use, which
    halves the import time a one-shot CLI command pays for models it never touches."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, serialize_by_alias=True, defer_build=True
    )


T = TypeVar("T")


class Page(Result, Generic[T]):
    """A slice of a longer list: `total` counts everything that matched the filters."""

    items: list[T]
    total: int
    limit: int
    offset: int


class CategorySummary(Result):
    id: str
    name: str
    description: str | None = None
    aliases: list[str] = Field(default_factory=list)
    parent: str | None = None
    children: list[str] = Field(default_factory=list)
    related: list[str] = Field(default_factory=list)
    semantics: str = "free"
    object_count: int
    morphism_count: int
    equation_count: int
    location: str = ""


class ObjectSummary(Result):
    id: str
    title: str
    category: str
    domain: str | None = None
    path: str | None = None
    tags: list[str] = Field(default_factory=list)
    author: str | None = None
    created: dt.date | None = None
    updated: dt.date | None = None
    summary: str | None = None
    url: str | None = None


class MorphismSummary(Result):
    id: str
    name: str
    category: str
    source: str
    target: str
    is_identity: bool = False
    metadata: dict[str, Any] = Field(default_factory=dict)


class CategoryDetail(CategorySummary):
    hierarchy: list[str] = Field(description="Ancestors from the root down to this category.")
    equations: list[tuple[list[str], list[str]]] = Field(default_factory=list)
    objects: list[ObjectSummary]
    morphisms: list[MorphismSummary]
    functors_out: list[str] = Field(default_factory=list)
    functors_in: list[str] = Field(default_factory=list)


class ObjectDetail(ObjectSummary):
    metadata: dict[str, Any] = Field(default_factory=dict)
    content: str | None = Field(None, description="Document text, cut at the bound if long.")
    content_length: int = 0
    truncated: bool = False
    content_error: str | None = None
    content_version: str | None = Field(
        None,
        description="A digest of the whole document text: pass it to an edit of the text as "
        "expectedContentVersion, which is refused (CONFLICT) if the text changed meanwhile.",
    )
    outgoing: list[MorphismSummary] = Field(default_factory=list)
    incoming: list[MorphismSummary] = Field(default_factory=list)
    images: dict[str, str] = Field(default_factory=dict, description="functor id → F(this object).")
    location: str = ""


class MorphismDetail(MorphismSummary):
    source_title: str
    target_title: str
    images: dict[str, list[str]] = Field(
        default_factory=dict, description="functor id → F(this morphism) as a path."
    )
    location: str = ""


class EntityRef(Result):
    """What an id names and where it sits: enough for a face to jump to it."""

    kind: Literal["category", "object", "morphism", "functor", "naturalTransformation"]
    id: str
    category: str | None = None
    index: int | None = Field(None, description="Position among its category's objects/morphisms.")


class FunctorSummary(Result):
    id: str
    name: str
    source_category: str
    target_category: str
    objects_mapped: int
    morphisms_mapped: int
    location: str = ""


class MappingEntry(Result):
    """One row of a functor's or transformation's mapping, with its validation verdict."""

    key: str
    value: list[str] | str | None
    status: Literal["ok", "error", "warning", "missing"] = "ok"
    problems: list[str] = Field(default_factory=list)


class FunctorDetail(FunctorSummary):
    object_mapping: list[MappingEntry]
    morphism_mapping: list[MappingEntry]
    identity_preservation: str = "unknown"
    composition_preservation: str = "unknown"


class NaturalTransformationSummary(Result):
    id: str
    name: str
    source_functor: str
    target_functor: str
    component_count: int
    location: str = ""


class FunctorPage(Result):
    """One page of the functors, in the model's order; `total` counts them all."""

    functors: list[FunctorSummary]
    total: int
    limit: int
    offset: int
    message: str | None = Field(None, description="Why the page is empty and what to try.")


class NaturalTransformationPage(Result):
    """One page of the natural transformations, in the model's order; `total` counts them all."""

    natural_transformations: list[NaturalTransformationSummary]
    total: int
    limit: int
    offset: int
    message: str | None = Field(None, description="Why the page is empty and what to try.")


class NaturalTransformationDetail(NaturalTransformationSummary):
    source_category: str | None = None
    target_category: str | None = None
    components: list[MappingEntry]


class TraceHop(Result):
    kind: Literal["morphism", "functor"]
    id: str
    label: str
    source: str
    target: str


class TracePath(Result):
    length: int
    nodes: list[str]
    hops: list[TraceHop]


class TraceResult(Result):
    source: str
    target: str
    found: bool
    paths: list[TracePath]
    truncated: bool = Field(False, description="More paths exist beyond the limit.")
    message: str | None = Field(
        None, description="When no path is found: why (objects no functor connects), what to try."
    )


class ContextHop(TraceHop):
    direction: Literal["outgoing", "incoming"] = Field(
        description="Seen from the object it was reached from (`fromId`): outgoing when the hop "
        "starts there, incoming when it ends there."
    )


class ContextNode(Result):
    id: str
    title: str
    category: str | None = None
    distance: int = Field(description="Hops from the object asked about.")
    from_id: str = Field(description="The object this one was reached from.")
    via: list[ContextHop] = Field(
        description="The morphisms and functor mappings between `fromId` and this object."
    )


class ContextResult(Result):
    id: str
    title: str
    category: str | None = None
    depth: int
    nodes: list[ContextNode] = Field(description="Reached objects, nearest first.")
    truncated: bool = Field(
        False,
        description="The neighbourhood has more objects than `limit`: raise it, or lower `depth`.",
    )


class GraphNode(Result):
    id: str
    label: str
    type: str
    metadata: dict[str, Any] = Field(default_factory=dict)


class GraphEdge(Result):
    """A morphism (`id` is its id) or a functor hop (`id` is `F:a` for functor F at object a).
    Ids are free text, so a hop's `F:a` can equal a morphism's id or another hop's: an edge is
    named by its `type`, `id` and `source` together."""

    id: str
    source: str
    target: str
    label: str
    type: str = "morphism"


class GraphData(Result):
    nodes: list[GraphNode]
    edges: list[GraphEdge]


class InitResult(Result):
    root: str
    created: list[str]
    overwritten: bool = False
    backup: str | None = Field(
        None, description="Where the files a forced init replaced were copied (project-relative)."
    )
    set_aside: list[str] = Field(
        default_factory=list,
        description="Model files a forced init moved into the backup (`categories/*.yaml`): "
        "the new model is the template alone.",
    )


class ImportItem(Result):
    path: str
    object_id: str | None = None
    category: str | None = None
    action: Literal["created", "updated", "unchanged", "skipped"]
    reason: str | None = None


class ImportResult(Result):
    items: list[ImportItem]
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    excluded: int = Field(
        default=0,
        description="Files and folders left out of folders and globs by exclude patterns "
        "(--exclude, import.exclude); an excluded folder counts once.",
    )
    not_built: int = Field(
        default=0,
        description="Files and folders left out of folders and globs because the Sphinx project "
        "they belong to does not build them (their suffix is not in its conf.py's "
        "source_suffix, or its exclude_patterns match them); a folder counts once.",
    )
    references: list[dict[str, Any]] = Field(
        default_factory=list,
        description="References found in the text (@id, #id, links, wiki links, roles): where "
        "each points (`resolved`) and its status (linked, already-linked, same-category, "
        "cross-category, self, ambiguous with its `candidates`, external (intersphinx, or a "
        "PEP or RFC not in the tree), generated (a page Sphinx makes: genindex, search …), or "
        "unresolved).",
    )
    morphisms_created: list[str] = Field(default_factory=list)
    written: list[str] = Field(default_factory=list, description="YAML files changed.")
    example_removed: list[str] = Field(
        default_factory=list,
        description="The untouched example model of `catdoc init` (entities, then its document) "
        "that this import replaced.",
    )


Period = Literal[
    "yesterday", "last_3_days", "last_week", "last_7_days", "last_month", "last_30_days"
]
PERIODS: tuple[str, ...] = get_args(Period)
MAX_FILTER_VALUES = 100
"""Values one list-valued filter accepts: far more than a query needs, and it bounds the SQL."""
MAX_CHUNK_NUMBER = 1_000_000
"""Largest passage number a chunkRange accepts (no document has that many passages)."""


def _one_or_many(value: Any) -> Any:
    """One value or a list of them, as a list. An empty list (it would match nothing), a blank
    value or too many values are refused with the reason."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise PydanticCustomError("one_or_many", "must be a string or a list of strings")
    if not value:
        raise PydanticCustomError(
            "empty_list",
            "an empty list would match nothing; leave the filter out, or give at least one value",
        )
    if len(value) > MAX_FILTER_VALUES:
        raise PydanticCustomError(
            "too_many", f"{len(value):,} values; at most {MAX_FILTER_VALUES} are accepted"
        )
    if any(not v.strip() for v in value):
        raise PydanticCustomError("blank_value", "holds an empty value; give non-empty values")
    return list(value)


OneOrMany = Annotated[
    list[str],
    BeforeValidator(_one_or_many),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string", "minLength": 1},
                {
                    "type": "array",
                    "items": {"type": "string", "minLength": 1},
                    "minItems": 1,
                    "maxItems": MAX_FILTER_VALUES,
                },
            ]
        }
    ),
]
"""A filter that takes one value or a list of them (any of them matches)."""


class ChunkRange(Result):
    """Passages `start`…`end` of each document: numbers counted from 0, both ends included."""

    model_config = ConfigDict(extra="forbid")

    start: int = Field(
        0, ge=0, le=MAX_CHUNK_NUMBER, strict=True, description="First passage number (from 0)."
    )
    end: int | None = Field(
        None,
        ge=0,
        le=MAX_CHUNK_NUMBER,
        strict=True,
        description="Last passage number, included (default: the document's last passage).",
    )

    @model_validator(mode="after")
    def _start_not_after_end(self) -> ChunkRange:
        if self.end is not None and self.start > self.end:
            raise PydanticCustomError(
                "range_order",
                "start {start} is after end {end}; passage numbers run from start up to end",
                {"start": self.start, "end": self.end},
            )
        return self


class SearchFilters(Result):
    """Filters combine with AND; a filter given a list matches any of its values (OR). None of
    them may silently drop the query."""

    model_config = ConfigDict(extra="forbid")

    category: OneOrMany | None = Field(
        None,
        description="Category id, name or alias, or a list of them: documents of any of them.",
    )
    include_children: bool = Field(
        False, description="With category: the subcategories of each category too."
    )
    domain: str | None = Field(None, description="The document's domain (case-insensitive).")
    tags: OneOrMany | None = Field(
        None,
        description="A tag or a list of tags: documents carrying any of them (case-insensitive).",
    )
    author: str | None = Field(
        None, description="The document's author (case-insensitive, whole value)."
    )
    path: str | None = Field(None, description="Glob over the document path, e.g. docs/req/*.md")
    file_type: OneOrMany | None = Field(
        None, description="File extension(s) without dot, e.g. md or [md, rst]: any of them."
    )
    source: OneOrMany | None = Field(
        None,
        description="Where documents come from, or a list (any of them): 'inline' (text kept in "
        "the model, no file), a folder or file path relative to the project root ('docs/req' "
        "matches every file under docs/req/), or a URL prefix ('https://wiki.example.com/') "
        "matched against the document's url.",
    )
    since: dt.date | None = Field(None, description="Dated on or after this day (YYYY-MM-DD).")
    until: dt.date | None = Field(None, description="Dated on or before this day (YYYY-MM-DD).")
    period: Period | None = Field(
        None, description="A recent period, instead of since/until: " + ", ".join(PERIODS) + "."
    )
    object: str | None = Field(None, description="Search within this one document.")
    chunk_range: ChunkRange | None = Field(
        None,
        description="Only passages whose number within their document is in start…end "
        "(counted from 0, both ends included); the search returns passages (scope chunks).",
    )
    cards_only: bool = Field(
        False,
        description="Search the documents' summary cards alone: only documents whose summary "
        "holds the query words match, ranked by their card. Documents only (not with chunks, "
        "chunkRange, object or mode vector).",
    )
    cluster_id: str | None = Field(
        None, description="Only documents of this cluster (ids from catdoc_list_clusters)."
    )


class SearchHit(Result):
    id: str
    title: str
    category: str | None = None
    path: str | None = None
    url: str | None = None
    score: float
    snippet: str = ""
    matched_terms: list[str] = Field(default_factory=list)
    matched_concepts: list[str] = Field(default_factory=list)
    heading_path: list[str] = Field(default_factory=list)
    start_line: int | None = None
    end_line: int | None = None
    chunk_index: int | None = Field(
        None, description="Passages: the passage's number within its document (from 0)."
    )
    summary: str | None = Field(None, description="The document's card (its summary), if any.")
    content: str | None = Field(
        None,
        description="With includeContent: the passage's text, or the document's text cut at "
        f"{HIT_CONTENT_CHARS:,} characters (then `truncated` is true).",
    )
    content_length: int | None = Field(None, description="The full text's length in characters.")
    truncated: bool = False
    cluster_id: str | None = Field(
        None, description="The document's cluster (null: in none, or cluster info not asked for)."
    )
    cluster_name: str | None = Field(None, description="That cluster's name (its top concepts).")
    signals: dict[str, float] | None = None


class SearchResponse(Result):
    query: str
    mode: Literal["text", "hybrid", "vector"]
    scope: Literal["documents", "chunks"]
    total: int
    limit: int
    offset: int
    results: list[SearchHit]
    expanded_terms: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class VectorCount(Result):
    """Vectors of one search scope: how many were computed now, and how many rows it has."""

    scope: Literal["documents", "chunks"]
    computed: int
    total: int


class IndexResult(Result):
    """What bringing the search index up to date did: `documents` in the project, of which
    `indexed` were (re)indexed; `removed` ones gone from the project were dropped."""

    documents: int
    indexed: int
    removed: int
    seconds: float
    vectors: list[VectorCount] = Field(default_factory=list)


# ---------------------------------------------------------------- browsing: category statistics,
# index summary, document structure
class CategoryStatistics(Result):
    """What the search index holds of one category's objects."""

    document_count: int = Field(description="Its objects with text (a file or inline content).")
    chunk_count: int = Field(description="Passages (chunks) of those documents.")
    concept_count: int = Field(
        description="Distinct concepts of its documents and its subcategories' documents (as "
        "catdoc_list_concepts counts them)."
    )


class CategoryItem(CategorySummary):
    statistics: CategoryStatistics | None = Field(
        None, description="Index counts; present when statistics were asked for or sorted by."
    )


class CategoryItemDetail(CategoryDetail):
    statistics: CategoryStatistics | None = None


class CategoryTotals(Result):
    """Totals over every category that matched (all pages, not only the one returned)."""

    categories: int
    objects: int
    morphisms: int
    documents: int
    chunks: int
    concepts: int = Field(
        description="Sum of the categories' concept counts (a concept shared by two categories, "
        "or by a category and its parent, counts in both)."
    )
    average_objects_per_category: float
    average_documents_per_category: float
    average_chunks_per_category: float
    most_popular_category: str | None = Field(None, description="The one with the most objects.")
    least_popular_category: str | None = Field(None, description="The one with the fewest objects.")


class CategoryPage(Result):
    """One page of the categories that matched, in the order asked for; `total` counts them all."""

    categories: list[CategoryItemDetail | CategoryItem]
    total: int
    limit: int
    offset: int
    sort_by: str
    filter: str | None = None
    statistics: CategoryTotals | None = None
    message: str | None = Field(None, description="Why the page is empty and what to try.")


class SummaryCounts(Result):
    """`objects` = `documents` + `unreadable` + `withoutText`."""

    objects: int
    documents: int = Field(description="Objects with text in the index (a file or inline content).")
    unreadable: int = Field(
        description="Objects whose document file cannot be read (missing, binary, not UTF-8): "
        "not documents; `message` names them.",
    )
    without_text: int = Field(
        description="Objects with no text: neither a file nor inline content, or an empty one."
    )
    passages: int = Field(description="Chunks of those documents: what passage search ranks.")
    categories: int
    morphisms: int = Field(description="Declared morphisms (generators).")
    functors: int
    natural_transformations: int


class SummaryCategory(Result):
    id: str
    name: str
    objects: int
    documents: int
    passages: int
    concepts: int = Field(description="Distinct concepts, its subcategories' included.")
    morphisms: int | None = Field(None, description="Comprehensive detail only.")
    oldest: dt.date | None = Field(None, description="Comprehensive detail only.")
    newest: dt.date | None = Field(None, description="Comprehensive detail only.")


class SummaryDates(Result):
    oldest_document: dt.date | None = Field(
        None, description="Earliest document date (updated, else created, else file time)."
    )
    newest_document: dt.date | None = None
    last_index_write: dt.datetime | None = Field(
        None, description="When the index file was last written (UTC)."
    )


class SummarySizes(Result):
    document_bytes: int = Field(description="Bytes of the documents' files.")
    index_bytes: int = Field(description="Bytes of the search index on disk (with its log).")


class VectorState(Result):
    scope: Literal["documents", "chunks"]
    present: int
    missing: int


class IndexState(Result):
    up_to_date: bool = Field(
        description="The index already matched the project when asked (nothing to (re)index)."
    )
    pending: int = Field(
        description="Documents that had to be (re)indexed or dropped first; this call did it."
    )
    schema_version: str | None = Field(None, description="Detailed and comprehensive only.")
    documents_without_text: int | None = Field(
        None, description="Comprehensive only: counts.withoutText again."
    )
    unreadable_documents: int | None = Field(
        None, description="Comprehensive only: counts.unreadable again."
    )
    vectors_available: bool | None = Field(
        None, description="The optional semantic extra is installed."
    )
    vectors: list[VectorState] | None = None


class IndexSummary(Result):
    """The library at a glance. `basic`: counts and whether the index is current; `detailed`:
    also per category, file types and dates; `comprehensive`: also sizes and index internals."""

    detail: Literal["basic", "detailed", "comprehensive"]
    counts: SummaryCounts
    state: IndexState
    categories: list[SummaryCategory] | None = None
    file_types: dict[str, int] | None = Field(
        None,
        description="Documents (with text) per file extension ('' for inline content), most "
        "first; they add up to counts.documents.",
    )
    dates: SummaryDates | None = None
    sizes: SummarySizes | None = None
    message: str | None = None


class DocumentSection(Result):
    """A heading of the document and everything below it (before the next heading of its
    level or higher)."""

    index: int
    heading_path: list[str]
    level: int = Field(description="Depth in the heading tree, 1 for the top headings.")
    parent: int | None = Field(None, description="Index of the enclosing section.")
    start_line: int | None = None
    end_line: int | None = None
    passage_count: int = Field(description="Passages in it, its subsections' included.")


class DocumentPassage(Result):
    index: int
    heading_path: list[str]
    section: int | None = Field(None, description="Index of the section it belongs to.")
    start_line: int | None = None
    end_line: int | None = None
    chars: int


class DocumentStructure(Result):
    """A document's sections (the heading tree, flattened in document order) and its passages,
    with line ranges (1-based, inclusive, in the file)."""

    id: str
    title: str
    category: str | None = None
    path: str | None = None
    section_count: int
    passage_count: int
    line_count: int | None = Field(None, description="Last line any passage reaches.")
    sections: list[DocumentSection]
    passages: list[DocumentPassage] = Field(description="One page of the passages.")
    limit: int
    offset: int
    message: str | None = None


# ---------------------------------------------------------------- clusters of related documents
class ClusterSummary(Result):
    """A community of the document graph (documents joined by morphisms, references, functor
    mappings, shared concepts and vector similarity)."""

    id: str = Field(description="Stable id: 'cl-' and the id of its most linked member.")
    name: str = Field(description="Its top concepts (or its titles' commonest words).")
    size: int
    top_concepts: list[str] = Field(default_factory=list)
    central: str = Field(description="The member with the most link weight inside the cluster.")
    categories: dict[str, int] = Field(
        default_factory=dict, description="Members per category, most first."
    )


class Cluster(ClusterSummary):
    members: list[str] = Field(description="Object ids, most linked inside the cluster first.")


class ClusterList(Result):
    """Every cluster, largest first. Documents with no link to another document (and pairs
    too small to be a community) are counted as `unclustered`."""

    clusters: list[Cluster]
    total: int
    documents: int
    unclustered: int
    links: dict[str, int] = Field(
        default_factory=dict,
        description="Links of the document graph per signal (morphisms, references, "
        "functors, concepts, vectors).",
    )
    message: str | None = None


class ClusterPage(Result):
    """One page of the clusters, largest first; `total` counts them all."""

    items: list[Cluster | ClusterSummary]
    total: int
    limit: int
    offset: int
    documents: int
    unclustered: int
    links: dict[str, int] = Field(default_factory=dict)
    message: str | None = None


class ClusterMember(Result):
    id: str
    title: str
    category: str
    links: float = Field(description="Its link weight inside the cluster.")


class ClusterDetail(ClusterSummary):
    """A cluster with one page of its members (most linked first); `size` counts them all."""

    members: list[ClusterMember]
    member_limit: int
    member_offset: int


# ---------------------------------------------------------------- concepts
class ConceptRef(Result):
    key: str = Field(description="The concept's words stemmed: what identifies it.")
    label: str = Field(description="The form most documents write it in.")


class ConceptSummary(ConceptRef):
    weight: float = Field(description="Sum of the concept's weights in the documents counted.")
    document_count: int


class ConceptPage(Page[ConceptSummary]):
    category: str | None = Field(None, description="The category (its subcategories included).")
    sort: str
    message: str | None = None


class DocumentConcept(ConceptRef):
    weight: float = Field(description="1 for tags and keywords; key phrases in (0, 1].")
    source: Literal["tag", "keyword", "phrase"]
    passages: list[int] = Field(description="Numbers of the passages that hold it.")


class DocumentConcepts(Result):
    id: str
    title: str
    category: str | None = None
    concepts: list[DocumentConcept]
    message: str | None = None


class ConceptPassage(Result):
    id: str = Field(description="The document's object id.")
    title: str
    category: str | None = None
    passage: int = Field(description="Passage number within the document.")
    heading_path: list[str]
    start_line: int | None = None
    end_line: int | None = None
    occurrences: int
    score: float
    snippet: str


class ConceptPassagePage(Page[ConceptPassage]):
    concept: ConceptRef
    message: str | None = None


class ConceptSource(Result):
    id: str = Field(description="The document's object id.")
    title: str
    category: str | None = None
    concepts: list[str] = Field(description="Keys of the asked concepts this document has.")
    weight: float = Field(description="Sum of those concepts' weights in the document.")


class ConceptSourcePage(Page[ConceptSource]):
    concepts: list[ConceptRef]
    message: str | None = None


class ConceptSources(Result):
    concepts: list[ConceptSourcePage] = Field(description="One page of documents per concept.")


# ---------------------------------------------------------------- traceability coverage
class CoverageShare(Result):
    """`covered` of `total`; `percent` is None when there is nothing to cover."""

    covered: int
    total: int
    percent: float | None = Field(
        description="covered ÷ total × 100, one decimal (100.0 only when all is covered: "
        "1,999 of 2,000 is 99.9); None of 0."
    )

    @classmethod
    def of(cls, covered: int, total: int) -> CoverageShare:
        percent = round(100 * covered / total, 1) if total else None
        if percent == 100.0 and covered < total:
            percent = 99.9
        return cls(covered=covered, total=total, percent=percent)

    def below(self, minimum: float) -> bool:
        """Whether the exact share (not its rounded percent) is under `minimum` percent."""
        return bool(self.total) and Fraction(100 * self.covered, self.total) < Fraction(
            str(minimum)
        )


class FunctorCoverage(Result):
    """How completely one functor maps its source category and reaches its target."""

    functor: str
    source_category: str
    target_category: str
    objects: CoverageShare = Field(description="Source objects mapped to a target object.")
    reached: CoverageShare = Field(description="Target objects that are some object's image.")
    morphisms: CoverageShare = Field(description="Source generators with a morphism mapping.")
    unmapped_objects: list[str] = Field(default_factory=list)
    orphans: list[str] = Field(
        default_factory=list, description="Target objects no source object maps to."
    )
    unmapped_morphisms: list[str] = Field(default_factory=list)


class CoverageReport(Result):
    functors: list[FunctorCoverage]
    minimum: float | None = Field(None, description="The threshold asked for, in percent.")
    below: list[str] = Field(
        default_factory=list,
        description="`functor.share` of every share under the threshold (empty: all pass).",
    )


class ChangedDocument(Result):
    """A document at one end of a suspect link, changed since the review."""

    object_id: str
    side: Literal["source", "target"]
    path: str | None = None
    reviewed_fingerprint: str | None = Field(
        None, description="Its fingerprint at the review (null: it was not at this end then)."
    )
    current_fingerprint: str | None = Field(
        None, description="Its fingerprint now (null: it is no longer at this end)."
    )
    diff: list[str] = Field(
        default_factory=list, description="Unified diff from the reviewed text to the text now."
    )
    diff_revision: str | None = Field(None, description="The git commit holding the reviewed text.")
    diff_note: str = Field("", description="Why there is no diff, when there is none.")
    diff_truncated: int = Field(0, description="Diff lines left out.")


class SuspectLink(Result):
    """A link that needs a review: its documents changed since its stamp, or it has none."""

    key: str = Field(description="The link's key in .catdoc/reviews.yaml; `catdoc review KEY`.")
    kind: Literal["morphism", "object mapping", "morphism mapping", "component"]
    owner: str = Field(description="The morphism, functor or natural transformation id.")
    item: str = Field("", description="The mapped object or morphism, or the component's object.")
    status: Literal["changed", "unreviewed"]
    changed_ends: list[Literal["source", "target"]] = Field(default_factory=list)
    reason: str
    source: list[str] = Field(default_factory=list, description="Document ids at the source end.")
    target: list[str] = Field(default_factory=list, description="Document ids at the target end.")
    reviewed_at: str | None = None
    reviewed_by: str | None = None
    location: str = ""
    documents: list[ChangedDocument] = Field(default_factory=list)


class SuspectReport(Result):
    enabled: bool = Field(
        description="Reviews are on: .catdoc/reviews.yaml exists (`catdoc review --all` starts)."
    )
    links_checked: int = 0
    changed_total: int = 0
    unreviewed_total: int = 0
    total: int = Field(0, description="Links needing a review (changed + unreviewed).")
    offset: int = 0
    limit: int = 0
    suspects: list[SuspectLink] = Field(default_factory=list)
    message: str = ""
