"""MyST and MkDocs' admonitions as Sphinx and MkDocs show them (`catdoc.markdown_extensions`):
every extension's token becomes a CommonMark one, so the dashboard's HTML and the terminal
browser's Markdown widget read such pages alike."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from myst_samples import MYST_PAGE

from catdoc.markdown_extensions import MAX_NESTING, directive_body, extensions_plugin

COMMONMARK = {
    "paragraph_open", "paragraph_close", "inline", "heading_open", "heading_close",
    "blockquote_open", "blockquote_close", "fence", "code_block", "hr", "html_block",
    "bullet_list_open", "bullet_list_close", "ordered_list_open", "ordered_list_close",
    "list_item_open", "list_item_close",
}  # fmt: skip
INLINE = {
    "text", "code_inline", "softbreak", "hardbreak", "em_open", "em_close", "strong_open",
    "strong_close", "link_open", "link_close", "image", "html_inline",
}  # fmt: skip


def md() -> MarkdownIt:
    return MarkdownIt("commonmark").use(extensions_plugin)


def test_a_myst_page_reads_as_sphinx_shows_it() -> None:
    text = MYST_PAGE + "\n+++\n\n```python\nplain = 1\n```\n"
    assert md().render(text) == (
        "<h1>Caching</h1>\n"
        "<p>See local installs and <code>Cache</code>.</p>\n"
        '<blockquote class="admonition versionchanged">\n'
        "<p><strong>Changed in version 23.3</strong></p>\n"
        "<p>A new format, <code>http-v2</code>.</p>\n</blockquote>\n"
        '<blockquote class="admonition warning">\n<p><strong>Warning</strong></p>\n'
        "<p>Do <strong>not</strong> delete it.</p>\n</blockquote>\n"
        '<pre><code class="language-python">print(1)\n</code></pre>\n'
        "<pre><code>$ pip cache dir\n</code></pre>\n<hr />\n"
        '<pre><code class="language-python">plain = 1\n</code></pre>\n'
    )


def test_mkdocs_admonitions_read_as_quotes_under_their_title() -> None:
    text = '!!! note "Custom title"\n    Some *text*.\n\n??? tip\n    Hidden.\n\nAfter.\n'
    assert md().render(text) == (
        '<blockquote class="admonition note">\n<p><strong>Custom title</strong></p>\n'
        "<p>Some <em>text</em>.</p>\n</blockquote>\n"
        '<blockquote class="admonition tip is-collapsible collapsible-closed">\n'
        "<p><strong>Tip</strong></p>\n<p>Hidden.</p>\n</blockquote>\n<p>After.</p>\n"
    )


def test_admonitions_nest_to_a_depth_then_show_as_code() -> None:
    deep = "x"
    for level in range(MAX_NESTING + 1):
        fence = "`" * (3 + level)
        deep = f"{fence}{{note}}\n{deep}\n{fence}"
    html = md().render(deep)
    assert html.count('<blockquote class="admonition note">') == MAX_NESTING
    assert "<pre><code>x\n</code></pre>" in html


def test_an_admonitions_blocks_keep_their_lines_in_the_document() -> None:
    tokens = md().parse("# T\n\n```{note}\n:class: x\n\nFirst.\n\nSecond.\n```\n")
    paragraphs = [t.map for t in tokens if t.type == "paragraph_open" and t.map]
    assert paragraphs == [[2, 3], [5, 6], [7, 8]]  # the title, "First.", "Second." (from 0)


def test_directive_options_and_the_blank_line_after_them_are_left_out() -> None:
    assert directive_body(":caption: A\n:name: b\n\ncode\n") == "code\n"
    assert directive_body("---\ncaption: A\n---\n\ncode\n") == "code\n"
    assert directive_body("---\nunclosed\n") == "---\nunclosed\n"
    assert directive_body("code: not an option\n") == "code: not an option\n"


PARTS = st.sampled_from(
    [
        "```{note}\n", "````{warning} Title\n", "```\n", "````\n", ":::{tip}\n", ":::\n",
        "```{code-block} py\n", ":name: x\n", "---\n", "{ref}`a <b>`", "{class}`~a.B`",
        "{unknown}`x`", "(label)=\n", "% comment\n", "+++\n", "text ", "\n", "\n\n", "> ",
        "- ", "**b** ", "<b>", "`c`", '!!! note "T"\n', "??? tip\n", "???+ warning\n", "    ",
    ]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(PARTS, max_size=20))
@example(["> ", ":::{tip}\n", "> "])  # a colon fence read to the end of a quote (IndexError)
def test_only_commonmark_tokens_are_left(parts: list[str]) -> None:
    def walk(tokens: list) -> None:  # type: ignore[type-arg]
        for token in tokens:
            assert token.type in COMMONMARK, token.type
            for child in token.children or []:
                assert child.type in INLINE, child.type

    walk(md().parse("".join(parts)))


@pytest.mark.parametrize(
    "text", ["> :::{tip}\n> ", "> :::{tip}\n>", "> :::\n> ", "- > :::{note}\n  > "]
)
def test_a_colon_fence_left_open_at_the_end_of_a_quote_renders(text: str) -> None:
    """mdit-py-plugins' colon fence indexes past the text when a quote's last line is empty and
    the text has no final line break; the plugin gives it one, and the fence runs to the end."""
    assert md().render(text) == md().render(text + "\n")
    assert "<blockquote>" in md().render(text)
