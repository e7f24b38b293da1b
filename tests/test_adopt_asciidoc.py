"""Adopting an AsciiDoc docs tree: titles, sections and chunks, the document header as metadata,
`xref:`/`<<…>>`/`link:` references, what is never a reference, and how the faces show it.

The fixtures are written the way Asciidoctor's and Antora's documentation is (short, made up).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc import markup
from catdoc.antora import AntoraComponents, Component, Place
from catdoc.cli import app
from catdoc.documents import (
    chunk_text,
    document_title,
    extract_references,
    headings_of,
    kind_of,
    label_key,
    labels_of,
    sniff_kind,
    text_metadata,
)
from catdoc.front_matter import FrontMatter
from catdoc.importer.files import _Doc
from catdoc.importer.names import slugify
from catdoc.importer.planner import _Planner
from catdoc.reflow import display_blocks
from catdoc.service import CatDoc
from catdoc.web.render import document_html

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


# ---------------------------------------------------------------------------------- references
def test_cross_references_and_links_to_other_documents() -> None:
    text = (
        "Read xref:api.adoc[the API], xref:api.adoc#limits[limits] and <<api.adoc#limits,it>>.\n"
        "Also <<api.adoc#limits>>, <<guide#install>>, <<guide.adoc#>> and link:guide.html[Guide].\n"
        "Not <<limits>>, <<limits,Limits>>, xref:limits[], xref:#limits[], <<Section Title>>,\n"
        "link:https://example.org/a.adoc[web], https://example.org[site] or link:{url}/a.adoc[].\n"
        "\n[[limits]]\n== Section Title\n"
    )
    assert refs(text) == [
        ("link", "api.adoc", 1),
        ("link", "api.adoc", 1),
        ("link", "api.adoc", 1),
        ("link", "guide.html", 2),
        ("link", "api.adoc", 2),
        ("link", "guide", 2),
        ("link", "guide.adoc", 2),
    ]


def test_which_cross_reference_names_a_document_is_asciidoctors_rule() -> None:
    """Asciidoctor 2 (`Substitutors#sub_macros`): the shorthand names a document only with a `#`
    (`<<guide.adoc>>` is the id `guide.adoc`, a link to `#guide.adoc`); the macro also when it
    ends in `.adoc` or has another extension (`xref:sections.d/first[]` is an id: no extension
    after the last `/`), a file that is no document being no reference."""
    text = (
        "<<guide.adoc>> <<guide#>> <<guide.adoc#sec>> <<guide.adoc#>> <<#sec>>\n"
        "xref:guide.adoc[] xref:guide[] xref:guide#[] xref:guide.adoc#sec[] xref:guide.html[]\n"
        "xref:sections.d/first[] xref:refcard.pdf[] xref:shop:ops:run.adoc[]\n"
    )
    assert refs(text) == [
        ("link", "#guide.adoc", 1),
        ("link", "guide", 1),
        ("link", "guide.adoc", 1),
        ("link", "guide.adoc", 1),
        ("link", "#sec", 1),
        ("link", "guide.adoc", 2),
        ("link", "#guide", 2),
        ("link", "guide", 2),
        ("link", "guide.adoc", 2),
        ("link", "guide.html", 2),
        ("link", "#sections.d/first", 3),
        ("link", "shop:ops:run.adoc", 3),
    ]


def test_a_shorthand_xref_to_a_file_without_a_hash_links_no_document(tmp_path: Path) -> None:
    """`<<guide.adoc>>` renders `<a href="#guide.adoc">`: no link to guide.adoc, and no id of the
    tree is named, so nothing is reported; `<<guide.adoc#>>` and `xref:guide.adoc[]` link it."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.adoc").write_text("= Guide\n", encoding="utf-8")
    (tmp_path / "docs" / "a.adoc").write_text("= A\n\nSee <<guide.adoc>>.\n", encoding="utf-8")
    (tmp_path / "docs" / "b.adoc").write_text(
        "= B\n\nSee <<guide.adoc#>> and xref:guide.adoc[].\n", encoding="utf-8"
    )
    found = import_refs(tmp_path)
    assert [(r["path"], r["target"], r["status"]) for r in found] == [
        ("docs/b.adoc", "guide.adoc", "linked"),
        ("docs/b.adoc", "guide.adoc", "linked"),
    ]


def test_the_text_of_a_link_is_no_mention() -> None:
    """A link macro's text labels its target, as a Markdown link's does."""
    text = (
        "Thanks xref:team.adoc[@ada-1], link:guide.html[#bob-2 guide],\n"
        "https://github.com/cy[see @cy-3], mailto:dee@x.org[@dee-4] and @real-5.\n"
    )
    assert refs(text) == [
        ("link", "team.adoc", 1),
        ("link", "guide.html", 1),
        ("object", "real-5", 2),
    ]


