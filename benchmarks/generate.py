"""Write a synthetic CatDoc project of N objects for the benchmarks.

The project has four layers (requirements → specifications → design → tests), each a category
with ~3 morphisms per object, functors between consecutive layers, a second version of the first
functor, a natural transformation between the two, and one markdown document of ~300 words per
object. It is lawful by construction, so it validates clean:

- the layers are isomorphic copies (the last one may hold up to three extra objects), and every
  functor maps object i to object i and generator j to generator j of the next layer;
- morphisms only run from even-numbered to odd-numbered objects, so no two generators compose
  and the composition-closure lint has nothing to say;
- the two versions of the first functor agree, so identity components are natural.

Everything is drawn from a seeded RNG, so a seed gives the same bytes every time.

    python benchmarks/generate.py 10000 benchmarks/out/10000
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import random
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "benchmark.json"
WORDS_PER_DOCUMENT = 300
MORPHISMS_PER_OBJECT = 3


@dataclass(frozen=True)
class Layer:
    id: str
    name: str
    prefix: str
    noun: str
    relations: tuple[str, ...]


LAYERS = (
    Layer("requirements", "Requirements", "req", "Requirement", ("refines", "depends-on")),
    Layer("specifications", "Specifications", "spec", "Specification", ("details", "uses")),
    Layer("design", "Design", "des", "Design note", ("implements", "calls")),
    Layer("tests", "Tests", "test", "Test plan", ("covers", "exercises")),
)

AUTHORS = ("ada", "grace", "linus", "barbara", "edsger", "margaret", "ken", "radia")
TAGS = (
    "security",
    "performance",
    "usability",
    "reliability",
    "compliance",
    "api",
    "storage",
    "network",
    "billing",
    "search",
    "audit",
    "mobile",
)
_VOCABULARY_TEXT = """
    system user account token session request response service module component interface
    contract schema record field value index cache queue message event handler worker job task
    schedule retry timeout limit quota budget latency throughput capacity storage database table
    column query filter sort page cursor offset batch stream buffer file folder path document
    report metric counter gauge histogram trace span log alert incident outage recovery backup
    restore snapshot replica shard partition cluster node leader follower election consensus
    commit rollback transaction isolation lock conflict merge version release deploy rollout
    feature flag toggle experiment cohort segment customer tenant organisation team role
    permission policy grant revoke audit compliance privacy consent retention deletion export
    import migration upgrade downgrade compatibility deprecation warning error failure fault
    exception validation constraint invariant assertion property requirement specification
    design test coverage fixture mock stub scenario acceptance regression benchmark profile
    memory processor thread process socket connection protocol header payload encoding
    compression encryption signature certificate key secret rotation expiry renewal password
    login logout authentication authorisation identity federation directory group member
    notification email webhook callback subscription channel topic broker gateway proxy router
    balancer endpoint route handler middleware plugin extension adapter driver client server
    browser mobile desktop screen view widget button form input label layout theme colour font
    accessibility locale language translation currency invoice payment refund charge ledger
    balance statement tax discount coupon price plan tier usage meter billing catalogue product
    order cart checkout shipment delivery address warehouse inventory stock supplier vendor
    must should shall may never always only each every within after before during until unless
    when while fast slow safe secure stable robust simple clear complete consistent correct
