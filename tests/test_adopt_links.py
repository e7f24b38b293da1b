"""Adopting a docs tree links it: roles resolve to documents and become morphisms named after the
role, references into other categories are kept as `related`, and the example model of
`catdoc init` gives way to the first import (or `init --bare` starts without it)."""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc import includes
from catdoc.cli import app
from catdoc.errors import CatDocError
from catdoc.includes import (
    MAX_DEPTH,
    MAX_INCLUDES,
    Clip,
    IncludeReader,
    Selection,
    includes_in,
)
from catdoc.includes import _tag_directive as _tag_line
from catdoc.model import ImportConfig, check_role_rule
from catdoc.project import load_project
from catdoc.scaffold import template_text
from catdoc.service import CatDoc

MODEL = ".catdoc/category.yaml"
PEPS = Path(__file__).resolve().parent / "fixtures" / "peps"

SPHINX = {
    "docs/index.rst": (
        "Welcome\n=======\n\nStart with :doc:`guide/install` and :doc:`/guide/usage`.\n"
        "Also :doc:`Installing <guide/install>` again, :pep:`8`, :rfc:`2822`, and\n"
        ":class:`Foo` or :func:`bar` (code, not documents).\n"
    ),
    "docs/guide/install.rst": (
        ".. _install-steps:\n\nInstall\n=======\n\nThen read :doc:`usage` and :ref:`Usage notes "
        "<usage notes>`.\nBack to :doc:`../index` and :doc:`install` (itself).\n"
    ),
    "docs/guide/usage.rst": (
        ".. _Usage   Notes:\n\nUsage\n=====\n\nSee :ref:`install-steps`, :doc:`install.rst` and "
        ":doc:`missing`.\n"
    ),
    "docs/peps/pep-0008.rst": "PEP: 8\nTitle: Style\n\nText.\n",
    "docs/rfcs/rfc2822.txt": "RFC 2822\n\nInternet Message Format.\n",
}


def statuses_where(result: Any, keep: Callable[[str], bool]) -> dict[tuple[str, str], str]:
    """(source, target) → status of an import's references whose target `keep` takes."""
    return {(r["source"], r["target"]): r["status"] for r in result.references if keep(r["target"])}


def write_tree(root: Path, tree: dict[str, str]) -> None:
    for rel, text in tree.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def bare(tmp_path: Path) -> CatDoc:
    CatDoc.init(tmp_path, bare=True)
    write_tree(tmp_path, SPHINX)
    return CatDoc(tmp_path)


def statuses(result) -> dict[tuple[str, str | None, str], str]:
    return {(r["source"], r["role"], r["target"]): r["status"] for r in result.references}


def test_roles_resolve_to_documents_and_become_morphisms(bare: CatDoc, tmp_path: Path) -> None:
    result = bare.import_documents(["docs"], link=True, category="manual")
    got = statuses(result)
    assert got[("index", "doc", "guide/install")] == "linked"
    assert got[("index", "doc", "/guide/usage")] == "linked"  # from the docs root
    assert got[("index", "pep", "8")] == "linked"  # pep-{target:0>4} → file stem pep-0008
    assert got[("index", "rfc", "2822")] == "linked"
    assert got[("install", "ref", "usage notes")] == "linked"  # label case and spaces folded
    assert got[("install", "doc", "../index")] == "linked"
    assert got[("install", "doc", "install")] == "self"
    assert got[("usage", "doc", "install.rst")] == "linked"
    assert got[("usage", "doc", "missing")] == "unresolved"
    assert not any(r["role"] in ("class", "func") for r in result.references)
    assert sorted(result.morphisms_created) == [
        "index-doc-install",  # written twice, linked once
        "index-doc-usage",
        "index-pep-pep-0008",
        "index-rfc-rfc2822",
        "install-doc-index",
        "install-doc-usage",
        "install-ref-usage",
        "usage-doc-install",
        "usage-ref-install",
    ]
    mor = bare.morphism("index-pep-pep-0008")
    assert (mor.name, mor.source, mor.target) == ("pep", "index", "pep-0008")
    assert bare.validate().is_valid

    before = (tmp_path / MODEL).read_bytes()
    again = bare.import_documents(["docs"], link=True, category="manual")
    assert again.written == [] and again.morphisms_created == []
    assert statuses(again)[("index", "pep", "8")] == "already-linked"
    assert (tmp_path / MODEL).read_bytes() == before


def test_roles_follow_config(bare: CatDoc, tmp_path: Path) -> None:
    config = tmp_path / ".catdoc/config.yaml"
    config.write_text(
        config.read_text().replace(
            "import:\n",
            "import:\n  roles:\n    pep: 'rfc{target}'\n    doc: null\n    class: label\n"
            "  docsRoot: docs/guide\n",
        )
    )
    write_tree(tmp_path, {"docs/api.rst": ".. _Foo:\n\nAPI\n===\n"})
    result = CatDoc(tmp_path).import_documents(["docs"], link=True, category="manual")
    got = statuses(result)
    assert got[("index", "pep", "8")] == "external"  # rfc8 is not there: a link to the web
    assert got[("index", "class", "Foo")] == "linked"
    assert not any(r["role"] == "doc" for r in result.references)
    assert ImportConfig().role_rules == {
        "doc": "path",
        "ref": "label",
        "pep": "pep-{target:0>4}",
        "rfc": "rfc{target}",
        "toctree": "path",
    }


def test_header_fields_follow_config(tmp_path: Path) -> None:
    CatDoc.init(tmp_path, bare=True)
    config = tmp_path / ".catdoc/config.yaml"
    config.write_text(
        config.read_text().replace(
            "import:\n",
            "import:\n  fields:\n    Implements: 'req-{target}'\n    requires: null\n"
            "    superseded-by: 'req-{target}'\n",
        )
    )
    write_tree(
        tmp_path,
        {
            "docs/req-7.txt": "Requirement 7.\n",
            "docs/pep-0001.txt": "PEP: 1\nTitle: One\n",
            "docs/design.txt": (
                "Title: Design\nImplements: 7, 8\nRequires: 1\nReplaces: 1, 2\nSuperseded-By: 9\n"
            ),
        },
    )
    result = CatDoc(tmp_path).import_documents(["docs"], link=True, category="specs")
    got = statuses(result)
    assert got == {
        ("design", "implements", "7"): "linked",
        ("design", "implements", "8"): "unresolved",  # not a PEP field: no link to the web
        ("design", "replaces", "1"): "linked",  # a default field, still there
        ("design", "replaces", "2"): "external",  # PEP 2 is on peps.python.org
        ("design", "superseded-by", "9"): "unresolved",  # req-9: no longer a PEP
    }
    assert CatDoc(tmp_path).morphism("design-implements-req-7").name == "implements"
    assert ImportConfig().field_rules == dict.fromkeys(
        ("requires", "replaces", "superseded-by"), "pep-{target:0>4}"
    )


@pytest.mark.parametrize("bad", ["'{target.real}'", "'{other}'", "'{target!r}'", "'pep'", "'{'"])
def test_a_bad_role_template_is_refused_with_the_fix(
    bare: CatDoc, tmp_path: Path, bad: str
) -> None:
    config = tmp_path / ".catdoc/config.yaml"
    config.write_text(
        config.read_text().replace("import:\n", f"import:\n  roles:\n    pep: {bad}\n")
    )
    with pytest.raises(CatDocError) as info:
        load_project(tmp_path)
    assert "import.roles.pep" in info.value.message
    assert "config.yaml" in info.value.hint


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="{}:>0<4.!target[]x-", max_size=14), st.text(max_size=12))
def test_role_templates_are_checked_once_and_then_always_format(rule: str, target: str) -> None:
    try:
        checked = check_role_rule(rule)
    except ValueError:
        return
    assert checked == rule
    if rule not in ("path", "label"):
        assert isinstance(rule.format(target=target), str)


CROSS = {
    "docs/specs/auth.md": (
        "---\nid: req-auth\nrelated: [req-old]\n---\n# Auth\n\nSee @des-api, [db](../design/db.md) "
        "and @des-api again; also @login.\n"
    ),
    "docs/specs/login.md": "# Login\n",
    "docs/design/api.md": "---\nid: des-api\n---\n# API\n\nFor @req-auth.\n",
    "docs/design/db.md": "# DB\n",
}


def test_cross_category_references_are_kept_as_related(tmp_path: Path) -> None:
    CatDoc.init(tmp_path, bare=True)
    write_tree(tmp_path, CROSS)
    svc = CatDoc(tmp_path)
    result = svc.import_documents(["docs"], link=True)
    cross = [r for r in result.references if r["status"] == "cross-category"]
    assert {(r["source"], r["resolved"]) for r in cross} == {
        ("req-auth", "des-api"),
        ("req-auth", "db"),
        ("des-api", "req-auth"),
    }
    assert result.morphisms_created == ["req-auth-references-login"]
    assert svc.object("req-auth").metadata["related"] == ["db", "des-api", "req-old"]
    assert svc.object("des-api").metadata["related"] == ["req-auth"]
    assert svc.category("specs").related == ["design"]
    assert svc.category("design").related == ["specs"]
    before = (tmp_path / MODEL).read_bytes()
    again = svc.import_documents(["docs"], link=True)
    assert again.written == [] and again.updated == 0
    assert (tmp_path / MODEL).read_bytes() == before

    # an existing object gains a new related target; the list stays sorted and merged
    (tmp_path / "docs/design/db.md").write_text("# DB\n\nServes @login.\n")
    update = svc.import_documents(["docs/design/db.md"], link=True)
    assert [i.action for i in update.items] == ["updated"]
    assert svc.object("db").metadata["related"] == ["login"]


def test_a_mention_that_names_no_object_counts_only_when_it_looks_like_an_id(
    tmp_path: Path,
) -> None:
    """Handles in changelogs and notes are no broken ids. In Markdown a lower-case mention is
    one; in reST a typo of an id's first word, or a new id beside the project's own
    (`req-auth2` beside `req-auth`), is."""
    CatDoc.init(tmp_path, bare=True)
    write_tree(
        tmp_path,
        {
            "docs/req-auth.md": "# Auth\n\nSee @req-refunds, @planned and @login.\n",
            "docs/login.md": "# Login\n\nThanks @JelleZijlstra and @cooperlees.\n",
            "docs/changes.rst": (
                "Changes\n=======\n\n- Type hints by @max-muoto in #8107\n"
                "- Fix by @nkns165, see @req-auth2 and @logn-2.\n"
            ),
        },
    )
    result = CatDoc(tmp_path).import_documents(["docs"], link=True)
    mentions = {
        (r["source"], r["target"]): r["status"] for r in result.references if r["kind"] == "object"
    }
    assert mentions == {
        ("req-auth", "req-refunds"): "unresolved",
        ("req-auth", "planned"): "unresolved",
        ("req-auth", "login"): "linked",
        ("login", "cooperlees"): "unresolved",  # lower case: written as an id is
        ("changes", "req-auth2"): "unresolved",
        ("changes", "logn-2"): "unresolved",
    }


def test_labels_of_documents_imported_earlier_resolve(bare: CatDoc, tmp_path: Path) -> None:
    first = bare.import_documents(["docs/guide/install.rst"], link=True, category="manual")
    assert statuses(first)[("install", "ref", "usage notes")] == "unresolved"
    later = bare.import_documents(["docs/guide/usage.rst"], link=True, category="manual")
    assert statuses(later)[("usage", "ref", "install-steps")] == "linked"
    assert "usage-ref-install" in later.morphisms_created
    # the earlier document's file is the source of truth: a label it no longer defines is gone
    (tmp_path / "docs/guide/install.rst").write_text("Install\n=======\n\nSteps.\n")
    (tmp_path / "docs/guide/more.rst").write_text("More\n====\n\n:ref:`install-steps`.\n")
    again = bare.import_documents(["docs/guide/more.rst"], link=True, category="manual")
    assert statuses(again)[("more", "ref", "install-steps")] == "unresolved"


def test_a_ref_to_a_directive_name_links_its_document(bare: CatDoc, tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "docs/guide/figures.rst": (
                "Figures\n=======\n\n.. figure:: flow.png\n   :name: data-flow\n\n   The flow.\n"
            ),
            "docs/guide/intro.rst": "Intro\n=====\n\nAs :ref:`the figure <data-flow>` shows.\n",
        },
    )
    result = bare.import_documents(["docs/guide"], link=True, category="manual")
    assert statuses(result)[("intro", "ref", "data-flow")] == "linked"
    assert "intro-ref-figures" in result.morphisms_created


