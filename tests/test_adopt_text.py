"""Adopting real documentation trees, text side: PEP headers and reST field lists as metadata,
reST in `.txt` files, Sphinx roles, labels and hyperlinks as references, and what is never one.

The fixtures are written in the style of Python's PEPs, Django's and Sphinx's docs (short, made
up); tests/fixtures/peps/ is a small PEP-style tree shared with the import tests.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from catdoc import markup
from catdoc.documents import (
    Reference,
    chunk_text,
    document_title,
    extract_references,
    headings_of,
    labels_of,
    normalize_label,
    rename_mentions,
    sniff_kind,
    text_metadata,
)
from catdoc.markup import plain_markdown
from catdoc.service import CatDoc

PEPS = Path(__file__).parent / "fixtures" / "peps"


def refs(text: str, kind: str = "rst") -> list[tuple[str, str, int, str | None]]:
    return [(r.kind, r.target, r.line, r.role) for r in extract_references(text, kind=kind)]  # type: ignore[arg-type]


def mentions(text: str, kind: str = "rst") -> list[str]:
    return [
        r.target for r in extract_references(text, kind=kind) if r.kind in ("object", "morphism")
    ]  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- kind
DJANGO_TXT = """\
==========================
Writing your first Django app
==========================

.. _tutorial-setup:

Let's learn by example. See :doc:`/intro/install` and :setting:`DEBUG`.
"""


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("topics/forms.txt", DJANGO_TXT, "rst"),
        ("a.txt", "Title\n=====\n\nBody.\n", "rst"),
        ("a.txt", "Just a note.\n\n.. note::\n\n   Careful.\n", "rst"),
        ("a.txt", "Only a role: :ref:`install`.\n", "rst"),
        ("a.txt", "Label first\n\n.. _here:\n", "rst"),
        ("a.txt", "Intro\n---\n", "text"),  # an underline shorter than its title is not reST
        ("a.txt", "ok\n--\n", "text"),  # a title to docutils, too little to tell reST by
        ("requirements.txt", "pyenchant\nSphinx>=4.5.0\n", "text"),
        ("notes.txt", "Remember: buy milk... and eggs.\n", "text"),
        ("guide.md", "Title\n=====\n", "markdown"),
        ("guide.adoc", "Title\n=====\n", "asciidoc"),
        ("index.rst", "no structure at all", "rst"),
    ],
)
def test_sniff_kind(name: str, text: str, kind: str) -> None:
    assert sniff_kind(name, text) == kind


def test_rst_in_txt_is_chunked_and_titled_as_rst() -> None:
    kind = sniff_kind("intro/tutorial01.txt", DJANGO_TXT)
    assert document_title({}, DJANGO_TXT, "fb", kind=kind) == "Writing your first Django app"
    assert chunk_text(DJANGO_TXT, kind=kind)[0].heading_path == ["Writing your first Django app"]


INSET_TITLE = """\
=========================
 Django 1.6 release notes
=========================

.. note::

    Dedicated to a friend.

Python compatibility
====================

Django 1.6 requires Python 2.6.5 or above.
"""


def test_an_overlined_title_may_be_inset_but_an_underlined_one_may_not() -> None:
    kind = sniff_kind("releases/1.6.txt", INSET_TITLE)
    assert document_title({}, INSET_TITLE, "fb", kind=kind) == "Django 1.6 release notes"
    assert [h[2] for h in headings_of(INSET_TITLE, kind="rst")] == [
        "Django 1.6 release notes",
        "Python compatibility",
    ]
    inset_underlined = "Intro\n\n  not a title\n  ===========\n"
    assert [h[2] for h in headings_of(inset_underlined, kind="rst")] == []


# ---------------------------------------------------------------------------------- metadata
PEP = """\
PEP: 634
Title: Structural Pattern Matching: Specification
Author: Brandt Bucher <brandt@example.org>,
        Guido van Rossum <guido@example.org>
BDFL-Delegate:
Status: Final
Type: Standards Track
Created: 12-Sep-2020
Post-History: 22-Oct-2020,
              08-Feb-2021


Abstract
========

This PEP provides the technical specification.
"""


def test_pep_headers_are_metadata_and_the_title_wins_over_abstract() -> None:
    meta = text_metadata(PEP, "rst")
    assert meta == {
        "pep": "634",
        "title": "Structural Pattern Matching: Specification",
        "author": "Brandt Bucher, Guido van Rossum",
        "status": "Final",
        "type": "Standards Track",
        "created": dt.date(2020, 9, 12),
        "post-history": "22-Oct-2020, 08-Feb-2021",
    }
    assert document_title({}, PEP, "fb", kind="rst") == meta["title"]
    assert document_title({"title": "Front"}, PEP, "fb", kind="rst") == "Front"
    assert headings_of(PEP, kind="rst") == [(14, 1, "Abstract")]


def test_old_style_plain_text_pep() -> None:
    text = (
        "PEP: 8\nTitle: Style Guide\nAuthor: guido@example.org (Guido van Rossum)\n"
        "Created: 2001-07-05\n\nIntroduction\n\n    This document gives conventions.\n"
    )
    meta = text_metadata(text, sniff_kind("pep-0008.txt", text))
    assert meta["title"] == "Style Guide"
    assert meta["author"] == "Guido van Rossum"
    assert meta["created"] == dt.date(2001, 7, 5)


@pytest.mark.parametrize(
    "text",
    [
        "Note: this is prose.\nIt goes on without a colon.\n",  # a second line that is no header
        "Summary: one header alone is a sentence\n\nBody.\n",
        "Title\n=====\n\nPEP: 1\nTitle: too late\n",  # headers only at the top
        "  PEP: 1\n  Title: indented\n",
    ],
)
def test_prose_is_not_headers(text: str) -> None:
    assert "title" not in text_metadata(text, "rst")
    assert "pep" not in text_metadata(text, "rst")


def test_markdown_has_no_text_metadata() -> None:
    assert text_metadata("PEP: 1\nTitle: T\n", "markdown") == {}


SPHINX_PAGE = """\
:orphan:
:tocdepth: 2
:description: How Sphinx reads field lists.
:keywords: fields, metadata,
   docinfo

