"""Every reader of a document agrees on its markup: reST in a `.txt` file is reST for renames,
the dashboard and the terminal browser too, not only for import and search."""

from __future__ import annotations

from pathlib import Path

from catdoc.service import CatDoc
from catdoc.web.render import document_html

REST_TXT = """Notes
=====

See @old-note for the background.

Example::

    @old-note stays as written inside a literal block
"""


def make_project(base: Path) -> Path:
    root = base / "proj"
    (root / ".catdoc").mkdir(parents=True)
    (root / "notes.txt").write_text(REST_TXT, encoding="utf-8")
    (root / ".catdoc" / "category.yaml").write_text(
        "categories:\n  - id: docs\n    objects:\n"
        "      - id: notes\n        path: notes.txt\n"
        "      - id: old-note\n        content: Background.\n",
        encoding="utf-8",
    )
    return root


def test_a_rename_reads_rest_in_txt_as_rest(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    CatDoc(root).rename("old-note", "new-note")
    text = (root / "notes.txt").read_text(encoding="utf-8")
    assert "See @new-note for the background." in text
    assert "    @old-note stays as written inside a literal block" in text


def test_the_dashboard_renders_rest_in_txt_as_rest() -> None:
    html = str(document_html(REST_TXT, "notes.txt"))
    assert "<h2>Notes</h2>" in html and "<pre>@old-note stays" in html
    assert "document-text" not in html  # not the plain-text fallback
