"""reST roles and inline literals as a reader of the rendered docs sees them (`catdoc.inline`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catdoc.inline import Inline, read_inline


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        (":ref:`Some title <target-label>`", "Some title"),
        (":ref:`properly formatted<commit-message>`", "properly formatted"),
        (":ref:`target-label`", "target-label"),
        (":doc:`path/to/doc`", "path/to/doc"),
        (":doc:`The guide </user/guide>`", "The guide"),
        (":pep:`8`", "PEP 8"),
        (":rfc:`2616`", "RFC 2616"),
        (":pep:`the style guide <8>`", "the style guide"),
        (":term:`ufunc <universal function>`", "ufunc"),
        (":abbr:`LIFO (last-in, first-out)`", "LIFO (last-in, first-out)"),
        (":math:`a < b > c`", "a < b > c"),  # no `title <target>` in a formula
        (":menuselection:`File --> Open`", "File ‣ Open"),
        (":guilabel:`&Cancel`", "Cancel"),
        (":ref:`a \\<b\\> c`", "a <b> c"),  # escaped: no title
    ],
)
def test_a_role_shows_its_title_or_target(written: str, shown: str) -> None:
    assert read_inline(f"See {written}, then.") == Inline(f"See {shown}, then.")


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        (":class:`~pkg.Mod`", "Mod"),
        (":func:`numpy.sum`", "numpy.sum"),
        (":py:meth:`~numpy.ndarray.sum`", "sum"),
        (":meth:`!no.link`", "no.link"),
        (":class:`.Relative`", "Relative"),
        (":c:func:`PyArray_New`", "PyArray_New"),
        (":cpp:class:`~ns::Type`", "Type"),
        (":class:`the array <numpy.ndarray>`", "the array"),
        (":samp:`print({name})`", "print(name)"),
        ("``x + 1``", "x + 1"),
        ("``:func:`kept```", ":func:`kept`"),  # a literal is as written inside
    ],
)
def test_code_roles_and_literals_are_marked_as_code(written: str, shown: str) -> None:
    inline = read_inline(f"Use {written} here.")
    assert inline.text == f"Use {shown} here."
    assert [inline.text[start:end] for start, end in inline.code] == [shown]


def test_each_literal_ends_at_its_own_backquotes() -> None:
    assert read_inline("``y`` is a copy of ``x[[1, 2]]``") == Inline(
        "y is a copy of x[[1, 2]]", ((0, 1), (15, 24))
    )


def test_a_line_of_unclosed_markup_is_read_in_linear_time() -> None:
    for text in ("``a " * 10_000, "(``a``b" * 10_000, ":a:`b " * 10_000, ":a:`" + "b" * 50_000):
        assert read_inline(text).text == text  # a quadratic scan would take minutes here


@pytest.mark.parametrize(
    "written",
    [
        "a `link <https://example.org>`_ here",
        "`interpreted text` and `anonymous <https://x.org>`__",
        "*emphasis*, **strong** and |substitution|",
        "word:ref:`x` and :ref:`x`s and `x`:ref:",  # not markup in reST
        "an unclosed :ref:`role and ``literal",
        "no markup at all: a.b, c:d",
    ],
)
def test_other_markup_stays_as_written(written: str) -> None:
    assert read_inline(written) == Inline(written)


WORDS = st.from_regex(r"[A-Za-z0-9.,;:!?()'\"*|<>/-]{1,8}", fullmatch=True)
NAME = st.from_regex(r"[a-z][a-z0-9_.-]{0,8}[a-z0-9]", fullmatch=True)
TITLE = st.from_regex(r"[A-Za-z0-9](?:[A-Za-z0-9 ,.'-]{0,12}[A-Za-z0-9])?", fullmatch=True)


@st.composite
def marked_up(draw: st.DrawFn) -> tuple[str, str, bool]:
    """A role or literal as written, as it reads, and whether it reads as code."""
    kind = draw(st.sampled_from(["ref", "doc", "func", "class", "pep", "literal", "titled"]))
    target = draw(NAME)
    if kind == "literal":
        text = draw(TITLE)
        return f"``{text}``", text, True
    if kind == "titled":
        title, role = draw(TITLE), draw(st.sampled_from(["ref", "doc", "func"]))
        return f":{role}:`{title} <{target}>`", title, role == "func"
    if kind == "pep":
        return f":pep:`{target}`", f"PEP {target}", False
    if kind == "class":
        tilde = draw(st.booleans())
        shown = target.split(".")[-1] if tilde else target
        return f":class:`{'~' if tilde else ''}{target}`", shown, True
    return f":{kind}:`{target}`", target, kind == "func"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(WORDS.map(lambda w: (w, w, None)), marked_up()), max_size=20))
def test_words_around_markup_are_kept_in_order(pieces: list[tuple[str, str, bool | None]]) -> None:
    inline = read_inline(" ".join(written for written, _, _ in pieces))
    assert inline.text == " ".join(shown for _, shown, _ in pieces)
    code = [shown for _, shown, is_code in pieces if is_code]
    assert [inline.text[start:end] for start, end in inline.code] == code


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="`")))
def test_text_without_backquotes_is_kept_as_written(text: str) -> None:
    assert read_inline(text) == Inline(text)
