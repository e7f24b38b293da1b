"""Functor mappings the documents already imply.

A document that refers to a document of another category (a link, an @mention, a `:doc:` or
`:pep:` role, or an id in its object's `metadata.related`) is evidence that the two correspond,
whichever of the two does the citing: a requirement that links its design, and a design or a test
that names the requirement it answers ("implements @req-auth", the usual way in traceability),
say the same thing. For a functor F: A → B, an object a of A that F does not map yet and that a
reference joins to b in B (a citing b, or b citing a) suggests F(a) = b; the images F's morphism
mapping forces still bound what is proposed, so no suggestion breaks the functor. For two
categories joined by such references but by no functor either way, one functor is suggested with
the mapping it would have, from the category the references mostly come from (ties: the one
declared first). Nothing here writes: each suggestion carries the `catdoc` command that applies
it.
"""

from __future__ import annotations

import posixpath
import shlex
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import partial

from pydantic import Field

from catdoc import results as r
from catdoc.documents import Kind, read_object_text, sniff_kind
from catdoc.errors import CatDocError, not_found
from catdoc.importer.docs_tools import DocsTools, Reading
from catdoc.importer.names import _unique, slugify
from catdoc.includes import Included, IncludeReader, fragments
from catdoc.model import DocObject, Functor, as_path
from catdoc.project import Project
from catdoc.references import Known, Resolver, common_folder, sole

MAX_EVIDENCE = 5
"""Places shown per suggestion (`references` counts them all)."""
MAX_CANDIDATES = 3
"""Images proposed per unmapped object, best first."""


class MappingSuggestion(r.Result):
    """F(source) = target, because the documents of `source` and `target` refer to each other
    (either one citing the other)."""

    functor: str
    source: str
    target: str
    references: int = Field(
        description="How many references join source and target: source's document citing "
        "target, and target's citing source."
    )
    evidence: list[str] = Field(
        description=f"Where they are (path:line, or the object's YAML for metadata.related); "
        f"the source's own references first; at most {MAX_EVIDENCE}."
    )
    command: str = Field(description="The command that sets this mapping entry.")


class FunctorSuggestion(r.Result):
    """A functor between two categories whose documents refer across (no functor joins them
    either way yet), with its mapping; it goes from the category most references come from."""

    id: str = Field(description="A free functor id (change it at will).")
    source_category: str
    target_category: str
    references: int = Field(description="References between the two categories, either way.")
    object_mapping: dict[str, str] = Field(
        description="The best-supported image of each source object a reference joins to the "
        "target category (the others still need one before the functor validates)."
    )
    commands: list[str] = Field(description="Create the functor, then set each mapping entry.")


class Suggestions(r.Result):
    mappings: list[MappingSuggestion] = Field(default_factory=list)
    functors: list[FunctorSuggestion] = Field(default_factory=list)


@dataclass
class _Evidence:
    count: int = 0
    places: list[str] = field(default_factory=list)

    def add(self, place: str) -> None:
        self.count += 1
        if len(self.places) < MAX_EVIDENCE:
            self.places.append(place)

    def merge(self, other: _Evidence) -> None:
        self.count += other.count
        self.places += other.places[: MAX_EVIDENCE - len(self.places)]


Pairs = dict[str, dict[str, _Evidence]]
"""source object → target object in another category → the references between them."""


def _either_way(pairs: Pairs) -> Pairs:
    """object → object of another category → every reference between the two, whichever
    document cites the other (its own references first)."""
    joined: Pairs = defaultdict(dict)
    for source, targets in pairs.items():
        for target, ev in targets.items():
            joined[source].setdefault(target, _Evidence()).merge(ev)
    for source, targets in pairs.items():
        for target, ev in targets.items():
            joined[target].setdefault(source, _Evidence()).merge(ev)
    return joined