.. _field-lists:

===========
Field Lists
===========

:Author: Ada Lovelace <ada@example.org>
:Date: 2023-04-01
:Version: 1.2

Text with :field: that is not metadata.
"""


def test_sphinx_file_wide_fields_and_docinfo() -> None:
    assert text_metadata(SPHINX_PAGE, "rst") == {
        "orphan": True,
        "tocdepth": "2",
        "description": "How Sphinx reads field lists.",
        "tags": ["fields", "metadata", "docinfo"],
        "author": "Ada Lovelace",
        "date": dt.date(2023, 4, 1),
        "version": "1.2",
    }
    assert document_title({}, SPHINX_PAGE, "fb", kind="rst") == "Field Lists"


def test_each_author_of_a_docinfo_field_of_its_own_is_kept() -> None:
    nep = (  # as NumPy's NEP 31 lists its three authors
        "======\nNEP 31\n======\n\n:Author: Hameer Abbasi <habbasi@quansight.com>\n"
        ":Author: Ralf Gommers <rgommers@quansight.com>\n:Author: Peter Bell\n"
        ":Author: Ralf Gommers\n:Status: Superseded\n\nText.\n"
    )
    assert text_metadata(nep, "rst") == {
        "author": "Hameer Abbasi, Ralf Gommers, Peter Bell",
        "status": "Superseded",
    }


def test_title_markup_reads_as_text() -> None:
    text = ":mod:`sphinx.ext.todo` -- Support for ``todo`` *items*\n" + "=" * 56 + "\n"
    assert document_title({}, text, "fb", kind="rst") == "sphinx.ext.todo -- Support for todo items"
    for title, shown in [
        ("Docutils_ Hacker's Guide", "Docutils Hacker's Guide"),
        (
            "Writing CSS for reStructuredText__ and Docutils_",
            "Writing CSS for reStructuredText and Docutils",
        ),
        (
            "``__init__`` and snake_case_name and _private",
            "__init__ and snake_case_name and _private",
        ),
        ("A ``literal_`` stays", "A literal_ stays"),
        (":class:`~pkg.Mod` and :pep:`8`", "Mod and PEP 8"),  # as Sphinx shows roles
    ]:
        assert document_title({}, f"{title}\n{'=' * len(title)}\n", "fb", kind="rst") == shown


@pytest.mark.parametrize(
    ("text", "titles"),
    [
        ("if\n==\n\nUsage\n=====\n", ["if", "Usage"]),  # sphinx_needs' directives/if.rst
        ("Options\n-------\n\nid\n~~\n\nS3\n--\n", ["Options", "id", "S3"]),
        ("x\n-\n", ["x"]),
        ("--\nab\n--\n", ["ab"]),
        ("Short\n----\n", ["Short"]),  # four characters: a title (docutils warns)
        ("Prose, then\n--\n\nmore prose\n===\n", []),  # too short for the line above
        ("--\n  ab\n--\n", []),  # the inset counts towards the title's width
        ("日本\n---\n\n日本語\n------\n", ["日本語"]),  # wide characters take two columns
        ("Intro\n\nfoo\nbar\n--\n", []),  # the third line of a paragraph
        ("Code::\n\n    ab\n    --\n", []),
    ],
)
def test_rst_titles_follow_docutils_adornment_rules(text: str, titles: list[str]) -> None:
    assert [h[2] for h in headings_of(text, kind="rst")] == titles


def docutils_titles(text: str) -> list[str]:
    from docutils import nodes
    from docutils.core import publish_doctree

    settings = {"report_level": 5, "halt_level": 5, "doctitle_xform": False}
    tree = publish_doctree(text, settings_overrides=settings)
    return [section[0].astext() for section in tree.findall(nodes.section)]


RST_WORDS = st.from_regex(r"[a-z日é]{1,7}( [a-z]{1,3})?", fullmatch=True)
RST_PARAGRAPH = st.tuples(st.lists(RST_WORDS, min_size=1, max_size=3), st.integers(0, 9)).map(
    lambda p: [*p[0], "=" * p[1]] if p[1] else p[0]  # maybe an adornment under its lines
)
RST_OVERLINED = st.tuples(st.integers(1, 9), st.sampled_from(["", " ", "  "]), RST_WORDS).map(
    lambda p: ["=" * p[0], p[1] + p[2], "=" * p[0]]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(RST_PARAGRAPH | RST_OVERLINED, max_size=6), st.sampled_from("=-~*"))
def test_rst_titles_are_the_sections_docutils_makes(blocks: list[list[str]], style: str) -> None:
    """Paragraphs of words, some with an adornment line under them, and overlined titles,
    adornments of every length: the titles found are the sections docutils makes (one adornment
    character per document, so no title level is inconsistent)."""
    text = "\n\n".join("\n".join(block) for block in blocks).replace("=", style) + "\n"
    assert [h[2] for h in headings_of(text, kind="rst")] == docutils_titles(text)


def test_rst_title_substitutions_read_as_their_text_or_nothing() -> None:
    scrapy = "==============================\nScrapy |version| documentation\n" + "=" * 30 + "\n"
    assert document_title({}, scrapy, "fb", kind="rst") == "Scrapy documentation"
    text = (
        "Using |tool|_ with |Py| and ``|literal|``\n" + "=" * 40 + "\n\nText.\n\n"
        ".. |tool| replace:: the *Catdoc*\n   tool\n.. |py| replace:: |ver|\n"
        ".. |ver| replace:: Python 3\n"
    )
    assert (
        headings_of(text, kind="rst")[0][2] == "Using the Catdoc tool with Python 3 and |literal|"
    )
    assert (
        document_title({}, "|logo|\n======\n\n.. |logo| image:: x.png\n", "fb", kind="rst") == "fb"
    )


def test_a_docinfo_value_that_is_only_a_substitution_is_its_text_or_left_out() -> None:
    celery = "============\n User Guide\n============\n\n:Release: |version|\n:Date: |today|\n"
    assert text_metadata(celery, "rst") == {}
    text = (
        ":orphan:\n:owner: |team|\n\nTitle\n=====\n\n:Status: |st|_ now\n\n"
        ".. |team| replace:: Docs\n"
    )
    assert text_metadata(text, "rst") == {"orphan": True, "owner": "Docs", "status": "|st|_ now"}


def test_an_rst_page_without_a_title_is_named_after_the_module_it_documents() -> None:
    amqp = (  # celery's docs/reference/celery.app.amqp.rst
        ".. currentmodule:: celery.app.amqp\n\n.. automodule:: celery.app.amqp\n\n"
        "    AMQP\n    ----\n"
    )
    assert document_title({}, amqp, "fb", kind="rst") == "celery.app.amqp"
    assert document_title({}, ".. py:module:: pkg.mod\n", "fb", kind="rst") == "pkg.mod"
    titled = "Title\n=====\n\n.. automodule:: pkg.mod\n"
    assert document_title({}, titled, "fb", kind="rst") == "Title"
    in_code = "::\n\n.. automodule:: pkg.mod\n\nText.\n"
    assert document_title({}, in_code.replace("\n..", "\n    .."), "fb", kind="rst") == "fb"


@pytest.mark.parametrize(
    ("heading", "shown"),
    [
        ("# `pyproject.toml`", "pyproject.toml"),
        ("## `setup.py` (legacy) { #legacy .note }", "setup.py (legacy)"),
        ("# The [*guide*](g.md), ![logo](x.png) and [ref][1]", "The guide, logo and ref"),
        ("# **Bold**, *it*, _em_ and {doc}`Install <install>`", "Bold, it, em and Install"),
        ("# `*stars*` and `a\\_b` in code stay", "*stars* and a\\_b in code stay"),
        (
            "# Escaped \\*not\\* emphasis, snake_case_name",
            "Escaped *not* emphasis, snake_case_name",
        ),
        ("Setext `title`\n===", "Setext title"),
        ("# C# and a * b * c", "C# and a * b * c"),
        ("# {class}`~pkg.Mod` and {pep}`8`", "Mod and PEP 8"),
        ("# Contributing &amp; Support &#8212; `&amp;`", "Contributing & Support — &amp;"),
        ("## [1.18.2](https://x.org) - 2026-10-27 ## {: #hatch-v1.18.2 }", "1.18.2 - 2026-10-27"),
        ('## Deep {#deep-1 .tab key="a b" k2=v}', "Deep"),  # markup.ATTRIBUTE_LIST's forms
        ("# Pandoc {lang=en}", "Pandoc"),
        ("# Not {an attribute list}", "Not {an attribute list}"),
        ("# Glued{#x}", "Glued{#x}"),  # an attribute list follows a space
    ],
)
def test_markdown_heading_markup_reads_as_text(heading: str, shown: str) -> None:
    assert document_title({}, heading + "\n\nBody.\n", "fb", kind="markdown") == shown


@pytest.mark.parametrize("opener", [" {", " {#a", ' {k="', " {:", " ", " {#a} ", " {.a .b"])
def test_a_heading_attribute_list_is_found_in_linear_time(opener: str) -> None:
    """Finishes (a scan retried from each opener would take minutes on these lines); the
    closing hashes' pattern, looked for after the list, likewise."""
    from catdoc.markup import _MD_CLOSING_HASHES, _MD_TITLE_ATTRS

    for line in (opener * 100_000 + "x", " {#a" + opener * 100_000 + "x"):
        _MD_TITLE_ATTRS.sub("", line)
        _MD_CLOSING_HASHES.sub("", line)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="`*_[](){}\\!#ab <>:.", max_size=600))
