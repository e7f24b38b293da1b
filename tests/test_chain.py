"""An object's chain (what the terminal browser and the dashboard show): both impact walks by
layer, checked by hand on the traceability example; suspect marks on exactly the entries reached
through a link touching an edited document; the layer order on generated functor graphs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.chain import hop_link, layer_order
from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.model import Category, Config, Functor
from catdoc.project import Project, load_project
from catdoc.reviews import REVIEWS_REL
from catdoc.service import CatDoc

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"
LAYERS = ["requirements", "specifications", "design", "implementation", "tests"]


@pytest.fixture
def root(example_copy: Path) -> Path:
    return example_copy


def entries(svc: CatDoc, object_id: str) -> list[tuple[str, str, str, int]]:
    chain = svc.chain(object_id)
    return [(g.category, e.id, e.direction, e.distance) for g in chain.groups for e in g.entries]


def test_the_chain_of_a_specification_by_hand(root: Path) -> None:
    svc = CatDoc(root)
    chain = svc.chain("spec-checkout-api")
    assert [g.category for g in chain.groups] == LAYERS
    assert [g.layer for g in chain.groups] == [0, 1, 2, 3, 4]
    assert entries(svc, "spec-checkout-api") == [
        # req-receipt depends on req-checkout, which specify maps to the specification
        ("requirements", "req-receipt", "up", 2),
        ("requirements", "req-checkout", "up", 1),
        # spec-receipt-email refers to it; it refers to the cart and payment APIs
        ("specifications", "spec-receipt-email", "up", 1),
        ("specifications", "spec-checkout-api", "start", 0),
        ("specifications", "spec-cart-api", "down", 1),
        ("specifications", "spec-payment-api", "down", 1),
        ("design", "design-checkout-flow", "down", 1),
        ("design", "design-cart-service", "down", 2),
        ("design", "design-payment-adapter", "down", 2),
        ("implementation", "impl-checkout-handler", "down", 2),
        ("implementation", "impl-cart-module", "down", 3),
        ("implementation", "impl-payment-client", "down", 3),
        ("tests", "test-checkout-unit", "down", 3),
        ("tests", "test-checkout-e2e", "down", 3),
        ("tests", "test-cart-unit", "down", 4),
        ("tests", "test-payment-unit", "down", 4),
    ]
    assert (chain.up, chain.down, chain.reviews, chain.suspects) == (3, 12, False, 0)
    assert "Reviews are off" in chain.message
    req = chain.groups[0].entries[1]
    assert req.path.nodes == ["spec-checkout-api", "req-checkout"]
    hop = req.path.hops[0]
    assert (hop.kind, hop.id, hop.direction) == ("functor", "specify", "against")


def test_entries_are_the_impact_walks_each_way(root: Path) -> None:
    svc = CatDoc(root)
    for object_id in ("req-checkout", "design-cart-service", "test-checkout-e2e"):
        chain = svc.chain(object_id, depth=2)
        for direction in ("up", "down"):
            walk = svc.impact(object_id, depth=2, direction=direction)
            expected = {(o.id, o.distance) for g in walk.groups for o in g.objects}
            got = {
                (e.id, e.distance)
                for g in chain.groups
                for e in g.entries
                if e.direction == direction
            }
            assert got == expected
        assert max(e.distance for g in chain.groups for e in g.entries) <= 2


def links_touching(root: Path, object_id: str) -> set[str]:
    """The morphisms and object mapping entries with `object_id` at an end (the links a trace
    hop can walk), worked out from the model directly."""
    project = load_project(root)
    out = {
        f"morphism:{m.id}"
        for m in project.morphism_by_id.values()
        if object_id in (m.source, m.target)
    }
    for fun in project.functor_by_id.values():
        out |= {
            f"functor:{fun.id}:object:{a}"
            for a, b in fun.object_mapping.items()
            if object_id in (a, b)
        }
    return out


def test_suspect_marks_are_exactly_the_entries_reached_through_a_changed_document(
    root: Path,
) -> None:
    svc = CatDoc(root)
    svc.review(all=True, by="Ada")
    clean = svc.chain("req-checkout")
    assert clean.reviews and clean.suspects == 0
    assert "reviewed and current" in clean.message
    cart = root / "docs" / "requirements" / "cart.md"
    cart.write_text(cart.read_text("utf-8") + "\nSaved carts expire after 30 days.\n", "utf-8")
    touching = links_touching(root, "req-cart")
    for object_id in ("req-checkout", "spec-cart-api", "test-cart-unit"):
        chain = svc.chain(object_id)
        marked = 0
        for group in chain.groups:
            for entry in group.entries:
                hops = entry.path.hops
                expected = bool(hops) and hop_link(hops[-1]) in touching
                assert (entry.suspect is not None) == expected, entry.id
                if entry.suspect is not None:
                    marked += 1
                    assert entry.suspect.status == "changed"
                    assert entry.suspect.key == hop_link(hops[-1])
                    assert "req-cart changed" in entry.suspect.reason
        assert chain.suspects == marked
    assert svc.chain("req-checkout").suspects >= 1  # it depends on the cart directly
    svc.review(["req-cart"])
    assert svc.chain("req-checkout").suspects == 0


def test_a_link_added_by_hand_is_marked_unreviewed(root: Path) -> None:
    svc = CatDoc(root)
    svc.review(all=True)
    model = root / ".catdoc" / "category.yaml"
    text = model.read_text("utf-8")
    anchor = "      - id: checkout-depends-on-cart\n"
    added = "      - id: cart-by-hand\n        name: needs\n        source: req-cart\n"
    added += "        target: req-payment\n"
    model.write_text(text.replace(anchor, added + anchor, 1), "utf-8")
    chain = svc.chain("req-cart", depth=1)
    payment = next(e for g in chain.groups for e in g.entries if e.id == "req-payment")
    assert payment.suspect is not None and payment.suspect.status == "unreviewed"
    assert payment.suspect.key == "morphism:cart-by-hand"


def test_per_group_keeps_the_nearest_and_the_object(root: Path) -> None:
    svc = CatDoc(root)
    chain = svc.chain("spec-checkout-api", per_group=1)
    specs = next(g for g in chain.groups if g.category == "specifications")
    assert [e.id for e in specs.entries] == ["spec-receipt-email", "spec-checkout-api"]
    assert (specs.count, specs.truncated) == (4, 2)
    tests = next(g for g in chain.groups if g.category == "tests")
    assert [e.id for e in tests.entries] == ["test-checkout-unit"]


def test_refusals_and_a_lone_object(root: Path) -> None:
    svc = CatDoc(root)
    with pytest.raises(CatDocError) as caught:
        svc.chain("spec-checkot-api")
    assert caught.value.code == NOT_FOUND
    for bad in (0, 10_001):
        with pytest.raises(CatDocError) as caught:
            svc.chain("req-cart", per_group=bad)
        assert caught.value.code == VALIDATION_ERROR
    with pytest.raises(CatDocError):
        svc.chain("req-cart", depth=0)
    svc.upsert_object("requirements", "req-lonely", {"title": "Lonely"})
    lone = svc.chain("req-lonely")
    assert [(g.category, [e.id for e in g.entries]) for g in lone.groups] == [
        ("requirements", ["req-lonely"])
    ]
    assert lone.message.startswith("Nothing links to or from req-lonely")


def test_a_broken_reviews_file_leaves_the_chain_without_marks(root: Path) -> None:
    svc = CatDoc(root)
    (root / REVIEWS_REL).write_text("stamps: [not, a, mapping\n", "utf-8")
    chain = svc.chain("req-checkout")
    assert chain.down > 0 and chain.suspects == 0
    assert "No suspect marks" in chain.message


# ---------------------------------------------------------------------- layer order
def project_of(categories: int, arrows: list[tuple[int, int]]) -> Project:
    return Project(
        root=Path("."),
        config=Config(),
        categories=[Category(id=f"c{i}", name=f"C{i}") for i in range(categories)],
        functors=[
            Functor(id=f"f{n}", name=f"F{n}", source_category=f"c{a}", target_category=f"c{b}")
            for n, (a, b) in enumerate(arrows)
        ],
    )


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 7).flatmap(
        lambda n: st.tuples(
            st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)))
        )
    )
)
def test_layer_order_puts_sources_first_where_it_can(
    case: tuple[int, list[tuple[int, int]]],
) -> None:
    count, arrows = case
    order = layer_order(project_of(count, arrows))
    assert sorted(order) == sorted(f"c{i}" for i in range(count))
    acyclic = [(a, b) for a, b in arrows if a < b]  # forward arrows never make a cycle
    position = {cid: i for i, cid in enumerate(layer_order(project_of(count, acyclic)))}
    for a, b in acyclic:
        assert position[f"c{a}"] < position[f"c{b}"]
    if not acyclic:
        assert list(position) == [f"c{i}" for i in range(count)]  # the model's order


def test_layer_order_of_the_example_and_a_cycle() -> None:
    assert layer_order(load_project(EXAMPLE)) == LAYERS
    assert layer_order(project_of(3, [(2, 1), (1, 2)])) == ["c0", "c1", "c2"]
    assert layer_order(project_of(3, [(2, 0)])) == ["c1", "c2", "c0"]


def test_marks_agree_with_catdoc_suspects(root: Path) -> None:
    """The chain judges only the links on its paths, exactly as `suspects` judges every link."""
    svc = CatDoc(root)
    svc.review(all=True, by="Ada")
    for rel in ("docs/requirements/cart.md", "docs/design/checkout-flow.md"):
        path = root / rel
        path.write_text(path.read_text("utf-8") + "\nChanged.\n", "utf-8")
    (root / "docs" / "specifications" / "payment-api.md").unlink()
    report = svc.suspects(limit=200, diffs=False)
    reasons = {s.key: (s.status, s.reason) for s in report.suspects}
    seen = 0
    for object_id in load_project(root).object_by_id:
        for group in svc.chain(object_id).groups:
            for entry in group.entries:
                if not entry.path.hops:
                    continue
                key = hop_link(entry.path.hops[-1])
                mark = entry.suspect
                assert ((mark.status, mark.reason) if mark else None) == reasons.get(key)
                seen += mark is not None
    assert seen
