"""Mapping suggestions: references across categories propose functor mappings and functors, in
the core, through `catdoc validate --suggest` and through a real MCP client session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client
from mcp_project import data_of, error_of
from test_adopt_links import write_tree
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.errors import NOT_FOUND, CatDocError
from catdoc.mcp_server import build_server
from catdoc.service import CatDoc

TREE = {
    "docs/specs/auth.md": (
        "---\nid: req-auth\n---\n# Auth\n\nServed by @des-api and [the API](../design/api.md);\n"
        "tokens live in @des-db.\n"
    ),
    "docs/specs/login.md": "---\nid: req-login\n---\n# Login\n\nSee {doc}`/design/api` (MyST).\n",
    "docs/specs/misc.md": "---\nid: req-misc\n---\n# Misc\n\nNothing across.\n",
    "docs/design/api.md": "---\nid: des-api\n---\n# API\n",
    "docs/design/db.md": "---\nid: des-db\n---\n# DB\n\nFor @req-auth.\n",
}


@pytest.fixture
def svc(tmp_path: Path) -> CatDoc:
    CatDoc.init(tmp_path, bare=True)
    for rel, text in TREE.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    svc = CatDoc(tmp_path)
    svc.import_documents(["docs"], link=True)
    return svc


def test_functors_are_proposed_for_categories_that_refer_across(svc: CatDoc) -> None:
    found = svc.suggest_mappings()
    assert found.mappings == []
    # One functor per pair of categories, from the side most references come from (specs cite
    # design 4 times, design cites specs once); its mapping counts references either way.
    assert [f.id for f in found.functors] == ["specs-to-design"]
    specs = found.functors[0]
    assert (specs.source_category, specs.target_category) == ("specs", "design")
    assert specs.object_mapping == {"req-auth": "des-api", "req-login": "des-api"}
    assert specs.references == 5
    assert specs.commands == [
        "catdoc add functor specs-to-design --from specs --to design",
        "catdoc map specs-to-design req-auth des-api",
        "catdoc map specs-to-design req-login des-api",
    ]


def test_unmapped_objects_get_ranked_images_with_evidence(svc: CatDoc) -> None:
    svc.upsert_functor("spec", source_category="specs", target_category="design")
    svc.set_mapping("spec", objects={"req-login": "des-api"})
    found = svc.suggest_mappings("spec")
    assert found.functors == []  # only the named functor's mappings
    got = [(s.source, s.target, s.references) for s in found.mappings]
    # req-auth cites des-db once and des-db cites req-auth once: two references join them
    assert got == [("req-auth", "des-api", 2), ("req-auth", "des-db", 2)]
    best = found.mappings[0]
    assert best.evidence == ["docs/specs/auth.md:6", "docs/specs/auth.md:6"]
    assert best.command == "catdoc map spec req-auth des-api"
    assert found.mappings[1].evidence == ["docs/specs/auth.md:7", "docs/design/db.md:6"]
    everything = svc.suggest_mappings()
    assert everything.functors == []  # spec joins the pair: its mappings take the references


def test_a_document_of_the_target_that_cites_the_source_proposes_a_mapping(
    svc: CatDoc, tmp_path: Path
) -> None:
    """Traceability the usual way round: the design names the requirement it answers."""
    (tmp_path / "docs/design/misc.md").write_text("# Misc\n\nImplements @req-misc.\n")
    svc.upsert_object("design", "des-misc", {"path": "docs/design/misc.md"})
    svc.upsert_functor("spec", source_category="specs", target_category="design")
    misc = [s for s in svc.suggest_mappings("spec").mappings if s.source == "req-misc"]
    assert [(s.target, s.references, s.evidence) for s in misc] == [
        ("des-misc", 1, ["docs/design/misc.md:3"])
    ]
    assert misc[0].command == "catdoc map spec req-misc des-misc"


def test_metadata_related_is_evidence_too(svc: CatDoc, tmp_path: Path) -> None:
    (tmp_path / "docs/specs/misc.md").unlink()
    svc.upsert_object("specs", "req-misc", {"metadata": {"related": ["des-db", "nowhere"]}})
    svc.upsert_functor("spec", source_category="specs", target_category="design")
    found = svc.suggest_mappings("spec")
    misc = [s for s in found.mappings if s.source == "req-misc"]
    assert [(s.target, s.references) for s in misc] == [("des-db", 1)]
    assert misc[0].evidence[0].startswith("metadata.related (.catdoc/category.yaml:")


def test_an_unknown_functor_is_not_found_with_close_ids(svc: CatDoc) -> None:
    svc.upsert_functor("spec", source_category="specs", target_category="design")
    with pytest.raises(CatDocError) as info:
        svc.suggest_mappings("spek")
    assert info.value.code == NOT_FOUND and info.value.suggestions == ["spec"]


def test_cli_validate_suggest_text_and_json(svc: CatDoc, tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["-C", str(tmp_path), "validate"]
    plain = runner.invoke(app, base)
    assert plain.exit_code == 0 and "Suggested" not in plain.stdout
    text = runner.invoke(app, [*base, "--suggest"])
    assert text.exit_code == 0, text.output
    assert "Suggested functor specs-to-design: specs → design (5 references, 2 mappings)" in (
        text.stdout
    )
    assert "catdoc map specs-to-design req-auth des-api" in text.stdout
    data = json.loads(runner.invoke(app, [*base, "--suggest", "--format", "json"]).stdout)
    assert data["isValid"] is True
    assert data["suggestions"]["functors"][0]["objectMapping"]["req-login"] == "des-api"

    runner.invoke(
        app, ["-C", str(tmp_path), "add", "functor", "spec", "--from", "specs", "--to", "design"]
    )
    failing = runner.invoke(app, [*base, "--suggest", "--functor", "spec"])
    assert failing.exit_code == 1  # the report decides the exit status, not the suggestions
    assert "spec: req-auth ↦ des-api  (2 references: docs/specs/auth.md:6" in failing.stdout
    missing = runner.invoke(app, [*base, "--suggest", "--functor", "nope"])
    assert missing.exit_code == 2 and "not found" in missing.output.lower()


@pytest.mark.anyio
async def test_mcp_suggest_mappings_and_bare_init(svc: CatDoc, tmp_path: Path) -> None:
    async with Client(build_server(CatDoc(tmp_path))) as client:
        data = data_of(await client.call_tool("catdoc_suggest_mappings", {}))
        assert data["functors"][0]["id"] == "specs-to-design"
        assert data["functors"][0]["commands"][0].startswith("catdoc add functor")
        error = error_of(await client.call_tool("catdoc_suggest_mappings", {"functorId": "x"}))
        assert error["code"] == "NOT_FOUND"
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert tools["catdoc_suggest_mappings"].annotations.read_only_hint is True
        nested = {"directory": "fresh", "bare": True, "force": True}  # inside the served one
        made = data_of(await client.call_tool("catdoc_init", nested))
        assert ".catdoc/docs/example.md" not in made["created"]
    assert (
        (tmp_path / "fresh/.catdoc/category.yaml").read_text().rstrip().endswith("categories: []")
    )


def test_an_image_the_mapped_morphisms_rule_out_is_not_proposed(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / "docs").mkdir()
    text = "See [b3](b3.md) and [b3 again](b3.md), [b1](b1.md).\n"
    (tmp_path / "docs" / "a1.md").write_text(text)
    for name in ("a2", "b1", "b2", "b3"):
        (tmp_path / "docs" / f"{name}.md").write_text(f"# {name}\n")
    (tmp_path / ".catdoc" / "category.yaml").write_text(
        "categories:\n"
        "  - id: A\n"
        "    objects: [{id: a1, path: docs/a1.md}, {id: a2, path: docs/a2.md}]\n"
        "    morphisms: [{id: f, source: a1, target: a2}]\n"
        "  - id: B\n"
        "    objects: [{id: b1, path: docs/b1.md}, {id: b2, path: docs/b2.md},"
        " {id: b3, path: docs/b3.md}]\n"
        "    morphisms: [{id: g, source: b1, target: b2}]\n"
        "functors:\n"
        "  - {id: F, sourceCategory: A, targetCategory: B, objectMapping: {a2: b2},"
        " morphismMapping: {f: g}}\n"
    )
    svc = CatDoc(tmp_path)
    proposed = [(s.source, s.target) for s in svc.suggest_mappings("F").mappings]
    assert proposed == [("a1", "b1")]  # F(f) = g forces F(a1) = b1, however often b3 is cited
    svc.set_mapping("F", objects={"a1": "b1"})
    assert svc.validate().is_valid  # taking the suggestion keeps the functor typed


def test_references_back_from_the_target_keep_to_the_forced_image(tmp_path: Path) -> None:
    """b3's document cites a1 three times, b1's once: F(f) = g still forces F(a1) = b1."""
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "b3.md").write_text("For [a1](a1.md), [a1](a1.md), [a1](a1.md).\n")
    (tmp_path / "docs" / "b1.md").write_text("For [a1](a1.md).\n")
    for name in ("a1", "a2", "b2"):
        (tmp_path / "docs" / f"{name}.md").write_text(f"# {name}\n")
    (tmp_path / ".catdoc" / "category.yaml").write_text(
        "categories:\n"
        "  - id: A\n"
        "    objects: [{id: a1, path: docs/a1.md}, {id: a2, path: docs/a2.md}]\n"
        "    morphisms: [{id: f, source: a1, target: a2}]\n"
        "  - id: B\n"
        "    objects: [{id: b1, path: docs/b1.md}, {id: b2, path: docs/b2.md},"
        " {id: b3, path: docs/b3.md}]\n"
        "    morphisms: [{id: g, source: b1, target: b2}]\n"
        "functors:\n"
        "  - {id: F, sourceCategory: A, targetCategory: B, objectMapping: {a2: b2},"
        " morphismMapping: {f: g}}\n"
    )
    svc = CatDoc(tmp_path)
    found = svc.suggest_mappings("F").mappings
    assert [(s.source, s.target, s.references) for s in found] == [("a1", "b1", 1)]
    svc.set_mapping("F", objects={"a1": "b1"})
    assert svc.validate().is_valid


def write_two_categories(root: Path, texts: dict[str, str], a: str, b: str) -> None:
    """The files `texts` and a model of two categories, A and B, whose `objects` are `a` and
    `b` (YAML flow lists), and no functor."""
    (root / ".catdoc").mkdir()
    write_tree(root, texts)
    (root / ".catdoc" / "category.yaml").write_text(
        f"categories:\n  - id: A\n    objects: {a}\n  - id: B\n    objects: {b}\n"
    )


def write_included(root: Path, fragment: str, extra: dict[str, str]) -> None:
    """`auth` (category A) refers to label `limits`, which `fragment` defines; `api` (B)
    includes it, and the fragment has an object of its own (made before it was one)."""
    texts = {
        **extra,
        "docs/auth.rst": "Auth\n====\n\nBounded by :ref:`limits`.\n",
        "docs/api.rst": f"API\n===\n\n.. include:: {fragment.removeprefix('docs/')}\n",
        fragment: ".. _limits:\n\nLimits\n------\n",
    }
    write_two_categories(
        root,
        texts,
        "[{id: auth, path: docs/auth.rst}]",
        f"[{{id: api, path: docs/api.rst}}, {{id: limits, path: {fragment}}}]",
    )


def test_a_label_of_an_included_file_is_evidence_for_its_includer(tmp_path: Path) -> None:
    """As in an import: `limits` is defined in a fragment, so `:ref:` names the page that
    includes it; the fragment's own object (made before it was one) does not compete."""
    write_included(tmp_path, "docs/parts/limits.txt", {})
    found = CatDoc(tmp_path).suggest_mappings()
    assert [(f.id, f.object_mapping) for f in found.functors] == [("a-to-b", {"auth": "api"})]


