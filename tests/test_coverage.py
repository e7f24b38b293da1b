"""Traceability coverage: the shares of each functor checked by hand on the examples, against a
brute-force count on generated functors, and through the CLI and a real MCP client session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp_project import data_of, error_of
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.coverage import functor_coverage
from catdoc.errors import CatDocError
from catdoc.mcp_server import build_server
from catdoc.model import Category, DocObject, Functor, Morphism
from catdoc.project import Config, Project
from catdoc.service import CatDoc

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def shares(item: object, name: str) -> tuple[int, int, float | None]:
    share = getattr(item, name)
    return share.covered, share.total, share.percent


def test_traceability_example_by_hand() -> None:
    report = CatDoc(EXAMPLES / "traceability").coverage()
    by_id = {f.functor: f for f in report.functors}
    assert list(by_id) == ["specify", "architect", "implement", "unit-test", "end-to-end"]
    for ident in ("specify", "architect", "implement"):
        item = by_id[ident]
        assert shares(item, "objects") == (4, 4, 100.0)
        assert shares(item, "reached") == (4, 4, 100.0)
        assert shares(item, "morphisms") == (5, 5, 100.0)
    # six tests; the unit tests reach four of them, the end-to-end functor only the e2e test
    unit = by_id["unit-test"]
    assert shares(unit, "reached") == (4, 6, 66.7)
    assert unit.orphans == ["test-payment-contract", "test-checkout-e2e"]
    e2e = by_id["end-to-end"]
    assert shares(e2e, "reached") == (1, 6, 16.7)
    assert "test-checkout-e2e" not in e2e.orphans and len(e2e.orphans) == 5
    assert report.below == [] and report.minimum is None


def test_broken_example_counts_only_images_that_exist() -> None:
    svc = CatDoc(EXAMPLES / "broken")
    sloppy = svc.coverage(["trace-sloppy-objects"]).functors[0]
    assert shares(sloppy, "objects") == (1, 3, 33.3)
    assert sloppy.unmapped_objects == ["s-logout", "s-audit"]
    assert shares(sloppy, "morphisms") == (2, 3, 66.7)
    missing = svc.coverage(["trace-missing-source"]).functors[0]
    assert shares(missing, "objects") == (0, 0, None)  # nothing to cover: no share at all
    assert shares(missing, "reached") == (0, 3, 0.0)
    below = svc.coverage(minimum=90).below
    assert "trace-sloppy-objects.objects" in below
    assert not any(b.startswith("trace-missing-source.objects") for b in below)


def test_unknown_functor_and_bad_minimum_are_refused() -> None:
    svc = CatDoc(EXAMPLES / "traceability")
    with pytest.raises(CatDocError) as unknown:
        svc.coverage(["specifyy"])
    assert unknown.value.code == "NOT_FOUND"
    with pytest.raises(CatDocError) as bad:
        svc.coverage(minimum=120)
    assert bad.value.code == "VALIDATION_ERROR"


ids = st.lists(st.sampled_from([f"o{n}" for n in range(8)]), unique=True, max_size=8)


@settings(max_examples=80, deadline=None)
@given(
    sources=ids,
    targets=st.lists(st.sampled_from([f"t{n}" for n in range(8)]), unique=True, max_size=8),
    data=st.data(),
)
def test_shares_are_brute_force_counts(
    sources: list[str], targets: list[str], data: st.DataObject
) -> None:
    anything = (
        st.sampled_from([*targets, "ghost", *sources]) if targets or sources else st.just("x")
    )
    mapping = data.draw(st.dictionaries(st.sampled_from([*sources, "stray"]), anything))
    edges = (
        data.draw(st.lists(st.tuples(st.sampled_from(sources), st.sampled_from(sources))))
        if sources
        else []
    )
    morphisms = [Morphism(id=f"m{n}", source=a, target=b) for n, (a, b) in enumerate(edges)]
    mapped_m = (
        data.draw(st.sets(st.sampled_from([m.id for m in morphisms]))) if morphisms else set()
    )
    functor = Functor(
        id="F",
        source_category="A",
        target_category="B",
        object_mapping=mapping,
        morphism_mapping={m: [] for m in mapped_m},
    )
    project = Project(
        root=Path("."),
        config=Config(),
        categories=[
            Category(id="A", objects=[DocObject(id=o) for o in sources], morphisms=morphisms),
            Category(id="B", objects=[DocObject(id=t) for t in targets]),
        ],
        functors=[functor],
    )
    item = functor_coverage(project, functor)
    good = [o for o in sources if mapping.get(o) in targets]
    assert shares(item, "objects")[:2] == (len(good), len(sources))
    assert shares(item, "reached")[:2] == (len({mapping[o] for o in good}), len(targets))
    assert shares(item, "morphisms")[:2] == (len(mapped_m), len(morphisms))
    for name in ("objects", "reached", "morphisms"):
        _, total, percent = shares(item, name)
        assert (percent is None) == (total == 0)
        assert percent is None or 0 <= percent <= 100
    assert set(item.unmapped_objects) == set(sources) - set(good)
    assert set(item.orphans) == set(targets) - {mapping[o] for o in good}


def test_cli_table_json_and_threshold() -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["-C", str(EXAMPLES / "traceability"), "coverage", "--min", "10"])
    assert ok.exit_code == 0 and "unit-test" in ok.stdout and "orphans" in ok.stdout
    failing = runner.invoke(app, ["-C", str(EXAMPLES / "traceability"), "coverage", "--min", "90"])
    assert failing.exit_code == 1
    assert "Below 90%: unit-test.reached, end-to-end.reached." in failing.stdout
    data = json.loads(
        runner.invoke(
            app, ["-C", str(EXAMPLES / "traceability"), "coverage", "specify", "-f", "json"]
        ).stdout
    )
    assert [f["functor"] for f in data["functors"]] == ["specify"]
    assert data["functors"][0]["objects"] == {"covered": 4, "total": 4, "percent": 100.0}


@pytest.mark.anyio
async def test_mcp_coverage_tool() -> None:
    async with Client(build_server(CatDoc(EXAMPLES / "traceability"))) as client:
        data = data_of(
            await client.call_tool("catdoc_coverage", {"functors": ["unit-test"], "minimum": 80})
        )
        assert data["below"] == ["unit-test.reached"]
        assert data["functors"][0]["orphans"] == ["test-payment-contract", "test-checkout-e2e"]
        bad = error_of(await client.call_tool("catdoc_coverage", {"minimum": 101}))
        assert bad["code"] == "VALIDATION_ERROR"


@given(covered=st.integers(0, 5_000), extra=st.integers(0, 5_000), tenths=st.integers(0, 1_000))
def test_a_minimum_is_met_only_by_the_exact_share(covered: int, extra: int, tenths: int) -> None:
    from fractions import Fraction

    from catdoc.results import CoverageShare

    total = covered + extra
    share = CoverageShare.of(covered, total)
    minimum = tenths / 10
    exact = Fraction(100 * covered, total) if total else None
    assert share.below(minimum) is (exact is not None and exact < Fraction(tenths, 10))
    if total:  # shown to one decimal, but never 100.0 for a gap
        assert share.percent is not None and abs(share.percent - exact) <= Fraction(1, 10)
        assert (share.percent == 100.0) is (covered == total)


def test_the_gate_fails_on_one_unmapped_object_in_two_thousand(tmp_path: Path) -> None:
    rows = ["categories:", "  - id: a", "    objects:"]
    rows += [f"      - {{id: a{i}}}" for i in range(2000)]
    rows += ["  - id: b", "    objects:"] + [f"      - {{id: b{i}}}" for i in range(2000)]
    rows += ["functors:", "  - id: f", "    sourceCategory: a", "    targetCategory: b"]
    rows += ["    objectMapping:"] + [f"      a{i}: b{i}" for i in range(1, 2000)]
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / ".catdoc" / "category.yaml").write_text("\n".join(rows) + "\n", "utf-8")
    result = CliRunner().invoke(app, ["-C", str(tmp_path), "coverage", "--min", "100"])
    assert result.exit_code == 1, result.output
    assert "Below 100%: f.objects, f.reached." in result.stdout
    shown = CliRunner().invoke(app, ["-C", str(tmp_path), "coverage", "-f", "json"])
    objects = json.loads(shown.stdout)["functors"][0]["objects"]
    assert objects == {"covered": 1999, "total": 2000, "percent": 99.9}
