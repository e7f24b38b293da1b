"""File deletion in the one write path: journaled with the writes, all or nothing across a crash,
confined to the project; the import removes the template's example document inside its write."""

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

from catdoc import journal
from catdoc.edit import edit_model
from catdoc.errors import PATH_OUTSIDE_PROJECT, VALIDATION_ERROR, CatDocError
from catdoc.project import load_project
from catdoc.service import CatDoc

EXAMPLE_DOC = ".catdoc/docs/example.md"
MODEL = ".catdoc/category.yaml"


def fresh(root: Path, documents: int = 3) -> CatDoc:
    """A project as `catdoc init` leaves it, with a small docs tree to import."""
    CatDoc.init(root)
    for n in range(documents):
        path = root / "docs" / "notes" / f"note-{n:02d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Note {n}\n\nText {n}.\n", encoding="utf-8")
    return CatDoc(root)


# ---------------------------------------------------------------------- journal
def test_a_write_and_a_delete_happen_together(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    old = tmp_path / ".catdoc" / "old.md"
    old.write_text("old")
    journal.commit_files(tmp_path, {tmp_path / "new.md": "new"}, [old])
    assert (tmp_path / "new.md").read_text() == "new"
    assert not old.exists() and not journal.pending(tmp_path)


def test_a_lone_delete_and_a_missing_file_are_fine(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    old = tmp_path / ".catdoc" / "old.md"
    old.write_text("old")
    journal.commit_files(tmp_path, {}, [old, tmp_path / ".catdoc" / "never.md"])
    assert not old.exists()


def test_only_catdocs_own_files_are_deleted(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / "mine.md").write_text("mine")
    with pytest.raises(CatDocError) as caught:
        journal.commit_files(tmp_path, {tmp_path / "new.md": "new"}, [tmp_path / "mine.md"])
    assert caught.value.code == PATH_OUTSIDE_PROJECT
    assert (tmp_path / "mine.md").read_text() == "mine" and not (tmp_path / "new.md").exists()


def test_a_delete_outside_the_root_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / ".catdoc").mkdir(parents=True)
    victim = tmp_path / "victim.md"
    victim.write_text("safe")
    for outside in (victim, root / ".." / "victim.md"):
        with pytest.raises(CatDocError) as caught:
            journal.commit_files(root, {root / "new.md": "new"}, [outside])
        assert caught.value.code == PATH_OUTSIDE_PROJECT
    assert victim.read_text() == "safe" and not (root / "new.md").exists()


def test_a_delete_through_a_linked_folder_that_leaves_the_root_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / ".catdoc").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "victim.md").write_text("safe")
    (root / "link").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(CatDocError):
        journal.commit_files(root, {}, [root / "link" / "victim.md"])
    assert (tmp_path / "elsewhere" / "victim.md").read_text() == "safe"


def test_a_committed_delete_is_finished_and_a_prepared_one_undone(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    doomed = tmp_path / ".catdoc" / "doomed.md"
    for state, survives in (("prepared", True), ("committed", False)):
        doomed.write_text("x")
        journal._write_journal(tmp_path, state, [{"target": ".catdoc/doomed.md", "delete": True}])
        journal.recover(tmp_path)
        assert doomed.exists() is survives and not journal.pending(tmp_path)


def test_a_planted_delete_cannot_reach_outside_the_project(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / ".catdoc").mkdir(parents=True)
    victim = tmp_path / "victim.md"
    victim.write_text("safe")
    entries = [{"target": "../victim.md", "delete": True}, {"target": str(victim), "delete": True}]
    journal._write_journal(root, "committed", entries)
    journal.recover(root)
    assert victim.read_text() == "safe" and not journal.pending(root)


# ---------------------------------------------------------------------- edits
def test_an_edit_deletes_a_file_with_its_writes(tmp_path: Path) -> None:
    svc = fresh(tmp_path)
    (tmp_path / ".catdoc" / "gone.md").write_text("bye")

    def apply(edit) -> None:
        edit.upsert_category("notes", {"name": "Notes"})
        edit.delete_file(".catdoc/gone.md")

    outcome = edit_model(svc.project(), apply, validate=False)
    assert outcome.deleted == [".catdoc/gone.md"] and outcome.files == [MODEL]
    assert not (tmp_path / ".catdoc" / "gone.md").exists()
    assert "notes" in load_project(tmp_path).category_by_id


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("../x.md", PATH_OUTSIDE_PROJECT),
        ("docs/example.md", PATH_OUTSIDE_PROJECT),  # not CatDoc's own file
        (".catdoc/../docs/example.md", PATH_OUTSIDE_PROJECT),
        ("docs", PATH_OUTSIDE_PROJECT),
        (".catdoc", None),
    ],
)
def test_an_edit_refuses_a_path_outside_or_a_folder(
    tmp_path: Path, path: str, code: str | None
) -> None:
    svc = fresh(tmp_path)
    with pytest.raises(CatDocError) as caught:
        edit_model(svc.project(), lambda edit: edit.delete_file(path), validate=False)
    assert caught.value.code == (code or VALIDATION_ERROR)
    assert (tmp_path / "docs").is_dir()


