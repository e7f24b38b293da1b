"""Browsing the library through the service and the CLI: categories sorted, filtered and paged
with statistics; the index summary; a document's structure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browse_project import copy_example, make_browse_project
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc import results as r
from catdoc.cli import app
from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.service import CatDoc
from catdoc.service_browse import CATEGORY_SORTS

MODEL_ORDER = ["engineering", "backend", "frontend", "ops", "archive"]


@pytest.fixture
def svc(tmp_path: Path) -> CatDoc:
    return CatDoc(make_browse_project(tmp_path / "proj"))


def ids(page: r.CategoryPage) -> list[str]:
    return [c.id for c in page.categories]


# --------------------------------------------------------------------------- list categories
def test_plain_listing_keeps_the_model_order_and_the_old_call(svc: CatDoc) -> None:
    page = svc.browse_categories()
    assert ids(page) == MODEL_ORDER and page.total == 5 and page.sort_by == "model"
    assert page.statistics is None and all(c.statistics is None for c in page.categories)
    assert [c.id for c in svc.list_categories()] == MODEL_ORDER


def test_sort_by_name_and_by_object_count(svc: CatDoc) -> None:
    assert ids(svc.browse_categories(sort_by="name")) == [
        "archive",
        "backend",
        "engineering",
        "frontend",
        "ops",
    ]
    by_objects = ids(svc.browse_categories(sort_by="objectCount"))
    assert by_objects == ["backend", "engineering", "frontend", "ops", "archive"]
    assert ids(svc.browse_categories(sort_by="popularity")) == by_objects


def test_sort_by_index_counts_brings_statistics(svc: CatDoc) -> None:
    page = svc.browse_categories(sort_by="chunkCount")
    assert ids(page)[:2] == ["backend", "engineering"]
    stats = {c.id: c.statistics for c in page.categories}
    assert stats["backend"] == r.CategoryStatistics(
        document_count=2, chunk_count=6, concept_count=stats["backend"].concept_count
    )
    assert stats["frontend"].document_count == 0  # its file is missing
    assert page.statistics is not None and page.statistics.chunks == 7
    by_documents = svc.browse_categories(sort_by="documentCount")
    assert ids(by_documents) == ["backend", "engineering", "frontend", "ops", "archive"]


def test_sort_by_concept_count_agrees_with_the_concept_lists(svc: CatDoc) -> None:
    page = svc.browse_categories(sort_by="conceptCount")
    counts = {c.id: c.statistics.concept_count for c in page.categories if c.statistics}
    assert list(counts.values()) == sorted(counts.values(), reverse=True) and len(counts) == 5
    for ident, n in counts.items():
        assert svc.list_concepts(category=ident, limit=1).total == n
    assert counts["backend"] > 0 and counts["archive"] == 0
    assert page.statistics is not None and page.statistics.concepts == sum(counts.values())


def test_aggregate_statistics_cover_every_match_not_only_the_page(svc: CatDoc) -> None:
    page = svc.browse_categories(statistics=True, limit=2)
    assert len(page.categories) == 2 and page.total == 5
    totals = page.statistics
    assert totals is not None
    assert (totals.categories, totals.objects, totals.morphisms) == (5, 5, 1)
    assert (totals.documents, totals.chunks) == (3, 7)
    assert totals.average_objects_per_category == 1.0
    assert totals.average_chunks_per_category == 1.4
    assert totals.most_popular_category == "backend"
    assert totals.least_popular_category == "archive"
    assert totals.concepts >= 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("END", ["backend", "frontend"]),  # substring of ids and names, any case
        ("eng", ["engineering"]),  # alias and id
        ("storage", ["backend"]),  # description
        ("payment", ["ops"]),
        ("*end", ["backend", "frontend"]),  # glob over the whole id
        ("Back*", ["backend"]),  # glob over the whole name
        ("  ", MODEL_ORDER),  # blank: no filter
    ],
)
def test_filter(svc: CatDoc, text: str, expected: list[str]) -> None:
    assert ids(svc.browse_categories(filter=text)) == expected


def test_empty_answers_say_why(svc: CatDoc, tmp_path: Path) -> None:
    page = svc.browse_categories(filter="zzz")
    assert page.categories == [] and page.total == 0
    assert page.message and "'zzz'" in page.message and "leave it out" in page.message
    past = svc.browse_categories(offset=10)
    assert past.total == 5 and past.message and "page from 0" in past.message
    empty = tmp_path / "empty"
    CatDoc.init(empty, bare=True)
    nothing = CatDoc(empty).browse_categories()
    assert nothing.total == 0 and nothing.message and "import" in nothing.message


def test_category_with_and_without_children(svc: CatDoc) -> None:
    assert ids(svc.browse_categories(category="eng")) == ["engineering"]
    tree = svc.browse_categories(category="engineering", include_children=True, sort_by="name")
    assert ids(tree) == ["backend", "engineering", "frontend"]
    with pytest.raises(CatDocError) as caught:
        svc.browse_categories(include_children=True)
    assert caught.value.code == VALIDATION_ERROR and "category" in caught.value.hint
    with pytest.raises(CatDocError) as missing:
        svc.browse_categories(category="backnd")
    assert missing.value.code == NOT_FOUND and "backend" in missing.value.suggestions


def test_members_are_paged_with_member_offset(svc: CatDoc) -> None:
    page = svc.browse_categories(
        category="backend", include_members=True, member_limit=1, member_offset=1
    )
    (backend,) = page.categories
    assert isinstance(backend, r.CategoryItemDetail)
    assert [o.id for o in backend.objects] == ["db-notes"] and backend.object_count == 2
    assert backend.morphisms == []  # one morphism: offset 1 is past it


@pytest.mark.parametrize(
    "arguments",
    [
        {"sort_by": "size"},
        {"limit": 0},
        {"limit": 201},
        {"offset": -1},
        {"member_limit": 0},
        {"member_offset": -3},
    ],
)
def test_bad_arguments_are_validation_errors(svc: CatDoc, arguments: dict[str, object]) -> None:
    with pytest.raises(CatDocError) as caught:
        svc.browse_categories(**arguments)  # type: ignore[arg-type]
    assert caught.value.code == VALIDATION_ERROR and caught.value.hint


@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> CatDoc:
    """Twelve categories of different sizes, names that share letters, some without text."""
    root = tmp_path_factory.mktemp("wide")
    lines = ["categories:"]
    (root / "docs").mkdir()
    for n in range(12):
        lines += [f"  - id: c{n:02d}", f"    name: {'ab'[n % 2]}{'xy'[n % 3 % 2]} {n % 4}"]
        lines += ["    objects:"] if n % 5 else ["    objects: []"]
        for k in range(n % 5):
            doc = f"docs/c{n}-{k}.md"
            body = "# T\n\ntext\n" + "".join(f"\n## S{j}\n\nmore\n" for j in range(n % 3))
            (root / doc).write_text(body, encoding="utf-8")
            path = f"path: {doc}" if k % 2 == 0 else "content: inline words"
            lines += [f"      - id: o{n}-{k}", f"        {path}"]
    (root / ".catdoc").mkdir()
    (root / ".catdoc" / "category.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return CatDoc(root)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    sort_by=st.sampled_from(CATEGORY_SORTS),
    needle=st.sampled_from([None, "a", "X", "1", "c0", "*y*", "b?"]),
    limit=st.integers(1, 13),
)
def test_paging_gives_each_category_once_in_the_order_asked(
    wide: CatDoc, sort_by: str, needle: str | None, limit: int
) -> None:
    first = wide.browse_categories(sort_by=sort_by, filter=needle, limit=limit, statistics=True)
    seen: list[r.CategoryItem | r.CategoryItemDetail] = list(first.categories)
    offset = limit
    while offset < first.total:
        page = wide.browse_categories(sort_by=sort_by, filter=needle, limit=limit, offset=offset)
        assert page.total == first.total and len(page.categories) <= limit
        seen += page.categories
        offset += limit
    model = [c.id for c in wide.browse_categories(limit=200).categories]
    wanted = [c.id for c in wide.project().categories if needle is None or _matches(c, needle)]
    assert sorted(c.id for c in seen) == sorted(wanted) == sorted(set(wanted))
    stats = {c.id: c.statistics for c in first.categories}
    full = {c.id: c for c in wide.browse_categories(statistics=True, limit=200).categories}

    def key(ident: str) -> tuple[object, int]:
        item = full[ident]
        counts = item.statistics
        assert counts is not None
        value: object = {
            "model": 0,
            "name": (item.name.casefold(), item.id),
            "objectCount": -item.object_count,
            "popularity": -item.object_count,
            "documentCount": -counts.document_count,
            "chunkCount": -counts.chunk_count,
            "conceptCount": -counts.concept_count,
        }[sort_by]
        return value, model.index(ident)

    order = [c.id for c in seen]
    assert order == sorted(order, key=key)
    assert all(stats[i] is not None for i in stats)


def _matches(cat: object, needle: str) -> bool:
    from catdoc.service_browse import category_matches

    return category_matches(cat, needle)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- index summary
def test_summary_levels(svc: CatDoc) -> None:
    first = svc.index_summary()
    assert first.detail == "basic" and first.categories is None and first.sizes is None
    assert first.state.up_to_date is False and first.state.pending == 5  # built by this call
    counts = first.counts
    assert (counts.objects, counts.documents, counts.passages) == (5, 3, 7)
    assert (counts.unreadable, counts.without_text) == (1, 1)  # ui-missing, ops-abstract
    assert (counts.categories, counts.morphisms, counts.functors) == (5, 1, 0)
    assert counts.natural_transformations == 0
    assert svc.index_summary().state.up_to_date is True

    detailed = svc.index_summary("detailed")
    assert detailed.categories is not None and detailed.sizes is None
    backend = next(c for c in detailed.categories if c.id == "backend")
    assert (backend.objects, backend.documents, backend.passages) == (2, 2, 6)
    assert backend.morphisms is None
    assert detailed.file_types == {"md": 2, "": 1}  # documents with text: they add up to 3
    assert detailed.dates is not None
    assert str(detailed.dates.oldest_document) == "2024-03-01"
    assert str(detailed.dates.newest_document) == "2025-06-30"
    assert detailed.dates.last_index_write is not None
    assert detailed.state.schema_version and detailed.state.vectors is None

    full = svc.index_summary("comprehensive")
    assert full.sizes is not None and full.sizes.index_bytes > 0
    assert full.sizes.document_bytes == sum(
        (svc.root / "docs" / name).stat().st_size for name in ("overview.md", "api.md")
    )
    assert full.state.unreadable_documents == 1 and full.state.documents_without_text == 1
    vectors = {v.scope: (v.present, v.missing) for v in full.state.vectors or []}
    assert vectors["chunks"][0] + vectors["chunks"][1] == 7
    assert next(c for c in full.categories or [] if c.id == "backend").morphisms == 1


def test_summary_counts_agree_and_name_what_cannot_be_read(svc: CatDoc) -> None:
    """A missing file is neither a document nor one of its file type: the counts add up, and
    the message says which object it is and why."""
    summary = svc.index_summary("detailed")
    n = summary.counts
    assert sum((summary.file_types or {}).values()) == n.documents
    assert n.objects == n.documents + n.unreadable + n.without_text
    assert summary.message is not None
    assert "1 of the 5 objects has a document file that cannot be read" in summary.message
    assert "ui-missing (Document file not found: docs/missing.md)" in summary.message
    (svc.root / "docs" / "api.md").unlink()
    again = CatDoc(svc.root).index_summary("detailed")
    assert (again.counts.documents, again.counts.unreadable) == (2, 2)
    assert again.file_types == {"md": 1, "": 1}
    assert again.message and "2 of the 5 objects have document files" in again.message
    assert "api-guide (" in again.message and "ui-missing (" in again.message


def test_summary_sees_changed_documents(svc: CatDoc) -> None:
    svc.index_summary()
    (svc.root / "docs" / "api.md").write_text("# API guide\n\nRewritten.\n", encoding="utf-8")
    fresh = CatDoc(svc.root).index_summary()
    assert fresh.state.pending == 1 and fresh.counts.passages == 3


def test_summary_of_an_empty_project_says_so(tmp_path: Path) -> None:
    CatDoc.init(tmp_path / "empty", bare=True)
    result = CatDoc(tmp_path / "empty").index_summary("comprehensive")
    assert result.counts.objects == 0 and result.message and "import" in result.message


def test_summary_rejects_an_unknown_detail(svc: CatDoc) -> None:
    with pytest.raises(CatDocError) as caught:
        svc.index_summary("everything")
    assert caught.value.code == VALIDATION_ERROR and "comprehensive" in caught.value.hint


# --------------------------------------------------------------------------- structure
def test_structure_is_the_heading_tree_with_line_ranges(svc: CatDoc) -> None:
    doc = svc.document_structure("api-guide")
    assert (doc.title, doc.path, doc.category) == ("API guide", "docs/api.md", "backend")
    assert (doc.section_count, doc.passage_count, doc.line_count) == (5, 5, 19)
    outline = [
        (s.heading_path[-1], s.level, s.parent, s.start_line, s.end_line) for s in doc.sections
    ]
    assert outline == [
        ("API guide", 1, None, 1, 19),
        ("Authentication", 2, 0, 5, 15),
        ("Tokens", 3, 1, 9, 11),
        ("Keys", 3, 1, 13, 15),
        ("Errors", 2, 0, 17, 19),
    ]
    assert [s.passage_count for s in doc.sections] == [5, 3, 1, 1, 1]
    tokens = doc.passages[2]
    assert tokens.heading_path == ["API guide", "Authentication", "Tokens"]
    assert (tokens.section, tokens.start_line, tokens.end_line) == (2, 9, 11)
    text = (svc.root / "docs" / "api.md").read_text(encoding="utf-8").splitlines()
    assert text[tokens.start_line - 1] == "### Tokens"
    assert doc.message is None


def test_structure_pages_passages_but_keeps_every_section(svc: CatDoc) -> None:
    page = svc.document_structure("api-guide", limit=2, offset=2)
    assert [p.index for p in page.passages] == [2, 3] and page.section_count == 5
    assert len(page.sections) == 5
    past = svc.document_structure("api-guide", offset=9)
    assert past.passages == [] and past.message and "page from 0" in past.message


def test_structure_of_documents_without_a_readable_text(svc: CatDoc) -> None:
    inline = svc.document_structure("db-notes")
    assert inline.passage_count == 1 and inline.sections == [] and inline.passages[0].chars > 0
    idea = svc.document_structure("ops-abstract")
    assert idea.passage_count == 0 and idea.message and "neither a file" in idea.message
    assert "Use `catdoc show object` (MCP: catdoc_show_object)" in idea.message
    missing = svc.document_structure("ui-missing")
    assert missing.message and "could not be read" in missing.message
    assert "Make it a readable UTF-8 text file, or give the object the path of one." in (
        missing.message
    )


def test_structure_of_an_unknown_id_suggests_close_ones(svc: CatDoc) -> None:
    with pytest.raises(CatDocError) as caught:
        svc.document_structure("api-gide")
    assert caught.value.code == NOT_FOUND and "api-guide" in caught.value.suggestions


def test_structure_on_the_traceability_example(tmp_path: Path) -> None:
    example = CatDoc(copy_example("traceability", tmp_path / "t"))
    doc = example.document_structure("req-cart")
    assert doc.sections[0].heading_path == ["Shopping cart"] and doc.section_count >= 2
    assert all(p.start_line and p.end_line and p.start_line <= p.end_line for p in doc.passages)
    summary = example.index_summary("detailed")
    assert summary.counts.objects == 22 and summary.counts.documents == 22
    assert sum(c.passages for c in summary.categories or []) == summary.counts.passages
    listing = example.browse_categories(sort_by="documentCount", statistics=True)
    assert ids(listing)[0] == "tests" and listing.statistics is not None
    assert listing.statistics.documents == 22


# --------------------------------------------------------------------------- CLI
def run(root: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["-C", str(root), *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_list_categories_options(svc: CatDoc) -> None:
    code, out, _ = run(svc.root, "list", "categories", "--sort", "name", "-n", "2", "-f", "json")
    data = json.loads(out)
    assert code == 0 and [c["id"] for c in data["categories"]] == ["archive", "backend"]
    assert data["total"] == 5 and data["sortBy"] == "name"
    code, out, _ = run(svc.root, "list", "categories", "--statistics", "--sort", "chunkCount")
    assert code == 0 and "Passages" in out and "Totals: 5 objects, 3 documents, 7 passages" in out
    code, out, _ = run(svc.root, "list", "categories", "--filter", "zzz")
    assert code == 0 and "No category matches" in out
    code, _, err = run(svc.root, "list", "categories", "--include-children")
    assert code == 2 and "needs a category" in err


def test_cli_summary_and_structure(svc: CatDoc) -> None:
    code, out, _ = run(svc.root, "summary", "--detail", "comprehensive", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["counts"]["passages"] == 7 and data["sizes"]["indexBytes"] > 0
    code, out, _ = run(svc.root, "summary")
    assert code == 0 and "Passages" in out and "up to date" in out
    words = " ".join(out.split())  # however narrow the table is wrapped
    assert "3 with text; 1 object's file cannot be read, 1 object has no text" in words
    assert "ui-missing (Document file not found: docs/missing.md)" in words
    code, out, _ = run(svc.root, "summary", "--detail", "detailed")
    assert code == 0 and "md 2, (inline) 1" in " ".join(out.split())
    code, out, _ = run(svc.root, "structure", "api-guide")
    assert code == 0 and "### Tokens" in out and "lines 9–11" in out
    code, out, _ = run(svc.root, "structure", "api-guide", "--format", "json")
    assert json.loads(out)["sectionCount"] == 5
    code, _, err = run(svc.root, "structure", "api-gide")
    assert code == 2 and "api-guide" in err