"""
VOCABULARY = tuple(_VOCABULARY_TEXT.split())
_WEIGHTS = tuple(1.0 / (rank + 10) for rank in range(len(VOCABULARY)))
"""A gentle Zipf-like skew: some words are common, none drowns the rest."""
_EPOCH = dt.date(2024, 1, 1)


def _object_id(layer: Layer, index: int) -> str:
    return f"{layer.prefix}-{index:05d}"


def _morphism_id(layer: Layer, index: int) -> str:
    return f"{layer.prefix}-m{index:05d}"


def _structure(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """(source, target) index pairs: every object touched once, then random; even → odd only."""
    evens, odds = range(0, n, 2), range(1, n, 2)
    edges = [(i, rng.choice(odds)) if i % 2 == 0 else (rng.choice(evens), i) for i in range(n)]
    edges += [(rng.choice(evens), rng.choice(odds)) for _ in range((MORPHISMS_PER_OBJECT - 1) * n)]
    return edges


def _extra_edges(rng: random.Random, n: int, extra: range) -> list[tuple[int, int]]:
    """Edges for the extra objects of the last layer, keeping the even → odd orientation."""
    evens, odds = range(0, n, 2), range(1, n, 2)
    return [
        (i, rng.choice(odds)) if i % 2 == 0 else (rng.choice(evens), i)
        for i in extra
        for _ in range(MORPHISMS_PER_OBJECT)
    ]


def _words(rng: random.Random, count: int) -> list[str]:
    return rng.choices(VOCABULARY, weights=_WEIGHTS, k=count)


def _sentences(rng: random.Random, count: int) -> str:
    words = _words(rng, count)
    out, i = [], 0
    while i < len(words):
        size = rng.randint(8, 16)
        chunk = words[i : i + size]
        out.append(" ".join(chunk).capitalize() + ".")
        i += size
    return " ".join(out)


@dataclass(frozen=True)
class _Doc:
    id: str
    title: str
    domain: str
    path: str
    author: str
    tags: tuple[str, ...]
    created: dt.date


def _document(rng: random.Random, doc: _Doc, neighbours: list[str]) -> str:
    refs = " ".join(f"@{n}" for n in neighbours[:3])
    front = "\n".join(
        [
            "---",
            f"id: {doc.id}",
            f"title: {json.dumps(doc.title)}",
            f"domain: {doc.domain}",
            f"author: {doc.author}",
            f"tags: [{', '.join(doc.tags)}]",
            f"created: {doc.created.isoformat()}",
            "---",
        ]
    )
    body = [
        f"# {doc.title}",
        "",
        "## Context",
        "",
        _sentences(rng, WORDS_PER_DOCUMENT // 3),
        "",
        "## Details",
        "",
        _sentences(rng, WORDS_PER_DOCUMENT // 3),
        "",
        "## Notes",
        "",
        _sentences(rng, WORDS_PER_DOCUMENT - 2 * (WORDS_PER_DOCUMENT // 3)),
        "",
        f"Related: {refs}" if refs else "Related: none.",
        "",
    ]
    return front + "\n\n" + "\n".join(body)


def _layer_docs(rng: random.Random, layer: Layer, count: int) -> list[_Doc]:
    docs = []
    for i in range(count):
        ident = _object_id(layer, i)
        topic = " ".join(_words(rng, 3))
        docs.append(
            _Doc(
                id=ident,
                title=f"{layer.noun} {i:05d} {topic}",
                domain=layer.id,
                path=f"docs/{layer.id}/{ident}.md",
                author=rng.choice(AUTHORS),
                tags=tuple(sorted(rng.sample(TAGS, rng.randint(1, 3)))),
                created=_EPOCH + dt.timedelta(days=rng.randrange(730)),
            )
        )
    return docs


def _category_yaml(
    layer: Layer, docs: list[_Doc], edges: list[tuple[int, int]], out: list[str]
) -> None:
    out += [
        f"  - id: {layer.id}",
        f"    name: {layer.name}",
        f"    description: {json.dumps(f'Synthetic {layer.name.lower()} layer')}",
        f"    aliases: [{layer.prefix}]",
        "    objects:",
    ]
    for doc in docs:
        out.append(
            f"      - {{id: {doc.id}, title: {json.dumps(doc.title)}, domain: {doc.domain}, "
            f"path: {doc.path}, tags: [{', '.join(doc.tags)}], author: {doc.author}, "
            f"created: {doc.created.isoformat()}}}"
        )
    out.append("    morphisms:")
    for j, (s, t) in enumerate(edges):
        name = layer.relations[j % len(layer.relations)]
        out.append(
            f"      - {{id: {_morphism_id(layer, j)}, name: {name}, "
            f"source: {_object_id(layer, s)}, target: {_object_id(layer, t)}}}"
        )


def _functor_yaml(
    ident: str, name: str, source: Layer, target: Layer, n: int, m: int, out: list[str]
) -> None:
    out += [
        f"  - id: {ident}",
        f"    name: {json.dumps(name)}",
        f"    sourceCategory: {source.id}",
        f"    targetCategory: {target.id}",
        "    objectMapping:",
    ]
    out += [f"      {_object_id(source, i)}: {_object_id(target, i)}" for i in range(n)]
    out.append("    morphismMapping:")
    out += [f"      {_morphism_id(source, j)}: {_morphism_id(target, j)}" for j in range(m)]


def _prepare(out_dir: Path) -> None:
    """Create `out_dir`, clearing a previous generated project; refuse to touch anything else."""
    if out_dir.exists() and any(out_dir.iterdir()):
        if not (out_dir / MANIFEST).is_file():
            raise FileExistsError(
                f"{out_dir} is not empty and holds no {MANIFEST}: refusing to overwrite it. "
                "Pass an empty or new directory."
            )
        for name in (".catdoc", "docs"):
            shutil.rmtree(out_dir / name, ignore_errors=True)
    (out_dir / ".catdoc").mkdir(parents=True, exist_ok=True)


def generate(n_objects: int, out_dir: Path | str, *, seed: int = 0) -> Path:
    """Write a lawful project of `n_objects` objects (at least 8) into `out_dir`; return it.

    `out_dir` must be new, empty, or an earlier output of this function (which is replaced).
    Also writes `benchmark.json`: the counts and a pair of objects with paths between them.
    10,000 objects make a 5.6 MB `category.yaml` and 46 MB of documents in about 2 s.
    """
    if n_objects < 2 * len(LAYERS):
        raise ValueError(f"n_objects must be at least {2 * len(LAYERS)}, got {n_objects}")
    out = Path(out_dir)
    _prepare(out)
    rng = random.Random(seed)
    n = n_objects // len(LAYERS)
    sizes = [n] * (len(LAYERS) - 1) + [n_objects - n * (len(LAYERS) - 1)]
    edges = _structure(rng, n)
    last_edges = edges + _extra_edges(rng, n, range(n, sizes[-1]))
    lines = ["# Synthetic CatDoc benchmark project (benchmarks/generate.py).", "categories:"]
    docs_by_layer = []
    for layer, size in zip(LAYERS, sizes, strict=True):
        docs = _layer_docs(rng, layer, size)
        docs_by_layer.append(docs)
        _category_yaml(layer, docs, last_edges if layer is LAYERS[-1] else edges, lines)
    lines.append("functors:")
    pairs = list(itertools.pairwise(LAYERS))
    for source, target in pairs:
        name = f"{source.name} → {target.name}"
        _functor_yaml(
            f"{source.prefix}-to-{target.prefix}", name, source, target, n, len(edges), lines
        )
    first, second = pairs[0]
    v1, v2 = f"{first.prefix}-to-{second.prefix}", f"{first.prefix}-to-{second.prefix}-v2"
    _functor_yaml(v2, f"{first.name} → {second.name} (v2)", first, second, n, len(edges), lines)
    lines += [
        "naturalTransformations:",
        f"  - id: {v1}-upgrade",
        f"    name: {json.dumps(f'{v1} ⇒ {v2}')}",
        f"    sourceFunctor: {v1}",
        f"    targetFunctor: {v2}",
        "    components:",
    ]
    lines += [f"      {_object_id(first, i)}: []" for i in range(n)]
    model = out / ".catdoc" / "category.yaml"
    model.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / ".catdoc" / "config.yaml").write_text(
        f"name: benchmark-{n_objects}\nversion: 0.1.0\n", encoding="utf-8"
    )
    _write_documents(rng, out, docs_by_layer, last_edges)
    target = edges[0][1]
    manifest = {
        "objects": n_objects,
        "morphisms": len(edges) * (len(LAYERS) - 1) + len(last_edges),
        "categories": len(LAYERS),
        "functors": len(pairs) + 1,
        "naturalTransformations": 1,
        "seed": seed,
        "trace": [_object_id(LAYERS[0], edges[0][0]), _object_id(LAYERS[-1], target)],
        "modelBytes": model.stat().st_size,
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return out


def _write_documents(
    rng: random.Random,
    out: Path,
    docs_by_layer: list[list[_Doc]],
    last_edges: list[tuple[int, int]],
) -> None:
    for layer, docs in zip(LAYERS, docs_by_layer, strict=True):
        neighbours: dict[int, list[str]] = {}
        for s, t in last_edges:
            if s < len(docs) and t < len(docs):
                neighbours.setdefault(s, []).append(_object_id(layer, t))
        folder = out / "docs" / layer.id
        folder.mkdir(parents=True, exist_ok=True)
        for i, doc in enumerate(docs):
            text = _document(rng, doc, neighbours.get(i, []))
            (out / doc.path).write_text(text, encoding="utf-8")


def load_manifest(project_dir: Path | str) -> dict[str, object]:
    """The `benchmark.json` a generated project carries (counts, trace pair, seed)."""
    return json.loads((Path(project_dir) / MANIFEST).read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n_objects", type=int, help="number of objects in total (≥ 8)")
    parser.add_argument("out", type=Path, help="directory to write (new, empty, or generated)")
    parser.add_argument("--seed", type=int, default=0, help="RNG seed (default 0)")
    args = parser.parse_args(argv)
    try:
        root = generate(args.n_objects, args.out, seed=args.seed)
    except (ValueError, OSError) as exc:
        parser.error(str(exc))
    info = load_manifest(root)
    print(
        f"wrote {root}: {info['objects']} objects, {info['morphisms']} morphisms, "
        f"{info['functors']} functors, {info['modelBytes'] / 1e6:.1f} MB model"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
