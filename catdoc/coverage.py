"""How completely each functor maps its source and reaches its target: the traceability
coverage that Doorstop and StrictDoc report, read off the functor's mappings.

Per functor F: A → B, three shares:
- objects: A's objects F maps to an object of B (an image that is not an object of B does not
  count: that entry is an error `catdoc validate` reports);
- reached: B's objects that are the image of some object of A; the others are orphans (a test
  that tests nothing, a design that implements no requirement);
- morphisms: A's generating morphisms (identity markers aside) with an entry in the morphism
  mapping (whether the image path is lawful is again `catdoc validate`'s question).

A share of nothing (no objects, no morphisms) is None, not 100%: there is nothing to measure,
and a threshold neither passes nor fails on it.
"""

from __future__ import annotations

from collections.abc import Sequence

from catdoc import results as r
from catdoc.model import Functor
from catdoc.project import Project


def functor_coverage(project: Project, functor: Functor) -> r.FunctorCoverage:
    source = project.category_by_id.get(functor.source_category)
    target = project.category_by_id.get(functor.target_category)
    sources = [o.id for o in source.objects] if source else []
    targets = [o.id for o in target.objects] if target else []
    in_target = set(targets)
    mapped = [o for o in sources if functor.object_mapping.get(o) in in_target]
    reached = {functor.object_mapping[o] for o in mapped}
    generators = [m.id for m in source.morphisms if not m.is_identity] if source else []
    mapped_morphisms = [m for m in generators if m in functor.morphism_mapping]
    done, done_morphisms = set(mapped), set(mapped_morphisms)
    return r.FunctorCoverage(
        functor=functor.id,
        source_category=functor.source_category,
        target_category=functor.target_category,
        objects=r.CoverageShare.of(len(mapped), len(sources)),
        reached=r.CoverageShare.of(len(reached), len(targets)),
        morphisms=r.CoverageShare.of(len(mapped_morphisms), len(generators)),
        unmapped_objects=[o for o in sources if o not in done],
        orphans=[o for o in targets if o not in reached],
        unmapped_morphisms=[m for m in generators if m not in done_morphisms],
    )


def coverage_report(
    project: Project, functors: Sequence[Functor], minimum: float | None = None
) -> r.CoverageReport:
    """Each functor's coverage, and (with `minimum`, a percentage) the shares below it."""
    items = [functor_coverage(project, f) for f in functors]
    below = []
    if minimum is not None:
        for item in items:
            for name in ("objects", "reached", "morphisms"):
                share: r.CoverageShare = getattr(item, name)
                if share.below(minimum):
                    below.append(f"{item.functor}.{name}")
    return r.CoverageReport(functors=items, minimum=minimum, below=below)


__all__ = ["coverage_report", "functor_coverage"]
