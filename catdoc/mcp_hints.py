"""Messages and hints in an MCP client's words.

The core's hints name what a person types (`catdoc validate`, `--force`); an assistant calls
tools. Where a text names a CLI command or option and not yet the matching tool or argument, the
MCP answer adds it in the style the core uses itself: "`catdoc list objects` (MCP:
catdoc_list_objects)", "--force (MCP: force: true)". On a server that leaves the writing tools
out (`catdoc mcp --read-only`), a command whose tool is not served is said to be one for the
command line (or for a server that may write) instead of naming a tool the client cannot call.
"""

from __future__ import annotations

import re
from collections.abc import Collection

COMMAND_TOOLS = {
    "catdoc validate": "catdoc_validate",
    "catdoc validate --suggest": "catdoc_suggest_mappings",
    "catdoc init": "catdoc_init",
    "catdoc import": "catdoc_import_document",
    "catdoc search": "catdoc_search",
    "catdoc trace": "catdoc_trace",
    "catdoc list categories": "catdoc_list_categories",
    "catdoc list objects": "catdoc_list_objects",
    "catdoc list morphisms": "catdoc_list_morphisms",
    "catdoc list functors": "catdoc_list_functors",
    "catdoc list natural-transformations": "catdoc_list_natural_transformations",
    "catdoc show category": "catdoc_show_category",
    "catdoc show object": "catdoc_show_object",
    "catdoc show morphism": "catdoc_show_morphism",
    "catdoc show functor": "catdoc_show_functor",
    "catdoc show natural-transformation": "catdoc_show_natural_transformation",
    "catdoc add object": "catdoc_upsert_object",
    "catdoc add morphism": "catdoc_add_morphism",
    "catdoc add category": "catdoc_upsert_category",
    "catdoc add functor": "catdoc_upsert_functor",
    "catdoc add transformation": "catdoc_upsert_natural_transformation",
    "catdoc map": "catdoc_set_mapping",
    "catdoc component": "catdoc_set_component",
    "catdoc rm": "catdoc_remove_object / catdoc_remove_morphism",
    "catdoc mv": "catdoc_rename",
    "catdoc suspects": "catdoc_suspects",
    "catdoc review": "catdoc_review",
}
OPTION_ARGUMENTS = {
    "--force": "force: true",
    "--cascade": "cascade: true",
    "--link": "link: true",
    "--expect-version": "expectedVersion",
}

READ_ONLY_NOTE = (
    "run on the command line: this MCP server is read-only and has no tool for it; a server "
    "started without --read-only has one"
)
"""Said after a command whose tool a read-only server leaves out (once a text; later ones get
only "run on the command line")."""

_COMMAND = re.compile(r"`(catdoc [a-z][a-z -]*)[^`]*`")
_OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z-]*)(?![\w-])(?! ?\(MCP)")


def _tool(command: str) -> str | None:
    """The tool for the longest known command that `command` starts with."""
    words = command.split()
    while len(words) > 1:
        tool = COMMAND_TOOLS.get(" ".join(words))
        if tool is not None:
            return tool
        words.pop()
    return None


def speak_mcp(text: str, withheld: Collection[str] = ()) -> str:
    """`text` with the MCP tool or argument after each CLI command or option it names. A
    command whose tool is in `withheld` (the tools a read-only server does not serve) gets
    `READ_ONLY_NOTE` instead."""
    if "catdoc" not in text and "--" not in text:
        return text
    noted = False

    def command(match: re.Match[str]) -> str:
        nonlocal noted
        tool = _tool(match.group(1).strip())
        if tool is None or tool.split(" /")[0] in text:
            return match.group(0)
        if any(name in withheld for name in tool.split(" / ")):
            note = "run on the command line" if noted else READ_ONLY_NOTE
            noted = True
            return f"{match.group(0)} ({note})"
        return f"{match.group(0)} (MCP: {tool})"

    bare = _OPTION.sub("", text)

    def option(match: re.Match[str]) -> str:
        argument = OPTION_ARGUMENTS.get(match.group(1))
        if argument is None or re.search(rf"\b{argument.split(':')[0]}\b", bare):
            return match.group(0)
        return f"{match.group(0)} (MCP: {argument})"

    return _OPTION.sub(option, _COMMAND.sub(command, text))
