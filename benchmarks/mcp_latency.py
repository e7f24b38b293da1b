"""Warm latency of the read-only MCP tools, through an in-process `mcp.Client`.

Each tool is called a few times to warm caches (model load, validation, search index), then
timed over `--calls` calls; the table gives p50 and p95 per tool against the budget of
DESIGN.md §5 (p50 < 20 ms, p95 < 100 ms). The budget column is the protocol round trip
(`tools/call` request → result, all server work included). The last column is the same call
through `Client.call_tool`, which also re-validates the structured output against the tool's
output schema with the pure-Python `jsonschema` package, a client-side cost that other
clients (Claude Desktop, VS Code …) do not pay the same way.

`catdoc_search` is timed over distinct 1–3 word queries drawn from the corpus, each call a new
query: the server keeps the ranking of recent queries (and their embeddings and word counts), so
a repeated query would measure that memory, not the search. Paging through one query (offsets
0, 10, … 90) is timed on its own: that is what the kept ranking is for.

    python benchmarks/generate.py 10000 benchmarks/out/10000
    python benchmarks/mcp_latency.py benchmarks/out/10000
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.types import CallToolRequest, CallToolRequestParams, CallToolResult

P50_BUDGET_MS = 20.0
P95_BUDGET_MS = 100.0
WARMUP = 3


def calls_for(manifest: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """One representative call per read-only tool, on ids of the generated project."""
    source, target = manifest.get("trace", ["req-00000", "test-00000"])
    return [
        ("catdoc_list_categories", {}),
        ("catdoc_show_category", {"categoryId": "design"}),
        ("catdoc_list_objects", {"category": "design", "limit": 50}),
        ("catdoc_list_objects", {"tags": ["security"], "limit": 200, "offset": 1000}),
        ("catdoc_show_object", {"objectId": "req-00042"}),
        ("catdoc_list_morphisms", {"categoryId": "requirements", "source": "req-00042"}),
        ("catdoc_show_morphism", {"morphismId": "req-m00000"}),
        ("catdoc_validate", {}),
        ("catdoc_validate_category", {"categoryId": "design"}),
        ("catdoc_validate_functor", {"functorId": "req-to-spec"}),
        ("catdoc_validate_natural_transformation", {"id": "req-to-spec-upgrade"}),
        ("catdoc_trace", {"sourceId": source, "targetId": target}),
        ("catdoc_context", {"objectId": "req-00042", "depth": 3}),
        ("catdoc_list_functors", {}),
        ("catdoc_show_functor", {"functorId": "req-to-spec"}),
        ("catdoc_list_natural_transformations", {}),
        ("catdoc_show_natural_transformation", {"id": "req-to-spec-upgrade"}),
        ("catdoc_get_graph", {"categoryId": "design"}),
        ("catdoc_get_graph", {}),
    ]


def searches(project: Path, count: int) -> list[tuple[str, list[dict[str, Any]], str]]:
    """Search calls with a query of their own each, and the pages of one query."""
    from benchmarks.search_bench import queries

    texts = queries(project, count)
    pages = [{"query": "privacy stream limit", "offset": 10 * i} for i in range(10)]
    return [
        ("catdoc_search", [{"query": t, "mode": "text"} for t in texts], "distinct queries, text"),
        ("catdoc_search", [{"query": t} for t in texts], "distinct queries, hybrid"),
        ("catdoc_search", pages, "query=privacy stream limit, offset=0…90 (pages)"),
    ]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


Row = tuple[str, str, float, float, float]


async def timed(calls: int, call: Any, start_at: int = 0) -> list[float]:
    """Milliseconds of each of `calls` calls; call i gets argument set `start_at + i`."""
    samples = []
    for i in range(start_at, start_at + calls):
        start = time.perf_counter()
        await call(i)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


async def measure(project: Path, calls: int, mode: str) -> list[Row]:
    from catdoc.mcp_server import build_server
    from catdoc.service import CatDoc

    manifest_file = project / "benchmark.json"
    manifest = json.loads(manifest_file.read_text()) if manifest_file.is_file() else {}
    plans = [(tool, [args], "") for tool, args in calls_for(manifest)]
    plans += searches(project, WARMUP + 2 * calls)
    rows = []
    async with Client(build_server(CatDoc(project)), mode=mode) as client:
        await client.list_tools()
        for tool, sets, label in plans:
            for i in range(WARMUP):
                result = await client.call_tool(tool, sets[i % len(sets)])
            if result.is_error:
                text = result.content[0].text  # type: ignore[union-attr]
                print(f"{tool} {sets[0]}: {text}", file=sys.stderr)

            async def round_trip(i: int, tool: str = tool, sets: list = sets) -> None:
                params = CallToolRequestParams(name=tool, arguments=sets[i % len(sets)])
                await client.session.send_request(CallToolRequest(params=params), CallToolResult)

            async def full(i: int, tool: str = tool, sets: list = sets) -> None:
                await client.call_tool(tool, sets[i % len(sets)])

            wire = await timed(calls, round_trip, WARMUP)
            checked = await timed(calls, full, WARMUP + calls)
            label = label or ", ".join(f"{k}={v}" for k, v in sets[0].items())
            rows.append(
                (
                    tool,
                    label,
                    statistics.median(wire),
                    percentile(wire, 0.95),
                    statistics.median(checked),
                )
            )
    return rows


def resident_mb() -> float:
    """The process's resident memory now (Linux; elsewhere its peak)."""
    status = Path("/proc/self/status")
    if status.is_file():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path, help="a generated project (benchmarks/generate.py)")
    parser.add_argument("--calls", type=int, default=30, help="timed calls per tool (default 30)")
    parser.add_argument(
        "--mode",
        choices=["auto", "legacy"],
        default="auto",
        help="client mode: auto (direct dispatch) or legacy (JSON-RPC handshake)",
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    rows = anyio.run(measure, args.project.resolve(), args.calls, args.mode)
    print(
        f"| tool | arguments | p50 ms | p95 ms | budget (p50 < {P50_BUDGET_MS:g}, "
        f"p95 < {P95_BUDGET_MS:g}) | p50 ms via call_tool |"
    )
    print("|---|---|---:|---:|---|---:|")
    failed = 0
    for tool, label, p50, p95, checked in rows:
        ok = p50 < P50_BUDGET_MS and p95 < P95_BUDGET_MS
        failed += not ok
        verdict = "ok" if ok else "OVER"
        print(f"| {tool} | {label} | {p50:.1f} | {p95:.1f} | {verdict} | {checked:.1f} |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"\nresident memory of this process (server and client): {resident_mb():.0f} MB at "
        f"the end, {peak:.0f} MB at most"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
