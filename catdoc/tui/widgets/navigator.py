"""The navigator: categories as a tree along their hierarchy, then functors and transformations.

Nodes load their children only when first expanded, and a category's objects and morphisms come
in pages of `PAGE` named by their first and last id, so a 10,000-object category costs a few
dozen nodes until a page is opened. Nodes of entities with validation errors, and the branches
holding them, are marked ✗ once the validation (run off the UI thread) is in; labels too long
for the pane end in an ellipsis.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from rich.style import Style
from rich.text import Text
from textual import work
from textual.widgets import Tree
from textual.widgets.tree import TreeNode
from textual.worker import get_current_worker

from catdoc import results as r
from catdoc.errors import CatDocError
from catdoc.service import CatDoc
from catdoc.tui.annotations import ELLIPSIS, ErrorMarks, error_marks
from catdoc.tui.refs import Ref
from catdoc.visible import visible

PAGE = 200
"""Objects or morphisms loaded per tree node; larger groups are split into page nodes."""

NavKind = Literal[
    "categories",
    "functors",
    "naturalTransformations",
    "category",
    "objects",
    "morphisms",
    "objects-page",
    "morphisms-page",
    "object",
    "morphism",
    "functor",
    "naturalTransformation",
]
_ENTITIES = ("category", "object", "morphism", "functor", "naturalTransformation")


@dataclass(frozen=True, slots=True)
class NavData:
    """What a tree node stands for; `key` identifies it across reloads."""

    kind: NavKind
    id: str = ""
    start: int = 0
    total: int = 0

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.kind, self.id, self.start)

    @property
    def ref(self) -> Ref | None:
        return Ref(self.kind, self.id) if self.kind in _ENTITIES else None  # type: ignore[arg-type]


Node = TreeNode[NavData]


class Navigator(Tree[NavData]):
    """A lazily loaded tree of the project; `reveal` opens the branches down to one entity."""

    def __init__(self, service: CatDoc, *, id: str | None = None) -> None:
        super().__init__("project", id=id)
        self.service = service
        self.show_root = False
        self.guide_depth = 2
        self._loaded: set[int] = set()
        self._categories: dict[str, r.CategorySummary] = {}
        self._functors: list[r.FunctorSummary] = []
        self._nats: list[r.NaturalTransformationSummary] = []
        self.marks = ErrorMarks()
        self._marked: dict[tuple[str, str, int], bool] = {}

    # ------------------------------------------------------------------ building
    def load(self) -> None:
        """(Re)build from the current project, keeping open branches and the cursor if they
        still exist."""
        first = not self.root.children
        expanded = {n.data.key for n in self._walk() if n.data and n.is_expanded}
        cursor = self.cursor_node.data.key if self.cursor_node and self.cursor_node.data else None
        self._categories = {c.id: c for c in self.service.list_categories()}
        self._functors = self.service.list_functors()
        self._nats = self.service.list_natural_transformations()
        self.clear()
        self._loaded.clear()
        sections: list[tuple[str, NavKind, int]] = [
            ("Categories", "categories", len(self._categories)),
            ("Functors", "functors", len(self._functors)),
            ("Natural transformations", "naturalTransformations", len(self._nats)),
        ]
        for title, kind, count in sections:
            label = Text.assemble((title, "bold"), (f" {count}", "dim"))
            self.root.add(label, NavData(kind, total=count), allow_expand=count > 0)
        if first:
            expanded = {(kind, "", 0) for _, kind, count in sections if count}
        self._restore(self.root, expanded)
        target = self._find(cursor) if cursor else None
        _ = self.last_line  # building the line index gives every visible node its line number
        self.move_cursor(target or self.root.children[0])
        self._find_errors()

    # ------------------------------------------------------------------ error marks
    @work(thread=True, exclusive=True, group="navigator-marks")
    def _find_errors(self) -> None:
        """Validate off the UI thread (seconds at 100,000 objects), then mark the nodes."""
        try:
            marks = error_marks(self.service)
        except CatDocError:  # the files broke since the load; the app shows why
            marks = ErrorMarks()
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._set_marks, marks)

    def _set_marks(self, marks: ErrorMarks) -> None:
        self.marks = marks
        self._marked.clear()
        for node in self._walk():
            node.refresh()

    def has_errors(self, data: NavData) -> bool:
        """Whether the node's entity, or something under the node, has a validation error."""
        marks = self.marks
        if not marks.ids:
            return False
        if data.key not in self._marked:
            if data.kind == "category":
                found = data.id in marks.ids or data.id in marks.categories
            elif data.kind in _ENTITIES:
                found = data.id in marks.ids
            elif data.kind in ("objects", "morphisms"):
                found = marks.in_range(data.id, data.kind, 0, data.total)
            elif data.kind in ("objects-page", "morphisms-page"):
                group = data.kind.removesuffix("-page")
                found = marks.in_range(data.id, group, data.start, data.start + data.total)
            else:
                found = False
            self._marked[data.key] = found
        return self._marked[data.key]

    def render_label(self, node: Node, base_style: Style, style: Style) -> Text:
        """The label, ✗ first when the node has errors, cut with an ellipsis to fit."""
        label = super().render_label(node, base_style, style)
        if node.data is not None and self.has_errors(node.data):
            label = Text.assemble(("✗ ", "bold red"), label)
        depth, parent = 0, node.parent
        while parent is not None and parent is not self.root:
            depth, parent = depth + 1, parent.parent
        room = self.scrollable_content_region.width - depth * self.guide_depth
        if room > 1 and label.cell_len > room:
            label.truncate(room - 1)
            label.append(ELLIPSIS, "dim")
        return label

    def _restore(self, node: Node, expanded: set[tuple[str, str, int]]) -> None:
        for child in node.children:
            if child.data and child.data.key in expanded:
                self.ensure_loaded(child)
                child.expand()
                self._restore(child, expanded)

    def _walk(self, node: Node | None = None) -> Iterator[Node]:
        for child in (node or self.root).children:
            yield child
            yield from self._walk(child)

    def _find(self, key: tuple[str, str, int]) -> Node | None:
        return next((n for n in self._walk() if n.data and n.data.key == key), None)

    def ensure_loaded(self, node: Node) -> None:
        """Add the node's children the first time it is needed."""
        data = node.data
        if data is None or node.id in self._loaded:
            return
        self._loaded.add(node.id)
        if data.kind == "categories":
            for cid in self._top_categories():
                self._add_category(node, cid)
        elif data.kind == "category":
            summary = self._categories[data.id]
            for child in summary.children:
                if child in self._categories:
                    self._add_category(node, child)
            if summary.object_count:
                label = Text.assemble("Objects", (f" {summary.object_count}", "dim"))
                node.add(label, NavData("objects", data.id, total=summary.object_count))
            if summary.morphism_count:
                label = Text.assemble("Morphisms", (f" {summary.morphism_count}", "dim"))
                node.add(label, NavData("morphisms", data.id, total=summary.morphism_count))
        elif data.kind in ("objects", "morphisms"):
            if data.total <= PAGE:
                self._add_page(node, data.kind, data.id, 0)
            else:
                page_kind: NavKind = "objects-page" if data.kind == "objects" else "morphisms-page"
                ids = self._member_ids(data.id, data.kind)
                for start in range(0, data.total, PAGE):
                    end = min(start + PAGE, data.total, len(ids))
                    label = Text.assemble(
                        visible(ids[start]) if start < end else "",
                        (" … ", "dim"),
                        visible(ids[end - 1]) if start < end else "",
                        (f" {end - start}", "dim"),
                    )
                    node.add(label, NavData(page_kind, data.id, start, end - start))
        elif data.kind in ("objects-page", "morphisms-page"):
            self._add_page(node, data.kind.removesuffix("-page"), data.id, data.start)
        elif data.kind == "functors":
            for fun in self._functors:
                label = Text.assemble(
                    visible(fun.name),
                    (visible(f"  {fun.source_category} → {fun.target_category}"), "dim"),
                )
                node.add_leaf(label, NavData("functor", fun.id))
        elif data.kind == "naturalTransformations":
            for nat in self._nats:
                label = Text.assemble(
                    visible(nat.name),
                    (visible(f"  {nat.source_functor} ⇒ {nat.target_functor}"), "dim"),
                )
                node.add_leaf(label, NavData("naturalTransformation", nat.id))

    def _top_categories(self) -> list[str]:
        """Roots of the hierarchy, then any category a parent cycle keeps out of reach."""
        cats = self._categories
        roots = [c.id for c in cats.values() if not c.parent or c.parent not in cats]
        reached, stack = set(), list(roots)
        while stack:
            cid = stack.pop()
            if cid not in reached:
                reached.add(cid)
                stack.extend(cats[cid].children if cid in cats else [])
        return roots + [cid for cid in cats if cid not in reached]

    def _add_category(self, parent: Node, cid: str) -> None:
        summary = self._categories[cid]
        label = Text(visible(summary.name), "bold")
        has_children = bool(summary.children or summary.object_count or summary.morphism_count)
        parent.add(label, NavData("category", cid), allow_expand=has_children)

    def _member_ids(self, category: str, group: str) -> list[str]:
        """The ids of a category's objects or morphisms, in order (to name the pages)."""
        cat = self.service.category(category)
        return [m.id for m in (cat.objects if group == "objects" else cat.morphisms)]

    def _add_page(self, node: Node, kind: str, category: str, offset: int) -> None:
        if kind == "objects":
            objects = self.service.list_objects(category=category, limit=PAGE, offset=offset)
            for obj in objects.items:
                label = Text(visible(obj.title))
                if obj.title != obj.id:
                    label.append(f"  {visible(obj.id)}", "dim")
                node.add_leaf(label, NavData("object", obj.id))
        else:
            morphisms = self.service.list_morphisms(category=category, limit=PAGE, offset=offset)
            for mor in morphisms.items:
                label = Text.assemble(
                    (visible(mor.name), "italic"),
                    (visible(f"  {mor.source} → {mor.target}"), "dim"),
                )
                node.add_leaf(label, NavData("morphism", mor.id))

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NavData]) -> None:
        try:
            self.ensure_loaded(event.node)
        except CatDocError as error:  # the files broke since the last check; the app shows why
            self._loaded.discard(event.node.id)
            self.notify(visible(error.message), severity="error", markup=False)

    # ------------------------------------------------------------------ revealing
    def reveal(self, ref: Ref) -> bool:
        """Open the branches down to `ref` and put the cursor on it; False if it is not here."""
        path = self._path_to(ref)
        if path is None:
            return False
        node = self.root
        for key in path:
            self.ensure_loaded(node)
            if node is not self.root:
                node.expand()
            found = next((c for c in node.children if c.data and c.data.key == key), None)
            if found is None:
                return False
            node = found
        _ = self.last_line  # building the line index gives every visible node its line number
        self.move_cursor(node)
        self.scroll_to_node(node, animate=False)
        return True

    def _path_to(self, ref: Ref) -> list[tuple[str, str, int]] | None:
        if ref.kind == "functor":
            return [("functors", "", 0), ("functor", ref.id, 0)]
        if ref.kind == "naturalTransformation":
            return [("naturalTransformations", "", 0), ("naturalTransformation", ref.id, 0)]
        if ref.kind == "category":
            return self._category_path(ref.id)
        try:
            where = self.service.locate_entity(ref.id)
        except CatDocError:
            return None
        if where.kind != ref.kind or where.category is None or where.index is None:
            return None
        base = self._category_path(where.category)
        if base is None:
            return None
        group = "objects" if ref.kind == "object" else "morphisms"
        summary = self._categories[where.category]
        total = summary.object_count if ref.kind == "object" else summary.morphism_count
        path = [*base, (group, where.category, 0)]
        if total > PAGE:
            path.append((f"{group}-page", where.category, where.index // PAGE * PAGE))
        return [*path, (ref.kind, ref.id, 0)]

    def _category_path(self, cid: str) -> list[tuple[str, str, int]] | None:
        if cid not in self._categories:
            return None
        chain, seen, here = [], set(), cid
        top = set(self._top_categories())
        while here not in seen:
            seen.add(here)
            chain.append(("category", here, 0))
            if here in top:
                break
            parent = self._categories[here].parent
            if parent is None or parent not in self._categories:
                break
            here = parent
        return [("categories", "", 0), *reversed(chain)]
