"""Progress of long steps in the core: the protocol, its throttle, and what indexing, embedding
and importing report (every face relies on these reports)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catdoc import progress as p
from catdoc.errors import CatDocError
from catdoc.search import semantic
from catdoc.service import CatDoc

Report = tuple[str, int, int | None]


def notes_project(base: Path, count: int) -> Path:
    """A fresh project with `count` short notes under docs/notes (not yet imported)."""
    root = base / "proj"
    root.mkdir()
    CatDoc.init(root)
    folder = root / "docs" / "notes"
    folder.mkdir(parents=True)
    for i in range(count):
        (folder / f"note-{i:03}.md").write_text(
            f"# Note {i}\n\nA payment retry happens after failure number {i}.\n", encoding="utf-8"
        )
    return root


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    root = notes_project(tmp_path, 60)
    CatDoc(root).import_documents([str(root / "docs")])
    return root


def steps(reports: list[Report]) -> list[str]:
    return list(dict.fromkeys(step for step, _, _ in reports))


def assert_well_formed(reports: list[Report]) -> None:
    """Within a step `done` never goes down nor past `total`; a counted step ends complete."""
    last: dict[str, Report] = {}
    for step, done, total in reports:
        assert done >= 0 and (total is None or done <= total)
        if step in last:
            assert done >= last[step][1]
        last[step] = (step, done, total)
    for step, done, total in last.values():
        assert total is None or done == total, step


# ---------------------------------------------------------------------- the throttle
@given(
    st.lists(
        st.tuples(st.sampled_from("ab"), st.integers(0, 5), st.floats(0, 0.3)),
        max_size=40,
    )
)
def test_throttle_passes_new_steps_completions_and_reports_a_tenth_of_a_second_apart(
    events: list[tuple[str, int, float]],
) -> None:
    clock = [0.0]
    passed: list[tuple[float, str, int]] = []
    throttled = p.Throttled(
        lambda step, done, _total: passed.append((clock[0], step, done)),
        per_second=10,
        clock=lambda: clock[0],
    )
    previous: str | None = None
    for step, done, pause in events:
        clock[0] += pause
        count = len(passed)
        last = passed[-1][0] if passed else None
        throttled(step, done, 5)
        sent = len(passed) > count
        if step != previous or done == 5 or last is None or clock[0] >= last + 0.1:
            assert sent
        else:
            assert not sent
        previous = step


def test_throttled_keeps_none_and_never_wraps_twice() -> None:
    assert p.throttled(None) is p.no_progress
    assert p.throttled(p.no_progress) is p.no_progress
    once = p.throttled(lambda *_: None)
    assert p.throttled(once) is once


# ---------------------------------------------------------------------- search index
def test_a_cold_search_reports_reading_and_indexing_and_says_the_index_was_built(
    imported: Path,
) -> None:
    svc = CatDoc(imported)
    reports: list[Report] = []
    response = svc.search("payment retry", mode="text", progress=lambda *r: reports.append(r))
    assert steps(reports) == ["Reading documents", "Indexing documents"]
    assert reports[-1] == ("Indexing documents", 60, 60)
    assert_well_formed(reports)
    assert any("index was built first: 60 documents indexed" in n for n in response.notes)

    reports.clear()
    again = svc.search("payment", mode="text", progress=lambda *r: reports.append(r))
    assert reports == []
    assert not any("index was" in note for note in again.notes)


def test_a_few_changed_documents_are_indexed_without_a_note(imported: Path) -> None:
    svc = CatDoc(imported)
    svc.build_index()
    (imported / "docs" / "notes" / "note-007.md").write_text("# Seven\n\nRefund.\n", "utf-8")
    fresh = CatDoc(imported)
    reports: list[Report] = []
    response = fresh.search("refund", mode="text", progress=lambda *r: reports.append(r))
    assert [hit.id for hit in response.results] == ["note-007"]
    assert ("Indexing documents", 1, 1) in reports
    assert not any("index was" in note for note in response.notes)


def test_build_index_counts_what_it_did(imported: Path) -> None:
    svc = CatDoc(imported)
    reports: list[Report] = []
    first = svc.build_index(progress=lambda *r: reports.append(r))
    assert (first.documents, first.indexed, first.removed, first.vectors) == (60, 60, 0, [])
    assert_well_formed(reports)
    (imported / "docs" / "notes" / "note-001.md").write_text("# One\n\nChanged.\n", "utf-8")
    second = CatDoc(imported).build_index()
    assert (second.documents, second.indexed) == (60, 1)


def test_build_index_refuses_unknown_scopes_and_a_missing_extra(
    imported: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = CatDoc(imported)
    with pytest.raises(CatDocError) as bad:
        svc.build_index(vectors=["pages"])
    assert bad.value.code == "VALIDATION_ERROR" and "documents, chunks" in bad.value.hint
    monkeypatch.setattr(semantic, "available", lambda: False)
    with pytest.raises(CatDocError) as missing:
        svc.build_index(vectors=["documents"])
    assert "catdoc[semantic]" in missing.value.hint


# ---------------------------------------------------------------------- vectors
class FakeEmbedder:
    """Stands in for the ONNX model: a text's vector is one of a few axes."""

    def __init__(self) -> None:
        import numpy as np

        self.np = np

    def _one(self, text: str) -> object:
        vector = self.np.zeros(semantic.DIM, dtype=self.np.float32)
        vector[len(text) % 7] = 1.0
        return vector

    embed = semantic.Embedder.embed

    def query(self, text: str) -> object:
        return self._one(text)


