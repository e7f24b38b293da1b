"""The service's chain of one object: its impact up and down, by layer, with suspect marks (see
`catdoc.chain`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from catdoc.chain_results import ChainResult
from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.service_base import ServiceBase

if TYPE_CHECKING:
    pass

MAX_PER_GROUP = 10_000


class ChainOperations(ServiceBase):
    """The traceability chain through an object, layer by layer (mixed into `CatDoc`)."""

    def chain(
        self, object_id: str, *, depth: int | None = None, per_group: int | None = None
    ) -> ChainResult:
        """`object_id`'s whole chain: up to what it derives from, down to what derives from it,
        within `depth` hops each way (None: unbounded), at most `per_group` entries per category
        (None: all), each entry marked when the link reaching it needs a review."""
        from catdoc.chain import build_chain, link_reviews

        if per_group is not None and not 1 <= per_group <= MAX_PER_GROUP:
            raise CatDocError(
                VALIDATION_ERROR,
                f"per_group must be 1–{MAX_PER_GROUP:,}, got {per_group}.",
                "Pass a positive number of entries per category, or none for all of them.",
            )
        ident = self.object(object_id).id
        up = self.impact(ident, depth=depth, direction="up")
        down = self.impact(ident, depth=depth, direction="down")
        project = self.project()
        try:
            last = [o.path.hops[-1] for r in (up, down) for g in r.groups for o in g.objects]
            reviews, suspects = link_reviews(project, last)
        except CatDocError as error:  # a broken reviews.yaml: the chain without marks
            unreadable = error.message
            reviews, suspects = False, {}
        else:
            unreadable = ""
        result = build_chain(
            project, ident, up, down, suspects, reviews=reviews, per_group=per_group
        )
        if unreadable:
            result.message = f"{result.message} No suspect marks: {unreadable}"
        return result


__all__ = ["MAX_PER_GROUP", "ChainOperations"]
