"""`catdoc.search.readable`: the words of a snippet, without the markup lines around them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from catdoc.markup import Kind
from catdoc.search.readable import readable

RST = """.. _guide-beat:

================
 Periodic Tasks
================

.. contents::
    :local:

:program:`celery beat` is a scheduler; see :ref:`the guide <guide-x>` and ``beat_schedule``.

.. note:: Only one scheduler.

.. function:: parse(text)

.. |sub| replace:: x
.. a comment
"""

MARKDOWN = """## Markdown heading ##

```{note}
:class: x
MyST body
```
(my-label)=

| a | b |
|---|:-:|
| 1 | 2 |

---

```python
run(x)  # code keeps its lines
```
"""


def test_rst_markup_lines_are_left_out_and_roles_read_as_text() -> None:
    assert readable(RST, "rst").splitlines() == [
        " Periodic Tasks",
        "celery beat is a scheduler; see the guide and beat_schedule.",
        "Only one scheduler.",
        "parse(text)",
    ]


def test_markdown_headings_fences_labels_and_rules_are_left_out() -> None:
    assert readable(MARKDOWN, "markdown").splitlines() == [
        "Markdown heading",
        "MyST body",
        "| a | b |",
        "| 1 | 2 |",
        "run(x)  # code keeps its lines",
    ]


@given(
    st.text(alphabet=st.sampled_from(list(".:_-=#`~|()* \t\nab{}<>")), max_size=300),
    st.sampled_from(["markdown", "rst", "text"]),
)
def test_any_text_reads_without_error_and_without_blank_lines(text: str, kind: Kind) -> None:
    assert all(line.strip() for line in readable(text, kind).splitlines())


ATTRIBUTE_LISTS = """## Inline Processors { #inlineprocessors .api }

Text of the section.
{: #inlineprocessors }

A [link](api.md){: .external } and `{: #shown }` in code.

```md
# A heading {: #kept-in-code }
```

    indented {: .kept }
"""


def test_attribute_lists_are_left_out_as_the_page_shows_them() -> None:
    """Python-Markdown's attr_list and Pandoc's `{ #id .class }` give an element an anchor and
    classes and are not shown (Python-Markdown's docs: `{: #inlineprocessors }`); in a code span
    or a code block they are shown as written."""
    assert readable(ATTRIBUTE_LISTS, "markdown").splitlines() == [
        "Inline Processors",
        "Text of the section.",
        "A [link](api.md) and `{: #shown }` in code.",
        "A heading {: #kept-in-code }",
        "    indented {: .kept }",
    ]
    assert readable(ATTRIBUTE_LISTS, "rst").splitlines()[:3] == [
        "Inline Processors { #inlineprocessors .api }",  # reST knows no attribute list
        "Text of the section.",
        "{: #inlineprocessors }",
    ]


_ATTRIBUTE = st.sampled_from(["#anchor", ".class", "key=value", 'title="Two words"', ".a-b"])


@given(
    st.text(alphabet=st.sampled_from(list("ab `*_")), max_size=30).filter(lambda t: "a" in t),
    st.lists(_ATTRIBUTE, min_size=1, max_size=4),
    st.sampled_from(["{: ", "{ ", "{", "{:"]),
)
def test_a_heading_reads_the_same_with_an_attribute_list(
    title: str, attributes: list[str], opening: str
) -> None:
    plain = readable(f"## {title}\n", "markdown")
    listed = f"## {title} {opening}{' '.join(attributes)} }}\n"
    assert readable(listed, "markdown") == plain
