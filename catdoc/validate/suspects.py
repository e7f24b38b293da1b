"""SUSPECT_LINK: links whose documents changed since their review stamp, or that have none.

Nothing is reported while reviews are off (no `.catdoc/reviews.yaml`). A `reviews.yaml` that
cannot be read is one SUSPECT_LINK at its `file:line`: whether any link is suspect is then
unknown, which is a warning, never a pass (`catdoc suspects` reports the load error itself).
"""

from __future__ import annotations

from catdoc.errors import CatDocError
from catdoc.fingerprints import fingerprints_for
from catdoc.review_links import LinkRef
from catdoc.reviews import REVIEWS_REL, read_reviews
from catdoc.suspects import LinkStatus, link_statuses
from catdoc.validate.checker import _Checker
from catdoc.validate.codes import Code


def check_suspects(checker: _Checker, category: str | None = None) -> None:
    """Add a SUSPECT_LINK warning per link needing a review (those touching `category`)."""
    project = checker.project
    try:
        book = read_reviews(project.root)
    except CatDocError as exc:
        where = exc.message.split(": ", 1)[0] if exc.message.startswith(REVIEWS_REL) else ""
        checker.add(
            Code.SUSPECT_LINK,
            f"Links cannot be checked for review: {exc.message} {exc.hint}",
            [],
            location=where or REVIEWS_REL,
        )
        return
    checker.reviews_off = book is None
    _, statuses = link_statuses(project, book, fingerprints_for(project.root), category=category)
    for status in statuses:
        _report(checker, status)


def _report(checker: _Checker, status: LinkStatus) -> None:
    ref: LinkRef = status.ref
    project = checker.project
    changed = [change.object_id for change in status.changed]
    message = (
        f"Link {ref.key} needs a review: {status.reason()}. Read the "
        f"documents at its ends (`catdoc suspects` shows what changed), then `catdoc review "
        f"{ref.key}`."
    )
    ids = [ref.owner, *([ref.item] if ref.item else []), *changed]
    if ref.kind == "morphism":
        checker.add(
            Code.SUSPECT_LINK,
            message,
            ids,
            project.morphism_by_id.get(ref.owner),
            category=project.category_of_morphism.get(ref.owner),
        )
    elif ref.kind == "component":
        checker.add(
            Code.SUSPECT_LINK, message, ids, project.nat_by_id.get(ref.owner), nat=ref.owner
        )
    else:
        checker.add(
            Code.SUSPECT_LINK,
            message,
            ids,
            project.functor_by_id.get(ref.owner),
            functor=ref.owner,
        )


__all__ = ["check_suspects"]