@pytest.fixture
def fake_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The semantic extra replaced by `FakeEmbedder`; loading it reports like the real one."""
    monkeypatch.setattr(semantic, "available", lambda: True)
    model = FakeEmbedder()

    def embedder(progress: p.Progress = p.no_progress) -> FakeEmbedder:
        progress(semantic.LOADING, 0, None)
        return model

    monkeypatch.setattr(semantic, "embedder", embedder)


def test_embedding_reports_every_vector_on_one_core_or_all() -> None:
    model = FakeEmbedder()
    reports: list[Report] = []
    for every_core in (False, True):
        reports.clear()
        vectors = model.embed(
            ["a", "bb", "ccc"], every_core=every_core, progress=lambda *r: reports.append(r)
        )
        assert vectors.shape == (3, semantic.DIM)
        assert reports == [("Computing vectors", done, 3) for done in range(4)]


def test_a_vector_search_reports_loading_and_computing_vectors(
    imported: Path, fake_model: None
) -> None:
    reports: list[Report] = []
    response = CatDoc(imported).search(
        "payment", mode="vector", progress=lambda *r: reports.append(r)
    )
    assert len(response.results) == 10
    assert steps(reports) == [
        "Reading documents",
        "Indexing documents",
        semantic.LOADING,
        "Computing vectors of documents",
    ]
    assert reports[-1] == ("Computing vectors of documents", 60, 60)
    assert_well_formed(reports)


def test_build_index_computes_the_vectors_of_each_scope_once(
    imported: Path, fake_model: None
) -> None:
    svc = CatDoc(imported)
    result = svc.build_index(vectors=["documents", "chunks"])
    assert [(v.scope, v.computed, v.computed == v.total) for v in result.vectors] == [
        ("documents", 60, True),
        ("chunks", result.vectors[1].total, True),
    ]
    again = svc.build_index(vectors=["documents"])
    assert [(v.computed, v.total) for v in again.vectors] == [(0, 60)]


def test_background_vectors_report_to_whoever_watches(imported: Path, fake_model: None) -> None:
    (imported / ".catdoc" / "config.yaml").write_text("search:\n  vectors: auto\n", "utf-8")
    svc = CatDoc(imported)
    reports: list[Report] = []
    svc.watch_vectors(lambda *r: reports.append(r))
    response = svc.search("payment", mode="hybrid")
    assert any("computed in the background" in note for note in response.notes)
    worker = svc.search_engine()._workers["doc"]
    worker.thread.join(60)
    assert worker.error is None and (worker.done, worker.total) == (60, 60)
    step = "Computing vectors of documents in the background"
    assert steps(reports) == [step]
    assert reports[0] == (step, 0, 60) and reports[-1] == (step, 60, 60)
    assert_well_formed(reports)
    assert not any("background" in n for n in svc.search("payment", mode="hybrid").notes)


def test_nobody_watching_background_vectors_is_fine(imported: Path, fake_model: None) -> None:
    (imported / ".catdoc" / "config.yaml").write_text("search:\n  vectors: auto\n", "utf-8")
    svc = CatDoc(imported)
    svc.search("payment", mode="hybrid", scope="chunks")
    worker = svc.search_engine()._workers["chunk"]
    worker.thread.join(60)
    assert worker.error is None and worker.done == worker.total > 0


# ---------------------------------------------------------------------- import
def test_import_reports_each_phase(tmp_path: Path) -> None:
    root = notes_project(tmp_path, 12)
    reports: list[Report] = []
    result = CatDoc(root).import_documents(
        [str(root / "docs")], progress=lambda *r: reports.append(r)
    )
    assert result.created == 12
    assert steps(reports) == [
        "Finding documents",
        "Reading documents",
        "Planning objects",
        "Linking references",
        "Writing the model",
    ]
    assert ("Reading documents", 12, 12) in reports and ("Planning objects", 12, 12) in reports
    assert_well_formed(reports)


def test_the_mcp_server_logs_background_vectors(
    imported: Path, fake_model: None, caplog: pytest.LogCaptureFixture
) -> None:
    """`catdoc mcp` watches the background vectors with `log_vector_progress`: its log (stderr)
    says how far they are, since no request waits for them."""
    from catdoc.mcp_server import log_vector_progress

    (imported / ".catdoc" / "config.yaml").write_text("search:\n  vectors: auto\n", "utf-8")
    svc = CatDoc(imported)
    svc.watch_vectors(log_vector_progress)
    with caplog.at_level("INFO", logger="catdoc.mcp"):
        svc.search("payment", mode="hybrid")
        worker = svc.search_engine()._workers["doc"]
        worker.thread.join(60)
    lines = [r.getMessage() for r in caplog.records if "in the background" in r.getMessage()]
    assert lines and lines[-1] == "Computing vectors of documents in the background: 60 of 60"
