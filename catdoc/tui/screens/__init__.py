"""The screens of `catdoc tui`: the browser, and the views pushed over it."""