def test_a_ref_to_a_myst_directive_name_links_its_document(bare: CatDoc, tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "md/figures.md": "# Figures\n\n```{figure} flow.png\n:name: data-flow\n\nFlow.\n```\n",
            "md/intro.md": "# Intro\n\nAs {ref}`the figure <data-flow>` shows.\n",
        },
    )
    result = bare.import_documents(["md"], link=True, category="manual")
    assert statuses(result)[("intro", "ref", "data-flow")] == "linked"
    assert "intro-ref-figures" in result.morphisms_created


def test_a_myst_link_that_names_no_document_names_a_label(bare: CatDoc, tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "md/caching.md": "(wheel-caching)=\n# Caching\n\nWheels are kept.\n",
            "md/build.md": "# Build\n\nWheels can be [cached](wheel-caching), see [it](caching).\n",
            "md/other.rst": "Other\n=====\n\nNot `a label <wheel-caching>`_ in reST.\n",
        },
    )
    got = statuses(bare.import_documents(["md"], link=True, category="md"))
    assert got[("build", None, "wheel-caching")] == "linked"  # MyST: a label
    assert got[("build", None, "caching")] == "linked"  # a document comes first
    assert got[("other", None, "wheel-caching")] == "unresolved"  # docutils: a relative URL


MYST_SCHEMES = {
    "book/conf.py": (
        "extensions = ['myst_parser']\nmyst_url_schemes = ['http', 'https', 'mailto', 'gh']\n"
    ),
    "book/source-files.md": "(source-files:repository)=\n# Source files\n\nSet the URL.\n",
    "book/reference.md": (
        "# Reference\n\nSee [](source-files:repository), [here](<project:usage.md#run>),\n"
        "[](project:#local), [](gh:issue/975), [](inv:python#os.path), [](path:data.csv),\n"
        "[](mailto:a@b.org), [](https://x.org/a:b) and [](missing:label).\n\n"
        "[def]: source-files:repository\n"
    ),
    "book/usage.md": "# Usage\n\nRun it.\n",
    "book/faq.md": (
        "# FAQ\n\n(known-limitations)=\n## Known limitations\n\nSee [](#known-limitations) and\n"
        "[](#known-limitations-1), a heading's anchor.\n"
    ),
    "book/upgrade.md": "# Upgrade\n\nMind the [limits](#known-limitations), [](#Usage).\n",
    "plain/notes.md": (
        "# Notes\n\nSee [](source-files:repository), [](vscode:extension/x) and\n"
        "[](#known-limitations).\n"
    ),
}


def test_a_myst_link_with_a_scheme_that_is_no_url_names_a_label(
    bare: CatDoc, tmp_path: Path
) -> None:
    """MyST-Parser takes a link for a URL only when `myst_url_schemes` names its scheme; any
    other `[](source-files:repository)` is a cross-reference (sphinx-book-theme writes 21)."""
    write_tree(tmp_path, MYST_SCHEMES)
    result = bare.import_documents(["book", "plain"], link=True, category="book")
    links = statuses_where(result, lambda target: not target.startswith("#"))
    assert links == {
        ("reference", "source-files:repository"): "linked",  # inline and as a definition
        ("reference", "project:usage.md"): "linked",
        ("reference", "missing:label"): "unresolved",  # Sphinx warns of it too
    }
    assert "reference-references-source-files" in result.morphisms_created


def test_a_myst_anchor_link_names_a_label_of_the_project(bare: CatDoc, tmp_path: Path) -> None:
    """MyST-Parser resolves `[](#x)` on its page first, then as a label of the project
    (jupyter-book's `resources/upgrade.md` points at `faq.md`'s `(known-limitations)=`)."""
    write_tree(tmp_path, MYST_SCHEMES)
    result = bare.import_documents(["book", "plain"], link=True, category="book")
    anchors = statuses_where(result, lambda target: target.startswith("#"))
    assert anchors == {
        ("faq", "#known-limitations"): "self",
        ("upgrade", "#known-limitations"): "linked",  # not on the page: the project's label
    }


def test_a_url_scheme_list_is_read_from_conf_py() -> None:
    from catdoc.importer.sphinx_conf import DEFAULT_URL_SCHEMES, read_conf

    assert read_conf("project = 'x'\n").url_schemes == DEFAULT_URL_SCHEMES
    assert read_conf("myst_url_schemes = ('http',)\n").url_schemes == {"http"}
    written = "myst_url_schemes = {'http': None, 'doi': 'https://doi.org/{{path}}'}\n"
    assert read_conf(written).url_schemes == {"http", "doi"}
    computed = "myst_url_schemes = ['http']\nmyst_url_schemes = base()\n"
    assert read_conf(computed).url_schemes == {"http"}  # what is written out last


def test_default_role_is_read_from_conf_py() -> None:
    from catdoc.importer.sphinx_conf import read_conf

    assert read_conf("project = 'x'\n").default_role is None
    assert read_conf("default_role = 'any'\n").default_role == "any"
    assert read_conf("default_role = 'Py:Obj'\n").default_role == "py:obj"
    assert read_conf("default_role = 'ref'\ndefault_role = None\n").default_role is None
    assert read_conf("default_role = pick()\n").default_role is None
    assert (
        read_conf("default_role = 'ref'\nif x:\n    default_role = 'doc'\n").default_role == "ref"
    )


DEFAULT_ROLE = {
    "with/conf.py": "default_role = 'any'\n",
    "with/index.rst": (
        "Index\n=====\n\nSee `install`, `Setting up <install>`, `!install`, `usage`_ and\n"
        "`install`:doc: and ``literal``.\n\n.. _usage: https://x.org\n"
    ),
    "with/install.rst": ".. _install:\n\nInstall\n=======\n\nText.\n",
    "refs/conf.py": "default_role = 'ref'\n",
    "refs/index.rst": "Index\n=====\n\nSee `install-steps` and `Missing label <nowhere>`.\n",
    "refs/install.rst": ".. _install-steps:\n\nInstall\n=======\n",
    "plain/conf.py": "project = 'plain'\n",
    "plain/index.rst": "Index\n=====\n\nThe book `Dune` is a title.\n",
    "plain/notes.md": "# Notes\n\nCode: `install`.\n",
}


def test_sphinx_default_role_makes_interpreted_text_a_role(bare: CatDoc, tmp_path: Path) -> None:
    """setuptools' `conf.py` sets `default_role = 'any'`: there `` `install` `` is
    `:any:`install``, a role that names a document only where config.yaml's `import.roles`
    says so; with `default_role = 'ref'` it is a `:ref:` to a label. Without `default_role`
    docutils makes `` `Dune` `` a title reference, no reference; a postfix role
    (`` `x`:doc: ``), a hyperlink reference (`` `usage`_ ``) and Markdown code are none."""
    write_tree(tmp_path, DEFAULT_ROLE)
    result = bare.import_documents(["with", "refs", "plain"], link=True, category="docs")
    assert {(r["path"], r["role"], r["target"], r["status"]) for r in result.references} == {
        ("refs/index.rst", "ref", "install-steps", "linked"),
        ("refs/index.rst", "ref", "nowhere", "unresolved"),
    }  # `any` names no document by default: `with/index.rst` reports nothing
    config = tmp_path / ".catdoc/config.yaml"
    config.write_text(
        config.read_text().replace("import:\n", "import:\n  roles:\n    any: label\n")
    )
    again = CatDoc(tmp_path).import_documents(["with"], link=True, category="docs")
    assert [(r["role"], r["target"], r["resolved"]) for r in again.references] == [
        ("any", "install", "with-install"),
        ("any", "install", "with-install"),
    ]


def test_a_configured_default_role_resolves_as_that_role(tmp_path: Path) -> None:
    from catdoc.text_references import extract_references

    text = "See `install`, `Setting up <install>`, `!x`, `usage`_, `a`:doc: and ``b``.\n"
    refs = extract_references(text, kind="rst", default_role="any")
    assert [(r.role, r.target) for r in refs] == [("any", "install"), ("any", "install")]
    assert extract_references(text, kind="rst") == []
    assert extract_references("Code: `install`.\n", default_role="any") == []  # Markdown


def test_an_included_file_reads_with_its_includers_default_role(
    bare: CatDoc, tmp_path: Path
) -> None:
    """Sphinx reads an included file as part of the page that includes it, so `conf.py`'s
    `default_role` holds in it too: `` `install-steps` `` in the fragment is a `:ref:`."""
    write_tree(
        tmp_path,
        {
            "refs/conf.py": "default_role = 'ref'\n",
            "refs/index.rst": "Index\n=====\n\n.. include:: part.txt\n",
            "refs/part.txt": "See `install-steps`.\n",
            "refs/install.rst": ".. _install-steps:\n\nInstall\n=======\n",
        },
    )
    result = bare.import_documents(["refs"], link=True, category="docs")
    assert [
        (r["path"], r["line"], r["role"], r["target"], r["status"]) for r in result.references
    ] == [("refs/index.rst", 4, "ref", "install-steps", "linked")]


def test_a_default_role_directive_sets_the_role_for_the_rest_of_the_document() -> None:
    """docutils' `.. default-role:: name` holds from where it stands to the document's end, in
    a nested block too; without a name, interpreted text is a title reference again (Sphinx
    drops its `default_role` then too). Inside a literal block it is text."""
    from catdoc.text_references import extract_references

    text = (
        "A `x`.\n\n.. default-role:: any\n\nB `install`.\n\n.. note::\n\n"
        "   .. default-role:: Ref\n\nC `label`.\n\n::\n\n    .. default-role:: doc\n\n"
        "D `still-ref`.\n\n.. default-role::\n\nE `a title`.\n"
    )
    expected = [("any", "install", 5), ("ref", "label", 11), ("ref", "still-ref", 17)]
    refs = extract_references(text, kind="rst")
    assert [(r.role, r.target, r.line) for r in refs] == expected
    refs = extract_references(text, kind="rst", default_role="doc")
    assert [(r.role, r.target, r.line) for r in refs] == [("doc", "x", 1), *expected]
    assert extract_references(".. default-role:: any\n\nSee `x`.\n") == []  # Markdown


def test_a_mention_in_markdown_myst_parser_reads_must_look_like_an_id(
    bare: CatDoc, tmp_path: Path
) -> None:
    """`@` means nothing to MyST-Parser: in a Markdown page of a Sphinx project an unknown
    mention counts only as it does in reST (sphinx-book-theme's changelog thanks `@bsipocz`)."""
    thanks = "# Changes\n\n* Fix by @bsipocz in https://x.org/pull/975, see @req-auth2.\n"
    write_tree(
        tmp_path,
        {
            "book/conf.py": "extensions = ['myst_parser']\n",
            "book/req-auth.md": "# Auth\n\nText.\n",
            "book/changes.md": thanks,
            "notes/changes.md": thanks,
        },
    )
    result = bare.import_documents(["book", "notes"], link=True, category="book")
    mentions = {(r["path"], r["target"]) for r in result.references if r["kind"] == "object"}
    assert mentions == {
        ("book/changes.md", "req-auth2"),
        ("notes/changes.md", "bsipocz"),  # no Sphinx project: CatDoc's own Markdown
        ("notes/changes.md", "req-auth2"),
    }


def test_a_mention_in_a_page_of_an_mkdocs_project_must_look_like_an_id(
    bare: CatDoc, tmp_path: Path
) -> None:
    """MkDocs renders `@waylan` as text (pymdownx.magiclink: a GitHub handle), as Python-Markdown's
    `docs/authors.md` writes its maintainers."""
    write_tree(
        tmp_path,
        {
            "site/mkdocs.yml": "site_name: x\n",
            "site/docs/req-auth.md": "# Auth\n\nText.\n",
            "site/docs/authors.md": (
                "# Authors\n\n@waylan maintains it; see @req-auth2.\n\n"
                "Fixed (Tracker #s: 1683066) as #auth-uses-db says.\n"
            ),
            "site/notes.md": "# Notes\n\n@waylan, outside docs_dir, and #s.\n",
        },
    )
    result = bare.import_documents(["site"], link=True, category="site")
    mentions = {
        (r["path"], r["target"]) for r in result.references if r["kind"] in ("object", "morphism")
    }
    assert mentions == {
        ("site/docs/authors.md", "req-auth2"),
        ("site/docs/authors.md", "auth-uses-db"),  # `#`: written as an id, as in reST
        ("site/notes.md", "waylan"),
        ("site/notes.md", "s"),
    }