def test_a_markdown_heading_only_loses_markup(title: str) -> None:
    plain = plain_markdown(title)
    assert len(plain) <= len(title.strip())
    bare = title.translate(str.maketrans("", "", "`*_[{\\"))
    assert plain_markdown(bare) == bare.strip()


def test_import_reads_pep_metadata_front_matter_winning(tmp_path: Path) -> None:
    CatDoc.init(tmp_path)
    shutil.copytree(PEPS, tmp_path / "peps")
    (tmp_path / "peps" / "pep-0102.rst").write_text(
        (PEPS / "pep-0102.rst").read_text().replace("Status: Superseded", "Status: Withdrawn")
    )
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "tutorial.txt").write_text(DJANGO_TXT)
    (tmp_path / "guide" / "note.md").write_text(
        "---\ntitle: From front matter\n---\nPEP: 1\nTitle: Not this\n"
    )
    service = CatDoc(tmp_path)
    result = service.import_documents(["peps", "guide"])
    assert result.created == 6
    objects = {obj.path: obj for obj in service.project().object_by_id.values() if obj.path}
    pep = objects["peps/pep-0634.rst"]
    assert pep.title == "Structural Pattern Matching: Specification"
    assert pep.author == "Brandt Bucher, Guido van Rossum"
    assert pep.created == dt.date(2020, 9, 12)
    assert pep.metadata["status"] == "Final" and pep.metadata["pep"] == "634"
    assert objects["peps/pep-0102.rst"].metadata["status"] == "Withdrawn"
    archive = objects["peps/archive.rst"]
    assert archive.summary == "Old notes on widget releases, kept for history."
    assert archive.tags == ["releases", "history"]
    assert archive.created == dt.date(2003, 4, 1)
    assert objects["guide/tutorial.txt"].title == "Writing your first Django app"
    assert objects["guide/note.md"].title == "From front matter"
    # re-running changes nothing
    again = CatDoc(tmp_path).import_documents(["peps", "guide"])
    assert again.unchanged == 6


