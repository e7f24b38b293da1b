"""The shipped examples load, validate clean, and are as rich as the README says."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
import yaml

from catdoc.service import CatDoc

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CLEAN = ["traceability", "math"]


@pytest.mark.parametrize("name", CLEAN)
def test_example_validates_clean(name: str) -> None:
    report = CatDoc(EXAMPLES / name).validate()
    assert report.is_valid, [f.message for f in report.errors]
    assert not report.warnings, [f.message for f in report.warnings]
    assert all(
        law.identity_preservation == "holds" and law.composition_preservation == "holds"
        for law in report.summary.functor_laws
    )


def test_traceability_has_the_promised_structure() -> None:
    project = CatDoc(EXAMPLES / "traceability").project()
    assert [c.id for c in project.categories] == [
        "requirements",
        "specifications",
        "design",
        "implementation",
        "tests",
    ]
    layers = [c.id for c in project.categories]
    consecutive = {(f.source_category, f.target_category) for f in project.functors}
    assert set(itertools.pairwise(layers)) <= consecutive
    assert len(project.natural_transformations) >= 1
    assert sum(len(c.equations) for c in project.categories) >= 1
    for cat in project.categories:
        assert cat.morphisms and all(m.name for m in cat.morphisms), "typed morphisms"
    assert len(project.files) == 2, "category.yaml and categories/tests.yaml are merged"


def _front_matter(text: str) -> dict[str, object]:
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert match, "the document starts with front matter"
    return yaml.safe_load(match.group(1))


def test_traceability_documents_are_real_and_consistent() -> None:
    root = EXAMPLES / "traceability"
    project = CatDoc(root).project()
    docs = sorted((root / "docs").rglob("*.md"))
    assert len(docs) >= 15
    by_path = {o.path: o for o in project.object_by_id.values() if o.path}
    assert {d.relative_to(root).as_posix() for d in docs} == set(by_path)
    for doc in docs:
        text = doc.read_text(encoding="utf-8")
        front = _front_matter(text)
        obj = by_path[doc.relative_to(root).as_posix()]
        assert front["id"] == obj.id and front["title"] == obj.title
        assert len(text.split()) >= 60, f"{doc.name} has real content"
        for ref in re.findall(r"(?<![\w.])@([a-z0-9][\w-]*)", text):
            assert ref in project.object_by_id, f"{doc.name}: @{ref} names no object"


def test_math_example_uses_equations_for_naturality() -> None:
    doc = CatDoc(EXAMPLES / "math")
    project = doc.project()
    assert {f.id for f in project.functors} == {"U", "V", "const-1"}
    detail = doc.show_natural_transformation("bang")
    assert [e.status for e in detail.components] == ["ok", "ok", "ok"]
    assert all(c.semantics == "free" for c in project.categories)
