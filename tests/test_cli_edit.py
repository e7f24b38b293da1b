"""The edit commands (add, map, component, rm, mv) through the real entry point: what they write,
what they print, what they refuse (nothing written) and their exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.lock import project_lock
from catdoc.service import CatDoc

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "traceability"
MODEL = ".catdoc/category.yaml"

runner = CliRunner()


@pytest.fixture
def project(example_copy: Path) -> Path:
    return example_copy


def cli(project: Path, *args: str, color: bool = False):
    return runner.invoke(app, ["-C", str(project), *args], color=color)


def edit_json(project: Path, *args: str, code: int = 0) -> dict:
    result = cli(project, *args, "--format", "json")
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the project but derived data and the lock file, byte for byte."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
        and ".catdoc/cache" not in path.as_posix()
        and path.name != "lock"
        and "journal" not in path.name
    }


def refused(project: Path, *args: str, code: int, error: str) -> dict:
    """Run a command that must be refused: its exit code, its error code, nothing written."""
    before = snapshot(project)
    result = cli(project, *args, "--format", "json")
    assert result.exit_code == code, result.output
    body = json.loads(result.stderr)["error"]
    assert body["code"] == error, body
    assert result.stdout == ""
    assert snapshot(project) == before
    return body


def model(project: Path) -> str:
    return (project / MODEL).read_text(encoding="utf-8")


# --------------------------------------------------------------------------- add object
def test_add_object_writes_the_entry_and_the_document(project: Path) -> None:
    data = edit_json(
        project,
        *("add", "object", "REQ", "req-refund", "--title", "Refunds", "--tag", "payment"),
        *("--tag", "customer", "--meta", "priority=high", "--content", "# Refunds\n"),
        code=1,  # a new object the functor does not map yet: an error about what changed
    )
    assert data["id"] == "req-refund" and data["outcome"] == "created"
    assert data["files"] == [MODEL, "docs/requirements/req-refund.md"]
    assert data["valid"] is False and data["errors"] == 1
    assert data["findings"][0]["code"] == "FUN_OBJECT_UNMAPPED"
    assert data["version"] == CatDoc(project).version()
    text = model(project)
    assert "- id: req-refund\n        title: Refunds\n" in text
    obj = CatDoc(project).object("req-refund")
    assert obj.tags == ["payment", "customer"] and obj.metadata == {"priority": "high"}
    assert obj.path == "docs/requirements/req-refund.md"
    assert (project / "docs/requirements/req-refund.md").read_text() == "# Refunds\n"
    assert text.startswith("# Tillpoint checkout")  # comments kept


def test_tags_starting_with_a_colon_or_question_mark_are_written_as_given(project: Path) -> None:
    """ruamel writes `[: 0, ok]` for them in brackets, which reads back as a mapping: such a
    list is written one item a line."""
    tags = [": 0", "? why", "ok"]
    args = [arg for tag in tags for arg in ("--tag", tag)]
    data = edit_json(project, "add", "object", "REQ", "req-odd", "--title", "Odd", *args, code=1)
    assert data["outcome"] == "created" and data["findings"][0]["code"] == "FUN_OBJECT_UNMAPPED"
    assert CatDoc(project).object("req-odd").tags == tags


def test_add_object_then_map_it_is_valid_and_exits_0(project: Path) -> None:
    cli(project, "add", "object", "requirements", "req-refund", "--title", "Refunds")
    data = edit_json(project, "map", "specify", "req-refund", "spec-payment-api")
    assert data["valid"] is True and data["outcome"] == "updated"
    assert "      req-refund: spec-payment-api\n" in model(project)


def test_add_object_updates_given_fields_and_unsets(project: Path) -> None:
    edit_json(project, "add", "object", "requirements", "req-cart", "--summary", "Lines.")
    data = edit_json(
        project,
        *("add", "object", "requirements", "req-cart", "--unset", "author", "--meta", "k=v"),
    )
    assert data["outcome"] == "updated"
    obj = CatDoc(project).object("req-cart")
    assert obj.author is None and obj.summary == "Lines." and obj.metadata == {"k": "v"}
    assert obj.title == "Shopping cart"
    edit_json(project, "add", "object", "requirements", "req-cart", "--unset", "metadata.k")
    assert CatDoc(project).object("req-cart").metadata == {}


def test_add_object_content_file(project: Path, tmp_path: Path) -> None:
    source = tmp_path / "refund.md"
    source.write_text("# Refunds\n\nMoney back.\n", encoding="utf-8")
    edit_json(
        project,
        *("add", "object", "requirements", "req-refund", "--content-file", str(source)),
        *("--path", "docs/requirements/refund.md"),
        code=1,
    )
    assert (project / "docs/requirements/refund.md").read_text() == source.read_text()


def test_add_object_refusals_write_nothing(project: Path) -> None:
    refused(project, "add", "object", "nowhere", "x", code=2, error="NOT_FOUND")
    refused(project, "add", "object", "design", "req-cart", code=1, error="DUPLICATE_ID")
    refused(project, "add", "object", "requirements", "bad id!", code=2, error="VALIDATION_ERROR")
    refused(
        project,
        *("add", "object", "requirements", "x", "--path", "../outside.md"),
        code=2,
        error="PATH_OUTSIDE_PROJECT",
    )
    both = ("--content", "a", "--content-file", str(EXAMPLE / "README.md"))
    body = refused(
        project, "add", "object", "requirements", "x", *both, code=2, error="VALIDATION_ERROR"
    )
    assert "not both" in body["message"]
    refused(
        project,
        *("add", "object", "requirements", "x", "--unset", "colour"),
        code=2,
        error="VALIDATION_ERROR",
    )
    refused(
        project,
        *("add", "object", "requirements", "x", "--meta", "novalue"),
        code=2,
        error="VALIDATION_ERROR",
    )


# --------------------------------------------------------------------------- add morphism
def test_add_morphism_generates_an_id(project: Path) -> None:
    data = edit_json(
        project,
        "add",
        "morphism",
        "requirements",
        "req-cart",
        "req-payment",
        "--name",
        "uses",
        code=1,  # specify does not map it yet
    )
    assert data["id"] == "req-cart-uses-req-payment" and data["outcome"] == "created"
    assert [c["kind"] for c in data["changes"]] == ["morphism"]
    assert CatDoc(project).morphism("req-cart-uses-req-payment").target == "req-payment"


def test_add_morphism_refusals(project: Path) -> None:
    body = refused(
        project,
        *("add", "morphism", "requirements", "req-cart", "spec-cart-api"),
        code=1,
        error="CAT_DANGLING_TARGET",
    )
    assert "functor mapping" in body["hint"]
    refused(
        project,
        *(
            "add",
            "morphism",
            "requirements",
            "req-cart",
            "req-payment",
            "--id",
            "checkout-depends-on-cart",
        ),
        code=1,
        error="DUPLICATE_ID",
    )


# --------------------------------------------------------------------------- headers
def test_add_category_functor_and_transformation(project: Path) -> None:
    data = edit_json(
        project,
        "add",
        "category",
        "audits",
        "--name",
        "Audits",
        "--parent",
        "requirements",
        "--semantics",
        "thin",
        "--alias",
        "AUD",
    )
    assert data["outcome"] == "created"
    cat = CatDoc(project).category("aud")
    assert (cat.id, cat.parent, cat.semantics) == ("audits", "requirements", "thin")
    assert (
        edit_json(project, "add", "category", "audits", "--unset", "parent")["outcome"] == "updated"
    )
    assert CatDoc(project).category("audits").parent is None

    data = edit_json(project, "add", "functor", "audit", "--from", "reqs", "--to", "audits", code=1)
    assert data["outcome"] == "created" and data["errors"] >= 1  # nothing mapped yet
    functor = CatDoc(project).functor("audit")
    assert (functor.source_category, functor.target_category) == ("requirements", "audits")
    edit_json(
        project, "add", "functor", "audit2", "--from", "requirements", "--to", "audits", code=1
    )

    data = edit_json(
        project, "add", "transformation", "a2", "--from", "audit", "--to", "audit2", code=1
    )
    assert data["outcome"] == "created"
    data = edit_json(project, "add", "transformation", "a2", "--name", "renamed", code=1)
    assert data["outcome"] == "updated"
    assert CatDoc(project).natural_transformation("a2").name == "renamed"


def test_header_refusals(project: Path) -> None:
    refused(
        project, "add", "functor", "f", "--from", "requirements", code=2, error="VALIDATION_ERROR"
    )
    refused(
        project,
        "add",
        "functor",
        "f",
        "--from",
        "nope",
        "--to",
        "design",
        code=2,
        error="NOT_FOUND",
    )
    refused(
        project,
        "add",
        "transformation",
        "t",
        "--from",
        "specify",
        "--to",
        "architect",
        code=1,
        error="NAT_NOT_PARALLEL",
    )
    refused(
        project,
        "add",
        "category",
        "c",
        "--file",
        ".catdoc/config.yaml",
        code=2,
        error="VALIDATION_ERROR",
    )
    result = cli(project, "add", "category", "c", "--semantics", "loose")
    assert result.exit_code == 2


# --------------------------------------------------------------------------- map, component
def test_map_morphism_to_a_path_an_id_and_the_identity(project: Path) -> None:
    steps = ["receipt-worker-subscribes-checkout", "checkout-flow-calls-payment"]
    for written in (",".join(steps), ".".join(steps)):
        data = edit_json(project, "map", "architect", "spec-receipt-refs-payment", written)
        mapping = CatDoc(project).functor("architect").morphism_mapping
        assert mapping["spec-receipt-refs-payment"] == steps and data["valid"] is True
    edit_json(
        project, "map", "architect", "spec-receipt-refs-payment", "receipt-worker-reads-payment"
    )
    assert snapshot(project) == snapshot(EXAMPLE)
    edit_json(project, "map", "end-to-end", "checkout-imports-cart", "--remove", code=1)
    edit_json(project, "map", "end-to-end", "checkout-imports-cart", "id")
    assert CatDoc(project).functor("end-to-end").morphism_mapping["checkout-imports-cart"] == []


def test_map_remove_and_usage(project: Path) -> None:
    data = edit_json(project, "map", "specify", "req-cart", "--remove", code=1)
    assert data["findings"][0]["code"] == "FUN_OBJECT_UNMAPPED"
    assert "req-cart: spec-cart-api" not in model(project)
    before = snapshot(project)
    both = cli(project, "map", "specify", "req-cart", "spec-cart-api", "--remove")
    neither = cli(project, "map", "specify", "req-cart")
    assert both.exit_code == 2 and neither.exit_code == 2
    assert snapshot(project) == before
    refused(
        project,
        "map",
        "specify",
        "req-cart",
        "design-cart-service",
        code=1,
        error="FUN_OBJECT_TARGET_MISSING",
    )
    refused(
        project,
        "map",
        "specify",
        "spec-cart-api",
        "req-cart",
        code=1,
        error="FUN_MAPPING_UNKNOWN_OBJECT",
    )
    refused(
        project,
        "map",
        "specify",
        "checkout-depends-on-cart",
        "nope.nothing",
        code=1,
        error="FUN_IMAGE_UNKNOWN_MORPHISM",
    )
    refused(project, "map", "nofunctor", "req-cart", "spec-cart-api", code=2, error="NOT_FOUND")


def test_component_set_identity_and_remove(project: Path) -> None:
    nat = "unit-gates-e2e"
    data = edit_json(project, "component", nat, "impl-cart-module", "--remove", code=1)
    assert data["outcome"] == "updated"
    assert "impl-cart-module" not in CatDoc(project).natural_transformation(nat).components
    edit_json(project, "component", nat, "impl-cart-module", "cart-unit-gates-e2e")
    assert CatDoc(project).natural_transformation(nat).components["impl-cart-module"] == (
        "cart-unit-gates-e2e"
    )
    refused(
        project,
        "component",
        nat,
        "impl-cart-module",
        "nope",
        code=1,
        error="NAT_COMPONENT_UNKNOWN_MORPHISM",
    )
    refused(
        project, "component", nat, "req-cart", "[]", code=1, error="NAT_COMPONENT_UNKNOWN_OBJECT"
    )


@pytest.mark.parametrize("written", [",", ",,", ".", "f,", ",f", "a,,b", " . "])
def test_a_path_with_an_empty_step_is_refused(project: Path, written: str) -> None:
    """Only `[]` and `id` are the identity: `,` `,,` `.` were taken for it (empty steps
    dropped)."""
    body = refused(
        project,
        "map",
        "end-to-end",
        "checkout-imports-cart",
        written,
        code=2,
        error="VALIDATION_ERROR",
    )
    assert "has an empty step" in body["message"] and "[] or id" in body["hint"]
    refused(
        project,
        "component",
        "unit-gates-e2e",
        "impl-cart-module",
        written,
        code=2,
        error="VALIDATION_ERROR",
    )


# --------------------------------------------------------------------------- rm, mv
def test_rm_in_use_is_refused_then_cascades(project: Path) -> None:
    body = refused(project, "rm", "req-cart", code=1, error="IN_USE")
    assert "--cascade" in body["hint"]
    data = edit_json(project, "rm", "req-cart", "--cascade")
    kinds = {(c["kind"], c["action"]) for c in data["changes"]}
    assert ("object", "removed") in kinds and ("morphism", "removed") in kinds
    assert "- id: req-cart\n" not in model(project) and "req-cart:" not in model(project)
    refused(project, "rm", "req-cart", code=2, error="NOT_FOUND")


def test_rm_unused_morphism(project: Path) -> None:
    edit_json(project, "add", "morphism", "requirements", "req-cart", "req-payment", code=1)
    data = edit_json(project, "rm", "req-cart-to-req-payment")
    assert data["outcome"] == "removed" and data["valid"] is True
    assert snapshot(project) == snapshot(EXAMPLE)


def test_mv_updates_every_reference_and_back(project: Path) -> None:
    data = edit_json(project, "mv", "req-cart", "req-basket")
    assert data["outcome"] == "renamed" and data["id"] == "req-basket"
    text = model(project)
    assert "req-cart" not in text.replace("req-cart-", "")
    assert "req-basket: spec-cart-api" in text and "target: req-basket" in text
    edit_json(project, "mv", "req-basket", "req-cart")
    assert snapshot(project) == snapshot(EXAMPLE)
    body = refused(project, "mv", "req-cart", "req-payment", code=1, error="DUPLICATE_ID")
    assert body["message"].startswith("An object with id 'req-payment' already exists")
    refused(project, "mv", "req-nothing", "x", code=2, error="NOT_FOUND")


@pytest.mark.parametrize("ident", ["req-cart", "checkout-depends-on-cart", "specify"])
def test_mv_to_the_same_id_changes_nothing_and_exits_0(project: Path, ident: str) -> None:
    """Nothing to change is status 0 (it was a VALIDATION_ERROR with an empty hint)."""
    result = cli(project, "mv", ident, ident)
    assert result.exit_code == 0, result.output
    assert "Nothing changed" in result.stdout
    data = edit_json(project, "mv", ident, ident)
    assert data["outcome"] == "unchanged" and data["files"] == []
    assert snapshot(project) == snapshot(EXAMPLE)
    refused(project, "mv", "req-nothing", "req-nothing", code=2, error="NOT_FOUND")


# --------------------------------------------------------------------------- versions, lock
def test_expect_version(project: Path) -> None:
    version = CatDoc(project).version()
    stale = edit_json(project, "add", "object", "requirements", "req-cart", "--summary", "S")
    assert stale["version"] != version
    body = refused(
        project,
        "add",
        "object",
        "requirements",
        "req-cart",
        "--summary",
        "T",
        "--expect-version",
        version,
        code=1,
        error="CONFLICT",
    )
    assert "nothing was changed" in body["message"]
    data = edit_json(
        project, "rm", "receipt-depends-on-cart", "--cascade", "--expect-version", stale["version"]
    )
    assert data["outcome"] == "removed"


def test_busy_when_another_writer_holds_the_lock(project: Path) -> None:
    config = project / ".catdoc/config.yaml"
    config.write_text(config.read_text() + "edit:\n  lockTimeout: 0.2\n")
    with project_lock(project):
        body = refused(project, "mv", "req-cart", "req-basket", code=1, error="BUSY")
    assert "nothing was changed" in body["message"]


# --------------------------------------------------------------------------- text output
def test_text_output_names_changes_files_and_findings(project: Path) -> None:
    result = cli(project, "add", "object", "requirements", "req-refund", "--title", "R", color=True)
    assert result.exit_code == 1
    out = result.stdout
    assert "Created object req-refund (in requirements)" in out
    assert f"Files written: {MODEL}" in out and "Version: " in out
    assert "\x1b[31m" in out and "FUN_OBJECT_UNMAPPED" in out  # the error in red
    again = cli(project, "add", "object", "requirements", "req-refund", "--title", "R")
    assert again.exit_code == 0 and "Nothing changed" in again.stdout
    plain = cli(project, "mv", "req-refund", "req-refunds")
    assert "\x1b[" not in plain.stdout and "Renamed object req-refunds" in plain.stdout


def test_text_refusal_goes_to_stderr(project: Path) -> None:
    result = cli(project, "rm", "req-cart")
    assert result.exit_code == 1 and "Error:" in result.stderr and "IN_USE" not in result.stdout


# --------------------------------------------------------------------------- a real process
def test_subprocess_add_and_rm(project: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    command = [sys.executable, "-m", "catdoc", "-C", str(project)]
    added = subprocess.run(
        [*command, "add", "morphism", "reqs", "req-cart", "req-payment", "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert added.returncode == 1, added.stderr
    assert json.loads(added.stdout)["id"] == "req-cart-to-req-payment"
    removed = subprocess.run(
        [*command, "rm", "req-cart-to-req-payment"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert removed.returncode == 0, removed.stderr
    assert "Removed morphism req-cart-to-req-payment" in removed.stdout
    assert snapshot(project) == snapshot(EXAMPLE)


def test_content_written_over_a_changed_document_is_a_conflict(project: Path) -> None:
    shown = json.loads(cli(project, "show", "object", "req-cart", "--format", "json").stdout)
    seen = shown["contentVersion"]
    edit_json(project, "add", "object", "requirements", "req-cart", "--content", "Theirs.\n")
    body = refused(
        project,
        *("add", "object", "requirements", "req-cart", "--content", "Mine.\n"),
        *("--expect-content-version", seen),
        code=1,
        error="CONFLICT",
    )
    assert "changed since contentVersion" in body["message"]
    now = json.loads(cli(project, "show", "object", "req-cart", "--format", "json").stdout)
    data = edit_json(
        project,
        *("add", "object", "requirements", "req-cart", "--content", "Mine.\n"),
        *("--expect-content-version", now["contentVersion"]),
    )
    assert data["outcome"] == "updated"


def test_an_id_two_kinds_share_is_named_with_kind(project: Path) -> None:
    edit_json(project, "mv", "specify", "requirements")  # a functor with a category's id
    body = refused(project, "rm", "requirements", code=2, error="VALIDATION_ERROR")
    assert "names a category and a functor" in body["message"]
    assert "--kind category or --kind functor" in body["hint"]
    refused(project, "mv", "requirements", "x", code=2, error="VALIDATION_ERROR")
    refused(project, "rm", "requirements", "--kind", "object", code=2, error="NOT_FOUND")
    renamed = edit_json(project, "mv", "requirements", "specify", "--kind", "functor")
    assert renamed["changes"][0]["kind"] == "functor"
    assert "specify" in {f["id"] for f in edit_json(project, "list", "functors")["functors"]}
    assert "requirements" in {
        c["id"] for c in edit_json(project, "list", "categories")["categories"]
    }


@pytest.mark.parametrize(
    "args",
    [
        ("add", "functor", "a:object:b", "--from", "requirements", "--to", "specifications"),
        ("mv", "specify", "specify:v1"),
    ],
)
def test_functor_ids_may_not_hold_the_link_key_separator(project: Path, args: tuple) -> None:
    body = refused(project, *args, code=2, error="VALIDATION_ERROR")
    assert "may not contain ':'" in body["message"]
