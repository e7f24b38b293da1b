"""A generated project for the search filter tests, with everything the filters look at known
in advance: categories (one a child of another), tags, file types, folders, inline documents,
URLs, summary cards, passages (every one holding the word `common`) and two groups of documents
joined by morphisms (so there are clusters)."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from pathlib import Path

from catdoc.documents import chunk_text, sniff_kind

CATEGORIES = {"alpha": None, "beta": None, "gamma": "beta"}
"""category id → parent."""
TAGS = ("red", "green", "blue")
URLS = ("https://wiki.example.com/", "https://other.example.org/")
WORDS = ("apple", "river", "stone", "cloud", "maple", "copper", "violet", "harbor", "lantern")


@dataclass
class Doc:
    id: str
    category: str
    tags: list[str]
    path: str | None
    url: str | None
    summary: str | None
    text: str

    @property
    def file_type(self) -> str | None:
        return self.path.rsplit(".", 1)[-1] if self.path else None

    def passages(self) -> list[int]:
        """The numbers of its passages that hold `common`, as the index chunks them."""
        kind = sniff_kind(self.path, self.text) if self.path else "markdown"
        return [c.index for c in chunk_text(self.text, kind=kind) if "common" in c.text.lower()]


def _text(rng: random.Random, title: str, sections: int) -> str:
    parts = [f"# {title}\n\nThe common {rng.choice(WORDS)} {rng.choice(WORDS)} opening.\n"]
    for n in range(1, sections):
        parts.append(f"## Part {n}\n\nA common {rng.choice(WORDS)} paragraph number {n}.\n")
    return "\n".join(parts)


def make_docs(count: int = 24, seed: int = 13) -> list[Doc]:
    rng = random.Random(seed)
    docs = []
    for n in range(count):
        category = list(CATEGORIES)[n % len(CATEGORIES)]
        ident = f"{category}-{n:02d}"
        inline = n % 6 == 5
        ext = "txt" if n % 4 == 3 else "md"
        folder = f"docs/{category}" if n % 5 else "docs/misc"
        path = None if inline else f"{folder}/{ident}.{ext}"
        summary = None
        if n % 3 == 0:
            summary = f"Card with common {rng.choice(WORDS)} words."
        elif n % 3 == 1:
            summary = f"Card about {rng.choice(WORDS)} only."
        docs.append(
            Doc(
                id=ident,
                category=category,
                tags=rng.sample(TAGS, rng.randint(0, 2)),
                path=path,
                url=URLS[n % 2] + ident if n % 4 in (1, 2) else None,
                summary=summary,
                text=_text(rng, f"Document {n}", rng.randint(1, 4)),
            )
        )
    return docs


def write_project(root: Path, docs: list[Doc]) -> Path:
    """The project under `root`, vectors off (the tests run the same with the extra or not)."""
    (root / ".catdoc").mkdir(parents=True)
    (root / ".catdoc" / "config.yaml").write_text("search:\n  vectors: off\n", "utf-8")
    lines = ["categories:"]
    for cat, parent in CATEGORIES.items():
        lines += [f"  - id: {cat}", f"    name: {cat.title()}"]
        if parent:
            lines.append(f"    parent: {parent}")
        members = [d for d in docs if d.category == cat]
        lines.append("    objects:")
        for doc in members:
            lines += [f"      - id: {doc.id}", f"        title: Title of {doc.id}"]
            lines.append(f"        tags: [{', '.join(doc.tags)}]")
            if doc.path:
                lines.append(f"        path: {doc.path}")
                file = root / doc.path
                file.parent.mkdir(parents=True, exist_ok=True)
                file.write_text(doc.text, "utf-8")
            else:
                lines.append(f"        content: {_quoted(doc.text)}")
            if doc.url:
                lines.append(f"        url: {doc.url}")
            if doc.summary:
                lines.append(f"        summary: {doc.summary}")
        if cat in ("alpha", "beta") and len(members) > 1:  # a chain: clusters of each
            lines.append("    morphisms:")
            for a, b in itertools.pairwise(members):
                lines += [
                    f"      - id: {a.id}-to-{b.id}",
                    "        name: relates",
                    f"        source: {a.id}",
                    f"        target: {b.id}",
                ]
    (root / ".catdoc" / "category.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    return root


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
