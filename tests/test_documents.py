"""Document text: reading, front matter, chunking along headings, references."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.documents import (
    Reference,
    chunk_text,
    document_title,
    extract_references,
    headings_of,
    kind_of,
    read_document,
    read_object_text,
    split_front_matter,
)
from catdoc.errors import NOT_FOUND, PATH_OUTSIDE_PROJECT, VALIDATION_ERROR, CatDocError
from catdoc.front_matter import body_lines
from catdoc.importer.sphinx_conf import DEFAULT_URL_SCHEMES
from catdoc.markup import MAX_DIRECTIVE_NESTING, fence_directive, scan_markdown, scan_rst
from catdoc.model import DocObject, ImportConfig
from catdoc.references import Resolver


def refs(text: str, kind: str = "markdown") -> list[tuple[str, str, int]]:
    return [(r.kind, r.target, r.line) for r in extract_references(text, kind=kind)]  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- reading
def test_kind_of() -> None:
    assert kind_of("a/b.md") == "markdown"
    assert kind_of("B.MARKDOWN") == "markdown"
    assert kind_of("x.rst") == "rst"
    assert kind_of("x.txt") == "text"
    assert kind_of("x.adoc") == "asciidoc"


def test_read_object_text_from_path_and_content(tmp_path: Path) -> None:
    (tmp_path / "d.md").write_bytes(b"\xef\xbb\xbfline one\r\nline two\r\n")
    assert read_object_text(tmp_path, DocObject(id="a", path="d.md")) == "line one\nline two\n"
    assert read_object_text(tmp_path, DocObject(id="b", content="inline")) == "inline"
    assert read_object_text(tmp_path, DocObject(id="c")) is None


def test_binary_file_is_refused_with_the_fix(tmp_path: Path) -> None:
    (tmp_path / "logo.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    with pytest.raises(CatDocError) as info:
        read_object_text(tmp_path, DocObject(id="a", path="logo.md"))
    assert info.value.code == VALIDATION_ERROR
    assert "logo.md" in info.value.message and "binary" in info.value.message
    assert "url" in info.value.hint


def test_undecodable_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "latin.txt").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(CatDocError) as info:
        read_document(tmp_path / "latin.txt", "latin.txt")
    assert "UTF-8" in info.value.message and "iconv" in info.value.hint


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(CatDocError) as info:
        read_object_text(tmp_path, DocObject(id="a", path="gone.md"))
    assert info.value.code == NOT_FOUND and "gone.md" in info.value.message
    (tmp_path / "dir").mkdir()
    with pytest.raises(CatDocError) as info:
        read_object_text(tmp_path, DocObject(id="a", path="dir"))
    assert "directory" in info.value.message


def test_path_escape_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (tmp_path / "secret.md").write_text("secret")
    (root / "link.md").symlink_to(tmp_path / "secret.md")
    for path in ("../secret.md", str(tmp_path / "secret.md"), "link.md"):
        with pytest.raises(CatDocError) as info:
            read_object_text(root, DocObject(id="a", path=path))
        assert info.value.code == PATH_OUTSIDE_PROJECT


# ---------------------------------------------------------------------------------- front matter
def test_front_matter_is_split_and_parsed() -> None:
    text = "---\ntitle: Auth\ntags: [a, b]\ncreated: 2024-01-05\n---\n# Heading\nbody\n"
    front = split_front_matter(text)
    assert front.meta["title"] == "Auth" and front.meta["tags"] == ["a", "b"]
    assert str(front.meta["created"]) == "2024-01-05"
    assert front.body == "# Heading\nbody\n"
    assert front.body_start_line == 6
    assert front.error is None


def test_no_front_matter() -> None:
    for text in ("# Title\n---\nx: 1\n---\n", "---\nno closing line\n", ""):
        front = split_front_matter(text)
        assert front.meta == {} and front.body == text and front.body_start_line == 1


def test_empty_front_matter_and_dots_terminator() -> None:
    assert split_front_matter("---\n---\nbody").body == "body"
    front = split_front_matter("---\na: 1\n...\nbody")
    assert front.meta == {"a": 1} and front.body == "body" and front.body_start_line == 4


def test_broken_front_matter_is_reported_not_raised() -> None:
    front = split_front_matter("---\ntitle: [unclosed\n---\nbody\n")
    assert front.meta == {} and front.body == "body\n"
    assert front.error is not None
    assert "line 2" in front.error and "Fix" in front.error


def test_front_matter_that_is_not_a_mapping() -> None:
    front = split_front_matter("---\n- a\n- b\n---\nbody")
    assert front.meta == {} and "mapping" in (front.error or "")


def test_document_title() -> None:
    assert document_title({"title": "From meta"}, "# Heading", "fb") == "From meta"
    assert document_title({"title": 2024}, "", "fb") == "2024"
    assert document_title({}, "intro\n\n## Second\n# First", "fb") == "First"
    assert document_title({}, "Setext title\n============\n", "fb") == "Setext title"
    assert document_title({"title": "  "}, "```\n# not a title\n```\n", "fb") == "fb"
    assert document_title({}, "Title\n=====\n", "fb", kind="rst") == "Title"


@pytest.mark.parametrize(
    ("body", "title"),
    [
        # starlette's docs/testclient.md: prose, then a `##` section 86 lines down
        (
            '\n??? abstract "API Reference"\n    ::: x\n\nThe test client.\n\n## HTTP trailers\n',
            "fb",
        ),
        ("Intro.\n\n## Usage\n\nText.\n\n# The title\n", "The title"),  # an H1 anywhere
        ("Intro.\n\nSetext title\n===\n\n## Usage\n", "Setext title"),
        ("## Alone\n\n### Part\n\n### Part two\n", "Alone"),  # a lone first heading
        ("## HTTP Routing\n\nText.\n\n## WebSocket Routing\n", "fb"),  # starlette's routing.md
        ("## 1.10.0 (October 24, 2026)\n\n#### Changed\n\n## 1.9.0\n", "fb"),  # a changelog
        ("### Deep\n\n## Shallower\n", "fb"),
        (
            "<!-- generated -->\n[![CI](https://x.org/b.svg)](https://x.org) ![v](v.svg)\n"
            '<p align="center"><img src="logo.png"/></p>\n\n[b]: https://x.org\n\n## Tool\n',
            "Tool",  # images, badges, comments and link definitions show no text
        ),
        ('<p align="center">\n  <em>The tagline.</em>\n</p>\n\n## Sponsors\n', "fb"),
        ("<!--\n# commented out\n-->\n## Shown\n", "Shown"),
        ("title: Not meta\n\n## Section\n", "fb"),  # MkDocs' meta-data only in MkDocs
    ],
)
def test_markdown_title_is_an_h1_or_a_lone_opening_heading(body: str, title: str) -> None:
    assert document_title({}, body, "fb") == title


def test_markdown_title_in_an_mkdocs_project() -> None:
    body = "title: A Page Title\n\n# Welcome to MkDocs\n"  # mkdocs' subpages/docs/metadata.md
    assert document_title({}, body, "fb", mkdocs_meta=True) == "A Page Title"
    assert document_title({}, body, "fb") == "Welcome to MkDocs"
    assert document_title({}, body, "fb", nav_title="From nav", mkdocs_meta=True) == "From nav"
    assert document_title({"title": "Front"}, body, "fb", nav_title="From nav") == "Front"
    meta_only = "Summary: one\n    two\nauthor: Ada\n## Lone\n\n### Part\n"
    assert document_title({}, meta_only, "fb", mkdocs_meta=True) == "Lone"  # meta is not shown
    assert document_title({}, meta_only, "fb") == "fb"  # without MkDocs, the lines are prose
    assert document_title({}, "\ntitle: late\n", "fb", mkdocs_meta=True) == "fb"


@settings(max_examples=100, deadline=None)
@given(
    st.from_regex(r"[A-Za-z][A-Za-z0-9 ]{0,30}", fullmatch=True),
    st.text(alphabet="#=-*`[]()!<>:\n ab", max_size=200),
)
def test_an_opening_h1_is_the_markdown_title_whatever_follows(title: str, rest: str) -> None:
    expected = title.strip()
    for mkdocs in (False, True):
        got = document_title({}, f"# {title}\n\n{rest}", "fb", mkdocs_meta=mkdocs)
        assert got == expected


# ---------------------------------------------------------------------------------- chunking
DOC = """---
title: Guide
---
# Guide

