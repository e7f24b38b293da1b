"""CatDocError: stable codes, messages with a fix, and did-you-mean suggestions."""

from __future__ import annotations

from catdoc.errors import NOT_FOUND, CatDocError, closest, not_found


def test_closest_prefers_prefix_then_fuzzy() -> None:
    ids = ["req-auth", "req-audit", "spec-auth", "design-api"]
    assert closest("req-au", ids)[:2] == ["req-audit", "req-auth"]
    assert "spec-auth" in closest("spec-aut", ids)
    assert closest("zzzzzz", ids) == []


def test_not_found_body_has_code_message_hint_and_suggestions() -> None:
    error = not_found("Category", "requirments", ["requirements", "design"])
    body = error.to_dict()["error"]
    assert body["code"] == NOT_FOUND
    assert body["message"] == "Category not found: 'requirments'."
    assert body["didYouMean"] == ["requirements"]
    assert body["hint"]


def test_str_mentions_suggestions_and_hint() -> None:
    error = CatDocError("X", "Broken.", "Fix it.", ["a"])
    assert str(error) == "Broken. Did you mean: a?\nHint: Fix it."
    assert "didYouMean" not in CatDocError("X", "m").to_dict()["error"]


def test_a_huge_mistyped_id_is_quoted_short_and_compared_cheaply() -> None:
    from catdoc.errors import MAX_QUOTED_ID, closest, not_found

    huge = "a" * 10_000_000
    error = not_found("Object", huge, ["alpha", "beta"])
    assert len(error.message) < MAX_QUOTED_ID + 100
    assert "10,000,000 characters" in error.message
    assert closest(huge, ["a" * 300]) == ["a" * 300]  # compares the first characters only
