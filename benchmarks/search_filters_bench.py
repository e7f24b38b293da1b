"""Warm search latency with the filters and options of catdoc_search, on a generated corpus.

For each filter set, five queries warm the engine up, then distinct queries (1–3 corpus words,
as in search_bench.py) are timed once each. Printed: p50 and p95 of the wall time, and the p50
of this process's CPU time (on a shared, loaded machine the wall time includes waiting for a
core), against the 20 ms budget of a read tool. The clusters (cluster filter, cluster info) are
computed once first: that is a separate cost, printed on its own line. Hybrid runs without
vectors (`search.vectors: off`, as search_bench.py and a default install): vectors stored by a
background worker during the run would change the clusters, and the cluster row's id with them.

    python benchmarks/search_filters_bench.py            # benchmarks/out/10000
    python benchmarks/search_filters_bench.py --docs 1000 --queries 50
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BUDGET = 0.02


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--out", type=Path, help="corpus directory (default benchmarks/out/N)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent))
    from benchmarks.search_bench import percentile, queries
    from benchmarks.search_quality import set_vectors
    from catdoc.search.filters import make_filters
    from catdoc.service import CatDoc

    root = args.out or HERE / "out" / str(args.docs)
    if not (root / ".catdoc").is_dir():
        sys.exit(f"No corpus at {root}: run `python benchmarks/generate.py {args.docs} {root}`.")
    set_vectors(root, "off")  # as a default install; vectors stored meanwhile would recluster
    service = CatDoc(root)
    warm, texts = queries(root, 5, seed=3), queries(root, args.queries)
    service.search(warm[0])  # index up to date before timing
    started = time.perf_counter()
    cluster = max(service.clusters().clusters, key=lambda c: c.size, default=None)
    print(f"clusters computed in {time.perf_counter() - started:.2f} s (once per model change)")
    folder = next(o.path for o in service.project().object_by_id.values() if o.path)
    runs: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        ("documents, no filter", {}, {}),
        ("documents, tags [2]", {"tags": ["security", "billing"]}, {}),
        (
            "documents, category [2] + fileType",
            {"category": ["requirements", "design"], "file_type": "md"},
            {},
        ),
        ("documents, source folder", {"source": str(folder).rsplit("/", 1)[0]}, {}),
        ("documents, path glob", {"path": "docs/**/spec-*.md"}, {}),
        ("documents, path glob without a folder", {"path": "*-01[0-4]*.md"}, {}),
        ("documents, cardsOnly", {"cards_only": True}, {}),
        ("documents, includeContent", {}, {"include_content": True}),
        ("documents, includeClusters", {}, {"include_clusters": True}),
        ("chunks, no filter", {}, {"scope": "chunks"}),
        ("chunks, chunkRange 0:2", {"chunk_range": "0:2"}, {"scope": "chunks"}),
        ("chunks, includeContent", {}, {"scope": "chunks", "include_content": True}),
    ]
    if cluster is not None:
        runs.append((f"documents, clusterId ({cluster.size} docs)", {"cluster_id": cluster.id}, {}))
    runs.append(("documents, no filter, again (facts of earlier rows cached)", {}, {}))
    print(f"{args.docs:,} documents, {len(texts)} queries per row\n")
    print("| filters | p50 | p95 | CPU p50 | budget p50 |")
    print("|---|---|---|---|---|")
    for label, raw, options in runs:
        filters = make_filters(raw)
        for text in warm:
            service.search(text, filters=filters, **options)
        walls, cpus = [], []
        for text in texts:
            wall, cpu = time.perf_counter(), time.process_time()
            service.search(text, filters=filters, **options)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        p50, p95, cpu50 = statistics.median(walls), percentile(walls, 0.95), statistics.median(cpus)
        print(
            f"| {label} | {p50 * 1000:.1f} ms | {p95 * 1000:.1f} ms | {cpu50 * 1000:.1f} ms "
            f"| < {BUDGET * 1000:.0f} ms |"
        )


if __name__ == "__main__":
    main()