# ---------------------------------------------------------------------- the import
def test_the_import_removes_the_example_document_in_its_write(tmp_path: Path) -> None:
    svc = fresh(tmp_path)
    result = svc.import_documents(["docs"])
    assert not (tmp_path / EXAMPLE_DOC).exists()
    assert EXAMPLE_DOC in result.example_removed
    assert EXAMPLE_DOC not in result.written


def test_an_edited_example_document_stays(tmp_path: Path) -> None:
    svc = fresh(tmp_path)
    (tmp_path / EXAMPLE_DOC).write_text("# Mine now\n", encoding="utf-8")
    result = svc.import_documents(["docs"])
    assert (tmp_path / EXAMPLE_DOC).read_text(encoding="utf-8") == "# Mine now\n"
    assert EXAMPLE_DOC not in result.example_removed


def test_a_crash_after_the_commit_point_still_removes_the_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = fresh(tmp_path)
    real_replace = os.replace

    def dying_replace(src, dst):  # the first rename after the commit point never happens
        if str(src).endswith(".catdoc-tmp") and not str(dst).endswith(journal.JOURNAL_NAME):
            raise KeyboardInterrupt("killed")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", dying_replace)
    with pytest.raises(KeyboardInterrupt):
        svc.import_documents(["docs"])
    monkeypatch.setattr(os, "replace", real_replace)
    assert (tmp_path / EXAMPLE_DOC).exists() and journal.pending(tmp_path)
    model = load_project(tmp_path)  # recovers
    assert not (tmp_path / EXAMPLE_DOC).exists() and not journal.pending(tmp_path)
    assert "notes" in model.category_by_id


KILL_CHILD = textwrap.dedent(
    """
    import sys
    from catdoc.service import CatDoc
    svc = CatDoc(sys.argv[1])
    svc.project()
    print("ready", flush=True)
    svc.import_documents(["docs"])
    print("done", flush=True)
    """
)


@pytest.mark.slow
def test_sigkill_during_an_import_leaves_model_and_example_both_before_or_after(
    tmp_path: Path,
) -> None:
    pristine_root = tmp_path / "pristine"
    fresh(pristine_root, documents=40)
    pristine = (pristine_root / MODEL).read_bytes()
    rng = random.Random(11)
    outcomes = set()
    for n in range(12):
        root = tmp_path / f"run-{n}"
        subprocess.run(["cp", "-r", str(pristine_root), str(root)], check=True)
        child = subprocess.Popen(
            [sys.executable, "-c", KILL_CHILD, str(root)], stdout=subprocess.PIPE, text=True
        )
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        threading.Event().wait(rng.uniform(0, 0.4))
        child.send_signal(signal.SIGKILL)
        child.wait()
        model = load_project(root)  # recovery, as any next reader does
        before = (root / MODEL).read_bytes() == pristine
        assert (root / EXAMPLE_DOC).exists() is before
        assert ("notes" in model.category_by_id) is not before
        assert not journal.pending(root)
        outcomes.add("before" if before else "after")
    assert outcomes
