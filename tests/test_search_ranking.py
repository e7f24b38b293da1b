"""Ranking signals: query stop words, coverage, damped IDF and which words get synonyms."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.search import ranking, series
from catdoc.search.query import parse
from catdoc.search.synonyms import expand, lemma, synonyms
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


def write_model(
    root: Path, inline: list[tuple[str, str | None, str]], files: tuple[str, ...] = ()
) -> Path:
    """`.catdoc/` with one category `docs` (vectors off): objects for documents
    `docs/<id>.md`, then inline objects (id, title or None, content)."""
    (root / ".catdoc").mkdir(parents=True, exist_ok=True)
    lines = ["categories:", "  - id: docs", "    name: Docs", "    objects:"]
    for ident in files:
        lines += [f"      - id: {ident}", f"        path: docs/{ident}.md"]
    for ident, title, content in inline:
        lines.append(f"      - id: {ident}")
        if title is not None:
            lines.append(f"        title: {title}")
        lines.append(f'        content: "{content}"')
    (root / ".catdoc" / "category.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / ".catdoc" / "config.yaml").write_text("search:\n  vectors: off\n", encoding="utf-8")
    return root


def make_ranking_project(base: Path) -> Path:
    """Inline documents: one holds a rare query word only, one holds the two common ones."""
    objects: list[tuple[str, str | None, str]] = [
        ("rare-only", "Ledger", "Balances are reconciled against the bank statement nightly."),
        ("both", "Checkout", "When a payment fails, the customer may pick another card."),
        *((f"filler-{n}", f"Note {n}", text) for n, text in enumerate(FILLER)),
    ]
    return write_model(base / "ranking", objects)


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


@pytest.mark.parametrize(
    ("word", "singular", "never"),
    [
        ("minutes", "minute", "transactions"),
        ("fields", "field", "william claude dukenfield"),
        ("sessions", "session", "roger sessions"),
        ("links", "link", "golf links"),
    ],
)
def test_a_plural_means_what_its_singular_means(word: str, singular: str, never: str) -> None:
    """WordNet's own entry for a plural holds a rarer sense (meeting minutes, a comedian)."""
    assert lemma(word) == singular
    assert never not in synonyms(word)
    assert synonyms(word) == synonyms(singular)


def test_words_that_only_look_plural_keep_their_reading() -> None:
    assert lemma("physics") == "physics"  # not the plural of `physic` (a purgative)
    assert lemma("species") == "species"  # not the plural of `specie` (coins), used less
    assert lemma("classes") == "class" and lemma("class") == "class"
    assert lemma("uses") == "use"  # the shortest plural ending first: not `us`
    assert lemma("has") == "have" and lemma("mice") == "mouse"  # WordNet's exception lists
    assert lemma("data") == "data"  # a lemma of its own, used more than `datum`


@pytest.mark.parametrize(
    ("word", "reading"),
    [
        ("user", "user"),  # -er makes comparatives of adjectives: not `us` (United States)
        ("buffer", "buffer"),  # not `buff` (fan, devotee, lover)
        ("folder", "folder"),
        ("printer", "printer"),
        ("morning", "morning"),  # -ing makes verb forms: not `morn`
        ("bigger", "big"),
        ("embedded", "embed"),
        ("queries", "query"),
    ],
)
def test_endings_are_detached_only_for_the_parts_of_speech_they_make(
    word: str, reading: str
) -> None:
    assert lemma(word) == reading


@pytest.mark.parametrize("word", ["star", "stars", "view", "thread", "compile", "error", "keys"])
def test_ambiguous_words_are_not_expanded(word: str) -> None:
    """No sense holds two thirds of the word's uses (`star`: the sky's, a celebrity's)."""
    assert synonyms(word) == []


def test_the_table_is_sorted_and_well_formed() -> None:
    """Look-ups binary-search the lines: they must sort as their keys do."""
    from catdoc.search.synonyms import _lines

    lines = _lines()
    assert lines == sorted(lines)
    for line in lines:
        key, *rest = line.split("\t")
        if key[0] in "~=":
            assert len(rest) == 1 and rest[0][:1].isalnum(), line
        else:
            assert len(rest) == 2 and rest[1] and set(rest[1]) <= set("nvar"), line


@given(st.text(max_size=30))
@settings(max_examples=300)
def test_any_text_is_a_word_or_none(text: str) -> None:
    """The table's marks (`~`, `=`) and separators in a query word find nothing."""
    found = lemma(text)
    assert found is None or (found and "\t" not in found)
    assert all(s and "\t" not in s and "\n" not in s for s in synonyms(text))
    for mark in ("~", "="):
        assert lemma(mark + "mice") is None and synonyms(mark + "minutes") == []
    assert synonyms("car\tautomobile|auto|motorcar") == []


