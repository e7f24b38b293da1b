"""`list_objects` pages through its indexes (by tag, by domain) and through the categories
without copying them: every filter and page must give exactly what a plain filter of every
object in model order gives."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catdoc.service import CatDoc

TAGS = ["api", "ui", "db", "ops"]
DOMAINS = ["web", "core", None]


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> CatDoc:
    """Three categories of objects with seeded tags and domains (one id repeated)."""
    root = tmp_path_factory.mktemp("listing")
    lines = ["categories:"]
    n = 0
    for cat in ("a", "b", "c"):
        lines += [f"  - id: {cat}", "    objects:"]
        for _ in range(23):
            tags = [t for k, t in enumerate(TAGS) if (n >> k) % 3 == 0]
            domain = DOMAINS[n % 3]
            entry = f"      - {{id: o{n % 60}, tags: [{', '.join(tags)}]"
            entry += f", domain: {domain}}}" if domain else "}"
            lines.append(entry)
            n += 1
    (root / ".catdoc").mkdir()
    (root / ".catdoc" / "category.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return CatDoc(root)


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    category=st.sampled_from([None, "a", "b", "c"]),
    domain=st.sampled_from(DOMAINS),
    tags=st.lists(st.sampled_from([*TAGS, "none"]), max_size=3),
    limit=st.integers(1, 30),
    offset=st.integers(0, 80),
)
def test_listing_matches_a_plain_filter(
    service: CatDoc,
    category: str | None,
    domain: str | None,
    tags: list[str],
    limit: int,
    offset: int,
) -> None:
    project = service.project()
    cats = [project.category_by_id[category]] if category else project.categories
    expected = [
        obj.id
        for cat in cats
        for obj in cat.objects
        if (domain is None or obj.domain == domain) and set(tags).issubset(obj.tags)
    ]
    page = service.list_objects(
        category=category, domain=domain, tags=tags, limit=limit, offset=offset
    )
    assert page.total == len(expected)
    assert [item.id for item in page.items] == expected[offset : offset + limit]