def suggest_mappings(project: Project, functor: str | None = None) -> Suggestions:
    """Mapping entries for every functor (or only `functor`) and, without `functor`, the
    functors the documents imply; see module doc."""
    functors = project.functors
    if functor is not None:
        if functor not in project.functor_by_id:
            raise not_found(
                "Functor",
                functor,
                project.functor_by_id,
                "See the ids with `catdoc list functors` (MCP: catdoc_list_functors).",
            )
        functors = [project.functor_by_id[functor]]
    pairs = _cross_references(project)
    joined = _either_way(pairs)
    out = Suggestions()
    for fun in functors:
        targets = {o.id for o in _objects_of(project, fun.target_category)}
        forced = _forced_images(project, fun)
        for obj in _objects_of(project, fun.source_category):
            if obj.id in fun.object_mapping:
                continue
            allowed = forced.get(obj.id, targets)
            ranked = _ranked({t: e for t, e in joined.get(obj.id, {}).items() if t in allowed})
            for target, ev in ranked[:MAX_CANDIDATES]:
                out.mappings.append(
                    MappingSuggestion(
                        functor=fun.id,
                        source=obj.id,
                        target=target,
                        references=ev.count,
                        evidence=ev.places,
                        command=_command("map", fun.id, obj.id, target),
                    )
                )
    out.mappings.sort(key=lambda s: (-s.references, s.functor, s.source, s.target))
    if functor is None:
        out.functors = _new_functors(project, pairs, joined)
    return out


def _forced_images(project: Project, fun: Functor) -> dict[str, set[str]]:
    """Source object → the one image its mapped morphisms allow (the end of their image path),
    or no image when they disagree: a suggestion must not break a mapping already made."""
    ends: dict[str, set[str]] = {}
    for generator, spec in fun.morphism_mapping.items():
        mor, steps = project.morphism_by_id.get(generator), as_path(spec)
        first, last = (
            (project.morphism_by_id.get(steps[0]), project.morphism_by_id.get(steps[-1]))
            if steps
            else (None, None)
        )
        if mor is None or first is None or last is None:
            continue  # an identity, or a broken image: validate reports it
        ends.setdefault(mor.source, set()).add(first.source)
        ends.setdefault(mor.target, set()).add(last.target)
    return {obj: images if len(images) == 1 else set() for obj, images in ends.items()}


def _cross_references(project: Project) -> Pairs:
    """Every reference from a document to an object of another category, with its place;
    labels resolve as an import resolves them (a fragment's labels are its includer's)."""
    objects = list(project.object_by_id.values())
    texts: dict[str, str] = {}
    for obj in objects:
        if obj.path:
            try:
                texts[obj.id] = read_object_text(project.root, obj) or ""
            except CatDocError:
                continue  # the validator reports unreadable documents
    kinds = {
        o.id: sniff_kind(o.path, texts.get(o.id) or "") if o.path else "markdown"
        for o in project.object_by_id.values()
    }
    paths = [o.path for o in project.object_by_id.values() if o.path]
    common = common_folder(paths)
    settings = project.config.import_
    rels = {o.id: posixpath.normpath(o.path) for o in project.object_by_id.values() if o.path}
    documents = {i: text for i, text in texts.items() if i in rels and text}
    reader = IncludeReader(
        project.root,
        settings.docs_root if settings.docs_root is not None else common,
        {rels[i]: text for i, text in documents.items()},
    )
    tools = DocsTools.at(project.root)
    readings = {i: tools.reading(rels[i], kinds[i]) for i in documents}
    included = {
        rels[i]: reader.of(rels[i], text, kinds[i], default_role=readings[i].default_role)
        for i, text in documents.items()
    }
    parts = fragments(included, partial(reader.builds, sphinx=tools.sphinx.builds))
    known = [_known(o, rels, texts, kinds, included, parts, readings) for o in objects]
    resolver = Resolver.build(known, settings, common, reader.antora)
    home = project.category_of_object
    pairs: Pairs = defaultdict(dict)
    for obj in objects:
        if obj.id in documents:
            rel, reading = rels[obj.id], readings[obj.id]
            brought = included[rel].references
            own = reading.references(texts[obj.id], fields=resolver.fields)
            for ref in resolver.expanded(rel, own + brought):
                if ref.kind == "morphism" or not reading.counts(resolver, ref):
                    continue
                target = sole(reading.matches(resolver, ref))
                if target is not None and home.get(target) not in (None, home.get(obj.id)):
                    pairs[obj.id].setdefault(target, _Evidence()).add(f"{obj.path}:{ref.line}")
        related = obj.metadata.get("related")
        if isinstance(related, list):
            for target in related:
                if not isinstance(target, str) or home.get(target) in (None, home.get(obj.id)):
                    continue
                if target not in pairs[obj.id]:
                    pairs[obj.id][target] = _Evidence()
                    pairs[obj.id][target].add(f"metadata.related ({project.locate(obj)})")
    return pairs