def test_content_words_still_expand() -> None:
    assert expand(("purchase", "cars")) == {
        "purchase": ["buy"],
        "cars": ["automobile", "auto", "motorcar"],
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


# ---------------------------------------------------------------------------- compounds
def test_words_joined_by_punctuation_are_optional_phrases() -> None:
    parsed = parse("which Python versions work with Django 5.1 and manage.py")
    assert parsed.compounds == (("5", "1"), ("manage", "py"))
    assert {"5", "1", "manage", "py"} <= set(parsed.terms)
    assert parsed.fts_all() == " AND ".join(f'"{t}"' for t in parsed.terms)  # never required


def test_contractions_are_not_compounds() -> None:
    assert parse("why isn't it found").compounds == ()
    assert parse('a "quoted phrase" stays a phrase').compounds == ()


def test_a_version_prefers_its_own_digits_in_order(tmp_path: Path) -> None:
    objects: list[tuple[str, str | None, str]] = [
        ("notes-1-5", "Release notes", "Version 1.5 supports Python 2."),
        ("notes-5-1", "Release notes", "Version 5.1 supports Python 3."),
    ]
    root = write_model(tmp_path / "versions", objects)
    for scope in ("documents", "chunks"):
        assert CatDoc(root).search("python in 5.1", scope=scope).results[0].id == "notes-5-1"


# ---------------------------------------------------------------------------- best passage
def make_long_page_project(base: Path) -> Path:
    """A long reference page with one section on the subject, and short pages that mention the
    query's words in passing."""
    root = base / "pages"
    docs = root / "docs"
    docs.mkdir(parents=True)
    sections = [
        f"Section {n}\n==========\n\n" + " ".join(FILLER[n % len(FILLER)] for _ in range(12))
        for n in range(30)
    ]
    sections.insert(
        17,
        "Rotating signing keys\n=====================\n\n"
        "To rotate the signing keys, create the new key, publish it next to the old one, wait "
        "until every cached token expires, then retire the old signing key.",
    )
    (docs / "reference.md").write_text("# Reference\n\n" + "\n\n".join(sections), encoding="utf-8")
    (docs / "keys.md").write_text(
        "# Keys\n\nKeys are kept in the vault. Tokens expire after an hour. "
        + " ".join(FILLER[:6]),
        encoding="utf-8",
    )
    fillers = [(f"filler-{n}", None, text) for n, text in enumerate(FILLER)]
    return write_model(root, fillers, files=("reference", "keys"))


def test_a_long_page_is_judged_by_its_best_passage(tmp_path: Path) -> None:
    svc = CatDoc(make_long_page_project(tmp_path))
    query = "how do I rotate signing keys without breaking tokens"
    hits = svc.search(query, debug=True).results
    assert [h.id for h in hits[:2]] == ["reference", "keys"]
    passages = [(h.signals or {})["passage_raw"] for h in hits[:2]]
    assert 1.0 >= passages[0] > passages[1] > 0
    assert "passage" not in ranking.weights_for("chunks", "hybrid", vector=False)
    assert "passage" not in ranking.weights_for("documents", "text", vector=False)


# ---------------------------------------------------------------------------- printed synonyms
def test_only_synonyms_found_in_the_project_are_searched_and_shown(tmp_path: Path) -> None:
    svc = CatDoc(make_ranking_project(tmp_path))
    assert expand(("purchases",)) == {"purchases": ["buy"]}
    response = svc.search("purchases in invoices")
    assert response.expanded_terms == []  # "buy" does not occur in the project


def test_a_synonym_the_query_already_matches_is_not_searched(tmp_path: Path) -> None:
    objects = [
        ("widgets", "Widgets", "Instal each widget, then embed or plant it on a page."),
        *((f"filler-{n}", f"Note {n}", text) for n, text in enumerate(FILLER)),
    ]
    svc = CatDoc(write_model(tmp_path / "widgets", objects))
    assert expand(("install", "embedded")) == {
        "install": ["instal"],
        "embedded": ["embed", "imbed", "plant"],
    }
    response = svc.search("install embedded widgets")
    # `instal` stems as `install` does; `embed` does not stem as `embedded` (emb, embed)
    assert response.expanded_terms == ["embed", "plant"]


def test_a_synonym_the_project_rarely_uses_beside_the_word_is_another_sense(
    tmp_path: Path,
) -> None:
    collected = [  # the project's word is `garbage` (as in garbage collection) …
        (f"gc-{n}", f"Collector {n}", f"The garbage collector frees cycles, pass {n}.")
        for n in range(8)
    ]
    objects = [
        *collected,
        ("bins", "Bins", "Put refuse in the bins."),  # … and `refuse` is another sense
        ("orders", "Orders", "Customers buy plans; each buy is an order."),
        *((f"filler-{n}", f"Note {n}", text) for n, text in enumerate(FILLER)),
    ]
    svc = CatDoc(write_model(tmp_path / "gc", objects))
    assert expand(("garbage",)) == {"garbage": ["refuse"]}
    assert svc.search("garbage collector").expanded_terms == []
    assert svc.search("purchases", scope="chunks").expanded_terms == ["buy"]  # no `purchase`


# ---------------------------------------------------------------------------- word counts
@pytest.mark.parametrize("scope", ["documents", "chunks"])
def test_vocabulary_counts_agree_with_counting_matches(tmp_path: Path, scope: str) -> None:
    """IDFs read how many rows hold a word from FTS5's vocabulary; it must be the number of
    rows the word matches, for plain, stemmed, split, absent and non-ASCII words alike."""
    from catdoc.search.query import fts_string

    svc = CatDoc(make_ranking_project(tmp_path))
    svc.search("payment")  # builds the index
    engine = svc.search_engine()
    for word in ["payment", "payments", "failed", "e-mail", "Zahlung", "ÉCHEC", "nothing-here"]:
        unit = fts_string([word])
        assert engine._rows_with(scope, unit) == engine._count(scope, unit), word


# ---------------------------------------------------------------------------- stub prior
def _sqlite_varint(value: int) -> bytes:
    """SQLite's varint encoding (what FTS5 writes), for checking the decoder."""
    if value > 0x00FFFFFFFFFFFFFF:
        tail, value = bytes([value & 0xFF]), value >> 8
        groups = [(value >> (7 * i)) & 0x7F for i in range(8)]
        return bytes(g | 0x80 for g in reversed(groups)) + tail
    groups = [value & 0x7F]
    value >>= 7
    while value:
        groups.append((value & 0x7F) | 0x80)
        value >>= 7
    return bytes(reversed(groups))


@given(st.lists(st.integers(min_value=0, max_value=2**64 - 1), max_size=6))
@settings(max_examples=60)
def test_varints_decode_what_sqlite_encodes(values: list[int]) -> None:
    from catdoc.search.lengths import varints

    assert varints(b"".join(map(_sqlite_varint, values))) == values


def test_lengths_are_fts5s_token_counts(tmp_path: Path) -> None:
    from catdoc.search.lengths import average_length, lengths

    svc = CatDoc(make_ranking_project(tmp_path))
    svc.search("payment")  # builds the index
    conn = svc.search_engine().index.conn
    conn.execute("CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, docs_fts, instance)")
    counted = dict(conn.execute("SELECT doc, count(*) FROM temp.words GROUP BY doc"))
    assert lengths(conn, "docs_fts", sorted(counted)) == counted
    assert average_length(conn, "docs_fts") == pytest.approx(sum(counted.values()) / len(counted))


def test_length_share_is_one_beyond_a_stub() -> None:
    assert ranking.length_share(10, 0.0) == 1.0
    assert ranking.length_share(1_000, 100.0) == 1.0
    floor = ranking.STUB_SHARE * 100.0
    assert ranking.length_share(int(floor) // 2, 100.0) == pytest.approx((int(floor) // 2) / floor)


def test_a_stub_that_mentions_the_words_ranks_below_a_page_about_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BM25 favours a two-line note that names the words once over a page that explains them;
    the stub prior puts the page first (and leaves longer documents alike)."""
    page = (
        "When an upload is larger than the configured limit the request is refused with an "
        "error before the body is read. " + " ".join(FILLER[:2])
    )
    objects: list[tuple[str, str | None, str]] = [
        ("stub", "Notes", "Upload limit error fixed."),
        ("page", "Requests", page),
        *((f"filler-{n}", f"Note {n}", " ".join(FILLER[n:] + FILLER[:n])) for n in range(6)),
    ]
    svc = CatDoc(write_model(tmp_path / "stub", objects))
    query = "upload limit error"
    assert svc.search(query, mode="text").results[0].id == "stub"
    hits = svc.search(query, debug=True).results
    assert [h.id for h in hits[:2]] == ["page", "stub"]
    signals = {h.id: h.signals or {} for h in hits}
    assert signals["stub"]["length_raw"] < 1.0 == signals["page"]["length_raw"]
    monkeypatch.setattr(ranking, "DOCUMENT_WEIGHTS", {**ranking.DOCUMENT_WEIGHTS, "length": 0.0})
    assert svc.search(query + " ").results[0].id == "stub"  # the prior decides


# ---------------------------------------------------------------------------- versioned series
def test_versions_are_numbers_joined_by_dots() -> None:
    assert series.pattern_of("Django 1.0.2 release notes") == ("django # release notes", "1.0.2")
    assert series.pattern_of("What's new in SQLAlchemy 2.1?") == (
        "what's new in sqlalchemy #?",
        "2.1",
    )
    assert series.pattern_of("Writing your first app, part 2") is None
    assert series.named_versions("did filter_by() change in 2.1, or in 2.0?") == {"2.1", "2.0"}
    assert series.named_versions("Python 3 and IPv4") == frozenset()


VERSIONS = st.lists(st.integers(0, 99), min_size=2, max_size=4).map(
    lambda parts: ".".join(map(str, parts))
)


@given(VERSIONS, VERSIONS, st.sampled_from(["Acme {} release notes", "{} Changelog", "Sphinx {}"]))
@settings(max_examples=40)
def test_titles_equal_but_for_their_versions_share_a_pattern(
    first: str, second: str, title: str
) -> None:
    one, two = series.pattern_of(title.format(first)), series.pattern_of(title.format(second))
    assert one is not None and two is not None
    assert one[0] == two[0] and (one[1], two[1]) == (first, second)
    other = series.pattern_of(("Beta " + title).format(first))
    assert other is not None and other[0] != one[0]


def test_series_members_are_counted_over_every_title(tmp_path: Path) -> None:
    """The engine counts a pattern's documents among those holding its words in their titles;
    that must be the count over every title (spelling, stop words, numbers-only titles)."""
    titles = [
        "Acme 1.0 release notes",
        "ACME 1.1 Release Notes",
        "Acme 2.0.1 release notes",
        "Acme release notes",
        "Acme 3.0 release notes and more",
        "What's new in Acme 2.0?",
        "What's new in Acme 2.1?",
        "1.0",
        "2.0",
        "3.1.4",
        "Installing 2.0 on Linux",
    ]
    objects = [(f"doc-{n}", title, f"Text {n} about acme.") for n, title in enumerate(titles)]
    svc = CatDoc(write_model(tmp_path / "titles", objects))
    svc.search("acme")  # builds the index
    engine = svc.search_engine()
    facts = engine._facts("documents", {k.rowid for k in engine.index.known().values()})
    found = {facts[rowid].row["id"]: v for rowid, v in engine._series_members(facts).items()}
    patterns = {f"doc-{n}": series.pattern_of(title) for n, title in enumerate(titles)}
    sizes = Counter(p[0] for p in patterns.values() if p)
    expected = {i: p[1] for i, p in patterns.items() if p and sizes[p[0]] >= series.MIN_SERIES}
    assert found == expected
    assert set(expected) == {"doc-0", "doc-1", "doc-2", "doc-7", "doc-8", "doc-9"}


def test_the_series_prior_spares_the_version_a_query_names() -> None:
    named = series.named_versions("what changed in 2.1")
    assert series.prior(None, named) == 1.0
    assert series.prior("2.1", named) == 1.0
    assert series.prior("2.1.3", named) == series.prior("2.0", named) == series.SHARE < 1.0


def _release_notes_project(base: Path) -> Path:
    """Three release notes that name the upload limit in passing among many other changes, and
    one guide about it."""
    changes = [
        "Upload size limit error messages now name the limit.",
        "The export job retries failed files.",
        "Invoices show the currency.",
        "Logging includes the request duration.",
        "Refunds are recorded on the original order.",
    ]
    guide = (
        "Uploads larger than the configured size are refused before the body is read. "
        "Raise the limit in the settings; the error page explains the limit to the user. "
        + " ".join(FILLER[:4])
    )
    objects: list[tuple[str, str | None, str]] = [
        *(
            (f"notes-{v}", f"Acme {v} release notes", " ".join(changes[n:] + changes[:n]))
            for n, v in enumerate(["1.0", "1.1", "2.0"])
        ),
        ("guide", "Handling large files", guide),
        *((f"filler-{n}", f"Note {n}", " ".join(FILLER[n:] + FILLER[:n])) for n in range(6)),
    ]
    return write_model(base / "series", objects)


def test_release_notes_rank_below_the_page_about_the_subject(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Release notes mention every subject in passing; the series prior puts the page about it
    (and its passage) first unless the query names a release."""
    svc = CatDoc(_release_notes_project(tmp_path))
    query = "upload size limit error"
    hits = svc.search(query, debug=True).results
    assert hits[0].id == "guide"
    signals = {h.id: h.signals or {} for h in hits}
    assert signals["notes-1.1"]["series_raw"] == series.SHARE
    assert signals["guide"]["series_raw"] == 1.0 and signals["guide"]["series"] == 0.0
    for hit in hits:  # what the prior took off is a contribution like the others
        contributions = [v for k, v in (hit.signals or {}).items() if not k.endswith("_raw")]
        assert sum(contributions) == pytest.approx(hit.score, abs=1e-5)
    named = {h.id: h.signals or {} for h in svc.search(query + " in 1.1", debug=True).results}
    assert named["notes-1.1"]["series_raw"] == 1.0 > named["notes-2.0"]["series_raw"]
    passages = svc.search(query, scope="chunks", debug=True).results
    assert passages[0].id == "guide"
    assert {h.id: (h.signals or {})["series_raw"] for h in passages}["notes-2.0"] == series.SHARE
    assert "series_raw" not in (svc.search(query, mode="text", debug=True).results[0].signals or {})
    monkeypatch.setattr(series, "SHARE", 1.0)
    assert svc.search(query + " ").results[0].id.startswith("notes-")  # the prior decides


# ---------------------------------------------------------------------------------- changelogs
def test_a_changelog_is_known_by_its_version_headings() -> None:
    versions = [f"pytest 9.{n}.0 (2026-0{n + 1}-10)" for n in range(5)]
    sections = ["Changelog", "Bug fixes", "Features"]
    assert series.changelog_versions(versions + sections) == {f"9.{n}.0" for n in range(5)}
    assert series.changelog_versions(["2.0.36", "2.0.35", "2.0.34", "2.0.33", "2.0.1"]) == {
        "2.0.36", "2.0.35", "2.0.34", "2.0.33", "2.0.1"
    }  # fmt: skip
    assert series.changelog_versions(versions[:4] + sections) is None  # too few versions
    assert series.changelog_versions(versions + [f"Topic {n}" for n in range(6)]) is None
    numbered = ["1.1 Baseline", "1.2 Compilation options", "1.2.1 Basic usage", "1.2.2 Backends"]
    assert series.changelog_versions([*numbered, "1.3 Custom builds", "Migrating"]) is None


def test_the_changelog_prior_spares_a_release_the_query_names() -> None:
    versions = frozenset({"9.2.0", "9.2.1", "9.1.0"})
    assert series.changelog_prior(versions, series.named_versions("what's new in 9.2")) == 1.0
    assert series.changelog_prior(versions, series.named_versions("changes in 9.1.0")) == 1.0
    assert series.changelog_prior(versions, series.named_versions("in 9.22")) == series.SHARE
    assert series.changelog_prior(versions, frozenset()) == series.SHARE


def test_a_changelog_ranks_below_the_page_about_the_subject(tmp_path: Path) -> None:
    """A changelog names every subject in passing, a section per release; like release notes
    it keeps `series.SHARE` of its score unless the query names one of its releases."""
    root = write_model(tmp_path / "log", [], files=("changelog", "guide", "other"))
    releases = [
        f"## Acme 2.{n}.0 (2026-0{n + 1}-01)\n\n### Bug fixes\n\n"
        f"Upload size limit error messages now name the limit ({n}). Invoices show currency.\n"
        for n in range(6)
    ]
    docs = root / "docs"
    docs.mkdir()
    (docs / "changelog.md").write_text("# Changelog\n\n" + "\n".join(releases))
    (docs / "guide.md").write_text(
        "# Handling large files\n\nUploads larger than the configured size are refused. Raise "
        "the limit in the settings; the error page explains the limit.\n"
    )
    (docs / "other.md").write_text("# Other\n\n" + " ".join(FILLER))
    svc = CatDoc(root)
    query = "upload size limit error"
    hits = svc.search(query, debug=True).results
    assert [h.id for h in hits][:2] == ["guide", "changelog"]
    assert (hits[1].signals or {})["series_raw"] == series.SHARE
    named = {h.id: h.signals or {} for h in svc.search(query + " in 2.3", debug=True).results}
    assert named["changelog"]["series_raw"] == 1.0
    passages = svc.search(query, scope="chunks", debug=True).results
    assert passages[0].id == "guide"
    assert {(h.signals or {})["series_raw"] for h in passages if h.id == "changelog"} == {
        series.SHARE
    }