MYSTMD = {
    "book/myst.yml": (
        "version: 1\nproject:\n  references:\n    guide: https://mystmd.org/guide\n"
        "  toc:\n    - file: index.md\n"
    ),
    "book/index.md": (
        "# Book\n\nSee the screenshot in @shot, the AST in @code:ast. and the\n"
        "[tutorial](#tutorial:new-file), <project:#known-limitations>, [](code:ast).\n"
        "Cited: @doe2020 and [@smith; @shot], mail me@x.org, not `@code:ast`.\n\n"
        "```{figure} shot.png\n:label: shot\n\nThe template.\n```\n"
    ),
    "book/tutorial.md": (
        "# Tutorial\n\n(tutorial:new-file)=\n## New file\n\n```{code} python\n"
        ":label: code:ast\nprint()\n```\n\nBack to @shot; see #faq.\n"
    ),
    "book/faq.md": "# FAQ\n\n(known-limitations)=\n## Known limitations\n",
    "book/links.md": (
        "# Links\n\nSee [](xref:guide/frontmatter), <xref:guide#footnotes>,\n"
        "[](xref:other/page), [](wiki:Book), [](doi:10.1/x) and [](https://x.org).\n"
    ),
    "notes/plain.md": "# Plain\n\nSee @shot, [](xref:guide/frontmatter) and [](#shot).\n",
}


def test_an_at_label_in_a_mystmd_page_names_its_target(bare: CatDoc, tmp_path: Path) -> None:
    """mystmd reads `@x` as a citation that becomes a cross-reference when `x` names a target
    (jupyter-book's `export-pdfs.md`: `@template-screenshot`, `@code:ast` in `plugins/ast.md`);
    one that names none is a bibliography key, no reference. Outside a mystmd project `@shot`
    stays CatDoc's `@id`."""
    write_tree(tmp_path, MYSTMD)
    result = bare.import_documents(["book", "notes"], link=True, category="book")
    mentions = {
        (r["source"], r["target"], r["line"]): r["status"]
        for r in result.references
        if r["kind"] in ("object", "morphism")
    }
    assert mentions == {
        ("index", "shot", 3): "self",  # a `:label:` option of its own page
        ("index", "code:ast", 3): "linked",  # `:` inside, `.` after: mystmd's label
        ("index", "shot", 5): "self",  # `[@smith; @shot]`: `smith` is a citation
        ("tutorial", "shot", 11): "linked",  # a target of another page
        ("plain", "shot", 3): "unresolved",  # no mystmd project: CatDoc's `@id`
    }


def test_a_mystmd_anchor_link_finds_a_label_anywhere_in_the_project(
    bare: CatDoc, tmp_path: Path
) -> None:
    """`[](#label)`, `<project:#label>` and mystmd's legacy `[](label)` name a target on any
    page of the project (jupyter-book's `resources/upgrade.md` → `faq.md`)."""
    write_tree(tmp_path, MYSTMD)
    result = bare.import_documents(["book", "notes"], link=True, category="book")
    links = {
        (r["source"], r["target"]): (r["status"], r["resolved"])
        for r in result.references
        if r["kind"] == "link" and not r["target"].startswith("xref:")
    }
    assert links == {
        ("index", "#tutorial:new-file"): ("linked", "tutorial"),
        ("index", "#known-limitations"): ("linked", "faq"),
        ("index", "code:ast"): ("linked", "tutorial"),
    }  # `wiki:`, `doi:` and URLs name no page; outside the project `[](#shot)` is no reference


MYSTMD_TARGETS = {
    "book/myst.yml": "version: 1\nproject:\n  title: Book\n",
    "book/index.md": (
        "---\ntitle: Home\nlabel: Home-Page\n---\n# Home\n\n"
        "See [](#set-up), [](#id-2-next-steps), <project:#Set-Up>, @set-up, [](set-up),\n"
        "[](#overview), [](#shared), [](#home), [](#labelled-heading) and [](#nowhere).\n\n"
        "## Overview\n"
    ),
    "book/setup.md": (
        "# Setup guide\n\n## Set up\n\n## 2. Next steps\n\n(explicit)=\n\n"
        "## Labelled heading\n\n## Shared\n"
    ),
    "book/faq.md": "## Overview\n\n## Shared\n\nBack to [](#home-page) and @home-page.\n",
    "other/myst.yml": "version: 1\nproject:\n  title: Other\n",
    "other/page.md": "# Other\n\nSee [](#set-up) and @set-up.\n",
    "notes/plain.md": "# Plain\n\nSee [](#set-up).\n",
}


def test_mystmd_heading_slugs_and_page_labels_are_targets(bare: CatDoc, tmp_path: Path) -> None:
    """mystmd gives every heading without a label an implicit target, the slug of its text
    (`## 2. Next steps` → `id-2-next-steps`), and a page its front matter `label:`: `[](#x)`,
    `<project:#x>`, `@x` and the legacy `[](x)` reach them from any page of the same project,
    the page's own heading first. The title heading mystmd lifts out of the page has none, nor
    has a heading with a `(label)=`; another project's pages and CatDoc's own Markdown do not
    see them."""
    write_tree(tmp_path, MYSTMD_TARGETS)
    result = bare.import_documents(["book", "other", "notes"], link=True, category="book")
    found = {
        (r["source"], r["kind"], r["target"]): (r["status"], r["resolved"] or r["candidates"])
        for r in result.references
    }
    assert found == {
        ("index", "link", "#set-up"): ("linked", "setup"),
        ("index", "link", "#id-2-next-steps"): ("linked", "setup"),
        ("index", "link", "#Set-Up"): ("linked", "setup"),
        ("index", "object", "set-up"): ("linked", "setup"),
        ("index", "link", "set-up"): ("linked", "setup"),
        ("index", "link", "#overview"): ("self", "index"),  # its own, though faq has one too
        ("index", "link", "#shared"): ("ambiguous", ["faq", "setup"]),
        ("faq", "link", "#home-page"): ("linked", "index"),  # front matter `label: Home-Page`
        ("faq", "object", "home-page"): ("linked", "index"),
    }  # `#home` was lifted into the title; `other` and `notes` see no slug of `book`


def test_mystmd_slugs_and_labels_of_pages_imported_earlier_are_found(
    bare: CatDoc, tmp_path: Path
) -> None:
    """A page imported before keeps its targets: they are read again from its file."""
    write_tree(tmp_path, MYSTMD_TARGETS)
    bare.import_documents(["book/setup.md", "book/faq.md"], category="book")
    result = bare.import_documents(["book/index.md"], link=True, category="book")
    found = {r["target"]: r["resolved"] for r in result.references if r["kind"] == "link"}
    assert found["#id-2-next-steps"] == "setup" and found["set-up"] == "setup"
    assert found["#shared"] is None and found["#overview"] == "index"


def test_a_mystmd_xref_to_a_listed_project_is_external(bare: CatDoc, tmp_path: Path) -> None:
    """`xref:guide/page` names a page of another MyST project that `myst.yml`'s `references:`
    lists: a link out by design, as an intersphinx inventory's role (jupyter-book's 119)."""
    write_tree(tmp_path, MYSTMD)
    result = bare.import_documents(["book", "notes"], link=True, category="book")
    xrefs = statuses_where(result, lambda target: target.startswith("xref:"))
    assert xrefs == {
        ("links", "xref:guide/frontmatter"): "external",
        ("links", "xref:guide"): "external",  # the autolink, less its `#footnotes`
        ("links", "xref:other/page"): "unresolved",  # no such project listed
    }


def test_a_myst_yml_without_a_project_makes_no_mystmd_project(bare: CatDoc, tmp_path: Path) -> None:
    """A `myst.yml` that configures only a site, or that is no YAML, makes no mystmd project:
    its Markdown is CatDoc's own, where `@shot` is an id."""
    write_tree(
        tmp_path,
        {
            "site/myst.yml": "version: 1\nsite:\n  template: book-theme\n",
            "site/page.md": "# Page\n\nSee @shot.\n\n```{figure} a.png\n:label: shot\n```\n",
            "broken/myst.yml": "project: [\n",
            "broken/page.md": "# Broken\n\nSee @shot.\n",
        },
    )
    result = bare.import_documents(["site", "broken"], link=True, category="book")
    assert {(r["path"], r["status"]) for r in result.references} == {
        ("site/page.md", "unresolved"),
        ("broken/page.md", "unresolved"),
    }


def test_a_myst_autolink_with_a_scheme_is_a_link(bare: CatDoc, tmp_path: Path) -> None:
    """MyST-Parser reads `<project:usage.md>` and `<project:#target>` as `[](project:…)`; in
    CatDoc's own Markdown an autolink is a URL."""
    write_tree(tmp_path, MYST_SCHEMES)
    write_tree(
        tmp_path,
        {
            "book/auto.md": "# Auto\n\n<project:usage.md>, <project:#known-limitations>.\n",
            "plain/auto.md": "# Auto\n\n<project:usage.md>, <vscode:x>.\n",
        },
    )
    result = bare.import_documents(["book", "plain"], link=True, category="book")
    refs = result.references
    autos = {(r["path"], r["target"]): r["status"] for r in refs if "auto" in r["path"]}
    assert autos == {
        ("book/auto.md", "project:usage.md"): "linked",
        ("book/auto.md", "#known-limitations"): "linked",
    }


def test_references_in_a_myst_directives_body_are_read(bare: CatDoc, tmp_path: Path) -> None:
    """Black's docs/index.md: a link in an `{admonition}` and a `{doc}` role in a `{note}`."""
    write_tree(
        tmp_path,
        {
            "black/index.md": (
                "# The uncompromising code formatter\n\n"
                "```{admonition} Note - Black is now stable!\n"
                "Also, as a safety measure which slows down processing, _Black_ will check\n"
                "that the reformatted code still produces a valid AST that is equivalent to the\n"
                "original (see the [Pragmatism](./the_black_code_style/current_style.md#prag)\n"
                "section for details). If you're feeling confident, use `--fast`.\n```\n\n"
                "```{note}\n{doc}`Black is licensed under the MIT license <license>`.\n```\n\n"
                "```{toctree}\n:hidden:\n\nlicense\n```\n"
            ),
            "black/license.md": "# License\n\nMIT.\n",
            "black/the_black_code_style/current_style.md": "# The Black Code Style\n",
        },
    )
    result = bare.import_documents(["black"], link=True, category="black")
    got = {(r["line"], r["role"], r["target"]): r["status"] for r in result.references}
    assert got == {
        (6, None, "./the_black_code_style/current_style.md"): "linked",
        (11, "doc", "license"): "linked",
        (17, "toctree", "license"): "linked",  # an entry, not prose
    }
    assert sorted(result.morphisms_created) == [
        "index-doc-license",
        "index-references-current-style",
        "index-toctree-license",
    ]


def test_doc_paths_stop_at_the_docs_root_as_in_sphinx(bare: CatDoc, tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "docs/guide.rst": "Guide\n=====\n\nSee :doc:`../guide/install` and :doc:`../../x`.\n",
            "docs/topics/deep.rst": "Deep\n====\n\nBack to :doc:`../../../guide`.\n",
        },
    )
    got = statuses(bare.import_documents(["docs"], link=True, category="manual"))
    assert got[("guide", "doc", "../guide/install")] == "linked"  # docs/guide/install.rst
    assert got[("guide", "doc", "../../x")] == "unresolved"
    assert got[("deep", "doc", "../../../guide")] == "linked"  # docs/guide.rst


TOCTREES = {
    "toc/index.rst": (
        "Home\n====\n\n.. toctree::\n   :maxdepth: 2\n\n   guide/index\n   Usage <usage.rst>\n"
        "   self\n   genindex\n   missing\n   Site <https://example.org>\n"
    ),
    "toc/usage.rst": "Usage\n=====\n",
    "toc/guide/index.md": (
        "# Guide\n\n```{toctree}\n:maxdepth: 1\n\ninstall\n/usage\n../usage\n```\n"
    ),
    "toc/guide/install.md": "# Install\n",
}


def test_toctree_entries_link_parents_to_children(bare: CatDoc, tmp_path: Path) -> None:
    """A toctree's entries name its children as `:doc:` names documents (relative to the
    document, `/` from the docs root, `..` stopping there): the structure of a Sphinx tree
    becomes morphisms named `toctree`; a page Sphinx generates is `generated`."""
    write_tree(tmp_path, TOCTREES)
    result = bare.import_documents(["toc"], link=True, category="manual")
    got = {(r["source"], r["target"]): r["status"] for r in result.references if r["role"]}
    assert got == {  # `self` and a URL are no references
        ("toc-index", "guide/index"): "linked",
        ("toc-index", "usage.rst"): "linked",
        ("toc-index", "genindex"): "generated",
        ("toc-index", "missing"): "unresolved",
        ("guide-index", "install"): "linked",
        ("guide-index", "/usage"): "linked",  # from the docs root, toc/
        ("guide-index", "../usage"): "linked",  # `..` stops at the docs root
    }
    assert sorted(m for m in result.morphisms_created if "-toctree-" in m) == [
        "guide-index-toctree-install",
        "guide-index-toctree-usage",
        "toc-index-toctree-guide-index",
        "toc-index-toctree-usage",
    ]
    assert bare.morphism("toc-index-toctree-usage").name == "toctree"

    config = tmp_path / ".catdoc/config.yaml"
    config.write_text(
        config.read_text().replace("import:\n", "import:\n  roles:\n    toctree: null\n")
    )
    again = CatDoc(tmp_path).import_documents(["toc"], link=True, category="manual")
    assert not any(r["role"] == "toctree" for r in again.references)


