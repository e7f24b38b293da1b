"""The one write path: refusals write nothing, renames reach every reference, one writer at a
time (BUSY), stale versions are refused (CONFLICT), and several files change all or none."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
import yaml_rs

from catdoc import journal, lock
from catdoc.edit import IN_USE
from catdoc.errors import BUSY, CONFLICT, NOT_FOUND, PATH_OUTSIDE_PROJECT, CatDocError
from catdoc.project import load_project
from catdoc.service import CatDoc


@pytest.fixture
def root(example_copy: Path) -> Path:
    return example_copy


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the project but derived data and the lock."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and "/cache/" not in f"/{rel}" and not rel.endswith("/lock"):
            out[rel] = path.read_bytes()
    return out


def comments(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("#")]


# ---------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (
            lambda s: s.add_morphism("requirements", "req-cart", "spec-cart-api"),
            "CAT_DANGLING_TARGET",
        ),
        (lambda s: s.add_morphism("requirements", "nope", "req-cart"), "CAT_DANGLING_SOURCE"),
        (
            lambda s: s.set_mapping("specify", objects={"req-cart": "design-cart"}),
            "FUN_OBJECT_TARGET_MISSING",
        ),
        (lambda s: s.upsert_object("design", "req-cart", {"title": "x"}), "DUPLICATE_ID"),
        (lambda s: s.rename("req-cart", "req-checkout"), "DUPLICATE_ID"),
        (lambda s: s.remove_object("req-cart"), IN_USE),
        (lambda s: s.remove_morphism("nope"), NOT_FOUND),
        (
            lambda s: s.upsert_object("requirements", "x", {"path": "../outside.md"}),
            PATH_OUTSIDE_PROJECT,
        ),
        (
            lambda s: s.upsert_object(
                "requirements",
                "x",
                {},
                content="owned",
            ),
            None,
        ),
    ],
    ids=[
        "target-in-other-category",
        "missing-source",
        "mapping-to-missing-object",
        "duplicate-object-id",
        "rename-onto-existing",
        "remove-in-use",
        "unknown-morphism",
        "path-outside",
        "content-ok",
    ],
)
def test_a_refused_edit_writes_nothing(root: Path, edit, code: str | None) -> None:
    svc = CatDoc(root)
    before = snapshot(root)
    if code is None:
        result = edit(svc)
        assert result.outcome == "created"
        assert (root / "docs/requirements/x.md").read_text() == "owned"
        return
    with pytest.raises(CatDocError) as info:
        edit(svc)
    assert info.value.code == code
    assert snapshot(root) == before


def test_content_cannot_overwrite_the_model(root: Path) -> None:
    svc = CatDoc(root)
    before = snapshot(root)
    for path in (".catdoc/category.yaml", ".catdoc/config.yaml", ".catdoc/categories/x.yaml"):
        with pytest.raises(CatDocError) as info:
            svc.upsert_object("requirements", "x", {"path": path}, content="categories: []\n")
        assert info.value.code == PATH_OUTSIDE_PROJECT
    assert snapshot(root) == before


# ---------------------------------------------------------------------- references
def test_rename_updates_every_reference_across_files(root: Path) -> None:
    svc = CatDoc(root)
    old_model = load_project(root)
    uses = [f.id for f in old_model.functors if "impl-cart-module" in f.object_mapping.values()]
    uses += [f.id for f in old_model.functors if "impl-cart-module" in f.object_mapping]
    assert uses, "the example maps impl-cart-module under some functor"
    texts = {p: (root / p).read_text() for p in old_model.files}
    result = svc.rename("impl-cart-module", "impl-basket-module")
    assert result.outcome == "renamed"
    assert set(old_model.files) <= set(result.files)  # both YAML files, in one transaction
    model = load_project(root)
    assert "impl-basket-module" in model.object_by_id
    assert "impl-cart-module" not in model.object_by_id
    for fun in model.functors:
        assert "impl-cart-module" not in fun.object_mapping
        assert "impl-cart-module" not in fun.object_mapping.values()
    for mor in model.morphism_by_id.values():
        assert "impl-cart-module" not in (mor.source, mor.target)
    assert svc.validate().is_valid
    for rel, text in texts.items():  # every comment survives
        assert comments((root / rel).read_text()) == comments(text)
    svc.rename("impl-basket-module", "impl-cart-module")
    assert {p: (root / p).read_text() for p in old_model.files} == texts


def test_rename_updates_mentions_in_documents_and_reverses_exactly(root: Path) -> None:
    svc = CatDoc(root)
    before = snapshot(root)
    spec = root / "docs/specifications/checkout-api.md"
    assert "Satisfies @req-checkout." in spec.read_text()
    result = svc.rename("req-checkout", "req-checkout-flow")
    assert "docs/specifications/checkout-api.md" in result.files
    assert "Satisfies @req-checkout-flow." in spec.read_text()
    assert {c.kind for c in result.changes} >= {"object", "document"}
    svc.rename("req-checkout-flow", "req-checkout")
    assert snapshot(root) == before


def test_cascade_removes_what_used_the_object(root: Path) -> None:
    svc = CatDoc(root)
    result = svc.remove_object("req-cart", cascade=True)
    model = load_project(root)
    assert "req-cart" not in model.object_by_id
    assert all("req-cart" not in (m.source, m.target) for m in model.morphism_by_id.values())
    assert all("req-cart" not in f.object_mapping for f in model.functors)
    kinds = {change.kind for change in result.changes}
    assert {"object", "morphism", "functor"} <= kinds


def test_findings_of_the_touched_entities_come_back(root: Path) -> None:
    svc = CatDoc(root)
    result = svc.upsert_object("requirements", "req-refund", {"title": "Refunds"})
    assert not result.valid
    assert {f.code for f in result.findings} == {"FUN_OBJECT_UNMAPPED"}
    assert all("req-refund" in f.ids for f in result.findings)


# ---------------------------------------------------------------------- versions and the lock
def test_a_stale_version_is_a_conflict(root: Path) -> None:
    svc = CatDoc(root)
    seen = svc.version()
    svc.upsert_object("requirements", "req-cart", {"summary": "changed by someone else"})
    before = snapshot(root)
    with pytest.raises(CatDocError) as info:
        svc.upsert_object("requirements", "req-cart", {"title": "x"}, expected_version=seen)
    assert info.value.code == CONFLICT
    assert snapshot(root) == before
    fresh = svc.version()
    assert (
        svc.upsert_object(
            "requirements", "req-cart", {"title": "x"}, expected_version=fresh
        ).outcome
        == "updated"
    )


def test_an_external_edit_in_the_same_tick_is_still_seen(root: Path) -> None:
    """The version is a hash of the bytes, so same-size edits within one mtime tick count."""
    svc = CatDoc(root)
    seen = svc.version()
    model = root / ".catdoc/category.yaml"
    stat = model.stat()
    text = model.read_text()
    changed = text.replace("Mira Okafor", "Mira OKAFOR", 1)
    assert changed != text and len(changed) == len(text)
    model.write_text(changed)
    os.utime(model, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(CatDocError) as info:
        svc.upsert_object("requirements", "req-cart", {"title": "x"}, expected_version=seen)
    assert info.value.code == CONFLICT


def test_the_loaded_version_is_the_version_of_the_files(root: Path) -> None:
    """A load hashes the bytes it parsed; an edit re-reads them: both must agree, or every edit
    would reload the model it was handed."""
    from catdoc.project import model_version

    assert load_project(root).version == model_version(root)


def test_a_second_writer_gets_busy_and_writes_nothing(root: Path) -> None:
    config = root / ".catdoc/config.yaml"
    config.write_text(config.read_text() + "edit:\n  lockTimeout: 0.2\n")
    svc = CatDoc(root)
    before = snapshot(root)
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with lock.project_lock(root.resolve()):
            held.set()
            release.wait(5)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(5)
    try:
        with pytest.raises(CatDocError) as info:
            svc.upsert_object("requirements", "req-new", {"title": "x"})
        assert info.value.code == BUSY
    finally:
        release.set()
        thread.join()
    assert snapshot(root) == before


def test_a_planted_lock_symlink_is_never_written_through(root: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (root / ".catdoc" / "lock").symlink_to(victim)
    with pytest.raises(CatDocError) as info:
        CatDoc(root).upsert_object("requirements", "req-new", {"title": "x"})
    assert info.value.code == PATH_OUTSIDE_PROJECT
    assert victim.read_text() == "precious"


def test_parallel_writers_in_threads_lose_nothing(root: Path) -> None:
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            CatDoc(root).upsert_object("requirements", f"req-par-{n}", {"title": f"P{n}"})
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    model = load_project(root)
    assert {f"req-par-{n}" for n in range(10)} <= set(model.object_by_id)


# ---------------------------------------------------------------------- all or nothing
def test_a_crash_after_the_commit_point_is_finished_on_the_next_load(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = CatDoc(root)
    real_replace = os.replace
    calls = {"n": 0}

    def dying_replace(src, dst):  # the second rename of the model files never happens
        if str(src).endswith(".catdoc-tmp") and not str(dst).endswith(journal.JOURNAL_NAME):
            calls["n"] += 1
            if calls["n"] == 2:
                raise KeyboardInterrupt("killed")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", dying_replace)
    with pytest.raises(KeyboardInterrupt):
        svc.rename("impl-cart-module", "impl-basket-module")
    monkeypatch.setattr(os, "replace", real_replace)
    assert journal.pending(root)
    model = load_project(root)  # recovers
    assert not journal.pending(root)
    assert "impl-basket-module" in model.object_by_id
    assert all("impl-cart-module" not in f.object_mapping.values() for f in model.functors)
    assert not list(root.rglob("*.catdoc-tmp"))


def test_a_crash_before_the_commit_point_is_undone(root: Path) -> None:
    before = snapshot(root)
    model = root / ".catdoc/category.yaml"
    temp = model.with_name(".category.yaml.deadbeef.catdoc-tmp")
    temp.write_text("half")
    journal._write_journal(
        root,
        "prepared",
        [{"target": ".catdoc/category.yaml", "temp": temp.relative_to(root).as_posix()}],
    )
    load_project(root)
    assert not temp.exists() and not journal.pending(root)
    assert snapshot(root) == before


def test_a_planted_journal_cannot_write_outside_the_project(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "victim.txt"
    outside.write_text("safe")
    evil = root / ".catdoc" / ".evil.catdoc-tmp"
    evil.write_text("pwned")
    journal._write_journal(
        root, "committed", [{"target": "../victim.txt", "temp": ".catdoc/.evil.catdoc-tmp"}]
    )
    load_project(root)
    assert outside.read_text() == "safe"


def plant(root: Path, state: str, entries: list[dict[str, str | bool]], files: list[str]) -> None:
    """A journal as a repository could carry it, with the (executable) temp files it names."""
    for rel in files:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/sh\necho planted\n")
        path.chmod(0o755)
    journal._write_journal(root, state, entries)


@pytest.mark.parametrize(
    "entries",
    [
        # a hook: git runs it on the next checkout
        [{"target": ".git/hooks/post-checkout", "temp": "notes.catdoc-tmp"}],
        # even with its temp named as CatDoc names them, beside it
        [{"target": ".git/config", "temp": ".git/.config.0123abcd.catdoc-tmp"}],
        [{"target": ".GIT/config", "temp": ".GIT/.config.0123abcd.catdoc-tmp"}],
        # a temp not beside its target, or not named for it
        [{"target": "README.md", "temp": "notes.catdoc-tmp"}],
        [{"target": "README.md", "temp": "docs/.README.md.0123abcd.catdoc-tmp"}],
        # a user's file to delete (CatDoc deletes only its own, under .catdoc/)
        [{"target": "README.md", "delete": True}],
        [{"target": ".catdoc/../README.md", "delete": True}],
        # a folder where the file would go (CatDoc writes files only)
        [{"target": "docs", "temp": ".docs.0123abcd.catdoc-tmp"}],
    ],
)
def test_a_planted_journal_is_set_aside_untouched(
    root: Path, entries: list[dict[str, str | bool]]
) -> None:
    (root / "README.md").write_text("mine")
    (root / ".git" / "hooks").mkdir(parents=True)
    (root / ".git" / "config").write_text("[core]\n")
    temps = [str(entry["temp"]) for entry in entries if "temp" in entry]
    # one entry CatDoc could have written does not make the others CatDoc's
    plant(root, "committed", [{"target": ".catdoc/category.yaml", "delete": True}, *entries], temps)
    before = snapshot(root)
    model = load_project(root)  # recovery runs first
    assert "requirements" in model.category_by_id  # the model file was not deleted either
    assert not (root / ".git" / "hooks" / "post-checkout").exists()
    assert (root / ".git" / "config").read_text() == "[core]\n"
    assert (root / "README.md").read_text() == "mine"
    assert not journal.pending(root)
    assert (root / ".catdoc" / "journal.json.refused").is_file()
    after = snapshot(root)
    after.pop(".catdoc/journal.json.refused")
    before.pop(".catdoc/journal.json")
    assert after == before


def test_a_journal_as_catdoc_writes_it_is_still_finished(root: Path) -> None:
    model = root / ".catdoc" / "category.yaml"
    text = model.read_text() + "# finished\n"
    temp = ".catdoc/.category.yaml.0a1b2c3d.catdoc-tmp"
    plant(
        root,
        "committed",
        [
            {"target": ".catdoc/category.yaml", "temp": temp},
            {"target": ".catdoc/gone.md", "delete": True},
        ],
        [temp, ".catdoc/gone.md"],
    )
    (root / temp).write_text(text)
    load_project(root)
    assert model.read_text() == text and not (root / ".catdoc" / "gone.md").exists()


@pytest.mark.parametrize("path", [".git/config", ".git/hooks/pre-commit", "docs/.hg/hgrc"])
def test_no_document_is_written_in_a_version_control_folder(root: Path, path: str) -> None:
    (root / ".git").mkdir(exist_ok=True)
    (root / ".git" / "config").write_text("[core]\n")
    with pytest.raises(CatDocError) as caught:
        CatDoc(root).upsert_object("requirements", "req-x", {"path": path}, content="[core]\n")
    assert caught.value.code == PATH_OUTSIDE_PROJECT
    assert ".git" in caught.value.message or ".hg" in caught.value.message
    assert (root / ".git" / "config").read_text() == "[core]\n"
    assert not (root / path).exists() or path == ".git/config"


def test_a_document_linked_into_git_is_not_read(root: Path) -> None:
    (root / ".git").mkdir(exist_ok=True)
    (root / ".git" / "config").write_text("[remote]\n\turl = https://token@example.com\n")
    svc = CatDoc(root)
    svc.upsert_object("requirements", "req-x", {"path": "docs/config.md"})
    (root / "docs" / "config.md").symlink_to(root / ".git" / "config")  # after the model said so
    with pytest.raises(CatDocError) as caught:
        svc.upsert_object("requirements", "req-y", {"path": "docs/config.md"})
    assert caught.value.code == PATH_OUTSIDE_PROJECT
    shown = svc.show_object("req-x")
    assert "token" not in (shown.content or "")
    assert ".git" in (shown.content_error or "")


KILL_CHILD = textwrap.dedent(
    """
    import sys
    from catdoc.service import CatDoc
    svc = CatDoc(sys.argv[1])
    svc.project()
    print("ready", flush=True)
    svc.rename("impl-cart-module", "impl-basket-module")
    print("done", flush=True)
    """
)


@pytest.mark.slow
def test_sigkill_during_a_two_file_edit_leaves_before_or_after(root: Path) -> None:
    files = [".catdoc/category.yaml", ".catdoc/categories/tests.yaml"]
    pristine = {f: (root / f).read_bytes() for f in files}
    CatDoc(root).rename("impl-cart-module", "impl-basket-module")
    renamed = {f: (root / f).read_bytes() for f in files}
    assert all(pristine[f] != renamed[f] for f in files)
    rng = random.Random(7)
    outcomes = set()
    for _ in range(25):
        for f in files:
            (root / f).write_bytes(pristine[f])
        child = subprocess.Popen(
            [sys.executable, "-c", KILL_CHILD, str(root)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        threading.Event().wait(rng.uniform(0, 0.05))
        child.send_signal(signal.SIGKILL)
        child.wait()
        load_project(root)  # recovery, as any next reader does
        state = {f: (root / f).read_bytes() for f in files}
        assert state in (pristine, renamed)
        outcomes.add("after" if state == renamed else "before")
        assert not journal.pending(root)
    assert outcomes  # both are legitimate; which ones occurred depends on timing


def _write_tree(root: Path, folder: str, count: int) -> None:
    for n in range(count):
        path = root / "incoming" / folder / f"{folder}-{n:02d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {folder} {n}\n\nText {n}.\n")


@pytest.mark.slow
def test_two_concurrent_imports_keep_both(tmp_path: Path) -> None:
    """Two `catdoc import` processes into one project at once: every object of both is kept
    (or a loser answered BUSY and wrote nothing) — ten times."""
    for run in range(10):
        root = tmp_path / f"run{run}"
        CatDoc.init(root)
        _write_tree(root, "a", 40)
        _write_tree(root, "b", 40)
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "catdoc",
                    "-C",
                    str(root),
                    "import",
                    f"incoming/{f}",
                    "--category",
                    cat,
                    "--format",
                    "json",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for f, cat in (("a", "alpha"), ("b", "beta"))
        ]
        results = [proc.communicate(timeout=120) for proc in procs]
        model = yaml_rs.loads((root / ".catdoc/category.yaml").read_text())
        ids = {o["id"] for c in model["categories"] for o in c.get("objects") or []}
        for proc, (_out, err), folder in zip(procs, results, "ab", strict=True):
            wanted = {f"{folder}-{n:02d}" for n in range(40)}
            if proc.returncode == 0:
                assert wanted <= ids, f"run {run}: {folder} said success but lost objects"
            else:
                assert '"BUSY"' in err, err
                assert not wanted & ids


def test_content_is_written_over_the_objects_own_document_only(root: Path) -> None:
    svc = CatDoc(root)
    (root / "README.md").write_text("mine")
    cart = svc.show_object("req-cart").path
    assert cart is not None
    before = (root / cart).read_text()
    for ident, path in (("req-new", "README.md"), ("req-new", cart), ("req-login", "README.md")):
        with pytest.raises(CatDocError) as caught:
            svc.upsert_object("requirements", ident, {"path": path}, content="written over")
        assert "not this object's document" in caught.value.message
    assert (root / "README.md").read_text() == "mine" and (root / cart).read_text() == before
    svc.upsert_object("requirements", "req-cart", {}, content="its own text")
    assert (root / cart).read_text() == "its own text"
    svc.upsert_object("requirements", "req-new", {"path": "docs/new.md"}, content="a new file")
    assert (root / "docs" / "new.md").read_text() == "a new file"


def test_a_category_cannot_be_its_own_parent(root: Path) -> None:
    svc = CatDoc(root)
    for ident in ("requirements", "fresh"):  # an existing category, and a new one
        with pytest.raises(CatDocError) as caught:
            svc.upsert_category(ident, {"parent": ident})
        assert "cannot be its own parent" in caught.value.message


def test_a_document_changed_since_it_was_read_is_not_written_over(root: Path) -> None:
    svc = CatDoc(root)
    read = svc.show_object("req-cart")
    assert read.content is not None and read.content_version is not None
    CatDoc(root).upsert_object("requirements", "req-cart", {}, content="A's text\n")  # another
    with pytest.raises(CatDocError) as caught:
        svc.upsert_object(
            "requirements",
            "req-cart",
            {},
            content="B's text\n",
            expected_version=svc.project().version,  # the model did not change: this passes
            expected_content_version=read.content_version,
        )
    assert caught.value.code == CONFLICT and "changed since contentVersion" in caught.value.message
    again = svc.show_object("req-cart")
    assert again.content == "A's text\n" and again.content_version != read.content_version
    done = svc.upsert_object(
        "requirements",
        "req-cart",
        {},
        content="B's\n",
        expected_content_version=again.content_version,
    )
    assert done.changes[0].detail == "content"  # the path did not change
    assert svc.show_object("req-cart").content == "B's\n"