# ---------------------------------------------------------------------------------- roles
def test_sphinx_roles() -> None:
    text = (
        "See :doc:`Read this <../guide/install>` and :ref:`!Patterns`.\n"
        "The :py:class:`~collections.abc.Sequence` and :rst:dir:`code-block`, :pep:`634`.\n"
        "A :ref:`loose form of semantic\n    versioning <internal-release-cadence>` and\n"
        ":ref:`dropped features<removed-features-2.0>`, :doc:` spaced `.\n"
    )
    assert refs(text) == [
        ("role", "../guide/install", 1, "doc"),
        ("role", "collections.abc.Sequence", 2, "py:class"),
        ("role", "code-block", 2, "rst:dir"),
        ("role", "634", 2, "pep"),
        ("role", "internal-release-cadence", 3, "ref"),
        ("role", "removed-features-2.0", 5, "ref"),
        ("role", "spaced", 5, "doc"),
    ]


def test_a_role_whose_content_starts_with_a_bang_is_no_reference() -> None:
    """Sphinx makes no cross-reference of `:ref:`!label``, whatever the role (sphinx_needs'
    changelog names removed options so); a `!` after an explicit title is part of the target."""
    text = (
        "Added :ref:`!export_id`, :doc:`!old/page`, :py:class:`!Gone` and :ref:`!Title <x>`.\n"
        "But :ref:`Title <!kept>` is one.\n"
    )
    assert refs(text) == [("role", "!kept", 2, "ref")]
    assert refs("See {ref}`!export_id` and {doc}`!old`.\n", "markdown") == []


def test_an_explicit_title_ends_at_the_final_unescaped_angle_bracket() -> None:
    """As Sphinx's `explicit_title_re`: the target is the final `<…>`; in reST a `\\<` is an
    escaped character, no target's start, and the escapes go (`\\_` is `_`)."""
    text = (
        "The :ref:`\\<{ ... }> syntax <needs_variant_data_references>` and\n"
        ":ref:`a <b> then <c>`, :ref:`not \\<a-target>`, :ref:`snake\\_case`.\n"
    )
    assert refs(text) == [
        ("role", "needs_variant_data_references", 1, "ref"),
        ("role", "c", 2, "ref"),
        ("role", "not <a-target>", 2, "ref"),
        ("role", "snake_case", 2, "ref"),
    ]
    # MyST hands a role its text as written: there is no escape in a code span
    assert refs("{ref}`\\<x> <y>` {doc}`a\\_b`\n", "markdown") == [
        ("role", "y", 1, "ref"),
        ("role", "a\\_b", 1, "doc"),
    ]


TITLE_TEXT = st.text(alphabet="ab -<>{}.", min_size=1, max_size=12).filter(
    lambda t: t.strip() and not t.startswith(("!", " ", "<"))
)


@settings(max_examples=150, deadline=None)
@given(TITLE_TEXT, st.text(alphabet="ab-_/. ", min_size=1, max_size=12))
def test_the_target_of_an_explicit_title_is_what_is_in_its_last_brackets(
    title: str, target: str
) -> None:
    assume(target.strip() and not target.strip().startswith("~"))
    text = f"See :doc:`{title} <{target}>`.\n"
    assert [r.target for r in extract_references(text, kind="rst")] == [" ".join(target.split())]


def test_roles_in_footnotes_directives_and_substitutions_count() -> None:
    text = (
        ".. [#branches] See :pep:`102`.\n\n"
        ".. seealso:: :ref:`install`\n\n"
        ".. versionchanged:: 2.0  Now :func:`mapped_column`\n    and :doc:`orm/quickstart`.\n\n"
        ".. |RM| replace:: the :term:`release manager`\n"
    )
    assert [(t, line, role) for _, t, line, role in refs(text)] == [
        ("102", 1, "pep"),
        ("install", 3, "ref"),
        ("mapped_column", 5, "func"),
        ("orm/quickstart", 6, "doc"),
        ("release manager", 8, "term"),
    ]


def test_rst_hyperlinks_to_files() -> None:
    text = (
        "Read `the archive <archive.rst>`_ and `Install\n<../install.rst#step>`__.\n"
        "Not `a site <https://example.org/a.rst>`_, `mail <ada@example.org>`_,\n"
        "`named target`_, `an alias <named_>`_, `title<glued.rst>`_ or `interpreted`.\n"
    )
    assert refs(text) == [("link", "archive.rst", 1, None), ("link", "../install.rst", 1, None)]


def test_markdown_gets_myst_roles_and_keeps_its_rules() -> None:
    text = (
        "Read {doc}`the guide <guide/install>` and {ref}`my-label`; ``{doc}`code` ``.\n"
        "Also @req-auth, @glossary, #auth-uses-db and [x](other.md), [[Wiki]].\n"
        "```python\n@property\n```\n"
    )
    assert refs(text, "markdown") == [
        ("role", "guide/install", 1, "doc"),
        ("role", "my-label", 1, "ref"),
        ("wiki", "Wiki", 2, None),
        ("link", "other.md", 2, None),
        ("object", "req-auth", 2, None),
        ("object", "glossary", 2, None),
        ("morphism", "auth-uses-db", 2, None),
    ]


def test_markdown_html_tags_hold_links_and_no_mentions() -> None:
    text = (
        "See <a href=\"#survey-1\">the survey</a>, <A HREF='../guide.md#part'>the guide</A>,\n"
        '<a title="@not-1" href="https://x.org/a.md">out</a> <img alt="@pic-2" src="p.png">\n'
        '<span class="note">#real-3 and @real-4</span> but 3 <b and c> @real-5.\n'
        '<a href="caf&eacute;.md">x</a> <a name="#anchor-6"></a>\n'
    )
    assert refs(text, "markdown") == [
        ("link", "../guide.md", 1, None),
        ("object", "real-4", 3, None),
        ("object", "real-5", 3, None),
        ("morphism", "real-3", 3, None),
        ("link", "café.md", 4, None),
    ]
    # reST and plain text have no HTML: their mentions are read as ever
    assert mentions('<a href="x">@req-1</a>') == ["req-1"]