def test_a_glob_toctree_lists_every_document_its_pattern_matches(
    bare: CatDoc, tmp_path: Path
) -> None:
    """IPython's whatsnew/development.rst lists `pr/*` under `:glob:`: Sphinx expands the
    pattern to every matching document (sorted, `*` also across folders, the page itself left
    out); without `:glob:` a `*` is part of a name."""
    write_tree(
        tmp_path,
        {
            "toc/whatsnew/development.rst": (
                "Development\n===========\n\n.. toctree::\n   :glob:\n\n   pr/*\n   /api/v?\n"
                "   develop*\n   nothing/*\n\n.. toctree::\n\n   pr/*\n"
            ),
            "toc/whatsnew/pr/b-feature.rst": "B\n=\n",
            "toc/whatsnew/pr/a-feature.rst": "A\n=\n",
            "toc/whatsnew/pr/deep/c.rst": "C\n=\n",
            "toc/api/v1.rst": "V1\n==\n",
            "toc/api/v10.rst": "V10\n===\n",
            "toc/index.rst": "Index\n=====\n",
        },
    )
    result = bare.import_documents(["toc"], link=True, category="manual")
    got = [
        (r["target"], r["status"], r.get("resolved"))
        for r in result.references
        if r["source"] == "development"
    ]
    assert got == [
        ("/whatsnew/pr/a-feature", "linked", "a-feature"),
        ("/whatsnew/pr/b-feature", "linked", "b-feature"),
        ("/whatsnew/pr/deep/c", "linked", "c"),
        ("/api/v1", "linked", "v1"),
        ("develop*", "unresolved", None),  # matches only the page itself: Sphinx warns
        ("nothing/*", "unresolved", None),
        ("pr/*", "unresolved", None),  # no `:glob:`: a name with a star
    ]


def test_a_markdown_link_from_the_root_starts_at_the_docs_root(
    bare: CatDoc, tmp_path: Path
) -> None:
    """MyST takes `/integrations/index.md` from Sphinx's source folder (black's faq.md), GitHub
    from the repository's root: the docs root is tried first, then the project root."""
    write_tree(
        tmp_path,
        {
            "site/faq.md": "# FAQ\n\nSee [integrations](/integrations/index.md), [notes](/NOTES.md)"
            " and [nothing](/nowhere.md).\n",
            "site/integrations/index.md": "# Integrations\n",
            "NOTES.md": "# Notes\n",
            "site/other.rst": "Other\n=====\n\nA `link </integrations/index.md>`_ in reST.\n",
        },
    )
    bare.import_documents(["NOTES.md"], category="manual")
    result = bare.import_documents(["site"], link=True, category="manual")
    got = {(r["source"], r["target"]): (r["status"], r["resolved"]) for r in result.references}
    assert got[("faq", "/integrations/index.md")] == ("linked", "index")
    assert got[("faq", "/NOTES.md")] == ("linked", "notes")
    assert got[("faq", "/nowhere.md")] == ("unresolved", None)
    # docutils keeps a reST hyperlink as the URL written: from the project root, as before
    assert got[("other", "/integrations/index.md")] == ("unresolved", None)


def test_a_document_name_may_end_in_what_looks_like_a_suffix(bare: CatDoc, tmp_path: Path) -> None:
    """celery's docs/internals/reference/index.rst lists `celery.utils.text`, the document
    celery.utils.text.rst: `.text` is part of its name, not a suffix written out."""
    write_tree(
        tmp_path,
        {
            "api/index.rst": (
                "API\n===\n\n.. toctree::\n\n   celery.utils.text\n   celery.utils.log\n\n"
                "See :doc:`celery.utils.text` and :doc:`notes.md`.\n"
            ),
            "api/celery.utils.text.rst": "celery.utils.text\n=================\n",
            "api/celery.utils.log.rst": "celery.utils.log\n================\n",
            "api/notes.md": "# Notes\n",
        },
    )
    result = bare.import_documents(["api"], link=True, category="api")
    got = {(r["role"], r["target"]): r["status"] for r in result.references}
    assert got == {
        ("toctree", "celery.utils.text"): "linked",
        ("toctree", "celery.utils.log"): "linked",
        ("doc", "celery.utils.text"): "linked",
        ("doc", "notes.md"): "linked",
    }


def test_a_reference_that_names_several_documents_is_ambiguous(
    bare: CatDoc, tmp_path: Path
) -> None:
    """A label two documents define (Sphinx warns and picks one) or a wiki name two documents
    share is reported with the documents it may mean, and linked to none."""
    write_tree(
        tmp_path,
        {
            "docs/dup/queries.rst": ".. _models-example:\n\nQueries\n=======\n\nText.\n",
            "docs/dup/aggregation.rst": ".. _models-example:\n\nAggregation\n===========\n",
            "docs/dup/reader.rst": "Reader\n======\n\nSee :ref:`the models <models-example>`.\n",
            "docs/notes/a/index.md": "# A\n",
            "docs/notes/b/index.md": "# B\n",
            "docs/notes/home.md": "# Home\n\nStart at [[index]].\n",
        },
    )
    result = bare.import_documents(["docs/dup", "docs/notes"], link=True, category="manual")
    by_target = {r["target"]: r for r in result.references}
    label, wiki = by_target["models-example"], by_target["index"]
    assert (label["status"], label["resolved"]) == ("ambiguous", None)
    assert label["candidates"] == ["aggregation", "queries"]
    assert wiki["status"] == "ambiguous" and len(wiki["candidates"]) == 2
    assert not result.morphisms_created
    assert all(r["candidates"] == [] for r in result.references if r["status"] != "ambiguous")
    cli = ["-C", str(tmp_path), "import", "docs/dup", "--link"]
    out = CliRunner().invoke(app, cli, env={"COLUMNS": "200"})  # one table row a line
    assert out.exit_code == 0, out.output
    assert "1 ambiguous" in out.stdout and "aggregation or queries" in out.stdout


CONF = """
import os
extensions = ["sphinx.ext.intersphinx"]
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", None),
    'sphinx': ("https://www.sphinx-doc.org/en/master", None),
    1: "not a name",
}
intersphinx_mapping.update({"numpy": ("https://numpy.org/doc/stable", None)}, scipy=("x", None))
intersphinx_mapping["psycopg"] = ("https://www.psycopg.org/psycopg3/docs/", None)
"""


@pytest.mark.parametrize(
    ("source", "names"),
    [
        (CONF, {"python", "sphinx", "numpy", "scipy", "psycopg"}),
        ("intersphinx_mapping = dict(python=('u', None), **other)\n", {"python"}),
        ("intersphinx_mapping: dict = {'py': ('u', None)}\n", {"py"}),
        (  # intersphinx_registry: the packages it is given
            "intersphinx_mapping = get_intersphinx_mapping(packages={'python', 'jupyter'})\n"
            "intersphinx_mapping.update(registry.get_intersphinx_mapping(['pip', 1]))\n",
            {"python", "jupyter", "pip"},
        ),
        ("intersphinx_mapping = get_intersphinx_mapping(packages=names)\n", set()),
        (  # sphinx_celery: a helper given the project's own inventories
            "globals().update(conf.build_config('celery', __file__,\n"
            "    extra_intersphinx_mapping={'click': ('u', None)}, other={'no': 1}))\n",
            {"click"},
        ),
        (  # sphinx-scrapy: the names of inventories it knows to enable
            "scrapy_intersphinx_enable = ['tox', 'attrs', 3]\n"
            "intersphinx_disabled_reftypes = ['std:doc']\n",
            {"tox", "attrs"},
        ),
        ("intersphinx_mapping = other_function(packages={'python'})\n", set()),
        ("intersphinx_mapping = {k: v for k, v in pairs}\n", set()),  # computed: names nothing
        ("def f():\n    intersphinx_mapping = {'inner': 1}\n", set()),  # not at the top level
        ("intersphinx_mapping = {'a': (\n", set()),  # not Python
        ("x = " + "(" * 200_000 + ")" * 200_000 + "\n", set()),  # too deep for the parser
        ("", set()),
    ],
)
def test_intersphinx_names_are_read_without_running_conf_py(source: str, names: set[str]) -> None:
    from catdoc.importer.sphinx_conf import read_conf

    assert read_conf(source).inventories == names


@given(st.text(max_size=300))
@settings(max_examples=200)
def test_any_conf_py_text_gives_names_or_none(source: str) -> None:
    from catdoc.importer.sphinx_conf import read_conf

    assert all(isinstance(name, str) and name for name in read_conf(source).inventories)


@pytest.mark.parametrize(
    ("source", "suffixes", "exclude"),
    [
        ("project = 'x'\n", (".rst",), ()),  # Sphinx's defaults
        (  # Django: its own suffix, and requirements.txt left out
            "source_suffix = '.txt'\nextensions = ['djangodocs']\n"
            "if spelling:\n    extensions.append('sphinxcontrib.spelling')\n"
            "exclude_patterns = ['_build', '_theme', 'requirements.txt']\n",
            (".txt",),
            ("_build", "_theme", "requirements.txt"),
        ),
        (
            "source_suffix = {'.rst': 'restructuredtext', '.txt': 'markdown'}\n",
            (".rst", ".txt"),
            (),
        ),
        ("source_suffix: list = ['.rst', '.rest']\n", (".rest", ".rst"), ()),
        # a Markdown parser adds .md, also to a source_suffix written out
        ("extensions = ['sphinx.ext.autodoc', 'myst_parser']\n", (".md", ".rst"), ()),
        (
            "extensions = []\nextensions += ['myst_nb']\nsource_suffix = '.rst'\n",
            (".md", ".rst"),
            (),
        ),
        ("extensions = ['x']\nextensions.extend(['recommonmark'])\n", (".md", ".rst"), ()),
        ("def setup(app):\n    app.setup_extension('myst_parser')\n", (".md", ".rst"), ()),
        ("def setup(app):\n    app.add_source_suffix('.rmd', 'markdown')\n", (".rmd", ".rst"), ()),
        # sphinx_celery: a helper given the extensions
        ("globals().update(build_config(extra_extensions=['sphinx_click']))\n", (".rst",), ()),
        # a source_suffix computed at run time: Sphinx's default, with what the extensions add
        ("source_suffix = suffixes()\nextensions = ['myst_parser']\n", (".md", ".rst"), ()),
        # extensions that are not written out: the suffixes cannot be known
        ("extensions = BASE + ['myst_parser']\nexclude_patterns = ['_build']\n", None, ("_build",)),
        ("extensions = ['a']\nextensions.append(name)\n", None, ()),
        ("from shared.conf import *\n", None, ()),
        ("def setup(app):\n    app.add_source_suffix(suffix, 'markdown')\n", None, ()),
        (  # the patterns written out count; the rest adds nothing
            "exclude_patterns = ['_build', '**/includes/*.txt']\n"
            "exclude_patterns += os.getenv('SPHINX_EXCLUDE', '').split(',')\n"
            "exclude_patterns.append('drafts/')\ntemplates_path = ['_templates']\n"
            "html_static_path = ('_static',)\n",
            (".rst",),
            ("_build", "**/includes/*.txt", "drafts", "_templates", "_static"),
        ),
        ("source_suffix = '.md'\nexclude_patterns = ['a', 1]\n", (".md",), ()),
        ("extensions = [\n", (".rst",), ()),  # not Python: Sphinx's defaults
    ],
)
def test_what_conf_py_says_of_source_files(
    source: str, suffixes: tuple[str, ...] | None, exclude: tuple[str, ...]
) -> None:
    from catdoc.importer.sphinx_conf import read_conf

    conf = read_conf(source)
    assert conf.suffixes == suffixes
    assert set(conf.exclude) == set(exclude)


