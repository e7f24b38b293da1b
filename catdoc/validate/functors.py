"""Checks of one functor: its object and morphism mappings, typing, and the functor laws."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from catdoc.model import Functor
from catdoc.paths import Path, PathError, Presentation
from catdoc.validate.checker import _Checker
from catdoc.validate.codes import _PATH_CODES, Code
from catdoc.validate.messages import _did_you_mean, _fmt, _listed, _spec
from catdoc.validate.report import Finding, FunctorLaws, LawStatus

THIN_RELATION_BUDGET = 50_000
"""Relations a functor out of a thin category is checked against before the answer is unknown."""
MAX_LAW_FINDINGS = 10
"""Failures / unknowns listed per functor for the relations implied by a thin source."""


@dataclass
class _FunctorData:
    """What a functor does, as far as it is well-defined, plus its findings."""

    source: Presentation
    target: Presentation
    objects: dict[str, str] = field(default_factory=dict)
    images: dict[str, Path] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    laws: FunctorLaws | None = None


class _FunctorCheck:
    """Checks one functor whose source and target categories exist."""

    def __init__(self, v: _Checker, fun: Functor, src: Presentation, tgt: Presentation) -> None:
        self.v = v
        self.fun = fun
        self.data = _FunctorData(src, tgt)
        self.identity_fails = False
        self.identity_unknown = False
        self.composition_fails = False
        self.composition_unknown = False
        self.unchecked: list[str] = []

    def add(
        self, code: Code, message: str, ids: Iterable[str], entry: tuple[str, str] | None = None
    ) -> None:
        """A finding on the functor, or on one `entry` of a mapping ((mapping, key): placed at
        its own line)."""
        finding = self.v.finding(code, message, [self.fun.id, *ids], self.fun, functor=self.fun.id)
        self.data.findings.append(finding)
        if entry is not None:
            self.v.entries.append((finding, self.fun, entry))

    def run(self) -> _FunctorData:
        self.map_objects()
        self.map_generators()
        self.check_equations()
        if self.unchecked:
            self.composition_unknown = True
            self.add(
                Code.FUN_NOT_CHECKED,
                f"Functor {self.fun.id!r}: {len(self.unchecked)} item(s) of source category "
                f"{self.data.source.id!r} could not be checked ({_listed(self.unchecked)}) "
                "because they are broken there or their images are; fix the errors reported for "
                "them and validate again.",
                [],
            )
        self.data.laws = FunctorLaws(
            functor=self.fun.id,
            identity_preservation=_status(self.identity_fails, self.identity_unknown),
            composition_preservation=_status(self.composition_fails, self.composition_unknown),
        )
        return self.data

    def map_objects(self) -> None:
        fun, src, tgt = self.fun, self.data.source, self.data.target
        mapping = fun.object_mapping
        for obj in src.ordered_objects:
            image = mapping.get(obj)
            if image is None:
                self.identity_fails = self.composition_fails = True
                self.add(
                    Code.FUN_OBJECT_UNMAPPED,
                    f"Functor {fun.id!r} does not map object {obj!r} of {src.id!r}. Add "
                    f"`{obj}: <object of {tgt.id}>` to its objectMapping.",
                    [obj],
                )
            elif image not in tgt.objects:
                self.identity_fails = self.composition_fails = True
                self.add(
                    Code.FUN_OBJECT_TARGET_MISSING,
                    f"Functor {fun.id!r} maps object {obj!r} to {image!r}, which is not an object "
                    f"of target category {tgt.id!r}{self.v.where_object(image)}."
                    f"{_did_you_mean(image, tgt.objects)} Map it to an object of {tgt.id!r}.",
                    [obj, image],
                    ("objectMapping", obj),
                )
            else:
                self.data.objects[obj] = image
        for key in mapping:
            if key not in src.objects:
                self.add(
                    Code.FUN_MAPPING_UNKNOWN_OBJECT,
                    f"Functor {fun.id!r} maps {key!r}, which is not an object of source category "
                    f"{src.id!r}{self.v.where_object(key)}.{_did_you_mean(key, src.objects)} "
                    "Fix the key or remove the entry from objectMapping.",
                    [key],
                    ("objectMapping", key),
                )

    def map_generators(self) -> None:
        fun, src, tgt = self.fun, self.data.source, self.data.target
        mapping = fun.morphism_mapping
        for mid in src.broken:
            self.unchecked.append(mid)
        objects, images, target_generators = self.data.objects, self.data.images, tgt.generators
        make = tuple.__new__  # a Path without its Python-level constructor: one per generator
        for mid, gen in src.generators.items():
            spec = mapping.get(mid)
            if type(spec) is str and not gen.alias:  # the usual case: one generator, well typed
                image_gen = target_generators.get(spec)
                if (
                    image_gen is not None
                    and not image_gen.alias
                    and objects.get(gen.source) == image_gen.source
                    and objects.get(gen.target) == image_gen.target
                ):
                    images[mid] = make(Path, (image_gen.source, image_gen.target, (spec,)))
                    continue
            if spec is None:
                if not gen.alias:
                    self.composition_fails = True
                    self.add(
                        Code.FUN_MORPHISM_UNMAPPED,
                        f"Functor {fun.id!r} does not map morphism {mid!r} ({gen.source} → "
                        f"{gen.target}) of {src.id!r}. Add `{mid}: <path in {tgt.id} from "
                        f"{self.data.objects.get(gen.source, '?')} to "
                        f"{self.data.objects.get(gen.target, '?')}>` to morphismMapping "
                        "(a list of morphism ids, or [] for an identity).",
                        [mid],
                    )
                continue
            fa, fb = self.data.objects.get(gen.source), self.data.objects.get(gen.target)
            try:
                image = tgt.resolve(spec, at=fa)
            except PathError as exc:
                self.fail_image(gen.alias)
                if exc.kind == "unknown_object":
                    continue  # the empty image of a generator whose source is unmapped
                self.add(
                    _PATH_CODES["functor"][exc.kind],
                    f"Functor {fun.id!r} maps morphism {mid!r} to {_spec(spec)}: {exc.message} "
                    f"An image must be a composable path of morphisms of {tgt.id!r}, "
                    "first step first.",
                    [mid, *([exc.morphism] if exc.morphism else [])],
                    ("morphismMapping", mid),
                )
                continue
            if fa is None or fb is None:
                continue  # typing cannot be judged; the unmapped object is already an error
            if (image.source, image.target) != (fa, fb):
                self.fail_image(gen.alias)
                self.add(
                    Code.FUN_NOT_TYPED,
                    f"Functor {fun.id!r} maps morphism {mid!r}: {gen.source} → {gen.target} to "
                    f"{_fmt(image)}, which goes {image.source} → {image.target}; it must go "
                    f"F({gen.source}) = {fa} → F({gen.target}) = {fb}. Map it to a path of "
                    f"{tgt.id!r} between those objects.",
                    [mid],
                    ("morphismMapping", mid),
                )
                continue
            if gen.alias:
                self.check_identity_image(mid, image)
            else:
                self.data.images[mid] = image
        for key in mapping:
            if key not in src.generators and key not in src.broken:
                home = self.v.project.category_of_morphism.get(key)
                where = f" ({key!r} is a morphism of category {home!r})" if home else ""
                self.add(
                    Code.FUN_MAPPING_UNKNOWN_MORPHISM,
                    f"Functor {fun.id!r} maps {key!r}, which is not a morphism of source "
                    f"category {src.id!r}{where}.{_did_you_mean(key, src.generators)} Fix the "
                    "key or remove the entry from morphismMapping.",
                    [key],
                    ("morphismMapping", key),
                )

    def fail_image(self, alias: bool) -> None:
        if alias:
            self.identity_fails = True
        else:
            self.composition_fails = True

    def check_identity_image(self, mid: str, image: Path) -> None:
        verdict = self.data.target.equal(image, Path(image.source, image.source))
        if verdict is True:
            return
        if verdict is False:
            self.identity_fails = True
            self.add(
                Code.FUN_IDENTITY_NOT_PRESERVED,
                f"Functor {self.fun.id!r} maps identity {mid!r} to {_fmt(image)}, which is not "
                f"the identity of {image.source!r} in {self.data.target.id!r}. Map it to [] "
                "(or leave it unmapped: an identity maps to an identity by definition).",
                [mid],
            )
        else:
            self.identity_unknown = True
            self.add(
                Code.FUN_IDENTITY_UNKNOWN,
                f"Functor {self.fun.id!r} maps identity {mid!r} to {_fmt(image)}; whether that "
                f"equals the identity in {self.data.target.id!r} could not be decided within the "
                "search bound. Map it to [] (or leave it unmapped).",
                [mid],
            )

    def translate(self, path: Path) -> Path | None:
        images = self.data.images
        fa = self.data.objects.get(path.source)
        fb = self.data.objects.get(path.target)
        if fa is None or fb is None or any(step not in images for step in path.steps):
            return None
        steps: list[str] = []
        for step in path.steps:
            steps += images[step].steps
        return Path(fa, fb, tuple(steps))

    def check_equations(self) -> None:
        src, tgt = self.data.source, self.data.target
        self.unchecked += [f"equation #{i + 1}" for i, _ in src.equation_errors]
        if src.semantics == "thin":
            if tgt.semantics != "thin":
                self.check_thin_source()
            return
        for number, (left, right) in enumerate(src.equations, 1):
            fl, fr = self.translate(left), self.translate(right)
            if fl is None or fr is None:
                self.unchecked.append(f"equation #{number}")
                continue
            self.judge(
                tgt.equal(fl, fr),
                f"equation #{number} of {src.id!r} ({_fmt(left)} = {_fmt(right)})",
                fl,
                fr,
                [*left.steps, *right.steps],
            )

    def judge(self, verdict: bool | None, what: str, fl: Path, fr: Path, ids: list[str]) -> None:
        if verdict is True:
            return
        fun, tgt = self.fun.id, self.data.target.id
        if verdict is False:
            self.composition_fails = True
            self.add(
                Code.FUN_EQUATION_FAILS,
                f"Functor {fun!r} does not preserve {what}: its images {_fmt(fl)} and {_fmt(fr)} "
                f"are different morphisms of {tgt!r}. Change the images so they are equal, or "
                f"add the equation to {tgt!r} if it holds there.",
                ids,
            )
        else:
            self.composition_unknown = True
            self.add(
                Code.FUN_EQUATION_UNKNOWN,
                f"Functor {fun!r}: could not decide within the search bound whether {what} "
                f"still holds; its images are {_fmt(fl)} and {_fmt(fr)} in {tgt!r}. Add an "
                f"equation to {tgt!r} that states it directly, or simplify the images.",
                ids,
            )

    def check_thin_source(self) -> None:
        """A thin source equates all parallel paths; check a generating set of those relations.

        For each root r, with tree paths t(x) from a breadth-first search, every path from r to
        z equals t(z) using only the relations t(x)·f = t(y) (induction on length), so those
        relations generate thinness at r. If the target is free without equations it is
        left-cancellative, so roots covering every object suffice; otherwise every object is a
        root.
        """
        src, tgt = self.data.source, self.data.target
        edges = [(mid, g.source, g.target) for mid, g in src.generators.items() if not g.alias]
        if any(mid not in self.data.images for mid, _, _ in edges) or len(self.data.objects) < len(
            src.objects
        ):
            self.unchecked.append(f"thinness of {src.id!r}")
            return
        outgoing: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for mid, a, b in edges:
            outgoing[a].append((mid, b))
        roots = list(src.ordered_objects) if tgt.equations else self.roots(outgoing)
        budget = THIN_RELATION_BUDGET
        reported = 0
        for root in roots:
            tree: dict[str, tuple[str, ...]] = {root: ()}
            image: dict[str, tuple[str, ...]] = {root: ()}
            queue = deque([root])
            while queue:
                x = queue.popleft()
                for mid, y in outgoing.get(x, ()):
                    via = image[x] + self.data.images[mid].steps
                    if y not in tree:
                        tree[y] = (*tree[x], mid)
                        image[y] = via
                        queue.append(y)
                        continue
                    budget -= 1
                    if budget < 0:
                        self.composition_unknown = True
                        self.add(
                            Code.FUN_EQUATION_UNKNOWN,
                            f"Functor {self.fun.id!r}: {src.id!r} is thin, so its parallel "
                            f"paths must have equal images; checking stopped after "
                            f"{THIN_RELATION_BUDGET} relations. Make {tgt.id!r} thin too if "
                            "that is meant, or validate a smaller category.",
                            [],
                        )
                        return
                    fr, fy = self.data.objects[root], self.data.objects[y]
                    lhs, rhs = Path(fr, fy, via), Path(fr, fy, image[y])
                    verdict = tgt.equal(lhs, rhs)
                    if verdict is not True:
                        left = Path(root, y, (*tree[x], mid))
                        right = Path(root, y, tree[y])
                        self.judge(
                            verdict,
                            f"thinness of {src.id!r} (paths {_fmt(left)} and {_fmt(right)} "
                            f"from {root} to {y} are equal there)",
                            lhs,
                            rhs,
                            [*left.steps, *right.steps],
                        )
                        reported += 1
                        if reported >= MAX_LAW_FINDINGS:
                            return

    def roots(self, outgoing: dict[str, list[tuple[str, str]]]) -> list[str]:
        """Objects from which every object is reachable, found in one linear pass.

        A search from each object not yet reached stops at reached objects; a former root it
        reaches is dropped, since everything that root reaches is now reachable from the new one.
        """
        reached: set[str] = set()
        roots: dict[str, None] = {}
        for obj in self.data.source.ordered_objects:
            if obj in reached:
                continue
            reached.add(obj)
            stack = [obj]
            while stack:
                for _, y in outgoing.get(stack.pop(), ()):
                    if y in reached:
                        roots.pop(y, None)
                    else:
                        reached.add(y)
                        stack.append(y)
            roots[obj] = None
        return list(roots)


def _status(fails: bool, unknown: bool) -> LawStatus:
    return "fails" if fails else "unknown" if unknown else "holds"