Intro paragraph.

## Install

Run the installer.

```bash
# not a heading
pip install x
```

## Use
### Details
Details text.

Setext section
--------------

Last words.
"""


def test_chunks_follow_headings_with_file_line_numbers() -> None:
    chunks = chunk_text(DOC)
    assert [c.heading_path for c in chunks] == [
        ["Guide"],
        ["Guide", "Install"],
        ["Guide", "Use", "Details"],
        ["Guide", "Setext section"],
    ]
    lines = DOC.split("\n")
    for chunk in chunks:
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
    assert (chunks[0].start_line, chunks[0].end_line) == (4, 6)
    assert "# not a heading" in chunks[1].text
    # a heading with no text of its own is merged into its first subsection
    assert chunks[2].text.startswith("## Use\n### Details")
    assert [c.index for c in chunks] == [0, 1, 2, 3]


def test_preamble_without_heading_and_text_kind() -> None:
    chunks = chunk_text("first\n\nsecond\n# Head\nbody", kind="markdown")
    assert chunks[0].heading_path == [] and chunks[0].text == "first\n\nsecond"
    plain = chunk_text("# not special in text\nline", kind="text")
    assert len(plain) == 1 and plain[0].heading_path == []


def test_rst_titles() -> None:
    text = (
        "=====\nTitle\n=====\n\nIntro.\n\nSection\n-------\n\nBody::\n\n   code\n   Fake\n   ----\n"
    )
    chunks = chunk_text(text, kind="rst")
    assert [c.heading_path for c in chunks] == [["Title"], ["Title", "Section"]]
    assert chunks[0].start_line == 1
    assert headings_of(text, kind="rst") == [(3, 1, "Title"), (8, 2, "Section")]


def test_headings_in_fences_and_indented_code_are_not_headings() -> None:
    text = "# Real\n\n~~~~\n# fake\n~~~~\n\n    # also fake\n\n````md\n```\n# fake\n```\n````\n"
    assert headings_of(text) == [(1, 1, "Real")]


def test_chunk_bound_splits_paragraphs_then_lines() -> None:
    para = " ".join(["word"] * 60)  # 299 chars
    text = "# H\n\n" + "\n\n".join([para] * 10) + "\n\n" + "x" * 1000
    chunks = chunk_text(text, max_chars=400)
    assert all(len(c.text) <= 400 for c in chunks)
    assert all(c.heading_path == ["H"] for c in chunks)
    assert chunks[-1].start_line == chunks[-1].end_line == text.count("\n") + 1
    assert "".join(c.text for c in chunks if set(c.text) == {"x"}) == "x" * 1000


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["# A", "## B", "### C", "", "```", "Title", "-----", "text"]),
            st.text(alphabet="ab #-=`\n", max_size=300),
        ),
        max_size=40,
    ),
    st.integers(min_value=1, max_value=300),
)
def test_chunks_are_bounded_ordered_and_within_the_file(parts: list[str], bound: int) -> None:
    text = "\n".join(parts)
    lines = text.split("\n")
    previous_end = 0
    for chunk in chunk_text(text, max_chars=bound):
        assert len(chunk.text) <= bound
        assert 1 <= chunk.start_line <= chunk.end_line <= len(lines)
        assert chunk.start_line >= previous_end
        previous_end = chunk.end_line
        assert chunk.text.strip()


def test_chunking_is_repeatable_and_keeps_sections_apart() -> None:
    """Chunking keeps no state between calls (its speed is measured in benchmarks/)."""
    body = "\n\n".join(" ".join(f"w{i}" for i in range(37)) for _ in range(8))
    doc = "---\ntitle: T\n---\n# T\n\n## A\n\n" + body + "\n\n## B\n\n" + body
    chunks = chunk_text(doc)
    assert chunks == chunk_text(doc)
    assert {tuple(c.heading_path) for c in chunks} >= {("T", "A"), ("T", "B")}
    assert extract_references(doc) == extract_references(doc) == []


# ---------------------------------------------------------------------------------- references
def test_every_reference_kind() -> None:
    text = (
        "---\nrelated: '@not-body'\n---\n"
        "See @req-auth and #auth-depends-user.\n"
        'Read [the design](../design/api.md#section "title") and [[User Accounts|users]].\n'
        "[ref]: other.md\n"
    )
    assert refs(text) == [
        ("object", "req-auth", 4),
        ("morphism", "auth-depends-user", 4),
        ("wiki", "User Accounts", 5),
        ("link", "../design/api.md", 5),
        ("link", "other.md", 6),
    ]


def test_reference_ends_before_punctuation() -> None:
    assert refs("(@a-b), @c.d. #e_f; @g:") == [
        ("object", "a-b", 1),
        ("object", "c.d", 1),
        ("object", "g", 1),
        ("morphism", "e_f", 1),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "# Heading",
        "## Sub heading ##",
        "mail ada@example.com or <ada@example.com>",
        "https://example.com/#frag and http://x.org/@user and www.x.org/#a",
        "[site](https://example.com/a.md) and [s](//x.org/a:b)",
        "![image](pic.png) and ![[embedded.png]]",
        "issue #123 and @2024",
        "C# and F#, path/#x, a.b#c, x@y",
        "`@code` and ``#code``",
        "npm @types/node",
        "&#35; entity and \\#escaped \\@escaped",
        "[[#only-a-section]]",
    ],
)
def test_false_positives(text: str) -> None:
    assert refs(text) == []


def test_a_markdown_link_with_a_scheme_is_left_to_the_resolver() -> None:
    """Whether `[](name:rest)` is a URL depends on the document's reader: MyST-Parser in a
    Sphinx project takes it for a label unless `myst_url_schemes` names the scheme."""
    text = "[m](mailto:a@b.c), [](source-files:repo#x), [](<project:#here>), [](ftp://x/a:b)"
    assert refs(text) == [
        ("link", "mailto:a@b.c", 1),
        ("link", "source-files:repo", 1),
        ("link", "#here", 1),  # MyST's target `here` anywhere in the project, as `#here`
    ]
    assert refs("[anchor](#install) and [none](#)") == [("link", "#install", 1)]
    resolver = Resolver.build([], ImportConfig())
    assert not resolver.counts(Reference("link", "#install", 1), "markdown")  # in the page
    mail, label = (Reference("link", target, 1) for target in ("mailto:a@b.c", "a:b"))
    assert not resolver.counts(label, "markdown")  # GitHub, MkDocs: a URL
    assert not resolver.counts(mail, "markdown", myst=DEFAULT_URL_SCHEMES)
    assert resolver.counts(label, "markdown", myst=DEFAULT_URL_SCHEMES)
    assert resolver.counts(mail, "markdown", myst=frozenset({"http"}))


@given(
    st.from_regex(r"[a-zA-Z][a-zA-Z0-9+.-]{0,10}", fullmatch=True),
    st.from_regex(r"[^\s()<>]{0,30}", fullmatch=True),
)
@settings(max_examples=200)
def test_a_markdown_link_with_an_authority_is_never_a_reference(scheme: str, rest: str) -> None:
    """`scheme://…` is a URL to every reader, MyST-Parser too: whatever follows, no reference."""
    assert refs(f"[x]({scheme}://{rest}) and [y](<{scheme}://{rest}>)") == []


def test_references_in_code_blocks_are_ignored() -> None:
    text = "```python\n@decorator\n# comment #tag\n```\n\n    @indented_code\n\nreal @x\n"
    assert refs(text) == [("object", "x", 8)]


def test_list_continuation_is_not_code() -> None:
    assert refs("- item\n\n    continued @x\n") == [("object", "x", 3)]


def test_a_fence_inside_a_list_item_is_code() -> None:
    text = (
        "- Slotted classes:\n\n    ```{doctest}\n    >>> @define\n    ... class A:\n"
        "    ```\n\n    after @x\n\nend @y\n"
    )
    assert refs(text) == [("object", "x", 8), ("object", "y", 10)]


def prose_lines(text: str) -> list[str]:
    """The lines `scan_markdown` reads as prose (not code), blank ones left out."""
    lines = text.split("\n")
    code = scan_markdown(lines).code
    return [line for line, is_code in zip(lines, code, strict=True) if line and not is_code]


def test_a_myst_directives_body_is_markdown_but_its_options_are_not() -> None:
    text = (
        "```{admonition} Title\n:class: tip\n:name: [o](opt-1.md)\n\nSee [x](a.md).\n"
        "# A rubric\n```\n\n"
        "~~~{note}\n---\nalt: see @opt-2\n---\n{doc}`the licence <license>`.\n~~~\n\n"
        ":::{warning}\n:class: [o](opt-3.md)\nAnd @w-1.\n:::\n"
    )
    assert prose_lines(text) == [
        "See [x](a.md).",
        "# A rubric",
        "{doc}`the licence <license>`.",
        "And @w-1.",
    ]
    assert refs(text) == [
        ("link", "a.md", 5),
        ("role", "license", 13),
        ("object", "w-1", 18),
    ]
    assert headings_of(text) == []  # MyST makes a heading in a directive a rubric


def test_options_are_only_at_a_directives_start() -> None:
    text = "```{note}\n\n:class: not-an-option\n```\n````{note}\n:::{tip}\n:class: x\n:::\n````\n"
    assert prose_lines(text) == [":class: not-an-option"]


@pytest.mark.parametrize(
    "opening",
    [
        "```{code-block} python",
        "```{CODE} python",
        "~~~{math}",
        "```{raw} html",
        "```{eval-rst}",
        "```{toctree}",
        "```{mermaid}",
        ":::{code-block} python",
        "```{.python}",  # a Pandoc-style attribute: a code block, no directive
        "```python",
    ],
)
def test_code_like_directives_and_code_fences_stay_code(opening: str) -> None:
    close = opening[:3]
    text = f"{opening}\n:caption: x\n\n@deco\n[no](no.md)\n{close}\n\nafter @x-1\n"
    # no mention or link in the body (a toctree's lines are its entries: `role` references)
    assert [r for r in refs(text) if r[0] != "role"] == [("object", "x-1", 8)]
    assert prose_lines(text) == ["after @x-1"]


def test_a_nested_fence_is_shorter_than_its_directives() -> None:
    nested = (
        "````{note}\nBefore @n-1.\n```python\n@code\n```\n"
        "```{warning}\nInner @n-2.\n```\nAfter @n-3.\n````\n\nOut @n-4.\n"
    )
    assert prose_lines(nested) == [
        "Before @n-1.",
        "Inner @n-2.",
        "After @n-3.",
        "Out @n-4.",
    ]
    assert [target for _, target, _ in refs(nested)] == ["n-1", "n-2", "n-3", "n-4"]
    # MyST reads a body up to the first fence that closes it, whatever the body holds: a
    # longer one closes what is open inside, a same-length one ends the directive early
    longer = "````{note}\n```python\n@code\n````\nOut @o-1.\n"
    assert refs(longer) == [("object", "o-1", 5)]
    same = "```{note}\nNote @s-1.\n```python\nx = 1\n```\nAfter the note @s-2.\n```\n@c\n"
    assert refs(same) == [("object", "s-1", 2), ("object", "s-2", 6)]


def test_the_scan_records_where_each_fence_ends() -> None:
    """A reader of a directive's body (an `{eval-rst}` block's includes) takes its extent from
    the scan: the closing line, a longer fence that closes it with its container, or the end."""
    lines = [
        "````{note}",  # 0
        "```{eval-rst}",  # 1: closed with the note, by the longer fence
        ".. include:: a.rst",
        "````",  # 3
        "    ```{include} code.md",  # indented code: no fence
        "~~~python",  # 5: never closed
        "```",
    ]
    scan = scan_markdown(lines)
    assert scan.fences == [0, 1, 5]
    assert scan.fence_ends == {0: 3, 1: 3, 5: 7}
    assert [fence_directive(lines[i]) for i in scan.fences] == [
        ("note", ""),
        ("eval-rst", ""),
        None,
    ]
    assert fence_directive(":::{Include} /a b.md ") == ("include", "/a b.md ")


def test_the_rst_scan_records_each_directive_outside_code() -> None:
    """A reader of directives (includes) takes them from the scan: a code-like directive's own
    line is code, yet one outside code is recorded; one inside code or a comment is not."""
    lines = [
        ".. literalinclude:: a.py",  # 0
        "   :lines: 1",
        "",
        ".. note:: Text",  # 3
        "",
        "   .. include:: b.txt",  # 5: in the note's body
        "",
        ".. code-block:: rst",  # 7
        "",
        "   .. include:: shown.txt",
        "",
        ".. a comment",
        "   .. include:: commented.txt",
        "- .. code-block:: python",  # 13: opening a list item
    ]
    scan = scan_rst(lines)
    assert scan.directives == [0, 3, 5, 7, 13]
    assert scan.code[0] and not scan.code[3]


def test_an_unclosed_directive_runs_to_the_end_as_markdown() -> None:
    text = "# Title\n\n```{note}\nAll @u-1.\n\n    indented code @c-1\n\n- item @u-2\n"
    assert refs(text) == [("object", "u-1", 4), ("object", "u-2", 8)]
    assert headings_of(text) == [(1, 1, "Title")]
    deep = "".join("`" * (40 - n) + "{note}\n" for n in range(MAX_DIRECTIVE_NESTING))
    assert refs(deep + "@in-1\n```{note}\n@deep-1\n") == [
        ("object", "in-1", MAX_DIRECTIVE_NESTING + 1)
    ]


def test_a_directive_in_a_list_item_keeps_the_list() -> None:
    text = (
        "- item\n\n    ```{note}\n    Note @l-1.\n\n        code @c-1\n    ```\n\n    still @l-2\n"
    )
    assert refs(text) == [("object", "l-1", 4), ("object", "l-2", 9)]


BODY = st.lists(
    st.sampled_from(
        [
            "text @b-1",
            "[l](l.md)",
            "```",
            "```python",
            "~~~",
            "````{note}",
            ":::{tip}",
            ":::",
            ":class: x",
            "---",
            "# h #x-2",
            "    indented @b-3",
            "- item",
            "<!-- c",
            "-->",
            "",
            "(lab)=",
        ]
    ),
    max_size=MAX_DIRECTIVE_NESTING - 2,  # a directive nested deeper would be code
)


@settings(max_examples=100, deadline=None)
@given(BODY)
def test_a_directives_body_reads_as_the_same_markdown_on_its_own(body: list[str]) -> None:
    """Whatever Markdown a directive holds (but a fence that would close it), its references are
    those the same text has as a document of its own, a line further down."""
    text = "\n".join(["", *body])  # a blank first line: no options
    wrapped = refs("~~~~~~{note}\n" + text + "\n~~~~~~\nafter @z-9\n")
    assert wrapped == [(kind, target, line + 1) for kind, target, line in refs(text)] + [
        ("object", "z-9", len(body) + 4)
    ]


def test_an_mkdocs_admonitions_content_is_prose() -> None:
    text = (
        '!!! note "About @title-1"\n    Read @inside-2 first.\n\n    ```python\n    @deco\n'
        "    ```\n\n??? tip\n    And #m-3.\n\n    indented @code-4\n\nText.\n\n    code @code-5\n"
    )
    assert refs(text) == [
        ("object", "title-1", 1),
        ("object", "inside-2", 2),
        ("morphism", "m-3", 9),
        ("object", "code-4", 11),  # still the tip's content
    ]


def test_html_comments_in_markdown_hold_no_references() -> None:
    text = (
        "<!-- [[[cog\nprint(f'<a href=\"{sponsor[1]}\">@cog-1</a>')\n]]] -->\n"
        "<!-- [[[end]]] -->\n"
        "<!-- a note --> @after-0\n"
        "Text <!-- @hidden-2 [x](gone.md) --> @shown-3 <!-- open @still-4\n"
        "# Title <!-- not a heading's part -->\n"
    )
    assert refs(text) == [
        ("object", "after-0", 5),
        ("object", "shown-3", 6),
        ("object", "still-4", 6),
    ]
    assert headings_of(text) == [(7, 1, "Title")]
    many = "-->" + "<!-- @x-1 " * 100_000 + "\n"  # one pass, whatever the line
    assert refs(many) == [("object", "x-1", 1)] * 100_000


def test_rst_literal_blocks_are_ignored() -> None:
    text = "Text @a-1::\n\n   @lit-1\n\n.. code-block:: python\n\n   @deco-1\n\nEnd #m-1\n"
    assert refs(text, "rst") == [("object", "a-1", 1), ("morphism", "m-1", 9)]


def test_reference_dataclass_is_plain() -> None:
    assert extract_references("@x")[0] == Reference("object", "x", 1)


def test_rename_mentions_touches_references_only() -> None:
    from catdoc.documents import rename_mentions

    text = (
        "---\nid: req-a\ntitle: A\n---\n"
        "See @req-a, `@req-a`, @req-ab, a@req-a and https://x.org/@req-a.\n"
        "```\n@req-a in code\n```\n"
    )
    out = rename_mentions(text, "req-a", "req-z")
    assert out == text.replace("id: req-a", "id: req-z").replace("See @req-a,", "See @req-z,")
    assert rename_mentions("Uses #m-1 here.", "m-1", "m-2", sigil="#") == "Uses #m-2 here."


_LABEL_TAIL = st.text(alphabet="abcXYZ019_:.#$%&+?~/-", max_size=12)


@given(
    st.sampled_from("aZ0_"),
    _LABEL_TAIL,
    st.sampled_from(["", ".", ",", ":", ")", "!", " and", "/", "<b>x</b>"]),
)
@settings(max_examples=200, deadline=None)
def test_a_mystmd_citation_is_its_label_up_to_its_last_word_character(
    first: str, tail: str, after: str
) -> None:
    """mystmd's citation label (markdown-it-myst's `inText`) runs over `:./#…` but ends at a word
    character: `@code:ast.` cites `code:ast`, whatever punctuation follows."""
    label = first + tail
    while label and not (label[-1].isascii() and (label[-1].isalnum() or label[-1] == "_")):
        label = label[:-1]
    text = f"See @{label}{after}\n"
    refs = extract_references(text, citations=True)
    objects = [r.target for r in refs if r.kind == "object"]
    has_letter = any(c.isalpha() for c in label)
    assert objects == ([label] if has_letter else [])


def test_a_tag_ends_a_mystmd_citation() -> None:
    """HTML is masked before mentions are read: `<X>` in a label is a tag, and ends it."""
    refs = extract_references("See @a<X>0 and @b:c<br>.\n", citations=True)
    assert [r.target for r in refs if r.kind == "object"] == ["a", "b:c"]


def test_a_braced_mystmd_citation_is_its_label_without_the_braces() -> None:
    """markdown-it-myst reads `@{key}` as `@key` (`trimBraces`): a key in braces may end in
    punctuation; an unclosed brace makes no label mystmd could find, and `@{}` none at all."""
    text = "See @{fig:x}, @{doi:10.1/x.}, @{a b}, @{abc, x@{y}, @{} and `@{z}`.\n"
    refs = extract_references(text, citations=True)
    assert [r.target for r in refs if r.kind == "object"] == ["fig:x", "doi:10.1/x."]
    assert [r.target for r in extract_references(text) if r.kind == "object"] == []


@pytest.mark.parametrize("opener", ["@{", "@", "@{a", "@a.", "{}", "@{a}"])
def test_mystmd_citations_are_linear_on_runs_of_openers(opener: str) -> None:
    """Finishes: a scan retried from each opener would take minutes here."""
    extract_references(opener * 100_000 + "\n", citations=True)


def test_a_mystmd_citation_is_read_only_where_mystmd_reads_one() -> None:
    text = "Mail me@x.org, v1.@x, `@code:ast` and [@a; @b:c].\n"
    refs = extract_references(text, citations=True)
    assert [r.target for r in refs if r.kind == "object"] == ["a", "b:c"]
    assert [r.target for r in extract_references(text) if r.kind == "object"] == ["a"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # pip's more-dependency-resolution.md: a role's target on the line after its opening
        (
            "Candidates ({ref}`direct\nURL references <pypug:dependency-specifiers>`) go.\n",
            [],
        ),
        (
            "a `code\nstill <x:y> [l](b.md)` after [m](c.md) <z:w>\n",
            [("link", "c.md", 2), ("link", "z:w", 2)],
        ),
        ("a ``two\n`one` <x:y>\nthree`` [m](c.md)\n", [("link", "c.md", 3)]),
        # a string no string of its length closes in the paragraph is no span: read on
        (
            "a `never closed\n<x:y> [l](b.md)\n\nnew ` <q:r>\n",
            [("link", "b.md", 2), ("link", "x:y", 2), ("link", "q:r", 4)],
        ),
        ("a `` x\n` [l](b.md)\n", [("link", "b.md", 2)]),
    ],
)
def test_a_code_span_runs_over_line_breaks_in_its_paragraph(
    text: str, expected: list[tuple[str, str, int]]
) -> None:
    """CommonMark: a backtick string opens a code span when a string of its length closes it
    later in the paragraph, on whatever line; nothing inside is a reference."""
    assert refs(text) == expected


def test_a_paragraph_of_backticks_is_read_in_linear_time() -> None:
    """Each line's backtick closes the span the line before opened; one that no later line
    closes is looked for once."""
    text = "".join(f"line {n} ` [l](b.md)\n" for n in range(40_000))
    assert [line for _, _, line in refs(text)] == list(range(2, 40_001, 2))
    unclosed = "a `` b\n" + "[l](b.md) ` c\n" * 40_000
    assert len(refs(unclosed)) == 20_000  # the single backticks pair up, the double never


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["---\n", "...\n", "a: b\n", "\ufeff", "x\n", "\r\n", "---", "[\n", "\n", "- 1\n"]
        ),
        max_size=10,
    ),
    st.sampled_from(["markdown", "asciidoc", "text"]),
)
def test_body_lines_are_the_front_matters_body_without_parsing_it(
    parts: list[str], kind: str
) -> None:
    """`body_lines` finds the body by the `---` lines alone (an import asks for it several
    times per document); it is the body `split_front_matter` gives, valid YAML or not."""
    text = "".join(parts)
    front = split_front_matter(text)
    assert body_lines(text, kind) == (front.body.split("\n"), front.body_start_line - 1)
