"""Text to safe HTML: documents (Markdown with raw HTML off; anything else as escaped text) and
search snippets (their «marks» become <mark>). Nothing a document says can reach the page as
markup: markdown-it escapes inline HTML and refuses `javascript:` links."""

from __future__ import annotations

from functools import cache
from urllib.parse import quote

from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from catdoc.documents import kind_of, split_front_matter

ROUTES = {
    "category": "categories",
    "object": "objects",
    "morphism": "morphisms",
    "functor": "functors",
    "naturalTransformation": "transformations",
}
"""Entity kind (as `CatDoc.locate_entity` names it) → the URL segment of its page."""


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable(
        ["table", "strikethrough"]
    )


def document_html(text: str, path: str | None) -> Markup:
    """An object's document as HTML; front matter is left out (the page shows it as fields)."""
    body = split_front_matter(text).body
    if path is None or kind_of(path) == "markdown":
        return Markup(_markdown().render(body))
    return Markup('<pre class="document-text">') + escape(body) + Markup("</pre>")


def marked(snippet: str) -> Markup:
    """A search snippet, escaped, with the engine's «word» marks as <mark>word</mark>."""
    html = str(escape(snippet))
    return Markup(html.replace("«", "<mark>").replace("»", "</mark>"))


def entity_url(kind: str, ident: str) -> str:
    """The stable URL of an entity's page."""
    return f"/{ROUTES[kind]}/{quote(ident, safe='')}"
