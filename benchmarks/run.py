"""Time CatDoc's core workloads against the budgets of DESIGN.md §5 and print a table.

Workloads, per project size:
- `validate (process)`: the whole `catdoc validate --format json` process, start to exit;
- `validate CPU (process)`: its user + system CPU time, the wall time of an idle machine;
- `validate peak RSS`: that process's peak resident memory;
- `validate unchanged (kept report)`: the CPU time of the same process when nothing changed since
  the last run, which gives back the report it kept (`catdoc.validate.kept`);
- `trace (process)`, `list objects (process)`: whole `catdoc trace` / `catdoc list objects`
  processes, their CPU time and peak memory;
- `mcp start → tools/list (process)`: from starting `catdoc mcp` to its `tools/list` answer;
- `trace (cold)`: the first trace on a freshly loaded project (builds the graph), in process;
- `trace (warm)` and `list objects (warm)`: repeated calls on a loaded service, in process;
- `edit: …`: one write-path transaction each on a loaded service (lock, version check, journaled
  write, reload, validation of the result), on a copy of the project.

Projects come from `generate.py` and are kept under the work directory between runs.

    python benchmarks/run.py                    # 1,000 and 10,000 objects, 5 runs each
    python benchmarks/run.py --sizes 10000 --repeat 9
    python benchmarks/run.py --sizes 100000 --repeat 3 --only validate commands mcp
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate import MANIFEST, generate, load_manifest

DEFAULT_WORKDIR = Path(__file__).resolve().parent / "out"
WARM_CALLS_PER_RUN = 10
"""Warm workloads are fast and noisy, so each run makes this many calls and keeps every one."""

VALIDATE_BUDGET_S = 2.0
RSS_BUDGET_MB = 300.0
WARM_BUDGET_S = 0.020
TRACE_COLD_BUDGET_S = 2.0
MCP_START_BUDGET_S = 0.6

LARGE = 100_000
"""From this size on, the one-shot budgets are those asked of a large organisation's project:
validate in < 4 s of CPU and < 800 MB, a whole `catdoc trace` or `catdoc list objects` process in
< 2 s."""
LARGE_VALIDATE_S = 4.0
LARGE_RSS_MB = 800.0
LARGE_COMMAND_S = 2.0


@dataclass
class Row:
    """One line of the table: every sample of one workload at one size."""

    workload: str
    size: int
    samples: list[float]
    unit: str
    budget: float | None

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def ok(self) -> bool | None:
        return None if self.budget is None else self.median < self.budget


def ensure_project(size: int, workdir: Path, *, seed: int = 0) -> Path:
    """The generated project of `size` objects under `workdir`, generated only when missing."""
    path = workdir / str(size)
    if (path / MANIFEST).is_file():
        info = load_manifest(path)
        if info.get("objects") == size and info.get("seed") == seed:
            return path
    return generate(size, path, seed=seed)


def validate_command(project: Path) -> list[str]:
    """The real command line, run by this interpreter (use the project's virtualenv)."""
    return [sys.executable, "-m", "catdoc", "-C", str(project), "validate", "--format", "json"]


@dataclass
class ProcessRun:
    wall: float
    cpu: float
    peak_mb: float
    stdout: str


def run_process(command: Sequence[str]) -> ProcessRun:
    """Run `command` once and measure it; raise if it fails."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(list(command), stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        if proc.returncode != 0:
            detail = err.read().decode("utf-8", "replace")[-2000:] or stdout[-2000:]
            raise RuntimeError(f"{' '.join(command)} exited {proc.returncode}:\n{detail}")
    return ProcessRun(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout)


def bench_validate(project: Path, size: int, repeat: int) -> list[Row]:
    """Whole-process load + validate, its CPU time and peak memory; the report must say valid.
    The report the last run kept is removed before each, so every run loads and checks; the
    unchanged-project row then times runs that may give the kept report back."""
    command = validate_command(project)
    kept = project / ".catdoc" / "cache" / "report.json"
    runs = []
    for _ in range(repeat):
        kept.unlink(missing_ok=True)
        runs.append(valid_run(project, command))
    unchanged = [valid_run(project, command) for _ in range(repeat)]
    large = size >= LARGE
    wall = None if large else VALIDATE_BUDGET_S
    cpu = LARGE_VALIDATE_S if large else VALIDATE_BUDGET_S
    rss = LARGE_RSS_MB if large else RSS_BUDGET_MB
    return [
        Row("validate (process)", size, [r.wall for r in runs], "s", wall),
        Row("validate CPU (process)", size, [r.cpu for r in runs], "s", cpu),
        Row("validate peak RSS", size, [r.peak_mb for r in runs], "MB", rss),
        Row("validate unchanged (kept report)", size, [r.cpu for r in unchanged], "s", cpu),
    ]


def valid_run(project: Path, command: list[str]) -> ProcessRun:
    done = run_process(command)
    if json.loads(done.stdout).get("isValid") is not True:
        raise RuntimeError(f"{project} did not validate clean: {done.stdout[:2000]}")
    return done


def bench_commands(project: Path, size: int, repeat: int) -> list[Row]:
    """Whole `catdoc trace` and `catdoc list objects` processes (start, load, answer, exit): what
    a person at a terminal or a CI step waits for. Budgeted only at the large size."""
    source, target = load_manifest(project)["trace"]
    base = [sys.executable, "-m", "catdoc", "-C", str(project)]
    commands = {
        "trace": [*base, "trace", source, target, "--format", "json"],
        "list objects": [*base, "list", "objects", "--format", "json"],
    }
    budget = LARGE_COMMAND_S if size >= LARGE else None
    rows = []
    for name, command in commands.items():
        runs = [run_process(command) for _ in range(repeat)]
        if name == "trace" and not json.loads(runs[0].stdout).get("found"):
            raise RuntimeError(f"no path {source} → {target} in {project}")
        rows += [
            Row(f"{name} (process)", size, [r.wall for r in runs], "s", None),
            Row(f"{name} CPU (process)", size, [r.cpu for r in runs], "s", budget),
            Row(f"{name} peak RSS", size, [r.peak_mb for r in runs], "MB", None),
        ]
    return rows


def mcp_start(project: Path) -> float:
    """Seconds from starting `catdoc mcp` to its answer to `tools/list` (after the handshake),
    over real pipes; the server is then closed."""
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    payload = "".join(json.dumps(r) + "\n" for r in requests).encode()
    command = [sys.executable, "-m", "catdoc", "mcp", "--project", str(project)]
    start = time.perf_counter()
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(payload)
        proc.stdin.flush()
        for line in proc.stdout:
            message = json.loads(line)
            if message.get("id") == 2:
                if not message.get("result", {}).get("tools"):
                    raise RuntimeError(f"tools/list answered {line[:500]!r}")
                return time.perf_counter() - start
        raise RuntimeError("catdoc mcp closed before answering tools/list")
    finally:
        proc.stdin.close()
        proc.kill()
        proc.wait()


def bench_mcp_start(project: Path, size: int, repeat: int) -> list[Row]:
    samples = [mcp_start(project) for _ in range(repeat)]
    return [Row("mcp start → tools/list (process)", size, samples, "s", MCP_START_BUDGET_S)]


def _timed(call: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    value = call()
    return time.perf_counter() - start, value


def bench_trace(project: Path, size: int, repeat: int) -> list[Row]:
    """First trace after a fresh load (cold) and repeated traces on one service (warm)."""
    from catdoc.service import CatDoc

    source, target = load_manifest(project)["trace"]

    def trace(svc: CatDoc) -> object:
        result = svc.trace(source, target)
        if not result.found:
            raise RuntimeError(f"no path {source} → {target} in {project}")
        return result

    cold = []
    for _ in range(repeat):
        svc = CatDoc(project)
        svc.project()
        cold.append(_timed(lambda svc=svc: trace(svc))[0])
    svc = CatDoc(project)
    trace(svc)
    warm = [_timed(lambda: trace(svc))[0] for _ in range(repeat * WARM_CALLS_PER_RUN)]
    return [
        Row("trace (cold)", size, cold, "s", TRACE_COLD_BUDGET_S),
        Row("trace (warm)", size, warm, "s", WARM_BUDGET_S),
    ]


def bench_list(project: Path, size: int, repeat: int) -> list[Row]:
    """A page of objects, unfiltered and filtered by a tag, on a loaded service."""
    from catdoc.service import CatDoc

    svc = CatDoc(project)
    svc.list_objects()
    calls = repeat * WARM_CALLS_PER_RUN
    plain = [_timed(lambda: svc.list_objects(limit=50))[0] for _ in range(calls)]
    tagged = [
        _timed(lambda: svc.list_objects(tags=["security"], limit=50))[0] for _ in range(calls)
    ]
    return [
        Row("list objects (warm)", size, plain, "s", WARM_BUDGET_S),
        Row("list objects by tag (warm)", size, tagged, "s", WARM_BUDGET_S),
    ]


def bench_edit(project: Path, size: int, repeat: int) -> list[Row]:
    """Edits through the write path on a warm service (lock, version check, journaled write,
    reload and validation of the result), on a copy of the project: add an object, add a
    morphism from it, map it under a functor; then the inverse (remove with cascade)."""
    from catdoc.service import CatDoc

    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "project"
        shutil.copytree(project, copy, ignore=shutil.ignore_patterns("cache"))
        svc = CatDoc(copy)
        model = svc.project()
        fun = model.functors[0]
        source = model.category_by_id[fun.source_category]
        target = model.category_by_id[fun.target_category].objects[0].id
        neighbour = source.objects[0].id
        rows: dict[str, list[float]] = {name: [] for name in _EDITS}
        for n in range(repeat):
            new = f"bench-edit-{n}"
            steps = (
                lambda new=new: svc.upsert_object(source.id, new, {"title": "Edit benchmark"}),
                lambda new=new: svc.add_morphism(source.id, new, neighbour, name="bench"),
                lambda new=new: svc.set_mapping(fun.id, objects={new: target}),
                lambda new=new: svc.remove_object(new, cascade=True),
            )
            for name, step in zip(_EDITS, steps, strict=True):
                rows[name].append(_timed(step)[0])
    return [Row(name, size, samples, "s", None) for name, samples in rows.items()]


_EDITS = (
    "edit: add object",
    "edit: add morphism",
    "edit: map object",
    "edit: remove (cascade)",
)


WORKLOADS: dict[str, Callable[[Path, int, int], list[Row]]] = {
    "validate": bench_validate,
    "commands": bench_commands,
    "mcp": bench_mcp_start,
    "trace": bench_trace,
    "list": bench_list,
    "edit": bench_edit,
}


def run(
    sizes: Sequence[int],
    repeat: int,
    workdir: Path,
    *,
    seed: int = 0,
    only: Sequence[str] = tuple(WORKLOADS),
) -> list[Row]:
    rows: list[Row] = []
    for size in sizes:
        project = ensure_project(size, workdir, seed=seed)
        for name in only:
            rows += WORKLOADS[name](project, size, repeat)
    return rows


def _fmt(value: float, unit: str) -> str:
    if unit == "MB":
        return f"{value:.0f} MB"
    if value >= 1:
        return f"{value:.2f} s"
    return f"{value * 1000:.1f} ms" if value >= 0.001 else f"{value * 1e6:.0f} µs"


def table(rows: Sequence[Row]) -> str:
    """The rows as a markdown table: workload | size | median | min | max | budget | ok?"""
    lines = [
        "| workload | size | median | min | max | budget | ok? |",
        "|---|---:|---:|---:|---:|---:|:-:|",
    ]
    for row in rows:
        budget = "—" if row.budget is None else f"< {_fmt(row.budget, row.unit)}"
        ok = {None: "—", True: "yes", False: "**no**"}[row.ok]
        lines.append(
            f"| {row.workload} | {row.size:,} | {_fmt(row.median, row.unit)} | "
            f"{_fmt(min(row.samples), row.unit)} | {_fmt(max(row.samples), row.unit)} | "
            f"{budget} | {ok} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000], metavar="N")
    parser.add_argument("--repeat", type=int, default=5, help="runs per workload (default 5)")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print every sample as JSON")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=list(WORKLOADS),
        default=list(WORKLOADS),
        help="run only these workloads (default: all)",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    rows = run(args.sizes, args.repeat, args.workdir, seed=args.seed, only=args.only)
    if args.json:
        print(json.dumps([asdict(row) | {"median": row.median} for row in rows], indent=2))
    else:
        print(table(rows))
    return 0 if all(row.ok is not False for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
