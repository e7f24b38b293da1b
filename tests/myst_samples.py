"""A MyST page shared by the tests of its reading (`catdoc.markdown_extensions`) and of the
dashboard that shows it."""

MYST_PAGE = (
    "(wheel-caching)=\n# Caching\n\n% a comment\n\n"
    "See {ref}`local installs <local-project>` and {class}`~pkg.Cache`.\n\n"
    "```{versionchanged} 23.3\nA new format, `http-v2`.\n```\n\n"
    ":::{warning}\n:class: tight\n\nDo **not** delete it.\n:::\n\n"
    "```{code-block} python\n:caption: Example\n\nprint(1)\n```\n\n"
    "```{pip-cli}\n$ pip cache dir\n```\n"
)
"""A target, a comment, two roles, a version note, a warning in a colon fence with an option, a
code directive with an option and a directive CatDoc does not know (pip's)."""
