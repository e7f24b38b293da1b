"""Text to safe HTML: documents (Markdown with raw HTML off, reStructuredText with `raw` and file
inclusion off and its HTML cleaned by nh3, anything else as escaped text) and search snippets
(their «marks» become <mark>). Nothing a document says can reach the page as markup:
markdown-it escapes inline HTML and refuses `javascript:` links; nh3 keeps only harmless tags
and attributes of docutils' output."""

from __future__ import annotations

from functools import cache
from urllib.parse import quote

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from catdoc.documents import sniff_kind, split_front_matter

ROUTES = {
    "category": "categories",
    "object": "objects",
    "morphism": "morphisms",
    "functor": "functors",
    "naturalTransformation": "transformations",
    "chain": "chain",
}
"""Entity kind (as `CatDoc.locate_entity` names it) → the URL segment of its page; and `chain`,
an object's chain."""


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable(
        ["table", "strikethrough"]
    )


_RST_SETTINGS = {
    "raw_enabled": False,
    "file_insertion_enabled": False,
    "report_level": 5,
    "halt_level": 5,
    "traceback": False,
    "embed_stylesheet": False,
    "stylesheet_path": "",
    "input_encoding": "unicode",
    "doctitle_xform": False,
}


def _rst_html(body: str) -> str | None:
    """reStructuredText as cleaned HTML, or None when docutils cannot make sense of it."""
    from docutils.core import publish_parts
    from docutils.utils import SystemMessage

    try:
        parts = publish_parts(body, writer="html5", settings_overrides=_RST_SETTINGS)
    except (SystemMessage, ValueError, RecursionError):
        return None
    return nh3.clean(parts["body"], url_schemes={"http", "https", "mailto"})


def document_html(text: str, path: str | None) -> Markup:
    """An object's document as HTML; front matter is left out (the page shows it as fields)."""
    body = split_front_matter(text).body
    kind = "markdown" if path is None else sniff_kind(path, body)
    if kind == "markdown":
        return Markup(_markdown().render(body))
    if kind == "rst" and (html := _rst_html(body)) is not None:
        return Markup(html)
    return Markup('<pre class="document-text">') + escape(body) + Markup("</pre>")


def marked(snippet: str) -> Markup:
    """A search snippet, escaped, with the engine's «word» marks as <mark>word</mark>."""
    html = str(escape(snippet))
    return Markup(html.replace("«", "<mark>").replace("»", "</mark>"))


def entity_url(kind: str, ident: str) -> str:
    """The stable URL of an entity's page. The id `.` or `..` goes in the query (`?id=..`): a
    browser resolves such a path segment, even percent-encoded, to the page above."""
    if ident in {".", ".."}:
        return f"/{ROUTES[kind]}/?id={quote(ident, safe='')}"
    return f"/{ROUTES[kind]}/{quote(ident, safe='')}"
