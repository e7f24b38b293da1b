"""The service's coverage operation: how completely the functors map their layers (see
`catdoc.coverage`)."""

from __future__ import annotations

from collections.abc import Sequence

from catdoc import results as r
from catdoc.coverage import coverage_report
from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.service_base import ServiceBase


class CoverageOperations(ServiceBase):
    """How much of each functor's source is mapped (mixed into `CatDoc`)."""

    def coverage(
        self, functors: Sequence[str] = (), *, minimum: float | None = None
    ) -> r.CoverageReport:
        """Each functor's coverage (every functor when none is named, in model order); with
        `minimum` (0–100), the shares below it are listed in `below`."""
        if minimum is not None and not 0 <= minimum <= 100:
            raise CatDocError(
                VALIDATION_ERROR,
                f"minimum {minimum} is not a percentage.",
                "Give a number from 0 to 100, e.g. --min 90.",
            )
        chosen = (
            [self.functor(f) for f in dict.fromkeys(functors)]
            if functors
            else self.project().functors
        )
        return coverage_report(self.project(), chosen, minimum)
