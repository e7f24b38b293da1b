"""Clusters of related documents: planted communities are found, the same input gives the same
clusters and ids, edits elsewhere keep the ids, and empty or unlinked projects say why they
have no clusters."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cluster_project import write_project
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc import clusters as cl
from catdoc.clusters import Link, cluster_documents, concept_links
from catdoc.errors import NOT_FOUND, VALIDATION_ERROR, CatDocError
from catdoc.service import CatDoc


@pytest.fixture
def svc(tmp_path: Path) -> CatDoc:
    return CatDoc(write_project(tmp_path / "proj"))


# ---------------------------------------------------------------- the pure core
@st.composite
def planted(draw: st.DrawFn) -> tuple[list[list[str]], list[Link]]:
    """k dense groups (each a path plus most other pairs) joined by k - 1 single links. Groups
    of at least six keep every pair of them above modularity's resolution limit."""
    sizes = draw(st.lists(st.integers(6, 10), min_size=2, max_size=5))
    rng = random.Random(draw(st.integers(0, 2**32)))
    groups = [[f"g{g}-d{i}" for i in range(size)] for g, size in enumerate(sizes)]
    links = [
        Link(group[i], group[j], "morphisms")
        for group in groups
        for i in range(len(group))
        for j in range(i + 1, len(group))
        if j == i + 1 or rng.random() < 0.8
    ]
    links += [
        Link(rng.choice(groups[a]), rng.choice(groups[rng.randrange(a)]), "references")
        for a in range(1, len(groups))
    ]
    rng.shuffle(links)
    return groups, links


@settings(max_examples=30, deadline=None)
@given(planted())
def test_planted_communities_are_recovered(case: tuple[list[list[str]], list[Link]]) -> None:
    groups, links = case
    titles = {d: d for group in groups for d in group}
    found = cluster_documents(titles, {}, links)
    assert sorted(sorted(c.members) for c in found.clusters) == sorted(map(sorted, groups))
    assert found.unclustered == 0
    assert all(
        c.id == cl.ID_PREFIX + c.central and c.members[0] == c.central for c in found.clusters
    )


@settings(max_examples=20, deadline=None)
@given(planted(), st.randoms(use_true_random=False))
def test_the_same_graph_in_any_order_gives_the_same_clusters(
    case: tuple[list[list[str]], list[Link]], rng: random.Random
) -> None:
    groups, links = case
    titles = {d: d for group in groups for d in group}
    first = cluster_documents(titles, {}, links)
    shuffled_titles = dict(rng.sample(sorted(titles.items()), len(titles)))
    again = cluster_documents(shuffled_titles, {}, rng.sample(links, len(links)))
    assert [c.model_dump() for c in again.clusters] == [c.model_dump() for c in first.clusters]


def test_isolated_documents_and_self_loops_form_no_cluster() -> None:
    titles = {"a": "A", "b": "B", "c": "C"}
    found = cluster_documents(titles, {}, [Link("a", "a", "morphisms"), Link("a", "x", "refs")])
    assert found.clusters == [] and found.unclustered == 3 and found.of == {}
    assert found.links["morphisms"] == 0


def test_links_are_counted_per_signal_and_pair() -> None:
    titles = {"a": "A", "b": "B", "c": "C"}
    links = [Link("a", "b", "morphisms"), Link("b", "a", "morphisms"), Link("b", "c", "functors")]
    found = cluster_documents(titles, {}, links)
    assert found.links == {
        "morphisms": 1,
        "references": 0,
        "functors": 1,
        "concepts": 0,
        "vectors": 0,
    }
    assert [c.members for c in found.clusters] == [["b", "a", "c"]]


def test_shared_rare_concepts_link_documents_and_common_ones_do_not() -> None:
    concepts = {f"d{i}": {"everywhere": 1.0} for i in range(40)}
    concepts["d1"] = {"everywhere": 1.0, "oauth": 2.0, "token": 1.0}
    concepts["d2"] = {"everywhere": 1.0, "oauth": 1.0, "token": 1.0}
    concepts["d3"] = {"everywhere": 1.0, "token": 1.0}
    links = concept_links(concepts)
    assert {(link.a, link.b) for link in links} == {("d1", "d2"), ("d1", "d3"), ("d2", "d3")}
    strongest = max(links, key=lambda link: link.weight)
    assert (strongest.a, strongest.b) == ("d1", "d2") and 0 < strongest.weight <= 1


def test_concept_links_stay_within_the_pair_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    concepts = {f"d{i}": {"rare": 1.0} if i < 2 else {"wider": 1.0} for i in range(6)}
    monkeypatch.setattr(cl, "COMMON_FLOOR", 6)
    assert len(concept_links(concepts)) == 1 + 6  # rare: one pair; wider: 4 docs, 6 pairs
    monkeypatch.setattr(cl, "PAIR_BUDGET", 4 + 15)  # rare costs 4, wider 16: left out
    assert [(link.a, link.b) for link in concept_links(concepts)] == [("d0", "d1")]


