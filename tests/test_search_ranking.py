"""Ranking signals: query stop words, coverage, damped IDF and which words get synonyms."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from catdoc.search import ranking
from catdoc.search.query import parse
from catdoc.search.synonyms import expand, synonyms
from catdoc.service import CatDoc

FILLER = [
    "Card payment screens show the amount and the currency before confirming.",
    "The payment provider sends a webhook once the money has settled.",
    "Refunds create a negative payment on the original order.",
    "Every payment carries an idempotency key.",
    "A payment in another currency is converted at the daily rate.",
    "Payment receipts are sent by e-mail.",
    "A failed export is retried the next night.",
    "Failed logins are counted per address and throttled.",
    "When the mail server fails, messages wait in the outbox.",
    "Invoices are numbered per year and never reused.",
    "The export job writes one CSV file per day into the archive bucket.",
    "Support can resend an invoice from the order page.",
    "Exports older than a year are deleted by the retention job.",
    "Every request is logged with its duration and status code.",
]


def make_ranking_project(base: Path) -> Path:
    """Inline documents: one holds a rare query word only, one holds the two common ones."""
    root = base / "ranking"
    (root / ".catdoc").mkdir(parents=True)
    objects = [
        ("rare-only", "Ledger", "Balances are reconciled against the bank statement nightly."),
        ("both", "Checkout", "When a payment fails, the customer may pick another card."),
        *((f"filler-{n}", f"Note {n}", text) for n, text in enumerate(FILLER)),
    ]
    lines = ["categories:", "  - id: docs", "    name: Docs", "    objects:"]
    for ident, title, content in objects:
        lines += [
            f"      - id: {ident}",
            f"        title: {title}",
            f'        content: "{content}"',
        ]
    (root / ".catdoc" / "category.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / ".catdoc" / "config.yaml").write_text("search:\n  vectors: off\n", encoding="utf-8")
    return root


# ---------------------------------------------------------------------------- query words
def test_question_words_are_left_out_of_the_terms() -> None:
    assert parse("what happens when payment fails").terms == ("payment", "fails")
    assert parse("how must I acknowledge a page").terms == ("acknowledge", "page")


def test_contraction_leftovers_are_stop_words() -> None:
    assert parse("why doesn't the client's retry work").terms == ("client", "retry", "work")


def test_stop_words_stay_when_nothing_else_is_left() -> None:
    assert parse("what happens").terms == ("what", "happens")


def test_phrases_keep_their_stop_words() -> None:
    parsed = parse('"what happens" payment')
    assert parsed.terms == ("payment",)
    assert parsed.phrases == (("what", "happens"),)


# ---------------------------------------------------------------------------- signals
def test_coverage_is_the_share_of_units_matched() -> None:
    per_unit = [{1: 3.0, 2: 0.5}, {2: 0.2}, {3: 1.0}]
    assert ranking.coverage(per_unit) == pytest.approx({1: 1 / 3, 2: 2 / 3, 3: 1 / 3})
    assert ranking.coverage([]) == {}


def test_fts_idf_is_floored_like_fts5() -> None:
    assert ranking.fts_idf(1, 100) == pytest.approx(math.log(99.5 / 1.5))
    assert ranking.fts_idf(80, 100) == 1e-6
    assert ranking.fts_idf(0, 0) == 1e-6


def test_damped_idf_keeps_one_rare_word_from_outweighing_two() -> None:
    rare, common = ranking.fts_idf(1, 1000), ranking.fts_idf(100, 1000)
    # FTS5 scores are IDF × term-frequency part; equal frequency parts of 1 here.
    per_unit = [{1: rare * 1.0}, {2: common * 1.0}, {2: common * 1.0}]
    plain = {1: rare, 2: 2 * common}
    assert plain[1] > plain[2]
    damped = ranking.damped(per_unit, [rare, common, common])
    assert damped[2] == 1.0 and damped[1] < 1.0


def test_weights_sum_to_one_without_vectors() -> None:
    for scope in ("documents", "chunks"):
        weights = ranking.weights_for(scope, "hybrid", vector=False)
        assert "vector" not in weights and "coverage" in weights
        assert sum(weights.values()) == pytest.approx(1.0)
        assert weights["wordnet"] <= 0.2


# ---------------------------------------------------------------------------- synonyms
def test_light_verbs_are_not_expanded() -> None:
    for word in ("fails", "failed", "occur", "gets", "kept", "run"):
        assert synonyms(word) == [], word


def test_expansions_never_are_light_verbs() -> None:
    assert "make" not in synonyms("build")
    assert synonyms("build") == ["construct"]
    assert all(
        "go " not in s and "take " not in s for found in expand(("happen",)).values() for s in found
    )


def test_content_words_still_expand() -> None:
    assert expand(("mistakes", "purchase")) == {
        "mistakes": ["error", "fault"],
        "purchase": ["buy"],
    }


# ---------------------------------------------------------------------------- end to end
@pytest.mark.parametrize("scope", ["documents", "chunks"])
def test_two_of_two_words_beat_one_rare_word(tmp_path: Path, scope: str) -> None:
    svc = CatDoc(make_ranking_project(tmp_path))
    query = "reconciled payment fails"
    text = svc.search(query, mode="text", scope=scope).results
    assert text[0].id == "rare-only"  # plain BM25: the rare word dominates
    hybrid = svc.search(query, scope=scope, debug=True).results
    assert hybrid[0].id == "both"
    signals = hybrid[0].signals or {}
    assert signals["coverage_raw"] == pytest.approx(2 / 3)
    rare = next(h for h in hybrid if h.id == "rare-only")
    assert (rare.signals or {})["coverage_raw"] == pytest.approx(1 / 3)


def test_a_repeated_stem_counts_once(tmp_path: Path) -> None:
    svc = CatDoc(make_ranking_project(tmp_path))
    hit = svc.search("payment payments fails", debug=True).results[0]
    assert hit.id == "both"
    assert (hit.signals or {})["coverage_raw"] == pytest.approx(1.0)


def test_deep_pages_are_scored_in_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from catdoc.search import index

    monkeypatch.setattr(index, "SCORE_BATCH", 2)
    svc = CatDoc(make_ranking_project(tmp_path))
    hits = svc.search("payment fails", debug=True, limit=20).results
    assert hits[0].id == "both"
    assert {h.id for h in hits} >= {"filler-0", "filler-6"}
