"""A journal is data a repository can carry: whatever one says, recovery changes nothing in a
version control folder or outside the project, and deletes nothing but CatDoc's own files."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from catdoc import journal

STEPS = ["..", ".", "", ".git", ".GIT", "hooks", "docs", ".catdoc", "README.md", "a.md", "config"]
paths = st.lists(st.sampled_from(STEPS), min_size=1, max_size=4).map("/".join)
temps = st.one_of(
    paths,
    paths.map(lambda rel: rel + ".catdoc-tmp"),
    st.tuples(paths, st.sampled_from(["0123abcd", "zz"])).map(  # named as CatDoc names them
        lambda pair: _beside(pair[0], pair[1])
    ),
)
entries = st.lists(
    st.one_of(
        st.builds(lambda t: {"target": t, "delete": True}, paths),
        st.builds(lambda t, tmp: {"target": t, "temp": tmp}, paths, temps),
    ),
    min_size=1,
    max_size=4,
)


def _beside(rel: str, tag: str) -> str:
    folder, _, name = rel.rpartition("/")
    return f"{folder}/.{name}.{tag}.catdoc-tmp" if folder else f".{name}.{tag}.catdoc-tmp"


def files_of(top: Path) -> dict[str, bytes]:
    return {
        path.relative_to(top).as_posix(): path.read_bytes()
        for path in sorted(top.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=st.sampled_from(["prepared", "committed", "done"]), planted=entries)
@example(  # a temp under a file: undoing it met NotADirectoryError, and every load crashed
    state="prepared",
    planted=[
        {"target": "docs/a.md/docs/hooks", "temp": "docs/a.md/docs/.hooks.0123abcd.catdoc-tmp"}
    ],
)
def test_recovery_never_reaches_git_outside_or_a_users_file(
    state: str, planted: list[dict[str, str | bool]]
) -> None:
    with tempfile.TemporaryDirectory() as top:
        base = Path(top)
        root = base / "project"
        for rel, text in {
            "outside/victim.md": "safe",
            "project/.git/config": "[core]\n",
            "project/.git/hooks/pre-commit.sample": "#!/bin/sh\n",
            "project/README.md": "mine",
            "project/docs/a.md": "doc",
            "project/.catdoc/category.yaml": "categories: []\n",
        }.items():
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / rel).write_text(text)
        for entry in planted:  # the temps a planted journal brings along
            temp = entry.get("temp")
            if isinstance(temp, str) and temp and "\0" not in temp:
                spot = root / temp
                with contextlib.suppress(OSError):  # a folder there, or a file on the way
                    if spot.parent.resolve().is_relative_to(base):
                        spot.parent.mkdir(parents=True, exist_ok=True)
                        spot.write_text("planted")
        before = files_of(base)
        journal._write_journal(root, state, planted)

        journal.recover(root)

        after = files_of(base)
        assert not journal.pending(root)
        for rel, data in before.items():
            if rel.startswith(("outside/", "project/.git/")):
                assert after.get(rel) == data, rel  # never written, never deleted
            elif not rel.endswith(".catdoc-tmp") and not rel.startswith("project/.catdoc/"):
                assert rel in after, rel  # a user's file may be replaced, never removed
        assert {rel for rel in after if rel.startswith(("outside/", "project/.git/"))} == {
            rel for rel in before if rel.startswith(("outside/", "project/.git/"))
        }


def test_a_temp_that_cannot_be_a_file_never_stops_a_load(tmp_path: Path) -> None:
    (tmp_path / ".catdoc").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / ".x.0123abcd.catdoc-tmp").mkdir()  # a folder where the temp would be
    (tmp_path / "docs" / "a.md").write_text("doc")
    for state in ("prepared", "committed"):
        journal._write_journal(
            tmp_path,
            state,
            [
                {"target": "docs/x", "temp": "docs/.x.0123abcd.catdoc-tmp"},
                {"target": "docs/a.md/y", "temp": "docs/a.md/.y.0123abcd.catdoc-tmp"},
            ],
        )
        assert journal.recover(tmp_path) is not None  # no exception: the journal is done with
        assert not journal.pending(tmp_path)
    assert (tmp_path / "docs" / "a.md").read_text() == "doc"