def test_ids_are_labels_as_asciidoctor_registers_them() -> None:
    """Anchors, block ids and section ids (generated `_section_title`, shaped by `idprefix` and
    `idseparator`, `_2` for a repeat; a given one instead), never in a listing block."""
    text = (
        "= Guide\n:toc: left\n\n== Getting Started!\n\n[[limits,Rate limits]]\n== Limits\n\n"
        "[#tuning.big]\nTune with [[knob-1]] and anchor:knob-2[] or [#knob-3]#here#.\n\n"
        "[source#code-1,python]\n----\n[[not-an-id]]\n== not a title\n----\n\n"
        "* [[[bib-1]]] A book\n\n== Getting Started\n\n:idprefix:\n:idseparator: -\n\n"
        "== The `catdoc` Tool\n\n[#flow]\nimage::flow.png[]\n\n[[given]]\nifdef::x[]\n"
        "== Given Id\nendif::[]\n\n:sectids!:\n\n== No Id\n"
    )
    assert labels_of(text, "asciidoc") == [
        ("_getting_started", 4),
        ("limits", 7),
        ("tuning", 10),
        ("knob-1", 10),
        ("knob-2", 10),
        ("knob-3", 10),
        ("code-1", 13),
        ("bib-1", 18),
        ("_getting_started_2", 20),
        ("the-catdoc-tool", 25),
        ("flow", 28),
        ("given", 32),
    ]


def test_many_repeated_section_titles_number_their_ids_in_one_pass() -> None:
    """Asciidoctor counts from 2 for each repeat (`_a_2`, `_a_3` …): counting again from 2 made
    100,000 `== a` titles take hours. An id given meanwhile (`[[_a_3]]`, section b's) is still
    skipped."""
    text = "== a\n\n[[_a_3]]\n== b\n\n" + "== a\n\n" * 100_000
    got = [label for label, _ in labels_of(text, "asciidoc")]
    assert got[:4] == ["_a", "_a_3", "_a_2", "_a_4"]
    assert got[-1] == "_a_100002" and len(got) == len(set(got)) == 100_002


def test_a_cross_reference_to_an_id_the_document_lacks_links_to_it() -> None:
    """Asciidoctor looks an xref's id up in its own document only, then (for one with a space or
    a capital) its section titles; one it lacks is rendered as a link to `#id` all the same."""
    text = (
        "== Setup\n\nSee <<limits>>, xref:limits[], <<_setup>>, <<Setup>>, <<setup>>,\n"
        "xref:#tuning[], <<Tuning Knobs,knobs>> and <<here>>.\n\n[[here]]\nText.\n"
    )
    assert refs(text) == [
        ("link", "#limits", 3),
        ("link", "#limits", 3),
        ("link", "#setup", 3),
        ("link", "#tuning", 4),
        ("link", "#Tuning Knobs", 4),
    ]


def test_antora_resource_ids_are_kept_as_written() -> None:
    text = "See xref:ops:deploy.adoc[] and xref:2.0@shop:ops:deploy.adoc#steps[Deploy].\n"
    assert refs(text) == [("link", "ops:deploy.adoc", 1), ("link", "2.0@shop:ops:deploy.adoc", 1)]


def test_mentions_are_written_the_catdoc_way() -> None:
    text = "Answers @req-pay-1 and #pay-uses-bank, not @property, #fff or #123 or @app.route.\n"
    assert mentions(text) == ["req-pay-1", "pay-uses-bank"]


@pytest.mark.parametrize(
    "text",
    [
        "[source,python]\n----\n@decorator-1\ndef f():  #comment-2\n----\n",
        "----\n@inside-1\n------\n#still-2\n----\n",
        "....\n@literal-1\n....\n",
        "++++\n<p>#pass-1</p>\n++++\n",
        "////\nA comment block on @req-1\n////\n",
        "// a line comment on @req-1 and #m-2\n",
        "[#anchor-1.role]\n[[anchor-2]]\n[[anchor-3,Anchor]]\n",
        "Inline [[anchor-1]] and [#id-2.role]#marked-3 text# and anchor:a-4[].\n",
        "[source,python]\n@styled-1 paragraph\n#also-2\n",
        "[comment]\n--\n@open-1\n--\n",
        "```python\n@fenced-1\n```\n",
        "Text\n\n  indented literal @lit-1\n  #lit-2\n",
        ":attr-1: @value-1 #value-2\n",
        "= Title\nAda @handle-1 <ada@x-1.org>\nv1, 2024-01-01: #remark-2\n",
        "Inline `@code-1` and +#pass-2+ and +++@raw-3+++ here.\n",
        "An image:shot-1.png[#alt-2] and kbd:[#key-3].\n",
        "include::parts/@part-1.adoc[]\nimage::fig-1.png[#cap-2]\n",
        "Mail ada@x-1.org or see https://x.org/#frag-1 and <<other#frag-2>>.\n",
    ],
)
def test_never_references_in_code_comments_anchors_and_attributes(text: str) -> None:
    assert mentions(text) == []


def test_an_unclosed_block_runs_to_the_end_and_only_its_own_line_closes_it() -> None:
    assert mentions("----\n@a-1\n-----\n@b-2\n") == []
    assert mentions("....\n@a-1\n----\n@b-2\n....\n@after-3\n") == ["after-3"]


