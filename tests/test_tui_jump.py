"""Fuzzy jump to any object by id or title: the `j` key and the command palette."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.command import CommandList, CommandPalette
from textual.content import Content
from textual.pilot import Pilot
from tui_project import copy_example, make_big_project

from catdoc.service import CatDoc
from catdoc.tui import CatDocApp
from catdoc.tui.jump import MAX_HITS, JumpProvider, Target, candidates, targets
from catdoc.tui.refs import Ref
from catdoc.tui.widgets.navigator import Navigator

SIZE = (80, 24)
anyio = pytest.mark.anyio


def make_app(root: Path) -> CatDocApp:
    return CatDocApp(CatDoc(root), watch_interval=None)


def pool(*texts: str) -> list[Target]:
    return [
        Target(Ref("object", t.split()[0]), t, t.casefold(), "object", frozenset(t.casefold()))
        for t in texts
    ]


async def hits(pilot: Pilot[None], query: str) -> list[str]:
    """Type `query` into the open palette and return the prompts it lists."""
    palette = pilot.app.screen
    assert isinstance(palette, CommandPalette)
    await pilot.press(*query)
    listed = palette.query_one(CommandList)
    for _ in range(100):  # the palette searches in a task: wait for its answer
        await pilot.pause(0.02)
        if listed.option_count:
            break
    return [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]


def test_candidates_rank_prefix_then_substring_then_letters_in_order() -> None:
    found = candidates(pool("cart-api  Cart API", "req-cart  Cart", "checkout  Checkout"), "cart")
    assert [t.ref.id for t in found] == ["cart-api", "req-cart"]
    found = candidates(pool("req-checkout  Checkout", "r-cut  Cut", "other  Other"), "rcout")
    assert [t.ref.id for t in found] == ["req-checkout"]
    assert candidates(pool("a  A"), "   ") == []


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text("abcxyz-", min_size=1, max_size=12), min_size=1, max_size=40),
    st.text("abcx", min_size=1, max_size=4),
    st.integers(1, 10),
)
def test_candidates_hold_the_query_letters_in_order_and_are_capped(
    ids: list[str], query: str, limit: int
) -> None:
    found = candidates(pool(*ids), query, limit)
    assert len(found) <= limit
    for target in found:
        rest = iter(target.folded)
        assert all(letter in rest for letter in query)
    if len(found) < limit:  # nothing that matches was left out
        letters = {t.text for t in found}
        for text in ids:
            rest = iter(text.casefold())
            if all(letter in rest for letter in query):
                assert text in letters


def test_targets_list_every_object_once_per_reload(tmp_path: Path) -> None:
    service = CatDoc(make_big_project(tmp_path / "big", 2_000))
    listed = targets(service)
    assert sum(t.ref.kind == "object" for t in listed) == 2_000
    assert targets(service) is listed  # memoised until the files change
    assert len(candidates(listed, "o1")) == 300  # capped before the fuzzy matcher scores


@anyio
async def test_j_jumps_to_an_object_by_title(tmp_path: Path) -> None:
    app = make_app(copy_example("traceability", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("j")
        assert isinstance(app.screen, CommandPalette)
        prompts = await hits(pilot, "shoping cart")  # a typo still finds "Shopping cart"
        assert prompts and prompts[0].startswith("req-cart  Shopping cart")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.browser
        assert app.browser.current == Ref("object", "req-cart")
        node = app.browser.query_one(Navigator).cursor_node
        assert node is not None and node.data is not None
        assert node.data.ref == Ref("object", "req-cart")


@anyio
async def test_the_command_palette_lists_objects_too_and_caps_the_hits(tmp_path: Path) -> None:
    app = make_app(make_big_project(tmp_path / "big", 2_000))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        prompts = await hits(pilot, "o1999")
        assert prompts[0].startswith("o1999")
        await pilot.press("escape")
        await pilot.press("j")
        prompts = await hits(pilot, "o1")
        assert len(prompts) == MAX_HITS  # of 1,111 objects whose id holds "o1"
        assert all("o" in p and "1" in p for p in prompts)


@anyio
async def test_no_project_no_targets(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    model = root / ".catdoc" / "category.yaml"
    model.write_text("categories: [", "utf-8")
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        provider = JumpProvider(app.screen)
        await provider.startup()
        assert [hit async for hit in provider.search("cart")] == []


@anyio
async def test_titles_with_brackets_show_as_they_are_and_are_found(tmp_path: Path) -> None:
    root = copy_example("traceability", tmp_path)
    model = root / ".catdoc" / "category.yaml"
    text = model.read_text("utf-8")
    title = "Card [PCI] / a[i] [/] [/bold] [link=x]L"
    text = text.replace("title: Checkout\n", f"title: '{title}'\n", 1)
    text = text.replace("name: Requirements → Specifications", "name: 'Specify [b]x[/]'", 1)
    model.write_text(text, "utf-8")
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("j")
        prompts = await hits(pilot, "card pci")
        assert prompts[0] == f"req-checkout  {title}\nobject in Requirements"
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        prompt = palette.query_one(CommandList).get_option_at_index(0).prompt
        assert isinstance(prompt, Content)
        marked = {span.start for span in prompt.spans if span.end - span.start == 1}
        assert "".join(prompt.plain[i] for i in sorted(marked)) == "CardPCI"  # where they are
        await pilot.press("enter")
        await pilot.pause()
        assert app.browser.current == Ref("object", "req-checkout")
        await pilot.press("ctrl+p")
        prompts = await hits(pilot, "functor: specify")
        assert prompts[0].startswith("Functor: Specify [b]x[/]\n")
