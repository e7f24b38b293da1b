"""Checks of one category: morphism ends, identity markers, equations, hierarchy, aliases and
the composition-closure lint."""

from __future__ import annotations

from collections import defaultdict

from catdoc.model import Category, Morphism
from catdoc.paths import Presentation
from catdoc.project import Project
from catdoc.validate.codes import _PATH_CODES, Code, Severity
from catdoc.validate.messages import _did_you_mean, _spec
from catdoc.validate.project_checks import _ProjectChecks

CLOSURE_WORK_BUDGET = 1_000_000
"""Composable pairs the composition-closure lint inspects per category at most."""


class _CategoryChecks(_ProjectChecks):
    """Checks categories one at a time; who claims which alias is computed once per run."""

    def __init__(self, project: Project) -> None:
        super().__init__(project)
        self._alias_claims: dict[str, list[tuple[str, str]]] | None = None
        self._parent_cycles: dict[str, list[str]] | None = None

    def check_category(self, cat: Category) -> None:
        ctx = {"category": cat.id}
        self.check_unknown_keys(cat, "category", **ctx)
        pres = self.presentation(cat)
        for obj in cat.objects:  # the checks are called only for what may fail them
            if obj.__pydantic_extra__:
                self.check_unknown_keys(obj, "object", **ctx)
            if obj.path:
                self.check_object_path(obj, cat.id)
        identity_of: dict[str, Morphism] = {}
        objects, marked = pres.objects, pres.marked
        for mor in cat.morphisms:
            if mor.__pydantic_extra__:
                self.check_unknown_keys(mor, "morphism", **ctx)
            if mor.id in marked or mor.source not in objects or mor.target not in objects:
                self.check_morphism(cat, pres, mor, identity_of)
        for index, exc in pres.equation_errors:
            code = _PATH_CODES["equation"][exc.kind]
            left, right = cat.equations[index]
            self.add(
                code,
                f"Equation #{index + 1} of category {cat.id!r} ({_spec(left)} = {_spec(right)}): "
                f"{exc.message} Each side must be a composable path of morphisms of this "
                "category (first step first) and both sides must go between the same objects.",
                [cat.id, *([exc.morphism] if exc.morphism else [])],
                cat,
                **ctx,
            )
        self.check_parent(cat)
        self.check_related(cat)
        self.check_aliases(cat)
        self.check_closure(cat, pres)

    def check_morphism(
        self, cat: Category, pres: Presentation, mor: Morphism, identity_of: dict[str, Morphism]
    ) -> None:
        objects = pres.objects
        if mor.id not in pres.marked and mor.source in objects and mor.target in objects:
            return  # the common case, kept cheap for large models
        ctx = {"category": cat.id}
        for end, code in (
            ("source", Code.CAT_DANGLING_SOURCE),
            ("target", Code.CAT_DANGLING_TARGET),
        ):
            obj = getattr(mor, end)
            if obj in pres.objects:
                continue
            home = self.project.category_of_object.get(obj)
            if home:
                fix = (
                    f" {obj!r} is an object of category {home!r}; a morphism stays inside one "
                    "category, so move the morphism (or the object), or relate the two "
                    "categories with a functor."
                )
            else:
                fix = (
                    f" No object has this id.{_did_you_mean(obj, pres.objects)} Declare the "
                    f"object in {cat.id!r} or fix the {end} id."
                )
            self.add(
                code,
                f"Morphism {mor.id!r} has {end} {obj!r}, which is not an object of category "
                f"{cat.id!r}.{fix}",
                [mor.id, obj],
                mor,
                **ctx,
            )
        if not mor.is_identity:
            return
        if mor.source != mor.target:
            self.add(
                Code.CAT_IDENTITY_NOT_LOOP,
                f"Morphism {mor.id!r} is marked as an identity but goes {mor.source!r} → "
                f"{mor.target!r}; an identity is a loop. Remove the identity marker "
                "(metadata.isIdentity) or make source and target equal.",
                [mor.id],
                mor,
                **ctx,
            )
            return
        first = identity_of.setdefault(mor.source, mor)
        if first is not mor:
            self.add(
                Code.CAT_DUPLICATE_IDENTITY,
                f"Object {mor.source!r} has two identity markers: {first.id!r} "
                f"({self.project.locate(first) or '?'}) and {mor.id!r}. An object has exactly one "
                "identity (it exists implicitly); keep one marker or none.",
                [mor.source, first.id, mor.id],
                mor,
                **ctx,
            )

    def check_parent(self, cat: Category) -> None:
        if cat.parent is None:
            return
        cats = self.project.category_by_id
        if cat.parent not in cats:
            self.add(
                Code.CAT_PARENT_MISSING,
                f"Category {cat.id!r} has parent {cat.parent!r}, which is not a category."
                f"{_did_you_mean(cat.parent, cats)} Fix the id or remove `parent`.",
                [cat.id, cat.parent],
                cat,
                category=cat.id,
            )
            return
        cycle_ids = self.parent_cycles.get(cat.id)
        if cycle_ids is None or cats[cat.id] is not cat:
            return
        if self.scoped is None and cycle_ids[0] != cat.id:
            return  # report each cycle once, on its smallest id
        start = cycle_ids.index(cat.id)
        chain = cycle_ids[start:] + cycle_ids[:start]
        cycle = " → ".join([*chain, cat.id])
        self.add(
            Code.CAT_PARENT_CYCLE,
            f"The category hierarchy has a cycle: {cycle}. Remove `parent` from one of these "
            "categories so the hierarchy becomes a tree.",
            chain,
            cat,
            category=cat.id,
        )

    def check_related(self, cat: Category) -> None:
        cats = self.project.category_by_id
        for rel in cat.related:
            if rel not in cats:
                self.add(
                    Code.CAT_RELATED_MISSING,
                    f"Category {cat.id!r} lists related category {rel!r}, which does not exist."
                    f"{_did_you_mean(rel, cats)} Fix the id or remove it from `related`.",
                    [cat.id, rel],
                    cat,
                    category=cat.id,
                )

    def check_aliases(self, cat: Category) -> None:
        claims = self.alias_claims
        for alias in dict.fromkeys(a.lower() for a in cat.aliases):
            others = [(cid, how) for cid, how in claims[alias] if cid != cat.id]
            if not others:
                continue
            first_alias_owner = next(cid for cid, how in claims[alias] if how == "alias")
            if self.scoped is None and first_alias_owner != cat.id:
                continue
            said = ", ".join(f"{how} of category {cid!r}" for cid, how in others)
            self.add(
                Code.CAT_ALIAS_AMBIGUOUS,
                f"Alias {alias!r} of category {cat.id!r} is ambiguous: it is also the {said} "
                "(alias lookup ignores case). Rename or remove one of them.",
                [cat.id, *(cid for cid, _ in others)],
                cat,
                category=cat.id,
            )

    def check_closure(self, cat: Category, pres: Presentation) -> None:
        settings = self.config.validation
        if settings.composition_closure == "off":
            return
        severity: Severity = "info" if settings.composition_closure == "info" else "warning"
        succ: dict[str, set[str]] = {}
        for gen in pres.generators.values():
            if not gen.alias:
                succ.setdefault(gen.source, set()).add(gen.target)
        outgoing: dict[str, list[tuple[str, str]]] | None = None
        limit = settings.max_composition_warnings
        listed = total = work = 0
        exhausted = True
        for a in pres.ordered_objects:
            mine = succ.get(a)
            if not mine:
                continue
            later = [succ[b] for b in mine if b in succ]
            if not later:
                continue
            work += sum(map(len, later))
            missing = set().union(*later) - mine - {a}
            total += len(missing)
            if work > CLOSURE_WORK_BUDGET:
                exhausted = False
                break
            if not missing or listed >= limit:
                continue
            if outgoing is None:
                outgoing = defaultdict(list)
                for mid, gen in pres.generators.items():
                    if not gen.alias:
                        outgoing[gen.source].append((mid, gen.target))
            for f, b in outgoing[a]:
                for g, c in outgoing.get(b, ()):
                    if c not in missing or listed >= limit:
                        continue
                    missing.discard(c)
                    listed += 1
                    self.add(
                        Code.CAT_COMPOSITE_MISSING,
                        f"In category {cat.id!r}, {f!r}: {a} → {b} and {g!r}: {b} → {c} are "
                        f"declared but no declared morphism {a} → {c} names their composite. "
                        f"Declare one (and, for free semantics, an equation [[{f}, {g}], [h]]), "
                        "or set `validation: {compositionClosure: off}` in config.yaml.",
                        [f, g, a, c],
                        self.project.morphism_by_id.get(f) or cat,
                        severity=severity,
                        category=cat.id,
                    )
        more = total - listed
        if more > 0 or not exhausted:
            count = f"{more} more" if exhausted else f"at least {more} more"
            self.add(
                Code.CAT_COMPOSITE_MISSING_MORE,
                f"Category {cat.id!r}: {count} pair(s) of composable morphisms have no declared "
                "composite (not listed). Raise `validation.maxCompositionWarnings` to list them, "
                "or set `validation.compositionClosure` to `off`.",
                [cat.id],
                cat,
                category=cat.id,
            )

    @property
    def parent_cycles(self) -> dict[str, list[str]]:
        """Each category on a `parent` cycle → that cycle, child first, from its smallest id
        (found once, linearly: a parent chain is followed until it meets a walked category)."""
        if self._parent_cycles is None:
            cats = self.project.category_by_id
            cycles: dict[str, list[str]] = {}
            done: set[str] = set()
            for start in cats:
                walk: dict[str, int] = {}
                here: str | None = start
                while here is not None and here in cats and here not in done:
                    if here in walk:
                        cycle = list(walk)[walk[here] :]
                        first = cycle.index(min(cycle))
                        cycle = cycle[first:] + cycle[:first]
                        cycles.update(dict.fromkeys(cycle, cycle))
                        break
                    walk[here] = len(walk)
                    here = cats[here].parent
                done.update(walk)
            self._parent_cycles = cycles
        return self._parent_cycles

    @property
    def alias_claims(self) -> dict[str, list[tuple[str, str]]]:
        if self._alias_claims is None:
            claims: dict[str, list[tuple[str, str]]] = defaultdict(list)
            for cat in self.project.categories:
                for how, word in (("id", cat.id), ("name", cat.name)):
                    if word:
                        claims[word.lower()].append((cat.id, how))
                for alias in dict.fromkeys(a.lower() for a in cat.aliases):
                    claims[alias].append((cat.id, "alias"))
            self._alias_claims = claims
        return self._alias_claims
