"""The TUI's object view marks the links that need a review, with the reason, and drops the mark
once the link is reviewed."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList
from tui_project import copy_example

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.refs import Ref

pytestmark = pytest.mark.anyio
SIZE = (120, 30)


def link_labels(app: CatDocApp) -> list[str]:
    options = app.screen.query_one("#doc-links", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_the_object_view_marks_suspect_links(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    svc = CatDoc(root)
    svc.review(all=True)
    cart = root / "docs" / "requirements" / "cart.md"
    cart.write_text(cart.read_text(encoding="utf-8") + "\nSaved carts.\n", encoding="utf-8")
    app = CatDocApp(svc)
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-checkout"))
        await pilot.pause()
        labels = link_labels(app)
        marked = [label for label in labels if "⚠ suspect" in label]
        assert marked and all("req-cart" in label for label in marked)
        assert "req-cart changed (target end)" in marked[0]
        assert any("req-payment" in label and "⚠" not in label for label in labels)
        svc.review(["req-cart"])
        app.open(Ref("object", "req-cart"))
        await pilot.pause()
        app.open(Ref("object", "req-checkout"))
        await pilot.pause()
        assert not [label for label in link_labels(app) if "⚠ suspect" in label]


async def test_no_marks_while_reviews_are_off(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    app = CatDocApp(CatDoc(root))
    async with app.run_test(size=SIZE) as pilot:
        app.open(Ref("object", "req-checkout"))
        await pilot.pause()
        assert link_labels(app) and not [x for x in link_labels(app) if "⚠" in x]
