"""Paths of a presented category: typing, composition laws, identity aliases, equality."""

from __future__ import annotations

import pytest

from catdoc.model import Category
from catdoc.paths import Path, PathError, Presentation


def square(semantics: str = "free", equations: list | None = None, **bounds: int) -> Presentation:
    """A → B → D and A → C → D, a loop e at B, and an identity alias at A."""
    return Presentation(
        "sq",
        ["A", "B", "C", "D"],
        [
            ("f", "A", "B", False),
            ("g", "B", "D", False),
            ("h", "A", "C", False),
            ("k", "C", "D", False),
            ("e", "B", "B", False),
            ("idA", "A", "A", True),
        ],
        semantics,  # type: ignore[arg-type]
        equations or [],
        **bounds,
    )


def test_resolve_single_id_list_and_identity() -> None:
    p = square()
    assert p.resolve("f") == Path("A", "B", ("f",))
    assert p.resolve(["f", "g"]) == Path("A", "D", ("f", "g"))
    assert p.resolve([], at="C") == Path("C", "C")


def test_identity_aliases_are_removed() -> None:
    p = square()
    assert p.resolve(["idA", "f", "e"]) == Path("A", "B", ("f", "e"))
    assert p.resolve("idA") == Path("A", "A")
    assert p.resolve(["idA", "idA"]).is_identity


def test_resolve_failures_say_which_step() -> None:
    p = square()
    with pytest.raises(PathError) as exc:
        p.resolve(["f", "nope"])
    assert exc.value.kind == "unknown_morphism" and exc.value.index == 1
    assert "step 2 'nope'" in exc.value.message
    with pytest.raises(PathError) as exc:
        p.resolve(["f", "k"])
    assert exc.value.kind == "not_composable" and "step 2 'k' starts at 'C'" in exc.value.message
    with pytest.raises(PathError) as exc:
        p.resolve([])
    assert exc.value.kind == "unknown_object"
    with pytest.raises(PathError) as exc:
        p.resolve([], at="Z")
    assert exc.value.kind == "unknown_object"


def test_dangling_generator_is_broken_not_unknown() -> None:
    p = Presentation("c", ["A"], [("f", "A", "Z", False)])
    assert "f" in p.broken
    with pytest.raises(PathError) as exc:
        p.resolve("f")
    assert exc.value.kind == "broken_morphism" and "target 'Z'" in exc.value.message


def test_associativity_and_units() -> None:
    p = square()
    f, e, g = p.resolve("f"), p.resolve("e"), p.resolve("g")
    compose = Presentation.compose
    assert compose(compose(f, e), g) == compose(f, compose(e, g))
    assert compose(p.identity("A"), f) == f == compose(f, p.identity("B"))
    with pytest.raises(PathError):
        compose(f, p.resolve("k"))


def test_free_without_equations_is_syntactic() -> None:
    p = square()
    assert p.equal(p.resolve(["f", "g"]), p.resolve(["idA", "f", "g"])) is True
    assert p.equal(p.resolve(["f", "g"]), p.resolve(["h", "k"])) is False
    assert p.equal(p.resolve(["f", "e", "g"]), p.resolve(["f", "g"])) is False


def test_non_parallel_paths_are_never_equal() -> None:
    p = square("thin")
    assert p.equal(p.resolve("f"), p.resolve("h")) is False


def test_thin_equates_parallel_paths() -> None:
    p = square("thin")
    assert p.equal(p.resolve(["f", "g"]), p.resolve(["h", "k"])) is True
    assert p.equal(p.resolve("e"), p.identity("B")) is True


def test_equations_prove_equality() -> None:
    p = square(equations=[[["f", "g"], ["h", "k"]], [["e", "e"], []]])
    assert p.equal(p.resolve(["f", "g"]), p.resolve(["h", "k"])) is True
    assert p.equal(p.resolve(["f", "e", "e", "g"]), p.resolve(["h", "k"])) is True
    assert p.equal(p.identity("B"), p.resolve(["e", "e", "e", "e"])) is True


