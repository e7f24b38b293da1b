"""`.catdoc/reviews.yaml`: the review stamps of the project's links, read and written.

```yaml
version: 1
stamps:
  morphism:auth-uses-user: {source: {req-auth: 3f2a9c0d1e5b7a64}, target: {req-user: …}, at: …}
  functor:specify:object:req-auth: {source: {req-auth: …}, target: {spec-auth: …}, by: Ada, at: …}
```

Each stamp is keyed by its link (see `catdoc.review_links`) and holds, for each end, the ids of
the documents there with their fingerprints (`catdoc.fingerprints`) when a person reviewed it.
One stamp per line keeps diffs readable and lets an edit replace, add or drop single lines: the
rest of the file, comments included, stays byte for byte. A file laid out otherwise by hand is
edited through a ruamel round trip instead (comments kept, slower). Writes happen only inside the
edit transaction (`catdoc.edit`), under the project lock and together with the model files.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from catdoc import review_lines, yaml_lines, yaml_source
from catdoc.errors import LOAD_ERROR, CatDocError
from catdoc.project_files import CATDOC_DIR, REVIEWS_FILE, inside_catdoc
from catdoc.review_lines import as_text

REVIEWS_REL = f"{CATDOC_DIR}/{REVIEWS_FILE}"
FORMAT_VERSION = 1
MAX_FINGERPRINT = 64
"""Longest fingerprint accepted (CatDoc writes 16 hex digits or a word such as `missing`)."""

HEADER = (
    "# Review stamps of CatDoc links: the fingerprints of the documents at both ends of each link\n"
    "# when it was last reviewed. Written by `catdoc review` and the edit commands; a link whose\n"
    "# documents changed since is suspect (`catdoc suspects`).\n"
)


@dataclass(slots=True)
class Stamp:
    """One link's stamp: for each end, document id → fingerprint; who and when, if known.

    Treat it as read-only (`dataclasses.replace` makes a changed copy). A plain, unfrozen
    dataclass: a large project holds tens of thousands, and a frozen one is four times slower
    to make."""

    source: dict[str, str] = field(default_factory=dict)
    target: dict[str, str] = field(default_factory=dict)
    by: str | None = None
    at: str | None = None

    def plain(self) -> dict[str, Any]:
        """The stamp as the file holds it (absent `by` / `at` left out)."""
        data: dict[str, Any] = {"source": dict(self.source), "target": dict(self.target)}
        if self.by is not None:
            data["by"] = self.by
        if self.at is not None:
            data["at"] = self.at
        return data


class _Invalid(Exception):
    """A value of the file is not what the format allows: where (a YAML path) and why."""

    def __init__(self, loc: tuple[Any, ...], problem: str) -> None:
        super().__init__(problem)
        self.loc = loc
        self.problem = problem


def _text(value: Any, loc: tuple[Any, ...], what: str, limit: int | None = None) -> str:
    value = as_text(value)
    if not isinstance(value, str):
        raise _Invalid(loc, f"{what} must be text, not {type(value).__name__}")
    if limit is not None and len(value) > limit:
        raise _Invalid(loc, f"{what} is longer than {limit} characters")
    return value


_STAMP_KEYS = {"source", "target", "by", "at"}


def _stamp(key: str, value: Any) -> Stamp:
    loc: tuple[Any, ...] = ("stamps", key)
    if not isinstance(value, dict):
        raise _Invalid(loc, f"a stamp must be a mapping, not {type(value).__name__}")
    unknown = [k for k in value if k not in _STAMP_KEYS]
    if unknown:
        raise _Invalid((*loc, unknown[0]), "unknown key (a stamp has source, target, by, at)")
    ends: list[dict[str, str]] = []
    for side in ("source", "target"):
        held = value.get(side)
        if held is None:
            ends.append({})
            continue
        if not isinstance(held, dict):
            raise _Invalid((*loc, side), "must map document ids to fingerprints")
        if all(
            type(k) is str and type(v) is str and len(v) <= MAX_FINGERPRINT for k, v in held.items()
        ):
            ends.append(held)
            continue
        ends.append(
            {
                _text(k, (*loc, side, k), "a document id"): _text(
                    v, (*loc, side, k), "a fingerprint", MAX_FINGERPRINT
                )
                for k, v in held.items()
            }
        )
    by, at = value.get("by"), value.get("at")
    return Stamp(
        ends[0],
        ends[1],
        None if by is None else _text(by, (*loc, "by"), "by"),
        None if at is None else _text(at, (*loc, "at"), "at"),
    )


def _stamps(data: dict[Any, Any]) -> dict[str, Stamp]:
    unknown = [k for k in data if k not in ("version", "stamps")]
    if unknown:
        raise _Invalid((unknown[0],), "unknown key (the file has version and stamps)")
    version = data.get("version", FORMAT_VERSION)
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise _Invalid(
            ("version",),
            f"version {yaml_source.shown(version)} is not known (this CatDoc reads version "
            f"{FORMAT_VERSION}; upgrade CatDoc or restore the file)",
        )
    held = data.get("stamps")
    if held is None:
        return {}
    if not isinstance(held, dict):
        raise _Invalid(("stamps",), "must map link keys to stamps")
    return {
        _text(key, ("stamps", key), "a link key"): _stamp(key, value) for key, value in held.items()
    }


def signature(source: Mapping[str, str], target: Mapping[str, str]) -> str:
    """A stamp's ends as one string: equal strings mean equal ends (listed in the same order)."""
    return (
        "\x1f".join(f"{k}\x1e{v}" for k, v in source.items())
        + "\x1d"
        + "\x1f".join(f"{k}\x1e{v}" for k, v in target.items())
    )


