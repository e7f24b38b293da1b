"""The CLI edit commands are the service's edits, nothing more or less: random sequences of edits
give byte-identical projects (and identical answers and refusals) whether they run through the
service or through `catdoc`; and an edit followed by its inverse gives back the original bytes."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.edit import EditResult
from catdoc.errors import CatDocError
from catdoc.service import CatDoc

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"
runner = CliRunner()
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass(frozen=True)
class Edit:
    """One edit, written twice: as a service call and as a command line."""

    call: Callable[[CatDoc], EditResult]
    argv: tuple[str, ...]

    def __repr__(self) -> str:  # hypothesis prints the falsifying sequence as command lines
        return "catdoc " + " ".join(self.argv)


@contextmanager
def copy_of_example() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "traceability"
        shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("cache"))
        yield target


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".catdoc/cache" not in path.as_posix() and path.name != "lock"
    }


def through_service(svc: CatDoc, edit: Edit) -> Any:
    try:
        return edit.call(svc).model_dump(mode="json", by_alias=True)
    except CatDocError as error:
        return {"refused": error.code}


def through_cli(root: Path, edit: Edit) -> Any:
    result = runner.invoke(app, ["-C", str(root), *edit.argv, "--format", "json"])
    if result.stdout:
        assert result.exit_code == (0 if json.loads(result.stdout)["valid"] else 1)
        return json.loads(result.stdout)
    assert result.exit_code in (1, 2), result.output
    return {"refused": json.loads(result.stderr)["error"]["code"]}


# --------------------------------------------------------------------------- the edits
OBJECTS = {
    "requirements": ["req-cart", "req-payment", "new-a"],
    "specifications": ["spec-cart-api", "spec-payment-api", "new-b"],
    "implementation": ["impl-cart-module", "impl-payment-client", "new-c"],
}
MORPHISMS = {
    "requirements": ["checkout-depends-on-cart", "receipt-depends-on-cart"],
    "specifications": ["spec-checkout-refs-cart", "spec-receipt-refs-cart"],
    "tests": ["cart-unit-gates-e2e", "checkout-tests-use-cart-fixtures", "checkout-unit-gates-e2e"],
}
NEW_MORPHISMS = ["new-m", "new-n"]
words = st.text(
    alphabet=st.characters(categories=("L", "N"), include_characters=" -_.:é→#'\""),
    min_size=1,
    max_size=20,
).map(lambda s: "t" + s)


@st.composite
def add_object(draw: st.DrawFn) -> Edit:
    category = draw(st.sampled_from(sorted(OBJECTS)))
    object_id = draw(st.sampled_from(OBJECTS[category] + ["new-a"]))
    title, tags = draw(st.none() | words), draw(st.lists(words, max_size=2))
    fields: dict[str, Any] = {"title": title, "tags": tags or None}
    argv = ["add", "object", category, object_id]
    if title is not None:
        argv += ["--title", title]
    for tag in tags:
        argv += ["--tag", tag]
    if draw(st.booleans()):
        fields["summary"] = None
        argv += ["--unset", "summary"]
    fields = {k: v for k, v in fields.items() if v is not None or k == "summary"}
    return Edit(lambda s: s.upsert_object(category, object_id, fields), tuple(argv))


@st.composite
def add_morphism(draw: st.DrawFn) -> Edit:
    category = draw(st.sampled_from(sorted(OBJECTS)))
    source, target = (
        draw(st.sampled_from(OBJECTS[category])),
        draw(st.sampled_from(OBJECTS[category])),
    )
    name = draw(st.sampled_from(["uses", "refs"]))
    morphism_id = draw(st.none() | st.sampled_from(NEW_MORPHISMS))
    argv = ["add", "morphism", category, source, target, "--name", name]
    if morphism_id is not None:
        argv += ["--id", morphism_id]
    return Edit(
        lambda s: s.add_morphism(category, source, target, name=name, morphism_id=morphism_id),
        tuple(argv),
    )


@st.composite
def map_entry(draw: st.DrawFn) -> Edit:
    if draw(st.booleans()):
        src = draw(st.sampled_from(OBJECTS["requirements"]))
        tgt = draw(st.none() | st.sampled_from(OBJECTS["specifications"]))
        argv = ["map", "specify", src, *([tgt] if tgt else ["--remove"])]
        return Edit(lambda s: s.set_mapping("specify", objects={src: tgt}), tuple(argv))
    src = draw(st.sampled_from(MORPHISMS["requirements"] + NEW_MORPHISMS))
    steps = draw(st.none() | st.lists(st.sampled_from(MORPHISMS["specifications"]), max_size=2))
    value: Any = None if steps is None else (steps[0] if len(steps) == 1 else steps)
    written = "--remove" if steps is None else ",".join(steps) if len(steps) != 1 else steps[0]
    if steps == []:
        written = draw(st.sampled_from(["[]", "id"]))
    return Edit(
        lambda s: s.set_mapping("specify", morphisms={src: value}), ("map", "specify", src, written)
    )


@st.composite
def component(draw: st.DrawFn) -> Edit:
    obj = draw(st.sampled_from(OBJECTS["implementation"]))
    steps = draw(st.none() | st.lists(st.sampled_from(MORPHISMS["tests"]), max_size=2))
    value: Any = None if steps is None else (steps[0] if len(steps) == 1 else steps)
    written = "--remove" if steps is None else ".".join(steps) if len(steps) != 1 else steps[0]
    if steps == []:
        written = "[]"
    return Edit(
        lambda s: s.set_components("unit-gates-e2e", {obj: value}),
        ("component", "unit-gates-e2e", obj, written),
    )


ANY_ID = [
    *(o for ids in OBJECTS.values() for o in ids),
    *(m for ids in MORPHISMS.values() for m in ids),
    *NEW_MORPHISMS,
    "specify",
    "unit-gates-e2e",
    "tests",
]


@st.composite
def remove(draw: st.DrawFn) -> Edit:
    ident, cascade = draw(st.sampled_from(ANY_ID)), draw(st.booleans())
    argv = ("rm", ident, *(["--cascade"] if cascade else []))
    return Edit(lambda s: s.remove_entity(ident, cascade=cascade), argv)


@st.composite
def rename(draw: st.DrawFn) -> Edit:
    old, new = draw(st.sampled_from(ANY_ID)), draw(st.sampled_from([*ANY_ID, "renamed-x"]))
    return Edit(lambda s: s.rename(old, new), ("mv", old, new))


@st.composite
def header(draw: st.DrawFn) -> Edit:
    category, name = draw(st.sampled_from(["requirements", "audits"])), draw(words)
    return Edit(
        lambda s: s.upsert_category(category, {"name": name}),
        ("add", "category", category, "--name", name),
    )


edits = st.one_of(
    add_object(), add_morphism(), map_entry(), component(), remove(), rename(), header()
)


@SETTINGS
@given(st.lists(edits, min_size=1, max_size=6))
def test_service_and_cli_write_the_same_bytes(sequence: list[Edit]) -> None:
    with copy_of_example() as by_service, copy_of_example() as by_cli:
        svc = CatDoc(by_service)
        for edit in sequence:
            expected, got = through_service(svc, edit), through_cli(by_cli, edit)
            if "refused" in expected and "refused" in got:
                continue  # both refused; an unknown SRC of `map` is taken for an object
            assert expected == got, edit
        assert snapshot(by_service) == snapshot(by_cli)


# --------------------------------------------------------------------------- inverses
def _old_path(value: Any) -> str:
    if isinstance(value, list):
        return "[]" if not value else ",".join(value) + ("," if len(value) == 1 else "")
    return str(value)


@st.composite
def edit_and_inverse(draw: st.DrawFn) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A command line that changes the example, and the one that undoes it."""
    svc = CatDoc(EXAMPLE)
    kind = draw(st.sampled_from(["add", "morphism", "map", "gen", "component", "mv", "field"]))
    if kind == "add":
        category = draw(st.sampled_from(sorted(OBJECTS)))
        title = draw(words)
        return ("add", "object", category, "new-x", "--title", title), ("rm", "new-x")
    if kind == "morphism":
        category = draw(st.sampled_from(sorted(OBJECTS)))
        source = draw(st.sampled_from(OBJECTS[category][:2]))
        target = draw(st.sampled_from(OBJECTS[category][:2]))
        return (
            ("add", "morphism", category, source, target, "--id", "new-m"),
            ("rm", "new-m"),
        )
    if kind == "map":
        src = draw(st.sampled_from(OBJECTS["requirements"][:2]))
        old = svc.functor("specify").object_mapping[src]
        tgt = draw(st.sampled_from(OBJECTS["specifications"][:2]).filter(lambda t: t != old))
        return ("map", "specify", src, tgt), ("map", "specify", src, old)
    if kind == "gen":
        functor = draw(st.sampled_from(["specify", "end-to-end", "unit-test"]))
        mapping = svc.functor(functor).morphism_mapping
        src = draw(st.sampled_from(sorted(mapping)))
        targets = MORPHISMS["specifications" if functor == "specify" else "tests"]
        new = draw(
            st.sampled_from(["[]", *targets, ",".join(targets[:2])]).filter(
                lambda v: v != _old_path(mapping[src])
            )
        )
        return ("map", functor, src, new), ("map", functor, src, _old_path(mapping[src]))
    if kind == "component":
        components = svc.natural_transformation("unit-gates-e2e").components
        obj = draw(st.sampled_from(sorted(components)))
        new = draw(
            st.sampled_from(["[]", "contract-gates-e2e", ".".join(MORPHISMS["tests"][1::-1])])
        )
        old = _old_path(components[obj])
        return (
            ("component", "unit-gates-e2e", obj, new),
            ("component", "unit-gates-e2e", obj, old),
        )
    if kind == "mv":
        old = draw(st.sampled_from([*ANY_ID[:4], "specify", "unit-gates-e2e", "tests", "design"]))
        return ("mv", old, "renamed-x"), ("mv", "renamed-x", old)
    obj_id = draw(st.sampled_from(["req-cart", "spec-payment-api", "test-cart-unit"]))
    field = draw(st.sampled_from(["title", "summary", "author", "domain"]))
    category = svc.locate_entity(obj_id).category or ""
    old_value = getattr(svc.object(obj_id), field)
    forward = ("add", "object", category, obj_id, f"--{field}", draw(words))
    back = (
        ("add", "object", category, obj_id, "--unset", field)
        if old_value is None
        else ("add", "object", category, obj_id, f"--{field}", str(old_value))
    )
    return forward, back


@SETTINGS
@given(edit_and_inverse())
def test_an_edit_then_its_inverse_gives_the_original_bytes(
    pair: tuple[tuple[str, ...], tuple[str, ...]],
) -> None:
    forward, back = pair
    with copy_of_example() as root:
        before = snapshot(root)
        for argv in (forward, back):
            result = runner.invoke(app, ["-C", str(root), *argv, "--format", "json"])
            if not result.stdout:  # refused (e.g. a path that does not compose): nothing written
                assert snapshot(root) == before, result.output
                return
        assert snapshot(root) == before
