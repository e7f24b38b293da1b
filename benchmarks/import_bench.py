"""What an import into categories that already exist costs (the common re-import).

    python benchmarks/import_bench.py benchmarks/out/10000 --per-folder 250 --runs 3  # 1,000
    python benchmarks/import_bench.py benchmarks/out/10000 --runs 3                   # 10,000

Each run starts a fresh `catdoc init` project in a temporary folder, copies the generated
documents (the first `--per-folder` of each folder, or all), imports the first document of each
folder (the example gives way to four real categories and `functors: []`, as after a first
import), and then times `CatDoc.import_documents(["docs"])` in process: wall and CPU seconds.
Prints the medians and the size of the model file written; `--link` links references too.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from catdoc.service import CatDoc


def prepare(source: Path, root: Path, per_folder: int | None) -> None:
    """A fresh project at `root` holding the documents, one per folder imported already."""
    CatDoc.init(root)
    firsts = []
    for folder in sorted(p for p in (source / "docs").iterdir() if p.is_dir()):
        names = sorted(p.name for p in folder.iterdir())[:per_folder]
        (root / "docs" / folder.name).mkdir(parents=True)
        for name in names:
            shutil.copyfile(folder / name, root / "docs" / folder.name / name)
        firsts.append(f"docs/{folder.name}/{names[0]}")
    CatDoc(root).import_documents(firsts)


def run_once(source: Path, per_folder: int | None, link: bool) -> tuple[float, float, int, int]:
    """Wall and CPU seconds of the import, objects created, bytes of the model file."""
    with tempfile.TemporaryDirectory(prefix="catdoc-import-") as folder:
        root = Path(folder) / "project"
        prepare(source, root, per_folder)
        svc = CatDoc(root)
        wall, cpu = time.perf_counter(), time.process_time()
        result = svc.import_documents(["docs"], link=link)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        size = (root / ".catdoc" / "category.yaml").stat().st_size
        return wall, cpu, result.created, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path, help="a generated project (benchmarks/generate.py)")
    parser.add_argument("--per-folder", type=int, default=None, help="documents per folder")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--link", action="store_true", help="link references too")
    args = parser.parse_args()
    samples = [run_once(args.project, args.per_folder, args.link) for _ in range(args.runs)]
    walls, cpus = [s[0] for s in samples], [s[1] for s in samples]
    created, size = samples[-1][2], samples[-1][3]
    print(
        f"import into existing categories: {created} objects created, model {size:,} bytes; "
        f"median of {args.runs}: wall {statistics.median(walls):.2f} s, "
        f"CPU {statistics.median(cpus):.2f} s (CPU runs: {', '.join(f'{c:.2f}' for c in cpus)})"
    )


if __name__ == "__main__":
    main()
