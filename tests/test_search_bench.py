"""The search benchmark runs end to end on a small corpus (timings are not asserted here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_search_bench_runs(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "search_bench.py"),
            "--docs",
            "40",
            "--queries",
            "10",
            "--out",
            str(tmp_path / "corpus"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    for measure in ("first index build", "re-index after one change", "CLI first query"):
        assert measure in result.stdout
