"""`catdoc tui`: a Textual browser over the CatDoc service (thin: it only asks and shows)."""

from catdoc.tui.app import CatDocApp

__all__ = ["CatDocApp"]