# ---------------------------------------------------------------------------------- import
def test_import_link_titles_metadata_and_references(tmp_path: Path) -> None:
    CatDoc.init(tmp_path, bare=True)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "design.adoc").write_text(DESIGN, encoding="utf-8")
    (docs / "api.adoc").write_text(API, encoding="utf-8")
    (docs / "guide.adoc").write_text("= Guide\n\nSee xref:ops:run.adoc[].\n", encoding="utf-8")
    (docs / "notes.asciidoc").write_text("Notes on <<guide.html#install>>.\n", encoding="utf-8")
    (docs / "req-pay-2.adoc").write_text("= Refunds\n", encoding="utf-8")  # @req-… are ids
    out = CliRunner().invoke(
        app, ["-C", str(tmp_path), "import", "docs", "--link", "--format", "json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    found = {(r["source"], r["target"], r["status"]) for r in data["references"]}
    assert found == {
        ("design", "api.adoc", "linked"),
        ("design", "guide.adoc", "linked"),
        ("design", "req-pay-1", "unresolved"),
        ("guide", "ops:run.adoc", "unresolved"),
        ("notes", "guide.html", "linked"),
    }
    assert sorted(data["morphismsCreated"]) == [
        "design-references-api",
        "design-references-guide",
        "notes-references-guide",
    ]
    service = CatDoc(tmp_path)
    design, api = service.object("design"), service.object("api")
    assert (design.title, api.title) == ("Payment Service Design", "Payment API")
    assert design.author == "Ada Lovelace, Grace Hopper" and api.author == "Grace Hopper"
    assert design.created == dt.date(2024, 3, 5) and api.created == dt.date(2024, 2, 1)
    assert design.summary == "How a payment flows from the cart to the bank."
    assert design.tags == ["payments", "api"]
    assert design.metadata == {"version": "1.2", "revremark": "First draft", "status": "draft"}


def test_an_id_of_another_document_is_unresolved_as_asciidoctor_leaves_it(tmp_path: Path) -> None:
    """`<<limits>>` names an id of the document it is written in; when only another document
    defines `limits`, Asciidoctor's link leads nowhere: unresolved (`xref:api.adoc#limits[]`
    is the link meant). An id no document defines is not reported (it may come from attributes
    set outside the tree)."""
    CatDoc.init(tmp_path, bare=True)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "api.adoc").write_text(API, encoding="utf-8")
    (docs / "guide.adoc").write_text(
        "= Guide\n\n== Calls\n\nMind <<limits>>, xref:api.adoc#limits[limits], <<calls>>,\n"
        "<<_calls>> and <<nowhere>>.\n",
        encoding="utf-8",
    )
    out = CliRunner().invoke(
        app, ["-C", str(tmp_path), "import", "docs", "--link", "--format", "json"]
    )
    assert out.exit_code == 0, out.output
    found = [(r["target"], r["line"], r["status"]) for r in json.loads(out.stdout)["references"]]
    assert found == [("api.adoc", 5, "linked"), ("#limits", 5, "unresolved")]


def import_refs(tmp_path: Path) -> list[dict[str, Any]]:
    """The references `catdoc import docs --link` reports in a fresh project at `tmp_path`."""
    CatDoc.init(tmp_path, bare=True)
    out = CliRunner().invoke(
        app, ["-C", str(tmp_path), "import", "docs", "--link", "--format", "json"]
    )
    assert out.exit_code == 0, out.output
    return cast(list[dict[str, Any]], json.loads(out.stdout)["references"])


def test_ids_compare_case_sensitively_as_asciidoctor_catalogs_them(tmp_path: Path) -> None:
    """Asciidoctor's catalog of ids is a Ruby hash: `<<Quotas>>` does not name `[[quotas]]`.
    So `<<Quotas>>` is a link to an id the document lacks that another defines (unresolved),
    and `<<Rates>>` names no id of the tree (`rates` is another), so it is not reported."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "api.adoc").write_text(
        "= API\n\n[[Quotas]]\nQuota text.\n\n[[rates]]\nRates.\n", encoding="utf-8"
    )
    (tmp_path / "docs" / "guide.adoc").write_text(
        "= Guide\n\n[[quotas]]\nOwn.\n\nSee <<Quotas>>, <<quotas>> and <<Rates>>.\n",
        encoding="utf-8",
    )
    found = [(r["path"], r["target"], r["status"]) for r in import_refs(tmp_path)]
    assert found == [("docs/guide.adoc", "#Quotas", "unresolved")]


def test_only_asciidoc_ids_keep_their_case() -> None:
    """reST and MyST labels stay normalised as Sphinx normalises them."""
    assert labels_of("[[Quota-1]]\nText <<quota-1>>.\n", "asciidoc") == [("Quota-1", 2)]
    assert labels_of(".. _Quota-1:\n\nText\n", "rst") == [("quota-1", 1)]
    assert labels_of("(Quota-1)=\n# T\n", "markdown") == [("quota-1", 1)]
    assert refs("[[Quota-1]]\nText <<quota-1>> and <<Quota-1>>.\n") == [("link", "#quota-1", 2)]


@given(st.from_regex(r"[A-Za-z_][\w.-]{0,20}", fullmatch=True))
@settings(max_examples=50, deadline=None)
def test_an_asciidoc_id_is_its_own_key(ident: str) -> None:
    assert label_key(ident, "asciidoc") == ident
    assert label_key(ident, "rst") == label_key(ident, "markdown") == ident.lower()


def test_an_import_scans_each_document_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its title, its references, its labels and its includes are read from one scan of its
    structure; a file it includes is scanned once as what the include brings (its labels, its
    references, its own includes), and once as the document it might have been."""
    scanned: list[str] = []
    scan = markup.scan_asciidoc

    def counted(lines: list[str]) -> markup.Structure:
        scanned.append(lines[0])
        return scan(lines)

    monkeypatch.setattr(markup, "scan_asciidoc", counted)
    CatDoc.init(tmp_path, bare=True)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "design.adoc").write_text(DESIGN, encoding="utf-8")
    (docs / "api.adoc").write_text(API + "\ninclude::limits.adoc[]\n", encoding="utf-8")
    (docs / "limits.adoc").write_text("== Quotas\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["-C", str(tmp_path), "import", "docs", "--link"])
    assert out.exit_code == 0, out.output
    assert sorted(scanned) == ["= Payment API", "= Payment Service Design"] + ["== Quotas"] * 2


def import_json(root: Path) -> dict[str, Any]:
    out = CliRunner().invoke(app, ["-C", str(root), "import", "docs", "--link", "--format", "json"])
    assert out.exit_code == 0, out.output
    return cast(dict[str, Any], json.loads(out.stdout))


def test_an_included_file_is_a_fragment_as_asciidoctor_reads_it(tmp_path: Path) -> None:
    """`include::` brings a file's ids and references into the including document (at the
    include's line, an xref's path read from the including document's folder, where Asciidoctor
    renders it); an include's path is taken from the folder of the file it is written in; in a
    listing block it is code, defining nothing; in a comment block, or made of attributes, it
    is not read."""
    CatDoc.init(tmp_path, bare=True)
    docs = tmp_path / "docs"
    (docs / "parts" / "deep").mkdir(parents=True)
    (docs / "book.adoc").write_text(
        "= Book\n\nMind <<limits>> and <<quotas>>.\n\ninclude::parts/ch1.adoc[leveloffset=+1]\n\n"
        "[source,adoc]\n----\ninclude::parts/sample.adoc[]\n----\n\n"
        "////\ninclude::parts/old.adoc[]\n////\n\ninclude::{partsdir}/x.adoc[]\n",
        encoding="utf-8",
    )
    (docs / "parts" / "ch1.adoc").write_text(
        "= Chapter\n\n[[limits]]\n== Limits\n\nSee xref:api.adoc[] and <<parts/sample#,it>>.\n\n"
        "include::deep/ch2.adoc[]\n",
        encoding="utf-8",
    )
    (docs / "parts" / "deep" / "ch2.adoc").write_text("== Deep\n\nSee xref:../api.adoc[].\n")
    (docs / "parts" / "sample.adoc").write_text("[[quotas]]\n== Quotas\n", encoding="utf-8")
    (docs / "parts" / "old.adoc").write_text("= Old\n", encoding="utf-8")
    (docs / "api.adoc").write_text("= API\n\n[[quotas]]\n== Quotas\n", encoding="utf-8")
    data = import_json(tmp_path)
    actions = {item["path"]: item["action"] for item in data["items"]}
    assert actions == {
        "docs/api.adoc": "created",
        "docs/book.adoc": "created",
        "docs/parts/ch1.adoc": "skipped",
        "docs/parts/deep/ch2.adoc": "skipped",
        "docs/parts/old.adoc": "created",
        "docs/parts/sample.adoc": "skipped",
    }
    found = [(r["source"], r["target"], r["line"], r["status"]) for r in data["references"]]
    assert found == [
        ("book", "#quotas", 3, "unresolved"),
        ("book", "api.adoc", 5, "linked"),
        ("book", "parts/sample", 5, "self"),  # an xref to a file it includes stays within it
        ("book", "../api.adoc", 5, "unresolved"),
    ]


def test_only_the_lines_an_include_selects_count(tmp_path: Path) -> None:
    """`tag=`, `tags=` and `lines=` take part of a file, as Asciidoctor (in an Antora page,
    Antora) takes it: only the selected lines' ids and xrefs are the including document's."""
    snippets = (
        "// tag::setup[]\n[[setup]]\nSee xref:api.adoc[].\n// end::setup[]\n"
        "// tag::extra[]\n[[extra]]\nSee xref:gone.adoc[].\n// end::extra[]\n"
    )
    write_tree(
        tmp_path,
        {
            "book/book.adoc": (
                "= Book\n\n<<setup>> <<extra>>\n\ninclude::snippets.adoc[tag=setup]\n\n"
                "include::snippets.adoc[lines=1..3]\n"
            ),
            "book/snippets.adoc": snippets,
            "book/api.adoc": "= API\n\n[[extra]]\n== Extra\n",
            "shop/antora.yml": "name: shop\nversion: ~\n",
            "shop/modules/ROOT/pages/index.adoc": (
                "= Shop\n\n<<setup>> <<extra>>\n\ninclude::partial$snippets.adoc[tags=!extra]\n"
            ),
            "shop/modules/ROOT/pages/api.adoc": "= API\n",
            "shop/modules/ROOT/partials/snippets.adoc": snippets,
        },
    )
    data = import_json(tmp_path)
    found = [(r["source"], r["target"], r["line"], r["status"]) for r in data["references"]]
    assert found == [
        ("book", "#extra", 3, "unresolved"),  # `extra` is api.adoc's: the region is left out
        ("book", "api.adoc", 5, "linked"),
        ("book", "api.adoc", 7, "linked"),
        ("shop-index", "#extra", 3, "unresolved"),
        ("shop-index", "api.adoc", 5, "linked"),
    ]


ANTORA = {
    "shop/antora.yml": "name: shop\nversion: '2.0'\ntitle: Shop\n",
    "bank/antora.yml": "name: bank\nversion: ~\n",
    "shop/modules/ROOT/pages/index.adoc": (
        "= Shop\n\nSee xref:admin/setup.adoc[], xref:ops:deploy.adoc#steps[Deploy],\n"
        "xref:bank::index.adoc[the bank], xref:2.0@shop:ops:deploy.adoc[],\n"
        "xref:1.0@shop:ops:deploy.adoc[old], xref:_@bank:ROOT:index.adoc[] and <<refunds>>.\n\n"
        "include::partial$refunds.adoc[]\n\ninclude::admin/users.adoc[]\n\n"
        "[source,js]\n----\ninclude::example$app.js[]\n----\n"
    ),
    "shop/modules/ROOT/pages/admin/setup.adoc": (
        "= Setup\n\nBack to xref:index.adoc[], xref:./users.adoc[users],\n"
        "xref:ROOT:admin/users.adoc[] and xref:../index.adoc[].\n"
    ),
    "shop/modules/ROOT/pages/admin/users.adoc": "= Users\n",
    "shop/modules/ROOT/nav.adoc": "* xref:index.adoc[]\n** xref:admin/setup.adoc[]\n",
    "shop/modules/ROOT/partials/refunds.adoc": (
        "[[refunds]]\n== Refunds\n\nSee xref:ops:deploy.adoc[].\n"
    ),
    "shop/modules/ROOT/examples/app.js": "pay()\n",
    "shop/modules/ops/pages/deploy.adoc": "= Deploy\n\n[#steps]\n== Steps\n",
    "bank/modules/ROOT/pages/index.adoc": "= Bank\n\nxref:shop:ROOT:index.adoc[Shop]\n",
}


def test_antora_resource_ids_name_pages_and_partials(tmp_path: Path) -> None:
    """In a component (`antora.yml`, `modules/<module>/<family>/`), an xref's target is a
    resource id, its page path taken from the module's `pages` root (`./` from the page's own
    folder), its module, component and version defaulting to the page's; `include::partial$…`
    and `example$…` name the module's partials and examples, fragments of the page, while an
    included page stays a page (Antora publishes every page)."""
    write_tree(tmp_path, ANTORA)
    data = import_json(tmp_path)
    assert [item["path"] for item in data["items"] if item["action"] == "skipped"] == [
        "docs/bank/antora.yml",
        "docs/shop/antora.yml",
        "docs/shop/modules/ROOT/examples/app.js",
        "docs/shop/modules/ROOT/nav.adoc",
        "docs/shop/modules/ROOT/partials/refunds.adoc",
    ]
    shop, bank, setup, users = "shop-index", "bank-index", "shop-admin-setup", "shop-admin-users"
    found = [(r["source"], r["target"], r["line"], r["resolved"]) for r in data["references"]]
    assert found == [
        (bank, "shop:ROOT:index.adoc", 3, shop),
        (setup, "index.adoc", 3, shop),
        (setup, "./users.adoc", 3, users),
        (setup, "ROOT:admin/users.adoc", 4, users),
        (setup, "../index.adoc", 4, None),  # `..` leaves the pages folder
        (shop, "admin/setup.adoc", 3, setup),
        (shop, "ops:deploy.adoc", 3, "shop-ops-deploy"),
        (shop, "bank::index.adoc", 4, bank),
        (shop, "2.0@shop:ops:deploy.adoc", 4, "shop-ops-deploy"),
        (shop, "1.0@shop:ops:deploy.adoc", 5, None),  # a version the tree does not hold
        (shop, "_@bank:ROOT:index.adoc", 5, bank),
        (shop, "ops:deploy.adoc", 7, "shop-ops-deploy"),  # the partial's, at its include
    ]


def write_tree(root: Path, files: dict[str, str]) -> None:
    """A bare project with `files` under `docs/`."""
    CatDoc.init(root, bare=True)
    for rel, text in files.items():
        (root / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / rel).write_text(text, encoding="utf-8")


def imported(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Each imported file's (object id, category)."""
    return {
        item["path"].removeprefix("docs/"): (item["objectId"], item["category"])
        for item in data["items"]
        if item["action"] != "skipped"
    }


def test_antora_pages_are_named_and_grouped_as_antora_knows_them(tmp_path: Path) -> None:
    """A page's id is its resource id's parts (component, module but `ROOT`, path: never the
    `modules/…/pages` folders), numbered when two ids spell alike; its category is its
    component, named by the component's `title` (else its name), so xrefs across the
    component's modules are morphisms; its title is its doctitle, not its `:navtitle:`."""
    write_tree(
        tmp_path,
        {
            **ANTORA,
            "shop/modules/admin/pages/setup.adoc": "= Setting up the shop\n:navtitle: Setup\n",
            "shop/modules/ops/pages/runbooks/restart.adoc": "= Restart\n",
        },
    )
    data = import_json(tmp_path)
    assert imported(data) == {
        "bank/modules/ROOT/pages/index.adoc": ("bank-index", "bank"),
        "shop/modules/ROOT/pages/admin/setup.adoc": ("shop-admin-setup", "shop"),
        "shop/modules/ROOT/pages/admin/users.adoc": ("shop-admin-users", "shop"),
        "shop/modules/ROOT/pages/index.adoc": ("shop-index", "shop"),
        "shop/modules/admin/pages/setup.adoc": ("shop-admin-setup-2", "shop"),
        "shop/modules/ops/pages/deploy.adoc": ("shop-ops-deploy", "shop"),
        "shop/modules/ops/pages/runbooks/restart.adoc": ("shop-ops-runbooks-restart", "shop"),
    }
    reasons = {item["objectId"]: item["reason"] for item in data["items"] if item["reason"]}
    assert reasons["shop-admin-setup-2"] == (
        "2 files of this import would have id 'shop-admin-setup'; used 'shop-admin-setup-2'."
    )
    linked = {(r["source"], r["resolved"]) for r in data["references"] if r["status"] == "linked"}
    assert ("shop-index", "shop-ops-deploy") in linked  # across modules, within the component
    model = CatDoc(tmp_path).project()
    assert {c.id: c.name for c in model.categories} == {"bank": "bank", "shop": "Shop"}
    setup = model.object_by_id["shop-admin-setup-2"]
    assert (setup.title, setup.metadata["navtitle"]) == ("Setting up the shop", "Setup")


def test_antora_page_ids_hold_whatever_else_is_imported(tmp_path: Path) -> None:
    """An Antora page's id does not grow with the folders around the component: it is taken
    by another object, or another version of the component is in the tree, and only its
    version tells it apart (`2-0-shop-index`); an unversioned page is numbered. A category
    named as the component takes its pages in. A file beside `antora.yml`, outside `modules/`,
    is no page and named by its path, in its folder's category, which the component's title
    names when their ids meet."""
    write_tree(
        tmp_path,
        {
            "v1/antora.yml": "name: shop\nversion: '1.0'\n",
            "v1/modules/ROOT/pages/index.adoc": "= Shop 1\n",
            "v2/antora.yml": "name: shop\nversion: '2.0'\n",
            "v2/modules/ROOT/pages/index.adoc": "= Shop 2\n",
            "v2/modules/ROOT/pages/faq.adoc": "= FAQ\n",
            "bank/antora.yml": "name: bank\nversion: ~\ntitle: The Bank\n",
            "bank/modules/ROOT/pages/index.adoc": "= Bank\n",
            "bank/index.adoc": "= Not a page\n",  # outside modules/: a plain file
        },
    )
    (tmp_path / "notes.md").write_text("# Notes\n", encoding="utf-8")
    (tmp_path / ".catdoc" / "categories").mkdir()
    (tmp_path / ".catdoc" / "categories" / "web.yaml").write_text(
        "categories:\n  - id: webshop\n    name: Web shop\n    aliases: [shop]\n"
        "    objects:\n      - id: bank-index\n        path: notes.md\n",
        encoding="utf-8",
    )
    data = import_json(tmp_path)
    assert imported(data) == {
        "bank/index.adoc": ("index", "bank"),
        "bank/modules/ROOT/pages/index.adoc": ("bank-index-2", "bank"),
        "v1/modules/ROOT/pages/index.adoc": ("1-0-shop-index", "webshop"),
        "v2/modules/ROOT/pages/faq.adoc": ("shop-faq", "webshop"),
        "v2/modules/ROOT/pages/index.adoc": ("2-0-shop-index", "webshop"),
    }
    assert CatDoc(tmp_path).project().category_by_id["bank"].name == "The Bank"


PAGE = st.tuples(
    st.sampled_from(["1.0", "2.0"]),
    st.sampled_from(["ROOT", "admin"]),
    st.lists(st.sampled_from(["admin", "ops"]), max_size=2).map(tuple),
    st.sampled_from(["index", "setup", "admin-setup"]),
)


@settings(max_examples=60, deadline=None)
@given(pages=st.lists(PAGE, min_size=1, max_size=8, unique=True))
def test_antora_page_ids_are_unique_and_their_resource_ids_when_free(
    pages: list[tuple[str, str, tuple[str, ...], str]],
) -> None:
    """Pages of two versions of one component, in any mix of modules and folders: every id
    differs, a page whose unversioned resource id spells like no other's keeps exactly it, and
    one that shares it with pages of other versions only is told apart by its version."""
    docs: list[_Doc] = []
    spelt: dict[str, list[tuple[_Doc, str]]] = {}
    for version, module, folders, stem in pages:
        relative = "/".join([*folders, f"{stem}.adoc"])
        rel = f"v{version}/modules/{module}/pages/{relative}"
        doc = _Doc(rel, Path(rel), "asciidoc", "", FrontMatter({}, "", 1))
        doc.page = Place(Component(f"v{version}", "shop", version), module, "page", relative)
        docs.append(doc)
        resource = ["shop", *([] if module == "ROOT" else [module]), *folders, stem]
        spelt.setdefault(slugify("-".join(resource)), []).append((doc, version))
    _Planner._slug_ids(docs, set())
    assert len({doc.object_id for doc in docs}) == len(docs)
    for base, alike in spelt.items():
        versions = {version for _, version in alike}
        for doc, version in alike:
            if len(alike) == 1:
                assert doc.object_id == base
            elif len(versions) == len(alike):
                assert doc.object_id == f"{slugify(version)}-{base}"


def test_an_antora_page_hidden_by_an_underscore_is_no_document(tmp_path: Path) -> None:
    """Antora publishes no page whose path in `pages` has a name starting with `_` (it keeps
    it for includes): left out of a folder import, and a fragment of the page including it."""
    write_tree(
        tmp_path,
        {
            "antora.yml": "name: shop\nversion: ~\n",
            "modules/ROOT/pages/index.adoc": "= Shop\n\ninclude::_parts/intro.adoc[]\n",
            "modules/ROOT/pages/_parts/intro.adoc": "Welcome.\n",
            "modules/ROOT/pages/_draft.adoc": "= Draft\n",
        },
    )
    data = import_json(tmp_path)
    reasons = {item["path"]: item["reason"] for item in data["items"] if item["reason"]}
    assert imported(data) == {"modules/ROOT/pages/index.adoc": ("shop-index", "shop")}
    assert reasons["docs/modules/ROOT/pages/_draft.adoc"].startswith(
        "a hidden page of Antora component 'shop': "
    )
    assert reasons["docs/modules/ROOT/pages/_parts/intro.adoc"].startswith(
        "included by docs/modules/ROOT/pages/index.adoc: a fragment"
    )


def test_an_antora_page_without_a_domain_is_grouped_by_its_component(tmp_path: Path) -> None:
    write_tree(tmp_path, ANTORA)
    args = ["-C", str(tmp_path), "import", "docs", "--category-from", "domain", "--format", "json"]
    data = json.loads(CliRunner().invoke(app, args).stdout)
    assert imported(data)["shop/modules/ops/pages/deploy.adoc"] == ("shop-ops-deploy", "shop")
    reasons = {item["objectId"]: item["reason"] for item in data["items"] if item["reason"]}
    assert reasons["shop-ops-deploy"] == (
        "no `domain` in the front matter; grouped by its Antora component."
    )


def test_an_antora_navigation_file_is_no_page(tmp_path: Path) -> None:
    """Antora publishes pages only of a module's `pages` folder: a folder import leaves out the
    navigation file (`modules/ROOT/nav.adoc`) and a partial no page includes; named, the
    navigation file is imported all the same, its xrefs naming pages as a page's do, and a
    later folder import leaves its object as it is."""
    write_tree(tmp_path, {**ANTORA, "shop/modules/ROOT/partials/unused.adoc": "Unused.\n"})
    data = import_json(tmp_path)
    reasons = {item["path"]: item["reason"] for item in data["items"]}
    assert reasons["docs/shop/modules/ROOT/nav.adoc"] == (
        "a navigation file of Antora component 'shop': Antora publishes pages only of a "
        "module's `pages` folder, none whose path there has a name starting with `_` (name the "
        "file explicitly to import it anyway)."
    )
    assert reasons["docs/shop/modules/ROOT/partials/unused.adoc"].startswith(
        "a partial of Antora component 'shop': "
    )
    assert not any(r["source"] == "nav" for r in data["references"])
    out = CliRunner().invoke(
        app,
        ["-C", str(tmp_path), "import", "docs/shop/modules/ROOT/nav.adoc", "--format", "json"],
    )
    named = json.loads(out.stdout)
    assert [(i["objectId"], i["reason"]) for i in named["items"]] == [
        ("nav", "a navigation file of Antora component 'shop', no page: imported as named.")
    ]
    found = [(r["target"], r["line"], r["resolved"]) for r in named["references"]]
    assert found == [("index.adoc", 1, "shop-index"), ("admin/setup.adoc", 2, "shop-admin-setup")]
    again = {item["path"]: item["reason"] for item in import_json(tmp_path)["items"]}
    assert again["docs/shop/modules/ROOT/nav.adoc"].endswith(
        "Its object 'nav' from an earlier import stays as it is."
    )


NAME = st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> AntoraComponents:
    root = tmp_path_factory.mktemp("antora")
    (root / "docs").mkdir()
    (root / "docs" / "antora.yml").write_text("name: shop\nversion: '2.0'\n", encoding="utf-8")
    return AntoraComponents(root)


@settings(max_examples=80, deadline=None)
@given(
    module=st.sampled_from(["ROOT", "admin"]),
    folders=st.lists(NAME, max_size=3),
    name=NAME,
    here=st.lists(NAME, max_size=2),
)
def test_every_spelling_of_a_resource_id_names_one_page(
    shop: AntoraComponents, module: str, folders: list[str], name: str, here: list[str]
) -> None:
    """However many coordinates an xref spells out, from a page anywhere in the component, it
    names the one page: the coordinates left out are the page's own."""
    source = "/".join(["docs/modules/ROOT/pages", *here, "index.adoc"])
    rel = "/".join([*folders, f"{name}.adoc"])
    spellings = [f"2.0@shop:{module}:page${rel}", f"shop:{module}:{rel}", f"{module}:{rel}"]
    if module == "ROOT":
        spellings += [rel, f"shop::{rel}", f"2.0@{rel}"]
        if folders == here:
            spellings.append(f"./{name}.adoc")
    wanted = f"docs/modules/{module}/pages/{rel}"
    assert {spelling: shop.resolve(source, spelling) for spelling in spellings} == {
        spelling: wanted for spelling in spellings
    }
    assert shop.resolve(source, f"1.0@shop:{module}:{rel}") is None  # no such version here


def test_concepts_come_from_prose_never_from_listings_or_attributes(tmp_path: Path) -> None:
    CatDoc.init(tmp_path, bare=True)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ledger.adoc").write_text(
        "= Ledger\n:toc: left\n\nSettlement batches close nightly.\n\n"
        "[source,python]\n----\nreconcile vendor invoices()\n----\n\n"
        "....\nquarantined refund tokens\n....\n\n  indented escrow ledger\n\n"
        "[[audit-trail]]\n== Audit trail\n\nAuditors sample settlement batches.\n",
        encoding="utf-8",
    )
    assert CliRunner().invoke(app, ["-C", str(tmp_path), "import", "docs"]).exit_code == 0
    concepts = set(CatDoc(tmp_path).document_concepts()["ledger"])
    assert "audit trail" in concepts
    code = ("vendor", "invoic", "quarantin", "token", "escrow", "toc", "left")
    assert not [key for key in concepts if any(word in key for word in code)], concepts


# ---------------------------------------------------------------------------------- faces
def test_reflow_joins_prose_and_keeps_code_and_structure_as_written() -> None:
    text = (
        "= Title\n:toc:\n\nA paragraph cut\nacross lines.\n\n"
        "[source,python]\n----\ndef f():\n    return 1\n----\n\n"
        "* an item\n* another\n\n.Block title\nNot joined.\n\nHard +\nbreak\n\n"
        "Term:: definition\n\n|===\n| a | b\n|===\n\n== Section\n"
    )
    shown = [(b.kind, b.lines) for b in display_blocks(text, "asciidoc") if b.lines != ("",)]
    assert shown == [
        ("heading", ("Title",)),
        ("verbatim", (":toc:", "")),
        ("prose", ("A paragraph cut across lines.",)),
        ("verbatim", ("", "[source,python]", "----", "def f():", "    return 1", "----", "")),
        ("verbatim", ("* an item", "* another")),
        ("verbatim", (".Block title", "Not joined.")),
        ("verbatim", ("Hard +", "break")),
        ("verbatim", ("Term:: definition",)),
        ("verbatim", ("", "|===")),
        ("verbatim", ("| a | b",)),
        ("verbatim", ("|===", "")),
        ("heading", ("Section",)),
    ]


def test_the_dashboard_shows_asciidoc_as_escaped_text_under_its_titles() -> None:
    html = str(document_html(DESIGN + "\n<script>alert(1)</script>\n", "docs/design.adoc"))
    assert "<h1>Payment Service Design</h1>" in html and "<h2>Overview</h2>" in html
    assert "<h3>Retries</h3>" in html
    assert '<pre class="document-text">[source,python]' not in html  # a section's text, whole
    assert "&lt;&lt;api.adoc#limits,limits&gt;&gt;" in html
    assert "<script>" not in html and "&lt;script&gt;" in html


@pytest.mark.parametrize(
    "descriptor",
    [
        "[" * 5000 + "]" * 5000,  # nested past what a model file may be
        "name: [unclosed\n",
        "a: &a [x]\nb: *a\nname: 7\n",  # a name that is no text
        "\0name: shop\n",
    ],
)
def test_an_antora_yml_that_cannot_be_read_makes_no_component(
    tmp_path: Path, descriptor: str
) -> None:
    """A descriptor read as the model's own YAML is (depth, syntax): one it refuses is no
    component, and the pages under it are plain files."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "antora.yml").write_text(descriptor, encoding="utf-8")
    components = AntoraComponents(tmp_path)
    assert components.place("docs/modules/ROOT/pages/index.adoc") is None
    assert components.resolve("docs/modules/ROOT/pages/index.adoc", "setup.adoc") is None


@pytest.mark.parametrize("bad", ["[#a", "[[a,", "anchor:a", "anchor:a[", "[#a.b", "[[a"])
def test_a_line_of_unclosed_anchors_is_read_in_linear_time(bad: str) -> None:
    """Each opening with no close after it used to be scanned to the line's end (20 s for 120 KB
    of `[#a`); ids and reference texts are bounded and never given back."""
    text = "= T\n\n" + bad * 40_000 + "\n\n[[real]]\nText.\n"
    assert [label for label, _ in labels_of(text, "asciidoc")][-1] == "real"
