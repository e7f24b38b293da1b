"""Every `catdoc_*` tool the server lists, fuzzed with arguments drawn from its own input schema.

The arguments mix valid values (drawn from the JSON schema by `from_schema` below, which knows
the keywords pydantic emits), values at and beyond each bound, wrong types, huge numbers, NUL and
control characters, lone surrogates and unknown keys. Whatever comes in, the answer is a result
or a tool error with one of CatDoc's codes (never INTERNAL_ERROR, never a protocol error), the
session keeps answering, and no call leaves the project unloadable (LOAD_ERROR). Each tool gets
a fresh copy of examples/traceability, so write tools may change it freely.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.types import Tool

import catdoc.errors
from catdoc.errors import LOAD_ERROR
from catdoc.mcp_server import INTERNAL_ERROR, build_server
from catdoc.service import CatDoc
from catdoc.validate.codes import Code

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "traceability"
CATDOC_CODES = {
    value
    for name, value in vars(catdoc.errors).items()
    if name.isupper() and isinstance(value, str) and value.isupper()
} | set(Code)
"""Error codes (catdoc.errors) and validation codes (an edit refused by a model check)."""
EXAMPLES_PER_TOOL = 20


def listed_tools() -> list[Tool]:
    """The tools as the server lists them, so tools added later are fuzzed too."""
    server = build_server(CatDoc(EXAMPLE))
    return [tool for tool in anyio.run(server.list_tools) if tool.name.startswith("catdoc_")]


TOOLS = {tool.name: tool for tool in listed_tools()}

# ---------------------------------------------------------------- hostile values

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
ANY_JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
HUGE_NUMBERS = st.sampled_from(
    [2**63, -(2**63) - 1, 10**30, -(10**30), 2**31, 1e308, -1e308, 1e-308, 0.5, -0.0, 3.0]
)
HOSTILE_TEXT = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "a\x00b",
            "\ud800",
            "x\udfffy",
            "\ufeff",
            "\u202e",
            "\r\n",
            "../../etc/passwd",
            "/etc/passwd",
            ".",
            "..",
            "~",
            "*",
            "[",
            "%s%n",
            "${HOME}",
            "'; DROP TABLE x; --",
            'NEAR("a" "b")',
            "a" * 5000,
            "é" * 300,
            "\U0001f600",
        ]
    ),
    st.text(st.characters(codec=None, categories=("Cc", "Cs", "Zl", "Zp", "Cf")), max_size=10),
    st.text(max_size=40),
)


def from_schema(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values valid under `schema` (the JSON schema keywords pydantic emits for tool inputs)."""
    if "$ref" in schema:
        return from_schema(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in schema:
        return st.one_of([from_schema(branch, defs) for branch in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "string":
        if schema.get("format") == "date":
            return st.dates().map(str)
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        return st.text(min_size=low, max_size=min(high or low + 30, low + 30))
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum"))
    if kind == "number":
        return st.floats(schema.get("minimum"), schema.get("maximum"), allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        items = from_schema(schema.get("items", {}), defs)
        return st.lists(items, min_size=schema.get("minItems", 0), max_size=4)
    if kind == "object":
        properties = {
            name: from_schema(part, defs) for name, part in schema.get("properties", {}).items()
        }
        required = set(schema.get("required", ()))
        fixed = st.fixed_dictionaries(
            {name: value for name, value in properties.items() if name in required},
            optional={name: value for name, value in properties.items() if name not in required},
        )
        extra = schema.get("additionalProperties", True)
        if properties or extra is False:
            return fixed
        values = ANY_JSON if extra is True else from_schema(extra, defs)
        size = schema.get("minProperties", 0)
        return st.dictionaries(st.text(max_size=12), values, min_size=size, max_size=size + 3)
    return ANY_JSON


def bounds(part: dict[str, Any]) -> list[Any]:
    """Values at and just beyond each bound of `part` (and of each `anyOf` branch)."""
    values: list[Any] = []
    for branch in [part, *part.get("anyOf", [])]:
        for key in ("minimum", "maximum"):
            if key in branch:
                edge = branch[key]
                values += [edge - 1, edge, edge + 1]
        for key in ("minLength", "maxLength"):
            if key in branch:
                length = branch[key]
                values += ["q" * max(length - 1, 0), "q" * length, "q" * (length + 1)]
        values += branch.get("enum", [])
    return values


def argument_values(schema: dict[str, Any], part: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Valid values, bound values, wrong types, huge numbers and hostile text for one argument."""
    edges = bounds(part)
    return st.one_of(
        from_schema(part, schema.get("$defs", {})),
        st.sampled_from(edges) if edges else st.nothing(),
        HUGE_NUMBERS,
        HOSTILE_TEXT,
        ANY_JSON,
        st.lists(HOSTILE_TEXT, max_size=3),
    )


@functools.cache
def arguments_for(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Whole valid argument objects, or any mix of argument values plus unknown keys."""
    schema = TOOLS[name].input_schema
    properties: dict[str, Any] = schema.get("properties", {})
    valid = from_schema({**schema, "additionalProperties": False}, schema.get("$defs", {}))
    mixed = st.fixed_dictionaries(
        {},
        optional={name: argument_values(schema, part) for name, part in properties.items()},
    )
    unknown = st.dictionaries(
        HOSTILE_TEXT.filter(lambda key: key not in properties), ANY_JSON, min_size=1, max_size=2
    )
    return st.one_of(valid, mixed, st.builds(lambda a, b: {**a, **b}, mixed, unknown))


# ---------------------------------------------------------------- the property


@pytest.fixture
def session(example_copy: Path) -> Iterator[tuple[BlockingPortal, Client]]:
    """A client session on a fresh copy of the example, on an event loop of its own thread, so
    one session serves every example of a test (hypothesis examples run synchronously)."""
    client = Client(build_server(CatDoc(example_copy)), mode="legacy")
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(client) as open_:
        yield portal, open_


def catdoc_error_code(text: str) -> str:
    body = json.loads(text)
    assert set(body) == {"error"}, text[:300]
    assert {"code", "message", "hint"} <= set(body["error"]), text[:300]
    return body["error"]["code"]


@pytest.mark.parametrize("name", sorted(TOOLS))
@settings(
    max_examples=EXAMPLES_PER_TOOL,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_every_tool_answers_any_arguments(
    session: tuple[BlockingPortal, Client], name: str, data: st.DataObject
) -> None:
    portal, client = session
    arguments = data.draw(arguments_for(name), label="arguments")
    result = portal.call(client.call_tool, name, arguments)
    text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
    if result.is_error:
        code = catdoc_error_code(text)
        assert code != INTERNAL_ERROR and code in CATDOC_CODES, text[:500]
        assert code != LOAD_ERROR, f"an earlier call left the project unloadable: {text[:500]}"
    else:
        assert result.structured_content is not None
    portal.call(client.send_ping)
