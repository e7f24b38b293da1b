"""The validators: one test per code, scoped runs, the report shape, and the original format."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from catdoc.errors import NOT_FOUND, CatDocError
from catdoc.project import Project, load_project
from catdoc.validate import CODES, Code, Report, render_report, validate_project

Model = dict[str, Any]


def lawful() -> Model:
    """A lawful project: C --F, G--> D with an equation in each and η: F ⇒ G."""
    return {
        "categories": [
            {
                "id": "c",
                "name": "Source",
                "aliases": ["src"],
                "equations": [[["f", "g"], ["h"]]],
                "objects": [{"id": "a", "path": "docs/a.md"}, {"id": "b"}, {"id": "cc"}],
                "morphisms": [
                    {"id": "f", "source": "a", "target": "b"},
                    {"id": "g", "source": "b", "target": "cc"},
                    {"id": "h", "source": "a", "target": "cc"},
                    {"id": "id-a", "source": "a", "target": "a", "metadata": {"isIdentity": True}},
                ],
            },
            {
                "id": "d",
                "name": "Target",
                "parent": "c",
                "related": ["c"],
                "equations": [[["u", "v"], ["w"]]],
                "objects": [{"id": "x"}, {"id": "y"}, {"id": "z"}],
                "morphisms": [
                    {"id": "u", "source": "x", "target": "y"},
                    {"id": "v", "source": "y", "target": "z"},
                    {"id": "w", "source": "x", "target": "z"},
                    {"id": "e", "source": "y", "target": "y"},
                    {"id": "id-x", "source": "x", "target": "x", "metadata": {"isIdentity": True}},
                ],
            },
        ],
        "functors": [
            {
                "id": "F",
                "sourceCategory": "c",
                "targetCategory": "d",
                "objectMapping": {"a": "x", "b": "y", "cc": "z"},
                "morphismMapping": {"f": "u", "g": ["v"], "h": ["w"], "id-a": "id-x"},
            },
            {
                "id": "G",
                "sourceCategory": "c",
                "targetCategory": "d",
                "objectMapping": {"a": "x", "b": "y", "cc": "z"},
                "morphismMapping": {"f": ["id-x", "u"], "g": "v", "h": "w"},
            },
        ],
        "naturalTransformations": [
            {
                "id": "eta",
                "sourceFunctor": "F",
                "targetFunctor": "G",
                "components": {"a": [], "b": [], "cc": []},
            }
        ],
    }


def write(root: Path, model: Model, config: Model | None = None) -> Project:
    (root / ".catdoc").mkdir(parents=True, exist_ok=True)
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "a.md").write_text("# a\n")
    model = dict(model)
    reviews = root / ".catdoc" / "reviews.yaml"  # review stamps: the model's "reviews" key
    if "reviews" in model:
        reviews.write_text(yaml.safe_dump(model.pop("reviews")))
    else:
        reviews.unlink(missing_ok=True)
    text = yaml.safe_dump(model, sort_keys=False, default_flow_style=False)
    (root / ".catdoc" / "category.yaml").write_text(text)
    if config is not None:
        (root / ".catdoc" / "config.yaml").write_text(yaml.safe_dump(config))
    return load_project(root)


def run(tmp_path: Path, model: Model, config: Model | None = None, **scope: str) -> Report:
    return validate_project(write(tmp_path, model, config), **scope)


def codes(report: Report) -> set[str]:
    return {f.code for f in [*report.errors, *report.warnings, *report.infos]}


def cat(model: Model, ident: str) -> Model:
    return next(c for c in model["categories"] if c["id"] == ident)


def test_lawful_project_is_valid_and_laws_hold(tmp_path: Path) -> None:
    report = run(tmp_path, lawful())
    assert report.is_valid, render_report(report)
    assert not report.warnings and not report.infos
    assert [law.model_dump(by_alias=False) for law in report.summary.functor_laws] == [
        {"functor": f, "identity_preservation": "holds", "composition_preservation": "holds"}
        for f in ("F", "G")
    ]
    s = report.summary
    assert (s.categories_checked, s.functors_checked, s.natural_transformations_checked) == (
        2,
        2,
        1,
    )


def test_report_keys_are_the_original_camel_case(tmp_path: Path) -> None:
    model = lawful()
    mutate_dangling_target(model)
    data = json.loads(run(tmp_path, model).model_dump_json())
    assert {"isValid", "errors", "warnings", "summary", "timestamp"} <= set(data)
    assert {"categoriesChecked", "functorsChecked", "naturalTransformationsChecked"} <= set(
        data["summary"]
    )
    assert {"totalErrors", "totalWarnings", "functorLaws"} <= set(data["summary"])
    assert data["timestamp"].endswith("Z")
    finding = data["errors"][0]
    assert set(finding) == {
        "severity",
        "code",
        "message",
        "ids",
        "location",
        "category",
        "functor",
        "naturalTransformation",
    }


def mutate_duplicate(m: Model) -> None:
    cat(m, "d")["objects"].append({"id": "a"})


def mutate_unknown_key(m: Model) -> None:
    cat(m, "c")["objects"][1]["titel"] = "B"


def mutate_outside(m: Model) -> None:
    cat(m, "c")["objects"][1]["path"] = "../../etc/passwd"


def mutate_missing_file(m: Model) -> None:
    cat(m, "c")["objects"][1]["path"] = "docs/nope.md"


def mutate_dangling_source(m: Model) -> None:
    cat(m, "c")["morphisms"].append({"id": "bad", "source": "x", "target": "a"})


def mutate_dangling_target(m: Model) -> None:
    cat(m, "c")["morphisms"].append({"id": "bad", "source": "a", "target": "nowhere"})


def mutate_identity_not_loop(m: Model) -> None:
    cat(m, "c")["morphisms"][0]["metadata"] = {"isIdentity": True}


def mutate_duplicate_identity(m: Model) -> None:
    cat(m, "c")["morphisms"].append(
        {"id": "id-a2", "source": "a", "target": "a", "metadata": {"identity": True}}
    )


def mutate_equation_unknown(m: Model) -> None:
    cat(m, "c")["equations"].append([["f", "nope"], ["h"]])


def mutate_equation_not_composable(m: Model) -> None:
    cat(m, "c")["equations"].append([["g", "f"], ["h"]])


def mutate_equation_not_parallel(m: Model) -> None:
    cat(m, "c")["equations"].append([["f"], ["h"]])


def mutate_parent_missing(m: Model) -> None:
    cat(m, "d")["parent"] = "nope"


def mutate_parent_cycle(m: Model) -> None:
    cat(m, "c")["parent"] = "d"


def mutate_alias(m: Model) -> None:
    cat(m, "d")["aliases"] = ["SRC"]


def mutate_related(m: Model) -> None:
    cat(m, "d")["related"] = ["nope"]


def mutate_composite(m: Model) -> None:
    cat(m, "d")["morphisms"].append({"id": "t", "source": "z", "target": "x"})


def mutate_source_missing(m: Model) -> None:
    m["functors"][0]["sourceCategory"] = "nope"


def mutate_target_missing(m: Model) -> None:
    m["functors"][0]["targetCategory"] = "nope"


def mutate_object_unmapped(m: Model) -> None:
    del m["functors"][0]["objectMapping"]["cc"]


def mutate_object_target_missing(m: Model) -> None:
    m["functors"][0]["objectMapping"]["cc"] = "a"


def mutate_mapping_unknown_object(m: Model) -> None:
    m["functors"][0]["objectMapping"]["ghost"] = "x"


def mutate_mapping_unknown_morphism(m: Model) -> None:
    m["functors"][0]["morphismMapping"]["ghost"] = "u"


def mutate_morphism_unmapped(m: Model) -> None:
    del m["functors"][0]["morphismMapping"]["h"]


def mutate_image_unknown(m: Model) -> None:
    m["functors"][0]["morphismMapping"]["h"] = ["u", "nope"]


def mutate_image_not_composable(m: Model) -> None:
    m["functors"][0]["morphismMapping"]["h"] = ["v", "u"]


def mutate_not_typed(m: Model) -> None:
    m["functors"][0]["morphismMapping"]["h"] = ["u"]


def mutate_identity_not_preserved(m: Model) -> None:
    m["functors"][0]["morphismMapping"]["id-a"] = []
    m["functors"][0]["objectMapping"]["a"] = "y"
    m["functors"][0]["objectMapping"]["b"] = "y"
    m["functors"][0]["morphismMapping"]["f"] = []
    m["functors"][0]["morphismMapping"]["h"] = "v"
    m["functors"][0]["morphismMapping"]["id-a"] = "e"


def mutate_identity_unknown(m: Model) -> None:
    mutate_identity_not_preserved(m)
    cat(m, "d")["equations"].append([["e", "e"], []])


def mutate_equation_fails(m: Model) -> None:
    cat(m, "d")["equations"] = []


def mutate_equation_unknown_f(m: Model) -> None:
    """F(h) = w2 and F(f·g) = u·v live in two infinite, disjoint classes: undecidable here."""
    d = cat(m, "d")
    d["morphisms"] += [
        {"id": "w2", "source": "x", "target": "z"},
        {"id": "ez", "source": "z", "target": "z"},
    ]
    d["equations"] = [[["u"], ["u", "e"]], [["w2"], ["w2", "ez"]]]
    m["functors"][0]["morphismMapping"]["h"] = ["w2"]


def mutate_fun_not_checked(m: Model) -> None:
    cat(m, "c")["morphisms"].append({"id": "bad", "source": "a", "target": "nowhere"})


def mutate_nat_source(m: Model) -> None:
    m["naturalTransformations"][0]["sourceFunctor"] = "nope"


def mutate_nat_target(m: Model) -> None:
    m["naturalTransformations"][0]["targetFunctor"] = "nope"


def mutate_nat_parallel(m: Model) -> None:
    m["functors"].append({"id": "H", "sourceCategory": "d", "targetCategory": "d"})
    m["naturalTransformations"][0]["targetFunctor"] = "H"


def mutate_component_missing(m: Model) -> None:
    del m["naturalTransformations"][0]["components"]["cc"]


def mutate_component_unknown_object(m: Model) -> None:
    m["naturalTransformations"][0]["components"]["ghost"] = []


def mutate_component_unknown_morphism(m: Model) -> None:
    m["naturalTransformations"][0]["components"]["cc"] = ["ghost"]


def mutate_component_not_composable(m: Model) -> None:
    m["naturalTransformations"][0]["components"]["b"] = ["v", "u"]


def mutate_component_not_typed(m: Model) -> None:
    m["naturalTransformations"][0]["components"]["b"] = "v"


def mutate_square_fails(m: Model) -> None:
    m["naturalTransformations"][0]["components"]["b"] = "e"


def mutate_square_unknown(m: Model) -> None:
    m["naturalTransformations"][0]["components"]["b"] = "e"
    cat(m, "d")["equations"] += [[["u"], ["u", "e", "e"]], [["v"], ["e", "e", "v"]]]


def mutate_square_not_checked(m: Model) -> None:
    m["naturalTransformations"][0]["components"]["b"] = ["ghost"]


def mutate_suspect_link(m: Model) -> None:
    stamp = {"source": {"a": "0123456789abcdef"}, "target": {"b": "no-text"}}
    m["reviews"] = {"version": 1, "stamps": {"morphism:f": stamp}}


MUTATIONS: dict[Code, Callable[[Model], None]] = {
    Code.DUPLICATE_ID: mutate_duplicate,
    Code.SCHEMA_UNKNOWN_KEY: mutate_unknown_key,
    Code.OBJ_PATH_OUTSIDE_PROJECT: mutate_outside,
    Code.OBJ_FILE_MISSING: mutate_missing_file,
    Code.CAT_DANGLING_SOURCE: mutate_dangling_source,
    Code.CAT_DANGLING_TARGET: mutate_dangling_target,
    Code.CAT_IDENTITY_NOT_LOOP: mutate_identity_not_loop,
    Code.CAT_DUPLICATE_IDENTITY: mutate_duplicate_identity,
    Code.CAT_EQUATION_UNKNOWN_MORPHISM: mutate_equation_unknown,
    Code.CAT_EQUATION_NOT_COMPOSABLE: mutate_equation_not_composable,
    Code.CAT_EQUATION_NOT_PARALLEL: mutate_equation_not_parallel,
    Code.CAT_PARENT_MISSING: mutate_parent_missing,
    Code.CAT_PARENT_CYCLE: mutate_parent_cycle,
    Code.CAT_ALIAS_AMBIGUOUS: mutate_alias,
    Code.CAT_RELATED_MISSING: mutate_related,
    Code.CAT_COMPOSITE_MISSING: mutate_composite,
    Code.FUN_SOURCE_MISSING: mutate_source_missing,
    Code.FUN_TARGET_MISSING: mutate_target_missing,
    Code.FUN_OBJECT_UNMAPPED: mutate_object_unmapped,
    Code.FUN_OBJECT_TARGET_MISSING: mutate_object_target_missing,
    Code.FUN_MAPPING_UNKNOWN_OBJECT: mutate_mapping_unknown_object,
    Code.FUN_MAPPING_UNKNOWN_MORPHISM: mutate_mapping_unknown_morphism,
    Code.FUN_MORPHISM_UNMAPPED: mutate_morphism_unmapped,
    Code.FUN_IMAGE_UNKNOWN_MORPHISM: mutate_image_unknown,
    Code.FUN_IMAGE_NOT_COMPOSABLE: mutate_image_not_composable,
    Code.FUN_NOT_TYPED: mutate_not_typed,
    Code.FUN_IDENTITY_NOT_PRESERVED: mutate_identity_not_preserved,
    Code.FUN_IDENTITY_UNKNOWN: mutate_identity_unknown,
    Code.FUN_EQUATION_FAILS: mutate_equation_fails,
    Code.FUN_EQUATION_UNKNOWN: mutate_equation_unknown_f,
    Code.FUN_NOT_CHECKED: mutate_fun_not_checked,
    Code.NAT_SOURCE_FUNCTOR_MISSING: mutate_nat_source,
    Code.NAT_TARGET_FUNCTOR_MISSING: mutate_nat_target,
    Code.NAT_NOT_PARALLEL: mutate_nat_parallel,
    Code.NAT_COMPONENT_MISSING: mutate_component_missing,
    Code.NAT_COMPONENT_UNKNOWN_OBJECT: mutate_component_unknown_object,
    Code.NAT_COMPONENT_UNKNOWN_MORPHISM: mutate_component_unknown_morphism,
    Code.NAT_COMPONENT_NOT_COMPOSABLE: mutate_component_not_composable,
    Code.NAT_COMPONENT_NOT_TYPED: mutate_component_not_typed,
    Code.NAT_SQUARE_FAILS: mutate_square_fails,
    Code.NAT_SQUARE_UNKNOWN: mutate_square_unknown,
    Code.NAT_SQUARE_NOT_CHECKED: mutate_square_not_checked,
    Code.SUSPECT_LINK: mutate_suspect_link,
}


@pytest.mark.parametrize("code", list(MUTATIONS), ids=str)
def test_each_code_is_emitted_by_its_mutation(tmp_path: Path, code: Code) -> None:
    model = lawful()
    MUTATIONS[code](model)
    report = run(tmp_path, model)
    found = [f for f in [*report.errors, *report.warnings, *report.infos] if f.code == code]
    assert found, f"{code} not emitted:\n{render_report(report)}"
    assert all(f.severity == CODES[code].severity for f in found)
    assert all(f.message.endswith((".", "?")) for f in found)
    assert report.is_valid == (not report.errors)
    if CODES[code].severity == "error":
        assert not report.is_valid


def test_every_code_except_the_overflow_info_has_a_mutation() -> None:
    assert set(Code) - set(MUTATIONS) == {Code.CAT_COMPOSITE_MISSING_MORE}


def test_composite_lint_is_bounded_configurable_and_counts_the_rest(tmp_path: Path) -> None:
    model = lawful()
    hub = cat(model, "d")
    hub["objects"] += [{"id": f"s{i}"} for i in range(5)] + [{"id": f"t{i}"} for i in range(5)]
    hub["morphisms"] += [{"id": f"in{i}", "source": f"s{i}", "target": "y"} for i in range(5)]
    hub["morphisms"] += [{"id": f"out{i}", "source": "y", "target": f"t{i}"} for i in range(5)]
    limited = run(tmp_path, model, {"validation": {"maxCompositionWarnings": 3}})
    listed = [w for w in limited.warnings if w.code == Code.CAT_COMPOSITE_MISSING]
    more = [i for i in limited.infos if i.code == Code.CAT_COMPOSITE_MISSING_MORE]
    assert len(listed) == 3 and len(more) == 1
    # pairs (s_i, t_j), (s_i, z), (x, t_j): 25 + 5 + 5, minus the 3 listed
    assert "32 more" in more[0].message
    quiet = run(tmp_path, model, {"validation": {"compositionClosure": "info"}})
    assert not [w for w in quiet.warnings if w.code == Code.CAT_COMPOSITE_MISSING]
    assert [i for i in quiet.infos if i.code == Code.CAT_COMPOSITE_MISSING]
    off = run(tmp_path, model, {"validation": {"compositionClosure": "off"}})
    assert Code.CAT_COMPOSITE_MISSING not in codes(off)


def test_findings_carry_location_ids_and_context(tmp_path: Path) -> None:
    model = lawful()
    mutate_dangling_target(model)
    report = run(tmp_path, model)
    (finding,) = [f for f in report.errors if f.code == Code.CAT_DANGLING_TARGET]
    assert finding.location.startswith(".catdoc/category.yaml:")
    assert finding.ids == ["bad", "nowhere"] and finding.category == "c"
    line = int(finding.location.rsplit(":", 1)[1])
    text = (tmp_path / ".catdoc" / "category.yaml").read_text().splitlines()
    assert "bad" in text[line - 1]


def test_dangling_morphism_names_the_category_of_the_object(tmp_path: Path) -> None:
    model = lawful()
    mutate_dangling_source(model)
    (finding,) = [f for f in run(tmp_path, model).errors if f.code == Code.CAT_DANGLING_SOURCE]
    assert "object of category 'd'" in finding.message


def test_duplicate_names_both_places(tmp_path: Path) -> None:
    model = lawful()
    mutate_duplicate(model)
    (finding,) = [f for f in run(tmp_path, model).errors if f.code == Code.DUPLICATE_ID]
    assert finding.message.count(".catdoc/category.yaml:") == 2


def test_unknown_key_suggests_the_known_one(tmp_path: Path) -> None:
    model = lawful()
    mutate_unknown_key(model)
    model["extra"] = 1
    report = run(tmp_path, model, {"serach": {}})
    messages = [f.message for f in report.warnings if f.code == Code.SCHEMA_UNKNOWN_KEY]
    assert any("Did you mean 'title'?" in m for m in messages)
    assert any("top-level key 'extra'" in m for m in messages)
    assert any("Did you mean 'search'?" in m for m in messages)


def test_functor_laws_report_fails_and_unknown(tmp_path: Path) -> None:
    failing = lawful()
    mutate_identity_not_preserved(failing)
    mutate_equation_fails(failing)
    laws = {law.functor: law for law in run(tmp_path, failing).summary.functor_laws}
    assert (laws["F"].identity_preservation, laws["F"].composition_preservation) == (
        "fails",
        "holds",
    )
    assert (laws["G"].identity_preservation, laws["G"].composition_preservation) == (
        "holds",
        "fails",
    )
    unknown = lawful()
    mutate_equation_unknown_f(unknown)
    law = run(tmp_path, unknown).summary.functor_laws[0]
    assert (law.identity_preservation, law.composition_preservation) == ("holds", "unknown")
    text = render_report(run(tmp_path, unknown))
    assert "identity preservation holds, composition preservation unknown" in text


def test_thin_source_needs_parallel_paths_to_have_equal_images(tmp_path: Path) -> None:
    model = lawful()
    cat(model, "c")["semantics"] = "thin"
    cat(model, "c")["equations"] = []
    model["functors"][0]["morphismMapping"]["h"] = "w"
    cat(model, "d")["equations"] = []
    report = run(tmp_path, model)
    fails = [f for f in report.errors if f.code == Code.FUN_EQUATION_FAILS]
    assert fails and "thinness of 'c'" in fails[0].message
    cat(model, "d")["semantics"] = "thin"
    assert run(tmp_path, model).is_valid


def test_square_failure_names_generator_and_both_paths(tmp_path: Path) -> None:
    model = lawful()
    mutate_square_fails(model)
    report = run(tmp_path, model)
    messages = [f.message for f in report.errors if f.code == Code.NAT_SQUARE_FAILS]
    assert any("'f': a → b" in m and "[u, e]" in m and "[u]" in m for m in messages)


def test_scoped_runs_check_only_that_entity(tmp_path: Path) -> None:
    model = lawful()
    mutate_dangling_target(model)
    mutate_not_typed(model)
    mutate_component_missing(model)
    project = write(tmp_path, model)
    only_c = validate_project(project, category="c")
    assert codes(only_c) >= {Code.CAT_DANGLING_TARGET}
    assert not {c for c in codes(only_c) if c.startswith(("FUN_", "NAT_"))}
    assert only_c.summary.categories_checked == 1 and only_c.summary.functors_checked == 0
    only_f = validate_project(project, functor="F")
    assert {c for c in codes(only_f) if c.startswith("CAT_")} == set()
    assert Code.FUN_NOT_TYPED in codes(only_f) and only_f.summary.functor_laws[0].functor == "F"
    only_g = validate_project(project, functor="G")
    assert Code.FUN_NOT_TYPED not in codes(only_g)
    only_eta = validate_project(project, natural_transformation="eta")
    assert Code.NAT_COMPONENT_MISSING in codes(only_eta)
    assert Code.FUN_NOT_TYPED not in codes(only_eta)


@pytest.mark.parametrize(
    ("scope", "kind"),
    [("category", "Category"), ("functor", "Functor"), ("natural_transformation", "Natural")],
)
def test_unknown_scope_ids_are_not_found_with_suggestions(
    tmp_path: Path, scope: str, kind: str
) -> None:
    project = write(tmp_path, lawful())
    near = {"category": "cx", "functor": "FF", "natural_transformation": "etaa"}[scope]
    with pytest.raises(CatDocError) as exc:
        validate_project(project, **{scope: near})
    assert exc.value.code == NOT_FOUND and exc.value.message.startswith(kind)
    assert exc.value.suggestions


def test_render_report_groups_and_locates(tmp_path: Path) -> None:
    model = lawful()
    mutate_dangling_target(model)
    mutate_missing_file(model)
    text = render_report(run(tmp_path, model))
    assert text.index("Errors (") < text.index("Warnings (")
    assert ".catdoc/category.yaml:" in text and "  CAT_DANGLING_TARGET  " in text
    assert "INVALID" in text.splitlines()[-1]


ORIGINAL_FORMAT = """\
categories:
  - id: requirements
    name: Requirements
    objects:
      - id: req-auth
        title: Authentication
        domain: requirements
        content: Users must log in.
      - id: req-user
        title: User management
        domain: requirements
        content: Users have profiles.
    morphisms:
      - id: req-auth-uses-user
        name: depends-on
        source: req-auth
        target: req-user
      - id: id-req-auth
        name: id_req-auth
        source: req-auth
        target: req-auth
        metadata:
          isIdentity: true
      - id: id-req-user
        name: id_req-user
        source: req-user
        target: req-user
        metadata:
          isIdentity: true
  - id: design
    name: Design
    objects:
      - id: des-auth
        title: Auth service
        domain: design
        content: OAuth flow.
      - id: des-user
        title: User service
        domain: design
        content: CRUD API.
    morphisms:
      - id: des-auth-calls-user
        name: calls
        source: des-auth
        target: des-user
      - id: id-des-auth
        name: id_des-auth
        source: des-auth
        target: des-auth
        metadata:
          isIdentity: true
      - id: id-des-user
        name: id_des-user
        source: des-user
        target: des-user
        metadata:
          isIdentity: true