def test_a_huge_conf_py_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's syntax tree of 5 MB of `a = 1` lines took 3 GB; 20 MB (a document's bound)
    would fill the memory. A `conf.py` past `MAX_CONF_CHARS` gives Sphinx's defaults."""
    from catdoc.importer import sphinx_conf
    from catdoc.importer.sphinx_conf import MAX_CONF_CHARS, SphinxConf, read_conf

    parsed: list[int] = []
    parse = sphinx_conf.ast.parse
    monkeypatch.setattr(
        sphinx_conf.ast, "parse", lambda *args, **kw: parsed.append(1) or parse(*args, **kw)
    )
    head = "exclude_patterns = ['_build']\n"
    assert read_conf(head + "a = 1\n" * (MAX_CONF_CHARS // 6)) == SphinxConf()
    assert parsed == []
    fits = head + "a = 1\n" * ((MAX_CONF_CHARS - len(head)) // 6)
    assert read_conf(fits).exclude == ("_build",)


def test_exclude_patterns_are_read_up_to_a_paths_length() -> None:
    """A pattern of 200,000 characters would grow the glob's automaton past any memory;
    one that would take the patterns past `MAX_EXCLUDE_TEXT` characters is not read."""
    from catdoc.importer.sphinx_conf import MAX_EXCLUDE_TEXT, read_conf

    huge = "[" * 200_000
    conf = read_conf(f"exclude_patterns = ['_build', '{huge}', 'drafts']\n")
    assert conf.exclude == ("_build", "drafts")
    assert (conf.builds("_build/x.rst"), conf.builds(f"{huge}.rst")) == (False, True)
    fits = "x" * (MAX_EXCLUDE_TEXT - 3)
    assert read_conf(f"exclude_patterns = ['abc', '{fits}', 'zz']\n").exclude == ("abc", fits)


@pytest.mark.parametrize(
    ("pattern", "path", "excluded"),
    [
        ("_build", "_build", True),
        ("_build", "sub/_build", False),  # relative to the source folder
        ("**/includes/*.txt", "a/b/includes/x.txt", True),
        ("**/includes/*.txt", "includes/x.txt", True),  # a leading **/ also at the top
        ("**/includes/*.txt", "includes/sub/x.txt", False),  # `*` stays within a name
        ("*.txt", "sec/x.txt", False),
        ("sec/*.txt", "sec/x.txt", True),
        ("old_*", "old_notes.rst", True),
        ("a[!b]c", "axc", True),
        ("a[!b]c", "a/c", False),  # `[!…]` never matches `/`
        ("a?c", "a/c", False),
        ("a.rst", "aXrst", False),
        ("[", "[", True),
    ],
)
def test_exclude_patterns_match_as_sphinx_matches_them(
    pattern: str, path: str, excluded: bool
) -> None:
    from catdoc.importer.sphinx_conf import SphinxConf

    assert SphinxConf(exclude=(pattern,)).excludes(path) is excluded


def _sphinx_regex(glob: str) -> str:
    """Sphinx's own translation (`sphinx.util.matching._translate_pattern`), the oracle."""
    out, i, n = "", 0, len(glob)
    while i < n:
        char = glob[i]
        i += 1
        if char == "*" and glob[i : i + 1] == "*":
            i += 1
            out += ".*"
        elif char == "*":
            out += "[^/]*"
        elif char == "?":
            out += "[^/]"
        elif char == "[":
            j = i + (glob[i : i + 1] == "!")
            j += glob[j : j + 1] == "]"
            j = glob.find("]", j)
            if j < 0:
                out += r"\["
                continue
            inner = glob[i:j].replace("\\", "\\\\")
            i = j + 1
            if inner[0] == "!":
                inner = "^/" + inner[1:]
            elif inner[0] == "^":
                inner = "\\" + inner
            out += f"[{inner}]"
        else:
            out += re.escape(char)
    return out + r"\Z"


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="ab/*?[]!.", max_size=9),
    st.text(alphabet="ab/.[]!", max_size=9),
)
def test_exclude_patterns_match_what_sphinx_regular_expressions_match(
    pattern: str, path: str
) -> None:
    """CatDoc walks a pattern's steps instead of backtracking through a regular expression; on
    every pattern Sphinx's expression compiles, both agree."""
    from catdoc.globs import sphinx_glob

    try:
        with warnings.catch_warnings():  # Sphinx's expressions may hold `[[`: a FutureWarning
            warnings.simplefilter("ignore", FutureWarning)
            expected = re.match(_sphinx_regex(pattern), path) is not None
    except re.error:
        return
    assert sphinx_glob([pattern]).match(path) is expected


def test_a_pattern_of_many_stars_is_matched_in_linear_time() -> None:
    """`**a**a**a…b` made Sphinx-style regular expressions backtrack for 15 s on a name of 60
    characters: a conf.py could stall an import."""
    from catdoc.importer.sphinx_conf import SphinxConf

    conf = SphinxConf(exclude=("**a" * 20 + "b",))
    assert conf.excludes("a" * 5000) is False
    assert conf.excludes("a" * 20 + "b") is True


CONF_PARTS = [
    "extensions = ['myst_parser']",
    "extensions += [x]",
    "extensions.append('a')",
    "extensions.extend(y)",
    "source_suffix = {'.md': 'markdown', **z}",
    "source_suffix['.txt'] = 1",
    "source_suffix.update({1: 2})",
    "exclude_patterns = ['_build', None]",
    "exclude_patterns.extend()",
    "exclude_patterns.append()",
    "app.setup_extension()",
    "app.add_source_suffix(1)",
    "from x import *",
    "if a:\n    extensions.insert(0, 'b')",
]


@given(st.lists(st.sampled_from(CONF_PARTS) | st.text(max_size=40), max_size=6))
@settings(max_examples=200)
def test_any_conf_py_says_something_or_sphinx_defaults(parts: list[str]) -> None:
    from catdoc.importer.sphinx_conf import read_conf

    conf = read_conf("\n".join(parts))
    assert conf.suffixes is None or all(s and isinstance(s, str) for s in conf.suffixes)
    assert all(p and isinstance(p, str) for p in conf.exclude)
    assert conf.builds("x/y.rst") in (True, False, None)


def test_a_page_built_by_sphinx_is_no_fragment_of_another(bare: CatDoc, tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "site/conf.py": "project = 'celery-like'\n",
            "site/index.rst": (
                "Index\n=====\n\n.. toctree::\n\n   intro\n   other\n\n"
                "See :ref:`bundles` and :ref:`ex-label`.\n"
            ),
            "site/intro.rst": "Intro\n=====\n\n.. include:: includes/installation.txt\n",
            "site/other.rst": "Other\n=====\n\nText.\n",
            "site/includes/installation.txt": ".. _bundles:\n\nBundles\n-------\n",
            # never built (.txt is no source suffix): not a second page with the same labels
            "site/templates/readme.txt": ".. include:: ../includes/installation.txt\n",
            # a page another shows, included, that Sphinx builds all the same
            "site/usage.rst": "Usage\n=====\n\n.. include:: example.rst\n",
            "site/example.rst": ".. _ex-label:\n\nExample\n=======\n\nBack to :doc:`index`.\n",
            "site/shown.rst": "Shown\n=====\n\n.. literalinclude:: example.rst\n\n:doc:`example`\n",
        },
    )
    result = bare.import_documents(["site"], link=True, category="manual")
    paths = {item.path: item.action for item in result.items}
    assert "site/templates/readme.txt" not in paths
    assert "site/includes/installation.txt" not in paths
    assert result.not_built == 2
    assert paths["site/example.rst"] == "created"
    got = statuses(result)
    assert got[("index", "ref", "bundles")] == "linked"  # intro's, not ambiguous
    assert got[("example", "doc", "index")] == "linked"
    assert got[("shown", "doc", "example")] == "linked"
    # an included page's labels are its own and its includer's, as Sphinx warns
    assert got[("index", "ref", "ex-label")] == "ambiguous"
    # outside a Sphinx project the include rule stays
    (tmp_path / "site/conf.py").unlink()
    again = bare.import_documents(["site"], link=True, category="manual")
    item = next(i for i in again.items if i.path == "site/templates/readme.txt")
    assert item.action == "created"


def test_a_role_into_an_intersphinx_inventory_is_external(bare: CatDoc, tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "docs/conf.py": CONF,
            "docs/api/conf.py": "intersphinx_mapping = {'django': ('u', None)}\n",
            "docs/manual/logs.rst": (
                "Logs\n====\n\nSee :ref:`python:logging-config`, :doc:`sphinx:usage/index`,\n"
                ":ref:`nope:x` and :ref:`django:topics`.\n"
            ),
            "docs/api/views.rst": "Views\n=====\n\n:ref:`django:topics`, :ref:`python:x`.\n",
        },
    )
    result = bare.import_documents(["docs/manual", "docs/api"], link=True, category="manual")
    by_place = {(r["source"], r["target"]): r["status"] for r in result.references}
    assert by_place == {
        ("logs", "python:logging-config"): "external",
        ("logs", "sphinx:usage/index"): "external",
        ("logs", "nope:x"): "unresolved",
        ("logs", "django:topics"): "unresolved",  # docs/api's project names it, not docs/'s
        ("views", "django:topics"): "external",
        ("views", "python:x"): "unresolved",  # the nearest conf.py alone counts
    }


def test_labels_of_pages_sphinx_generates_are_generated(bare: CatDoc, tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "docs/top/contents.rst": (
                "Contents\n========\n\n* :ref:`genindex`\n* :ref:`modindex`\n* :ref:`search`\n"
                "* :doc:`genindex`\n"
            ),
            "docs/own/finding.rst": ".. _search:\n\nFinding\n=======\n\nSee :ref:`search`.\n",
        },
    )
    top = bare.import_documents(["docs/top"], link=True, category="manual")
    assert [(r["target"], r["status"]) for r in top.references] == [
        ("genindex", "generated"),
        ("modindex", "generated"),
        ("search", "generated"),
        ("genindex", "unresolved"),  # a :doc: names a file, and there is none
    ]
    own = bare.import_documents(["docs/own"], link=True, category="manual")
    assert [r["status"] for r in own.references] == ["self"]  # a document's own label wins
    write_tree(tmp_path, {"md/index.md": "# Index\n\n[Full Index](genindex), [x](gone)\n"})
    md = bare.import_documents(["md"], link=True, category="md")
    assert [(r["target"], r["status"]) for r in md.references] == [
        ("genindex", "generated"),  # MyST: a link that names no document names a label
        ("gone", "unresolved"),
    ]


def test_a_conf_py_that_cannot_be_read_names_nothing(bare: CatDoc, tmp_path: Path) -> None:
    outside = tmp_path.parent / "outside-conf.py"
    outside.write_text("intersphinx_mapping = {'python': ('u', None)}\n")
    write_tree(tmp_path, {"docs/a/doc.rst": "A\n=\n\n:ref:`python:x`.\n"})
    (tmp_path / "docs/a/conf.py").symlink_to(outside)  # leaves the project
    os.mkfifo(tmp_path / "docs/conf.py")  # would block a plain open
    result = bare.import_documents(["docs/a"], link=True, category="manual")
    assert [r["status"] for r in result.references] == ["unresolved"]


def test_an_earlier_label_in_another_category_is_kept_as_related(bare: CatDoc) -> None:
    bare.import_documents(["docs/guide/install.rst"], link=True, category="setup")
    later = bare.import_documents(["docs/guide/usage.rst"], link=True, category="manual")
    assert statuses(later)[("usage", "ref", "install-steps")] == "cross-category"
    assert bare.object("usage").metadata["related"] == ["install"]


def test_cli_summary_counts_cross_category(tmp_path: Path) -> None:
    CatDoc.init(tmp_path, bare=True)
    write_tree(tmp_path, CROSS)
    out = CliRunner().invoke(app, ["-C", str(tmp_path), "import", "docs", "--link"])
    assert out.exit_code == 0, out.output
    assert "4 cross-category" in out.stdout and "1 linked" in out.stdout


# ---------------------------------------------------------------------------------- init
def test_init_bare_writes_config_and_an_empty_model(tmp_path: Path) -> None:
    out = CliRunner().invoke(app, ["init", str(tmp_path), "--bare", "--format", "json"])
    assert out.exit_code == 0, out.output
    created = json.loads(out.stdout)["created"]
    assert sorted(created) == [".catdoc/.gitignore", ".catdoc/category.yaml", ".catdoc/config.yaml"]
    assert not (tmp_path / ".catdoc/docs").exists()
    project = load_project(tmp_path)
    assert project.categories == [] and project.functors == []
    assert CatDoc(tmp_path).validate().is_valid


