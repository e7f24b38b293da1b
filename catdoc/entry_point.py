"""The `catdoc` console script (and `python -m catdoc`).

An assistant starts `catdoc mcp --project DIR` and waits for its first answers; importing the
command line (typer and every command's module) would come before them, about half a second. So a
start of the MCP server written the plain way goes to the server's own start (`mcp_start`,
standard library only until the server is built) and the command line is never imported. Every
other command line, and any `mcp` one with something the server's start might read differently
from the command line (help, an unknown option, a value that looks like an option, a port that is
not one), goes through the command line as before.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

_FLAGS = frozenset({"--dashboard", "--read-only"})
_VALUED = frozenset({"--project", "-C", "--port"})
_PORT = re.compile(r"[0-9]{1,5}")


def server_arguments(args: Sequence[str]) -> list[str] | None:
    """The arguments after `mcp` when `args` is a plain `mcp` command line, which `mcp_start`
    reads exactly as the command line does; else None."""
    if not args or args[0] != "mcp":
        return None
    rest = list(args[1:])
    position = 0
    while position < len(rest):
        token = rest[position]
        position += 1
        if token in _FLAGS:
            continue
        name, equals, value = token.partition("=")
        if name not in _VALUED or (name == "-C" and equals):
            return None
        if not equals:
            if position == len(rest):
                return None
            value = rest[position]
            position += 1
        if not value or value.startswith("-"):
            return None
        if name == "--port" and not (_PORT.fullmatch(value) and int(value) <= 65535):
            return None
    return rest


def main() -> None:
    arguments = server_arguments(sys.argv[1:])
    if arguments is not None:
        from catdoc import mcp_start

        sys.exit(mcp_start.main(arguments))
    from catdoc import cli

    cli.main()
