"""Search ranking quality: MRR@10, nDCG@10 and recall@5 against plain FTS5 BM25.

Two kinds of relevance set:
- `tests/relevance/*.json` (small corpora in the repository): `corpus` is a project folder, each
  query lists the object ids that answer it (`relevant`) and, optionally, the passages
  (`passages`: [object id, last heading]);
- `benchmarks/relevance/*.json` (real documentation trees nobody here wrote, fetched from PyPI by
  `corpora.py`): `corpus` names the tree, each query grades documents by their path in the docs
  folder (`relevant`: {path: 2 answers it | 1 useful}).

Relevant means grade ≥ 1 for MRR@10 and recall@5; nDCG@10 uses gains 2^grade − 1. Chunk scope is
judged on the labelled passages where a query has them, else a passage counts for its document
(the first passage of each document only). The modes are `bm25`, the baseline — FTS5's own
`bm25()` with default column weights over the OR of the query's words (stop words dropped, as
every mode drops them), on the same index — and CatDoc's `text` and `hybrid`. Hybrid runs without
vectors (`search.vectors: off`), as a default install does; `--vectors auto` computes every
vector (of documents and of passages) first and ranks with them (needs catdoc[semantic]). A
repository corpus is copied to a temporary folder first; a fetched one is searched where
`corpora.py` built it.

    python benchmarks/search_quality.py                       # every set, both scopes
    python benchmarks/search_quality.py --set django --scope documents --failures
    python benchmarks/search_quality.py --vectors auto        # needs catdoc[semantic]
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catdoc.service import CatDoc

REPO = Path(__file__).resolve().parent.parent
SETS_DIRS = (REPO / "tests" / "relevance", REPO / "benchmarks" / "relevance")
MODES = ("bm25", "text", "hybrid")
SCOPES = ("documents", "chunks")
DEPTH = 10


@dataclass(frozen=True)
class Scores:
    mrr: float
    ndcg: float
    recall: float
    misses: tuple[tuple[str, list[str]], ...]
    """Queries whose first relevant answer is not ranked first, with what is ranked above it."""
    per_query: tuple[float, ...] = ()
    """Each query's reciprocal rank, in set order (for paired comparisons)."""


@dataclass(frozen=True)
class _Hit:
    id: str
    path: str | None
    heading: str


def sets(names: list[str] | None = None, dirs: tuple[Path, ...] = SETS_DIRS) -> list[Path]:
    found = sorted(p for d in dirs for p in d.glob("*.json"))
    return [p for p in found if not names or p.stem in names]


def load(spec: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(spec.read_text(encoding="utf-8"))
    return data


def fetched(data: dict[str, Any]) -> bool:
    """Whether the set is over a fetched tree (graded by path) rather than a repository corpus."""
    return isinstance(data["corpus"], dict)


def open_corpus(data: dict[str, Any], into: Path, vectors: str = "off") -> CatDoc:
    """A service over a fresh copy of a repository set's corpus (without any search cache), with
    `search.vectors` set to `vectors`."""
    from catdoc.service import CatDoc

    root = into / "corpus"
    shutil.copytree(REPO / data["corpus"], root, ignore=shutil.ignore_patterns("cache"))
    set_vectors(root, vectors)
    return CatDoc(root)


@contextmanager
def service_for(data: dict[str, Any], vectors: str) -> Iterator[CatDoc]:
    """The set's corpus as a service: a temporary copy, or the fetched tree's project."""
    from catdoc.service import CatDoc

    if not fetched(data):
        with tempfile.TemporaryDirectory() as tmp:
            svc = open_corpus(data, Path(tmp), vectors)
            yield svc
            svc.search_engine().close()
        return
    sys.path.insert(0, str(REPO))
    from benchmarks.corpora import project

    root = project(data["corpus"]["name"])
    set_vectors(root, vectors)
    svc = CatDoc(root)
    yield svc
    svc.search_engine().close()


def set_vectors(root: Path, value: str) -> None:
    """Write `search.vectors: value` into the project's config.yaml, keeping everything else."""
    from ruamel.yaml import YAML

    yaml = YAML()
    path = root / ".catdoc" / "config.yaml"
    data = yaml.load(path.read_text(encoding="utf-8")) if path.is_file() else None
    data = data or {}
    if data.get("search", {}).get("vectors") == value:
        return
    data.setdefault("search", {})["vectors"] = value
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)


def _grades(case: dict[str, Any], scope: str, by_path: bool) -> dict[tuple[str, ...], int]:
    """What counts as a relevant unit of the query, with its grade."""
    if by_path:
        graded = {("docs/" + path,): int(g) for path, g in case["relevant"].items()}
        if scope == "chunks" and case.get("sections"):
            return {
                ("docs/" + path, heading): 2
                for path, headings in case["sections"].items()
                for heading in headings
            }
        return graded
    if scope == "chunks" and case.get("passages"):
        return {tuple(p): 1 for p in case["passages"]}
    return {(ident,): 1 for ident in case["relevant"]}


def _unit(hit: _Hit, scope: str, case: dict[str, Any], by_path: bool) -> tuple[str, ...]:
    key = (hit.path or "") if by_path else hit.id
    labelled = case.get("sections") if by_path else case.get("passages")
    if scope == "chunks" and labelled:
        return (key, hit.heading)
    return (key,)


