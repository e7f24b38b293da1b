"""Text to safe HTML: documents (Markdown with its raw HTML shown as text and its HTML comments
left out, reStructuredText with `raw` and file
inclusion off and its HTML cleaned by nh3, AsciiDoc as escaped text under its section titles,
anything else as escaped text) and search snippets
(their «marks» become <mark>). Nothing a document says can reach the page as markup:
every raw HTML token of markdown-it is escaped (or, a comment, dropped) and it refuses
`javascript:` links; nh3 keeps only harmless tags
and attributes of docutils' output."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from functools import cache
from urllib.parse import quote, unquote, urlsplit

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from catdoc.documents import sniff_kind, split_front_matter
from catdoc.markdown_extensions import extensions_plugin
from catdoc.markup import scan_asciidoc

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
    return (
        MarkdownIt("commonmark", {"html": True, "typographer": False})
        .enable(["table", "strikethrough"])
        .use(extensions_plugin)
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


class Links:
    """Where a document's relative links and images go. A link to a file of the project that is
    some object's document goes to that object's page (`page_of(path)`); any other relative link
    loses its `href` and any relative image its `src` (the page shows its text, the image's alt
    text): the dashboard serves no project files. Links and images with a scheme stay."""

    def __init__(self, path: str | None, page_of: Callable[[str], str | None]) -> None:
        self.folder = posixpath.dirname(path or "")
        self.page_of = page_of

    def _path(self, url: str) -> str | None:
        """The project path a relative `url` names, or None when it lies outside the project."""
        path = unquote(urlsplit(url).path)
        if not path.startswith("/"):
            path = posixpath.join(self.folder, path)
        path = posixpath.normpath(path).lstrip("/")
        return None if path == ".." or path.startswith("../") else path

    def href(self, url: str) -> str | None:
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path:  # elsewhere, or on this page
            return url
        path = self._path(url)
        page = None if path is None else self.page_of(path)
        if page is None:
            return None
        return page + (f"#{parts.fragment}" if parts.fragment else "")

    def src(self, url: str) -> str | None:
        parts = urlsplit(url)
        return url if parts.scheme or parts.netloc else None

    def attribute(self, tag: str, name: str, value: str) -> str | None:
        """nh3's attribute filter: `href` and `src` as `href` and `src` say."""
        if name == "href":
            return self.href(value)
        return self.src(value) if name == "src" else value


def _raw_html(html: str, *, block: bool) -> str:
    """Raw HTML of a Markdown document as the page shows it: a comment not at all (a browser
    does not show one either), anything else as its text."""
    if html.lstrip().startswith("<!--"):
        return ""
    text = str(escape(html))
    return f"<p>{text.rstrip()}</p>\n" if block else text


def _markdown_html(body: str, links: Links) -> str:
    md = _markdown()
    tokens = md.parse(body)
    for token in tokens:
        if token.type == "html_block":
            token.content = _raw_html(token.content, block=True)
        for child in token.children or []:
            if child.type == "html_inline":
                child.content = _raw_html(child.content, block=False)
                continue
            name = {"link_open": "href", "image": "src"}.get(child.type)
            if name is not None:
                value = links.attribute(child.tag, name, str(child.attrs[name]))
                if value is None:
                    del child.attrs[name]
                else:
                    child.attrs[name] = value
    return md.renderer.render(tokens, md.options, {})


def _rst_html(body: str, links: Links) -> str | None:
    """reStructuredText as cleaned HTML, or None when docutils cannot make sense of it."""
    from docutils.core import publish_parts
    from docutils.utils import SystemMessage

    try:
        parts = publish_parts(body, writer="html5", settings_overrides=_RST_SETTINGS)
    except (SystemMessage, ValueError, RecursionError):
        return None
    return nh3.clean(
        parts["body"], url_schemes={"http", "https", "mailto"}, attribute_filter=links.attribute
    )


def _asciidoc_html(body: str) -> Markup:
    """AsciiDoc as its section titles (headings) and, between them, its text as written: no
    AsciiDoc renderer is at hand, and escaped text says nothing the document does not."""
    lines = body.split("\n")
    parts: list[Markup] = []
    start = 0
    for heading in [*scan_asciidoc(lines).headings, None]:
        end = heading.first if heading is not None else len(lines)
        text = "\n".join(lines[start:end]).strip("\n")
        if text.strip():
            parts.append(Markup('<pre class="document-text">') + escape(text) + Markup("</pre>"))
        if heading is not None:
            tag = f"h{min(heading.level, 6)}"
            parts.append(Markup(f"<{tag}>") + escape(heading.title) + Markup(f"</{tag}>"))
            start = heading.last + 1
    return Markup("\n").join(parts)


def document_html(
    text: str, path: str | None, page_of: Callable[[str], str | None] = lambda path: None
) -> Markup:
    """An object's document (at `path` in the project) as HTML; front matter is left out (the
    page shows it as fields). Relative links and images: see `Links`."""
    body = split_front_matter(text).body
    kind = "markdown" if path is None else sniff_kind(path, body)
    links = Links(path, page_of)
    if kind == "markdown":
        return Markup(_markdown_html(body, links))
    if kind == "rst" and (html := _rst_html(body, links)) is not None:
        return Markup(html)
    if kind == "asciidoc":
        return _asciidoc_html(body)
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