def test_clusters_are_named_by_their_top_concepts_else_their_titles() -> None:
    titles = {"a": "Login form", "b": "Login lockout", "c": "Invoice", "d": "Tax"}
    concepts = {"a": {"login": 2.0, "ui": 1.0}, "b": {"login": 1.0, "lockout": 1.0}}
    links = [Link("a", "b", "morphisms"), Link("c", "d", "morphisms")]
    found = cluster_documents(titles, {"a": "auth", "b": "auth", "c": "bill"}, links, concepts)
    by_central = {c.central: c for c in found.clusters}
    named = by_central["a"]
    assert named.top_concepts[0] == "login" and named.name.startswith("login")
    assert named.categories == {"auth": 2}
    assert by_central["c"].top_concepts == [] and by_central["c"].name == "Invoice"


def test_vector_neighbours_link_similar_documents() -> None:
    np = pytest.importorskip("numpy")
    vectors = np.array([[1, 0], [0.99, 0.14], [0, 1], [0.14, 0.99]], dtype=np.float32)
    links = cl.vector_links(["a", "b", "c", "d"], vectors)
    assert [(link.a, link.b) for link in links] == [("a", "b"), ("c", "d")]
    assert all(link.signal == "vectors" for link in links)


# ---------------------------------------------------------------- through the service
def test_the_project_clusters_follow_its_links(svc: CatDoc) -> None:
    listing = svc.clusters()
    assert listing.total == 2 and listing.documents == 11 and listing.unclustered == 1
    assert listing.message is None
    members = {frozenset(c.members) for c in listing.clusters}
    assert members == {
        frozenset(f"auth-{i}" for i in range(5)),
        frozenset(f"bill-{i}" for i in range(5)),
    }
    assert listing.links["references"] == 1 and listing.links["morphisms"] == 20
    auth = svc.cluster(svc.cluster_of()["auth-1"])
    assert "login" in auth.name.casefold()
    assert "lonely" not in svc.cluster_of()


def test_cluster_ids_are_stable_across_runs_and_unrelated_edits(svc: CatDoc) -> None:
    before = [(c.id, c.members) for c in svc.clusters().clusters]
    assert [(c.id, c.members) for c in CatDoc(svc.root).clusters().clusters] == before
    svc.upsert_object("misc", "lonely", {"title": "A renamed lonely note"})
    svc.upsert_object("misc", "another", {"title": "Another unlinked note"})
    svc.upsert_object("billing", "bill-3", {"tags": ["tax"]})
    assert [(c.id, c.members) for c in svc.clusters().clusters] == before


def test_clusters_are_recomputed_when_the_model_changes(svc: CatDoc) -> None:
    first = svc.clusters()
    assert svc.clusters() is first
    svc.upsert_object("misc", "lonely", {"metadata": {"related": ["auth-2"]}})
    again = svc.clusters()
    assert again is not first and svc.cluster_of()["lonely"] == svc.cluster_of()["auth-2"]


def test_an_empty_project_has_no_clusters_and_says_why(tmp_path: Path) -> None:
    svc = CatDoc(write_project(tmp_path / "p", model="categories: []\n"))
    listing = svc.clusters()
    assert listing.total == 0 and listing.documents == 0
    assert "no documents" in (listing.message or "")
    assert svc.cluster_page().items == [] and svc.cluster_of() == {}


def test_a_project_without_links_has_no_clusters_and_says_why(tmp_path: Path) -> None:
    model = "categories:\n  - id: notes\n    objects:\n" + "\n".join(
        f"      - {{id: n{i}, title: Note {i}}}" for i in range(4)
    )
    listing = CatDoc(write_project(tmp_path / "p", model=model + "\n")).clusters()
    assert listing.total == 0 and listing.unclustered == 4
    assert "None of the 4 documents is linked" in (listing.message or "")


def test_pages_and_details(svc: CatDoc) -> None:
    page = svc.cluster_page(limit=1, offset=1, include_members=True, member_limit=2)
    assert page.total == 2 and len(page.items) == 1
    assert len(page.items[0].members) == 2  # type: ignore[union-attr]
    summary = svc.cluster_page(limit=5).items[0]
    assert not hasattr(summary, "members") or "members" not in summary.model_dump()
    beyond = svc.cluster_page(offset=5)
    assert beyond.items == [] and "offset 5" in (beyond.message or "")
    cluster = svc.clusters().clusters[0]
    detail = svc.cluster_detail(cluster.id, limit=2, offset=1)
    assert [m.id for m in detail.members] == cluster.members[1:3] and detail.size == 5
    assert detail.members[0].title and detail.members[0].category in {"auth", "billing"}
    assert detail.members[0].links >= detail.members[1].links > 0