def ranked(svc: CatDoc, query: str, mode: str, scope: str) -> list[_Hit]:
    """The first `DEPTH` hits of a query in a mode (`bm25` straight from the index)."""
    if mode == "bm25":
        return _plain_bm25(svc, query, scope)
    hits = svc.search(query, mode=mode, scope=scope, limit=DEPTH).results
    return [_Hit(h.id, h.path, (h.heading_path or [""])[-1]) for h in hits]


def _plain_bm25(svc: CatDoc, query: str, scope: str) -> list[_Hit]:
    from catdoc.search.query import STOPWORDS, any_of, fts_string, tokens

    engine = svc.search_engine()
    svc.search(query, mode="text", scope=scope, limit=1)  # brings the index up to date
    words = tokens(query)
    content = [w for w in words if w not in STOPWORDS] or words
    expression = any_of([fts_string([w]) for w in dict.fromkeys(content)])
    if not expression:
        return []
    conn = engine.index.conn
    if scope == "documents":
        rows = conn.execute(
            "SELECT d.id, d.path, '[]' FROM docs_fts JOIN docs d ON d.rowid = docs_fts.rowid "
            "WHERE docs_fts MATCH ? ORDER BY bm25(docs_fts) LIMIT ?",
            (expression, DEPTH),
        )
    else:
        rows = conn.execute(
            "SELECT d.id, d.path, c.heading FROM chunks_fts "
            "JOIN chunks c ON c.rowid = chunks_fts.rowid JOIN docs d ON d.rowid = c.doc "
            "WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts) LIMIT ?",
            (expression, DEPTH),
        )
    return [_Hit(ident, path, (json.loads(heading) or [""])[-1]) for ident, path, heading in rows]


def ungraded_paths(svc: CatDoc, data: dict[str, Any]) -> list[str]:
    """The paths a set over a fetched tree grades that are no document of the tree (a typo
    would count as a miss of every ranking alike)."""
    known = {obj.path for obj in svc.project().object_by_id.values()}
    graded = {path for case in data["queries"] for path in case["relevant"]}
    return sorted(path for path in graded if f"docs/{path}" not in known)


def evaluate(
    svc: CatDoc, queries: list[dict[str, Any]], mode: str, scope: str, *, by_path: bool = False
) -> Scores:
    """MRR@10, nDCG@10 and recall@5 over `queries`, averaged."""
    mrr = ndcg = recall = 0.0
    misses = []
    per_query = []
    for case in queries:
        hits = ranked(svc, str(case["query"]), mode, scope)
        wanted = _grades(case, scope, by_path)
        seen: set[tuple[str, ...]] = set()
        grades = []
        for hit in hits:
            unit = _unit(hit, scope, case, by_path)
            grades.append(wanted.get(unit, 0) if unit not in seen else 0)
            seen.add(unit)
        first = next((rank for rank, g in enumerate(grades, 1) if g), None)
        per_query.append(1 / first if first else 0.0)
        mrr += per_query[-1]
        dcg = sum((2**g - 1) / math.log2(rank + 1) for rank, g in enumerate(grades, 1))
        best = sorted(wanted.values(), reverse=True)[:DEPTH]
        ideal = sum((2**g - 1) / math.log2(rank + 1) for rank, g in enumerate(best, 1))
        ndcg += dcg / ideal
        recall += sum(1 for g in grades[:5] if g) / len(wanted)
        if first != 1:
            above = [f"{h.path if by_path else h.id}:{h.heading}" for h in hits[: (first or 4) - 1]]
            misses.append((str(case["query"]), above if first else [*above, "(not in top 10)"]))
    n = len(queries)
    return Scores(mrr / n, ndcg / n, recall / n, tuple(misses), tuple(per_query))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", help="only this set (file stem); repeatable")
    parser.add_argument("--mode", action="append", choices=MODES, help="default: all")
    parser.add_argument("--scope", action="append", choices=SCOPES, help="default: all")
    parser.add_argument("--failures", action="store_true", help="list queries not ranked first")
    parser.add_argument("--vectors", choices=("off", "auto"), default="off")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    print("| set | documents | scope | mode | queries | MRR@10 | nDCG@10 | recall@5 | MRR ÷ BM25 |")
    print("|---|---:|---|---|---:|---:|---:|---:|---:|")
    failures = []
    for spec in sets(args.set):
        data = load(spec)
        by_path = fetched(data)
        with service_for(data, args.vectors) as svc:
            size = len(svc.project().object_by_id)
            if by_path and (missing := ungraded_paths(svc, data)):
                raise SystemExit(f"{spec.name} grades paths the tree lacks: {', '.join(missing)}")
            if args.vectors == "auto":  # documents are ranked by their passages' vectors too
                for scope in SCOPES:
                    svc.search("vectors", mode="vector", scope=scope)
            for scope in args.scope or SCOPES:
                base: Scores | None = None
                for mode in args.mode or MODES:
                    s = evaluate(svc, data["queries"], mode, scope, by_path=by_path)
                    base = s if mode == "bm25" else base
                    ratio = f"{s.mrr / base.mrr:.2f}×" if base and base.mrr else "–"
                    print(
                        f"| {spec.stem} | {size:,} | {scope} | {mode} | {len(data['queries'])} "
                        f"| {s.mrr:.3f} | {s.ndcg:.3f} | {s.recall:.3f} | {ratio} |"
                    )
                    failures += [(spec.stem, scope, mode, *m) for m in s.misses]
    if args.failures:
        print()
        for name, scope, mode, query, above in failures:
            print(f"{name} {scope} {mode}: {query!r} ← {', '.join(above)}")


if __name__ == "__main__":
    main()
