"""The top concepts of 20 documents chosen at random (fixed seed) from each relevance corpus, as
Markdown tables next to the documents' titles, so anyone can judge whether they make sense.

The corpora are the Django, SQLAlchemy and Sphinx docs adopted by `benchmarks/corpora.py`
(downloaded once, pinned by hash). The output is what benchmarks/README.md shows:

    python benchmarks/concept_samples.py                  # every corpus
    python benchmarks/concept_samples.py django --count 5 --top 5
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 13


def samples(name: str, count: int, top: int) -> str:
    """The Markdown table of one corpus."""
    sys.path.insert(0, str(HERE.parent))
    from benchmarks.corpora import project
    from catdoc.service import CatDoc

    svc = CatDoc(project(name))
    with_concepts = sorted(svc.document_concepts())
    chosen = sorted(random.Random(SEED).sample(with_concepts, min(count, len(with_concepts))))
    lines = [
        f"**{name}** ({len(with_concepts):,} documents with concepts; seed {SEED})",
        "",
        "| document | title | top concepts (tags and keywords first, then key phrases) |",
        "|---|---|---|",
    ]
    for ident in chosen:
        found = svc.extract_concepts(ident)
        labels = ", ".join(c.label for c in found.concepts[:top])
        title = found.title.replace("|", "\\|")
        lines.append(f"| `{ident}` | {title} | {labels.replace('|', '/')} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=["django", "sqlalchemy", "sphinx"])
    parser.add_argument("--count", type=int, default=20, help="documents per corpus")
    parser.add_argument("--top", type=int, default=8, help="concepts shown per document")
    args = parser.parse_args()
    print("\n\n".join(samples(name, args.count, args.top) for name in args.names))


if __name__ == "__main__":
    main()
