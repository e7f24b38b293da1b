"""Markdown as Sphinx's MyST and MkDocs show it, for any markdown-it-py renderer.

A MyST page is CommonMark plus roles (`{class}`~pkg.Cache``), directives in fences
(```` ```{note} ```` or `:::{note}`), `(label)=` targets and `%` comments; an MkDocs page
has admonitions (`!!! note "Title"` or a collapsible `??? tip`, their Markdown indented under
them). mdit-py-plugins parses them; `extensions_plugin` then rewrites its tokens into plain
CommonMark ones, so the dashboard's HTML renderer and the terminal browser's Markdown widget
show them alike: a role as its text (`catdoc.inline.role_text`), an admonition or version note
as a block quote with a bold title holding its Markdown, a code directive as code in its
language, any other directive's content as code, and targets and comments not at all.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

from catdoc.inline import role_text

ADMONITIONS = {
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
"""Directives whose content is Markdown shown as a quote, and its title (followed by the
directive's argument: a version, or an `admonition`'s own title)."""
CODE_DIRECTIVES = frozenset({"code", "code-block", "sourcecode", "code-cell"})
"""Directives whose argument is the language of their code."""
MAX_NESTING = 4
"""Admonitions inside admonitions shown as quotes; deeper ones show as code."""

_DIRECTIVE = re.compile(r"\{([A-Za-z][\w:+.-]{0,63})\}[ \t]*(.*)")
_OPTION = re.compile(r":[\w-]+:(?:[ \t].*)?")
_HIDDEN = frozenset({"myst_target", "myst_line_comment"})


def extensions_plugin(md: MarkdownIt) -> None:
    """Parse MyST's roles, blocks and colon fences and MkDocs' admonitions, and leave only
    CommonMark tokens."""
    md.use(myst_role_plugin).use(myst_block_plugin).use(colon_fence_plugin).use(admon_plugin)
    md.core.ruler.after("normalize", "catdoc_final_newline", _final_newline)
    md.core.ruler.push("catdoc_extensions", _rewrite)


def _final_newline(state: StateCore) -> None:
    """End the text with a line break, which changes no block: mdit-py-plugins' colon fence
    (0.7) reads the first character of each line after an opening `:::` unguarded, and a text
    whose last line is an empty one in a block quote (`> :::{tip}\n> `) starts that line at
    the text's very end (IndexError); with a final line break every line starts before it."""
    if not state.src.endswith("\n"):
        state.src += "\n"


def _rewrite(state: StateCore) -> None:
    """The token stream with every extension's token replaced by CommonMark ones (see module
    doc); `myst_depth` in the environment counts the admonitions this parse is inside."""
    depth = state.env.get("myst_depth", 0) if isinstance(state.env, dict) else 0
    _bold_titles(state.tokens)
    out: list[Token] = []
    for token in state.tokens:
        if token.type in _HIDDEN:
            continue
        if token.type == "myst_block_break":
            out.append(Token("hr", "hr", 0, markup="---", block=True, map=token.map))
        elif token.type in ("fence", "colon_fence"):
            out += _fence(state, token, depth)
        elif token.type in _ADMONITION:
            out.append(_admonition(token))
        else:
            if token.type == "inline" and token.children:
                token.children = [_role(child) for child in token.children]
            out.append(token)
    state.tokens = out


_ADMONITION = {
    "admonition_open": ("blockquote_open", "blockquote", 1),
    "admonition_close": ("blockquote_close", "blockquote", -1),
    "admonition_title_open": ("paragraph_open", "p", 1),
    "admonition_title_close": ("paragraph_close", "p", -1),
}
"""An MkDocs admonition's tokens as a block quote's, its title a paragraph."""


def _admonition(token: Token) -> Token:
    """One MkDocs admonition token as its block quote's or title paragraph's."""
    kind, tag, nesting = _ADMONITION[token.type]
    if kind == "blockquote_open":
        return _quote(str(token.attrGet("class") or "admonition"), token.map)
    return Token(kind, tag, nesting, map=token.map, block=True)


def _quote(classes: str, where: Any) -> Token:
    """The start of an admonition's block quote."""
    quote = Token("blockquote_open", "blockquote", 1, map=where, block=True)
    quote.attrSet("class", classes)
    return quote


def _bold(children: list[Token]) -> list[Token]:
    """`children` inside a strong emphasis, as a title shows."""
    return [
        Token("strong_open", "strong", 1, markup="**"),
        *children,
        Token("strong_close", "strong", -1, markup="**"),
    ]


def _bold_titles(tokens: list[Token]) -> None:
    """The inline title after each MkDocs admonition title's start, in bold."""
    for before, token in pairwise(tokens):
        if before.type == "admonition_title_open" and token.type == "inline" and token.children:
            token.children = _bold(token.children)


def _role(token: Token) -> Token:
    """A MyST role as the text Sphinx shows (code for a code role); other tokens as they are."""
    if token.type != "myst_role":
        return token
    text, is_code = role_text(str(token.meta.get("name", "")), token.content)
    return Token("code_inline" if is_code else "text", "code" if is_code else "", 0, content=text)


def _fence(state: StateCore, token: Token, depth: int) -> list[Token]:
    """A fence, or a MyST directive in one, as CommonMark tokens (see module doc)."""
    directive = _DIRECTIVE.fullmatch(token.info.strip())
    if directive is None:
        token.type = "fence"
        return [token]
    name, argument = directive.group(1).lower(), directive.group(2).strip()
    body = directive_body(token.content)
    if name in ADMONITIONS and depth < MAX_NESTING:
        title = " ".join(part for part in (ADMONITIONS[name], argument) if part)
        env = {**state.env, "myst_depth": depth + 1} if isinstance(state.env, dict) else {}
        inner = state.md.parse(body, env)
        if token.map:  # the content's lines, from the document's start
            offset = token.map[0] + 1 + token.content.count("\n") - body.count("\n")
            for part in inner:
                if part.map:
                    part.map = [part.map[0] + offset, part.map[1] + offset]
        quote = _quote(f"admonition {name}", token.map)
        where = [token.map[0], token.map[0] + 1] if token.map else None  # the fence's line
        head = _paragraph(title, where) if title else []
        close = Token("blockquote_close", "blockquote", -1, block=True)
        return [quote, *head, *inner, close]
    language = argument.split()[0] if name in CODE_DIRECTIVES and argument else ""
    code = Token("fence", "code", 0, info=language, content=body, block=True, map=token.map)
    code.markup = "```"
    return [code]


def _paragraph(title: str, where: Any) -> list[Token]:
    """A paragraph of `title` in bold."""
    inline = Token("inline", "", 0, content=title, block=True, map=where)
    inline.children = _bold([Token("text", "", 0, content=title)])
    return [
        Token("paragraph_open", "p", 1, block=True, map=where),
        inline,
        Token("paragraph_close", "p", -1, block=True),
    ]


def directive_body(content: str) -> str:
    """A directive's content without its options (`:key: value` lines, or a `---` block) and
    the blank line that may follow them."""
    lines = content.split("\n")
    start = 0
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        start = 0 if end is None else end + 1
    else:
        while start < len(lines) and _OPTION.fullmatch(lines[start].strip()):
            start += 1
    if start and start < len(lines) and not lines[start].strip():
        start += 1
    return "\n".join(lines[start:])


__all__ = ["ADMONITIONS", "CODE_DIRECTIVES", "MAX_NESTING", "directive_body", "extensions_plugin"]