def test_equations_prove_inequality_when_a_class_is_finite() -> None:
    p = square(equations=[[["f", "g"], ["h", "k"]]])
    assert p.equal(p.resolve(["f", "e", "g"]), p.resolve(["h", "k"])) is False
    idempotent = square(equations=[[["e", "e"], ["e"]]])
    assert idempotent.equal(idempotent.resolve("e"), idempotent.identity("B")) is False
    involution = square(equations=[[["e", "e"], []]], max_visited=500)
    assert involution.equal(involution.resolve("e"), involution.identity("B")) is None


def test_infinite_classes_give_unknown_not_a_guess() -> None:
    """[f] = [f, e] makes the class of f infinite; so does [h2] = [h2, e] for a parallel h2."""
    p = Presentation(
        "inf",
        ["A", "B"],
        [("f", "A", "B", False), ("f2", "A", "B", False), ("e", "B", "B", False)],
        "free",
        [[["f"], ["f", "e"]], [["f2"], ["f2", "e"]]],
        max_visited=2_000,
    )
    assert p.equal(p.resolve("f"), p.resolve(["f", "e", "e", "e"])) is True
    assert p.equal(p.resolve("f"), p.resolve("f2")) is None


def test_length_bound_never_turns_into_false() -> None:
    """A class cut by the length bound is not exhausted, so the answer must be unknown."""
    p = Presentation(
        "cut",
        ["A"],
        [("e", "A", "A", False), ("u", "A", "A", False)],
        "free",
        [[[], ["e"]]],
        max_extra_length=2,
    )
    assert p.equal(p.identity("A"), p.resolve(["u"])) is None


def test_empty_side_equations_insert_loops() -> None:
    p = Presentation("ins", ["A", "B"], [("f", "A", "B", False), ("e", "B", "B", False)], "free")
    q = Presentation(
        "ins", ["A", "B"], [("f", "A", "B", False), ("e", "B", "B", False)], "free", [[[], ["e"]]]
    )
    assert p.equal(p.resolve("f"), p.resolve(["f", "e"])) is False
    assert q.equal(q.resolve("f"), q.resolve(["f", "e", "e"])) is True


def test_equation_errors_are_recorded_by_kind() -> None:
    p = square(
        equations=[[["f", "zz"], ["h"]], [["f", "k"], ["h"]], [["f"], ["h"]], [[], []]],
    )
    kinds = [(i, exc.kind) for i, exc in p.equation_errors]
    assert kinds == [(0, "unknown_morphism"), (1, "not_composable"), (2, "not_parallel")]
    assert p.equations == []


def test_presentation_of_category_model() -> None:
    cat = Category.model_validate(
        {
            "id": "c",
            "semantics": "thin",
            "objects": [{"id": "a"}, {"id": "b"}],
            "morphisms": [
                {"id": "m", "source": "a", "target": "b"},
                {"id": "ida", "source": "a", "target": "a", "metadata": {"isIdentity": True}},
            ],
        }
    )
    p = Presentation.of(cat)
    assert p.semantics == "thin" and p.is_alias("ida") and not p.is_alias("m")
    assert p.ordered_objects == ("a", "b")


def commuting_loops(count: int) -> Presentation:
    """One object, a loop f and loops a0…a(count-1) that each commute with f: every position
    of a long word matches thousands of equation sides, few of which rewrite it."""
    loops = [(f"a{i}", "x", "x", False) for i in range(count)]
    equations = [[["f", f"a{i}"], [f"a{i}", "f"]] for i in range(count)]
    return Presentation("loops", ["x"], [("f", "x", "x", False), *loops], "free", equations)


def test_a_search_is_bounded_by_the_work_it_does_not_only_the_paths_it_visits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import catdoc.paths as paths

    monkeypatch.setattr(paths, "MAX_WORK", 50_000)
    p = commuting_loops(200)
    p.work_left = 120_000
    word = ["f"] * 30 + ["a1"] * 29
    left, right = p.resolve([*word, "a2"]), p.resolve([*word, "a3"])
    assert p.equal(left, right) is None  # unknown: never a guess
    overshoot = 60 * 200  # at most one path's positions times the equations per head
    assert 120_000 - 50_000 - overshoot <= p.work_left <= 120_000 - 50_000  # one search
    assert p.equal(left, right) is None
    assert p.equal(left, right) is None
    assert p.work_left <= 0  # spent: every further search answers at once
    assert p.equal(left, right) is None
    assert p.equal(p.resolve("f"), p.resolve("f")) is True  # syntactic equality needs no search