def test_unknown_ids_and_bad_pages_are_refused(svc: CatDoc) -> None:
    with pytest.raises(CatDocError) as caught:
        svc.cluster("cl-auth")
    assert caught.value.code == NOT_FOUND and caught.value.suggestions
    with pytest.raises(CatDocError) as caught:
        svc.cluster_page(limit=0)
    assert caught.value.code == VALIDATION_ERROR
    with pytest.raises(CatDocError) as caught:
        svc.cluster_detail(svc.clusters().clusters[0].id, offset=-1)
    assert caught.value.code == VALIDATION_ERROR


def test_stored_document_vectors_join_the_graph(svc: CatDoc) -> None:
    np = pytest.importorskip("numpy")
    from catdoc.search import semantic

    assert svc.clusters().links["vectors"] == 0
    engine = svc.search_engine()
    engine.sync(svc.project())
    known = engine.index.known()
    rows = []
    for ident, entry in sorted(known.items()):
        vec = np.zeros(semantic.DIM, dtype=np.float32)
        vec[0 if ident.startswith("auth") or ident == "lonely" else 1] = 1.0
        rows.append((entry.rowid, vec.tobytes()))
    engine.index.put_vectors("doc", semantic.MODEL_ID, rows)
    listing = svc.clusters()
    assert listing.links["vectors"] > 0 and listing.unclustered == 0
    assert svc.cluster_of()["lonely"] == svc.cluster_of()["auth-0"]


def test_a_new_process_reads_the_communities_of_an_unchanged_graph_from_the_cache(
    svc: CatDoc, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catdoc.service_clusters import CACHE_FILE

    before = [c.model_dump() for c in svc.clusters().clusters]
    stored = svc.root / ".catdoc" / "cache" / CACHE_FILE
    assert stored.is_file()

    def fail(_graph: object) -> list[list[str]]:
        raise AssertionError("Louvain ran again on an unchanged graph")

    monkeypatch.setattr(cl, "communities", fail)
    assert [c.model_dump() for c in CatDoc(svc.root).clusters().clusters] == before
    monkeypatch.undo()
    stored.write_text("{not json", encoding="utf-8")
    assert [c.model_dump() for c in CatDoc(svc.root).clusters().clusters] == before
    svc.upsert_object("misc", "lonely", {"metadata": {"related": ["auth-2"]}})
    assert svc.cluster_of()["lonely"] == svc.cluster_of()["auth-2"]


def test_documents_sharing_rare_concepts_cluster_together(tmp_path: Path) -> None:
    topics = ["kerberos tickets", "invoice ledger", "glacier archive", "quantum annealing"]
    lines = [
        f"      - {{id: d{i}, title: Note {i}, tags: [{topics[i % 4].split()[0]}], "
        f"content: Notes on {topics[i % 4]}.}}"
        for i in range(8)
    ]
    model = "categories:\n  - id: notes\n    objects:\n" + "\n".join(lines) + "\n"
    svc = CatDoc(write_project(tmp_path / "p", model=model))
    listing = svc.clusters()
    assert listing.links["concepts"] >= 4 and listing.links["morphisms"] == 0
    assert {frozenset(c.members) for c in listing.clusters} == {
        frozenset({f"d{i}", f"d{i + 4}"}) for i in range(4)
    }
    kerberos = svc.cluster(svc.cluster_of()["d0"])
    assert any("kerberos" in concept.casefold() for concept in kerberos.top_concepts)


def test_a_search_never_waits_for_the_clusters_unless_asked(tmp_path: Path) -> None:
    """By default hits carry clusters only when they are at hand; the first such search has
    them computed in the background and says so."""
    import time

    from catdoc.search import CLUSTERS_PENDING

    svc = CatDoc(write_project(tmp_path / "p"))
    first = svc.search("alpha", include_clusters=None)
    if first.results and all(hit.cluster_id is None for hit in first.results):
        assert CLUSTERS_PENDING in first.notes
    for _ in range(600):  # the background computation (bounded; no time is asserted)
        if svc.ready_clusters() is not None:
            break
        time.sleep(0.05)
    ready = svc.search("alpha", include_clusters=None)
    assert CLUSTERS_PENDING not in ready.notes
    of = svc.cluster_of()
    assert [hit.cluster_id for hit in ready.results] == [of.get(hit.id) for hit in ready.results]


def test_cli_page_past_the_end_says_so_once(svc: CatDoc) -> None:
    from typer.testing import CliRunner

    from catdoc.cli import app

    result = CliRunner().invoke(app, ["-C", str(svc.root), "clusters", "--offset", "50"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().startswith("No clusters at offset 50")
    assert ".;" not in result.stdout and "┏" not in result.stdout  # no empty table below it
