"""What every CatDoc screen shares: the service, and a hook for reloads."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.screen import Screen

from catdoc.service import CatDoc

if TYPE_CHECKING:
    from catdoc.tui.app import CatDocApp
    from catdoc.tui.editor import EditTarget


class CatDocScreen(Screen[None]):
    """A screen of the CatDoc app; `project_changed` runs after the model was reloaded."""

    @property
    def catdoc(self) -> CatDocApp:
        return cast("CatDocApp", self.app)

    @property
    def service(self) -> CatDoc:
        return self.catdoc.service

    def project_changed(self) -> None:
        """Show the reloaded model; screens that show project data override this."""

    def background_changed(self) -> None:
        """Show the app's `background` work anew; screens that show it override this."""

    def edit_target(self) -> EditTarget | None:
        """The file (and line) `e` opens in the editor here; None when nothing is selected."""
        return None
