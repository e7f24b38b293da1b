"""Search ranking quality on the relevance sets in tests/relevance/ (one `*.json` per corpus).

Each set names a corpus (a CatDoc project) and queries with the documents that answer them
(`relevant`) and, optionally, the passages (`passages`: [document id, last heading]). For every
set, mode and scope it prints MRR@10, nDCG@10 (binary gains) and recall@5. Chunk search is judged
on the passages when a query lists them, else a passage counts when its document is relevant.
The corpus is copied to a temporary folder first, so the run never writes into the repository.
Hybrid runs without vectors (`search.vectors: off` in the copied corpus' config.yaml), as a
default install does; `--vectors auto` computes every vector first and ranks with them.

    python benchmarks/search_quality.py
    python benchmarks/search_quality.py --set opsbook --scope chunks --failures
    python benchmarks/search_quality.py --vectors auto     # needs catdoc[semantic]
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catdoc.results import SearchHit
    from catdoc.service import CatDoc

REPO = Path(__file__).resolve().parent.parent
SETS_DIR = REPO / "tests" / "relevance"
MODES = ("text", "hybrid")
SCOPES = ("documents", "chunks")
DEPTH = 10


@dataclass(frozen=True)
class Scores:
    mrr: float
    ndcg: float
    recall: float
    misses: tuple[tuple[str, list[str]], ...]
    """Queries whose first relevant answer is not ranked first, with the ids ranked above it."""


def sets(names: list[str] | None = None) -> list[Path]:
    found = sorted(SETS_DIR.glob("*.json"))
    return [p for p in found if not names or p.stem in names]


def load(spec: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(spec.read_text(encoding="utf-8"))
    return data


def open_corpus(data: dict[str, Any], into: Path, vectors: str = "off") -> CatDoc:
    """A service over a fresh copy of the set's corpus (without any search cache), with
    `search.vectors` set to `vectors`."""
    from catdoc.service import CatDoc

    root = into / "corpus"
    shutil.copytree(REPO / data["corpus"], root, ignore=shutil.ignore_patterns("cache"))
    set_vectors(root, vectors)
    return CatDoc(root)


def set_vectors(root: Path, value: str) -> None:
    """Write `search.vectors: value` into the project's config.yaml, keeping everything else."""
    from ruamel.yaml import YAML

    yaml = YAML()
    path = root / ".catdoc" / "config.yaml"
    data = yaml.load(path.read_text(encoding="utf-8")) if path.is_file() else None
    data = data or {}
    data.setdefault("search", {})["vectors"] = value
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)


def _units(case: dict[str, Any], scope: str) -> set[tuple[str, ...]]:
    if scope == "chunks" and case.get("passages"):
        return {tuple(p) for p in case["passages"]}
    return {(ident,) for ident in case["relevant"]}


def _unit(hit: SearchHit, scope: str, case: dict[str, Any]) -> tuple[str, ...]:
    if scope == "chunks" and case.get("passages"):
        return (hit.id, (hit.heading_path or [""])[-1])
    return (hit.id,)


def evaluate(svc: CatDoc, queries: list[dict[str, Any]], mode: str, scope: str) -> Scores:
    """MRR@10, nDCG@10 and recall@5 over `queries`, averaged."""
    mrr = ndcg = recall = 0.0
    misses = []
    for case in queries:
        hits = svc.search(str(case["query"]), mode=mode, scope=scope, limit=DEPTH).results
        wanted = _units(case, scope)
        seen: set[tuple[str, ...]] = set()
        gains = []
        for hit in hits:
            unit = _unit(hit, scope, case)
            gains.append(1.0 if unit in wanted and unit not in seen else 0.0)
            seen.add(unit)
        first = next((rank for rank, g in enumerate(gains, 1) if g), None)
        mrr += 1 / first if first else 0.0
        dcg = sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, 1))
        ideal = sum(1 / math.log2(rank + 1) for rank in range(1, min(len(wanted), DEPTH) + 1))
        ndcg += dcg / ideal
        recall += sum(gains[:5]) / len(wanted)
        if first != 1:
            above = [f"{h.id}:{(h.heading_path or [''])[-1]}" for h in hits[: (first or 4) - 1]]
            misses.append((str(case["query"]), above if first else [*above, "(not in top 10)"]))
    n = len(queries)
    return Scores(mrr / n, ndcg / n, recall / n, tuple(misses))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", help="only this set (file stem); repeatable")
    parser.add_argument("--mode", action="append", choices=MODES, help="default: all")
    parser.add_argument("--scope", action="append", choices=SCOPES, help="default: all")
    parser.add_argument("--failures", action="store_true", help="list queries not ranked first")
    parser.add_argument("--vectors", choices=("off", "auto"), default="off")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    print("| set | scope | mode | queries | MRR@10 | nDCG@10 | recall@5 |")
    print("|---|---|---|---|---|---|---|")
    failures = []
    for spec in sets(args.set):
        data = load(spec)
        with tempfile.TemporaryDirectory() as tmp:
            svc = open_corpus(data, Path(tmp), args.vectors)
            for scope in args.scope or SCOPES:
                if args.vectors == "auto":
                    svc.search("vectors", mode="vector", scope=scope)
                for mode in args.mode or MODES:
                    s = evaluate(svc, data["queries"], mode, scope)
                    print(
                        f"| {spec.stem} | {scope} | {mode} | {len(data['queries'])} "
                        f"| {s.mrr:.3f} | {s.ndcg:.3f} | {s.recall:.3f} |"
                    )
                    failures += [(spec.stem, scope, mode, *m) for m in s.misses]
            svc.search_engine().close()
    if args.failures:
        print()
        for name, scope, mode, query, above in failures:
            print(f"{name} {scope} {mode}: {query!r} ← {', '.join(above)}")


if __name__ == "__main__":
    main()