def test_a_bare_project_does_not_ask_an_adopted_chain_of_references_for_composites(
    tmp_path: Path,
) -> None:
    CatDoc.init(tmp_path, bare=True)
    chain = {f"docs/guide/{a}.md": f"# {a}\n\nSee [{b}]({b}.md).\n" for a, b in ("ab", "bc")}
    write_tree(tmp_path, {**chain, "docs/guide/c.md": "# c\n"})
    CatDoc(tmp_path).import_documents(["docs"], link=True)
    report = CatDoc(tmp_path).validate()
    assert report.is_valid and report.warnings == report.infos == []
    config = tmp_path / ".catdoc/config.yaml"
    config.write_text(config.read_text().replace("Closure: off", "Closure: warning"))
    codes = [f.code for f in CatDoc(tmp_path).validate().warnings]
    assert codes == ["CAT_COMPOSITE_MISSING"]  # a → b → c; the lint is one word away


def test_import_replaces_the_untouched_example(tmp_path: Path) -> None:
    CatDoc.init(tmp_path)
    write_tree(tmp_path, CROSS)
    out = CliRunner().invoke(app, ["-C", str(tmp_path), "import", "docs", "--link"])
    assert out.exit_code == 0, out.output
    assert "Replaced the example model" in out.stdout
    svc = CatDoc(tmp_path)
    assert [c.id for c in svc.list_categories()] == ["design", "specs"]
    assert svc.list_functors() == []
    assert not (tmp_path / ".catdoc/docs/example.md").exists()
    assert svc.validate().is_valid
    again = svc.import_documents(["docs"], link=True)
    assert again.example_removed == [] and again.written == []


def test_import_result_names_what_it_replaced(tmp_path: Path) -> None:
    CatDoc.init(tmp_path)
    write_tree(tmp_path, {"docs/design/db.md": "# DB\n"})
    result = CatDoc(tmp_path).import_documents(["docs"])
    assert result.example_removed == [
        "functor realize",
        "category requirements",
        "category design",
        ".catdoc/docs/example.md",
    ]
    assert CatDoc(tmp_path).object("db").title == "DB"  # a new `design` category


@pytest.mark.parametrize("touch", ["comment", "example-doc", "extra-file"])
def test_an_edited_example_is_never_removed(tmp_path: Path, touch: str) -> None:
    CatDoc.init(tmp_path)
    write_tree(tmp_path, CROSS)
    if touch == "comment":
        model = tmp_path / MODEL
        model.write_text(model.read_text() + "# mine\n")
    elif touch == "example-doc":
        (tmp_path / ".catdoc/docs/example.md").write_text("# My notes\n")
    else:
        write_tree(tmp_path, {".catdoc/categories/more.yaml": "categories: []\n"})
    result = CatDoc(tmp_path).import_documents(["docs"])
    ids = {c.id for c in CatDoc(tmp_path).list_categories()}
    if touch == "example-doc":  # the model is the template's: it goes, the edited document stays
        assert result.example_removed[-1] == "category design"
        assert (tmp_path / ".catdoc/docs/example.md").read_text() == "# My notes\n"
    else:
        assert result.example_removed == []
        assert {"requirements", "design", "specs"} <= ids
        assert (tmp_path / ".catdoc/docs/example.md").is_file()


def test_a_failed_import_keeps_the_example(tmp_path: Path) -> None:
    CatDoc.init(tmp_path)
    write_tree(tmp_path, {"docs/a.md": "# A\n"})
    for paths in (["docs", "nope"], ["docs", ".catdoc/config.yaml"]):  # refused before / during
        with pytest.raises(CatDocError):
            CatDoc(tmp_path).import_documents(paths)
        assert (tmp_path / MODEL).read_text() == template_text("category.yaml")
        assert (tmp_path / ".catdoc/docs/example.md").is_file()
    assert CatDoc(tmp_path).import_documents(["docs"]).example_removed


# ---------------------------------------------------------------------------------- includes
INCLUDES = {
    "Changelog.rst": (
        ".. _changelog:\n\n================\n Change history\n================\n\nNotes.\n"
    ),
    "docs/index.rst": (
        "Welcome\n=======\n\nSee :ref:`changelog`, :ref:`bundles`, :ref:`getting-help`,\n"
        ":ref:`not-a-label` and :ref:`after-clip`.\n"
    ),
    "docs/changelog.rst": (
        "..  A comment.\n\n.. include:: includes/notice.txt\n\n.. include:: ../Changelog.rst\n"
    ),
    "docs/includes/notice.txt": "A notice without a title.\n",
    "docs/prefaced.rst": ".. include:: includes/banner.rst\n\nOwn title\n=========\n",
    "docs/includes/banner.rst": "Banner\n======\n\nShown first.\n",
    "docs/intro.rst": (
        "Intro\n=====\n\n.. include:: includes/installation.txt\n   :end-before: .. cut\n"
    ),
    "docs/includes/installation.txt": (
        ".. _bundles:\n\nBundles\n-------\n\nText.\n\n.. cut\n\n.. _after-clip:\n\nMore.\n"
    ),
    "docs/perf/script.rst": "Script\n======\n\n.. literalinclude:: output.txt\n",
    "docs/perf/output.txt": ".. _not-a-label:\n\nlog output, shown as code\n",
    "docs/guide.md": "# Guide\n\n```{include} snippets/help.md\n```\n",
    "docs/snippets/help.md": "(getting-help)=\n## Getting help\n\nAsk.\n",
}


def test_included_files_are_fragments_of_the_document(bare: CatDoc, tmp_path: Path) -> None:
    write_tree(tmp_path, INCLUDES)
    result = bare.import_documents(["docs"], link=True, category="manual")
    items = {item.path: item for item in result.items}
    for fragment, includer in [
        ("docs/includes/installation.txt", "docs/intro.rst"),
        ("docs/perf/output.txt", "docs/perf/script.rst"),  # a literalinclude's payload
        ("docs/snippets/help.md", "docs/guide.md"),  # a MyST include
    ]:
        assert items[fragment].action == "skipped"
        assert items[fragment].reason.startswith(f"included by {includer}: a fragment")
    # the labels of included files are the including document's, also from outside docs/
    got = statuses(result)
    assert got[("index", "ref", "changelog")] == "linked"
    assert "index-ref-changelog" in result.morphisms_created
    assert got[("index", "ref", "bundles")] == "linked"
    assert got[("index", "ref", "getting-help")] == "linked"
    assert got[("index", "ref", "not-a-label")] == "unresolved"  # a literal include: code
    assert got[("index", "ref", "after-clip")] == "unresolved"  # clipped off (:end-before:)
    # a document made only of includes takes the title of the first included file with one
    assert bare.object("changelog").title == "Change history"
    assert bare.object("intro").title == "Intro"  # its own title comes first
    assert bare.object("prefaced").title == "Banner"  # the included title comes first


def test_references_in_included_files_are_the_including_documents(
    bare: CatDoc, tmp_path: Path
) -> None:
    """celery's docs/changelog.rst is only `.. include:: ../Changelog.rst`, whose `:ref:`s Sphinx
    renders on that page: they are its references, at the line of its include directive, and
    their relative paths are read from its folder."""
    write_tree(
        tmp_path,
        {
            "Changelog.rst": (  # a nested include's path is read from the document's folder
                "Change history\n==============\n\nSee :ref:`whatsnew` and :doc:`guide`.\n\n"
                ".. include:: includes/more.txt\n"
            ),
            "docs/changelog.rst": "..  A comment.\n\n.. include:: ../Changelog.rst\n",
            "docs/includes/more.txt": "Nested: :doc:`guide` again, and `code :doc:` literal.\n",
            "docs/whatsnew.rst": ".. _whatsnew:\n\nWhat's new\n==========\n",
            "docs/guide.rst": "Guide\n=====\n\n.. literalinclude:: ../Changelog.rst\n",
        },
    )
    result = bare.import_documents(["docs"], link=True, category="manual")
    found = sorted(
        (r["source"], r["line"], r["role"], r["target"], r["status"])
        for r in result.references
        if r["source"] in ("changelog", "guide")
    )
    assert found == [
        ("changelog", 3, "doc", "guide", "linked"),
        ("changelog", 3, "doc", "guide", "linked"),
        ("changelog", 3, "ref", "whatsnew", "linked"),
    ]  # a literal include brings no references to guide


def test_a_fragment_named_explicitly_or_imported_earlier_stays(
    bare: CatDoc, tmp_path: Path
) -> None:
    write_tree(tmp_path, INCLUDES)
    first = bare.import_documents(["docs/includes/installation.txt"], category="manual")
    assert [item.action for item in first.items] == ["created"]  # nothing includes it here
    later = bare.import_documents(["docs"], link=True, category="manual")
    item = next(i for i in later.items if i.path == "docs/includes/installation.txt")
    assert item.action == "skipped" and "'installation' from an earlier import stays" in item.reason
    assert bare.object("installation").path == "docs/includes/installation.txt"
    # its own label is its includer's: not ambiguous with the fragment's object
    assert statuses(later)[("index", "ref", "bundles")] == "linked"
    named = bare.import_documents(["docs", "docs/perf/output.txt"], category="manual")
    item = next(i for i in named.items if i.path == "docs/perf/output.txt")
    assert item.action == "created" and "included by docs/perf/script.rst" in item.reason


def test_include_paths_are_joined_as_sphinx_joins_them(tmp_path: Path) -> None:
    root = tmp_path / "project"
    CatDoc.init(root, bare=True)
    write_tree(tmp_path, {"outside.rst": ".. _outside:\n\nOutside\n=======\n"})
    write_tree(
        root,
        {
            "docs/index.rst": (
                "Index\n=====\n\n:ref:`nested`, :ref:`rooted`, :ref:`outside`, :ref:`deep`.\n"
            ),
            # a nested include's path is taken from the document's folder, not the fragment's
            "docs/a/page.rst": "Page\n====\n\n.. include:: ../parts/outer.txt\n",
            "docs/parts/outer.txt": ".. include:: inner.txt\n",
            "docs/a/inner.txt": ".. _nested:\n\nInner.\n",
            # `/` starts at the docs root (import.docsRoot)
            "docs/b/rooted.rst": "Rooted\n======\n\n.. include:: /parts/root.txt\n",
            "docs/parts/root.txt": ".. _rooted:\n\nFrom the root.\n",
            # a path that leaves the project is never read
            "docs/c/leave.rst": "Leave\n=====\n\n.. include:: ../../../outside.rst\n",
            # two files that include each other stay documents, and the loop ends
            "docs/loop/x.rst": "X\n=\n\n.. include:: y.rst\n",
            "docs/loop/y.rst": "Y\n=\n\n.. include:: x.rst\n",
        },
    )
    (root / ".catdoc/config.yaml").write_text("import:\n  docsRoot: docs\n")
    svc = CatDoc(root)
    result = svc.import_documents(["docs"], link=True, category="manual")
    actions = {item.path: item.action for item in result.items}
    assert actions["docs/parts/outer.txt"] == actions["docs/a/inner.txt"] == "skipped"
    assert actions["docs/parts/root.txt"] == "skipped"
    assert actions["docs/loop/x.rst"] == actions["docs/loop/y.rst"] == "created"
    got = statuses(result)
    assert got[("index", "ref", "nested")] == "linked"  # to docs/a/page.rst
    assert "index-ref-page" in result.morphisms_created
    assert got[("index", "ref", "rooted")] == "linked"
    assert got[("index", "ref", "outside")] == "unresolved"


def test_includes_nest_eight_deep() -> None:
    texts = {f"d/f{n}.txt": f".. include:: f{n + 1}.txt\n\n.. _label-{n}:\n" for n in range(12)}
    reader = IncludeReader(Path("/nonexistent"), "d", texts)
    found = reader.of("d/f0.txt", texts["d/f0.txt"], "rst")
    assert found.files == [f"d/f{n}.txt" for n in range(1, 10)]  # named up to 9, read to 8
    assert found.labels == [f"label-{n}" for n in range(1, MAX_DEPTH + 1)]


def test_a_file_included_many_times_over_is_read_once_per_include() -> None:
    """Files that each include the next one 30 times would make 30^8 copies as docutils reads
    them (an import that never ends); each counts once, its labels and references once."""
    texts = {
        f"d/f{n}.txt": f".. _label-{n}:\n\n:ref:`ref-{n}`\n\n"
        + f".. include:: f{n + 1}.txt\n\n" * 30
        for n in range(12)
    }
    reader = IncludeReader(Path("/nonexistent"), "d", texts)
    found = reader.of("d/doc.rst", ".. include:: f0.txt\n", "rst")
    assert found.files == [f"d/f{n}.txt" for n in range(MAX_DEPTH + 1)]
    assert found.labels == [f"label-{n}" for n in range(MAX_DEPTH)]
    assert [(ref.target, ref.line) for ref in found.references] == [
        (f"ref-{n}", 1) for n in range(MAX_DEPTH)
    ]


