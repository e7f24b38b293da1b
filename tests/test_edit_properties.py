"""Property: random sequences of edit operations give the same model whether a file is edited
entry by entry (the fast cut) or whole, the result is a valid model file, and entries the
operations did not touch keep their text byte for byte."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml_rs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catdoc.edit import ModelEdit
from catdoc.edit import entries as entries_module
from catdoc.edit.entries import EntryFile
from catdoc.edit.layout import Unfit
from catdoc.errors import CatDocError
from catdoc.model import ModelFile
from catdoc.project import load_project

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"

Step = tuple[str, int, int, int]
steps = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "add_object",
                "add_morphism",
                "map",
                "unmap",
                "rename",
                "remove",
                "header",
                "component",
            ]
        ),
        st.integers(0, 10_000),
        st.integers(0, 10_000),
        st.integers(0, 10_000),
    ),
    min_size=1,
    max_size=6,
)


def pick(items: list[str], n: int) -> str:
    return sorted(items)[n % len(items)]


def apply(edit: ModelEdit, plan: list[Step]) -> None:
    """Apply each step with arguments chosen from the model as it stands; stop at a refusal."""
    index = edit._index
    for number, (op, a, b, c) in enumerate(plan):
        objects_of: dict[str, list[str]] = {}
        for obj, cat in index.object_category.items():
            objects_of.setdefault(cat, []).append(obj)
        cats = sorted(objects_of)
        cat = pick(cats, a)
        try:
            if op == "add_object":
                edit.upsert_object(cat, f"new-{number}-{a}", {"title": f"New {b}", "tags": ["x"]})
            elif op == "add_morphism":
                edit.add_morphism(
                    cat, pick(objects_of[cat], b), pick(objects_of[cat], c), name="relates-to"
                )
            elif op in ("map", "unmap"):
                fun = pick(list(index.functors), a)
                source, target = index.functors[fun]
                src = pick(objects_of[source], b)
                tgt = None if op == "unmap" else pick(objects_of[target], c)
                edit.set_mapping(fun, objects={src: tgt})
            elif op == "component":
                nat = pick(list(index.nats), a)
                source_cat = index.functors[index.nats[nat][0]][0]
                edit.set_components(nat, {pick(objects_of[source_cat], b): None})
            elif op == "rename":
                edit.rename(pick(list(index.object_category), b), f"renamed-{number}-{b}")
            elif op == "remove":
                edit.remove_object(pick(list(index.object_category), b), cascade=True)
            elif op == "header":
                edit.upsert_category(cat, {"description": f"Described {b}"})
        except CatDocError:
            return


def run(root: Path, plan: list[Step]) -> dict[str, str]:
    edit = ModelEdit(load_project(root))
    apply(edit, plan)
    return edit.rendered()


SPARSE = """\
  - id: notes   # a category with no morphisms yet
    name: Notes
    objects:
      - id: note-a
        title: Note A
      - id: note-b
        title: Note B
    related: []
"""


@pytest.fixture(scope="module", params=["example", "sparse"])
def root(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example project; "sparse" adds lists still to be opened: a category without
    `morphisms` and `naturalTransformations: []`."""
    target = tmp_path_factory.mktemp("props") / "project"
    shutil.copytree(EXAMPLE, target)
    if request.param == "sparse":
        model = target / ".catdoc" / "category.yaml"
        text = model.read_text(encoding="utf-8").replace("\nfunctors:\n", f"{SPARSE}\nfunctors:\n")
        model.write_text(text + "naturalTransformations: []  # none yet\n", encoding="utf-8")
    return target


def _uncuttable(text: str) -> Any:
    raise Unfit


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=steps)
def test_cut_and_whole_file_edits_mean_the_same(root: Path, plan: list[Step]) -> None:
    whole_loads: list[str] = []
    real_load_whole = EntryFile._load_whole

    def counting(self: EntryFile) -> None:
        whole_loads.append(self.rel)
        real_load_whole(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(EntryFile, "_load_whole", counting)
        cut = run(root, plan)
    assert not whole_loads, "the example's files are cut by their lines, never edited whole"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(entries_module, "_cuts", _uncuttable)
        whole = run(root, plan)
    assert cut.keys() == whole.keys()
    for rel, text in cut.items():
        data = yaml_rs.loads(text)
        assert data == yaml_rs.loads(whole[rel])
        ModelFile.model_validate(data)
        original = (root / rel).read_text(encoding="utf-8")
        before, after = yaml_rs.loads(original), data
        for section in ("categories", "functors", "naturalTransformations"):
            kept = [e for e in before.get(section) or [] if e in (after.get(section) or [])]
            for entry in kept:  # an entry whose data did not change kept its exact text
                block = f"- id: {entry['id']}\n"
                if block in original:
                    start = original.index(block)
                    assert original[start : start + len(block)] in text