def test_markdown_link_ends_labels_and_shorthands_are_no_mentions() -> None:
    text = (
        "To learn more see [UML Diagram\nExample](#uml-diagram-example) and [the\n"
        'guide](guide.md "Guide").\n'
        "The [option][#options] label, (@bitbucket:ned/repo) and #gh:1 shorthands,\n"
        "but @req-1: and #m-2: end a sentence.\n"
        '<a href="alone.md">Alone on its line</a>\n'
    )
    assert refs(text, "markdown") == [
        ("link", "#uml-diagram-example", 2, None),  # an anchor: the resolver knows if it counts
        ("link", "guide.md", 3, None),
        ("object", "req-1", 5, None),
        ("morphism", "m-2", 5, None),
        ("link", "alone.md", 6, None),
    ]


def test_the_text_of_a_link_is_no_mention() -> None:
    """A link's text labels where it points (starlette's release notes thank
    `[@tiangolo](https://github.com/tiangolo)`): the link is the reference, or for a URL none;
    so too the text of a reference link, and of a `[label]` the document defines a link for."""
    text = (
        "Thanks [@tiangolo](https://github.com/tiangolo), [@ada-1][gh], [@bob-2][] and\n"
        "[@cy-3], ![@alt-4](logo.png), [@dee-5 docs](guide.md) but [@eve-6] and @real-7.\n\n"
        "[@cy-3]: https://github.com/cy\n"
        "[GH]: https://github.com\n"
    )
    for kind in ("markdown", "text"):
        assert refs(text, kind) == [
            ("link", "guide.md", 2, None),
            ("object", "eve-6", 2, None),  # no definition: brackets around a mention
            ("object", "real-7", 2, None),
        ]


def test_attribute_lists_with_dotted_ids_are_no_mentions() -> None:
    text = (
        "## [1.18.2](https://x.org) ## {: #hatch-v1.18.2 }\n"
        "[](){#command-3.x}\nText {#real .cls-1.2 key=v} and #m-1.\n"
    )
    assert refs(text, "markdown") == [("morphism", "m-1", 3, None)]


def test_the_text_of_an_html_link_is_no_mention() -> None:
    """As a Markdown link's: `<a href="https://github.com/ada">@ada</a>` thanks a person."""
    text = (
        'Thanks <a href="https://github.com/ada">@ada-1</a>, <A HREF="guide.md">the @guide-2</A>'
        ' and <a href="x.md"><code>@code-3</code></a> but @real-4 and <b>@real-5</b>.\n'
    )
    assert refs(text, "markdown") == [
        ("link", "guide.md", 1, None),
        ("link", "x.md", 1, None),
        ("object", "real-4", 1, None),
        ("object", "real-5", 1, None),
    ]


@pytest.mark.parametrize(
    "bad",
    ['<a "', "<a href='", '<a b="c" ', "<a <", "<a " + "x" * 64, "<a>x</b>", '<a href="x"></i>'],
)
def test_unclosed_html_tags_are_read_in_linear_time(bad: str) -> None:
    text = "@req-1 " + bad * 50_000 + "\n"
    assert mentions(text, "markdown") == ["req-1"]


# ---------------------------------------------------------------------------------- toctrees
RST_TOCTREES = """\
Guide
=====

.. toctree::
   :maxdepth: 2
   :caption: Start @req-1

   intro
   Installing <install/index>
   self
   GitHub <https://github.com/org/repo>
   /topics/deep.rst
   #m-2 notes
   genindex

.. toctree::
   :glob:

   news/*
   Kept [a] <other>
   faq

.. toctree::
   first
   second

.. toctree::
   :maxdepth: 2
   not-an-option

.. code-block:: rst

   .. toctree::

      in-code

After @req-3.
"""


def test_rst_toctree_entries_are_references() -> None:
    """One `toctree` role reference per entry, as Sphinx reads them: `Title <path>` names the
    path; with `:glob:` a pattern is a pattern (the resolver lists what it matches); `self` and
    URLs name no document; an option block with an entry in it is an error (no entries); the
    entries and options are no prose."""
    found = extract_references(RST_TOCTREES, kind="rst")
    assert [r.target for r in found if r.pattern] == ["news/*"]
    assert refs(RST_TOCTREES) == [
        ("role", "intro", 8, "toctree"),
        ("role", "install/index", 9, "toctree"),
        ("role", "/topics/deep.rst", 12, "toctree"),
        ("role", "#m-2 notes", 13, "toctree"),
        ("role", "genindex", 14, "toctree"),
        ("role", "news/*", 19, "toctree"),
        ("role", "other", 20, "toctree"),
        ("role", "faq", 21, "toctree"),
        ("role", "first", 24, "toctree"),
        ("role", "second", 25, "toctree"),
        ("object", "req-3", 37, None),
    ]


MYST_TOCTREES = """\
# Guide

```{toctree}
---
maxdepth: 2
glob:
---

news/*
intro
```
:::{toctree}
:maxdepth: 1
:caption: @req-1
Title <install.md>
#m-2
:::

````md
```{toctree}
in-a-code-example
```
````

    ```{toctree}
    indented-code
    ```

<!--
```{toctree}
commented-out
```
-->

- A list item:

  ```{toctree} first-line
  in-a-list
  ```

@req-3

````{note}
A toctree in a directive's Markdown body, @req-4:

```{toctree}
nested
```
````
"""


def test_myst_toctree_entries_are_references() -> None:
    assert refs(MYST_TOCTREES, "markdown") == [
        ("role", "news/*", 9, "toctree"),  # a `:glob:` pattern
        ("role", "intro", 10, "toctree"),
        ("role", "install.md", 15, "toctree"),
        ("role", "#m-2", 16, "toctree"),
        ("role", "first-line", 37, "toctree"),
        ("role", "in-a-list", 38, "toctree"),
        ("object", "req-3", 41, None),
        ("object", "req-4", 44, None),
        ("role", "nested", 47, "toctree"),
    ]


