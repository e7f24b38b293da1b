"""Ranking quality on the relevance set in tests/relevance/: hybrid must beat plain BM25."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from catdoc.service import CatDoc

REPO = Path(__file__).resolve().parent.parent
SETS = sorted((REPO / "tests" / "relevance").glob("*.json"))


def mrr_at_10(svc: CatDoc, queries: list[dict[str, object]], mode: str) -> float:
    """Mean reciprocal rank of the first relevant document within the top 10."""
    total = 0.0
    for case in queries:
        hits = svc.search(str(case["query"]), mode=mode, limit=10).results
        relevant = set(case["relevant"])  # type: ignore[arg-type]
        total += next((1 / rank for rank, h in enumerate(hits, 1) if h.id in relevant), 0.0)
    return total / len(queries)


@pytest.mark.parametrize("spec", SETS, ids=lambda p: p.stem)
def test_hybrid_beats_bm25(spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATDOC_SEMANTIC", "0")
    data = json.loads(spec.read_text(encoding="utf-8"))
    queries = data["queries"]
    assert len(queries) >= 20
    root = tmp_path / "corpus"
    shutil.copytree(REPO / data["corpus"], root, ignore=shutil.ignore_patterns("cache"))
    svc = CatDoc(root)
    known = set(svc.project().object_by_id)
    assert all(set(case["relevant"]) <= known for case in queries)
    text, hybrid = mrr_at_10(svc, queries, "text"), mrr_at_10(svc, queries, "hybrid")
    assert hybrid > text, (hybrid, text)
    assert hybrid >= 0.8, hybrid
