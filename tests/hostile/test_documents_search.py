"""Documents, the search index and import file discovery against hostile and broken input.

Each class of defect is driven through the service and through the command line. Cases that
used to block (FIFOs, symlink loops) run in a subprocess with a timeout, so a regression fails
instead of hanging the suite.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc.cli import app
from catdoc.documents import MAX_DOCUMENT_BYTES, document_title, split_front_matter
from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.paging import MAX_OFFSET
from catdoc.results import SearchFilters
from catdoc.search.filters import MAX_PATH_PATTERN, path_matches
from catdoc.service import CatDoc

runner = CliRunner()
HANG_GUARD = 60
"""Seconds before a call that should answer at once counts as hung (never reached when fixed)."""

DOC = "# Login\n\nUsers sign in with a password.\n"


def make_project(base: Path, objects: list[dict[str, str]]) -> Path:
    """A project with one category holding `objects`, plus `docs/login.md` as a good document."""
    root = base / "proj"
    (root / ".catdoc").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs" / "login.md").write_text(DOC, encoding="utf-8")
    (root / ".catdoc" / "config.yaml").write_text("search:\n  vectors: off\n", encoding="utf-8")
    entries = [{"id": "login", "title": "Login", "path": "docs/login.md"}, *objects]
    lines = ["categories:", "  - id: c", "    name: C", "    objects:"]
    for entry in entries:
        lines.append(f"      - id: {entry['id']}")
        lines += [f"        {k}: {json.dumps(v)}" for k, v in entry.items() if k != "id"]
    (root / ".catdoc" / "category.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def catdoc(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real command line in its own process, bounded in time."""
    return subprocess.run(
        [sys.executable, "-m", "catdoc", "-C", str(root), *args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=False,
    )


def cli(root: Path, *args: str) -> Any:
    return runner.invoke(app, ["-C", str(root), *args])


def answers(call: Callable[[], Any]) -> Any:
    """The result of `call`, run on a thread so that a hang fails the test instead."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = call()
        except BaseException as exc:  # handed to the test thread below
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HANG_GUARD)
    assert not thread.is_alive(), "the call did not answer"
    if "error" in out:
        raise out["error"]
    return out["value"]


def ids(response: Any) -> list[str]:
    return [hit.id for hit in response.results]


# ------------------------------------------------------------------ 1. non-regular files
def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _directory(path: Path) -> None:
    path.mkdir()


def _socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()


NON_REGULAR = {"fifo": _fifo, "directory": _directory, "socket": _socket}
REFUSED = re.compile(r"not a regular file|is a directory")


@pytest.fixture(params=sorted(NON_REGULAR))
def special_root(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    root = make_project(tmp_path, [{"id": "odd", "title": "Odd", "path": "docs/odd.md"}])
    NON_REGULAR[request.param](root / "docs" / "odd.md")
    return root


def test_non_regular_object_file_is_refused_and_never_blocks(special_root: Path) -> None:
    script = (
        "import sys, json\n"
        "from catdoc.service import CatDoc\n"
        "svc = CatDoc(sys.argv[1])\n"
        "detail = svc.show_object('odd')\n"
        "hits = [h.id for h in svc.search('password').results]\n"
        "print(json.dumps({'error': detail.content_error, 'hits': hits}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(special_root)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=True,
    )
    data = json.loads(done.stdout)
    assert "docs/odd.md" in data["error"] and REFUSED.search(data["error"])
    assert data["hits"] == ["login"]
    shown = catdoc(special_root, "show", "object", "odd")
    assert shown.returncode == 0 and REFUSED.search(shown.stdout), shown.stderr
    searched = catdoc(special_root, "search", "password", "--format", "json")
    assert searched.returncode == 0, searched.stderr
    imported = catdoc(special_root, "import", "docs", "--format", "json")
    assert imported.returncode == 0, imported.stderr
    items = {item["path"]: item for item in json.loads(imported.stdout)["items"]}
    if (special_root / "docs" / "odd.md").is_dir():
        assert "docs/odd.md" not in items
    else:
        assert items["docs/odd.md"]["action"] == "skipped"
        assert REFUSED.search(items["docs/odd.md"]["reason"])


def test_document_over_the_size_bound_is_refused(tmp_path: Path) -> None:
    root = make_project(tmp_path, [{"id": "big", "title": "Big", "path": "docs/big.md"}])
    with (root / "docs" / "big.md").open("wb") as handle:
        handle.truncate(MAX_DOCUMENT_BYTES + 1)
    detail = CatDoc(root).show_object("big")
    assert detail.content is None and "MB" in (detail.content_error or "")


# ------------------------------------------------------------------ 2. unusable path text
UNUSABLE_PATHS = {
    "nul": "docs/a\0.md",
    "long-name": "docs/" + "n" * 300 + ".md",
    "long-folder": "docs/" + "d" * 300 + "/a.md",
    "long-path": "docs/" + "/".join(["p" * 200] * 25) + "/a.md",
}


@pytest.mark.parametrize("path", UNUSABLE_PATHS.values(), ids=list(UNUSABLE_PATHS))
def test_unusable_object_path_gives_a_clear_error(tmp_path: Path, path: str) -> None:
    root = make_project(tmp_path, [{"id": "odd", "title": "Odd", "path": path}])
    svc = CatDoc(root)
    detail = svc.show_object("odd")
    assert detail.content is None and "path" in (detail.content_error or "").lower()
    assert ids(svc.search("password")) == ["login"]
    shown = cli(root, "show", "object", "odd")
    assert shown.exit_code == 0 and shown.exception is None, shown.output
    searched = cli(root, "search", "password")
    assert searched.exit_code == 0 and searched.exception is None, searched.output


@pytest.mark.parametrize("name", ["n" * 300 + ".md", "d" * 300 + "/a.md", "a\0.md"])
def test_import_of_an_unusable_file_name_gives_a_clear_error(tmp_path: Path, name: str) -> None:
    root = make_project(tmp_path, [])
    with pytest.raises(CatDocError) as caught:
        CatDoc(root).import_documents([f"docs/{name}"])
    assert caught.value.code == VALIDATION_ERROR
    result = cli(root, "import", str(root / "docs" / name))
    assert result.exit_code == 2 and not isinstance(result.exception, ValueError | OSError)
    assert "Error:" in result.output


# ------------------------------------------------------------------ 3. front matter values
HUGE = "1" * 5000
FRONT_MATTERS = {
    "huge-int": f"---\ntitle: {HUGE}\n---\n# Huge\n\npassword\n",
    "huge-negative": f"---\nn: -{HUGE}\n---\n# Huge\n\npassword\n",
    "huge-hex": f"---\ntags: [0x{'f' * 5000}]\n---\n# Huge\n\npassword\n",
    "deep": "---\n" + "".join(" " * i + f"k{i}:\n" for i in range(2000)) + "---\npassword\n",
}


@pytest.mark.parametrize("text", FRONT_MATTERS.values(), ids=list(FRONT_MATTERS))
def test_hostile_front_matter_values_are_a_bad_front_matter(tmp_path: Path, text: str) -> None:
    front = split_front_matter(text)
    assert front.meta == {} and front.error and "front matter" in front.error
    root = make_project(tmp_path, [{"id": "huge", "title": "Huge", "path": "docs/huge.md"}])
    (root / "docs" / "huge.md").write_text(text, encoding="utf-8")
    svc = CatDoc(root)
    assert sorted(ids(svc.search("password"))) == ["huge", "login"]
    assert svc.show_object("huge").content_error is None
    (root / "docs" / "new.md").write_text(text, encoding="utf-8")
    result = svc.import_documents(["docs/new.md"])
    (item,) = [i for i in result.items if i.path == "docs/new.md"]
    assert item.action == "skipped" and "front matter" in (item.reason or "")
    shown = cli(root, "search", "password")
    assert shown.exit_code == 0 and shown.exception is None, shown.output


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300) | st.binary(max_size=300).map(lambda b: b.decode("latin-1")))
def test_front_matter_parsing_never_raises(raw: str) -> None:
    for text in (raw, f"---\n{raw}\n---\nbody\n"):
        front = split_front_matter(text)
        assert isinstance(front.meta, dict)
        document_title(front.meta, front.body, "fallback")
        json.dumps(front.meta, default=str)


# ------------------------------------------------------------------ 4. path glob
def reference_regex(pattern: str) -> re.Pattern[str]:
    """The glob as a backtracking regex: slow on long patterns, plainly right on short ones."""
    pattern = pattern.strip()
    if pattern.startswith("./"):
        pattern = pattern[2:]
    if "/" not in pattern:
        pattern = "**/" + pattern
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and pattern.find("]", i + 1) != -1:
            end = pattern.find("]", i + 1)
            out.append(fnmatch.translate(pattern[i : end + 1])[4:-3])
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z", re.S)


GLOB_CHARS = st.sampled_from([*"ab/*?[]!-.", "**/", "**"])


@settings(max_examples=400, deadline=None)
@given(
    st.lists(GLOB_CHARS, max_size=8).map("".join),
    st.lists(st.sampled_from(list("ab/.-!")), max_size=10).map("".join),
)
def test_glob_matcher_agrees_with_the_reference(pattern: str, path: str) -> None:
    expected = reference_regex(pattern).match(path) is not None
    assert path_matches(path, pattern) is expected


@pytest.mark.parametrize(
    "pattern",
    ["**/" * 26 + "zzz", "*a" * 40 + "b", "**a" * 40 + "b", "?**" * 100 + "[!a]"],
    ids=["double-star-folders", "stars", "double-stars", "mixed"],
)
def test_adversarial_glob_answers(tmp_path: Path, pattern: str) -> None:
    root = make_project(tmp_path, [])
    svc = CatDoc(root)
    response = answers(lambda: svc.search("password", filters=SearchFilters(path=pattern)))
    assert ids(response) == []
    assert answers(lambda: path_matches("a/" * 60 + "a" * 100, pattern)) is False
    result = answers(lambda: cli(root, "search", "password", "--path", pattern))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("size", [MAX_PATH_PATTERN + 1, 9000])
def test_over_long_glob_is_a_validation_error(tmp_path: Path, size: int) -> None:
    root = make_project(tmp_path, [])
    pattern = ("**/" * size)[:size]
    with pytest.raises(CatDocError) as caught:
        answers(lambda: CatDoc(root).search("password", filters=SearchFilters(path=pattern)))
    assert caught.value.code == VALIDATION_ERROR and str(MAX_PATH_PATTERN) in caught.value.message
    result = answers(lambda: cli(root, "search", "password", "--path", pattern))
    assert result.exit_code == 2 and "Error:" in result.output


def test_glob_at_the_length_bound_still_matches(tmp_path: Path) -> None:
    root = make_project(tmp_path, [])
    pattern = "*" * (MAX_PATH_PATTERN - len("/login.md")) + "/login.md"
    assert ids(CatDoc(root).search("password", filters=SearchFilters(path=pattern))) == ["login"]


# ------------------------------------------------------------------ 5. symlink loops
def test_glob_import_survives_symlink_loops_and_stays_inside(tmp_path: Path) -> None:
    root = make_project(tmp_path, [])
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n", encoding="utf-8")
    (root / "docs" / "a" / "b").mkdir(parents=True)
    (root / "docs" / "a" / "b" / "deep.md").write_text("# Deep\n", encoding="utf-8")
    (root / "docs" / "a" / "loop").symlink_to("..")
    (root / "docs" / "a" / "b" / "loop").symlink_to("../..")
    (root / "docs" / "self").symlink_to(".")
    (root / "docs" / "out").symlink_to(outside)
    done = catdoc(root, "import", "docs/**/*.md", "--format", "json")
    assert done.returncode == 0, done.stderr
    items = json.loads(done.stdout)["items"]
    taken = sorted(i["path"] for i in items if i["action"] != "skipped")
    assert taken == ["docs/a/b/deep.md", "docs/login.md"]
    assert not any("secret" in i["path"] for i in items if i["action"] != "skipped")
    again = CatDoc(root).import_documents(["docs/**/*.md"])
    assert sorted(i.path for i in again.items if i.action != "skipped") == taken


# ------------------------------------------------------------------ 6. literal names
@pytest.mark.parametrize("name", ["[draft] notes.md", "a*b?.md", "[x].md"])
def test_existing_file_with_glob_characters_is_taken_literally(tmp_path: Path, name: str) -> None:
    root = make_project(tmp_path, [])
    (root / "docs" / name).write_text("# Literal\n\npassword\n", encoding="utf-8")
    result = CatDoc(root).import_documents([f"docs/{name}"])
    assert [(i.path, i.action) for i in result.items] == [(f"docs/{name}", "created")]
    other = make_project(tmp_path / "cli", [])
    (other / "docs" / name).write_text("# Literal\n", encoding="utf-8")
    shown = cli(other, "import", str(other / "docs" / name), "--format", "json")
    assert shown.exit_code == 0, shown.output
    assert [i["path"] for i in json.loads(shown.stdout)["items"]] == [f"docs/{name}"]


# ------------------------------------------------------------------ 7. offsets
OFFSETS = [MAX_OFFSET + 1, 2**63, 10**30]


@pytest.mark.parametrize("offset", OFFSETS)
def test_huge_offsets_are_validation_errors(tmp_path: Path, offset: int) -> None:
    root = make_project(tmp_path, [])
    svc = CatDoc(root)
    for call in (
        lambda: svc.search("password", offset=offset),
        lambda: svc.list_objects(offset=offset),
    ):
        with pytest.raises(CatDocError) as caught:
            call()
        assert caught.value.code == VALIDATION_ERROR and f"{MAX_OFFSET:,}" in caught.value.message
    result = cli(root, "search", "password", "--offset", str(offset))
    assert result.exit_code == 2 and "offset" in result.output


def test_offset_at_the_bound_is_an_empty_page(tmp_path: Path) -> None:
    response = CatDoc(make_project(tmp_path, [])).search("password", offset=MAX_OFFSET)
    assert response.results == [] and response.total == 1


@pytest.mark.anyio
@pytest.mark.parametrize("offset", OFFSETS)
async def test_mcp_search_refuses_huge_offsets(tmp_path: Path, offset: int) -> None:
    from mcp import Client

    from catdoc.mcp_server import build_server

    svc = CatDoc(make_project(tmp_path, []))
    async with Client(build_server(svc)) as client:
        result = await client.call_tool("catdoc_search", {"query": "password", "offset": offset})
    assert result.is_error
    body = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert body["error"]["code"] == VALIDATION_ERROR


# ------------------------------------------------------------------ 8. damaged index
def _index(root: Path) -> Path:
    return root / ".catdoc" / "cache" / "search.sqlite3"


def _index_is_a_directory(root: Path) -> None:
    _index(root).mkdir(parents=True)
    (_index(root) / "inside").write_text("x", encoding="utf-8")


def _cache_is_a_file(root: Path) -> None:
    (root / ".catdoc" / "cache").write_text("not a folder", encoding="utf-8")


def _index_is_garbage(root: Path) -> None:
    _index(root).parent.mkdir(parents=True)
    _index(root).write_bytes(b"SQLite format 3\0" + os.urandom(4096))


def _rows_deleted(root: Path) -> None:
    CatDoc(root).search("password")
    with sqlite3.connect(_index(root)) as conn:
        conn.execute("DELETE FROM docs")


def _chunks_deleted(root: Path) -> None:
    CatDoc(root).search("password")
    with sqlite3.connect(_index(root)) as conn:
        conn.execute("DELETE FROM chunks")


def _table_dropped(root: Path) -> None:
    CatDoc(root).search("password")
    with sqlite3.connect(_index(root)) as conn:
        conn.execute("DROP TABLE doc_tags")


def _column_dropped(root: Path) -> None:
    CatDoc(root).search("password")
    with sqlite3.connect(_index(root)) as conn:
        conn.execute("ALTER TABLE docs DROP COLUMN title_terms")


def _meta_emptied(root: Path) -> None:
    CatDoc(root).search("password")
    with sqlite3.connect(_index(root)) as conn:
        conn.execute("DELETE FROM meta")


DAMAGE = {
    "index-is-directory": _index_is_a_directory,
    "cache-is-file": _cache_is_a_file,
    "index-is-garbage": _index_is_garbage,
    "docs-rows-deleted": _rows_deleted,
    "chunk-rows-deleted": _chunks_deleted,
    "table-dropped": _table_dropped,
    "column-dropped": _column_dropped,
    "meta-emptied": _meta_emptied,
}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=list(DAMAGE))
def test_damaged_index_is_rebuilt(tmp_path: Path, damage: Callable[[Path], None]) -> None:
    root = make_project(tmp_path, [])
    damage(root)
    svc = CatDoc(root)
    for _ in range(2):
        assert ids(svc.search("password")) == ["login"]
        assert ids(svc.search("password", scope="chunks")) == ["login"]
    result = cli(root, "search", "password", "--format", "json")
    assert result.exit_code == 0, result.output
    assert [hit["id"] for hit in json.loads(result.stdout)["results"]] == ["login"]
    assert _index(root).is_file()


@pytest.fixture
def fresh_projects(tmp_path: Path) -> Iterator[list[Path]]:
    yield [make_project(tmp_path / str(n), []) for n in range(3)]


@pytest.mark.slow
def test_concurrent_cold_searches_all_succeed(fresh_projects: list[Path]) -> None:
    script = (
        "import sys\n"
        "from catdoc.service import CatDoc\n"
        "assert [h.id for h in CatDoc(sys.argv[1]).search('password').results] == ['login']\n"
    )
    for root in fresh_projects:
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", script, str(root)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(6)
        ]
        for proc in procs:
            _, err = proc.communicate(timeout=HANG_GUARD)
            assert proc.returncode == 0, err


_CONFIG_TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(
        st.sampled_from(
            [
                "project:\n", "  toc:\n", "    - file: a.md\n", "      title: T\n",
                "  references:\n",
                "    guide: https://x\n", "name: shop\n", "version: ~\n", "version: true\n",
                "nav:\n", "  - A: a.md\n", "  - <b>x</b>: b.adoc\n", "&a [*a]\n", "*a\n", "- [\n",
                "extensions = ['myst_parser']\n", "myst_url_schemes = {'x': None}\n",
                "exclude_patterns = ['**a**a**b']\n", "\0", "\ufeff", "  " * 40 + "x: 1\n",
                "[" * 200, "site_name: s\n", "docs_dir: ..\n", "INHERIT: ../../etc/passwd\n",
                "extends: myst.yml\n", "extends: [../../x.yml, https://x.org/a.yml]\n",
                "extend: /etc/passwd\n", "extends: &e [*e, *e]\n", "extends: [\0, 3, {}]\n",
            ]
        ),
        max_size=12,
    ).map("".join),
)  # fmt: skip


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(["myst.yml", "modules/../antora.yml", "mkdocs.yml", "conf.py"]), _CONFIG_TEXT
)
def test_a_docs_tools_config_of_any_text_never_breaks_an_import(name: str, text: str) -> None:
    """The configurations an import reads beside the documents (mystmd's `myst.yml`, Antora's
    `antora.yml`, MkDocs' `mkdocs.yml`, Sphinx's `conf.py`) are other people's files: whatever
    they hold (`extends:` of itself, out of the project, of a URL), the import of the pages
    under them finishes: each page is an object, or one the tool does not build (Sphinx's
    default `source_suffix` is `.rst`)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        CatDoc.init(root, bare=True)
        pages = root / "docs" / "modules" / "ROOT" / "pages"
        pages.mkdir(parents=True)
        (pages / "a.adoc").write_text("= A\n\nSee xref:b.adoc[] and <<b.adoc#x,B>>.\n")
        (pages / "b.md").write_text("# B\n\n@a [](#x) [](x:y) <project:a.adoc> {ref}`x`\n")
        (root / "docs" / os.path.normpath(name)).write_bytes(text.encode("utf-8", "surrogatepass"))
        result = CatDoc(root).import_documents(["docs"], link=True)
        assert result.created + result.not_built == 2


_INCLUDE_OF = {
    "rst": ".. include:: {}.txt\n\n",
    "markdown": "```{{include}} {}.txt\n```\n\n",
    "asciidoc": "include::{}.txt[]\n\n",
}


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(sorted(_INCLUDE_OF)),
    st.lists(st.lists(st.integers(0, 11), min_size=5, max_size=20), min_size=12, max_size=12),
)
def test_an_include_graph_of_any_shape_is_walked_in_bounded_work(
    kind: str, graph: list[list[int]]
) -> None:
    """Files that include each other any number of times, in loops (docutils would insert a
    file once per include: 10 includes each, 8 deep, is 10^8 copies): the walk finishes, and
    names each file it reaches once."""
    from catdoc.includes import IncludeReader

    texts = {
        f"d/f{n}.txt": f".. _l{n}:\n\n[[l{n}]]\n\n"
        + "".join(_INCLUDE_OF[kind].format(f"f{m}") for m in targets)
        for n, targets in enumerate(graph)
    }
    found = IncludeReader(Path("/nonexistent"), "d", texts).of("d/f0.txt", texts["d/f0.txt"], kind)
    assert len(found.files) == len(set(found.files)) and set(found.files) <= set(texts)
