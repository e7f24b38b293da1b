"""Search through the service: escaping, filters, chunks, incremental index, repair, signals."""

from __future__ import annotations

import datetime as dt
import os
import threading
from pathlib import Path

import pytest
import time_machine
from search_project import TODAY, make_project

from catdoc import results as r
from catdoc.errors import IO_ERROR, NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.search import semantic
from catdoc.search.filters import build_condition, glob_regex, make_filters
from catdoc.service import CatDoc


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The search project with hybrid ranking on the default signals, extra installed or not."""
    root = make_project(tmp_path)
    set_vectors(root, "off")
    return root


def set_vectors(root: Path, value: str) -> None:
    (root / ".catdoc" / "config.yaml").write_text(f"search:\n  vectors: {value}\n", "utf-8")


@pytest.fixture
def svc(root: Path) -> CatDoc:
    return CatDoc(root)


@pytest.fixture
def on_today(time_machine: time_machine.TimeMachineFixture) -> None:
    """Hold the clock at noon of the day the project's dates count from, so that a run that
    crosses midnight still asks about the same "yesterday" (time keeps ticking from there)."""
    time_machine.move_to(dt.datetime.combine(TODAY, dt.time(12)).astimezone(), tick=True)


def ids(response: r.SearchResponse) -> list[str]:
    return [hit.id for hit in response.results]


def search(svc: CatDoc, query: str, **filters: object) -> list[str]:
    return ids(svc.search(query, filters=make_filters(filters), limit=50))


# ---------------------------------------------------------------------------- query text
@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_empty_query_is_a_validation_error(svc: CatDoc, query: str) -> None:
    with pytest.raises(CatDocError) as err:
        svc.search(query)
    assert err.value.code == VALIDATION_ERROR
    assert "empty" in err.value.message


NASTY = [
    "C++",
    '"',
    '""',
    '"unbalanced',
    "-x",
    "AND",
    "OR OR NOT",
    "key:value",
    "title:login",
    "*",
    "log*",
    "NEAR(a b)",
    "^start",
    "(((",
    "'; DROP TABLE docs; --",
    "a\x00b",
    "{title}: x",
    "ünïcödé ☃",
]


@pytest.mark.parametrize("query", NASTY)
@pytest.mark.parametrize("mode", ["text", "hybrid"])
@pytest.mark.parametrize("scope", ["documents", "chunks"])
def test_fts_syntax_in_queries_is_plain_text(
    svc: CatDoc, query: str, mode: str, scope: str
) -> None:
    response = svc.search(query, mode=mode, scope=scope)
    assert response.query == query
    assert response.total >= len(response.results)


def test_operators_and_punctuation_match_as_words(svc: CatDoc) -> None:
    assert search(svc, "C++")[0] == "note-cpp"
    assert search(svc, "AND")[0] == "note-cpp"
    assert search(svc, "key:value")[0] == "note-cpp"
    assert search(svc, "-x flags")[0] == "note-cpp"
    assert search(svc, "title:login")[0] == "req-login"


def test_quoted_phrase_must_match_as_a_phrase(svc: CatDoc) -> None:
    assert search(svc, '"failed attempts"') == ["req-login"]
    assert "req-login" not in search(svc, '"attempts failed"')


def test_query_of_only_punctuation_matches_nothing_with_a_note(svc: CatDoc) -> None:
    response = svc.search("+++ ***")
    assert response.results == []
    assert any("no words" in note for note in response.notes)


def test_stemming_matches_other_forms(svc: CatDoc) -> None:
    assert search(svc, "locking accounts")[0] == "req-login"
    assert "req-export" in search(svc, "downloading invoice")


# ---------------------------------------------------------------------------- results
def test_hit_fields_snippet_marks_and_concepts(svc: CatDoc) -> None:
    hit = svc.search("password security").results[0]
    assert hit.id in {"req-login", "des-auth"}
    assert hit.category in {"requirements", "design"}
    assert hit.path and hit.path.startswith("docs/")
    assert "«password" in hit.snippet.lower() or "«passwords" in hit.snippet.lower()
    assert "security" in hit.matched_concepts
    assert any(term.startswith("password") for term in hit.matched_terms)
    assert hit.signals is None


def test_snippets_of_one_query_do_not_leak_into_the_next(svc: CatDoc) -> None:
    """Pages are marked in a temporary index that must be empty again after every query."""
    first = svc.search("password", scope="chunks").results
    second = svc.search("invoice").results
    assert first and second
    assert any("«invoice" in h.snippet.lower() for h in second)
    assert not any("password" in term for h in second for term in h.matched_terms)
    conn = svc.search_engine().index.conn
    assert conn.execute("SELECT count(*) FROM temp.marks_text").fetchone() == (0,)
    assert conn.execute("SELECT count(*) FROM temp.marks_src").fetchone() == (0,)


def test_title_comes_from_front_matter_when_the_model_has_none(svc: CatDoc) -> None:
    hit = svc.search("lockout").results[0]
    assert (hit.id, hit.title) == ("req-login", "Login requirements")


def test_category_alias_is_a_concept(svc: CatDoc) -> None:
    hit = svc.search("reqs about invoices").results[0]
    assert hit.id == "req-export"
    assert "reqs" in hit.matched_concepts


def test_debug_shows_every_signal(svc: CatDoc) -> None:
    response = svc.search("session tokens", debug=True)
    signals = response.results[0].signals
    assert signals is not None
    for name in ("bm25", "title", "concept", "wordnet"):
        assert name in signals and f"{name}_raw" in signals
    contributions = sum(v for k, v in signals.items() if not k.endswith("_raw"))
    assert contributions == pytest.approx(response.results[0].score, abs=1e-5)
    assert any("Vector similarity is off" in note for note in response.notes)


def test_text_mode_is_bm25_alone_and_hybrid_expands_synonyms(svc: CatDoc) -> None:
    text = svc.search("mistake", mode="text", debug=True)
    assert text.expanded_terms == []
    hybrid = svc.search("liberation notes", mode="hybrid", debug=True)
    assert "release" in hybrid.expanded_terms
    absent = svc.search("purchases in files", mode="hybrid")  # no "buy" in it
    assert absent.expanded_terms == []
    for hit in text.results:
        assert set(k for k in hit.signals or {} if not k.endswith("_raw")) == {"bm25"}


def test_synonyms_weigh_less_than_the_users_words(svc: CatDoc) -> None:
    results = svc.search("liberation", debug=True).results  # found through "release"
    assert results
    assert all((hit.signals or {})["bm25"] == 0 for hit in results)
    assert all(hit.score <= 0.2 for hit in results)


def test_paging(svc: CatDoc) -> None:
    every = svc.search("the", limit=50)
    assert every.total == len(every.results) >= 3
    second = svc.search("the", limit=1, offset=1)
    assert [h.id for h in second.results] == [every.results[1].id]
    with pytest.raises(CatDocError):
        svc.search("the", limit=0)
    with pytest.raises(CatDocError):
        svc.search("the", offset=-1)


def test_paging_ranks_a_query_once_until_the_next_write(
    root: Path, svc: CatDoc, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = svc.search_engine()
    whole = ids(svc.search("the", limit=3))
    matches: list[str] = []
    real_match = type(engine.index).match

    def counted(self: object, scope: str, expression: str, *args: object) -> object:
        matches.append(expression)
        return real_match(self, scope, expression, *args)  # type: ignore[arg-type]

    real_scores = type(engine.index).scores

    def scored(self: object, scope: str, expression: str, *args: object) -> object:
        matches.append(expression)
        return real_scores(self, scope, expression, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(type(engine.index), "match", counted)
    monkeypatch.setattr(type(engine.index), "scores", scored)  # how narrow filters rank
    pages = [hit for i in range(3) for hit in ids(svc.search("the", limit=1, offset=i))]
    assert pages == whole
    assert matches == []
    svc.search("the", limit=3, filters=make_filters({"category": "design"}))
    assert matches  # other filters: ranked anew

    matches.clear()
    login = root / "docs" / "req" / "login.md"
    login.write_text(login.read_text("utf-8") + "\nQuokkas guard the door.\n", "utf-8")
    engine.sync(svc.project(), force=True)
    assert ids(svc.search("quokkas")) == ["req-login"]
    assert matches


@pytest.mark.parametrize(("key", "value"), [("mode", "fuzzy"), ("scope", "pages")])
def test_unknown_mode_or_scope(svc: CatDoc, key: str, value: str) -> None:
    with pytest.raises(CatDocError) as err:
        svc.search("login", **{key: value})  # type: ignore[arg-type]
    assert err.value.code == VALIDATION_ERROR and value in err.value.message


# ---------------------------------------------------------------------------- chunks
def test_chunks_have_heading_path_and_file_line_range(svc: CatDoc, root: Path) -> None:
    hit = svc.search("fifteen minutes", scope="chunks").results[0]
    assert hit.id == "req-login"
    assert hit.heading_path == ["Login requirements", "Lockout"]
    lines = (root / "docs/req/login.md").read_text().splitlines()
    assert hit.start_line is not None and hit.end_line is not None
    passage = "\n".join(lines[hit.start_line - 1 : hit.end_line])
    assert "fifteen minutes" in passage and "thirty" not in passage


def test_object_filter_searches_one_documents_passages(svc: CatDoc) -> None:
    response = svc.search("minutes", filters=r.SearchFilters(object="req-login"))
    assert response.scope == "chunks"
    assert {h.id for h in response.results} == {"req-login"}
    assert len(response.results) == 2
    assert any("--object" in note and "passages" in note for note in response.notes)
    with pytest.raises(CatDocError) as err:
        svc.search("minutes", filters=r.SearchFilters(object="req-logn"))
    assert err.value.code == NOT_FOUND and "req-login" in err.value.suggestions


# ---------------------------------------------------------------------------- filters
def test_category_by_id_name_alias_and_children(svc: CatDoc) -> None:
    assert set(search(svc, "password", category="requirements")) == {"req-login"}
    assert set(search(svc, "password", category="Requirements")) == {"req-login"}
    assert set(search(svc, "password", category="REQS")) == {"req-login"}
    assert search(svc, "password", category="engineering") == []
    both = search(svc, "password", category="engineering", include_children=True)
    assert set(both) == {"req-login", "des-auth"}
    with pytest.raises(CatDocError) as err:
        search(svc, "password", category="requirement")
    assert err.value.code == NOT_FOUND


def test_domain_tag_author_path_file_type(svc: CatDoc) -> None:
    assert search(svc, "password", domain="design") == ["des-auth"]
    assert set(search(svc, "password", tags=["security"])) == {"req-login", "des-auth"}
    assert search(svc, "password", tags=["AUTH"]) == ["req-login"]
    assert set(search(svc, "password", tags=["auth", "data"])) == {"req-login"}  # any of them
    assert search(svc, "password", tags=["nobody-uses-this"]) == []
    assert set(search(svc, "password", author="ada lovelace")) == {"req-login", "des-auth"}
    assert search(svc, "password", author="Nobody") == []
    assert search(svc, "password", path="docs/design/*") == ["des-auth"]
    assert search(svc, "password", path="login.md") == ["req-login"]
    assert search(svc, "files", path="**/*.txt") == ["des-notes"]
    assert search(svc, "files", file_type="txt") == ["des-notes"]
    assert search(svc, "files", file_type=".TXT") == ["des-notes"]


def test_filters_combine_with_and(svc: CatDoc) -> None:
    both = search(svc, "password", tags=["security"], author="Ada Lovelace")
    assert set(both) == {"req-login", "des-auth"}
    assert search(svc, "password", tags=["security"], category="design") == ["des-auth"]
    assert search(svc, "password", tags=["data"], category="design") == []


@pytest.mark.usefixtures("on_today")
def test_dates_use_updated_then_created(svc: CatDoc) -> None:
    assert search(svc, "files", since="2024-01-01", until="2024-12-31") == ["req-export"]
    yesterday = (TODAY - dt.timedelta(days=1)).isoformat()
    assert search(svc, "password", since=yesterday) == ["req-login"]


def test_file_modification_time_is_the_last_resort(svc: CatDoc) -> None:
    assert search(svc, "files", since=TODAY.isoformat()) == ["des-notes"]
    assert search(svc, "templates") == ["note-cpp"]
    assert search(svc, "templates", since="2000-01-01") == []


@pytest.mark.parametrize(
    ("period", "expected"),
    [
        ("yesterday", {"req-login"}),
        ("last_3_days", {"req-login"}),
        ("last_week", {"req-login", "des-auth"}),
        ("last_7_days", {"req-login", "des-auth"}),
        ("last_month", {"req-login", "des-auth"}),
        ("last_30_days", {"req-login", "des-auth"}),
    ],
)
@pytest.mark.usefixtures("on_today")
def test_periods(svc: CatDoc, period: str, expected: set[str]) -> None:
    assert set(search(svc, "password", period=period)) == expected


def test_period_with_dates_is_a_conflict_naming_both(svc: CatDoc) -> None:
    with pytest.raises(CatDocError) as err:
        search(svc, "password", period="last_week", since="2024-01-01")
    assert err.value.code == VALIDATION_ERROR
    assert "last_week" in err.value.message and "since=2024-01-01" in err.value.message
    with pytest.raises(CatDocError) as err:
        search(svc, "password", since="2025-02-01", until="2025-01-01")
    assert "after" in err.value.message


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        ({"since": "2024-13-01"}, "2024-13-01"),
        ({"until": "yesterday"}, "yesterday"),
        ({"period": "fortnight"}, "fortnight"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_filter_values_name_the_value(raw: dict[str, object], named: str) -> None:
    with pytest.raises(CatDocError) as err:
        make_filters(raw)
    assert err.value.code == VALIDATION_ERROR and named in err.value.message


def test_filter_values_are_bound_parameters_never_sql(svc: CatDoc) -> None:
    evil = "x' OR '1'='1"
    filters = make_filters(
        {"tags": [evil], "author": evil, "domain": evil, "path": evil, "file_type": evil}
    )
    cond = build_condition(svc, filters)
    assert evil not in " ".join(cond.sql)
    assert cond.params.count(evil.casefold()) + cond.params.count(evil) >= 4
    assert ids(svc.search("password", filters=filters)) == []
    assert set(search(svc, "password")) >= {"req-login", "des-auth"}


def test_glob_semantics() -> None:
    assert glob_regex("docs/*.md").match("docs/a.md")
    assert not glob_regex("docs/*.md").match("docs/x/a.md")
    assert glob_regex("docs/**/*.md").match("docs/a.md")
    assert glob_regex("docs/**/*.md").match("docs/x/y/a.md")
    assert glob_regex("a.md").match("deep/down/a.md")
    assert glob_regex("./docs/[ab].md").match("docs/b.md")


# ---------------------------------------------------------------------------- index upkeep
def test_incremental_reindex_touches_only_what_changed(root: Path) -> None:
    first = CatDoc(root)
    stats = first.search_engine().sync(first.project())
    assert (stats.indexed, stats.unchanged) == (5, 0)

    again = CatDoc(root)
    stats = again.search_engine().sync(again.project())
    assert (stats.indexed, stats.unchanged, stats.removed) == (0, 5, 0)

    login = root / "docs/req/login.md"
    login.write_text(login.read_text() + "\nBiometric unlock is out of scope.\n")
    svc = CatDoc(root)
    assert ids(svc.search("biometric")) == ["req-login"]
    assert svc.search_engine().last_sync.indexed == 1

    content = login.read_text()
    login.write_text(content)
    fresh = CatDoc(root)
    stats = fresh.search_engine().sync(fresh.project())
    assert stats.indexed == 0 and stats.touched in (0, 1)

    model = root / ".catdoc/category.yaml"
    model.write_text(model.read_text().replace("tags: [data]", "tags: [data, billing]"))
    stats = fresh.search_engine().sync(fresh.project())
    assert (stats.indexed, stats.removed) == (1, 0)
    assert ids(fresh.search("billing")) == ["req-export"]

    text = model.read_text()
    start = text.index("  - id: notes")
    model.write_text(text[:start])
    stats = fresh.search_engine().sync(fresh.project())
    assert (stats.indexed, stats.removed) == (0, 1)
    assert "note-cpp" not in ids(fresh.search("templates"))


def test_warm_service_sees_model_edits_at_once(svc: CatDoc, root: Path) -> None:
    assert ids(svc.search("billing")) == []
    model = root / ".catdoc/category.yaml"
    model.write_text(model.read_text().replace("tags: [data]", "tags: [data, billing]"))
    assert ids(svc.search("billing")) == ["req-export"]


def test_cold_process_skips_loading_an_unchanged_model(root: Path) -> None:
    CatDoc(root).search("password")
    svc = CatDoc(root)
    assert ids(svc.search("password"))
    assert svc._project is None


@pytest.mark.parametrize("damage", ["garbage", "truncate", "schema"])
def test_broken_or_stale_cache_is_rebuilt(root: Path, damage: str) -> None:
    CatDoc(root).search("password")
    db = root / ".catdoc/cache/search.sqlite3"
    if damage == "garbage":
        db.write_bytes(b"this is not a database" * 100)
        for suffix in ("-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    elif damage == "truncate":
        db.write_bytes(db.read_bytes()[:3000])
        for suffix in ("-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    else:
        import sqlite3

        conn = sqlite3.connect(db)
        conn.execute("UPDATE meta SET value = 'catdoc-search-0' WHERE key = 'schema'")
        conn.commit()
        conn.close()
    svc = CatDoc(root)
    assert "req-login" in ids(svc.search("password"))
    assert svc.search_engine().last_sync.indexed == 5


@pytest.mark.parametrize("refusal", ["access", "unlink"])
def test_a_stale_index_in_a_read_only_cache_is_not_called_damaged(
    root: Path, monkeypatch: pytest.MonkeyPatch, refusal: str
) -> None:
    """A read-only checkout (`chmod -R a-w`, as a non-root user: simulated, root writes
    anyway) said "damaged and cannot be removed"; it is stale and cannot be written."""
    import sqlite3

    CatDoc(root).search("password")
    db = root / ".catdoc/cache/search.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = 'catdoc-search-0' WHERE key = 'schema'")
    conn.commit()
    conn.close()
    # SQLite's -wal and -shm files come and go with connections: the index is what must stay
    before = sorted(p.name for p in db.parent.iterdir() if not p.name.endswith(("-wal", "-shm")))
    if refusal == "access":
        real_access = os.access
        monkeypatch.setattr(
            os, "access", lambda p, mode, **kw: Path(p) != db.parent and real_access(p, mode, **kw)
        )
    else:

        def refused(self: Path, missing_ok: bool = False) -> None:
            raise PermissionError(13, "Permission denied")

        monkeypatch.setattr(Path, "unlink", refused)
    with pytest.raises(CatDocError) as info:
        CatDoc(root).search("password")
    assert info.value.code == IO_ERROR
    assert "damaged" not in info.value.message
    assert f"its folder {db.parent} cannot be written" in info.value.message
    assert info.value.hint.startswith(f"Make {db.parent} writable")
    after = sorted(p.name for p in db.parent.iterdir() if not p.name.endswith(("-wal", "-shm")))
    assert after == before
    kept = sqlite3.connect(db)  # nothing deleted or rebuilt: still the stale index
    try:
        schema = kept.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    finally:
        kept.close()
    assert schema == ("catdoc-search-0",)


def test_unreadable_document_is_indexed_by_its_fields(svc: CatDoc, root: Path) -> None:
    (root / "docs/req/export.md").unlink()
    fresh = CatDoc(root)
    assert ids(fresh.search("data export", limit=1)) == ["req-export"]


def test_threads_share_one_engine(svc: CatDoc) -> None:
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for query in ("password", "files", "session tokens", "C++"):
                svc.search(query, scope="chunks")
                svc.search(query)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# ---------------------------------------------------------------------------- vectors
def test_vector_mode_without_the_extra_says_how_to_install(
    svc: CatDoc, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(semantic, "available", lambda: False)
    with pytest.raises(CatDocError) as err:
        svc.search("password", mode="vector")
    assert err.value.code == VALIDATION_ERROR
    assert "catdoc[semantic]" in err.value.hint
    assert svc.search("password", mode="hybrid").results


@pytest.mark.skipif(not semantic.available(), reason="catdoc[semantic] is not installed")
def test_vector_mode_ranks_by_meaning(svc: CatDoc) -> None:
    response = svc.search("how do people get into their accounts", mode="vector", debug=True)
    assert response.results[0].id in {"req-login", "des-auth"}
    assert (response.results[0].signals or {})["vector_raw"] > 0.2


def test_vectors_off_keeps_hybrid_on_the_other_signals(svc: CatDoc) -> None:
    response = svc.search("session tokens", debug=True)
    assert any("search.vectors: off" in note for note in response.notes)
    assert "vector" not in (response.results[0].signals or {})
    assert not svc.search_engine()._workers


needs_extra = pytest.mark.skipif(
    not semantic.available(), reason="catdoc[semantic] is not installed"
)


def finish_vectors(svc: CatDoc) -> None:
    for worker in list(svc.search_engine()._workers.values()):
        worker.thread.join(120)
        assert worker.error is None


@needs_extra
def test_hybrid_does_not_wait_for_vectors_and_keeps_them(root: Path) -> None:
    set_vectors(root, "auto")
    svc = CatDoc(root)
    first = svc.search("how do people get into their accounts", debug=True)
    assert any("Vectors are being computed" in n and " of " in n for n in first.notes)
    assert "vector" not in (first.results[0].signals or {})
    finish_vectors(svc)
    ready = svc.search("how do people get into their accounts", debug=True)
    assert not any("Vectors" in note for note in ready.notes)
    assert "vector" in (ready.results[0].signals or {})

    login = root / "docs" / "req" / "login.md"
    login.write_text(login.read_text("utf-8") + "\nPasskeys are supported.\n", "utf-8")
    svc.search_engine().sync(svc.project(), force=True)
    edited = svc.search("passkeys", debug=True)
    assert any("1 of " in note for note in edited.notes)
    finish_vectors(svc)
    assert "vector" in (svc.search("passkeys", debug=True).results[0].signals or {})
    assert len(svc.search_engine()._vectors["doc"]) == len(svc.project().object_by_id)
    svc.search_engine().close()

    restarted = CatDoc(root).search("how do people get into their accounts", debug=True)
    assert "vector" in (restarted.results[0].signals or {})


@needs_extra
def test_a_one_shot_service_says_how_to_compute_vectors_instead_of_starting_a_worker(
    root: Path,
) -> None:
    """A command that exits after its answer would kill a background worker before its first
    batch: it starts none, and its note names the command that computes the vectors."""
    set_vectors(root, "auto")
    svc = CatDoc(root, background=False)
    response = svc.search("how do people get into their accounts", debug=True)
    note = next(n for n in response.notes if "vectors" in n)
    assert "catdoc index --vectors" in note and " of " in note
    assert "background" not in note
    assert "vector" not in (response.results[0].signals or {})
    assert not svc.search_engine()._workers
    svc.search_engine().close()


@needs_extra
def test_vector_mode_honours_filters(svc: CatDoc) -> None:
    response = svc.search(
        "how do people get into their accounts",
        mode="vector",
        filters=make_filters({"category": "design"}),
        limit=50,
    )
    assert response.results
    assert {hit.category for hit in response.results} == {"design"}


@needs_extra
def test_matrix_updates_keep_rows_and_positions_in_step() -> None:
    import numpy as np

    vectors = np.eye(semantic.DIM, dtype=np.float32)[:3]
    matrix = semantic.with_rows(semantic.empty_matrix(), [5, 2, 9], vectors)
    matrix = semantic.with_rows(matrix, [2], vectors[2:3])
    matrix = semantic.without_rows(matrix, [5])
    assert sorted(matrix.rowids.tolist()) == [2, 9]
    for rowid in (2, 9):
        assert matrix.rowids[matrix.position[rowid]] == rowid
    assert np.array_equal(matrix.vectors[matrix.position[2]], vectors[2])
    assert matrix.position[5] == -1 and matrix.vectors.flags.c_contiguous


@pytest.mark.parametrize("scope", ["documents", "chunks"])
def test_filtered_match_walks_the_text_matches_first(svc: CatDoc, scope: str) -> None:
    """With a filter SQLite must loop over the FTS5 matches, not probe FTS5 per filtered row
    (that plan made category-filtered queries ~10x slower on 10,000 documents)."""
    svc.search("login")
    index = svc.search_engine().index
    cond = build_condition(svc, make_filters({"category": "requirements"}))
    sql, params = index._matching(scope, cond)
    plan = index.conn.execute(f"EXPLAIN QUERY PLAN SELECT count(*) {sql}", ("login", *params))
    steps = [row[-1] for row in plan.fetchall()]
    assert "VIRTUAL TABLE INDEX" in steps[0], steps


@pytest.mark.parametrize("scope", ["documents", "chunks"])
def test_narrow_filters_rank_their_rows_as_wide_ones_do(
    svc: CatDoc, monkeypatch: pytest.MonkeyPatch, scope: str
) -> None:
    """A filter letting few rows through scores those rows directly; on a project smaller than
    the candidate limit both ways see every matching row, so they rank alike."""
    from catdoc.search import engine

    filters = make_filters({"category": "design"})
    narrow = svc.search("session login form", scope=scope, filters=filters, debug=True)
    monkeypatch.setattr(engine, "FEW_ALLOWED", -1)
    svc.search_engine()._rankings.clear()
    wide = svc.search("session login form", scope=scope, filters=filters, debug=True)
    assert narrow.results and narrow.total == wide.total
    assert [(h.id, h.score) for h in narrow.results] == [(h.id, h.score) for h in wide.results]


@pytest.mark.parametrize("scope", ["documents", "chunks"])
def test_quotes_of_the_text_are_not_marks(root: Path, scope: str) -> None:
    """« and » are the marks: the text's own show as ‹ and ›, so a snippet's marks pair up."""
    doc = next((root / "docs").rglob("*.md"))
    doc.write_text(doc.read_text("utf-8") + "\nThe «unbalanced marmalade and » here.\n", "utf-8")
    hits = CatDoc(root).search("marmalade", scope=scope).results
    assert hits
    assert "‹unbalanced «marmalade» and › here" in hits[0].snippet


@pytest.mark.parametrize("scope", ["documents", "chunks"])
def test_snippets_leave_out_markdown_attribute_lists(root: Path, scope: str) -> None:
    """A Markdown page does not show its attribute lists (Python-Markdown's
    `### Inline Processors {: #inlineprocessors }`); a reST text's braces are its text."""
    (root / "docs" / "design" / "auth.md").write_text(
        "# Auth {: #auth }\n\n## Inline Processors { #inlineprocessors .api }\n\n"
        "Marmalade processors run inline.\n{: .note }\n",
        "utf-8",
    )
    (root / "docs" / "design" / "notes.txt").write_text(
        "Notes\n=====\n\nThe marmalade pattern ``(\\{.*?\\})`` and {.*?} in prose.\n",
        "utf-8",
    )
    hits = {h.id: h.snippet for h in CatDoc(root).search("marmalade", scope=scope).results}
    assert "{" not in hits["des-auth"] and "«Marmalade» processors" in hits["des-auth"]
    assert "{.*?}" in hits["des-notes"]


@pytest.mark.parametrize("scope", ["documents", "chunks"])
def test_snippets_show_the_words_not_the_markup(root: Path, scope: str) -> None:
    """A hit on a reST section shows its title and prose, not its adornment, target and the
    options of the directive under it."""
    doc = root / "docs" / "design" / "notes.txt"
    doc.write_text(
        ".. _guide-beat:\n\n================\n Periodic Tasks\n================\n\n"
        ".. contents::\n    :local:\n\n:program:`celery beat` schedules the periodic tasks.\n",
        "utf-8",
    )
    hits = CatDoc(root).search("periodic beat", scope=scope).results
    assert hits and hits[0].id == "des-notes"
    snippet = hits[0].snippet
    assert "«Periodic»" in snippet and "celery «beat» schedules" in snippet
    for markup in ("===", ".. _", "contents::", ":local:", ":program:"):
        assert markup not in snippet