def _known(
    obj: DocObject,
    rels: dict[str, str],
    texts: dict[str, str],
    kinds: dict[str, Kind],
    included: dict[str, Included],
    parts: Collection[str],
    readings: dict[str, Reading],
) -> Known:
    """What the resolver knows of an object: its document's labels (a fragment's are its
    includer's), those of the files it includes, and a mystmd page's own targets."""
    rel = rels.get(obj.id)
    if rel is None or obj.id not in readings:
        return Known(obj.id, obj.path, obj.title, kind=kinds[obj.id])
    text, kind, brought = texts[obj.id], kinds[obj.id], included[rel]
    fragment = rel in parts
    targets = readings[obj.id].page_targets(text, fragment=fragment)
    return Known(
        obj.id,
        obj.path,
        obj.title,
        None if fragment else text,
        kind,
        tuple(brought.labels),
        included_files=tuple(brought.files),
        tool_labels=targets[0],
        implicit_labels=targets[1],
        scope=targets[2],
    )


def _new_functors(project: Project, pairs: Pairs, joined: Pairs) -> list[FunctorSuggestion]:
    """One functor for each pair of categories with references across but no functor either
    way (a functor already there takes their references as evidence for its mapping): from the
    category most of the references come from (ties: the one declared first), each of its
    objects mapped to its best-supported image, counting references either way."""
    home = project.category_of_object
    order = {cat.id: n for n, cat in enumerate(project.categories)}
    have = {(f.source_category, f.target_category) for f in project.functors}
    have |= {(b, a) for a, b in have}
    citing: dict[tuple[str, str], int] = defaultdict(int)
    for source, targets in pairs.items():
        for target, ev in targets.items():
            if (home[source], home[target]) not in have:
                citing[home[source], home[target]] += ev.count
    chosen = [
        (a, b) for a, b in citing if (citing[a, b], -order[a]) > (citing.get((b, a), 0), -order[b])
    ]
    across: dict[tuple[str, str], dict[str, dict[str, _Evidence]]] = defaultdict(dict)
    for source, targets in joined.items():
        for target, ev in targets.items():
            across[home[source], home[target]].setdefault(source, {})[target] = ev
    used = set(project.functor_by_id)
    out: list[FunctorSuggestion] = []
    for cat_a, cat_b in sorted(chosen):
        by_source = across[cat_a, cat_b]
        ident = _unique(slugify(f"{cat_a}-to-{cat_b}") or "functor", used)
        mapping = {a: _ranked(targets)[0][0] for a, targets in sorted(by_source.items())}
        total = citing[cat_a, cat_b] + citing.get((cat_b, cat_a), 0)
        commands = [_command("add", "functor", ident, "--from", cat_a, "--to", cat_b)]
        commands += [_command("map", ident, a, b) for a, b in mapping.items()]
        out.append(
            FunctorSuggestion(
                id=ident,
                source_category=cat_a,
                target_category=cat_b,
                references=total,
                object_mapping=mapping,
                commands=commands,
            )
        )
    out.sort(key=lambda s: (-s.references, s.id))
    return out


def _ranked(targets: dict[str, _Evidence]) -> list[tuple[str, _Evidence]]:
    return sorted(targets.items(), key=lambda item: (-item[1].count, item[0]))


def _objects_of(project: Project, category_id: str) -> list[DocObject]:
    cat = project.category_by_id.get(category_id)
    return cat.objects if cat is not None else []


def _command(*words: str) -> str:
    return " ".join(["catdoc", *(shlex.quote(w) for w in words)])


__all__ = ["FunctorSuggestion", "MappingSuggestion", "Suggestions", "suggest_mappings"]
