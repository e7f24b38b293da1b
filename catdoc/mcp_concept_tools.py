"""The concept MCP tools: the concepts of a category, of a document, the passages about a
concept and the documents holding some concepts. Each is one `CatDoc` call (see
`catdoc.service_concepts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from catdoc import results as r
from catdoc.paging import MAX_LIMIT, MAX_OFFSET
from catdoc.service import CatDoc
from catdoc.service_concepts import MAX_CONCEPTS

if TYPE_CHECKING:
    from catdoc.mcp_server import CatDocMCPServer

CONCEPT_TOOLS = (
    "catdoc_list_concepts",
    "catdoc_concept_search",
    "catdoc_extract_concepts",
    "catdoc_source_concepts",
    "catdoc_concept_sources",
)
CONCEPTS_ARGUMENT = (
    "Concepts by label or any form of their words (case and word endings do not matter: "
    "'Query sets' finds 'query set'), e.g. ['security', 'query set']. At most "
    f"{MAX_CONCEPTS}."
)


class ExtractedConcepts(r.DocumentConcepts):
    """A document's concepts; with format=markdown as one Markdown table instead of a list."""

    format: Literal["json", "markdown"] = "json"
    markdown: str | None = Field(
        None, description="With format=markdown: the concepts as a table (`concepts` is empty)."
    )


def concepts_markdown(doc: r.DocumentConcepts) -> str:
    """A document's concepts as Markdown: a heading and a table, best first."""
    lines = [f"# Concepts of {doc.title} (`{doc.id}`)", ""]
    if not doc.concepts:
        return "\n".join([*lines, doc.message or "No concepts."])
    lines += ["| concept | weight | source | passages |", "|---|---:|---|---|"]
    for c in doc.concepts:
        label = c.label.replace("|", "\\|")
        passages = ", ".join(map(str, c.passages)) or "–"
        lines.append(f"| {label} | {c.weight:.2f} | {c.source} | {passages} |")
    return "\n".join(lines)


def limit_field(what: str) -> Any:
    return Field(ge=1, le=MAX_LIMIT, description=f"{what} per page, 1–{MAX_LIMIT}.")


OFFSET_FIELD = Field(ge=0, le=MAX_OFFSET, description="Entries to skip (paging).")


def register_concept_tools(server: CatDocMCPServer, svc: CatDoc) -> None:
    """Register the concept tools on `server`, bound to `svc`."""
    tool = server.catdoc_tool

    @tool(
        name="catdoc_list_concepts",
        title="List concepts",
        description="The concepts (tags, front-matter keywords and key phrases extracted from "
        "the text) of one category's documents, its subcategories included, or of the whole "
        "library: what the documents are about, with weights and document counts. Use it to "
        "learn a category's vocabulary before searching, or to pick concepts for "
        "catdoc_concept_search / catdoc_source_concepts. Do NOT use it for one document's "
        "concepts (catdoc_extract_concepts) or to find passages by free text (catdoc_search).",
    )
    def catdoc_list_concepts(
        categoryId: Annotated[
            str | None,
            Field(description="Category id, name or alias; omit for the whole library."),
        ] = None,
        sortBy: Annotated[
            Literal["weight", "name", "documentCount"],
            Field(
                description="weight: summed weight over the documents, most first; name: "
                "alphabetical by label; documentCount: documents holding it, most first."
            ),
        ] = "weight",
        limit: Annotated[int, limit_field("Concepts")] = 50,
        offset: Annotated[int, OFFSET_FIELD] = 0,
    ) -> r.ConceptPage:
        return svc.list_concepts(category=categoryId, sort=sortBy, limit=limit, offset=offset)

    @tool(
        name="catdoc_concept_search",
        title="Find passages about a concept",
        description="The passages (chunks) that hold a concept, most relevant first (the "
        "concept's weight in the document times how often the passage mentions it), each "
        "with its document, heading path, line range and a snippet. Use it when you know the "
        "concept (from catdoc_list_concepts or catdoc_extract_concepts) and want where it is "
        "discussed. Do NOT use it for free-text questions (catdoc_search ranks any words) or "
        "to list documents rather than passages (catdoc_concept_sources).",
    )
    def catdoc_concept_search(
        concept: Annotated[
            str,
            Field(
                min_length=1,
                description="The concept: its label or any form of its words, e.g. 'query set'.",
            ),
        ],
        limit: Annotated[int, limit_field("Passages")] = 10,
        offset: Annotated[int, OFFSET_FIELD] = 0,
    ) -> r.ConceptPassagePage:
        return svc.concept_search(concept, limit=limit, offset=offset)

    @tool(
        name="catdoc_extract_concepts",
        title="Show a document's concepts",
        description="One document's concepts, best first: its tags and keywords (weight 1) and "
        "the key phrases extracted from its text (weights up to 1), each with the passages "
        "that hold it. format=markdown gives a table to show a person. Use it to see what a "
        "document is about without reading it, or to find related documents with "
        "catdoc_source_concepts. Do NOT use it for a document's outline "
        "(catdoc_document_structure) or text (catdoc_show_object).",
    )
    def catdoc_extract_concepts(
        objectId: Annotated[
            str, Field(min_length=1, description="Object (document) id, e.g. 'req-auth'.")
        ],
        format: Annotated[
            Literal["json", "markdown"],
            Field(description="json: structured concepts; markdown: a readable table."),
        ] = "json",
    ) -> ExtractedConcepts:
        found = svc.extract_concepts(objectId)
        if format == "markdown":
            return ExtractedConcepts(
                **found.model_dump(exclude={"concepts"}),
                concepts=[],
                format="markdown",
                markdown=concepts_markdown(found),
            )
        return ExtractedConcepts(**found.model_dump())

    @tool(
        name="catdoc_source_concepts",
        title="Find documents having any of some concepts",
        description="The documents that have any of the given concepts (their union), those "
        "having more of them first, then by weight; each lists which of the concepts it has. "
        "Use it to gather the sources about a set of related concepts in one list. Do NOT use "
        "it to see each concept's documents apart (catdoc_concept_sources) or for passages "
        "(catdoc_concept_search).",
    )
    def catdoc_source_concepts(
        concepts: Annotated[list[str], Field(min_length=1, description=CONCEPTS_ARGUMENT)],
        limit: Annotated[int, limit_field("Documents")] = 20,
        offset: Annotated[int, OFFSET_FIELD] = 0,
    ) -> r.ConceptSourcePage:
        return svc.source_concepts(concepts, limit=limit, offset=offset)

    @tool(
        name="catdoc_concept_sources",
        title="Find each concept's documents",
        description="For each given concept apart, the documents that have it, by the "
        "concept's weight in them (one page per concept, with its total). Use it to compare "
        "how widely concepts are covered, or to find the main documents of each. Do NOT use "
        "it for one merged list (catdoc_source_concepts) or for passages "
        "(catdoc_concept_search).",
    )
    def catdoc_concept_sources(
        concepts: Annotated[list[str], Field(min_length=1, description=CONCEPTS_ARGUMENT)],
        limit: Annotated[int, limit_field("Documents per concept")] = 20,
        offset: Annotated[int, OFFSET_FIELD] = 0,
    ) -> r.ConceptSources:
        return svc.concept_sources(concepts, limit=limit, offset=offset)
