"""An assistant extends the traceability example through a real stdio `catdoc mcp` session:
a refund feature from requirement to tests, mapped under all five functors, ends valid with every
YAML comment kept. And `catdoc mcp --read-only` offers no tool that writes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp_project import data_of

from catdoc.mcp_write_tools import WRITE_TOOLS

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]

# (category, object id, title, document text)
REFUND_DOCUMENTS = [
    ("requirements", "req-refund", "Refunds", "# Refunds\n\nA paid order can be refunded.\n"),
    ("specifications", "spec-refund-api", "Refund API", "# Refund API\n\nPOST /refunds.\n"),
    ("design", "design-refund-service", "Refund service", "# Refund service\n\nReverses.\n"),
    ("implementation", "impl-refund-module", "tillpoint/refunds.py", "# refunds.py\n"),
    ("tests", "test-refund-unit", "tests/unit/test_refunds.py", "# Refund unit tests\n"),
    ("tests", "test-refund-e2e", "tests/e2e/test_refund_journey.py", "# Refund journey\n"),
]
# (category, morphism id, name, source, target): the refund's dependency on payment, in every
# layer, and the CI ordering of the refund suites.
REFUND_MORPHISMS = [
    ("requirements", "refund-depends-on-payment", "depends-on", "req-refund", "req-payment"),
    ("specifications", "spec-refund-refs-payment", "references", "spec-refund-api",
     "spec-payment-api"),
    ("design", "refund-service-calls-payment", "calls", "design-refund-service",
     "design-payment-adapter"),
    ("implementation", "refund-imports-payment", "imports", "impl-refund-module",
     "impl-payment-client"),
    ("tests", "refund-tests-use-payment-fakes", "uses-fixtures", "test-refund-unit",
     "test-payment-unit"),
    ("tests", "refund-unit-gates-refund-e2e", "gates", "test-refund-unit", "test-refund-e2e"),
    ("tests", "refund-e2e-precedes-checkout-e2e", "precedes", "test-refund-e2e",
     "test-checkout-e2e"),
]  # fmt: skip
# functor → (object mapping, morphism mapping)
REFUND_MAPPINGS: dict[str, tuple[dict[str, str], dict[str, Any]]] = {
    "specify": (
        {"req-refund": "spec-refund-api"},
        {"refund-depends-on-payment": "spec-refund-refs-payment"},
    ),
    "architect": (
        {"spec-refund-api": "design-refund-service"},
        {"spec-refund-refs-payment": "refund-service-calls-payment"},
    ),
    "implement": (
        {"design-refund-service": "impl-refund-module"},
        {"refund-service-calls-payment": "refund-imports-payment"},
    ),
    "unit-test": (
        {"impl-refund-module": "test-refund-unit"},
        {"refund-imports-payment": "refund-tests-use-payment-fakes"},
    ),
    "end-to-end": (
        {"impl-refund-module": "test-refund-e2e"},
        {"refund-imports-payment": ["refund-e2e-precedes-checkout-e2e"]},
    ),
}


def server(root: Path, *flags: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "catdoc", "mcp", "--project", str(root), *flags],
        env={**get_default_environment(), "PYTHONPATH": str(REPO)},
        cwd=str(root),
    )


def comment_lines(root: Path) -> dict[str, list[str]]:
    """Every comment of every model file, in order."""
    return {
        path.name: [line.strip() for line in path.read_text().splitlines() if "#" in line]
        for path in sorted((root / ".catdoc").rglob("*.yaml"))
        if path.name != "config.yaml"
    }


async def test_an_assistant_adds_a_traced_feature_over_stdio(example_copy: Path) -> None:
    comments = comment_lines(example_copy)
    async with Client(server(example_copy)) as client:

        async def call(tool: str, **args: Any) -> dict[str, Any]:
            return data_of(await client.call_tool(tool, args))

        version = (await call("catdoc_list_categories"))["version"]
        for category, object_id, title, text in REFUND_DOCUMENTS:
            made = await call(
                "catdoc_upsert_object",
                categoryId=category,
                objectId=object_id,
                title=title,
                domain=category,
                content=text,
                expectedVersion=version,
            )
            assert made["outcome"] == "created", made
            version = made["version"]
        for category, morphism_id, name, source, target in REFUND_MORPHISMS:
            added = await call(
                "catdoc_add_morphism",
                categoryId=category,
                source=source,
                target=target,
                name=name,
                morphismId=morphism_id,
                expectedVersion=version,
            )
            version = added["version"]
        for functor, (objects, morphisms) in REFUND_MAPPINGS.items():
            mapped = await call(
                "catdoc_set_mapping",
                functorId=functor,
                objectMapping=objects,
                morphismMapping=morphisms,
                expectedVersion=version,
            )
            version = mapped["version"]
        component = await call(
            "catdoc_set_component",
            naturalTransformationId="unit-gates-e2e",
            components={"impl-refund-module": "refund-unit-gates-refund-e2e"},
            expectedVersion=version,
        )
        assert component["valid"] is True, component["findings"]
        report = await call("catdoc_validate")
        assert report["isValid"] is True and report["summary"]["totalErrors"] == 0, report
        context = await call("catdoc_context", objectId="req-refund", depth=4)
        reached = {node["id"] for node in context["nodes"]}
        assert {"spec-refund-api", "design-refund-service", "impl-refund-module"} <= reached
        shown = await call("catdoc_show_object", objectId="test-refund-e2e")
        assert shown["content"] == "# Refund journey\n"
    assert comment_lines(example_copy) == comments
    assert (example_copy / "docs/tests/test-refund-e2e.md").is_file()


async def test_read_only_server_offers_no_write_tool(example_copy: Path) -> None:
    async with Client(server(example_copy, "--read-only")) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
    assert "catdoc_show_object" in names and "catdoc_context" in names
    assert not names & {*WRITE_TOOLS, "catdoc_init", "catdoc_import_document"}


async def test_a_stdio_client_hears_of_a_file_saved_by_hand(example_copy: Path) -> None:
    async with (
        Client(server(example_copy)) as client,
        client.listen(
            resources_list_changed=True, resource_subscriptions=["catdoc://graph"]
        ) as events,
    ):
        # The client sees the model first: a file saved before the server's first load (it
        # loads beside the handshake) is no change to anything the client was told.
        assert not (await client.call_tool("catdoc_validate", {})).is_error
        model = example_copy / ".catdoc" / "categories" / "tests.yaml"
        model.write_text(model.read_text().replace("Samir Haddad", "S. Haddad"))
        heard: list[str] = []
        with anyio.fail_after(20):
            async for event in events:
                heard.append(type(event).__name__)
                if "ResourceUpdated" in heard:
                    break
        assert "ResourcesListChanged" in heard
