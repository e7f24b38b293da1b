"""Time `CatDoc.impact` on a generated project (default 10,000 objects): each direction,
unbounded, median of a few warm calls (the trace graph is built once per model version and
kept), and the cold first call of a fresh service (load and graph included).

Starts: `down` and `both` from the manifest's first requirement, `up` from its test (the
generator's `trace` pair). `both` reaches every object, so it is the heaviest answer: one
shortest path per object. Budget (issue 14): under 1 s.

    python benchmarks/impact_bench.py                  # benchmarks/out/10000, made if missing
    python benchmarks/impact_bench.py --objects 1000 --repeat 5 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from benchmarks.generate import generate, load_manifest  # noqa: E402
from catdoc.service import CatDoc  # noqa: E402

BUDGET_S = 1.0


def corpus(n: int) -> Path:
    out = HERE / "out" / str(n)
    if not (out / ".catdoc").is_dir():
        generate(n, out)
    return out


def measure(root: Path, repeat: int) -> list[dict[str, object]]:
    source, target = load_manifest(root)["trace"]
    starts = {"down": source, "up": target, "both": source}
    rows: list[dict[str, object]] = []
    for direction, start in starts.items():
        svc = CatDoc(root)
        began = time.perf_counter()
        svc.impact(start, direction=direction)  # type: ignore[arg-type]
        cold = time.perf_counter() - began
        samples = []
        for _ in range(repeat):
            began = time.perf_counter()
            result = svc.impact(start, direction=direction)  # type: ignore[arg-type]
            samples.append(time.perf_counter() - began)
        rows.append(
            {
                "direction": direction,
                "start": start,
                "reached": result.total,
                "deepest": max((o.distance for g in result.groups for o in g.objects), default=0),
                "median_s": statistics.median(samples),
                "cold_s": cold,
                "samples_s": samples,
            }
        )
    rows.append(_changed_everywhere(root, repeat))
    return rows


def _changed_everywhere(root: Path, repeat: int) -> dict[str, object]:
    """`down` from every requirement at once with `reachedFrom` tracked: what
    `--changed-since` costs when every requirement's document changed (git aside)."""
    from catdoc.graph import build_trace_graph
    from catdoc.impact import impact

    svc = CatDoc(root)
    project = svc.project()
    graph = svc.derived("trace-graph:True", lambda p: build_trace_graph(p, via_functors=True))
    starts = [o.id for o in project.categories[0].objects]
    samples = []
    for _ in range(repeat):
        began = time.perf_counter()
        result = impact(project, graph, starts, direction="down", track_sources=True)
        samples.append(time.perf_counter() - began)
    return {
        "direction": "down",
        "start": f"all {len(starts):,} of {project.categories[0].id} (reachedFrom tracked)",
        "reached": result.total,
        "deepest": max((o.distance for g in result.groups for o in g.objects), default=0),
        "median_s": statistics.median(samples),
        "cold_s": None,
        "samples_s": samples,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the raw rows as JSON")
    args = parser.parse_args()
    rows = measure(corpus(args.objects), args.repeat)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"impact at {args.objects:,} objects, unbounded, median of {args.repeat} warm calls")
        for row in rows:
            cold = row["cold_s"]
            print(
                f"  {row['direction']:<5} from {row['start']}: {row['reached']:>6,} objects "
                f"(deepest {row['deepest']} hops)  warm {row['median_s'] * 1000:7.1f} ms"
                + (f"  cold {cold * 1000:7.1f} ms (load + graph + walk)" if cold else "")
            )
    worst = max(float(row["median_s"]) for row in rows)  # type: ignore[arg-type]
    print(f"budget {BUDGET_S:.1f} s: {'met' if worst < BUDGET_S else 'EXCEEDED'}")
    return 0 if worst < BUDGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
