"""How long the terminal browser takes to open a functor's mapping on a big project: from the
key press to the first rows on screen and to the full tables, and the longest stall of the UI's
event loop meanwhile (how long a key could wait); and how long the jump palette takes to answer
a query (matching every object). Medians of a few runs, headless through Textual's Pilot.

    python benchmarks/tui_bench.py                       # benchmarks/out/10000, made if missing
    python benchmarks/tui_bench.py --project DIR --functor req-to-spec --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref
from catdoc.tui.screens.mapping import MappingScreen
from catdoc.tui.widgets.mapping import MappingTable

HERE = Path(__file__).resolve().parent
POLL = 0.005
"""Seconds between looks at the tables (the UI's loop keeps running in between)."""


def corpus(n: int) -> Path:
    out = HERE / "out" / str(n)
    if not (out / ".catdoc").is_dir():
        subprocess.run([sys.executable, str(HERE / "generate.py"), str(n), str(out)], check=True)
    return out


def rows_shown(app: CatDocApp) -> list[int]:
    return [table.row_count for table in app.screen.query(MappingTable)]


async def one_run(root: Path, functor: str, expected: int) -> tuple[float, float, float]:
    """(seconds to the first rows, to all rows, longest stall of the event loop) after `f` on
    the functor. The key's action is called directly: `Pilot.press` returns only once the app
    is idle again."""
    app = CatDocApp(CatDoc(root), watch_interval=None)
    async with app.run_test(size=(120, 36)) as pilot:
        app.browser.show(Ref("functor", functor))
        await pilot.pause()
        await app.workers.wait_for_complete()  # the navigator's error marks
        start = time.perf_counter()
        first, stall, last = None, 0.0, start
        app.browser.action_mapping()
        while True:
            counts = rows_shown(app)
            now = time.perf_counter()
            stall, last = max(stall, now - last), now
            if first is None and any(counts):
                first = now - start
            screen = app.screen
            done = isinstance(screen, MappingScreen) and not getattr(screen, "filling", False)
            if sum(counts) >= expected and done:
                await pilot.pause()
                return first or now - start, time.perf_counter() - start, stall
            await asyncio.sleep(POLL)


def jump_ms(root: Path, queries: tuple[str, ...] = ("req-01234", "cache retry", "spc 42")) -> float:
    """Median milliseconds for the jump provider to answer one query (targets precomputed)."""
    from catdoc.tui.jump import JumpProvider, targets

    service = CatDoc(root)
    targets(service)
    samples: list[float] = []

    async def answer(query: str) -> None:
        app = CatDocApp(service, watch_interval=None)
        async with app.run_test() as pilot:
            await pilot.pause()
            provider = JumpProvider(app.screen)
            await provider.startup()
            for _ in range(3):
                start = time.perf_counter()
                _ = [hit async for hit in provider.search(query)]
                samples.append((time.perf_counter() - start) * 1000)

    for query in queries:
        asyncio.run(answer(query))
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", type=Path, help="a project (default: the 10,000 one)")
    parser.add_argument("--functor", default="req-to-spec")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    root = args.project or corpus(10_000)
    detail = CatDoc(root).show_functor(args.functor)
    expected = len(detail.object_mapping) + len(detail.morphism_mapping)
    firsts, fulls, stalls = [], [], []
    for _ in range(args.runs):
        first, full, stall = asyncio.run(one_run(root, args.functor, expected))
        firsts.append(first)
        fulls.append(full)
        stalls.append(stall)
        print(
            f"first rows {first:.2f} s · all {expected:,} rows {full:.2f} s · "
            f"longest UI stall {stall:.2f} s",
            flush=True,
        )
    print(
        f"median of {args.runs}: first rows {statistics.median(firsts):.2f} s, "
        f"full table {statistics.median(fulls):.2f} s, "
        f"longest UI stall {statistics.median(stalls):.2f} s"
    )
    print(f"jump: {jump_ms(root):.1f} ms per query (median)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