def test_a_myst_toctree_ends_where_the_markdown_scanner_ends_its_fence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A toctree left open in a directive ends with the directive's closing line, as MyST reads
    a body up to its closing line first: what follows is prose again, not entries. The fences
    are read once, by the Markdown scanner (`Structure.fence_ends`)."""
    scans = 0
    real = markup.scan_markdown

    def counted(lines: list[str]) -> markup.Structure:
        nonlocal scans
        scans += 1
        return real(lines)

    monkeypatch.setattr(markup, "scan_markdown", counted)
    text = (
        "::::{note}\n```{toctree}\n:maxdepth: 1\nintro\n::::\n\nAfter @req-1, [guide](guide.md).\n"
        "\n:::{TocTree} first\n:glob:\nnews/*\n:::\n"
    )
    assert refs(text, "markdown") == [
        ("role", "intro", 4, "toctree"),
        ("link", "guide.md", 7, None),
        ("object", "req-1", 7, None),
        ("role", "first", 9, "toctree"),
        ("role", "news/*", 11, "toctree"),
    ]
    assert scans == 1


# ---------------------------------------------------------------------------------- labels
def test_labels() -> None:
    text = (
        ".. _Install Steps:\n\nInstall\n=======\n\n"
        ".. _`label: with colon`:\n.. _a\\:b:\n"
        ".. _python: https://python.org\n"
        ".. _spread:\n   https://example.org/long\n"
        ".. __: https://anonymous.org\n\n"
        "   .. _inside-a-directive:\n\n"
        "::\n\n    .. _in-code:\n"
    )
    assert labels_of(text, "rst") == [
        ("install steps", 1),
        ("label: with colon", 6),
        ("a:b", 7),
        ("inside-a-directive", 13),
    ]
    assert normalize_label("  Install\n   Steps ") == "install steps"


def test_a_code_directive_may_open_a_list_item() -> None:
    """Docutils reads explicit markup as a list item's first body element: a `code-block` or a
    comment opening an item holds code (its content indented past the item's column), and the
    item's text below it is prose again."""
    text = (
        "Title\n=====\n\n- .. code-block:: python\n\n     @app.route-1\n     x = '@code-2'\n\n"
        "  Item text @prose-3.\n\n1. .. note:: Hello @note-4.\n\n"
        "(b)\t.. a comment @comment-5\n\n- Plain item @prose-6.\n"
    )
    assert mentions(text) == ["prose-3", "note-4", "prose-6"]


def test_a_target_may_open_a_list_item() -> None:
    """Docutils reads explicit markup as a list item's first body element (scrapy's
    optimize.rst: `-   .. _broad-crawls-concurrency:`); the item's text is no label, and the
    target is no prose."""
    text = (
        "-   .. _broad-crawls-concurrency:\n\n    Increase the concurrency.\n\n"
        "1. .. _step-one:\n   Directly under it.\n"
        "(ii) .. _url-item: https://example.org\n"
        "* .. _continued:\n    https://example.org/on-the-next-line\n"
        "- Text then .. _not-a-label:\n"
        "-   .. _req-1:\n"
    )
    assert labels_of(text, "rst") == [
        ("broad-crawls-concurrency", 1),
        ("step-one", 5),
        ("req-1", 11),
    ]
    assert mentions(text) == []


def test_directive_names_are_labels() -> None:
    text = (
        "Title\n=====\n\n"
        ".. figure:: a.png\n   :alt: a value\n         continued\n   :name: Fig One\n\n"
        "   Caption :name: no.\n\n"
        ".. code-block:: python\n   :caption: Example\n   :name: code-one\n\n"
        "   x = 1\n   :name: in-the-code\n\n"
        ".. code-block:: rst\n\n   .. figure:: b.png\n      :name: in-an-example\n\n"
        ".. note::\n\n   :name: in-the-body\n\n"
        ":name: a-field-of-the-text\n"
    )
    assert labels_of(text, "rst") == [("fig one", 7), ("code-one", 13)]
    assert labels_of(".. figure:: a.png\n   :name: x\n", "markdown") == []


def test_myst_directive_names_are_labels() -> None:
    text = (
        "# Title\n\n```{figure} flow.png\n:alt: Flow\n:name: data-flow\n\nThe flow.\n```\n\n"
        "```{code-block} python\n:name: code-one\n\nx = 1\n```\n\n"
        "```{list-table}\n---\nheader-rows: 1\nname: 'table-one'\n---\n* - a\n```\n\n"
        "```{note}\nText first.\n:name: not-an-option\n```\n\n"
        "```python\n:name: in-code\n```\n"
    )
    assert labels_of(text, "markdown") == [("data-flow", 5), ("code-one", 11), ("table-one", 19)]


def test_myst_labels() -> None:
    text = "(my-Label)=\n# Title\n\n```\n(in-code)=\n```\n```{note}\n(in-a-note)=\nText.\n```\n"
    assert labels_of(text, "markdown") == [("my-label", 1), ("in-a-note", 8)]
    assert labels_of(".. _x:\n", "text") == []


# ---------------------------------------------------------------------------------- never
@pytest.mark.parametrize(
    "text",
    [
        "A footnote [#fn-hi]_, a number [1]_, auto [*]_ and a citation [CIT-2002]_.",
        ".. [#fn-hi] A footnote whose label is all it has.\n",
        "A |sub-1| substitution and |#sub-2|_ too.",
        "Write to ada-1@example.org or see https://x.org/#frag-1 and <https://x.org/@me-2>.",
        "Run this::\n\n    @app-1 and #tag-2\n\nAfter.",
        ".. code-block:: python\n   :caption: @cap-1\n\n   @deco-1\n",
        ".. code:: python\n\n   #comment-1\n",
        ".. sourcecode:: pycon+sql\n\n   >>> @x-1\n",
        ".. literalinclude:: ../x-1.py\n   :caption: #inc-1\n",
        ">>> @doctest-1\n... #more-2\n",
        "Inline ``@lit-1`` and ``#lit-2\nspanning`` literals.",
        ".. note::\n   :class: #opt-1\n\n   Body.",
        ":see @req-1: a field name is not prose\n",
        ".. comment with @req-1\n   and #more-2\n",
        ".. _python-3: https://python.org\n   #cont-1\n",
        "Prose.\n\n__ https://docs.python.org/3/library/configparser.html\n   #ini-1\n",
        "  __ https://x.org/a.html\n     #deep-1\n  __ https://x.org/b.html\n     #deep-2\n",
        "@cache2\n@functools.cache\ndef f():\n    pass\n",
        "Use @property, @dataclass and @pytest.fixture, @app.route-2 or @lru_cache(3).",
        "A colour #8f5bb2, issue #123, C# and e-mail x@y-1.org.",
    ],
)
def test_never_references_in_rst(text: str) -> None:
    assert mentions(text) == []
    assert [r for r in refs(text) if r[0] != "role"] == []


def test_an_anonymous_target_is_one_only_where_a_block_starts() -> None:
    text = "Para with __ init__ and\n__ mid-paragraph #mid-1\n\n__ https://x.org\n   #gone-1\n"
    assert mentions(text) == ["mid-1"]


def test_decorator_chain_is_code_in_every_kind() -> None:
    text = "@req-auth is prose.\n\n@app.get('/x')\n@requires(auth)\nasync def handler():\n"
    assert mentions(text, "markdown") == ["req-auth"]
    assert mentions("@req-auth\n@req-user\n", "markdown") == ["req-auth", "req-user"]


def test_markdown_attribute_lists_are_anchors_not_references() -> None:
    text = (
        '# Code blocks { #code-blocks }\n\n## Deep {#deep-1 .tab key="a b" k2=v}\n\n'
        "{: #note-1 .warning }\n![x](pic.png){ .wide }\n"
        "See #auth-uses-db, {not an #attr-1 list} and { #a-1 @req-auth }.\n"
    )
    assert sorted(mentions(text, "markdown")) == ["a-1", "attr-1", "auth-uses-db", "req-auth"]
    renamed = rename_mentions(text, "code-blocks", "x", kind="markdown", sigil="#")
    assert renamed == text  # an anchor is not rewritten by a rename


# ---------------------------------------------------------------------------------- the rule
DJANGO_PROSE = """\
Decorators
==========

Use the :func:`~django.views.decorators.csrf.csrf_exempt` decorator, or write
@csrf_exempt above the view. The @property, @cached_property and
@admin.display(description="x") decorators, @classmethod too, are not objects.
Thanks to @mitsuhiko. Colours such as #fff and #8f5bb2 are not morphisms.

But this design follows @req-auth and @adr-7 through #auth-uses-db (see @spec2).
"""


def test_catdoc_way_mentions_in_rst_and_text() -> None:
    assert mentions(DJANGO_PROSE, "rst") == ["req-auth", "adr-7", "auth-uses-db", "spec2"]
    assert sorted(mentions(DJANGO_PROSE, "text")) == ["adr-7", "auth-uses-db", "req-auth", "spec2"]
    # Markdown keeps reading every @id / #id with a letter
    assert "property" in mentions(DJANGO_PROSE, "markdown")


def test_rename_follows_the_rule() -> None:
    text = (
        "Title\n=====\n\nSee @req-a, ``@req-a`` and @req-a.fixture,\n"
        "then :ref:`@req-a <x>` and\n@req-a again.\n"
    )
    out = rename_mentions(text, "req-a", "req-z", kind="rst")
    assert out == text.replace("See @req-a,", "See @req-z,").replace(
        "\n@req-a again", "\n@req-z again"
    )
    assert rename_mentions("Use @prop here.", "prop", "x", kind="rst") == "Use @prop here."
    crlf = "See @req-a.\r\nAnd #m-1.\r\n"
    assert rename_mentions(crlf, "req-a", "req-b", kind="text") == "See @req-b.\r\nAnd #m-1.\r\n"


def test_pep_fixture_tree_references() -> None:
    text = (PEPS / "pep-0102.rst").read_text()
    assert extract_references(text, kind="rst") == [
        Reference("role", "101", 17, "pep"),
        Reference("role", "release-steps", 17, "ref"),
        Reference("link", "archive.rst", 18),
    ]
    assert labels_of((PEPS / "pep-0101.rst").read_text(), "rst") == [("release-steps", 18)]
    with_fields = extract_references(text, kind="rst", fields={"superseded-by", "replaces"})
    assert with_fields[0] == Reference("field", "101", 11, "superseded-by")
    assert with_fields[1:] == extract_references(text, kind="rst")


def test_header_fields_name_documents_only_when_asked_and_only_in_the_opening_block() -> None:
    text = (
        "---\nid: pep-0700\n---\n"  # front matter shifts the lines
        "PEP: 700\nTitle: Requires: nothing, really\nRequires: 484,\n   526 ,, 3107\n"
        "Replaces: 12\n\nRequires: 9 (prose, not a header block)\n"
    )
    refs = extract_references(text, kind="text", fields={"requires", "replaces"})
    assert refs == [
        Reference("field", "484", 6, "requires"),
        Reference("field", "526", 6, "requires"),
        Reference("field", "3107", 6, "requires"),
        Reference("field", "12", 8, "replaces"),
    ]
    assert extract_references(text, kind="text") == []
    assert extract_references(text, kind="markdown", fields={"requires"}) == []


# ---------------------------------------------------------------------------------- fuzzing
MARKUP = st.text(
    alphabet=st.sampled_from(list("ab1-_. \t\n:`@#[]()<>|*!~=>/\\{}")),
    max_size=400,
)
SNIPPETS = st.sampled_from(
    [
        ":ref:`",
        "`_",
        "``",
        ".. _",
        ".. code-block:: x\n",
        ".. figure:: a.png\n",
        "   :name: fig-1\n",
        "   :alt: a\n",
        "::\n\n",
        "PEP: 1\n",
        "Title: x\n",
        ":orphan:\n",
        "=====\n",
        "@req-1",
        "#m-2",
        "{doc}`",
        "..",
        "::",
        ">>> ",
        "(lab)=\n",
        "[#f]_",
        "|s|",
        "@deco\ndef f():\n",
        "\r\n",
        "\r",
        "Requires: 8, 484\n",
        "Title: A, B\n",
        "  , 9\n",
        "= T\n",
        "== S ==\n",
        ":author: A; B\n",
        "v1, 2024-01-01: r\n",
        "----\n",
        "-----\n",
        "....\n",
        "////\n",
        "====\n",
        "|===\n",
        "--\n",
        "```\n",
        "[source,python]\n",
        "[[a-1]]",
        "[#b-2.c]#",
        "// c\n",
        "xref:a.adoc#f[",
        "xref:m:p.adoc[]",
        "<<a.adoc#x,y>>",
        "<<",
        ">>",
        "link:b.html[",
        "+#p-1+",
        "+++",
        "include::x[]\n",
        "<!--",
        "-->",
        '<a href="x.md">',
        "<img alt='@req-1'>",
        "](y.md)",
        "][#l]",
        "[@req-1]",
        "[@req-1]: https://x.org\n",
        "- .. _l-1:\n",
        ":ref:`!",
        "\\<",
        ".. toctree::\n",
        "   :glob:\n",
        "```{toctree}\n",
        ":::{toctree}\n",
        "---\n",
        "Title <a>\n",
        '!!! note "T"\n',
        "```{note}\n",
        "````{admonition} T\n",
        "~~~{code-block} py\n",
        ":::{tip}\n",
        ":::\n",
        ":class: x\n",
        "    ",
        "@req-1:b",
        "&amp;",
        " \\\n",
        "\x00",
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.one_of(MARKUP, SNIPPETS), max_size=30),
    st.sampled_from(["rst", "markdown", "asciidoc", "text"]),
)
def test_parsers_never_fail_and_lines_are_valid(parts: list[str], kind: str) -> None:
    text = "".join(parts)
    count = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    for ref in extract_references(text, kind=kind, fields={"requires"}):  # type: ignore[arg-type]
        assert 1 <= ref.line <= count and ref.target
        assert ref.target == ref.target.strip()
        assert ref.kind != "field" or (ref.role == "requires" and "," not in ref.target)
    for label, line in labels_of(text, kind):  # type: ignore[arg-type]
        assert 1 <= line <= count and label == normalize_label(label)
    assert isinstance(text_metadata(text, kind), dict)  # type: ignore[arg-type]
    assert sniff_kind("x.txt", text) in ("rst", "text")
    assert isinstance(document_title({}, text, "fb", kind=kind), str)  # type: ignore[arg-type]
    for line, level, _title in headings_of(text, kind=kind):  # type: ignore[arg-type]
        assert 1 <= line <= count and level >= 1
    for chunk in chunk_text(text, kind=kind):  # type: ignore[arg-type]
        assert 1 <= chunk.start_line <= chunk.end_line <= count


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.one_of(MARKUP, SNIPPETS), max_size=20),
    st.sampled_from(["rst", "markdown", "asciidoc", "text"]),
)
def test_rename_then_extract_agree(parts: list[str], kind: str) -> None:
    text = "".join(parts).replace("\r", "")
    before = extract_references(text, kind=kind)  # type: ignore[arg-type]
    assert rename_mentions(text, "req-1", "req-1", kind=kind) == text  # type: ignore[arg-type]
    renamed = rename_mentions(text, "req-1", "req-9", kind=kind)  # type: ignore[arg-type]
    after = extract_references(renamed, kind=kind)  # type: ignore[arg-type]
    expected = [
        Reference(r.kind, "req-9", r.line, r.role)
        if r.kind == "object" and r.target == "req-1"
        else r
        for r in before
    ]
    assert [(r.kind, r.line) for r in after] == [(r.kind, r.line) for r in expected]
    assert [r.target for r in after if r.kind == "object"] == [
        r.target for r in expected if r.kind == "object"
    ]


