"""The `catdoc_*` MCP tools that change the model. Each is one `CatDoc` edit (the one write path:
project lock, version check, all files or none, comments kept) answered as an `EditResult`.

A refused edit writes nothing and answers the refusal's code: the validator's (e.g.
`CAT_DANGLING_SOURCE`), `DUPLICATE_ID`, `IN_USE`, `NOT_FOUND`, `CONFLICT` (stale
`expectedVersion`) or `BUSY` (another writer held the lock too long).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from catdoc.edit import EditResult, EntityKind
from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.service import CatDoc

if TYPE_CHECKING:
    from catdoc.mcp_server import CatDocMCPServer

WRITE_TOOLS = (
    "catdoc_upsert_object",
    "catdoc_remove_object",
    "catdoc_rename",
    "catdoc_add_morphism",
    "catdoc_remove_morphism",
    "catdoc_set_mapping",
    "catdoc_set_component",
    "catdoc_upsert_category",
    "catdoc_upsert_functor",
    "catdoc_upsert_natural_transformation",
)

EDITING_INSTRUCTIONS = """ \
To change the model: catdoc_upsert_object (a document, with its text), catdoc_add_morphism \
(a link inside one category), catdoc_set_mapping (links across categories, under a functor), \
catdoc_set_component, catdoc_upsert_category / _functor / _natural_transformation, \
catdoc_rename, catdoc_remove_object / _morphism. Pass the `version` of your last read as \
expectedVersion (CONFLICT: the model changed, read again); BUSY: another writer, retry. A \
refused edit writes nothing; every answer lists the findings about what it touched.\
"""

ExpectedVersion = Annotated[
    str | None,
    Field(
        description="The `version` a read tool or the previous edit returned. When the model "
        "changed since (another edit, a file saved by hand), nothing is written and the answer "
        "is CONFLICT: read again and decide. Omit to edit whatever is current."
    ),
]
Cascade = Annotated[
    bool,
    Field(
        description="Also remove what uses it (mappings, components, equations, morphisms). "
        "Without it, an entity still in use is refused with IN_USE and nothing is removed."
    ),
]
PathValue = Annotated[
    str | list[str] | None,
    Field(
        description="A morphism id, a path of morphism ids in diagrammatic order (first step "
        "first), [] for the identity, or null to remove the entry."
    ),
]
Metadata = Annotated[
    dict[str, Any] | None,
    Field(description="Free-form metadata, merged key by key (a null value removes a key)."),
]
CategoryName = Annotated[
    str,
    Field(min_length=1, description="Category id, exact name, or alias (e.g. 'requirements')."),
]

_RENAME_KINDS: dict[str, EntityKind] = {
    "objectId": "object",
    "morphismId": "morphism",
    "categoryId": "category",
    "functorId": "functor",
    "naturalTransformationId": "natural transformation",
}
_RENAME_ARGUMENTS = tuple(_RENAME_KINDS)


def _given(clear: list[str] | None = None, **fields: Any) -> dict[str, Any]:
    """The fields the caller gave (an omitted argument leaves the field as it is), and None
    for each field named in `clear` (which removes it)."""
    given = {key: value for key, value in fields.items() if value is not None}
    for name in clear or []:
        if name in given:
            raise CatDocError(
                VALIDATION_ERROR,
                f"Field {name!r} is both given a value and named in clear.",
                "Give the field a value, or name it in clear to remove it, not both.",
            )
        given[name] = None
    return given


Clear = Annotated[
    list[str] | None,
    Field(
        description="Fields to remove (e.g. ['summary', 'url']): an omitted argument leaves a "
        "field as it is, so name here what should go. Metadata keys are removed by giving "
        "them null in metadata."
    ),
]


def register_write_tools(server: CatDocMCPServer, svc: CatDoc) -> None:
    """Register the model-editing catdoc_* tools on `server`, bound to `svc`."""
    tool = server.catdoc_tool

    def category_id(ref: str) -> str:
        return svc.category(ref).id

    # ------------------------------------------------------------------ objects
    @tool(
        name="catdoc_upsert_object",
        title="Create or update an object (document)",
        description="Create a document (object) in a category, or update the fields you give "
        "of an existing one (omitted fields stay as they are; metadata merges key by key). "
        "With `content`, the document file is written too: at `path`, else at the object's "
        "path, else at docs/<category>/<objectId>.md, always inside the project. Use it when "
        "the user adds or changes a document. Do NOT use it to link documents (within a "
        "category use catdoc_add_morphism; across categories catdoc_set_mapping), or to "
        "import an existing Markdown file with front matter (catdoc_import_document). An id "
        "taken in another category answers DUPLICATE_ID.",
        read_only=False,
        destructive=True,  # `content` replaces the text of the object's document
        idempotent=True,
    )
    def catdoc_upsert_object(
        categoryId: CategoryName,
        objectId: Annotated[
            str, Field(min_length=1, description="The object's id, unique in the project.")
        ],
        title: Annotated[str | None, Field(description="Human title.")] = None,
        path: Annotated[
            str | None,
            Field(description="Document file, relative to the project root (e.g. docs/x.md)."),
        ] = None,
        content: Annotated[
            str | None,
            Field(
                description="Text to write to the object's document file (replaces its text). "
                "An existing file that is not this object's document is never written over."
            ),
        ] = None,
        tags: Annotated[list[str] | None, Field(description="Tags (replace the old ones).")] = None,
        domain: Annotated[str | None, Field(description="Domain, e.g. 'requirements'.")] = None,
        summary: Annotated[str | None, Field(description="One-paragraph summary.")] = None,
        author: Annotated[str | None, Field(description="Author.")] = None,
        url: Annotated[str | None, Field(description="A URL for the document.")] = None,
        metadata: Metadata = None,
        clear: Clear = None,
        expectedVersion: ExpectedVersion = None,
        expectedContentVersion: Annotated[
            str | None,
            Field(
                description="With content: the `contentVersion` catdoc_show_object returned. "
                "When the document's text changed since (another writer, an editor), nothing is "
                "written and the answer is CONFLICT. The model's version does not cover "
                "document text."
            ),
        ] = None,
    ) -> EditResult:
        fields = _given(
            clear,
            title=title,
            path=path,
            tags=tags,
            domain=domain,
            summary=summary,
            author=author,
            url=url,
            metadata=metadata,
        )
        return svc.upsert_object(
            category_id(categoryId),
            objectId,
            fields,
            content=content,
            expected_version=expectedVersion,
            expected_content_version=expectedContentVersion,
        )

    @tool(
        name="catdoc_remove_object",
        title="Remove an object (document)",
        description="Remove a document (object) from the model; its file stays on disk. "
        "While morphisms, functor mappings or components use it the answer is IN_USE (they "
        "are listed) unless cascade is true, which removes them too. Use it when the user "
        "deletes a document. To give an object a new id use catdoc_rename instead.",
        read_only=False,
        destructive=True,
        idempotent=True,
    )
    def catdoc_remove_object(
        objectId: Annotated[str, Field(min_length=1, description="The object to remove.")],
        cascade: Cascade = False,
        expectedVersion: ExpectedVersion = None,
    ) -> EditResult:
        return svc.remove_object(objectId, cascade=cascade, expected_version=expectedVersion)

    @tool(
        name="catdoc_rename",
        title="Rename an entity",
        description="Give an object, morphism, category, functor or natural transformation a "
        "new id and update every reference to it in the model (morphism ends, mappings, "
        "components, equations, parents). Name the entity with exactly one of objectId, "
        "morphismId, categoryId, functorId, naturalTransformationId. Use it instead of "
        "removing and re-creating, which would lose the links. A taken id answers "
        "DUPLICATE_ID.",
        read_only=False,
        destructive=True,
        idempotent=True,
    )
    def catdoc_rename(
        newId: Annotated[str, Field(min_length=1, description="The new id.")],
        objectId: Annotated[str | None, Field(description="The object to rename.")] = None,
        morphismId: Annotated[str | None, Field(description="The morphism to rename.")] = None,
        categoryId: Annotated[str | None, Field(description="The category to rename.")] = None,
        functorId: Annotated[str | None, Field(description="The functor to rename.")] = None,
        naturalTransformationId: Annotated[
            str | None, Field(description="The natural transformation to rename.")
        ] = None,
        expectedVersion: ExpectedVersion = None,
    ) -> EditResult:
        named = _given(
            objectId=objectId,
            morphismId=morphismId,
            categoryId=categoryId,
            functorId=functorId,
            naturalTransformationId=naturalTransformationId,
        )
        if len(named) != 1:
            raise CatDocError(
                VALIDATION_ERROR,
                f"catdoc_rename needs exactly one of {', '.join(_RENAME_ARGUMENTS)}; got "
                f"{len(named)}.",
                "Name the entity to rename with one argument, e.g. objectId: 'req-auth'.",
            )
        ((argument, old),) = named.items()
        lookup = {
            "objectId": lambda: svc.object(old).id,
            "morphismId": lambda: svc.morphism(old).id,
            "categoryId": lambda: svc.category(old).id,
            "functorId": lambda: svc.functor(old).id,
            "naturalTransformationId": lambda: svc.natural_transformation(old).id,
        }[argument]
        return svc.rename(
            lookup(), newId, kind=_RENAME_KINDS[argument], expected_version=expectedVersion
        )

    # ------------------------------------------------------------------ morphisms
    @tool(
        name="catdoc_add_morphism",
        title="Add a morphism (relationship)",
        description="Add a typed relationship (morphism) source → target between two "
        "documents of ONE category, e.g. name 'depends-on'. The id is generated from source, "
        "name and target unless morphismId is given (it is returned as `id`). Both ends must "
        "be objects of categoryId (else CAT_DANGLING_SOURCE / CAT_DANGLING_TARGET). To link "
        "documents of two different categories use catdoc_set_mapping, not this tool.",
        read_only=False,
        destructive=False,
        idempotent=False,
    )
    def catdoc_add_morphism(
        categoryId: CategoryName,
        source: Annotated[str, Field(min_length=1, description="Source object id.")],
        target: Annotated[str, Field(min_length=1, description="Target object id.")],
        name: Annotated[
            str | None, Field(description="The relationship's type, e.g. 'depends-on'.")
        ] = None,
        morphismId: Annotated[
            str | None, Field(description="The id to give it (default: generated).")
        ] = None,
        metadata: Metadata = None,
        expectedVersion: ExpectedVersion = None,
    ) -> EditResult:
        return svc.add_morphism(
            category_id(categoryId),
            source,
            target,
            name=name,
            morphism_id=morphismId,
            metadata=metadata,
            expected_version=expectedVersion,
        )

    @tool(
        name="catdoc_remove_morphism",
        title="Remove a morphism (relationship)",
        description="Remove a morphism. While equations, functor mappings or components use "
        "it the answer is IN_USE (they are listed) unless cascade is true, which removes "
        "them too. Use it when a relationship no longer holds; to fix a morphism's id use "
        "catdoc_rename.",
        read_only=False,
        destructive=True,
        idempotent=True,
    )
    def catdoc_remove_morphism(
        morphismId: Annotated[str, Field(min_length=1, description="The morphism to remove.")],
        cascade: Cascade = False,
        expectedVersion: ExpectedVersion = None,
    ) -> EditResult:
        return svc.remove_morphism(morphismId, cascade=cascade, expected_version=expectedVersion)

    # ------------------------------------------------------------------ mappings
    @tool(
        name="catdoc_set_mapping",
        title="Set functor mapping entries",
        description="Link documents across two categories: set entries of a functor's "
        "object mapping (source object → target object, e.g. a requirement → the "
        "specification that answers it) and morphism mapping (source morphism → a morphism "
        "or path of the target category). null removes an entry; other entries stay. The "
        "target must exist in the functor's target category (else "
        "FUN_OBJECT_TARGET_MISSING: create it first with catdoc_upsert_object). Use it, not "
        "catdoc_add_morphism, for links between categories.",
        read_only=False,
        destructive=False,
        idempotent=True,
    )
    def catdoc_set_mapping(
        functorId: Annotated[str, Field(min_length=1, description="The functor.")],
        objectMapping: Annotated[
            dict[str, str | None] | None,
            Field(description="Source object id → target object id (null removes)."),
        ] = None,
        morphismMapping: Annotated[
            dict[str, PathValue] | None,
            Field(
                description="Source morphism id → target morphism id, path of ids, [] for "
                "the identity, or null to remove."
            ),
        ] = None,
        expectedVersion: ExpectedVersion = None,
    ) -> EditResult:
        if not objectMapping and not morphismMapping:
            raise CatDocError(
                VALIDATION_ERROR,
                "catdoc_set_mapping needs objectMapping or morphismMapping entries.",
                "Give e.g. objectMapping: {'req-refund': 'spec-refund-api'}.",
            )
        return svc.set_mapping(
            functorId,
            objects=objectMapping,
            morphisms=morphismMapping,
            expected_version=expectedVersion,
        )

    @tool(
        name="catdoc_set_component",
        title="Set natural transformation components",
        description="Set components η_A: F(A) → G(A) of a natural transformation η: F ⇒ G, "
        "one per object A of F's source category, each a morphism id or path of the target "
        "category ([] for the identity when F(A) = G(A); null removes). Use it after mapping "
        "a new object under both functors (catdoc_set_mapping). Check the squares with "
        "catdoc_validate_natural_transformation.",
        read_only=False,
        destructive=False,
        idempotent=True,
    )
    def catdoc_set_component(
        naturalTransformationId: Annotated[
            str, Field(min_length=1, description="The natural transformation.")
        ],
        components: Annotated[
            dict[str, PathValue],
            Field(min_length=1, description="Object id → its component (null removes)."),
        ],
        expectedVersion: ExpectedVersion = None,
    ) -> EditResult:
        return svc.set_components(
            naturalTransformationId, components, expected_version=expectedVersion
        )

    # ------------------------------------------------------------------ headers
    @tool(
        name="catdoc_upsert_category",
        title="Create or update a category",
        description="Create a category (a layer of documents, e.g. 'runbooks'), or update the "
        "header fields you give of an existing one (name, description, aliases, parent, "
        "related, semantics). Use it before adding documents to a new layer. To rename a "
        "category use catdoc_rename; documents go in with catdoc_upsert_object.",
        read_only=False,
        destructive=False,
        idempotent=True,
    )
    def catdoc_upsert_category(
        categoryId: Annotated[str, Field(min_length=1, description="The category's id.")],
        name: Annotated[str | None, Field(description="Display name.")] = None,
        description: Annotated[str | None, Field(description="What the layer holds.")] = None,
        aliases: Annotated[
            list[str] | None, Field(description="Other names (case-insensitive lookup).")
        ] = None,
        parent: Annotated[str | None, Field(description="Parent category id.")] = None,
        related: Annotated[list[str] | None, Field(description="Related category ids.")] = None,
        semantics: Annotated[
            Literal["free", "thin"] | None,
            Field(
                description="free: parallel paths equal only by equations; thin: all parallel "
                "paths are equal (traceability)."
            ),
        ] = None,
        clear: Clear = None,
        expectedVersion: ExpectedVersion = None,
    ) -> EditResult:
        fields = _given(
            clear,
            name=name,
            description=description,
            aliases=aliases,
            parent=parent,
            related=related,
            semantics=semantics,
        )
        return svc.upsert_category(categoryId, fields, expected_version=expectedVersion)

    @tool(
        name="catdoc_upsert_functor",
        title="Create or update a functor",
        description="Create a functor (a traceability map from one category to another; a "
        "new one needs sourceCategory and targetCategory) or update its name or categories. "
        "Its entries are set with catdoc_set_mapping. Use it when two layers should be "
        "traced; to see existing ones use catdoc_list_functors.",
        read_only=False,
        destructive=False,
        idempotent=True,
    )
    def catdoc_upsert_functor(
        functorId: Annotated[str, Field(min_length=1, description="The functor's id.")],
        name: Annotated[str | None, Field(description="Display name.")] = None,
        sourceCategory: Annotated[str | None, Field(description="Source category id.")] = None,
        targetCategory: Annotated[str | None, Field(description="Target category id.")] = None,
        expectedVersion: ExpectedVersion = None,
    ) -> EditResult:
        return svc.upsert_functor(
            functorId,
            name=name,
            source_category=sourceCategory,
            target_category=targetCategory,
            expected_version=expectedVersion,
        )

    @tool(
        name="catdoc_upsert_natural_transformation",
        title="Create or update a natural transformation",
        description="Create a natural transformation η: F ⇒ G between two parallel functors "
        "(a new one needs sourceFunctor and targetFunctor) or update its name or functors. "
        "Its components are set with catdoc_set_component. Use it to relate two versions of "
        "a traceability mapping; to see existing ones use "
        "catdoc_list_natural_transformations.",
        read_only=False,
        destructive=False,
        idempotent=True,
    )
    def catdoc_upsert_natural_transformation(
        naturalTransformationId: Annotated[
            str, Field(min_length=1, description="The natural transformation's id.")
        ],
        name: Annotated[str | None, Field(description="Display name.")] = None,
        sourceFunctor: Annotated[str | None, Field(description="Source functor id (F).")] = None,
        targetFunctor: Annotated[str | None, Field(description="Target functor id (G).")] = None,
        expectedVersion: ExpectedVersion = None,
    ) -> EditResult:
        return svc.upsert_natural_transformation(
            naturalTransformationId,
            name=name,
            source_functor=sourceFunctor,
            target_functor=targetFunctor,
            expected_version=expectedVersion,
        )
