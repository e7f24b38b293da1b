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
import re
from collections.abc import Callable
from functools import cache
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import nh3
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markupsafe import Markup, escape
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

from catdoc.documents import sniff_kind, split_front_matter
from catdoc.inline import role_text
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
    md = (
        MarkdownIt("commonmark", {"html": True, "typographer": False})
        .enable(["table", "strikethrough"])
        .use(myst_role_plugin)
        .use(myst_block_plugin)
        .use(colon_fence_plugin)
    )
    md.add_render_rule("myst_role", _myst_role)
    for name in ("myst_target", "myst_line_comment"):  # what a page does not show
        md.add_render_rule(name, lambda *_: "")
    md.add_render_rule("myst_block_break", lambda *_: "<hr />\n")
    md.add_render_rule("fence", _fence)
    md.add_render_rule("colon_fence", _fence)
    return md


MYST_ADMONITIONS = {
    "admonition": "",
    "attention": "Attention",
    "caution": "Caution",
    "danger": "Danger",
    "error": "Error",
    "hint": "Hint",
    "important": "Important",
    "note": "Note",
    "seealso": "See also",
    "tip": "Tip",
    "todo": "To do",
    "warning": "Warning",
    "versionadded": "New in version",
    "versionchanged": "Changed in version",
    "versionremoved": "Removed in version",
    "deprecated": "Deprecated since version",
}
"""MyST directives whose content is Markdown shown in a box, and the box's title (followed by the
directive's argument: a version, or an `admonition`'s own title)."""
MYST_CODE = frozenset({"code", "code-block", "sourcecode", "code-cell"})
"""MyST directives whose argument is the language of their code."""
_MYST_DIRECTIVE = re.compile(r"\{([A-Za-z][\w:+.-]{0,63})\}[ \t]*(.*)")
_MYST_OPTION = re.compile(r":[\w-]+:(?:[ \t].*)?")
MAX_NESTING = 4
"""Directives inside directives rendered as boxes; deeper ones show as code."""


def _myst_role(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """A MyST role as Sphinx shows it (`catdoc.inline.role_text`): its text, as code for a
    code role."""
    token = tokens[idx]
    text, is_code = role_text(str(token.meta.get("name", "")), token.content)
    return f"<code>{escape(text)}</code>" if is_code else str(escape(text))


def _fence(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """A fence as the page shows it: a MyST admonition's Markdown in a box, a MyST code
    directive's code in its language, any other directive's content as code."""
    token = tokens[idx]
    directive = _MYST_DIRECTIVE.fullmatch(token.info.strip())
    if directive is None:
        return RendererHTML.fence(self, tokens, idx, options, env)
    name, argument = directive.group(1).lower(), directive.group(2).strip()
    body = _directive_body(token.content)
    depth = env.get("depth", 0) if isinstance(env, dict) else 0
    if name in MYST_ADMONITIONS and depth < MAX_NESTING:
        title = " ".join(part for part in (MYST_ADMONITIONS[name], argument) if part)
        inner = _markdown_html(body, env["links"], depth + 1)
        head = f'<p class="admonition-title">{escape(title)}</p>\n' if title else ""
        return f'<aside class="admonition {escape(name)}">\n{head}{inner}</aside>\n'
    language = argument.split()[0] if name in MYST_CODE and argument else ""
    code = Token("fence", "code", 0, info=language, content=body)
    return RendererHTML.fence(self, [code], 0, options, env)


def _directive_body(content: str) -> str:
    """A MyST directive's content without its options (`:key: value` lines, or a `---` block)."""
    lines = content.split("\n")
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is not None:
            rest = lines[end + 1 :]
            return "\n".join(rest[1:] if rest and not rest[0].strip() else rest)
    start = 0
    while start < len(lines) and _MYST_OPTION.fullmatch(lines[start].strip()):
        start += 1
    if start and start < len(lines) and not lines[start].strip():
        start += 1  # the blank line that may follow the options
    return "\n".join(lines[start:])


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


def _markdown_html(body: str, links: Links, depth: int = 0) -> str:
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
    return md.renderer.render(tokens, md.options, {"links": links, "depth": depth})


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