def test_pathological_inputs_finish() -> None:
    """Openers without closers, long role-like runs and huge paragraphs are scanned in one
    pass (the scans are linear; their speed is measured outside the tests)."""
    for text in (
        "`a " * 20_000,
        "``a " * 20_000,
        ":a" * 30_000 + "`",
        "{r}`x " * 20_000,
        "[#a " * 20_000,
        "|a " * 20_000,
        ".. _" + "a:" * 20_000,
        "PEP: 1\n" + "  x\n" * 20_000,
        "----\n" + "x\n" * 100_000,  # an unclosed listing block
        "= T\n" + ":a: b \\\n" * 20_000,
        "= " + "*a " * 30_000 + "\n",
        "+a " * 30_000 + "\n" + "<<a " * 20_000 + "\n" + "xref:" * 20_000,
        "-xref:-link:-image:" * 10_000 + "\n" + "`+" * 30_000,
        "[" + "#a" * 30_000 + "]\n" + "a" * 200_000 + "::\n" + "= " + " " * 100_000 + "x",
        "```{a}\n" * 30_000 + "~~~\n:::\n" * 30_000,  # directives in directives, no closer
    ):
        for kind in ("rst", "markdown", "asciidoc", "text"):
            extract_references(text, kind=kind)  # type: ignore[arg-type]
            labels_of(text, kind)  # type: ignore[arg-type]
            text_metadata(text, kind)  # type: ignore[arg-type]
