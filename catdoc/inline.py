"""reST inline markup as a reader of the rendered docs sees it, for a face to show prose with:
roles as their text (`:ref:`Some title <label>`` → `Some title`, `:class:`~pkg.Mod`` → `Mod`,
`:pep:`8`` → `PEP 8`) and inline literals without their backquotes, both marked where they read
as code, so a face may give them a style.

Everything else is left as written: hyperlink references and interpreted text without a role
(`` `text <url>`_ ``, `` `name` ``), emphasis, substitutions. Only a role or literal that starts
and ends on the text given is read: a face passes it one shown line (`catdoc.reflow`), so the
lines shown, and which source lines they show, are the same. Reading is linear in the text.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

_INLINE = re.compile(
    r"(?<![\w`\\])(?:"
    r"(?P<literal>``)(?=\S)"  # an inline literal starts (`_LITERAL_END` ends it)
    r"|:(?P<role>[^\W_]+(?:[-._+:][^\W_]+)*):`(?P<text>[^`\s](?:[^`\\]|\\.)*?)(?<!\s)`(?![\w`])"
    r"|`[^`\s][^`]*`(?:__?|:[^\W_]+(?:[-._+:][^\W_]+)*:)?(?![\w`])"  # interpreted: as written
    r")",
    re.DOTALL,
)
"""Where markup starts, left to right. No match looks further than the next backquote."""

_LITERAL_END = re.compile(r"(?=(?<=\S)``(?![\w`]))")
"""Where an inline literal may end: after a non-space, before a space, punctuation or the end
(``:func:`x``` ends at its last two backquotes)."""

_EXPLICIT = re.compile(r"(?P<title>.+?)\s*(?<!\x00)<(?P<target>[^<>]*)>", re.DOTALL)
"""`Title <target>`, as Sphinx splits a cross-reference (an escaped `\\<` is no split)."""

NUMBERED = {"pep": "PEP", "rfc": "RFC"}
"""Roles shown as a standard and its number (`:pep:`8`` → `PEP 8`)."""

TEXT_ROLES = frozenset(
    {
        *("abbr", "code", "command", "dfn", "emphasis", "file", "guilabel", "kbd", "literal"),
        *("mailheader", "makevar", "manpage", "math", "menuselection", "mimetype", "newsgroup"),
        *("program", "regexp", "samp", "strong", "sub", "subscript", "sup", "superscript"),
        *("t", "title", "title-reference", "raw"),
    }
)
"""Roles whose text is what they show, never `title <target>` (`:math:`a < b``)."""

CODE_ROLES = frozenset(
    {
        *("func", "meth", "class", "mod", "attr", "data", "exc", "obj", "const", "type"),
        *("member", "macro", "var", "struct", "union", "enum", "enumerator", "expr", "texpr"),
        *("concept", "function", "option", "envvar", "keyword", "token", "any", "download"),
        *("code", "literal", "samp", "file", "kbd", "command", "program", "makevar"),
        *("mimetype", "regexp", "dir", "role", "cfunc", "cmember", "cmacro", "ctype", "cdata"),
        *("event", "setting", "opcode", "manpage"),
    }
)
"""Roles that read as code (Sphinx renders them in a code font)."""


@dataclass(frozen=True, slots=True)
class Inline:
    """A text as it reads, and where (start, end) the code in it is: inline literals and
    roles that read as code (`CODE_ROLES`)."""

    text: str
    code: tuple[tuple[int, int], ...] = ()


def read_inline(text: str) -> Inline:
    """`text` with its roles shown as their text and its inline literals without backquotes;
    the rest as written (see the module)."""
    if "`" not in text:
        return Inline(text)
    ends = [m.start() for m in _LITERAL_END.finditer(text)]
    parts: list[str] = []
    code: list[tuple[int, int]] = []
    at = length = 0  # where the text not yet read starts, and the length of what is shown
    pos = 0
    while (match := _INLINE.search(text, pos)) is not None:
        if match.group("literal") is not None:
            k = bisect_left(ends, match.start() + 3)  # the first end after one character
            if k == len(ends):  # never closed: as written
                pos = match.start() + 1
                continue
            shown, is_code, stop = text[match.start() + 2 : ends[k]], True, ends[k] + 2
        elif match.group("role") is not None:
            shown, is_code = role_text(match.group("role"), match.group("text"))
            stop = match.end()
        else:  # interpreted text, a hyperlink reference: as written
            pos = match.end()
            continue
        parts.append(text[at : match.start()])
        length += match.start() - at
        if is_code and shown:
            code.append((length, length + len(shown)))
        parts.append(shown)
        length += len(shown)
        at = pos = stop
    parts.append(text[at:])
    return Inline("".join(parts), tuple(code))


def role_text(role: str, text: str) -> tuple[str, bool]:
    """What `:role:`text`` shows, and whether it reads as code: an explicit title
    (`Title <target>`) if there is one, else the target without a leading `!`, and with a
    leading `~` only its last dotted component (`~pkg.Mod` → `Mod`); `PEP 8`, `RFC 2616`; the
    text itself for roles with no target (`:math:`, `:kbd:` …, `TEXT_ROLES`)."""
    name = role.lower().rsplit(":", 1)[-1]  # `py:func` and `external+python:py:func` as `func`
    is_code = name in CODE_ROLES
    escaped = re.sub(r"\\(.)", lambda m: "\x00" + m.group(1), text, flags=re.DOTALL)
    if name in TEXT_ROLES:
        shown = _unescape(escaped)
        if name == "menuselection":
            shown = shown.replace("-->", "‣")
        elif name == "guilabel":
            shown = re.sub(r"&(.)", r"\1", shown)
        elif name in ("samp", "file"):
            shown = _unescape(re.sub(r"(?<!\x00)\{([^{}]*)(?<!\x00)\}", r"\1", escaped))
        return shown, is_code
    explicit = _EXPLICIT.fullmatch(escaped)
    if explicit is not None:
        return _unescape(explicit.group("title")), is_code
    target = _unescape(escaped).strip()
    if name in NUMBERED:
        return f"{NUMBERED[name]} {target}", False
    target = target.removeprefix("!")
    if is_code:  # a leading dot only says where to look first
        target = target.lstrip(".")
    if target.startswith("~"):
        target = re.split(r"\.|::", target[1:])[-1]
    return target, is_code


def _unescape(text: str) -> str:
    """Text whose escaped characters were marked with a NUL before them, as it reads."""
    return re.sub(r"\x00 ?", "", text) if "\x00" in text else text
