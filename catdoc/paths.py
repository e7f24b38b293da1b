"""Paths in a presented category, composition, and equality of parallel paths.

A category in a CatDoc file is a *presentation*: declared morphisms are generators, the morphisms
of the category are the paths of generators (the empty path at an object is its identity), and
equality of parallel paths is decided by the category's `semantics` and `equations`. Declared
morphisms marked as identities on loops are *aliases* of the identity and vanish when a path is
normalised, so associativity and the unit laws hold by construction.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from catdoc.model import Category, PathSpec, Semantics, as_path

PathErrorKind = Literal[
    "unknown_morphism", "broken_morphism", "not_composable", "not_parallel", "unknown_object"
]

MAX_VISITED = 20_000
"""Paths visited by one equality search before it answers *unknown*."""
MAX_WORK = 2_000_000
"""Equation sides compared by one equality search before it answers *unknown*: a long path
under thousands of equations costs that much long before it visits `MAX_VISITED` paths."""
MAX_TOTAL_WORK = 20_000_000
"""Equation sides compared by all the searches of one presentation (one validation): past it,
every further search answers *unknown* at once, so adversarial equations cost seconds, not
minutes, however many squares need them."""
MAX_EXTRA_LENGTH = 16
"""How much longer than the longer input a rewritten path may grow before the search is cut."""


class Path(NamedTuple):
    """A morphism of a presented category: `steps` are generator ids in diagrammatic order. (A
    tuple: a functor of a large category has an image for each of hundreds of thousands of
    generators, made in a third of a frozen dataclass's time.)"""

    source: str
    target: str
    steps: tuple[str, ...] = ()

    @property
    def is_identity(self) -> bool:
        return not self.steps

    def __str__(self) -> str:
        if not self.steps:
            return f"id({self.source})"
        return " · ".join(self.steps)


class PathError(ValueError):
    """A path spec that does not denote a morphism; `kind` and `index` say which step and why."""

    def __init__(
        self, kind: PathErrorKind, message: str, index: int = -1, morphism: str = ""
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.index = index
        self.morphism = morphism


class _Generator(NamedTuple):
    """A declared morphism's ends (a tuple: a large category makes hundreds of thousands)."""

    source: str
    target: str
    alias: bool


class Presentation:
    """Generators, identity aliases and equations of one category, precomputed for fast lookups."""

    def __init__(
        self,
        ident: str,
        objects: Iterable[str],
        morphisms: Iterable[tuple[str, str, str, bool]],
        semantics: Semantics = "free",
        equations: Sequence[tuple[PathSpec, PathSpec]] = (),
        *,
        max_visited: int = MAX_VISITED,
        max_extra_length: int = MAX_EXTRA_LENGTH,
    ) -> None:
        """`morphisms` are `(id, source, target, marked_identity)`; the first of an id wins."""
        self.id = ident
        self.order: dict[str, int] = {}
        for obj in objects:
            self.order.setdefault(obj, len(self.order))
        self.objects: frozenset[str] = frozenset(self.order)
        self.ordered_objects: tuple[str, ...] = tuple(self.order)
        self.semantics: Semantics = semantics
        self.max_visited = max_visited
        self.max_extra_length = max_extra_length
        self.work_left = MAX_TOTAL_WORK
        """What the searches of this presentation may still spend (see `MAX_TOTAL_WORK`)."""
        # Locals, and the tuple made without the named tuple's Python-level constructor: a
        # large category declares hundreds of thousands of morphisms.
        generators: dict[str, _Generator] = {}
        broken: dict[str, str] = {}
        marked_ids: set[str] = set()
        objects, make = self.objects, tuple.__new__
        for mid, src, tgt, marked in morphisms:
            if marked:
                marked_ids.add(mid)
            if mid in generators or mid in broken:
                continue
            if src in objects and tgt in objects:
                generators[mid] = make(_Generator, (src, tgt, marked and src == tgt))
                continue
            missing = [
                f"{end} {obj!r}"
                for end, obj in (("source", src), ("target", tgt))
                if obj not in objects
            ]
            broken[mid] = " and ".join(missing) + f" not an object of {ident!r}"
        self.generators, self.broken, self.marked = generators, broken, marked_ids
        self.equations: list[tuple[Path, Path]] = []
        self.equation_errors: list[tuple[int, PathError]] = []
        for index, (left, right) in enumerate(equations):
            if not as_path(left) and not as_path(right):
                continue  # `[] = []` holds at every object and adds nothing
            try:
                self.equations.append(self.resolve_equation(left, right))
            except PathError as exc:
                self.equation_errors.append((index, exc))
        self._rules_by_head: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = defaultdict(
            list
        )
        self._insertions: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for left, right in self.equations:
            if left.steps == right.steps:
                continue
            for lhs, rhs in ((left.steps, right.steps), (right.steps, left.steps)):
                if lhs:
                    self._rules_by_head[lhs[0]].append((lhs, rhs))
                else:
                    self._insertions[left.source].append(rhs)

    @classmethod
    def of(cls, category: Category, **bounds: int) -> Presentation:
        """The presentation a category declares in the file."""
        return cls(
            category.id,
            (obj.id for obj in category.objects),
            (
                (m.id, m.source, m.target, m.is_identity if m.metadata else False)
                for m in category.morphisms
            ),
            category.semantics,
            category.equations,
            **bounds,
        )

    # --- building paths -------------------------------------------------------------------
    def identity(self, obj: str) -> Path:
        if obj not in self.objects:
            raise PathError("unknown_object", f"{obj!r} is not an object of {self.id!r}.")
        return Path(obj, obj)

    def is_alias(self, mid: str) -> bool:
        gen = self.generators.get(mid)
        return gen is not None and gen.alias

    def resolve(self, spec: PathSpec, at: str | None = None) -> Path:
        """The path a spec denotes, identity aliases removed; `at` types an empty path."""
        generators = self.generators
        if isinstance(spec, str):  # the common single-id case, kept cheap for large models
            gen = generators.get(spec)
            if gen is not None and not gen.alias:
                return Path(gen.source, gen.target, (spec,))
        steps = as_path(spec)
        source: str | None = None
        here: str | None = None
        kept: list[str] = []
        for index, mid in enumerate(steps):
            gen = generators.get(mid)
            if gen is None:
                if mid in self.broken:
                    raise PathError(
                        "broken_morphism",
                        f"step {index + 1} {mid!r} is not usable: its {self.broken[mid]}.",
                        index,
                        mid,
                    )
                raise PathError(
                    "unknown_morphism",
                    f"step {index + 1} {mid!r} is not a morphism of {self.id!r}.",
                    index,
                    mid,
                )
            if here is None:
                source = gen.source
            elif gen.source != here:
                raise PathError(
                    "not_composable",
                    f"step {index + 1} {mid!r} starts at {gen.source!r} but step {index} "
                    f"{steps[index - 1]!r} ends at {here!r}.",
                    index,
                    mid,
                )
            here = gen.target
            if not gen.alias:
                kept.append(mid)
        if source is None or here is None:
            if at is None:
                raise PathError(
                    "unknown_object", "an empty path (identity) needs an object to live at."
                )
            return self.identity(at)
        return Path(source, here, tuple(kept))

    def resolve_equation(self, left: PathSpec, right: PathSpec) -> tuple[Path, Path]:
        """Both sides of an equation as parallel paths (an empty side lives at the other's end)."""
        lhs = self._resolve_side(left, "left")
        rhs = self._resolve_side(right, "right")
        if lhs is None or rhs is None:
            present = lhs or rhs
            if present is None:
                raise PathError("unknown_object", "both sides are empty; the object is unknown.")
            unit = Path(present.source, present.source)
            lhs, rhs = lhs or unit, rhs or unit
        if (lhs.source, lhs.target) != (rhs.source, rhs.target):
            raise PathError(
                "not_parallel",
                f"the sides are not parallel: left goes {lhs.source!r} → {lhs.target!r}, "
                f"right goes {rhs.source!r} → {rhs.target!r}.",
            )
        return lhs, rhs

    def _resolve_side(self, spec: PathSpec, side: str) -> Path | None:
        if not as_path(spec):
            return None
        try:
            return self.resolve(spec)
        except PathError as exc:
            message = f"{side} side: {exc.message}"
            raise PathError(exc.kind, message, exc.index, exc.morphism) from None

    @staticmethod
    def compose(first: Path, second: Path) -> Path:
        """`first` then `second` (diagrammatic order); their ends must meet."""
        if first.target != second.source:
            raise PathError(
                "not_composable",
                f"{first} ends at {first.target!r} but {second} starts at {second.source!r}.",
            )
        # Without the named tuple's Python-level constructor: a check composes once per square.
        return tuple.__new__(Path, (first.source, second.target, first.steps + second.steps))

    # --- equality -------------------------------------------------------------------------
    def equal(self, first: Path, second: Path) -> bool | None:
        """Whether two paths are the same morphism: True/False only with proof, else None."""
        if (first.source, first.target) != (second.source, second.target):
            return False
        if first.steps == second.steps or self.semantics == "thin":
            return True
        if not self.equations:
            return False
        return self._search(first, second)

    def _search(self, first: Path, second: Path) -> bool | None:
        """Bidirectional breadth-first search through both equivalence classes.

        Neighbours differ by one rewrite with an equation (either direction). Meeting proves
        equality; exhausting one class without meeting the other proves inequality, unless some
        rewrite was cut by the length bound (then the class was not really exhausted).
        """
        spent = [0]
        try:
            return self._bounded_search(first, second, spent, min(MAX_WORK, self.work_left))
        finally:
            self.work_left -= spent[0]

    def _bounded_search(
        self, first: Path, second: Path, spent: list[int], budget: int
    ) -> bool | None:
        """`_search`, answering *unknown* once `spent` (equation sides compared) passes
        `budget` or the paths visited pass `max_visited`."""
        if budget <= 0:
            return None
        cap = max(len(first.steps), len(second.steps)) + self.max_extra_length
        seen: list[set[tuple[str, ...]]] = [{first.steps}, {second.steps}]
        frontier: list[list[tuple[str, ...]]] = [[first.steps], [second.steps]]
        cut = [False, False]
        while True:
            for side in (0, 1):
                if not frontier[side] and not cut[side]:
                    return False
            live = [side for side in (0, 1) if frontier[side]]
            if not live:
                return None
            side = min(live, key=lambda s: len(frontier[s]))
            mine, theirs = seen[side], seen[1 - side]
            grown: list[tuple[str, ...]] = []
            for steps in frontier[side]:
                for neighbour in self._rewrites(first.source, steps, spent):
                    if spent[0] > budget:
                        return None
                    if len(neighbour) > cap:
                        cut[side] = True
                        continue
                    if neighbour in theirs:
                        return True
                    if neighbour not in mine:
                        mine.add(neighbour)
                        grown.append(neighbour)
                        if len(mine) + len(theirs) > self.max_visited:
                            return None
            frontier[side] = grown

    def _rewrites(
        self, source: str, steps: tuple[str, ...], spent: list[int]
    ) -> Iterable[tuple[str, ...]]:
        """The paths one equation (either way) turns `steps` into; adds the sides compared to
        `spent`."""
        rules = self._rules_by_head
        for i, head in enumerate(steps):
            candidates = rules.get(head, ())
            spent[0] += len(candidates)
            for lhs, rhs in candidates:
                end = i + len(lhs)
                if steps[i:end] == lhs:
                    yield steps[:i] + rhs + steps[end:]
        if self._insertions:
            here = source
            generators = self.generators
            for i in range(len(steps) + 1):
                inserted = self._insertions.get(here, ())
                spent[0] += len(inserted)
                for rhs in inserted:
                    yield steps[:i] + rhs + steps[i:]
                if i < len(steps):
                    here = generators[steps[i]].target


__all__ = ["MAX_TOTAL_WORK", "MAX_VISITED", "MAX_WORK", "Path", "PathError", "Presentation"]
