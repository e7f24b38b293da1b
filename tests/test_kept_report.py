"""The kept report: an unchanged project's next whole run gives the last report without loading
anything, and any change to what a report depends on makes it check everything again."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.project import load_project
from catdoc.service import CatDoc
from catdoc.validate import Report, kept_report, validate_project
from catdoc.validate import kept as kept_module

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "traceability"
DOC = "docs/specifications/checkout-api.md"
MODEL = ".catdoc/category.yaml"


@pytest.fixture
def root(example_copy: Path) -> Path:
    return example_copy


def without_time(report: Report) -> dict[str, object]:
    return report.model_dump(exclude={"timestamp"})


def fresh(root: Path) -> dict[str, object]:
    """The report of a full run, nothing kept involved."""
    return without_time(validate_project(load_project(root)))


def second_run(root: Path) -> tuple[Report, bool]:
    """(a new service's whole report, whether it loaded the model to make it)."""
    svc = CatDoc(root)
    report = svc.validate()
    return report, svc.held() is not None


def test_an_unchanged_project_is_not_loaded_again(root: Path) -> None:
    first = CatDoc(root).validate()
    assert (root / ".catdoc/cache/report.json").is_file()
    again, loaded = second_run(root)
    assert not loaded
    assert without_time(again) == without_time(first) == fresh(root)
    assert again.timestamp >= first.timestamp, "a kept report gets the time of this run"


def edit_in_place(root: Path) -> None:
    """Same size, same modification time: only the contents' digest sees it."""
    path = root / MODEL
    before = path.stat()
    text = path.read_text()
    path.write_text(text.replace("target: spec-checkout-api", "target: spec-checkout-apj", 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size


def symlink_out(root: Path) -> None:
    outside = root.parent / "outside.md"
    outside.write_text("# elsewhere\n")
    (root / DOC).unlink()
    (root / DOC).symlink_to(outside)


def a_folder(root: Path) -> None:
    (root / DOC).unlink()
    (root / DOC).mkdir()


UNKNOWN_SETTING = "colour: blue\n"


def toggle_setting(root: Path) -> None:
    """An unknown setting in config.yaml is a warning: add one, or take it away."""
    config = root / ".catdoc/config.yaml"
    text = config.read_text()
    config.write_text(
        text.replace(UNKNOWN_SETTING, "") if UNKNOWN_SETTING in text else text + UNKNOWN_SETTING
    )


def reviews_on(root: Path) -> None:
    (root / ".catdoc/reviews.yaml").write_text("version: 1\nstamps: {}\n")


def new_code(root: Path) -> None:
    forged(root, lambda entry: entry.update(code="0" * 32))


CHANGES: dict[str, Callable[[Path], None]] = {
    "model edited in place": edit_in_place,
    "document deleted": lambda root: (root / DOC).unlink(),
    "document replaced by a folder": a_folder,
    "document replaced by a symlink out of the project": symlink_out,
    "config changed": toggle_setting,
    "reviews turned on": reviews_on,
    "CatDoc's code changed": new_code,
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_each_thing_a_report_depends_on_makes_a_full_run(
    root: Path, change: Callable[[Path], None]
) -> None:
    before = CatDoc(root).validate()
    change(root)
    again, loaded = second_run(root)
    assert loaded
    assert without_time(again) == fresh(root)
    assert change is new_code or without_time(again) != without_time(before)
    assert second_run(root)[1] is (change is reviews_on), "the new report is kept, if it may be"


def test_a_missing_document_created_since_is_seen(root: Path) -> None:
    (root / DOC).rename(root / "moved.md")
    assert CatDoc(root).validate().warnings
    (root / "moved.md").rename(root / DOC)
    again, loaded = second_run(root)
    assert loaded and not again.warnings


def test_a_report_kept_in_another_checkout_is_not_used(root: Path, tmp_path: Path) -> None:
    CatDoc(root).validate()
    other = tmp_path / "other"
    shutil.copytree(root, other)  # the kept report comes along, with the same times
    (other / DOC).unlink()
    _, loaded = second_run(other)
    assert loaded


def test_the_exit_status_and_output_come_from_the_kept_report(root: Path) -> None:
    (root / DOC).unlink()
    edit_in_place(root)  # a morphism to an object that does not exist: an error
    runner = CliRunner()
    first = runner.invoke(app, ["-C", str(root), "validate"])
    second = runner.invoke(app, ["-C", str(root), "validate"])
    assert first.exit_code == second.exit_code == 1
    assert first.stdout == second.stdout and "CAT_DANGLING_TARGET" in second.stdout
    assert "OBJ_FILE_MISSING" in second.stdout


def test_the_code_digest_follows_every_module_of_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "catdoc"
    (package / "validate").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    module = package / "validate" / "checks.py"
    module.write_text("A = 1\n")
    monkeypatch.setattr(kept_module.catdoc, "__file__", str(package / "__init__.py"))
    digests = []
    for edit in (lambda: None, lambda: module.write_text("A = 22\n"), lambda: module.unlink()):
        edit()
        kept_module.code_digest.cache_clear()
        digests.append(kept_module.code_digest())
    kept_module.code_digest.cache_clear()
    assert len(set(digests)) == 3


def entry(root: Path) -> Path:
    return root / ".catdoc/cache/report.json"


def forged(root: Path, mutate: Callable[[dict[str, object]], None]) -> None:
    data = json.loads(entry(root).read_text())
    mutate(data)
    entry(root).write_text(json.dumps(data))


def fifo(root: Path) -> None:
    entry(root).unlink()
    os.mkfifo(entry(root))


def symlinked(root: Path) -> None:
    outside = root.parent / "report.json"
    shutil.copy(entry(root), outside)
    entry(root).unlink()
    entry(root).symlink_to(outside)


def cache_elsewhere(root: Path) -> None:
    outside = root.parent / "cache"
    shutil.copytree(root / ".catdoc/cache", outside)
    shutil.rmtree(root / ".catdoc/cache")
    (root / ".catdoc/cache").symlink_to(outside)


HOSTILE: dict[str, Callable[[Path], None]] = {
    "garbage": lambda root: entry(root).write_bytes(b"\0\xff{not json"),
    "a list": lambda root: entry(root).write_text("[1, 2]"),
    "deep nesting": lambda root: entry(root).write_text("[" * 100_000 + "]" * 100_000),
    "a FIFO": fifo,
    "a symlink out": symlinked,
    "the cache folder a symlink out": cache_elsewhere,
    "a report that is no report": lambda root: forged(root, lambda d: d.update(report=[1])),
    "paths that are no list": lambda root: forged(root, lambda d: d.update(paths={"a": 1})),
    "a path that is no text": lambda root: forged(root, lambda d: d.update(paths=[1])),
    "another format": lambda root: forged(root, lambda d: d.update(format=0)),
}


@pytest.mark.parametrize("spoil", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_spoilt_kept_report_is_ignored(root: Path, spoil: Callable[[Path], None]) -> None:
    CatDoc(root).validate()
    spoil(root)
    assert kept_report(root) is None
    again, loaded = second_run(root)
    assert loaded and without_time(again) == fresh(root)


def test_a_forged_valid_report_is_not_taken_for_a_broken_model(root: Path) -> None:
    """What a kept report says is believed only for the model it was made from."""
    CatDoc(root).validate()
    kept = entry(root).read_text()
    edit_in_place(root)
    entry(root).write_text(kept)
    again, _ = second_run(root)
    assert not again.is_valid


# Each step changes the project the way a person might; after each, a run that may take the
# kept report gives exactly what a full run gives.
STEPS: dict[str, Callable[[Path], None]] = {
    "delete a document": lambda root: (root / DOC).unlink(missing_ok=True),
    "restore the document": lambda root: (root / DOC).write_text("# Checkout API\n"),
    "edit the model in place": edit_in_place,
    "change the config": toggle_setting,
    "nothing": lambda root: None,
}


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=6))
def test_a_kept_report_is_always_what_a_full_run_gives(tmp_path: Path, steps: list[str]) -> None:
    root = tmp_path / f"proj-{len(list(tmp_path.iterdir()))}"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("cache"))
    for step in steps:
        STEPS[step](root)
        assert without_time(CatDoc(root).validate()) == fresh(root), step


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    key=st.sampled_from(["format", "code", "files", "version", "paths", "other", "report"]),
    value=JSON,
    noise=st.binary(max_size=300),
)
def test_whatever_the_kept_file_holds_a_report_is_right_or_not_given(
    root: Path, key: str, value: object, noise: bytes
) -> None:
    """Random bytes, or a kept entry with one field replaced by any JSON value: never an error,
    and a report given back is exactly what a full run gives."""
    if not entry(root).exists():
        CatDoc(root).validate()
    good = entry(root).read_bytes()
    try:
        entry(root).write_bytes(noise)
        assert kept_report(root) is None
        entry(root).write_bytes(good)
        forged(root, lambda data: data.update({key: value}))
        given_back = kept_report(root)
        assert given_back is None or without_time(given_back) == fresh(root)
    finally:
        entry(root).write_bytes(good)
