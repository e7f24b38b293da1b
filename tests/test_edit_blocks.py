"""An entry read key by key from yaml-rs data (`_read_by_blocks`) is edited and written exactly
as the same entry read by ruamel's round trip."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from ruamel.yaml.scalarstring import DoubleQuotedScalarString
from test_edit_properties import Step, run, steps

from catdoc.edit import entries as entries_module
from catdoc.edit.entries import _read_by_blocks, roundtrip_yaml

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"
QUOTED = """\
  - id: f
    name: "A \\u2192 B"
    sourceCategory: requirements
    targetCategory: specifications
    objectMapping:
      req-cart: spec-cart-api
      req-payment: spec-payment-api
    morphismMapping:
      checkout-depends-on-cart: [spec-checkout-refs-cart]
      receipt-depends-on-cart: []
      receipt-depends-on-payment: spec-receipt-refs-payment
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("blocks") / "project"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("cache"))
    model = target / ".catdoc" / "category.yaml"
    text = model.read_text(encoding="utf-8")
    model.write_text(text.replace("\nfunctors:\n", "\nfunctors:\n" + QUOTED, 1), encoding="utf-8")
    return target


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=steps)
def test_entries_read_by_blocks_are_written_as_ruamel_read_ones(
    root: Path, plan: list[Step]
) -> None:
    fast = run(root, plan)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(entries_module, "_read_by_blocks", lambda piece: None)
        slow = run(root, plan)
    assert fast == slow


def test_a_functor_is_read_by_blocks_and_equals_ruamel_reading() -> None:
    node = _read_by_blocks(QUOTED)
    assert node is not None
    assert type(node["name"]) is DoubleQuotedScalarString  # its block was read by ruamel
    assert node == roundtrip_yaml().load("f:\n" + QUOTED)["f"][0]
    assert node["morphismMapping"]["checkout-depends-on-cart"].fa.flow_style()
    assert type(node["objectMapping"]) is type(node)  # built from yaml-rs data


@pytest.mark.parametrize(
    "piece",
    [
        QUOTED.replace("spec-cart-api\n", "spec-cart-api  # why\n"),
        QUOTED.replace("spec-cart-api\n", "spec-cart-api\n\n"),
        "  - {id: f, name: g}\n",
        QUOTED + "    id: again\n",
    ],
    ids=["comment", "blank line", "flow", "repeated key"],
)
def test_what_ruamel_keeps_on_nodes_goes_to_ruamel(piece: str) -> None:
    assert _read_by_blocks(piece) is None
