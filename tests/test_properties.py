"""Property tests: lawful random structures pass; each single mutation fails with its own code.

Lawful by construction: a random presented category D (free or thin, with random well-typed
equations), a category C together with a functor F: C → D whose generator images are random walks
in D, equations in C that hold in D because both sides have the same image, and η: F ⇒ G where G
equals F up to identity aliases and every component is an identity.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from catdoc.model import Config, ModelFile, as_path
from catdoc.paths import Presentation
from catdoc.project import Project
from catdoc.validate import Code, Report, validate_project

Model = dict[str, Any]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def project_of(model: Model) -> Project:
    """An in-memory project (no files): the validator needs nothing else."""
    parsed = ModelFile.model_validate(model)
    return Project(
        root=Path("/nonexistent-catdoc-root"),
        config=Config(),
        categories=parsed.categories,
        functors=parsed.functors,
        natural_transformations=parsed.natural_transformations,
    )


def validate(model: Model) -> Report:
    return validate_project(project_of(model))


def error_codes(report: Report) -> set[str]:
    return {f.code for f in report.errors}


@st.composite
def walks(draw: st.DrawFn, gens: list[Model], start: str, max_len: int = 3) -> list[str]:
    """A random composable path (ids) starting at `start`."""
    steps: list[str] = []
    here = start
    for _ in range(draw(st.integers(0, max_len))):
        out = [g for g in gens if g["source"] == here]
        if not out:
            break
        g = draw(st.sampled_from(out))
        steps.append(g["id"])
        here = g["target"]
    return steps


def end_of(gens: list[Model], start: str, steps: list[str]) -> str:
    by_id = {g["id"]: g for g in gens}
    return by_id[steps[-1]]["target"] if steps else start


@st.composite
def target_category(draw: st.DrawFn, semantics: str | None, equations: bool) -> Model:
    objs = [f"d{i}" for i in range(draw(st.integers(2, 5)))]
    gens = [
        {
            "id": f"u{j}",
            "source": draw(st.sampled_from(objs)),
            "target": draw(st.sampled_from(objs)),
        }
        for j in range(draw(st.integers(1, 8)))
    ]
    markers = [
        {"id": f"id-{o}", "source": o, "target": o, "metadata": {"isIdentity": True}}
        for o in objs
        if draw(st.booleans())
    ]
    eqs: list[list[list[str]]] = []
    if equations:
        for _ in range(draw(st.integers(0, 3))):
            start = draw(st.sampled_from(objs))
            left = draw(walks(gens, start))
            right = draw(walks(gens, start))
            if end_of(gens, start, left) == end_of(gens, start, right) and (left or right):
                eqs.append([left, right])
    return {
        "id": "D",
        "semantics": semantics or draw(st.sampled_from(["free", "thin"])),
        "objects": [{"id": o} for o in objs],
        "morphisms": gens + markers,
        "equations": eqs,
    }


@st.composite
def lawful_models(draw: st.DrawFn, semantics: str | None = None, equations: bool = True) -> Model:
    d = draw(target_category(semantics, equations))
    d_objs = [o["id"] for o in d["objects"]]
    d_gens = [g for g in d["morphisms"] if "metadata" not in g]
    d_markers = {g["source"]: g["id"] for g in d["morphisms"] if "metadata" in g}
    c_objs = [f"c{i}" for i in range(draw(st.integers(1, 5)))]
    obj_map = {o: draw(st.sampled_from(d_objs)) for o in c_objs}
    gens: list[Model] = []
    images: dict[str, list[str] | str] = {}
    for j in range(draw(st.integers(0, 8))):
        a = draw(st.sampled_from(c_objs))
        walk = draw(walks(d_gens, obj_map[a]))
        landing = [o for o in c_objs if obj_map[o] == end_of(d_gens, obj_map[a], walk)]
        if not landing:
            continue
        gid = f"f{j}"
        gens.append({"id": gid, "source": a, "target": draw(st.sampled_from(landing))})
        images[gid] = walk[0] if len(walk) == 1 and draw(st.booleans()) else walk
    c_sem = "thin" if d["semantics"] == "thin" and draw(st.booleans()) else "free"
    eqs: list[list[list[str]]] = []
    for k in range(draw(st.integers(0, 2))):
        start = draw(st.sampled_from(c_objs))
        path = draw(walks(gens, start))
        if not path:
            continue
        composite = f"k{k}"
        gens.append({"id": composite, "source": start, "target": end_of(gens, start, path)})
        image: list[str] = []
        for step in path:
            value = images[step]
            image += [value] if isinstance(value, str) else value
        images[composite] = image
        eqs.append([path, [composite]])
    markers = []
    for o in c_objs:
        if draw(st.booleans()):
            mid = f"id-{o}"
            markers.append({"id": mid, "source": o, "target": o, "metadata": {"isIdentity": True}})
            choice = draw(st.sampled_from(["unmapped", "empty", "marker"]))
            if choice == "empty":
                images[mid] = []
            elif choice == "marker" and obj_map[o] in d_markers:
                images[mid] = d_markers[obj_map[o]]
    by_id = {g["id"]: g for g in gens + markers}
    g_images: dict[str, list[str]] = {}
    for key, value in images.items():
        alias = d_markers.get(obj_map[by_id[key]["source"]])
        g_images[key] = ([alias] if alias else []) + as_path(value)
    components = {o: d_markers.get(obj_map[o], []) for o in c_objs}
    return {
        "categories": [
            {
                "id": "C",
                "semantics": c_sem,
                "objects": [{"id": o} for o in c_objs],
                "morphisms": gens + markers,
                "equations": eqs,
            },
            d,
        ],
        "functors": [
            {
                "id": "F",
                "sourceCategory": "C",
                "targetCategory": "D",
                "objectMapping": obj_map,
                "morphismMapping": images,
            },
            {
                "id": "G",
                "sourceCategory": "C",
                "targetCategory": "D",
                "objectMapping": dict(obj_map),
                "morphismMapping": g_images,
            },
        ],
        "naturalTransformations": [
            {"id": "eta", "sourceFunctor": "F", "targetFunctor": "G", "components": components}
        ],
    }


def source(model: Model) -> Model:
    return model["categories"][0]


def generators(model: Model) -> list[Model]:
    return [g for g in source(model)["morphisms"] if "metadata" not in g]


@SETTINGS
@given(lawful_models())
def test_lawful_structures_have_no_errors(model: Model) -> None:
    report = validate(model)
    assert report.errors == [], [f.message for f in report.errors]
    for law in report.summary.functor_laws:
        assert "fails" not in (law.identity_preservation, law.composition_preservation)


@SETTINGS
@given(lawful_models(), st.data())
def test_retargeting_a_mapped_object_is_not_typed(model: Model, data: st.DataObject) -> None:
    candidates = [g for g in generators(model) if g["source"] != g["target"]]
    assume(candidates)
    g = data.draw(st.sampled_from(candidates))
    end = data.draw(st.sampled_from(["source", "target"]))
    mapping = model["functors"][0]["objectMapping"]
    old = mapping[g[end]]
    others = [o["id"] for o in model["categories"][1]["objects"] if o["id"] != old]
    mapping[g[end]] = data.draw(st.sampled_from(others))
    assert Code.FUN_NOT_TYPED in error_codes(validate(model))


@SETTINGS
@given(lawful_models(), st.data())
def test_dropping_an_object_mapping_is_unmapped(model: Model, data: st.DataObject) -> None:
    mapping = model["functors"][0]["objectMapping"]
    del mapping[data.draw(st.sampled_from(sorted(mapping)))]
    assert Code.FUN_OBJECT_UNMAPPED in error_codes(validate(model))


@SETTINGS
@given(lawful_models(), st.data())
def test_dropping_a_generator_mapping_is_unmapped(model: Model, data: st.DataObject) -> None:
    gens = generators(model)
    assume(gens)
    g = data.draw(st.sampled_from(gens))
    del model["functors"][0]["morphismMapping"][g["id"]]
    assert Code.FUN_MORPHISM_UNMAPPED in error_codes(validate(model))


@SETTINGS
@given(lawful_models(), st.data())
def test_an_ill_typed_image_is_not_typed(model: Model, data: st.DataObject) -> None:
    gens = generators(model)
    assume(gens)
    g = data.draw(st.sampled_from(gens))
    fun = model["functors"][0]
    ends = (fun["objectMapping"][g["source"]], fun["objectMapping"][g["target"]])
    wrong = [
        u["id"]
        for u in model["categories"][1]["morphisms"]
        if "metadata" not in u and (u["source"], u["target"]) != ends
    ]
    assume(wrong)
    fun["morphismMapping"][g["id"]] = [data.draw(st.sampled_from(wrong))]
    assert Code.FUN_NOT_TYPED in error_codes(validate(model))


@SETTINGS
@given(lawful_models(semantics="free", equations=False), st.data())
def test_breaking_a_naturality_square_fails_it(model: Model, data: st.DataObject) -> None:
    fun = model["functors"][0]
    candidates = [
        g
        for g in generators(model)
        if g["source"] != g["target"] or fun["morphismMapping"][g["id"]]
    ]
    assume(candidates)
    g = data.draw(st.sampled_from(candidates))
    at = fun["objectMapping"][g["target"]]
    model["categories"][1]["morphisms"].append({"id": "loop", "source": at, "target": at})
    model["naturalTransformations"][0]["components"][g["target"]] = ["loop"]
    codes = error_codes(validate(model))
    assert Code.NAT_SQUARE_FAILS in codes
    assert codes == {Code.NAT_SQUARE_FAILS}


@SETTINGS
@given(lawful_models(), st.sampled_from(["source", "target"]))
def test_a_dangling_morphism_is_rejected(model: Model, end: str) -> None:
    objs = source(model)["objects"]
    other = "target" if end == "source" else "source"
    source(model)["morphisms"].append({"id": "stray", end: "nowhere", other: objs[0]["id"]})
    model["functors"][0]["morphismMapping"]["stray"] = []
    expected = Code.CAT_DANGLING_SOURCE if end == "source" else Code.CAT_DANGLING_TARGET
    report = validate(model)
    assert expected in error_codes(report)
    assert Code.FUN_NOT_CHECKED in {f.code for f in report.infos}


@SETTINGS
@given(lawful_models(), st.data())
def test_paths_obey_associativity_and_unit_laws(model: Model, data: st.DataObject) -> None:
    d = model["categories"][1]
    pres = Presentation(
        "D",
        [o["id"] for o in d["objects"]],
        [(m["id"], m["source"], m["target"], "metadata" in m) for m in d["morphisms"]],
        d["semantics"],
        d["equations"],
    )
    every = d["morphisms"]
    start = data.draw(st.sampled_from([o["id"] for o in d["objects"]]))
    p_steps = data.draw(walks(every, start))
    mid = end_of(every, start, p_steps)
    q_steps = data.draw(walks(every, mid))
    mid2 = end_of(every, mid, q_steps)
    r_steps = data.draw(walks(every, mid2))
    p = pres.resolve(p_steps, at=start)
    q = pres.resolve(q_steps, at=mid)
    r = pres.resolve(r_steps, at=mid2)
    compose = Presentation.compose
    assert compose(compose(p, q), r) == compose(p, compose(q, r))
    assert compose(pres.identity(p.source), p) == p == compose(p, pres.identity(p.target))
    assert pres.resolve(p_steps + q_steps, at=start) == compose(p, q)
    whole = compose(compose(p, q), r)
    assert pres.equal(whole, copy.copy(whole)) is True
