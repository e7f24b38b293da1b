"""The `catdoc_*` MCP tools. Each is one `CatDoc` call: schema in, result model out.

Descriptions say when to use a tool and which other tool to use instead; the input schema carries
every argument's description, default and bounds; the output schema is the result model's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import Field

from catdoc import results as r
from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.mcp_hints import speak_mcp
from catdoc.mcp_progress import tool_progress
from catdoc.paging import MAX_LIMIT, MAX_OFFSET
from catdoc.project_files import resolve_inside
from catdoc.search.hit_details import HIT_CONTENT_CHARS
from catdoc.service import DEFAULT_CONTENT_CHARS, DEFAULT_CONTEXT_NODES, MAX_CONTEXT_DEPTH, CatDoc
from catdoc.service_browse import CategorySort
from catdoc.suggest import Suggestions
from catdoc.validate import Report

if TYPE_CHECKING:
    from catdoc.mcp_server import CatDocMCPServer

MAX_CONTENT_CHARS = 200_000
MAX_GRAPH_NODES = 5_000

Version = Annotated[
    str,
    Field(
        description="The model's version when this was read: pass it as expectedVersion to an "
        "edit tool, which then refuses (CONFLICT) if the model changed in between."
    ),
]


class CategoryList(r.CategoryPage):
    version: Version


class CategoryView(r.CategoryDetail):
    version: Version


class ObjectView(r.ObjectDetail):
    version: Version


class FunctorView(r.FunctorDetail):
    version: Version


class NaturalTransformationView(r.NaturalTransformationDetail):
    version: Version


class ValidationReport(Report):
    version: Version


V = TypeVar("V", bound=r.Result)


def versioned(view: type[V], version: str, result: r.Result) -> V:
    """`result` with the version it was read at (fields shared, not copied or re-validated)."""
    fields: dict[str, Any] = {name: getattr(result, name) for name in type(result).model_fields}
    return view.model_construct(**fields, version=version)


class GraphSlice(r.GraphData):
    total_nodes: int
    total_edges: int
    truncated: bool = Field(
        description="True when nodes were left out: raise `limit` or filter by `categoryId`."
    )


CategoryRef = Annotated[
    str,
    Field(
        min_length=1,
        description="Category id, exact name, or alias (e.g. 'requirements'). "
        "See catdoc_list_categories.",
    ),
]
OptionalCategory = Annotated[
    str | None,
    Field(description="Only this category: id, exact name, or alias. Omit for all categories."),
]
ObjectId = Annotated[str, Field(min_length=1, description="Object (document) id, e.g. 'req-auth'.")]
Limit = Annotated[int, Field(ge=1, le=MAX_LIMIT, description=f"Page size, 1–{MAX_LIMIT}.")]
Offset = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_OFFSET,
        description=f"Items to skip (paging), 0–{MAX_OFFSET}; 0 for the first page.",
    ),
]
MemberLimit = Annotated[
    int,
    Field(
        ge=1,
        le=MAX_LIMIT,
        description=f"Most entries per member list, 1–{MAX_LIMIT}; page with memberOffset.",
    ),
]
MemberOffset = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_OFFSET,
        description=f"Entries to skip in each member list (paging), 0–{MAX_OFFSET}.",
    ),
]


def register_tools(server: CatDocMCPServer, svc: CatDoc) -> None:
    """Register every catdoc_* tool on `server`, bound to the one `svc` it serves."""
    tool = server.catdoc_tool

    # ------------------------------------------------------------------ project
    @tool(
        name="catdoc_init",
        title="Initialise a CatDoc project",
        description="Create a CatDoc project: a `.catdoc/` directory with `category.yaml`, "
        "`config.yaml` and an example document (bare: an empty model, no example; the "
        "example also gives way to the first import). Use it once, when the user wants to "
        "start documenting a repository with CatDoc, or when other tools answer "
        "PROJECT_NOT_FOUND. "
        "Do NOT use it to change an existing project (it fails with ALREADY_EXISTS in or "
        "below a project unless force is true, and force overwrites the model files, keeping "
        "the replaced ones in `.catdoc/backups/`); use catdoc_import_document to add documents.",
        read_only=False,
        destructive=True,
        idempotent=False,
    )
    def catdoc_init(
        directory: Annotated[
            str,
            Field(
                min_length=1,
                description="Where to create `.catdoc/`, relative to the served project "
                "(or to the server's start directory when there is no project yet).",
            ),
        ] = ".",
        name: Annotated[str | None, Field(description="Project name for config.yaml.")] = None,
        force: Annotated[
            bool,
            Field(
                description="Overwrite an existing `.catdoc/` (its replaced files are copied to "
                "`.catdoc/backups/` first), or create a project inside another one."
            ),
        ] = False,
        bare: Annotated[
            bool,
            Field(
                description="Write config.yaml and an empty model, no example: for a project "
                "that adopts existing documents with catdoc_import_document."
            ),
        ] = False,
    ) -> r.InitResult:
        try:
            base = svc.root
        except CatDocError:
            base = svc.start
        return CatDoc.init(resolve_inside(base, directory), name=name, force=force, bare=bare)

    # ------------------------------------------------------------------ categories
    @tool(
        name="catdoc_list_categories",
        title="List categories",
        description="List the categories (layers of documents, e.g. requirements, design, "
        "tests) with their description, hierarchy and object/morphism counts. Start here to "
        "learn how a project is organised. sortBy orders them (model order by default, name, "
        "objectCount/popularity, documentCount, chunkCount, conceptCount: counts most first); "
        "filter keeps those whose id, name, alias or description contains the text (or matches "
        "a glob with * ?); category (+includeChildren) lists one category (and those below "
        "it); limit/offset page them. statistics adds each category's documents, passages "
        "(chunks) and concepts in the search index, and totals over all matches (the first "
        "such call may build the index). Set includeMembers to get each category's objects "
        "and morphisms too (paged with memberLimit/memberOffset). For one category's details "
        "use catdoc_show_category; for documents across categories use catdoc_list_objects; "
        "for counts of the whole library use catdoc_index_summary.",
    )
    def catdoc_list_categories(
        sortBy: Annotated[
            CategorySort,
            Field(
                description="Order: model (as in the model files), name (A–Z), objectCount or "
                "its alias popularity, documentCount, chunkCount, conceptCount (most first; "
                "these three read the search index). Ties keep the model order."
            ),
        ] = "model",
        filter: Annotated[
            str | None,
            Field(
                max_length=200,
                description="Keep categories whose id, name, an alias or the description "
                "contains this text (case-insensitive); with * or ? it is a glob that must "
                "match one of them whole, e.g. 'req*'.",
            ),
        ] = None,
        category: Annotated[
            str | None,
            Field(
                description="Only this category (id, exact name, or alias); with "
                "includeChildren also every category below it."
            ),
        ] = None,
        includeChildren: Annotated[
            bool,
            Field(
                description="With category: add the categories below it in the hierarchy. "
                "Refused without category (every category is listed then anyway)."
            ),
        ] = False,
        limit: Annotated[
            int, Field(ge=1, le=MAX_LIMIT, description=f"Categories per page, 1–{MAX_LIMIT}.")
        ] = 50,
        offset: Offset = 0,
        statistics: Annotated[
            bool,
            Field(
                description="Add each category's document, passage (chunk) and concept counts "
                "from the search index, and totals and averages over every matching category."
            ),
        ] = False,
        includeMembers: Annotated[
            bool,
            Field(description="Also return each category's objects and morphisms."),
        ] = False,
        memberLimit: MemberLimit = 100,
        memberOffset: MemberOffset = 0,
    ) -> CategoryList:
        version = svc.version()
        page = svc.browse_categories(
            sort_by=sortBy,
            filter=filter,
            category=category,
            include_children=includeChildren,
            limit=limit,
            offset=offset,
            statistics=statistics,
            include_members=includeMembers,
            member_limit=memberLimit,
            member_offset=memberOffset,
        )
        return versioned(CategoryList, version, page)

    @tool(
        name="catdoc_show_category",
        title="Show a category",
        description="Show one category: description, parent/children hierarchy, equations, "
        "its objects and morphisms (paged together with memberLimit/memberOffset; objectCount "
        "and morphismCount are the totals), and the functors into and out of it. Use it after "
        "catdoc_list_categories to explore a layer. For a single document use "
        "catdoc_show_object; to check the category's consistency use catdoc_validate_category. "
        "Unknown ids answer NOT_FOUND ('Category not found') with close ids.",
    )
    def catdoc_show_category(
        categoryId: CategoryRef, memberLimit: MemberLimit = 100, memberOffset: MemberOffset = 0
    ) -> CategoryView:
        version = svc.version()
        detail = svc.show_category(categoryId, limit=memberLimit, offset=memberOffset)
        return versioned(CategoryView, version, detail)

    # ------------------------------------------------------------------ objects
    @tool(
        name="catdoc_list_objects",
        title="List objects (documents)",
        description="List documents (objects) with their metadata: title, category, domain, "
        "path, tags, author, dates. Filter by domain, category and tags (all must match); "
        "paged with limit/offset (`total` counts all matches). Use it to browse or enumerate. "
        "To find documents about a topic use catdoc_search instead; for one document's text "
        "and links use catdoc_show_object.",
    )
    def catdoc_list_objects(
        domain: Annotated[str | None, Field(description="Only objects of this domain.")] = None,
        category: OptionalCategory = None,
        tags: Annotated[
            list[str] | None, Field(description="Only objects that carry all of these tags.")
        ] = None,
        limit: Limit = 50,
        offset: Offset = 0,
    ) -> r.Page[r.ObjectSummary]:
        return svc.list_objects(
            category=category, domain=domain, tags=tags or (), limit=limit, offset=offset
        )

    @tool(
        name="catdoc_show_object",
        title="Show an object (document)",
        description="Show one document: its metadata, its text (cut at maxChars; then "
        "`truncated` is true and `contentLength` gives the full length), its outgoing and "
        "incoming morphisms, its images under functors and where it is defined (file:line). "
        "Use it to read a document and see what it relates to. To find a document by topic "
        "use catdoc_search; for the path between two documents use catdoc_trace.",
    )
    def catdoc_show_object(
        objectId: ObjectId,
        maxChars: Annotated[
            int,
            Field(
                ge=1,
                le=MAX_CONTENT_CHARS,
                description="Cut the document text after this many characters.",
            ),
        ] = DEFAULT_CONTENT_CHARS,
    ) -> ObjectView:
        version = svc.version()
        return versioned(ObjectView, version, svc.show_object(objectId, max_chars=maxChars))

    @tool(
        name="catdoc_import_document",
        title="Import a document",
        description="Import one Markdown file of the project as an object. Its front matter "
        "(id, title, domain, author, tags; the rest becomes metadata) fills the object; "
        "`@object-id` references in the text are reported, and with link (default: the "
        "project's import.link setting) those to a document of the same category become "
        "'references' morphisms (listed in morphismsCreated). Writes `.catdoc/` YAML all or "
        "nothing, keeping comments and key order. Re-importing a file updates the object that "
        "already has its path (an unchanged file changes nothing); force is only needed when "
        "the front matter's id belongs to another object, which is then pointed at this file. "
        "Use it when the user adds or changes a Markdown file. Do NOT use it to read a "
        "document (catdoc_show_object), to create a document from text (catdoc_upsert_object) "
        "or for files outside the project (refused with PATH_OUTSIDE_PROJECT).",
        read_only=False,
        destructive=True,
        idempotent=True,
    )
    def catdoc_import_document(
        filePath: Annotated[
            str,
            Field(
                min_length=1,
                description="The Markdown file, relative to the project root "
                "(e.g. 'docs/requirements/auth.md').",
            ),
        ],
        domain: Annotated[
            str | None, Field(description="Domain to set when the front matter has none.")
        ] = None,
        category: Annotated[
            str | None,
            Field(description="Category to put the object in (default: from config/folder)."),
        ] = None,
        link: Annotated[
            bool | None,
            Field(
                description="Make same-category `@id` references morphisms (default: the "
                "project's import.link setting)."
            ),
        ] = None,
        force: Annotated[
            bool,
            Field(
                description="Let the front matter's id take over an object that has another "
                "document (without it such a file is skipped, with the reason)."
            ),
        ] = False,
    ) -> r.ImportResult:
        path = resolve_inside(svc.root, filePath)
        if not path.is_file():
            raise CatDocError(
                NOT_FOUND,
                f"File not found: {filePath!r}.",
                "Give the path of an existing file, relative to the project root.",
            )
        result = svc.import_documents(
            [str(path)],
            domain=domain,
            category=category,
            link=link,
            force=force,
            progress=tool_progress(),
        )
        for item in result.items:
            item.reason = item.reason and speak_mcp(item.reason)
        if result.skipped and not (result.created or result.updated or result.unchanged):
            reasons = "; ".join(item.reason or "skipped" for item in result.items)
            raise CatDocError(
                VALIDATION_ERROR,
                f"{filePath} was not imported: {reasons}; nothing was changed.",
                "Fix what the reason names, then import the file again.",
            )
        return result

    # ------------------------------------------------------------------ morphisms
    @tool(
        name="catdoc_list_morphisms",
        title="List morphisms (relationships)",
        description="List morphisms (typed relationships between two documents of one "
        "category, e.g. 'depends-on'), filtered by categoryId, source, target and name "
        "(all must match); paged with limit/offset. Use it to see what a document points to "
        "or which relationships of a type exist. For everything connected to one document "
        "catdoc_show_object is shorter; for indirect connections use catdoc_trace.",
    )
    def catdoc_list_morphisms(
        categoryId: OptionalCategory = None,
        source: Annotated[str | None, Field(description="Only morphisms from this object.")] = None,
        target: Annotated[str | None, Field(description="Only morphisms to this object.")] = None,
        name: Annotated[
            str | None, Field(description="Only morphisms of this type, e.g. 'depends-on'.")
        ] = None,
        limit: Limit = 50,
        offset: Offset = 0,
    ) -> r.Page[r.MorphismSummary]:
        return svc.list_morphisms(
            category=categoryId,
            source=source,
            target=target,
            name=name,
            limit=limit,
            offset=offset,
        )

    @tool(
        name="catdoc_show_morphism",
        title="Show a morphism",
        description="Show one morphism: its type, source and target documents (with titles), "
        "metadata, its images under functors and where it is defined. Use it when you have a "
        "morphism id (from catdoc_show_object or catdoc_list_morphisms). To list relationships "
        "use catdoc_list_morphisms instead.",
    )
    def catdoc_show_morphism(
        morphismId: Annotated[str, Field(min_length=1, description="Morphism id.")],
    ) -> r.MorphismDetail:
        return svc.show_morphism(morphismId)

    # ------------------------------------------------------------------ validation
    @tool(
        name="catdoc_validate",
        title="Validate the project",
        description="Check the whole project (all categories, functors and natural "
        "transformations), or one category with categoryId. Returns isValid, errors and "
        "warnings (each with a code, a message that says how to fix it, the ids involved and "
        "file:line) and a summary with counts. Use it after edits or when the user asks "
        "whether the documentation is consistent. For one functor or natural transformation "
        "use catdoc_validate_functor / catdoc_validate_natural_transformation.",
    )
    def catdoc_validate(categoryId: OptionalCategory = None) -> ValidationReport:
        version = svc.version()
        return versioned(ValidationReport, version, svc.validate(category=categoryId))

    @tool(
        name="catdoc_validate_category",
        title="Validate one category",
        description="Check one category's axioms: morphism sources/targets exist in it, "
        "identities are well formed, equations are well typed, the hierarchy is acyclic; "
        "missing composites are warnings. Use it when working on one layer. For the whole "
        "project use catdoc_validate.",
    )
    def catdoc_validate_category(categoryId: CategoryRef) -> Report:
        return svc.validate(category=categoryId)

    @tool(
        name="catdoc_validate_functor",
        title="Validate one functor",
        description="Check one functor: source/target categories exist, every object is "
        "mapped to an existing object, every generator to a well-typed path, identities and "
        "equations are preserved (reported as identity and composition preservation). Use it "
        "when checking traceability between two layers. For all functors at once use "
        "catdoc_validate; to see the mapping itself use catdoc_show_functor.",
    )
    def catdoc_validate_functor(
        functorId: Annotated[str, Field(min_length=1, description="Functor id.")],
    ) -> Report:
        svc.functor(functorId)
        return svc.validate(functor=functorId)

    @tool(
        name="catdoc_validate_natural_transformation",
        title="Validate one natural transformation",
        description="Check one natural transformation η: F ⇒ G: both functors exist and are "
        "parallel, there is a component η_A: F(A) → G(A) for every object A, and every "
        "naturality square commutes (undecidable squares are warnings). For everything at "
        "once use catdoc_validate; to see the components use "
        "catdoc_show_natural_transformation.",
    )
    def catdoc_validate_natural_transformation(
        id: Annotated[str, Field(min_length=1, description="Natural transformation id.")],
    ) -> Report:
        svc.natural_transformation(id)
        return svc.validate(natural_transformation=id)

    @tool(
        name="catdoc_suggest_mappings",
        title="Suggest functor mappings",
        description="Propose functor mappings from what the documents already say: an object "
        "a that a functor F does not map yet, whose document refers to (links, @mentions, "
        ":doc:/:pep: roles, a PEP's Requires/Replaces headers, metadata.related) an object b "
        "of F's target category, or is referred to by b's document (a design or test citing "
        "its requirement), gives F(a) = b, ranked by how many references support it, with "
        "their path:line; two categories with references across but no functor either way "
        "give one proposed functor with its mapping. Use it after an import or when "
        "catdoc_validate reports FUN_OBJECT_UNMAPPED. It changes nothing: "
        + (
            "apply a suggestion with catdoc_set_mapping (and catdoc_upsert_functor for a new "
            "functor) or the `catdoc` command it carries."
            if server.writes_allowed
            else "this server is read-only, so a suggestion is applied on the command line "
            "with the `catdoc` command it carries."
        ),
    )
    def catdoc_suggest_mappings(
        functorId: Annotated[
            str | None,
            Field(description="Only this functor's mappings (no new functors). Omit for all."),
        ] = None,
    ) -> Suggestions:
        return svc.suggest_mappings(functorId)

    # ------------------------------------------------------------------ tracing, search
    @tool(
        name="catdoc_trace",
        title="Trace paths between documents",
        description="Find how one document leads to another: paths of morphisms (and, across "
        "categories, functor hops) from sourceId to targetId, shortest first, at most `limit` "
        "paths of at most maxDepth hops. No path gives found: false, paths: [] and a message "
        "saying why (objects of two categories no functor connects) and what to try. Use it for "
        "impact or traceability questions ('which tests cover this requirement?'). For direct "
        "neighbours catdoc_show_object is enough.",
    )
    def catdoc_trace(
        sourceId: Annotated[str, Field(min_length=1, description="Object id to start from.")],
        targetId: Annotated[str, Field(min_length=1, description="Object id to reach.")],
        maxDepth: Annotated[int, Field(ge=1, le=50, description="Longest path, in hops.")] = 8,
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="Most paths to return.")] = 10,
        viaFunctors: Annotated[
            bool, Field(description="Also cross categories along functors.")
        ] = True,
    ) -> r.TraceResult:
        return svc.trace(
            sourceId, targetId, max_depth=maxDepth, limit=limit, via_functors=viaFunctors
        )

    @tool(
        name="catdoc_context",
        title="Show what surrounds a document",
        description="Everything within `depth` hops (1–5) of one document, along morphisms "
        "and functor mappings in both directions, nearest first: each reached document with "
        "its title, category, distance and how it was reached (the morphism or functor, and "
        "whether it points away from or at the document it came from). Use it for 'what "
        "specifies, implements and tests this requirement?' or 'what depends on this?' in one "
        "call. For the paths between two known documents use catdoc_trace; for a document's "
        "text use catdoc_show_object.",
    )
    def catdoc_context(
        objectId: ObjectId,
        depth: Annotated[
            int,
            Field(ge=1, le=MAX_CONTEXT_DEPTH, description="How many hops to go out, 1–5."),
        ] = 1,
        limit: Annotated[
            int,
            Field(
                ge=1,
                le=MAX_LIMIT,
                description="Most documents to return (then `truncated` is true).",
            ),
        ] = DEFAULT_CONTEXT_NODES,
    ) -> r.ContextResult:
        return svc.context(objectId, depth, limit=limit)

    @tool(
        name="catdoc_search",
        title="Search documents",
        description="Search the documents by meaning and keywords; results are ranked with a "
        "relevance score and a snippet. Use it whenever you need documents about a topic "
        "and do not know their ids, e.g. query 'password reset' (mode hybrid), query "
        '\'OAuth token expiry\' with filters {"category": "requirements"}, or query '
        "'rate limit' with scope 'chunks' to get the matching passages with heading, lines and "
        "passage number. Filters combine with AND: category (+includeChildren), domain, tags, "
        "author, path glob, fileType, source, since/until or period, object, chunkRange, "
        "clusterId, cardsOnly; category, tags, fileType and source also take a list, matching "
        'any of its values (e.g. {"tags": ["privacy", "gdpr"]}). Each hit carries its '
        "document's card (summary) and cluster; includeContent adds its text. Do NOT use it to "
        "list everything (catdoc_list_objects) or to read a whole known document "
        "(catdoc_show_object).",
    )
    def catdoc_search(
        query: Annotated[
            str, Field(min_length=1, max_length=2000, description="What to look for.")
        ],
        mode: Annotated[
            Literal["text", "hybrid", "vector"],
            Field(
                description="text: keywords only; hybrid: keywords and meaning; vector: "
                "meaning only."
            ),
        ] = "hybrid",
        scope: Annotated[
            Literal["documents", "chunks"],
            Field(description="documents: one hit per document; chunks: matching passages."),
        ] = "documents",
        filters: Annotated[
            r.SearchFilters | None,
            Field(description="Filters, combined with AND; a list value matches any of its items."),
        ] = None,
        domain: Annotated[str | None, Field(description="Shortcut for filters.domain.")] = None,
        limit: Annotated[
            int, Field(ge=1, le=MAX_LIMIT, description=f"Results per page, 1–{MAX_LIMIT}.")
        ] = 10,
        offset: Offset = 0,
        debug: Annotated[
            bool, Field(description="Include each ranking signal's contribution per hit.")
        ] = False,
        includeContent: Annotated[
            bool,
            Field(
                description="Put each hit's text in `content`: the passage (scope chunks), or "
                f"the document cut at {HIT_CONTENT_CHARS:,} characters (then `truncated` is "
                "true and `contentLength` gives the full length)."
            ),
        ] = False,
        includeClusters: Annotated[
            bool | None,
            Field(
                description="Give each hit its document's cluster (clusterId, clusterName). "
                "null (default): when the clusters are at hand; after a model change they "
                "are computed in the background and a note says the hits carry none yet. "
                "true: wait for them (seconds on a large library); false: never."
            ),
        ] = None,
    ) -> r.SearchResponse:
        chosen = filters or r.SearchFilters()
        if domain is not None:
            if chosen.domain not in (None, domain):
                raise CatDocError(
                    VALIDATION_ERROR,
                    f"domain {domain!r} contradicts filters.domain {chosen.domain!r}.",
                    "Give the domain once, either as domain or inside filters.",
                )
            chosen = chosen.model_copy(update={"domain": domain})
        return svc.search(
            query,
            mode=mode,
            scope=scope,
            filters=chosen,
            limit=limit,
            offset=offset,
            debug=debug,
            progress=tool_progress(),
            include_content=includeContent,
            include_clusters=includeClusters,
        )

    # ------------------------------------------------------------------ functors, NTs
    @tool(
        name="catdoc_list_functors",
        title="List functors",
        description="List functors (maps from one category to another, e.g. requirements → "
        "specifications: the traceability links between layers) with source and target "
        "categories and mapping sizes, in the model's order; paged with limit/offset "
        "(`total` counts them all; an empty page says why in `message`). Use it to see how "
        "layers are connected. For one functor's mapping use catdoc_show_functor.",
    )
    def catdoc_list_functors(limit: Limit = 50, offset: Offset = 0) -> r.FunctorPage:
        return svc.functor_page(limit=limit, offset=offset)

    @tool(
        name="catdoc_show_functor",
        title="Show a functor",
        description="Show one functor: its object mapping and morphism mapping (each paged "
        "with memberLimit/memberOffset), each entry with a verdict (ok, missing, error, "
        "warning) and problems, and whether identity and "
        "composition preservation hold. Use it to answer 'which design document implements "
        "this requirement?'. For all functors use catdoc_list_functors; for a full check use "
        "catdoc_validate_functor.",
    )
    def catdoc_show_functor(
        functorId: Annotated[str, Field(min_length=1, description="Functor id.")],
        memberLimit: MemberLimit = 100,
        memberOffset: MemberOffset = 0,
    ) -> FunctorView:
        version = svc.version()
        detail = svc.show_functor(functorId, limit=memberLimit, offset=memberOffset)
        return versioned(FunctorView, version, detail)

    @tool(
        name="catdoc_list_natural_transformations",
        title="List natural transformations",
        description="List natural transformations (consistent ways to go from one functor "
        "to another, e.g. from a v1 to a v2 traceability mapping) with their functors and "
        "component counts, in the model's order; paged with limit/offset (`total` counts "
        "them all; an empty page says why in `message`). Use it to see which mappings are "
        "related. For one transformation's components use catdoc_show_natural_transformation.",
    )
    def catdoc_list_natural_transformations(
        limit: Limit = 50, offset: Offset = 0
    ) -> r.NaturalTransformationPage:
        return svc.natural_transformation_page(limit=limit, offset=offset)

    @tool(
        name="catdoc_show_natural_transformation",
        title="Show a natural transformation",
        description="Show one natural transformation: source and target functors and "
        "categories, and its component for every object (paged with memberLimit/"
        "memberOffset), each with a verdict. For the list "
        "use catdoc_list_natural_transformations; to check naturality squares use "
        "catdoc_validate_natural_transformation.",
    )
    def catdoc_show_natural_transformation(
        id: Annotated[str, Field(min_length=1, description="Natural transformation id.")],
        memberLimit: MemberLimit = 100,
        memberOffset: MemberOffset = 0,
    ) -> NaturalTransformationView:
        version = svc.version()
        detail = svc.show_natural_transformation(id, limit=memberLimit, offset=memberOffset)
        return versioned(NaturalTransformationView, version, detail)

    # ------------------------------------------------------------------ graph
    @tool(
        name="catdoc_get_graph",
        title="Get graph data",
        description="Get the project (or one category) as a graph for describing or drawing "
        "it: nodes (id, label, type, metadata) and edges (id, source, target, label). At "
        "most `limit` nodes are returned, with the edges among them; `truncated` says when "
        "nodes were left out. Use it to visualise structure. For one document's neighbours "
        "use catdoc_show_object; for paths use catdoc_trace.",
    )
    def catdoc_get_graph(
        categoryId: OptionalCategory = None,
        limit: Annotated[
            int,
            Field(ge=1, le=MAX_GRAPH_NODES, description=f"Most nodes, 1–{MAX_GRAPH_NODES}."),
        ] = 500,
    ) -> GraphSlice:
        data = svc.graph(category=categoryId)
        nodes = data.nodes[:limit]
        if len(nodes) < len(data.nodes):
            kept = {node.id for node in nodes}
            edges = [e for e in data.edges if e.source in kept and e.target in kept]
        else:
            edges = data.edges
        return GraphSlice(
            nodes=nodes,
            edges=edges,
            total_nodes=len(data.nodes),
            total_edges=len(data.edges),
            truncated=len(nodes) < len(data.nodes),
        )
