"""Which links need a review: their documents changed since the stamp, or they have none.

Reviews are on once `.catdoc/reviews.yaml` exists (`catdoc review --all` creates it). Until
then nothing is stamped and nothing is reported, so a project that never asked for reviews
sees no flood of warnings. Once on, a link is

- *changed* when a document at one of its ends no longer has the stamped fingerprint, or the
  documents at an end are not the stamped ones (a remapped F(A), a moved morphism);
- *unreviewed* when it has no stamp (typically a link added by hand in the YAML; links made
  through CatDoc's edit commands and importer are stamped as they are created).

Both need a review; both are reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from catdoc.fingerprints import MISSING, Fingerprints
from catdoc.model import DocObject
from catdoc.project import Project
from catdoc.review_links import Ends, LinkRef, link_rows
from catdoc.reviews import ReviewBook, Stamp

Side = Literal["source", "target"]
SIDES: tuple[Side, Side] = ("source", "target")


@dataclass(frozen=True)
class ChangedDocument:
    """A document at one end whose fingerprint is not the stamped one. `stamped` is None when
    the document was not at this end at review time, `current` None when it no longer is."""

    side: Side
    object_id: str
    stamped: str | None
    current: str | None


@dataclass
class LinkStatus:
    """A link that needs a review, and why."""

    ref: LinkRef
    state: Literal["changed", "unreviewed"]
    ends: Ends
    stamp: Stamp | None = None
    changed: list[ChangedDocument] = field(default_factory=list)

    @property
    def sides(self) -> list[Side]:
        return [side for side in SIDES if any(c.side == side for c in self.changed)]

    def reason(self) -> str:
        if self.state == "unreviewed":
            return "never reviewed: it has no stamp in .catdoc/reviews.yaml"
        parts = []
        for change in self.changed:
            if change.stamped is None:
                parts.append(f"{change.object_id} is now at the {change.side} end")
            elif change.current is None:
                parts.append(f"{change.object_id} is no longer at the {change.side} end")
            elif change.current == MISSING:
                parts.append(f"{change.object_id}'s document is missing ({change.side} end)")
            else:
                parts.append(f"{change.object_id} changed ({change.side} end)")
        when = f" since the review of {self.stamp.at}" if self.stamp and self.stamp.at else ""
        return "; ".join(parts) + when


class ObjectPrints:
    """Fingerprints of objects by id, each computed once per check. `lookup` finds an object;
    `pending` holds the documents an edit is about to write (absolute path → text)."""

    def __init__(
        self,
        lookup: Callable[[str], DocObject | None],
        prints: Fingerprints,
        pending: dict[Path, str] | None = None,
    ) -> None:
        self.lookup = lookup
        self.prints = prints
        self.pending = pending
        self._known: dict[str, str] = {}

    def __call__(self, object_id: str) -> str:
        found = self._known.get(object_id)
        if found is None:
            obj = self.lookup(object_id)
            found = MISSING if obj is None else self.prints.of_object(obj, self.pending)
            self._known[object_id] = found
        return found


def stamp_of(ends: Ends, prints: ObjectPrints, by: str | None, at: str | None) -> Stamp:
    """A stamp of the link's documents as they are now."""
    return Stamp(
        source={i: prints(i) for i in ends[0]},
        target={i: prints(i) for i in ends[1]},
        by=by,
        at=at,
    )


def compare(ends: Ends, stamp: Stamp, prints: Callable[[str], str]) -> list[ChangedDocument]:
    """The documents at the ends whose fingerprint (or presence) differs from the stamp's."""
    changed: list[ChangedDocument] = []
    for side, now in zip(SIDES, ends, strict=True):
        held = stamp.source if side == "source" else stamp.target
        for object_id in now:
            current = prints(object_id)
            if held.get(object_id) != current:
                changed.append(ChangedDocument(side, object_id, held.get(object_id), current))
        for object_id, stamped in held.items():
            if object_id not in now:
                changed.append(ChangedDocument(side, object_id, stamped, None))
    return changed


def link_statuses(
    project: Project,
    book: ReviewBook | None,
    prints: Fingerprints,
    *,
    category: str | None = None,
) -> tuple[int, list[LinkStatus]]:
    """(links checked, the ones needing a review) — nothing when reviews are off (no book).

    Every object is fingerprinted once (a `stat` when its file is unchanged); a link whose
    stamp holds exactly the fingerprints of its ends now costs two small dict comparisons."""
    if book is None:
        return 0, []
    fingerprint = prints.of_objects(project.object_by_id.items())
    get = fingerprint.get

    def now(object_id: str) -> str:
        return get(object_id, MISSING)

    tokens = {i: f"{i}\x1e{fp}" for i, fp in fingerprint.items()}

    def token(object_id: str) -> str:
        """The object's part of a `signature` (made once per object, not once per link)."""
        found = tokens.get(object_id)
        return found if found is not None else f"{object_id}\x1e{MISSING}"

    signatures = book.signatures
    checked = 0
    out: list[LinkStatus] = []
    for kind, owner, item, key, source, target in link_rows(project, category):
        checked += 1
        held = signatures.get(key)
        if held is None:
            out.append(LinkStatus(LinkRef(kind, owner, item), "unreviewed", (source, target)))
            continue
        current = (
            "\x1f".join([token(i) for i in source])
            + "\x1d"
            + "\x1f".join([token(i) for i in target])
        )
        if held == current:
            continue
        stamp = book.stamp(key)
        ends = (source, target)
        changed = compare(ends, stamp, now) if stamp is not None else []
        if changed:
            out.append(LinkStatus(LinkRef(kind, owner, item), "changed", ends, stamp, changed))
    prints.save()
    return checked, out


__all__ = [
    "SIDES",
    "ChangedDocument",
    "LinkStatus",
    "ObjectPrints",
    "Side",
    "compare",
    "link_statuses",
    "stamp_of",
]
