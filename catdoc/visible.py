"""Text from the model made safe to show on a terminal: every face's human-readable output.

Titles, ids, paths and document text come from files anyone can edit. Printed raw, an ESC or
C1 sequence in them would drive the reader's terminal (set its title, hide text, fake output).
`visible` turns each control character into its escape (`\\x1b`), so the text stays readable and
the payload recognisable. JSON output keeps its exact values: serialisers escape C0 already,
and `json_visible` escapes the rest inside the JSON strings.
"""

from __future__ import annotations

import re

UNSEEN = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
"""A character class of what changes what a reader sees without being seen: the bidirectional
marks, embeddings, overrides and isolates (which reorder text), and the line and paragraph
separators."""
_CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{UNSEEN}]")
"""C0, DEL, C1, and `UNSEEN`."""
_CONTROL_BUT_LINES = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{UNSEEN}]")
"""The same, less newline and tab: for text that is shown as lines (documents, reports)."""
_JSON_RAW = re.compile(f"[\x7f-\x9f{UNSEEN}]")
"""What JSON serialisers leave raw (they must escape only C0): DEL, C1, `UNSEEN`."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str, *, lines: bool = False) -> str:
    """`text` with control characters as `\\xNN` (`\\uNNNN` for `UNSEEN`).

    With `lines`, newlines and tabs stay (a CR before a newline is dropped, a lone CR escaped)."""
    if lines:
        return _CONTROL_BUT_LINES.sub(_escape, text.replace("\r\n", "\n"))
    return _CONTROL.sub(_escape, text)


def json_visible(text: str) -> str:
    """JSON text with DEL, C1 and `UNSEEN` as `\\uNNNN`: the same JSON value, no raw control
    character. (Outside strings JSON is ASCII, so only string contents change.)"""
    return _JSON_RAW.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


__all__ = ["UNSEEN", "json_visible", "visible"]
