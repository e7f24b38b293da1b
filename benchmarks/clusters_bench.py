"""Clusters of related documents: how long computing them takes, and the warm latency of the
cluster tools.

The cold computation is timed in steps on a model already loaded (and, where the project's
concepts exist, already read from the index): the links the model declares, the links through
shared concepts, the graph, Louvain, and the whole `CatDoc.clusters()` call with names and ids.
Each step is the median of `--runs` runs. The tools are then timed like
benchmarks/mcp_latency.py does: the protocol round trip of `tools/call` through an in-process
`mcp.Client`, after warm-up calls, against the p50 budget of 20 ms.

    python benchmarks/generate.py 10000 benchmarks/out/10000
    python benchmarks/clusters_bench.py benchmarks/out/10000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio

P50_BUDGET_MS = 20.0
WARMUP = 3


def seconds(action: Callable[[], Any], runs: int) -> tuple[float, Any]:
    """The median wall time of `runs` calls of `action`, and its last answer."""
    samples, value = [], None
    for _ in range(runs):
        started = time.perf_counter()
        value = action()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples), value


def cold_steps(project: Path, runs: int) -> list[tuple[str, float]]:
    from catdoc import clusters as cl
    from catdoc.project_files import cache_dir
    from catdoc.service import CatDoc
    from catdoc.service_clusters import CACHE_FILE, model_links

    svc = CatDoc(project)
    model = svc.project()
    concepts = svc._concepts()
    links_s, links = seconds(lambda: model_links(model), runs)
    concept_s, by_concept = seconds(lambda: cl.concept_links(concepts), runs)
    graph_s, graph = seconds(
        lambda: cl.document_graph(model.object_by_id, [*links, *by_concept]), runs
    )
    louvain_s, _ = seconds(lambda: cl.communities(graph), runs)

    stored = cache_dir(project) / CACHE_FILE

    def whole(keep_file: bool) -> float:
        if not keep_file:
            stored.unlink(missing_ok=True)
        fresh = CatDoc(project)
        fresh.project()
        fresh._concepts()
        started = time.perf_counter()
        fresh.clusters()
        return time.perf_counter() - started

    total = statistics.median(whole(False) for _ in range(runs))
    from_file = statistics.median(whole(True) for _ in range(runs))
    return [
        ("links the model declares", links_s),
        (f"links through shared concepts ({len(concepts):,} documents with concepts)", concept_s),
        (
            f"graph ({graph.graph.number_of_nodes():,} documents, "
            f"{graph.graph.number_of_edges():,} links)",
            graph_s,
        ),
        ("Louvain communities", louvain_s),
        ("CatDoc.clusters() cold, all included", total),
        (f"CatDoc.clusters() in a new process, communities from {CACHE_FILE}", from_file),
    ]


async def warm_tools(project: Path, calls: int) -> list[tuple[str, float, float]]:
    from mcp import Client
    from mcp.types import CallToolRequest, CallToolRequestParams, CallToolResult

    from catdoc.mcp_server import build_server
    from catdoc.service import CatDoc

    svc = CatDoc(project)
    largest = svc.clusters().clusters[0].id if svc.clusters().clusters else "cl-none"
    plans = [
        ("catdoc_list_clusters", {}),
        ("catdoc_list_clusters", {"includeMembers": True, "memberLimit": 20}),
        ("catdoc_list_clusters", {"limit": 200, "includeMembers": True, "memberLimit": 200}),
        ("catdoc_show_cluster", {"clusterId": largest}),
    ]
    rows = []
    async with Client(build_server(svc)) as client:
        for tool, arguments in plans:
            for _ in range(WARMUP):
                await client.call_tool(tool, arguments)
            samples = []
            for _ in range(calls):
                params = CallToolRequestParams(name=tool, arguments=arguments)
                started = time.perf_counter()
                await client.session.send_request(CallToolRequest(params=params), CallToolResult)
                samples.append((time.perf_counter() - started) * 1000)
            label = f"{tool} " + (", ".join(f"{k}={v}" for k, v in arguments.items()) or "{}")
            rows.append((label, statistics.median(samples), sorted(samples)[int(0.95 * calls)]))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path, help="a generated project (benchmarks/generate.py)")
    parser.add_argument("--runs", type=int, default=3, help="cold runs per step (default 3)")
    parser.add_argument("--calls", type=int, default=30, help="timed calls per tool (default 30)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    project = args.project.resolve()

    from catdoc.service import CatDoc

    listing = CatDoc(project).clusters()
    sizes = [c.size for c in listing.clusters]
    print(
        f"{listing.documents:,} documents: {listing.total:,} clusters (largest "
        f"{max(sizes, default=0):,}, median {statistics.median(sizes) if sizes else 0:g}), "
        f"{listing.unclustered:,} unclustered; links {listing.links}\n"
    )
    print(f"| step (median of {args.runs}) | seconds |")
    print("|---|---:|")
    for label, value in cold_steps(project, args.runs):
        print(f"| {label} | {value:.2f} |")
    print(f"\n| tool call, warm | p50 ms | p95 ms | budget (p50 < {P50_BUDGET_MS:g}) |")
    print("|---|---:|---:|---|")
    failed = 0
    for label, p50, p95 in anyio.run(warm_tools, project, args.calls):
        failed += p50 >= P50_BUDGET_MS
        print(f"| {label} | {p50:.1f} | {p95:.1f} | {'ok' if p50 < P50_BUDGET_MS else 'OVER'} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
