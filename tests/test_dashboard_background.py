"""The dashboard's view of the work done in the background (vectors for search): what a
`BackgroundWork` keeps of the reports it hears, and every page's header drawing it. The live
updates are tested in the real browser (test_dashboard_browser)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dashboard_project import make_dashboard_project
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from catdoc.progress import BackgroundWork, Step
from catdoc.service import CatDoc
from catdoc.web.app import create_app

PORT = 8000
STEP = "Computing vectors of documents in the background"

reports = st.lists(
    st.tuples(st.sampled_from(["documents", "passages"]), st.integers(0, 4), st.just(4)),
    max_size=12,
)


@settings(max_examples=60)
@given(reports)
def test_the_steps_under_way_are_the_last_unfinished_reports(
    heard: list[tuple[str, int, int]],
) -> None:
    work = BackgroundWork()
    before, _ = work.running()
    for report in heard:
        work(*report)
    seq, steps = work.running()
    last = {step: (done, total) for step, done, total in heard}
    expected = {step for step, (done, total) in last.items() if done != total}
    assert {s.step: (s.done, s.total) for s in steps} == {s: last[s] for s in expected}
    assert seq == before + len(heard)


def test_a_step_without_a_total_stays_until_it_has_one() -> None:
    work = BackgroundWork()
    work("Loading the embedding model", 0, None)
    assert work.running()[1] == [Step("Loading the embedding model", 0, None)]
    work("Loading the embedding model", 1, 1)
    assert work.running()[1] == []


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_dashboard_project(tmp_path_factory.mktemp("background") / "proj")


def header(root: Path, work: BackgroundWork | None, url: str = "/") -> str:
    app = create_app(CatDoc(root), background=work, port=PORT)
    page = TestClient(app, base_url=f"http://127.0.0.1:{PORT}").get(url)
    assert page.status_code == 200
    return page.text.split('<span id="background"', 1)[1].split('<span id="live"', 1)[0]


def test_every_page_header_shows_the_steps_under_way(root: Path) -> None:
    work = BackgroundWork()
    work(STEP, 1234, 5000)
    for url in ("/", "/validation", "/search?q=card"):
        drawn = header(root, work, url)
        assert " hidden" not in drawn.split(">", 1)[0]
        assert f"{STEP}: 1,234 of 5,000" in drawn
        assert '<progress max="5000" value="1234">' in drawn


def test_nothing_under_way_shows_nothing(root: Path) -> None:
    work = BackgroundWork()
    work(STEP, 60, 60)
    for drawn in (header(root, work), header(root, None)):
        assert " hidden" in drawn.split(">", 1)[0] and "<progress" not in drawn
