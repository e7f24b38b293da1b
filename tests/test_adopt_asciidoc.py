"""Adopting an AsciiDoc docs tree: titles, sections and chunks, the document header as metadata,
`xref:`/`<<…>>`/`link:` references, what is never a reference, and how the faces show it.

The fixtures are written the way Asciidoctor's and Antora's documentation is (short, made up).
"""

from __future__ import annotations

import datetime as dt

from catdoc.documents import (
    chunk_text,
    document_title,
    extract_references,
    headings_of,
    kind_of,
    sniff_kind,
    text_metadata,
)

DESIGN = """\
= Payment Service Design
Ada Lovelace <ada@example.org>; Grace Hopper
v1.2, 2024-03-05: First draft
:description: How a payment flows from the cart to the bank.
:keywords: payments, api
:status: draft
:toc: left
:icons: font

== Overview

The service follows xref:api.adoc[the API] and its <<api.adoc#limits,limits>>.
See link:guide.adoc[Guide] and <<overview-notes>> for more (@req-pay-1).

[source,python]
----
@decorator-1
def pay():  #comment-2
    pass
----

=== Retries

Retries back off.
"""

API = """\
= Payment API
:author: Grace Hopper
:revdate: 2024-02-01

[[limits]]
== Limits

At most 10 calls a second.
"""


def refs(text: str) -> list[tuple[str, str, int]]:
    return [(r.kind, r.target, r.line) for r in extract_references(text, kind="asciidoc")]


def mentions(text: str) -> list[str]:
    found = extract_references(text, kind="asciidoc")
    return [r.target for r in found if r.kind in ("object", "morphism")]


# ---------------------------------------------------------------------------------- structure
def test_adoc_files_are_asciidoc_whatever_their_text() -> None:
    assert kind_of("docs/a.adoc") == kind_of("B.ASCIIDOC") == "asciidoc"
    assert sniff_kind("guide.adoc", "Title\n=====\n\n.. note:: reST-like\n") == "asciidoc"


def test_titles_headings_and_chunks() -> None:
    assert document_title({}, DESIGN, "fb", kind="asciidoc") == "Payment Service Design"
    assert headings_of(DESIGN, kind="asciidoc") == [
        (1, 1, "Payment Service Design"),
        (10, 2, "Overview"),
        (22, 3, "Retries"),
    ]
    chunks = chunk_text(DESIGN, kind="asciidoc", max_chars=2000)
    assert [c.heading_path for c in chunks] == [
        ["Payment Service Design"],
        ["Payment Service Design", "Overview"],
        ["Payment Service Design", "Overview", "Retries"],
    ]
    assert (chunks[1].start_line, chunks[1].end_line) == (10, 20)


def test_section_titles_in_their_other_forms_and_never_inside_a_block() -> None:
    text = (
        "Legacy Title\n============\n\nIntro.\n\n"
        "Section *One*\n-------------\n\n"
        "== Symmetric `code` ==\n\n"
        "## Markdown style\n\n"
        "----\n== not a title\n------\n== still code\n----\n\n"
        "////\n== a comment\n////\n\n"
        "====\n[discrete]\n== Inside an example\n====\n\n"
        "Prose line\n== not a title either: a paragraph goes on\n"
    )
    assert [(level, title) for _, level, title in headings_of(text, kind="asciidoc")] == [
        (1, "Legacy Title"),
        (2, "Section One"),
        (2, "Symmetric code"),
        (2, "Markdown style"),
        (2, "Inside an example"),
    ]


def test_a_title_takes_the_text_of_its_markup() -> None:
    for title, shown in [
        ("The `catdoc import` *command*", "The catdoc import command"),
        ("See xref:api.adoc[the API] and <<limits,the limits>>", "See the API and the limits"),
        ("snake_case_name stays", "snake_case_name stays"),
        ("C++ and C# stay", "C++ and C# stay"),
    ]:
        assert document_title({}, f"= {title}\n", "fb", kind="asciidoc") == shown


# ---------------------------------------------------------------------------------- metadata
def test_the_header_is_metadata_named_as_for_rest() -> None:
    assert text_metadata(DESIGN, "asciidoc") == {
        "author": "Ada Lovelace, Grace Hopper",
        "version": "1.2",
        "date": dt.date(2024, 3, 5),
        "revremark": "First draft",
        "description": "How a payment flows from the cart to the bank.",
        "tags": ["payments", "api"],
        "status": "draft",
    }
    assert text_metadata(API, "asciidoc") == {"author": "Grace Hopper", "date": dt.date(2024, 2, 1)}


def test_header_entries_before_the_title_continued_and_unset() -> None:
    text = (
        "// a comment first\n:doctitle: The *Real* Title\n:summary-ish: a long \\\n  value\n"
        ":sectnums!:\n:!hidden:\n:experimental:\n:draft:\n\n= Shown Title\n:late: yes\n"
    )
    assert text_metadata(text, "asciidoc") == {
        "title": "The Real Title",
        "summary-ish": "a long value",
        "draft": True,
    }
    assert document_title({}, text, "fb", kind="asciidoc") == "The Real Title"
    assert text_metadata("== Section first\n:status: no header\n", "asciidoc") == {}
    assert text_metadata("= T\nv3: Final\n", "asciidoc") == {"author": "v3: Final"}
    assert text_metadata("= T\nAda\nv3: Final\n", "asciidoc") == {
        "author": "Ada",
        "version": "3",
        "revremark": "Final",
    }
    assert text_metadata("PEP: 1\nTitle: Not read\n", "asciidoc") == {}