@dataclass(frozen=True)
class ReviewBook:
    """The stamps of a `reviews.yaml` text. `signatures` (link key → `signature` of its stamp)
    answer "is this stamp still current" without building 70,000 stamps; `stamp(key)` and
    `stamps` build them, from `lines` (each stamp's line) when the file is in CatDoc's layout
    (`catdoc.review_lines`)."""

    text: str
    digest: str
    signatures: dict[str, str]
    lines: dict[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def of(
        cls, stamps: dict[str, Stamp], text: str, digest: str, previous: ReviewBook | None = None
    ) -> ReviewBook:
        """The book of parsed `stamps`; the signatures `previous` knew of the same stamps are
        reused."""
        known = previous.__dict__.get("stamps", {}) if previous is not None else {}
        old_signatures = previous.signatures if previous is not None else {}
        signatures = {}
        for key, stamp in stamps.items():
            held = old_signatures.get(key) if known.get(key) is stamp else None
            signatures[key] = held if held is not None else signature(stamp.source, stamp.target)
        book = cls(text, digest, signatures)
        book.__dict__["stamps"] = stamps
        return book

    @cached_property
    def stamps(self) -> dict[str, Stamp]:
        return {key: Stamp(*review_lines.stamp_fields(line)) for key, line in self.lines.items()}

    def stamp(self, key: str) -> Stamp | None:
        if "stamps" in self.__dict__ or key not in self.lines:
            return self.stamps.get(key)
        return Stamp(*review_lines.stamp_fields(self.lines[key]))


def reviews_path(root: Path) -> Path:
    return root / CATDOC_DIR / REVIEWS_FILE


def read_reviews(root: Path) -> ReviewBook | None:
    """The project's stamps; None when `reviews.yaml` does not exist (reviews are off).

    A broken file raises LOAD_ERROR at its `file:line`; a symlink leading out of the project,
    a file over the size limit, NUL bytes or nesting too deep are refused the same way."""
    path = reviews_path(root)
    if not os.path.lexists(path):
        return None
    inside_catdoc(root, path)
    if not path.is_file():
        raise CatDocError(
            LOAD_ERROR,
            f"{REVIEWS_REL}: is not a regular file.",
            f"Remove it, or replace it by the {REVIEWS_FILE} from version control.",
        )
    yaml_source.check_size(path, REVIEWS_REL)
    text = yaml_source.read_text(path, REVIEWS_REL)
    return parse_reviews(text)


_CACHE: dict[str, ReviewBook] = {}
_CACHE_LOCK = threading.Lock()


def parse_reviews(text: str) -> ReviewBook:
    """The stamps of a `reviews.yaml` text; the last few texts parsed are remembered. A file in
    CatDoc's own layout is read line by line (`catdoc.review_lines`), any other through YAML."""
    digest = _digest(text)
    with _CACHE_LOCK:
        found = _CACHE.get(digest)
    if found is not None:
        return found
    lines = review_lines.read(text)
    if lines is None:
        book = ReviewBook.of(_validate(text), text, digest)
    else:
        book = ReviewBook(text, digest, lines.signatures, lines.lines)
    _keep(book)
    return book


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _keep(book: ReviewBook) -> None:
    with _CACHE_LOCK:
        if len(_CACHE) >= 4:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[book.digest] = book


def _validate(text: str) -> dict[str, Stamp]:
    data = yaml_source.parse(text, REVIEWS_REL)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise yaml_source.load_error(
            f"{REVIEWS_REL}:1",
            f"the top level must be a mapping with `version` and `stamps`, not a "
            f"{type(data).__name__}.",
            "Start the file with `version: 1` and `stamps:` (or delete it and run "
            "`catdoc review --all`).",
        )
    try:
        return _stamps(data)
    except _Invalid as exc:
        line = yaml_lines.lines_of(text, [exc.loc])[0]
        where = ".".join(yaml_source.shown(part) for part in exc.loc)
        raise yaml_source.load_error(
            f"{REVIEWS_REL}:{line}",
            f"{where}: {exc.problem}.",
            "Each stamp is `LINK: {source: {ID: FINGERPRINT}, target: {ID: FINGERPRINT}, by: "
            "NAME, at: TIME}`; fix the entry, or drop it and review the link again.",
        ) from None


# ---------------------------------------------------------------------------------- writing
_PLAIN = re.compile(r"[A-Za-z_][\w.\-/+]*(?::[\w.\-/+]+)*")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


def scalar(value: str) -> str:
    """`value` as a YAML scalar: plain when that reads back as the same text, else quoted."""
    if _PLAIN.fullmatch(value) and value.lower() not in _RESERVED:
        return value
    return json.dumps(value, ensure_ascii=False)


def stamp_line(key: str, stamp: Stamp, indent: int = 2) -> str:
    """One stamp as one line of the `stamps:` mapping."""

    def ends(side: dict[str, str]) -> str:
        return "{" + ", ".join(f"{scalar(k)}: {scalar(v)}" for k, v in side.items()) + "}"

    parts = [f"source: {ends(stamp.source)}", f"target: {ends(stamp.target)}"]
    if stamp.by is not None:
        parts.append(f"by: {scalar(stamp.by)}")
    if stamp.at is not None:
        parts.append(f"at: {scalar(stamp.at)}")
    return f"{' ' * indent}{scalar(key)}: {{{', '.join(parts)}}}\n"


def new_text(stamps: dict[str, Stamp]) -> str:
    """A fresh `reviews.yaml`."""
    body = "".join(stamp_line(key, stamps[key]) for key in sorted(stamps))
    return f"{HEADER}version: {FORMAT_VERSION}\nstamps:" + ("\n" + body if body else " {}\n")


def remember(text: str, stamps: dict[str, Stamp], previous: ReviewBook | None) -> None:
    """Keep the stamps of a text an edit is writing, so the next read of `reviews.yaml` in this
    process does not parse what was just rendered."""
    _keep(ReviewBook.of(stamps, text, _digest(text), previous))


def render(book: ReviewBook | None, stamps: dict[str, Stamp]) -> str | None:
    """The new text of `reviews.yaml` holding `stamps`; None when nothing changes."""
    if book is None:
        return new_text(stamps)
    if stamps == book.stamps:
        return None
    spliced = _splice(book, stamps)
    if spliced is not None:
        return spliced
    return _round_trip(book, stamps)


_STAMPS_KEY = re.compile(r"stamps:[ \t]*(\{\}[ \t]*)?(#.*)?")
_ENTRY_KEY = re.compile(
    r"( +)(\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'|[^\s\"'#{\[\]},&*!|>%@`][^\s]*?):(?:[ \t]|$)"
)
"""A stamp's key at the start of its line: double-quoted, single-quoted or plain."""


def _meaningful(line: str) -> bool:
    body = line.strip()
    return bool(body) and not body.startswith("#")


def _key_of(raw: str) -> str | None:
    if raw.startswith('"'):
        try:
            value = json.loads(raw)
        except ValueError:
            return None
        return value if isinstance(value, str) else None
    if raw.startswith("'"):
        return raw[1:-1].replace("''", "'")
    return raw


def _splice(book: ReviewBook, stamps: dict[str, Stamp]) -> str | None:
    """The file with changed stamp lines replaced, dropped ones cut and new ones appended after
    the last; None when the layout does not allow it or the result would not read back right."""
    text = book.text
    if "\r" in text or "\t" in text or not text.endswith("\n"):
        return None
    lines = text.split("\n")[:-1]
    heads = [n for n, line in enumerate(lines) if _STAMPS_KEY.fullmatch(line)]
    if len(heads) != 1:
        return None
    head = heads[0]
    stop = next(
        (n for n in range(head + 1, len(lines)) if _meaningful(lines[n]) and lines[n][0] != " "),
        len(lines),
    )
    entries: dict[str, tuple[int, int]] = {}  # key → (first line, line after its last)
    starts: list[tuple[int, str]] = []
    indent: int | None = None
    for n in range(head + 1, stop):
        if not _meaningful(lines[n]):
            continue
        column = len(lines[n]) - len(lines[n].lstrip(" "))
        indent = column if indent is None else indent
        if column < indent:
            return None
        if column == indent:
            match = _ENTRY_KEY.match(lines[n])
            key = _key_of(match.group(2)) if match else None
            if key is None or key in entries:
                return None
            starts.append((n, key))
            entries[key] = (n, n + 1)
    if starts and _STAMPS_KEY.fullmatch(lines[head]).group(1):  # type: ignore[union-attr]
        return None  # `stamps: {}` followed by entries: not a layout CatDoc writes
    bounds = [n for n, _ in starts[1:]] + ([stop] if starts else [])
    for (start, key), end in zip(starts, bounds, strict=True):
        while end - 1 > start and not _meaningful(lines[end - 1]):
            end -= 1
        entries[key] = (start, end)
    if entries.keys() != book.stamps.keys():
        return None  # the lines do not show the entries the parser found
    width = indent if indent is not None else 2
    replaced: dict[int, tuple[int, str]] = {}  # first line → (line after, new text)
    for key, (start, end) in entries.items():
        if key not in stamps:
            replaced[start] = (end, "")
        elif stamps[key] != book.stamps.get(key):
            replaced[start] = (end, stamp_line(key, stamps[key], width))
    added = "".join(
        stamp_line(key, stamps[key], width) for key in sorted(stamps) if key not in entries
    )
    after = max((end for _, end in entries.values()), default=head + 1)
    out: list[str] = []
    n = 0
    while n < len(lines):
        if n in replaced:
            n, new = replaced[n]
            out.append(new)
        else:
            line = lines[n]
            if n == head and added and not entries:
                line = "stamps:" + (" #" + line.split("#", 1)[1] if "#" in line else "")
            out.append(line + "\n")
            n += 1
        if n == after and added:
            out.append(added)
            added = ""
    spliced = "".join(out)
    written = [(k, s) for k, s in stamps.items() if k not in entries or s != book.stamps[k]]
    check = (
        spliced
        if len(spliced) <= FULL_CHECK_BYTES
        else "stamps:\n" + "".join(stamp_line(key, stamp, width) for key, stamp in written)
    )
    expected = stamps if len(spliced) <= FULL_CHECK_BYTES else dict(written)
    try:
        return spliced if _validate(check) == expected else None
    except CatDocError:
        return None


FULL_CHECK_BYTES = 1 << 20
"""Up to this size the spliced file is read back whole and must hold exactly the new stamps.
Larger files (tens of thousands of stamps, seconds to read) check the lines written, the entries
having been found where the parser found them."""


def _round_trip(book: ReviewBook, stamps: dict[str, Stamp]) -> str:
    """The whole file through ruamel (comments kept), for layouts the splice declines."""
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import YAMLError

    from catdoc.edit.entries import roundtrip_yaml

    try:
        doc = roundtrip_yaml().load(book.text)
    except YAMLError:
        doc = None
    if not isinstance(doc, dict):
        return new_text(stamps)
    held = doc.get("stamps")
    if not isinstance(held, dict):
        held = doc["stamps"] = CommentedMap()
    for key in [k for k in held if str(k) not in stamps]:
        del held[key]
    for key, stamp in stamps.items():
        if book.stamps.get(key) != stamp or key not in held:
            node = CommentedMap(stamp.plain())
            node.fa.set_flow_style()
            held[key] = node
    buffer = io.StringIO()
    roundtrip_yaml().dump(doc, buffer)
    return buffer.getvalue()


__all__ = [
    "REVIEWS_FILE",
    "REVIEWS_REL",
    "ReviewBook",
    "Stamp",
    "new_text",
    "parse_reviews",
    "read_reviews",
    "render",
    "reviews_path",
    "scalar",
    "stamp_line",
]
