"""Suspect links: a document edit makes exactly the links touching it suspect, a review clears
them, whitespace and front matter do not count; the write path stamps new links, carries stamps
through renames and drops them with removals; reviews.yaml is read safely and edited in place;
the diff since the review comes from git."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from catdoc import yaml_source
from catdoc.cli import app
from catdoc.errors import LOAD_ERROR, NOT_FOUND, PATH_OUTSIDE_PROJECT, VALIDATION_ERROR, CatDocError
from catdoc.fingerprints import text_fingerprint
from catdoc.project import load_project
from catdoc.review_links import LinkRef
from catdoc.reviews import REVIEWS_REL, Stamp, parse_reviews, read_reviews, render, stamp_line
from catdoc.service import CatDoc

CART = "docs/requirements/cart.md"


@pytest.fixture
def root(example_copy: Path) -> Path:
    return example_copy


@pytest.fixture
def svc(root: Path) -> CatDoc:
    """The example with every link reviewed."""
    service = CatDoc(root)
    service.review(all=True, by="Ada")
    return service


def keys(svc: CatDoc, **options: object) -> set[str]:
    report = svc.suspects(limit=200, diffs=False, **options)  # type: ignore[arg-type]
    assert report.total == len(report.suspects)
    return {link.key for link in report.suspects}


def touching(root: Path, object_id: str) -> set[str]:
    """Every link with `object_id` at one of its ends, worked out from the model directly."""
    project = load_project(root)
    out = {
        f"morphism:{m.id}"
        for m in project.morphism_by_id.values()
        if object_id in (m.source, m.target)
    }
    for fun in project.functor_by_id.values():
        objects = fun.object_mapping
        for a, b in objects.items():
            if object_id in (a, b):
                out.add(f"functor:{fun.id}:object:{a}")
        for mor_id in fun.morphism_mapping:
            mor = project.morphism_by_id[mor_id]
            ends = {mor.source, mor.target, objects.get(mor.source), objects.get(mor.target)}
            if object_id in ends:
                out.add(f"functor:{fun.id}:morphism:{mor_id}")
    for nat in project.nat_by_id.values():
        first = project.functor_by_id[nat.source_functor].object_mapping
        second = project.functor_by_id[nat.target_functor].object_mapping
        for a in nat.components:
            if object_id in (first.get(a), second.get(a)):
                out.add(f"nat:{nat.id}:{a}")
    return out


def append(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


# ---------------------------------------------------------------------- reviews off and on
def test_without_reviews_yaml_nothing_is_stamped_or_reported(root: Path) -> None:
    svc = CatDoc(root)
    svc.add_morphism("requirements", "req-cart", "req-payment", name="needs")
    append(root, CART, "\nChanged.\n")
    report = svc.suspects()
    assert not report.enabled and report.total == 0 and "review --all" in report.message
    assert not (root / REVIEWS_REL).exists()
    assert not [f for f in svc.validate().warnings if f.code == "SUSPECT_LINK"]


def test_review_all_stamps_every_link_and_nothing_is_suspect(svc: CatDoc, root: Path) -> None:
    report = svc.suspects()
    assert report.enabled and report.total == 0 and report.links_checked > 50
    book = read_reviews(root)
    assert book is not None and len(book.stamps) == report.links_checked
    assert {stamp.by for stamp in book.stamps.values()} == {"Ada"}


# ---------------------------------------------------------------------- what counts as a change
def test_a_document_edit_makes_exactly_the_links_touching_it_suspect(
    svc: CatDoc, root: Path
) -> None:
    append(root, CART, "\nThe cart also keeps saved items.\n")
    expected = touching(root, "req-cart")
    assert expected and keys(svc) == expected
    report = svc.suspects(diffs=False)
    for link in report.suspects:
        assert link.status == "changed"
        assert [d.object_id for d in link.documents] == ["req-cart"]
        side = link.documents[0].side
        assert link.changed_ends == [side]
        assert "req-cart" in (link.source if side == "source" else link.target)
        assert "req-cart changed" in link.reason
    assert report.changed_total == report.total and report.unreviewed_total == 0


def test_a_category_filter_keeps_the_links_touching_it(svc: CatDoc, root: Path) -> None:
    append(root, CART, "\nMore.\n")
    every = touching(root, "req-cart")
    mine = keys(svc, category="specifications")  # specify: requirements → specifications
    assert mine and mine == {key for key in every if key.startswith("functor:specify:")}
    assert keys(svc, category="requirements") == every
    assert keys(svc, category="tests") == set()


def test_review_clears_what_it_names_and_only_that(svc: CatDoc, root: Path) -> None:
    append(root, CART, "\nMore.\n")
    before = keys(svc)
    one = sorted(before)[0]
    result = svc.review([one])
    assert result.files == [REVIEWS_REL] and result.changes[0].id == one
    assert keys(svc) == before - {one}
    svc.review(["req-cart"])  # an object id: every link at it
    assert keys(svc) == set()


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.replace("\n", "\n\n"),  # blank lines
        lambda t: t.replace(" ", "  ").replace("\n", "  \n"),  # spaces, trailing spaces
        lambda t: t.replace("\n", "\r\n"),  # line ends
        lambda t: " ".join(t.split(" ")[:5]) + "\n" + " ".join(t.split(" ")[5:]),  # re-wrapped
    ],
)
def test_whitespace_only_edits_are_not_changes(svc: CatDoc, root: Path, change: Any) -> None:
    path = root / CART
    path.write_bytes(change(path.read_text(encoding="utf-8")).encode())
    assert keys(svc) == set()


def test_front_matter_edits_are_not_changes(svc: CatDoc, root: Path) -> None:
    path = root / CART
    text = path.read_text(encoding="utf-8")
    body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text
    path.write_text("---\ntitle: Cart\ntags: [cart, new]\nreviewed: yes\n---\n" + body, "utf-8")
    assert keys(svc) == set()
    path.write_text(body, "utf-8")  # front matter removed altogether
    assert keys(svc) == set()


@settings(max_examples=30, deadline=None)
@given(words=st.lists(st.text(min_size=1), min_size=1, max_size=8), spaces=st.data())
def test_fingerprints_ignore_whitespace_but_not_words(
    words: list[str], spaces: st.DataObject
) -> None:
    words = [w for w in ("".join(word.split()) for word in words) if w]
    if not words:
        return
    gaps = [spaces.draw(st.sampled_from([" ", "\n", "  \t", "\n\n", " \r\n"])) for _ in words]
    spread = "".join(w + g for w, g in zip(words, gaps, strict=True))
    assert text_fingerprint(spread) == text_fingerprint(" ".join(words))
    assert text_fingerprint(spread + " extra") != text_fingerprint(" ".join(words))


def test_inline_content_and_missing_files_count(svc: CatDoc, root: Path) -> None:
    (root / CART).unlink()
    report = svc.suspects(diffs=False)
    assert keys(svc) == touching(root, "req-cart")
    assert all("missing" in link.reason for link in report.suspects)


def test_a_remapped_object_makes_its_entry_new_and_its_morphism_entries_suspect(
    svc: CatDoc, root: Path
) -> None:
    project = load_project(root)
    fun = project.functor_by_id["specify"]
    other = next(v for k, v in fun.object_mapping.items() if k != "req-cart")
    svc.set_mapping("specify", objects={"req-cart": other})
    suspects = keys(svc)
    assert "functor:specify:object:req-cart" not in suspects  # set through CatDoc: stamped
    moved = {f"functor:specify:morphism:{m}" for m in fun.morphism_mapping if "cart" in m}
    assert moved and moved <= suspects
    report = svc.suspects(diffs=False)
    assert any("is now at the target end" in link.reason for link in report.suspects)


def test_a_link_added_by_hand_is_unreviewed(svc: CatDoc, root: Path) -> None:
    model = root / ".catdoc" / "category.yaml"
    text = model.read_text(encoding="utf-8")
    anchor = "      - id: checkout-depends-on-cart\n"
    model.write_text(
        text.replace(
            anchor,
            "      - id: cart-by-hand\n        source: req-cart\n        target: req-payment\n"
            + anchor,
        ),
        "utf-8",
    )
    report = svc.suspects()
    assert [(s.key, s.status) for s in report.suspects] == [("morphism:cart-by-hand", "unreviewed")]
    assert report.unreviewed_total == 1 and "never reviewed" in report.suspects[0].reason


# ---------------------------------------------------------------------- the write path
def test_links_made_through_catdoc_are_stamped(svc: CatDoc, root: Path) -> None:
    made = svc.add_morphism("requirements", "req-cart", "req-payment", name="needs")
    svc.upsert_object("specifications", "spec-x", {"title": "X"}, content="Spec x.\n")
    svc.set_mapping("specify", objects={"req-cart": "spec-x"})
    svc.upsert_functor("f2", source_category="requirements", target_category="specifications")
    svc.set_mapping("f2", objects={"req-payment": "spec-x"})
    book = read_reviews(root)
    assert book is not None
    assert {f"morphism:{made.id}", "functor:f2:object:req-payment"} <= set(book.stamps)
    stamp = book.stamps["functor:f2:object:req-payment"]
    assert stamp.target == {"spec-x": text_fingerprint("Spec x.\n")} and stamp.by is None
    assert not {k for k in keys(svc) if "f2" in k or made.id in k}


def test_the_importer_stamps_the_morphisms_it_makes(tmp_path: Path) -> None:
    root = tmp_path / "adopted"
    CatDoc.init(root)
    svc = CatDoc(root)
    svc.review(all=True)
    docs = root / "docs" / "notes"
    docs.mkdir(parents=True)
    (docs / "a.md").write_text("# A\n\nSee [b](b.md).\n", encoding="utf-8")
    (docs / "b.md").write_text("# B\n\nBack to [a](a.md).\n", encoding="utf-8")
    result = svc.import_documents(["docs/notes"], link=True)
    assert len(result.morphisms_created) == 2
    book = read_reviews(root)
    assert book is not None
    assert {f"morphism:{m}" for m in result.morphisms_created} <= set(book.stamps)
    assert keys(svc) == set()


def test_a_stamp_is_taken_of_the_text_the_edit_writes(svc: CatDoc, root: Path) -> None:
    svc.upsert_object("requirements", "req-new", {"title": "New"}, content="First words.\n")
    svc.add_morphism("requirements", "req-new", "req-cart", morphism_id="new-cart")
    svc.upsert_object("requirements", "req-new", {}, content="Other words.\n")
    assert keys(svc) == {"morphism:new-cart"}


def test_renames_keep_stamps(svc: CatDoc, root: Path) -> None:
    before = read_reviews(root)
    assert before is not None
    svc.rename("req-cart", "req-basket")
    svc.rename("checkout-depends-on-cart", "checkout-needs-basket")
    svc.rename("specify", "specify-v1")
    nat = next(iter(load_project(root).nat_by_id))
    svc.rename(nat, "eta-renamed")
    assert keys(svc) == set()
    after = read_reviews(root)
    assert after is not None and len(after.stamps) == len(before.stamps)
    assert "morphism:checkout-needs-basket" in after.stamps
    assert "functor:specify-v1:object:req-basket" in after.stamps
    assert any(k.startswith("nat:eta-renamed:") for k in after.stamps)
    assert not any("req-cart" in k or k.startswith("functor:specify:") for k in after.stamps)
    assert all(
        "req-cart" not in s.source and "req-cart" not in s.target for s in after.stamps.values()
    )


def test_a_rename_does_not_clear_a_suspect(svc: CatDoc, root: Path) -> None:
    append(root, CART, "\nChanged before the rename.\n")
    svc.rename("req-cart", "req-basket")
    assert keys(svc) == touching(root, "req-basket")


def test_removals_drop_stamps(svc: CatDoc, root: Path) -> None:
    svc.remove_morphism("receipt-depends-on-cart", cascade=True)
    svc.remove_object("req-cart", cascade=True)
    book = read_reviews(root)
    assert book is not None
    assert not any("req-cart" in k or "receipt-depends-on-cart" in k for k in book.stamps)
    existing = {f"{k}" for k in book.stamps}
    svc.review(all=True)  # nothing stale was left for --all to prune
    book = read_reviews(root)
    assert book is not None and set(book.stamps) == existing
    assert keys(svc) == set()


def test_review_refuses_unknown_ids_and_bad_calls(svc: CatDoc, root: Path) -> None:
    before = (root / REVIEWS_REL).read_bytes()
    with pytest.raises(CatDocError) as caught:
        svc.review(["morphism:req-kart"])
    assert caught.value.code == NOT_FOUND
    svc.upsert_object("requirements", "req-alone", {"title": "Alone"})
    with pytest.raises(CatDocError) as caught:
        svc.review(["req-alone"])  # an object no link joins: said so, not "did you mean" it
    assert "'req-alone' has no links to review" in caught.value.message
    assert caught.value.suggestions == []
    before = (root / REVIEWS_REL).read_bytes()
    for call in (lambda: svc.review(), lambda: svc.review(["req-cart"], all=True)):
        with pytest.raises(CatDocError) as caught:
            call()
        assert caught.value.code == VALIDATION_ERROR
    assert (root / REVIEWS_REL).read_bytes() == before


def test_edits_keep_the_comments_and_lines_of_reviews_yaml(svc: CatDoc, root: Path) -> None:
    path = root / REVIEWS_REL
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(5, "  # reviewed in the March audit")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    svc.add_morphism("requirements", "req-cart", "req-payment", morphism_id="cart-pay")
    svc.remove_morphism("receipt-depends-on-cart", cascade=True)
    new = path.read_text(encoding="utf-8").splitlines()
    assert "  # reviewed in the March audit" in new
    gone = {line for line in lines if "receipt-depends-on-cart" in line}
    assert set(lines) - set(new) == gone
    assert [line for line in new if line not in lines] == [
        line for line in new if line.startswith("  morphism:cart-pay:")
    ]


def test_a_hand_written_block_style_file_is_edited_through_ruamel(svc: CatDoc, root: Path) -> None:
    book = read_reviews(root)
    assert book is not None
    key = "morphism:checkout-depends-on-cart"
    stamp = book.stamps[key]
    body = "".join(
        f"  {k}:\n    source: {dict(s.source)}\n    target: {dict(s.target)}\n"
        for k, s in book.stamps.items()
    ).replace("'", '"')
    (root / REVIEWS_REL).write_text(f"# kept\nversion: 1\nstamps:\n{body}", "utf-8")
    assert read_reviews(root).stamps[key].source == stamp.source  # type: ignore[union-attr]
    svc.add_morphism("requirements", "req-cart", "req-payment", morphism_id="cart-pay")
    text = (root / REVIEWS_REL).read_text(encoding="utf-8")
    assert text.startswith("# kept\n") and "morphism:cart-pay" in text
    assert keys(svc) == set()


def test_two_writers_lose_no_stamp(svc: CatDoc, root: Path) -> None:
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            CatDoc(root).add_morphism(
                "requirements", "req-cart", "req-payment", morphism_id=f"parallel-{n}"
            )
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    book = read_reviews(root)
    assert book is not None and {f"morphism:parallel-{n}" for n in range(4)} <= set(book.stamps)


# ---------------------------------------------------------------------- reviews.yaml, hostile
def test_a_malformed_file_is_a_load_error_at_its_line(svc: CatDoc, root: Path) -> None:
    (root / REVIEWS_REL).write_text(
        "version: 1\nstamps:\n  morphism:a: {source: {x: 1f}, target: []}\n", "utf-8"
    )
    with pytest.raises(CatDocError) as caught:
        svc.suspects()
    assert caught.value.code == LOAD_ERROR
    assert caught.value.message.startswith(f"{REVIEWS_REL}:3:")
    warnings = [f for f in svc.validate().warnings if f.code == "SUSPECT_LINK"]
    assert len(warnings) == 1 and warnings[0].location == f"{REVIEWS_REL}:3"
    with pytest.raises(CatDocError):  # an edit that needs the stamps writes nothing
        svc.add_morphism("requirements", "req-cart", "req-payment", morphism_id="refused")
    assert "refused" not in (root / ".catdoc" / "category.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "text",
    [
        "version: 1\nstamps:\n  a: {source: {x: \0}}\n",
        "[1, 2]\n",
        "version: 2\nstamps: {}\n",
        "version: 1\nstamps: {a: {source: {x: y}, extra: 1}}\n",
        "version: 1\nstamps:\n"
        + "  " * 200
        + "deep: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]\n",
        "version: 1\nstamps: {a: {source: {x: " + "9" * 5000 + "}}}\n",
        "version: 1\nstamps: {a: {source: {x: '" + "f" * 65 + "'}}}\n",
        "\xff\n",
    ],
)
def test_hostile_files_are_clear_load_errors(root: Path, text: str) -> None:
    (root / REVIEWS_REL).write_text(text, "utf-8", errors="surrogateescape")
    with pytest.raises(CatDocError) as caught:
        CatDoc(root).suspects()
    assert caught.value.code == LOAD_ERROR and caught.value.message.startswith(REVIEWS_REL)


def test_a_symlink_out_of_the_project_is_refused(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("version: 1\nstamps: {}\n", "utf-8")
    os.symlink(outside, root / REVIEWS_REL)
    with pytest.raises(CatDocError) as caught:
        CatDoc(root).suspects()
    assert caught.value.code == PATH_OUTSIDE_PROJECT


def test_a_huge_file_is_refused_before_reading(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_source, "MAX_FILE_BYTES", 1000)
    (root / REVIEWS_REL).write_text("version: 1\nstamps: {}\n" + "#" * 2000 + "\n", "utf-8")
    with pytest.raises(CatDocError) as caught:
        CatDoc(root).suspects()
    assert caught.value.code == LOAD_ERROR and "MiB" in caught.value.message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.one_of(
        st.text(max_size=300),
        st.lists(
            st.sampled_from(
                [
                    "version: 1\n",
                    "stamps:\n",
                    "  k: {source: {a: b}}\n",
                    "  - x\n",
                    "stamps: {}\n",
                    "  'q': {target: {1: 2}}\n",
                    "by: x\n",
                    "  k2: {source: {a: b}, by: 2026-01-01}\n",
                    "&a x\n",
                    "*a\n",
                    "  k: {source: {a: b}}",
                    "\t\n",
                    "---\n",
                    "{\n",
                ]
            ),
            max_size=8,
        ).map("".join),
    )
)
def test_any_content_loads_or_is_a_clear_error(text: str) -> None:
    try:
        book = parse_reviews(text)
    except CatDocError as exc:
        assert exc.code == LOAD_ERROR and exc.message.startswith(REVIEWS_REL)
        return
    again = render(book, {**book.stamps, "morphism:new": Stamp(source={"a": "0f"})})
    assert again is not None and parse_reviews(again).stamps["morphism:new"].source == {"a": "0f"}
    emptied = render(book, {})
    assert emptied is None or parse_reviews(emptied).stamps == {}


@settings(max_examples=40, deadline=None)
@given(
    key=st.text(min_size=1, max_size=30).filter(lambda s: "\0" not in s),
    ident=st.text(min_size=1, max_size=20).filter(lambda s: "\0" not in s),
    by=st.none() | st.text(max_size=20).filter(lambda s: "\0" not in s),
)
def test_any_key_and_id_survive_a_line(key: str, ident: str, by: str | None) -> None:
    stamp = Stamp(source={ident: "0123456789abcdef"}, target={}, by=by, at="2026-01-01T00:00:00Z")
    text = "version: 1\nstamps:\n" + stamp_line(key, stamp)
    try:
        assert parse_reviews(text).stamps == {key: stamp}
    except CatDocError as exc:  # text YAML cannot hold (e.g. lone surrogates) is refused clearly
        assert exc.code == LOAD_ERROR


def test_link_keys() -> None:
    assert LinkRef("morphism", "f").key == "morphism:f"
    assert LinkRef("object mapping", "F", "a").key == "functor:F:object:a"
    assert LinkRef("morphism mapping", "F", "f").key == "functor:F:morphism:f"
    assert LinkRef("component", "eta", "a").key == "nat:eta:a"


# ---------------------------------------------------------------------- validate and faces
def test_validate_reports_suspects_as_warnings_and_notices_a_change(
    svc: CatDoc, root: Path
) -> None:
    assert not [f for f in svc.validate().warnings if f.code == "SUSPECT_LINK"]
    append(root, CART, "\nChanged.\n")
    found = [f for f in svc.validate().warnings if f.code == "SUSPECT_LINK"]
    assert {f.message.split()[1] for f in found} == touching(root, "req-cart")
    assert all("catdoc review" in f.message and f.location for f in found)
    assert svc.validate().is_valid  # warnings only


def test_cli_suspects_and_review(svc: CatDoc, root: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["-C", str(root), "suspects"])
    assert done.exit_code == 0 and "reviewed and current" in done.output
    append(root, CART, "\nChanged.\n")
    done = runner.invoke(app, ["-C", str(root), "suspects", "--no-diff"])
    assert done.exit_code == 1 and "⚠ morphism:checkout-depends-on-cart" in done.output
    done = runner.invoke(app, ["-C", str(root), "validate", "--strict"])
    assert done.exit_code == 1 and "SUSPECT_LINK" in done.output
    done = runner.invoke(app, ["-C", str(root), "review", "req-cart", "--format", "json"])
    assert done.exit_code in (0, 1) and '"files"' in done.output
    done = runner.invoke(app, ["-C", str(root), "suspects", "--format", "json"])
    assert done.exit_code == 0 and '"total": 0' in done.output
    done = runner.invoke(app, ["-C", str(root), "review"])
    assert done.exit_code == 2


# ---------------------------------------------------------------------- git
git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def run_git(root: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "T",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


@git
def test_the_diff_since_the_review_comes_from_git(root: Path) -> None:
    run_git(root, "init", "-q")
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "reviewed state")
    svc = CatDoc(root)
    svc.review(all=True, by="Ada")
    append(root, CART, "\nCustomers can save a cart for later.\n")
    run_git(root, "commit", "-q", "-am", "a newer commit of the cart")
    append(root, CART, "Saved carts expire after 30 days.\n")
    report = svc.suspects()
    doc = next(d for link in report.suspects for d in link.documents)
    assert doc.path == CART and doc.diff_revision and not doc.diff_note
    added = [line for line in doc.diff if line.startswith("+") and not line.startswith("+++")]
    assert added == [
        "+",
        "+Customers can save a cart for later.",
        "+Saved carts expire after 30 days.",
    ]


@git
def test_without_history_the_answer_says_why(root: Path) -> None:
    run_git(root, "init", "-q")
    svc = CatDoc(root)
    svc.review(all=True)
    append(root, CART, "\nChanged.\n")
    doc = next(d for link in svc.suspects().suspects for d in link.documents)
    assert not doc.diff and "no history in git" in doc.diff_note
    run_git(root, "add", CART)
    run_git(root, "commit", "-q", "-m", "after the review")
    doc = next(d for link in svc.suspects().suspects for d in link.documents)
    assert not doc.diff and "holds the reviewed text" in doc.diff_note


def test_without_git_the_answer_says_so(
    svc: CatDoc, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    append(root, CART, "\nChanged.\n")
    doc = next(d for link in svc.suspects().suspects for d in link.documents)
    assert "git is not installed" in doc.diff_note


def test_the_read_side_and_the_write_side_agree_on_every_link_and_its_ends(root: Path) -> None:
    from catdoc.edit import ModelEdit
    from catdoc.edit.reviews import EditLinks
    from catdoc.review_links import ends_of, link_rows

    project = load_project(root)
    links = EditLinks(ModelEdit(project))
    written = {ref.key: ends_of(ref, links) for ref in links.links()}
    read = {key: (source, target) for _, _, _, key, source, target in link_rows(project)}
    assert read == written and len(read) > 50


# ---------------------------------------------------------------------- reviews and the version
def test_a_review_is_a_new_version_that_a_stale_writer_is_refused_against(
    svc: CatDoc, root: Path
) -> None:
    other = CatDoc(root)
    seen = other.project().version  # what a second client read
    append(root, CART, "\nChanged.\n")
    result = svc.review(["req-cart"], by="Ada")  # only reviews.yaml is written
    assert result.version != seen and result.version == load_project(root).version
    assert other.project().version == result.version  # noticed without a reload
    with pytest.raises(CatDocError) as caught:
        other.review(["req-cart"], by="Bob", expected_version=seen)
    assert caught.value.code == "CONFLICT"
    assert svc.review(["req-cart"], by="Bob", expected_version=result.version).version


def test_the_version_never_reads_through_a_fifo_or_out_of_the_project(
    root: Path, tmp_path: Path
) -> None:
    plain = load_project(root).version
    os.mkfifo(root / REVIEWS_REL)  # reading it would block: the version only notes it
    fifo = load_project(root).version
    assert fifo != plain
    os.unlink(root / REVIEWS_REL)
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("version: 1\nstamps: {}\n", "utf-8")
    os.symlink(outside, root / REVIEWS_REL)
    first = load_project(root).version
    outside.write_text("version: 1\nstamps: {a: {source: {x: '1f'}}}\n", "utf-8")
    assert load_project(root).version == first != plain  # its bytes are never read
