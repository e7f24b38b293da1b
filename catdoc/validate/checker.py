"""What every check shares: the project, the findings made so far, and cached presentations."""

from __future__ import annotations

from collections.abc import Iterable

from catdoc.model import Category, Config, Entity
from catdoc.paths import Presentation
from catdoc.project import Project
from catdoc.validate.codes import CODES, Code, Severity
from catdoc.validate.report import Finding
from catdoc.yaml_lines import lines_of

PLACE_MAX_BYTES = 4 << 20
"""Model files up to this size have findings about one mapping entry placed at its line (a walk
of the file's YAML, 1.5 s of CPU for the 5.5 MB of 10,000 generated objects on a slow machine);
in larger ones they point at the entity's own line."""


class _Checker:
    """Makes findings (severity from `CODES`, location from the project) and collects them."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.config: Config = project.config
        self.findings: list[Finding] = []
        self.scoped: str | None = None
        self.reviews_off = False
        """Set by the review check when there is no `reviews.yaml` (SUSPECT_LINK is then off)."""
        self._presentations: dict[int, Presentation] = {}
        self.entries: list[tuple[Finding, Entity, tuple[str, str]]] = []
        """Findings about one entry of an entity's mapping ((mapping key, entry key)): placed
        at the entry's own line once the checks are done (`place_entries`)."""

    def finding(
        self,
        code: Code,
        message: str,
        ids: Iterable[str],
        entity: Entity | None = None,
        *,
        severity: Severity | None = None,
        category: str | None = None,
        functor: str | None = None,
        nat: str | None = None,
        location: str | None = None,
    ) -> Finding:
        where = (
            location if location is not None else (self.project.locate(entity) if entity else "")
        )
        return Finding(
            severity=severity or CODES[code].severity,
            code=code.value,
            message=message,
            ids=list(dict.fromkeys(ids)),
            location=where,
            category=category,
            functor=functor,
            natural_transformation=nat,
        )

    def add(
        self,
        code: Code,
        message: str,
        ids: Iterable[str],
        entity: Entity | None = None,
        **context: str | None,
    ) -> None:
        self.findings.append(self.finding(code, message, ids, entity, **context))  # type: ignore[arg-type]

    def place_entries(self) -> None:
        """Point each finding of `entries` at its entry's line: one walk of each file that
        holds such findings (a mapping of thousands of entries otherwise points at its head)."""
        by_file: dict[str, list[tuple[Finding, Entity, tuple[str, str]]]] = {}
        for finding, entity, entry in self.entries:
            if entity.origin:
                by_file.setdefault(entity.origin, []).append((finding, entity, entry))
        for origin, wanted in by_file.items():
            positions = _positions_in(self.project, origin)
            paths = [(*positions[id(entity)], *entry) for _, entity, entry in wanted]
            try:
                path = self.project.root / origin
                if path.stat().st_size > PLACE_MAX_BYTES:
                    continue  # the walk would cost more than the line is worth: head line
                text = path.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError):
                continue
            for (finding, _, _), line in zip(wanted, lines_of(text, paths), strict=True):
                finding.location = f"{origin}:{line}"

    def presentation(self, cat: Category) -> Presentation:
        key = id(cat)
        if key not in self._presentations:
            self._presentations[key] = Presentation.of(cat)
        return self._presentations[key]

    def where_object(self, obj: str) -> str:
        home = self.project.category_of_object.get(obj)
        return f" ({obj!r} is an object of category {home!r})" if home else ""


def _positions_in(project: Project, origin: str) -> dict[int, tuple[str, int]]:
    """Each functor and natural transformation of file `origin`, by `id()`: its place in the
    file's tree (top-level key, index), as `yaml_lines.lines_of` takes it."""
    out: dict[int, tuple[str, int]] = {}
    for key, entities in (
        ("functors", project.functors),
        ("naturalTransformations", project.natural_transformations),
    ):
        index = 0
        for entity in entities:
            if entity.origin == origin:
                out[id(entity)] = (key, index)
                index += 1
    return out
