"""The validator: category and project checks, plus functors and natural transformations."""

from __future__ import annotations

from catdoc.model import Functor, NaturalTransformation
from catdoc.project import Project
from catdoc.validate.categories import _CategoryChecks
from catdoc.validate.codes import Code
from catdoc.validate.functors import _FunctorCheck, _FunctorData
from catdoc.validate.messages import _did_you_mean
from catdoc.validate.report import Finding, FunctorLaws
from catdoc.validate.transformations import _NatCheck


class _Validator(_CategoryChecks):
    """All checks; each functor is analysed once, since its natural transformations need it."""

    def __init__(self, project: Project) -> None:
        super().__init__(project)
        self._functors: dict[int, _FunctorData | None] = {}
        self._missing_functor_findings: dict[int, list[Finding]] = {}

    def functor_data(self, fun: Functor) -> _FunctorData | None:
        """Analyse a functor once (its findings are kept for when the functor is checked)."""
        key = id(fun)
        if key not in self._functors:
            self._functors[key] = self._analyse_functor(fun)
        return self._functors[key]

    def _analyse_functor(self, fun: Functor) -> _FunctorData | None:
        cats = self.project.category_by_id
        src, tgt = cats.get(fun.source_category), cats.get(fun.target_category)
        missing: list[Finding] = []
        for role, ident, code in (
            ("source", fun.source_category, Code.FUN_SOURCE_MISSING),
            ("target", fun.target_category, Code.FUN_TARGET_MISSING),
        ):
            if ident not in cats:
                missing.append(
                    self.finding(
                        code,
                        f"Functor {fun.id!r} has {role} category {ident!r}, which does not exist."
                        f"{_did_you_mean(ident, cats)} Fix `{role}Category` or declare the "
                        "category.",
                        [fun.id, ident],
                        fun,
                        functor=fun.id,
                    )
                )
        if src is None or tgt is None:
            self._missing_functor_findings[id(fun)] = missing
            return None
        return _FunctorCheck(self, fun, self.presentation(src), self.presentation(tgt)).run()

    def check_functor(self, fun: Functor) -> FunctorLaws:
        self.check_unknown_keys(fun, "functor", functor=fun.id)
        data = self.functor_data(fun)
        if data is None:
            self.findings += self._missing_functor_findings[id(fun)]
            return FunctorLaws(
                functor=fun.id, identity_preservation="unknown", composition_preservation="unknown"
            )
        self.findings += data.findings
        assert data.laws is not None
        return data.laws

    def check_nat(self, nat: NaturalTransformation) -> None:
        self.check_unknown_keys(nat, "natural transformation", nat=nat.id)
        _NatCheck(self, nat).run()
