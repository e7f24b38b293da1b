"""How long the terminal browser takes to open a functor's mapping on a big project: from the
key press to the first rows on screen and to the full tables (median of a few runs, headless
through Textual's Pilot).

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


async def one_run(root: Path, functor: str, expected: int) -> tuple[float, float]:
    """(seconds to the first rows, seconds to all rows) after `f` on the functor. The key's
    action is called directly: `Pilot.press` returns only once the app is idle again."""
    app = CatDocApp(CatDoc(root), watch_interval=None)
    async with app.run_test(size=(120, 36)) as pilot:
        app.browser.show(Ref("functor", functor))
        await pilot.pause()
        start = time.perf_counter()
        first = None
        app.browser.action_mapping()
        while True:
            counts = rows_shown(app)
            now = time.perf_counter() - start
            if first is None and any(counts):
                first = now
            screen = app.screen
            done = isinstance(screen, MappingScreen) and not getattr(screen, "filling", False)
            if sum(counts) >= expected and done:
                await pilot.pause()
                return first or now, time.perf_counter() - start
            await asyncio.sleep(POLL)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", type=Path, help="a project (default: the 10,000 one)")
    parser.add_argument("--functor", default="req-to-spec")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    root = args.project or corpus(10_000)
    detail = CatDoc(root).show_functor(args.functor)
    expected = len(detail.object_mapping) + len(detail.morphism_mapping)
    firsts, fulls = [], []
    for _ in range(args.runs):
        first, full = asyncio.run(one_run(root, args.functor, expected))
        firsts.append(first)
        fulls.append(full)
        print(f"first rows {first:.2f} s · all {expected:,} rows {full:.2f} s", flush=True)
    print(
        f"median of {args.runs}: first rows {statistics.median(firsts):.2f} s, "
        f"full table {statistics.median(fulls):.2f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
