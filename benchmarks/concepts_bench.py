"""Concept benchmarks on a generated corpus (budgets in issue 13 and DESIGN.md §5).

Measures, on N documents of ~300 words (default 10,000):
- the first index build with and without concept extraction (median of `--runs`, alternating
  the two so a change in the machine's load hits both alike): what concepts add, in %,
- warm latency (p50/p95) of each concept read: list (whole library, one category by weight,
  by name), one document's concepts, the passages about a concept, the documents for two
  concepts (union and per concept), and the two whole-index answers other parts use
  (`document_concepts`, `concept_counts`). Each call's result is also turned into JSON, as the
  MCP and CLI faces do.

The corpus comes from `benchmarks/generate.py` (written once to `benchmarks/out/N`); its search
cache is rebuilt by every build run. Times are wall and CPU (user + system of this process): on
a shared, loaded machine the wall time includes waiting for a core.

    python benchmarks/concepts_bench.py                # 10,000 documents, 3 builds each way
    python benchmarks/concepts_bench.py --docs 1000 --runs 1 --calls 50
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
READ_BUDGET = 0.02
"""p50 of every warm read (seconds)."""
BUILD_BUDGET = 0.30
"""What concepts may add to the first index build."""


def build_once(root: Path, concepts: bool) -> tuple[float, float]:
    """(wall, CPU) seconds of one first index build, with or without concept extraction, from
    cold caches (remembered stems and token readings forgotten, as in a new process)."""
    from catdoc.search import concept_store
    from catdoc.service import CatDoc

    shutil.rmtree(root / ".catdoc" / "cache", ignore_errors=True)
    concept_store.clear_caches()
    saved = concept_store.store, concept_store.forget
    if not concepts:
        concept_store.store = lambda *args, **kwargs: None  # type: ignore[assignment]
        concept_store.forget = lambda *args, **kwargs: set()  # type: ignore[assignment]
    try:
        service = CatDoc(root)
        project = service.project()
        engine = service.search_engine()
        wall, cpu = time.perf_counter(), time.process_time()
        engine.sync(project)
        result = time.perf_counter() - wall, time.process_time() - cpu
        engine.close()
    finally:
        concept_store.store, concept_store.forget = saved
    return result


def timed(calls: list[Callable[[], Any]]) -> tuple[list[float], list[float]]:
    for call in calls[:3]:
        call()
    walls, cpus = [], []
    for call in calls:
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3, help="builds with and without concepts")
    parser.add_argument("--calls", type=int, default=200, help="calls per read measured")
    parser.add_argument("--out", type=Path, help="corpus directory (default benchmarks/out/N)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent))
    from benchmarks.search_bench import corpus
    from catdoc.service import CatDoc

    root = corpus(args.docs, args.out or HERE / "out" / str(args.docs))
    builds: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for _ in range(args.runs):
        for concepts in (False, True):
            builds[concepts].append(build_once(root, concepts))

    svc = CatDoc(root)
    rng = random.Random(7)
    documents = svc.document_concepts()
    ids = rng.sample(sorted(documents), min(50, len(documents)))
    keys = sorted({key for concepts in documents.values() for key in concepts})
    labels = [svc.list_concepts(limit=200).items[n].label for n in range(0, 200, 4)]
    concepts = [rng.choice(labels) for _ in range(50)]
    categories = [c.id for c in svc.project().categories]

    def rotate(make: Callable[[int], Any]) -> list[Callable[[], Any]]:
        return [lambda n=n: _json(make(n)) for n in range(args.calls)]

    reads: list[tuple[str, list[Callable[[], Any]]]] = [
        ("list_concepts, whole library", rotate(lambda n: svc.list_concepts(offset=n % 5 * 50))),
        (
            "list_concepts, one category",
            rotate(lambda n: svc.list_concepts(category=categories[n % len(categories)])),
        ),
        (
            "list_concepts, by name",
            rotate(lambda n: svc.list_concepts(category=categories[n % 2], sort="name")),
        ),
        ("extract_concepts", rotate(lambda n: svc.extract_concepts(ids[n % len(ids)]))),
        ("concept_search", rotate(lambda n: svc.concept_search(concepts[n % len(concepts)]))),
        (
            "source_concepts (2 concepts)",
            rotate(lambda n: svc.source_concepts(concepts[n % 50 : n % 50 + 2] or concepts[:2])),
        ),
        (
            "concept_sources (2 concepts)",
            rotate(lambda n: svc.concept_sources(concepts[n % 50 : n % 50 + 2] or concepts[:2])),
        ),
        ("document_concepts()", [svc.document_concepts] * args.calls),
        ("concept_counts()", [svc.concept_counts] * args.calls),
    ]
    rows: list[tuple[str, str, str, str]] = []
    off = statistics.median(w for w, _ in builds[False])
    on = statistics.median(w for w, _ in builds[True])
    off_cpu = statistics.median(c for _, c in builds[False])
    on_cpu = statistics.median(c for _, c in builds[True])
    rows.append(("first index build, without concepts", _ms(off), _ms(off_cpu), ""))
    rows.append(("first index build, with concepts", _ms(on), _ms(on_cpu), ""))
    rows.append(
        (
            "added by concepts",
            f"{(on - off) / off:+.0%}",
            f"{(on_cpu - off_cpu) / off_cpu:+.0%}",
            f"< +{BUILD_BUDGET:.0%}",
        )
    )
    for name, calls in reads:
        walls, cpus = timed(calls)
        budget = f"< {_ms(READ_BUDGET)}"
        rows.append(
            (
                f"{name} p50 (warm)",
                _ms(statistics.median(walls)),
                _ms(statistics.median(cpus)),
                budget,
            )
        )
        rows.append(
            (f"{name} p95 (warm)", _ms(percentile(walls, 0.95)), _ms(percentile(cpus, 0.95)), "")
        )

    load = os.getloadavg()[0]
    print(
        f"{args.docs} documents, {len(keys):,} concepts, {args.runs} builds each way, "
        f"{args.calls} calls per read, load average {load:.1f}\n"
    )
    print("| measure | wall | CPU | budget |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def _json(result: Any) -> Any:
    return result.model_dump_json(by_alias=True) if hasattr(result, "model_dump_json") else result


def _ms(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"


if __name__ == "__main__":
    main()
