"""Several faces of one process hear the vectors computed in the background (`catdoc mcp
--dashboard` logs them and shows them): `CatDoc.watch_vectors` keeps every listener, each
throttled on its own, until it stops; a listener that fails stops neither the others nor the
work. The fake model of test_progress stands in for the semantic extra."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_progress import Report, assert_well_formed, fake_model, imported

from catdoc.search.engine import INDEX_FILE
from catdoc.service import CatDoc

__all__ = ["fake_model", "imported"]  # fixtures, used by name

STEP = "Computing vectors of documents in the background"


def background_search(root: Path, svc: CatDoc) -> None:
    """A hybrid search that leaves the vectors of 60 documents to a worker, waited for."""
    (root / ".catdoc" / "config.yaml").write_text("search:\n  vectors: auto\n", "utf-8")
    svc.search("payment", mode="hybrid")
    worker = svc.search_engine()._workers["doc"]
    worker.thread.join(60)
    assert worker.error is None and (worker.done, worker.total) == (60, 60)


def test_every_listener_hears_the_background_vectors(imported: Path, fake_model: None) -> None:
    svc = CatDoc(imported)
    logged: list[Report] = []
    shown: list[Report] = []
    svc.watch_vectors(lambda *report: logged.append(report))
    svc.watch_vectors(lambda *report: shown.append(report))
    background_search(imported, svc)
    for heard in (logged, shown):
        assert heard[0] == (STEP, 0, 60) and heard[-1] == (STEP, 60, 60)
        assert_well_formed(heard)


def test_a_stopped_listener_hears_no_more(imported: Path, fake_model: None) -> None:
    svc = CatDoc(imported)
    stopped: list[Report] = []
    kept: list[Report] = []
    stop = svc.watch_vectors(lambda *report: stopped.append(report))
    svc.watch_vectors(lambda *report: kept.append(report))
    stop()
    stop()  # stopping twice is harmless
    background_search(imported, svc)
    assert stopped == [] and kept[-1] == (STEP, 60, 60)


def test_a_failing_listener_stops_neither_the_others_nor_the_work(
    imported: Path, fake_model: None, caplog: pytest.LogCaptureFixture
) -> None:
    def closed(step: str, done: int, total: int | None) -> None:
        raise RuntimeError("the face is gone")

    svc = CatDoc(imported)
    heard: list[Report] = []
    svc.watch_vectors(closed)
    svc.watch_vectors(lambda *report: heard.append(report))
    with caplog.at_level("ERROR", logger="catdoc"):
        background_search(imported, svc)
    assert heard[-1] == (STEP, 60, 60)
    assert "A listener of the background vectors failed." in caplog.text


def test_watching_opens_no_search_index(imported: Path) -> None:
    """A face starts listening at start-up: that must not cost it the search stack."""
    svc = CatDoc(imported)
    svc.watch_vectors(lambda *report: None)
    assert svc._search_engine is None
    assert not (imported / ".catdoc" / "cache" / INDEX_FILE).exists()