def test_a_page_sphinx_builds_is_no_fragment_for_suggestions(tmp_path: Path) -> None:
    """As in an import: a Sphinx project builds the included `limits.rst` as a page of its own,
    so its label is its own too, and `:ref:` is ambiguous: evidence for neither."""
    write_included(tmp_path, "docs/parts/limits.rst", {"docs/conf.py": "project = 'x'\n"})
    assert CatDoc(tmp_path).suggest_mappings().functors == []
    (tmp_path / "docs/conf.py").unlink()  # no Sphinx project: a fragment, as before
    found = CatDoc(tmp_path).suggest_mappings()
    assert [(f.id, f.object_mapping) for f in found.functors] == [("a-to-b", {"auth": "api"})]


def test_a_myst_link_to_a_label_is_evidence_as_in_an_import(tmp_path: Path) -> None:
    """MyST-Parser reads `[](source-files:repository)` and `[](#limits)` as labels in a page a
    Sphinx project builds (sphinx-book-theme's `reference.md`); the same text outside one is a
    URL and an anchor of the page itself."""
    texts = {
        "docs/conf.py": "extensions = ['myst_parser']\n",
        "docs/a/auth.md": "# Auth\n\nSee [](source-files:repository) and [](#limits).\n",
        "docs/b/api.md": "(source-files:repository)=\n# API\n\n(limits)=\n## Limits\n",
    }
    write_two_categories(
        tmp_path,
        texts,
        "[{id: auth, path: docs/a/auth.md}]",
        "[{id: api, path: docs/b/api.md}]",
    )
    found = CatDoc(tmp_path).suggest_mappings()
    assert [(f.id, f.object_mapping, f.references) for f in found.functors] == [
        ("a-to-b", {"auth": "api"}, 2)
    ]
    (tmp_path / "docs/conf.py").unlink()
    assert CatDoc(tmp_path).suggest_mappings().functors == []