functors:
  - id: req-to-design
    name: Requirements to Design
    sourceCategory: requirements
    targetCategory: design
    objectMapping:
      req-auth: des-auth
      req-user: des-user
    morphismMapping:
      req-auth-uses-user: des-auth-calls-user
      id-req-auth: id-des-auth
      id-req-user: id-des-user
  - id: req-to-design-v2
    name: Requirements to Design (v2)
    sourceCategory: requirements
    targetCategory: design
    objectMapping:
      req-auth: des-auth
      req-user: des-user
    morphismMapping:
      req-auth-uses-user: des-auth-calls-user
      id-req-auth: id-des-auth
      id-req-user: id-des-user
naturalTransformations:
  - id: v1-to-v2
    name: v1 to v2
    sourceFunctor: req-to-design
    targetFunctor: req-to-design-v2
    components:
      req-auth: id-des-auth
      req-user: id-des-user
"""


def test_original_typescript_format_loads_and_validates_clean(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / ".catdoc" / "category.yaml").write_text(ORIGINAL_FORMAT)
    report = validate_project(load_project(tmp_path))
    assert report.is_valid and not report.warnings, render_report(report)
    assert [
        (law.identity_preservation, law.composition_preservation)
        for law in (report.summary.functor_laws)
    ] == [("holds", "holds")] * 2


def thin_model(images: dict[str, Any]) -> Model:
    """Thin C: r → a, two parallel a → b, and a cycle b → a; F into a free D."""
    return {
        "categories": [
            {
                "id": "c",
                "semantics": "thin",
                "objects": [{"id": "r"}, {"id": "a"}, {"id": "b"}],
                "morphisms": [
                    {"id": "ra", "source": "r", "target": "a"},
                    {"id": "ab1", "source": "a", "target": "b"},
                    {"id": "ab2", "source": "a", "target": "b"},
                    {"id": "ba", "source": "b", "target": "a"},
                ],
            },
            {
                "id": "d",
                "objects": [{"id": "x"}, {"id": "y"}],
                "morphisms": [
                    {"id": "u", "source": "x", "target": "y"},
                    {"id": "u2", "source": "x", "target": "y"},
                ],
            },
        ],
        "functors": [
            {
                "id": "F",
                "sourceCategory": "c",
                "targetCategory": "d",
                "objectMapping": {"r": "x", "a": "y", "b": "y"},
                "morphismMapping": images,
            }
        ],
    }


def test_thin_source_checks_relations_beyond_the_roots(tmp_path: Path) -> None:
    ok = thin_model({"ra": "u", "ab1": [], "ab2": [], "ba": []})
    assert run(tmp_path, ok).is_valid
    parallel = thin_model({"ra": "u", "ab1": [], "ab2": [], "ba": []})
    cat(parallel, "d")["morphisms"].append({"id": "l", "source": "y", "target": "y"})
    parallel["functors"][0]["morphismMapping"]["ab2"] = ["l"]
    report = run(tmp_path, parallel)
    assert [f.code for f in report.errors] == [Code.FUN_EQUATION_FAILS]
    assert report.summary.functor_laws[0].composition_preservation == "fails"


def test_thin_cycle_forces_identity_images(tmp_path: Path) -> None:
    model = thin_model({"ra": "u", "ab1": [], "ab2": [], "ba": []})
    model["categories"][0]["morphisms"].append({"id": "rr", "source": "r", "target": "r"})
    cat(model, "d")["morphisms"].append({"id": "xx", "source": "x", "target": "x"})
    model["functors"][0]["morphismMapping"]["rr"] = ["xx"]
    report = run(tmp_path, model)
    assert [f.code for f in report.errors] == [Code.FUN_EQUATION_FAILS]
    assert "thinness of 'c'" in report.errors[0].message


def test_symlinks_leaving_the_project_are_outside(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.md").write_text("x")
    root = tmp_path / "project"
    model = lawful()
    objects = cat(model, "c")["objects"]
    objects[0]["path"] = "docs/inside.md"
    objects[1]["path"] = "docs/link.md"
    objects[2]["path"] = "docs/ext/secret.md"
    project = write(root, model)
    (root / "docs" / "inside.md").symlink_to(root / "docs" / "a.md")
    (root / "docs" / "link.md").symlink_to(outside / "secret.md")
    (root / "docs" / "ext").symlink_to(outside, target_is_directory=True)
    report = validate_project(project)
    outside_ids = {f.ids[0] for f in report.errors if f.code == Code.OBJ_PATH_OUTSIDE_PROJECT}
    assert outside_ids == {"b", "cc"}
    assert Code.OBJ_FILE_MISSING not in codes(report)


def test_a_path_to_a_folder_or_fifo_says_what_is_there(tmp_path: Path) -> None:
    """Every entry that is not a regular file was "no such file exists"; show object knew."""
    model = lawful()
    objects = cat(model, "c")["objects"]
    objects[0]["path"] = "docs/folder.md"
    objects[1]["path"] = "docs/pipe.md"
    objects[2]["path"] = "docs/gone.md"
    project = write(tmp_path, model)
    (tmp_path / "docs" / "folder.md").mkdir()
    os.mkfifo(tmp_path / "docs" / "pipe.md")
    found = {f.ids[0]: f.message for f in validate_project(project).warnings}
    assert "'docs/folder.md', which is a folder, not a file." in found["a"]
    assert "'docs/pipe.md', which is a FIFO (named pipe), not a file." in found["b"]
    assert "no such file exists" in found["cc"]


def test_composite_lint_stops_at_its_work_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import catdoc.validate.categories as validate_module

    monkeypatch.setattr(validate_module, "CLOSURE_WORK_BUDGET", 2)
    model = lawful()
    chain = cat(model, "d")
    chain["objects"] += [{"id": f"n{i}"} for i in range(6)]
    chain["morphisms"] += [
        {"id": f"step{i}", "source": f"n{i}", "target": f"n{i + 1}"} for i in range(5)
    ]
    report = run(tmp_path, model, {"validation": {"maxCompositionWarnings": 0}})
    (more,) = [i for i in report.infos if i.code == Code.CAT_COMPOSITE_MISSING_MORE]
    assert "at least" in more.message


SCOPED = {
    "categories": [
        {
            "id": "C",
            "objects": [{"id": "a"}, {"id": "b"}],
            "morphisms": [{"id": "f", "source": "a", "target": "b"}],
        },
        {
            "id": "D",
            "objects": [{"id": "x"}, {"id": "y"}],
            "morphisms": [
                {"id": "g", "source": "x", "target": "y"},
                {"id": "h", "source": "y", "target": "x"},
            ],
        },
    ],
    "functors": [
        {
            "id": "F",
            "sourceCategory": "C",
            "targetCategory": "D",
            "objectMapping": {"a": "x", "b": "y"},
            "morphismMapping": {"f": "h"},
        },  # h goes y → x
        {
            "id": "G",
            "sourceCategory": "C",
            "targetCategory": "D",
            "objectMapping": {"a": "x", "b": "y"},
            "morphismMapping": {"f": "g"},
        },
    ],
    "naturalTransformations": [
        {"id": "eta", "sourceFunctor": "F", "targetFunctor": "G", "components": {"a": [], "b": []}},
    ],
}


def test_a_scoped_run_is_not_valid_over_what_it_could_not_check(tmp_path: Path) -> None:
    nat = run(tmp_path / "nat", SCOPED, natural_transformation="eta")
    assert not nat.is_valid  # F is no functor, so eta is no natural transformation
    assert codes(nat) == {"FUN_NOT_TYPED", "NAT_SQUARE_NOT_CHECKED"}
    broken = {
        **SCOPED,
        "categories": [
            {**SCOPED["categories"][0], "equations": [[["f"], ["nope"]]]},
            SCOPED["categories"][1],
        ],
    }
    fun = run(tmp_path / "fun", broken, functor="G")
    assert not fun.is_valid and "FUN_NOT_CHECKED" in codes(fun)
    assert {f.code for f in fun.errors} <= {c for c in codes(fun) if c.startswith("CAT_")}
    lawful_scope = run(tmp_path / "ok", lawful(), functor=lawful()["functors"][0]["id"])
    assert lawful_scope.is_valid and not lawful_scope.errors
