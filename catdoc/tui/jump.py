"""Jump to any object (or category, functor, transformation) by id or title, fuzzily: a
command-palette provider, also behind its own key (`j`).

At 10,000 objects scoring every title with Textual's fuzzy matcher on each key press would lag,
so a cheap pass first keeps the candidates whose text holds the query's letters in order
(prefix and substring matches ranked first), and only the best `SCORED` of those are scored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher
from textual.markup import escape
from textual.system_commands import SystemCommandsProvider

from catdoc.errors import CatDocError
from catdoc.project import Project
from catdoc.service import CatDoc
from catdoc.tui.refs import Kind, Ref
from catdoc.visible import visible

if TYPE_CHECKING:
    from textual.app import App

    from catdoc.tui.app import CatDocApp

SCORED = 300
"""Candidates (after the cheap pass) scored by the fuzzy matcher."""
MAX_HITS = 40
"""Hits shown for one query."""
PLACEHOLDER = "Jump to an object: type part of its id or title…"


@dataclass(frozen=True, slots=True)
class Target:
    """Something to jump to, with the text the query is matched against."""

    ref: Ref
    text: str
    """`id  title` (just the id when the title is the id)."""
    folded: str
    help: str
    letters: frozenset[str] = frozenset()
    """The characters of `folded`: a query with any other cannot match."""


def targets(service: CatDoc) -> list[Target]:
    """Every object, category, functor and transformation (once per reload of the model)."""
    return service.derived("tui:jump-targets", _targets)


def _target(kind: Kind, ident: str, label: str, help_text: str) -> Target:
    text = visible(ident if label == ident else f"{ident}  {label}")
    folded = text.casefold()
    return Target(Ref(kind, ident), text, folded, visible(help_text), frozenset(folded))


def _targets(project: Project) -> list[Target]:
    out: list[Target] = []
    for cat in project.categories:
        out.append(_target("category", cat.id, cat.label, "category"))
        out += [_target("object", o.id, o.label, f"object in {cat.label}") for o in cat.objects]
    for fun in project.functors:
        where = f"functor {fun.source_category} → {fun.target_category}"
        out.append(_target("functor", fun.id, fun.label, where))
    for nat in project.natural_transformations:
        where = f"transformation {nat.source_functor} ⇒ {nat.target_functor}"
        out.append(_target("naturalTransformation", nat.id, nat.label, where))
    return out


def candidates(pool: list[Target], query: str, limit: int = SCORED) -> list[Target]:
    """The targets whose text holds the query's letters in order, best `limit` first: those
    starting with the query, then those containing it, then the rest; shorter texts first."""
    needle = "".join(query.casefold().split())
    if not needle:
        return []
    letters = frozenset(needle)
    # `a[^b]*b[^c]*c`: the letters in order, matched without backtracking
    spread = re.compile(
        re.escape(needle[0]) + "".join(f"[^{re.escape(c)}]*{re.escape(c)}" for c in needle[1:])
    )
    ranked: list[tuple[int, int, Target]] = []
    for target in pool:
        if not letters <= target.letters:
            continue
        folded = target.folded
        if needle in folded:
            rank = 0 if folded.startswith(needle) else 1
        elif spread.search(folded):
            rank = 2
        else:
            continue
        ranked.append((rank, len(folded), target))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [target for _, _, target in ranked[:limit]]


class JumpProvider(Provider):
    """Objects, categories, functors and transformations for the command palette."""

    async def startup(self) -> None:
        try:
            self._pool = targets(cast("CatDocApp", self.app).service)
        except CatDocError:  # the project does not load: nothing to jump to
            self._pool = []

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        app = cast("CatDocApp", self.app)
        scored: list[tuple[float, Target]] = []
        for rank, target in enumerate(candidates(self._pool, query)):
            score = matcher.match(target.text)
            if score > 0:
                # the cheap ranking leads; the fuzzy score orders within it
                scored.append((max(0.0, 1.0 - rank / (2 * SCORED)) * (0.5 + score / 2), target))
        scored.sort(key=lambda item: -item[0])
        for score, target in scored[:MAX_HITS]:
            yield Hit(
                score,
                highlight(matcher, target.text),
                partial(app.open, target.ref),
                text=target.text,
                help=escape(target.help),
            )


def highlight(matcher: Matcher, text: str) -> Content:
    """`text` as it is, its letters matching the query marked: `Matcher.highlight` reads its
    text as markup, so a title such as `Card payments [PCI]` would lose its brackets (or, with
    `[/]` in it, raise)."""
    content = Content(text)
    _, offsets = matcher.fuzzy_search.match(matcher.query, text)
    for offset in offsets:
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


class SystemCommands(SystemCommandsProvider):
    """Textual's app-wide commands, their names (functor and transformation names among them)
    shown as they are rather than read as markup."""

    async def discover(self) -> Hits:
        commands = sorted(self.app.get_system_commands(self.screen), key=lambda c: c.title)
        for name, help_text, callback, discover in commands:
            if discover:
                yield DiscoveryHit(Content(name), callback, text=name, help=escape(help_text))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback, *_ in self.app.get_system_commands(self.screen):
            if (score := matcher.match(name)) > 0:
                yield Hit(
                    score, highlight(matcher, name), callback, text=name, help=escape(help_text)
                )


def open_jump(app: App[object]) -> None:
    """The command palette with only the jump targets (the `j` key)."""
    if not CommandPalette.is_open(app):
        app.push_screen(CommandPalette(providers=[JumpProvider], placeholder=PLACEHOLDER))