def test_an_include_met_again_nearer_the_document_is_followed_deeper() -> None:
    """A file first reached at the depth limit, then again nearer the document, still gives
    what lies below it."""
    texts = {f"d/f{n}.txt": f".. include:: f{n + 1}.txt\n\n.. _label-{n}:\n" for n in range(12)}
    texts["d/f0.txt"] += "\n.. include:: f7.txt\n"
    reader = IncludeReader(Path("/nonexistent"), "d", texts)
    found = reader.of("d/doc.rst", ".. include:: f0.txt\n", "rst")
    assert sorted(found.labels) == sorted(f"label-{n}" for n in range(12))


def test_files_that_all_include_each_other_are_walked_up_to_a_bound() -> None:
    """Each include of a document is walked apart: 200 files that each include all the others
    made (files)^3 × depth directives for each document (minutes for one); a walk reads at most
    `MAX_INCLUDES` directives."""
    names = [f"f{n}.txt" for n in range(200)]
    text = "".join(f".. _{name}:\n\n.. include:: {name}\n\n" for name in names)
    texts = {f"d/{name}": text for name in names}
    found = IncludeReader(Path("/nonexistent"), "d", texts).of("d/f0.txt", text, "rst")
    assert found.files == [f"d/{name}" for name in names[1:]]


def test_a_document_of_many_includes_is_read_in_one_pass() -> None:
    """A directive's options were read from a copy of the rest of the document, and each file
    looked for in the list of those found: 100,000 includes took many minutes."""
    text = "".join(f".. include:: f{n}.txt\n   :start-line: 1\n\n" for n in range(100_000))
    assert len(includes_in(text, "rst", "d", "d")) == 100_000
    found = IncludeReader(Path("/nonexistent"), "d", {}).of("d/doc.rst", text, "rst")
    assert found.files == [f"d/f{n}.txt" for n in range(MAX_INCLUDES)]


@pytest.mark.parametrize(
    ("text", "kind", "paths"),
    [
        (".. include:: a.txt\n.. literalinclude:: b.py\n", "rst", ["d/a.txt", "d/b.py"]),
        ("Intro::\n\n   .. include:: shown.txt\n\nText.\n", "rst", []),  # a literal block
        (".. code-block:: rst\n\n   .. literalinclude:: shown.py\n", "rst", []),
        # a literalinclude permits no content: docutils reports it, and reads nothing under it
        (".. literalinclude:: a.py\n   :lines: 1\n\n   .. include:: in.txt\n", "rst", ["d/a.py"]),
        ("T\n=\n\n::\n\n   code\n\n.. literalinclude:: after.py\n", "rst", ["d/after.py"]),
        (".. note::\n\n   .. include:: inside.txt\n", "rst", ["d/inside.txt"]),
        (".. include:: <isonum.txt>\n.. include:: ../../up.txt\n", "rst", []),
        (".. include::\n   long/\n   name.txt\n   :literal:\n", "rst", ["d/long/name.txt"]),
        ("````md\n```{include} shown.md\n```\n````\n", "markdown", []),
        ("````{note}\n```{include} in-note.md\n```\n````\n", "markdown", ["d/in-note.md"]),
        (":::{include} colon.md\n:::\n", "markdown", ["d/colon.md"]),
        ("```{eval-rst}\n.. include:: from-rst.rst\n```\n", "markdown", ["d/from-rst.rst"]),
        ("```{literalinclude} /top/code.py\n:lines: 1-3\n```\n", "markdown", ["top/code.py"]),
        ("# Title\n\n```python\ninclude('x')\n```\n", "markdown", []),
    ],
)
def test_include_directives_outside_code(text: str, kind: str, paths: list[str]) -> None:
    assert [inc.path for inc in includes_in(text, kind, "d", ".")] == paths


def test_include_options_read_as_docutils_reads_them() -> None:
    (rst,) = includes_in(
        ".. include:: a.md\n   :parser: myst_parser.sphinx_\n   :start-line: 2\n", "rst", "", "."
    )
    assert (rst.kind, rst.clip.apply("0\n1\n2\n3\n")) == ("markdown", "2\n3")
    (myst,) = includes_in(
        "```{include} a.rst\n---\nend-before: '.. cut'\n---\n```\n", "markdown", "", "."
    )
    assert (myst.kind, myst.clip.apply("keep\n.. cut\ndrop\n")) == ("markdown", "keep\n")
    assert Clip(start_after="missing").apply("text") is None  # docutils fails: nothing
    assert Clip(start_line="x").apply("text") is None


@given(
    st.lists(
        st.sampled_from(
            [
                ".. include:: ",
                ".. literalinclude:: ",
                "```{include} ",
                "````",
                "```",
                ":::{include} ",
                "/",
                "../",
                "a.txt",
                "<x>",
                "   :start-line: 1",
                "::",
                "\n",
                " ",
                "..",
                "```{eval-rst}\n",
            ]
        ),
        max_size=30,
    ),
    st.sampled_from(["rst", "markdown"]),
)
@settings(max_examples=200, deadline=None)
def test_include_paths_never_leave_the_project(parts: list[str], kind: str) -> None:
    for inc in includes_in("".join(parts), kind, "docs/deep", "docs"):
        assert inc.path == posixpath.normpath(inc.path)
        assert not inc.path.startswith(("../", "/")) and inc.path not in (".", "..")


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("    ```{include} code.md\n    ```\n", []),  # indented code, no fence
        ("<!--\n```{include} hidden.md\n```\n-->\n", []),  # an HTML comment shows nothing
        # the note's closing line ends it, and the toctree left open in it
        ("::::{note}\n```{toctree}\n::::\n```{include} after.md\n```\n", ["d/after.md"]),
        # a YAML block that never closes takes the whole body as options, as MyST reads it
        ("::::{note}\n---\n```{include} options.md\n```\n::::\n", []),
        ("```{eval-rst}\n.. include:: open.rst\n", ["d/open.rst"]),  # open to the end
        ("````{note}\n```{eval-rst}\n.. include:: nested.rst\n````\n", ["d/nested.rst"]),
    ],
)
def test_myst_includes_are_read_through_the_scanners_fences(text: str, paths: list[str]) -> None:
    """One reading of MyST fences (`markup.scan_markdown`'s): where a fence opens, where it
    ends, and whether its body is Markdown, code or (`{eval-rst}`) reST."""
    assert [inc.path for inc in includes_in(text, "markdown", "d", ".")] == paths


def test_an_eval_rst_include_is_read_as_rest_at_its_line() -> None:
    text = "Intro\n\n````{note}\n```{eval-rst}\n.. include:: r.rst\n````\n"
    assert [(inc.line, inc.kind) for inc in includes_in(text, "markdown", "", ".")] == [(4, "rst")]


def test_a_myst_includes_options_end_with_its_fence() -> None:
    (inc,) = includes_in(
        "```{include} a.md\n---\nstart-line: 1\n```\nend-before: x\n", "markdown", "", "."
    )
    assert inc.clip == Clip(start_line="1")  # not the text after the fence


_TAGGED = "\n".join(
    [
        "a0",
        "// tag::a[]",
        "a1",
        "// tag::b[]",
        "b1",
        "// end::b[]",
        "// end::a[]",
        "u1",
        "# tag::c[] ",
        "c1",
        "# end::c[]",
        "tag::d[]x end::d[]y",  # no tag line: `[]` must end a run of non-space
    ]
)


@pytest.mark.parametrize(
    ("attributes", "asciidoctor", "antora"),
    [
        ("tag=a", "a1 b1", "a1 b1"),
        ("tag=b", "b1", "b1"),
        ("tag=!a", "a0 u1 c1 tag::d[]x end::d[]y", "a0 u1 c1 tag::d[]x end::d[]y"),
        ('tags="a,c"', "a1 b1 c1", "a1 b1 c1"),
        ("tags=b;c", "b1 c1", "b1 c1"),
        ("tags=*", "a1 b1 c1", "a1 b1 c1"),
        ("tags=**", "a0 a1 b1 u1 c1 tag::d[]x end::d[]y", "a0 a1 b1 u1 c1 tag::d[]x end::d[]y"),
        ("tags=!*", "a0 u1 tag::d[]x end::d[]y", "a0 u1 tag::d[]x end::d[]y"),
        ("tags=**;!b", "a0 a1 u1 c1 tag::d[]x end::d[]y", "a0 a1 u1 c1 tag::d[]x end::d[]y"),
        ("tags=*;!b", "a1 c1", "a1 c1"),
        ("tags=!*;c", "c1", "a0 u1 c1 tag::d[]x end::d[]y"),  # Antora keeps the untagged
        ("tag=nowhere", None, None),
        ("lines=1..3", "a0 // tag::a[] a1", "a0 // tag::a[] a1"),
        ("lines=5;2", "// tag::a[] b1", "// tag::a[] b1"),
        ("lines=10..-1", "c1 # end::c[] tag::d[]x end::d[]y", "c1 # end::c[] tag::d[]x end::d[]y"),
        ("lines=11..", "# end::c[] tag::d[]x end::d[]y", "# end::c[] tag::d[]x end::d[]y"),
        ("lines=0;2", None, "// tag::a[]"),  # 0 heads Asciidoctor's list for good
        ("lines=x", None, None),
        ('lines="1,3", tag=a', "a0 a1", "a0 a1"),  # lines= rules
        ("lines=3..1", _TAGGED, None),  # no line named: Asciidoctor takes the whole file
        ("lines=1..99999999999999999999999", _TAGGED, _TAGGED),
    ],
)
def test_an_asciidoc_include_selects_lines_as_asciidoctor_and_antora_do(
    attributes: str, asciidoctor: str | None, antora: str | None
) -> None:
    """`Reader#preprocess_include_directive` (Asciidoctor 2) and Antora's include processor:
    the tag lines are never taken; `*` is every other tag, `**` every line."""
    for selection, want in (
        (Selection.of(attributes, antora=False), asciidoctor),
        (Selection.of(attributes, antora=True), antora),
    ):
        assert selection is not None
        got = selection.apply(_TAGGED)
        assert (got if got is None or want == _TAGGED else " ".join(got.split("\n"))) == want


@pytest.mark.parametrize(
    "attributes", ["", "leveloffset=+1", "tag=", "tags=;", "tag=!", "tag={part}", "opts=optional"]
)
def test_an_asciidoc_include_without_a_selection_takes_the_whole_file(attributes: str) -> None:
    selection = Selection.of(attributes, antora=False)
    assert selection is None or selection.apply(_TAGGED) == _TAGGED


def test_asciidoc_selections_of_hostile_text_finish() -> None:
    """Long runs of what opens a tag line or an attribute are read in one pass."""
    for opener in ("tag::", "end::", "[]", "::", "tag::x[]", "tag::x[] ", "#tag::x[]"):
        assert Selection(tags="**").apply(opener * 100_000 + "\n" + "x") is not None
    for opener in ('"', "'", "=", ",", "a=", "tags=", " ", '"a,', 'tag="', "lines=1..", ".."):
        selection = Selection.of(opener * 100_000, antora=False)
        if selection is not None:
            selection.apply(_TAGGED)


def test_thousands_of_tags_ending_out_of_order_finish() -> None:
    """An `end::` that is not the innermost region's was looked for down the whole stack of
    open regions, as Asciidoctor's reader does: 100,000 of them over 100,000 open regions
    would take hours."""
    text = "tag::b[]\n" * 100_000 + "end::a[]\n" * 100_000 + "x"
    for tags in ("a;b", "*;a"):
        for antora in (False, True):
            assert Selection(tags=tags, antora=antora).apply(text) is not None


def _readers_tags(
    lines: list[str], tags: dict[str, bool], base: bool, wild: bool | None
) -> list[str]:
    """The tag walk as Asciidoctor's reader writes it (`tag_stack.rindex`), the oracle."""
    select, active, stack, out = base, None, [], []
    for line in lines:
        directive = _tag_line(line)
        if directive is None:
            out += [line] if select else []
            continue
        end, name = directive
        if end and name == active:
            stack.pop()
            active, select = stack[-1] if stack else (None, base)
        elif end and name in tags:
            at = [i for i, (open_name, _) in enumerate(stack) if open_name == name]
            if at:
                del stack[at[-1]]
        elif not end and (name in tags or wild is not None):
            select = tags.get(name, False if active and not select else wild)
            active = name
            stack.append((name, select))
    return out