def test_a_mystmd_page_is_read_as_an_import_reads_it(tmp_path: Path) -> None:
    """In a page of a mystmd project (`myst.yml`) `@limits` names the page whose heading
    `(limits)=` labels, `[](#setup)` the page whose heading slugs to `setup`, `@front` the page
    whose front matter says `label: front`, and `@knuth1984` is a citation, no reference:
    the evidence an import of the same pages links."""
    texts = {
        "book/myst.yml": "version: 1\nproject:\n  title: Book\n",
        "book/a/auth.md": "# Auth\n\nSee @limits, [](#setup), @front and @knuth1984.\n",
        "book/b/api.md": "# API\n\n(limits)=\n## Limits\n\n## Setup\n",
        "book/b/intro.md": "---\nlabel: front\n---\n# Intro\n",
    }
    write_two_categories(
        tmp_path,
        texts,
        "[{id: auth, path: book/a/auth.md}]",
        "[{id: api, path: book/b/api.md}, {id: intro, path: book/b/intro.md}]",
    )
    found = CatDoc(tmp_path).suggest_mappings()
    assert [(f.id, f.references) for f in found.functors] == [("a-to-b", 3)]
    assert found.functors[0].object_mapping == {"auth": "api"}
    (tmp_path / "book/myst.yml").unlink()  # plain Markdown: unknown mentions, no anchors
    assert CatDoc(tmp_path).suggest_mappings().functors == []
