"""Checks of one natural transformation: its components and every naturality square."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from catdoc.model import Functor, NaturalTransformation
from catdoc.paths import Path, PathError, Presentation
from catdoc.validate.codes import _PATH_CODES, Code
from catdoc.validate.functors import _FunctorData
from catdoc.validate.messages import _did_you_mean, _fmt, _listed, _spec

if TYPE_CHECKING:
    from catdoc.validate.validator import _Validator


class _NatCheck:
    """Checks one natural transformation η: F ⇒ G."""

    def __init__(self, v: _Validator, nat: NaturalTransformation) -> None:
        self.v = v
        self.nat = nat

    def add(
        self, code: Code, message: str, ids: Iterable[str], component: str | None = None
    ) -> None:
        """A finding on the transformation, or on its `component` at an object (placed at the
        component's own line)."""
        finding = self.v.finding(code, message, [self.nat.id, *ids], self.nat, nat=self.nat.id)
        self.v.findings.append(finding)
        if component is not None:
            self.v.entries.append((finding, self.nat, ("components", component)))

    def run(self) -> None:
        nat, funs = self.nat, self.v.project.functor_by_id
        found: list[Functor] = []
        for role, ident, code in (
            ("source", nat.source_functor, Code.NAT_SOURCE_FUNCTOR_MISSING),
            ("target", nat.target_functor, Code.NAT_TARGET_FUNCTOR_MISSING),
        ):
            fun = funs.get(ident)
            if fun is None:
                self.add(
                    code,
                    f"Natural transformation {nat.id!r} has {role} functor {ident!r}, which does "
                    f"not exist.{_did_you_mean(ident, funs)} Fix `{role}Functor` or declare the "
                    "functor.",
                    [ident],
                )
            else:
                found.append(fun)
        if len(found) < 2:
            return
        f, g = found
        if (f.source_category, f.target_category) != (g.source_category, g.target_category):
            self.add(
                Code.NAT_NOT_PARALLEL,
                f"Natural transformation {nat.id!r} goes between functors that are not parallel: "
                f"{f.id!r} is {f.source_category} → {f.target_category} but {g.id!r} is "
                f"{g.source_category} → {g.target_category}. Both must have the same source and "
                "the same target category.",
                [f.id, g.id],
            )
            return
        fd, gd = self.v.functor_data(f), self.v.functor_data(g)
        if fd is None or gd is None:
            self.add(
                Code.NAT_SQUARE_NOT_CHECKED,
                f"Natural transformation {nat.id!r} was not checked: the source or target "
                f"category of {f.id!r} does not exist. Fix the functor (see its errors) and "
                "validate again.",
                [f.id, g.id],
            )
            return
        components = self.check_components(f, fd, g, gd)
        self.check_squares(f, fd, g, gd, components)

    def check_components(
        self, f: Functor, fd: _FunctorData, g: Functor, gd: _FunctorData
    ) -> dict[str, Path]:
        nat, src, tgt = self.nat, fd.source, fd.target
        paths: dict[str, Path] = {}
        for obj in src.ordered_objects:
            spec = nat.components.get(obj)
            if spec is None:
                self.add(
                    Code.NAT_COMPONENT_MISSING,
                    f"Natural transformation {nat.id!r} has no component for object {obj!r}. "
                    f"Add `{obj}: <path in {tgt.id} from {fd.objects.get(obj, '?')} to "
                    f"{gd.objects.get(obj, '?')}>` to components ([] when they are equal).",
                    [obj],
                )
                continue
            fa, ga = fd.objects.get(obj), gd.objects.get(obj)
            try:
                path = tgt.resolve(spec, at=fa)
            except PathError as exc:
                if exc.kind == "unknown_object":
                    continue  # empty component at an unmapped object; the functor says why
                self.add(
                    _PATH_CODES["component"][exc.kind],
                    f"Natural transformation {nat.id!r}: component at {obj!r} is {_spec(spec)}: "
                    f"{exc.message} A component must be a composable path of morphisms of "
                    f"{tgt.id!r}, first step first.",
                    [obj, *([exc.morphism] if exc.morphism else [])],
                    obj,
                )
                continue
            if fa is None or ga is None:
                continue
            if (path.source, path.target) != (fa, ga):
                self.add(
                    Code.NAT_COMPONENT_NOT_TYPED,
                    f"Natural transformation {nat.id!r}: component at {obj!r} is {_fmt(path)}, "
                    f"which goes {path.source} → {path.target}; it must go {f.id}({obj}) = {fa} "
                    f"→ {g.id}({obj}) = {ga}. Use a path of {tgt.id!r} between those objects.",
                    [obj],
                    obj,
                )
                continue
            paths[obj] = path
        for key in nat.components:
            if key not in src.objects:
                self.add(
                    Code.NAT_COMPONENT_UNKNOWN_OBJECT,
                    f"Natural transformation {nat.id!r} has a component for {key!r}, which is not "
                    f"an object of {src.id!r}{self.v.where_object(key)}."
                    f"{_did_you_mean(key, src.objects)} Fix the key or remove the entry.",
                    [key],
                    key,
                )
        return paths

    def check_squares(
        self,
        f: Functor,
        fd: _FunctorData,
        g: Functor,
        gd: _FunctorData,
        eta: dict[str, Path],
    ) -> None:
        nat, src, tgt = self.nat, fd.source, fd.target
        skipped: list[str] = list(src.broken)
        for mid, gen in src.generators.items():
            if gen.alias:
                continue
            a, b = gen.source, gen.target
            ff, gf = fd.images.get(mid), gd.images.get(mid)
            ea, eb = eta.get(a), eta.get(b)
            if ff is None or gf is None or ea is None or eb is None:
                skipped.append(mid)
                continue
            left = Presentation.compose(ff, eb)
            right = Presentation.compose(ea, gf)
            verdict = tgt.equal(left, right)
            if verdict is True:
                continue
            square = (
                f"the naturality square of {mid!r}: {a} → {b}, "
                f"{f.id}({mid})·η_{b} = {_fmt(left)} versus η_{a}·{g.id}({mid}) = {_fmt(right)}"
            )
            if verdict is False:
                self.add(
                    Code.NAT_SQUARE_FAILS,
                    f"Natural transformation {nat.id!r}: {square}, does not commute in "
                    f"{tgt.id!r} (the paths are provably different). Fix the components η_{a} / "
                    f"η_{b} or the images of {mid!r}, or add an equation to {tgt.id!r} if they "
                    "are meant to be equal.",
                    [mid, a, b],
                )
            else:
                self.add(
                    Code.NAT_SQUARE_UNKNOWN,
                    f"Natural transformation {nat.id!r}: could not decide within the search "
                    f"bound whether {square}, commutes in {tgt.id!r}. Add an equation to "
                    f"{tgt.id!r} that states it directly.",
                    [mid, a, b],
                )
        if skipped:
            self.add(
                Code.NAT_SQUARE_NOT_CHECKED,
                f"Natural transformation {nat.id!r}: {len(skipped)} naturality square(s) were "
                f"not checked ({_listed(skipped)}) because a morphism, its image under {f.id!r} or "
                f"{g.id!r}, or a component is broken (see the errors). Fix those and validate "
                "again; an unchecked square is not a pass.",
                skipped,
            )