@given(
    st.lists(
        st.sampled_from(["tag::a[]", "end::a[]", "tag::b[]", "end::b[]", "tag::c[]", "end::c[]"])
        | st.sampled_from(["x", "y"]),
        max_size=40,
    ),
    st.sampled_from(["a", "!a", "a;b", "a;!b", "*", "*;a", "!*;b", "**;!a"]),
)
@settings(max_examples=300, deadline=None)
def test_tag_regions_end_as_in_asciidoctors_reader(lines: list[str], tags: str) -> None:
    """Regions that end out of order, or end twice, close as the reader's scan closes them."""
    selection = Selection(tags=tags)
    named = {entry.removeprefix("!"): not entry.startswith("!") for entry in tags.split(";")}
    if "**" in named:
        base = named.pop("**")
        wild = named.pop("*", base)
    else:
        base = True not in named.values()
        wild = named.pop("*", None)
    text = "\n".join(lines)
    want = _readers_tags(text.split("\n"), named, base, wild)
    assert selection.apply(text) == ("\n".join(want) if want else None)


_SELECTION_ALPHABET = list("tagsend:lines=![]*;,\"' .0123456789-_/#{}\n\r\tab")


@given(
    st.text(alphabet=_SELECTION_ALPHABET, max_size=60),
    st.text(alphabet=_SELECTION_ALPHABET, max_size=200),
)
@settings(max_examples=300, deadline=None)
def test_any_selection_of_any_text_takes_some_of_its_lines(attributes: str, text: str) -> None:
    """Whatever an include's attribute list and the file hold, the selection is read, and what
    it takes are lines of the file (a tag selection never takes a tag line)."""
    for antora in (False, True):
        selection = Selection.of(attributes, antora=antora)
        got = selection.apply(text) if selection is not None else None
        if got is not None and selection is not None:
            assert set(got.split("\n")) <= set(text.split("\n"))
            if selection.lines is None and got != text:
                assert all(_tag_line(line) is None for line in got.split("\n"))


def test_a_fragment_is_read_once_per_selection() -> None:
    """The selection is part of what a fragment is read as: a file included with `tag=a` and
    with `tag=b` gives each includer its region's ids, each read once."""
    texts = {
        "d/part.adoc": (
            "// tag::a[]\n[[in-a]]\nA\n// end::a[]\n// tag::b[]\n[[in-b]]\nB\n// end::b[]\n"
        ),
        "d/x.adoc": "= X\n\ninclude::part.adoc[tag=a]\n",
        "d/y.adoc": "= Y\n\ninclude::part.adoc[tag=b]\n",
        "d/z.adoc": "= Z\n\ninclude::part.adoc[tags=a;b]\n\ninclude::part.adoc[tag=a]\n",
    }
    reader = IncludeReader(Path("/nonexistent"), "d", texts)
    got = {rel: reader.of(rel, texts[rel], "asciidoc").labels for rel in ("d/x.adoc", "d/y.adoc")}
    assert got == {"d/x.adoc": ["in-a"], "d/y.adoc": ["in-b"]}
    assert reader.of("d/z.adoc", texts["d/z.adoc"], "asciidoc").labels == ["in-a", "in-b", "in-a"]
    assert len(reader._fragments) == 3


def test_a_myst_includes_options_are_those_the_scanner_reads() -> None:
    """One reading of a directive's options (`markup.directive_option`, the scanner's): a YAML
    block ends at a line that starts with `---`, as MyST-Parser ends it, and a directive in a
    list item is read without the item's indent."""
    (inc,) = includes_in(
        "```{include} a.md\n---\nstart-line: 1\n----\nend-line: 3\n```\n", "markdown", "", "."
    )
    assert inc.clip == Clip(start_line="1")
    (inc,) = includes_in(
        "- item\n\n  ```{include} a.md\n  :start-line: 2\n  :end-line: 4\n  ```\n",
        "markdown",
        "",
        ".",
    )
    assert inc.clip == Clip(start_line="2", end_line="4")


def _spy(monkeypatch: pytest.MonkeyPatch, module: object, names: list[str]) -> Counter[str]:
    """Counts the calls of the functions `names` of `module`, which still do their work."""
    calls: Counter[str] = Counter()
    for name in names:
        real = getattr(module, name)

        def counted(*args: Any, _name: str = name, _real: Any = real, **kwargs: Any) -> Any:
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    return calls


def test_a_fragment_included_by_three_documents_is_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its text, labels and references are read once, not once per includer; each includer
    still has them, at the line of its own directive. A caller that wants labels alone (the
    documents of an earlier import) reads no references at all."""
    write_tree(tmp_path, {"docs/part.txt": ".. _shared:\n\nSee :doc:`guide`.\n"})
    texts = {
        f"docs/{name}.rst": f"{name}\n=\n\n" + "\n" * n + ".. include:: part.txt\n"
        for n, name in enumerate("abc")
    }
    calls = _spy(monkeypatch, includes, ["read_document", "labels_of", "extract_references"])
    reader = IncludeReader(tmp_path, "docs", texts)
    found = {rel: reader.of(rel, text, "rst") for rel, text in texts.items()}
    assert calls == {"read_document": 1, "labels_of": 1, "extract_references": 1}
    assert {
        rel: (got.labels, [(r.target, r.line) for r in got.references])
        for rel, got in found.items()
    } == {
        "docs/a.rst": (["shared"], [("guide", 4)]),
        "docs/b.rst": (["shared"], [("guide", 5)]),
        "docs/c.rst": (["shared"], [("guide", 6)]),
    }
    calls.clear()
    labels_only = IncludeReader(tmp_path, "docs", texts)
    for rel, text in texts.items():
        got = labels_only.of(rel, text, "rst", references=False)
        assert (got.labels, got.references) == (["shared"], [])
    assert calls == {"read_document": 1, "labels_of": 1}


def test_a_rest_text_with_includes_is_scanned_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan that reads a reST text's titles finds its include directives too, a
    `literalinclude` among them (`Structure.directives`: its own line is code): a document and
    each fragment it includes are scanned once."""
    text = (
        "Doc\n===\n\n.. code-block:: rst\n\n   .. include:: shown.txt\n\n"
        ".. literalinclude:: a.py\n   :lines: 1-2\n\n.. include:: b.txt\n"
    )
    calls = _spy(monkeypatch, includes, ["scan_structure", "scan_rst"])
    assert [inc.path for inc in includes_in(text, "rst", "d", ".")] == ["d/a.py", "d/b.txt"]
    assert calls == {"scan_structure": 1}
    calls.clear()
    texts = {"d/doc.rst": text, "d/b.txt": ".. include:: c.txt\n", "d/c.txt": ".. _c:\n"}
    got = IncludeReader(Path("/nonexistent"), "d", texts).of("d/doc.rst", text, "rst")
    assert (got.files, got.labels) == (["d/a.py", "d/b.txt", "d/c.txt"], ["c"])
    assert calls == {"scan_structure": 3}


def test_a_shared_fragment_joins_its_paths_from_each_includers_folder(tmp_path: Path) -> None:
    """Read once, its relative include is still joined per includer (Sphinx reads it from the
    including document's folder): two includers in two folders pull in two files."""
    write_tree(
        tmp_path,
        {
            "docs/parts/common.txt": ".. include:: local.txt\n",
            "docs/a/local.txt": ".. _from-a:\n",
            "docs/b/local.txt": ".. _from-b:\n",
        },
    )
    reader = IncludeReader(tmp_path, "docs")
    text = ".. include:: ../parts/common.txt\n"
    a, b = reader.of("docs/a/page.rst", text, "rst"), reader.of("docs/b/page.rst", text, "rst")
    assert (a.files, a.labels) == (["docs/parts/common.txt", "docs/a/local.txt"], ["from-a"])
    assert (b.files, b.labels) == (["docs/parts/common.txt", "docs/b/local.txt"], ["from-b"])


_SHARED_FRAGMENTS = {
    "d/parts/p.txt": ".. _p:\n\nP :ref:`x`.\n\n.. include:: q.txt\n\ncut\n\n.. _p-after:\n",
    "d/parts/m.md": "(m)=\n# M\n\n```{include} q.txt\n```\n",
    "d/a/q.txt": ".. _qa:\n\nQA\n==\n",
    "d/b/q.txt": "Ref :doc:`z`.\n\n.. _qb:\n",
}
_INCLUDES = [
    ".. include:: ../parts/p.txt",
    ".. include:: /parts/p.txt\n   :end-before: cut",
    ".. include:: ../parts/p.txt\n   :parser: myst_parser.sphinx_",
    ".. include:: ../parts/m.md\n   :parser: myst_parser.sphinx_",
    ".. include:: q.txt\n   :start-line: 1",
    ".. include:: q.txt",
    ".. literalinclude:: q.txt",
    "Title\n=====",
]


@given(st.lists(st.lists(st.sampled_from(_INCLUDES), max_size=4), min_size=3, max_size=3))
@settings(max_examples=100, deadline=None)
def test_a_reader_shared_by_documents_reads_each_as_a_fresh_one(pieces: list[list[str]]) -> None:
    """What a document pulls in does not depend on what the reader read before for others:
    the fragments are read once, keyed by all that changes a reading (file, kind, clip), and
    their own includes are joined from each includer's folder."""
    documents = ["d/a/x.rst", "d/b/y.rst", "d/parts/z.rst"]
    texts = {rel: "\n\n".join(parts) + "\n" for rel, parts in zip(documents, pieces, strict=True)}
    texts.update(_SHARED_FRAGMENTS)
    shared = IncludeReader(Path("/nonexistent"), "d", texts)

    def seen(reader: IncludeReader, rel: str) -> tuple[object, ...]:
        got = reader.of(rel, texts[rel], "rst")
        return got.files, got.labels, got.title, got.references

    for rel in documents:
        assert seen(shared, rel) == seen(IncludeReader(Path("/nonexistent"), "d", texts), rel)


def test_labels_of_an_earlier_documents_includes_read_no_references(
    bare: CatDoc, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(
        tmp_path,
        {
            "docs/one/page.rst": "Page\n====\n\n.. include:: ../parts/labels.txt\n",
            "docs/parts/labels.txt": ".. _kept:\n\nSee :doc:`elsewhere`.\n",
            "docs/two/index.rst": "Index\n=====\n\n:ref:`kept`\n",
        },
    )
    bare.import_documents(["docs/one"], category="manual")
    calls = _spy(monkeypatch, includes, ["extract_references"])
    result = bare.import_documents(["docs/two"], link=True, category="manual")
    assert statuses(result)[("index", "ref", "kept")] == "linked"  # to page, its includer
    assert calls == {}


# ---------------------------------------------------------------------------------- PEPs
def test_python_peps_end_to_end(tmp_path: Path) -> None:
    shutil.copytree(PEPS, tmp_path / "peps")
    runner = CliRunner()
    base = ["-C", str(tmp_path)]
    assert runner.invoke(app, [*base, "init", "--bare"]).exit_code == 0
    out = runner.invoke(app, [*base, "import", "peps", "--link", "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    svc = CatDoc(tmp_path)
    assert svc.object("pep-0101").title == "Doing Widget Releases 101"
    assert svc.object("pep-0634").title == "Structural Pattern Matching: Specification"
    pep = {(m.source, m.target) for m in svc.list_morphisms(name="pep", limit=200).items}
    assert {("pep-0101", "pep-0102"), ("pep-0102", "pep-0101"), ("archive", "pep-0101")} <= pep
    ref = svc.morphism("pep-0102-ref-pep-0101")
    assert ref.name == "ref"  # :ref:`release-steps` is defined in pep-0101
    external = {r["target"] for r in data["references"] if r["status"] == "external"}
    assert external == {"622", "635", "636"}  # not in the tree: they are on peps.python.org
    superseded = svc.morphism("pep-0102-superseded-by-pep-0101")  # its `Superseded-By: 101`
    assert (superseded.name, superseded.source, superseded.target) == (
        "superseded-by",
        "pep-0102",
        "pep-0101",
    )
    replaces = [r for r in data["references"] if r["kind"] == "field"]
    assert {(r["source"], r["role"], r["target"]) for r in replaces} == {
        ("pep-0102", "superseded-by", "101"),
        ("pep-0634", "replaces", "622"),
    }
    assert not [r for r in data["references"] if r["status"] == "unresolved"]
    trace = runner.invoke(app, [*base, "trace", "archive", "pep-0102", "--format", "json"])
    assert json.loads(trace.stdout)["found"] is True
    assert svc.validate().is_valid

    before = (tmp_path / MODEL).read_bytes()
    again = runner.invoke(app, [*base, "import", "peps", "--link"])
    assert again.exit_code == 0 and "Nothing to write" in again.stdout
    assert (tmp_path / MODEL).read_bytes() == before
