"""Warm latency of browsing the library on a generated project (default 10,000 documents):
category statistics, the index summary at each detail, and a document's structure.

Each call is timed twice: as the service call (`CatDoc.browse_categories`, `index_summary`,
`document_structure`) and as the MCP protocol round trip through an in-process `mcp.Client`
(the `tools/call` request until its result, all server work included, as in
`mcp_latency.py`). Every call is made a few times first to warm the caches (model, search
index, the index's counts); `document_structure` asks for a different document each time.
Budget (DESIGN.md §5, issue 13): p50 < 20 ms warm.

    python benchmarks/browse_bench.py                 # benchmarks/out/10000, made if missing
    python benchmarks/browse_bench.py --docs 1000 --calls 50
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.types import CallToolRequest, CallToolRequestParams, CallToolResult

HERE = Path(__file__).resolve().parent
P50_BUDGET_MS = 20.0
WARMUP = 3
RECOUNT = "catdoc_index_summary (first call after a change)"
"""Not a warm call: the counts are read once per change of the index, then kept."""

Case = tuple[str, dict[str, Any], Callable[[int], dict[str, Any]]]


def corpus(n: int) -> Path:
    """The generated project of `n` documents (its search index is kept if present)."""
    out = HERE / "out" / str(n)
    if not (out / ".catdoc").is_dir():
        subprocess.run(
            [sys.executable, str(HERE / "generate.py"), str(n), str(out)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return out


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def cases(object_ids: list[str]) -> list[Case]:
    """(tool, label arguments, arguments of call i): the MCP tool and its arguments."""

    def same(args: dict[str, Any]) -> Callable[[int], dict[str, Any]]:
        return lambda _i: args

    listing = {"statistics": True}
    by_chunks = {"statistics": True, "sortBy": "chunkCount", "filter": "e"}
    return [
        ("catdoc_list_categories", listing, same(listing)),
        ("catdoc_list_categories", by_chunks, same(by_chunks)),
        *(
            ("catdoc_index_summary", {"detail": d}, same({"detail": d}))
            for d in ("basic", "detailed", "comprehensive")
        ),
        (
            "catdoc_document_structure",
            {"objectId": "(a different one each call)"},
            lambda i: {"objectId": object_ids[i * 7919 % len(object_ids)]},
        ),
    ]


def service_call(svc: Any, tool: str, args: dict[str, Any]) -> object:
    """The service call behind each tool (the faces only translate)."""
    if tool == "catdoc_list_categories":
        return svc.browse_categories(
            statistics=args.get("statistics", False),
            sort_by=args.get("sortBy", "model"),
            filter=args.get("filter"),
        )
    if tool == "catdoc_index_summary":
        return svc.index_summary(args["detail"])
    return svc.document_structure(args["objectId"])


def timed(calls: int, call: Callable[[int], object]) -> list[float]:
    samples = []
    for i in range(WARMUP, WARMUP + calls):
        start = time.perf_counter()
        call(i)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


async def timed_async(calls: int, call: Callable[[int], Any]) -> list[float]:
    samples = []
    for i in range(WARMUP, WARMUP + calls):
        start = time.perf_counter()
        await call(i)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


async def measure(project: Path, calls: int) -> list[tuple[str, str, list[float], list[float]]]:
    from catdoc.mcp_server import build_server
    from catdoc.service import CatDoc

    svc = CatDoc(project)
    started = time.perf_counter()
    built = svc.build_index()
    print(
        f"index: {built.documents:,} documents, {built.indexed:,} (re)indexed in "
        f"{time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    object_ids = list(svc.project().object_by_id)
    rows = []
    async with Client(build_server(svc)) as client:
        await client.list_tools()
        for tool, label, args_of in cases(object_ids):
            for i in range(WARMUP):
                result = await client.call_tool(tool, args_of(i))
                if result.is_error:
                    raise SystemExit(f"{tool} {args_of(i)}: {result.content}")
            direct = timed(
                calls, lambda i, tool=tool, args_of=args_of: service_call(svc, tool, args_of(i))
            )

            async def round_trip(i: int, tool: str = tool, args_of: Any = args_of) -> None:
                params = CallToolRequestParams(name=tool, arguments=args_of(i))
                await client.session.send_request(CallToolRequest(params=params), CallToolResult)

            wire = await timed_async(calls, round_trip)
            shown = ", ".join(f"{k}={v}" for k, v in label.items())
            rows.append((tool, shown, direct, wire))
        rows.append((RECOUNT, "detail=comprehensive, counts read again", *recount(svc, calls)))
    return rows


def recount(svc: Any, calls: int) -> tuple[list[float], list[float]]:
    """`index_summary(comprehensive)` when its counts must be read again from the index, as on
    the first call after a write (service time only)."""

    def call(_i: int) -> object:
        svc._facts = None
        return svc.index_summary("comprehensive")

    samples = timed(calls, call)
    return samples, samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000, help="documents (default 10,000)")
    parser.add_argument("--calls", type=int, default=100, help="timed calls per row")
    args = parser.parse_args(argv)
    project = corpus(args.docs)
    rows = anyio.run(measure, project, args.calls)
    print(f"Warm latency at {args.docs:,} documents, {args.calls} calls per row (ms):\n")
    print("| tool | arguments | service p50 | service p95 | MCP p50 | MCP p95 | budget |")
    print("|---|---|---:|---:|---:|---:|---|")
    failed = False
    for tool, label, direct, wire in rows:
        p50 = statistics.median(wire)
        ok = p50 < P50_BUDGET_MS
        failed |= not ok and tool != RECOUNT
        mcp = "–, –" if tool == RECOUNT else f"{p50:.2f} | {percentile(wire, 0.95):.2f}"
        verdict = "once per change" if tool == RECOUNT else "ok" if ok else "OVER"
        print(
            f"| {tool} | {label} | {statistics.median(direct):.2f} | "
            f"{percentile(direct, 0.95):.2f} | {mcp.replace(', ', ' | ')} | {verdict} |"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
