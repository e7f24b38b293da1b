"""The MCP edit tools through an in-process client: each one's success, each refusal writing
nothing, versions and CONFLICT, `--read-only`, change notifications, and parallel imports."""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, types
from mcp_project import data_of, error_of, make_project

from catdoc.mcp_server import build_server
from catdoc.mcp_write_tools import WRITE_TOOLS
from catdoc.service import CatDoc

pytestmark = pytest.mark.anyio

DESTRUCTIVE = {
    "catdoc_remove_object",
    "catdoc_remove_morphism",
    "catdoc_rename",
    "catdoc_upsert_object",  # its content replaces a document's text
}
NOT_IDEMPOTENT = {"catdoc_add_morphism"}
READ_ONLY_LEFT_OUT = {*WRITE_TOOLS, "catdoc_init", "catdoc_import_document"}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


@pytest.fixture(params=["legacy", "auto"])
async def client(request: pytest.FixtureRequest, root: Path) -> AsyncIterator[Client]:
    async with Client(build_server(CatDoc(root)), mode=request.param) as connected:
        yield connected


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the project, byte for byte (the lock file aside)."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.name != "lock" and "cache" not in path.parts
    }


async def call(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    return data_of(await client.call_tool(tool, args))


# ---------------------------------------------------------------------- listing
async def test_write_tools_are_listed_with_honest_annotations(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    for name in WRITE_TOOLS:
        tool = tools[name]
        notes = tool.annotations
        assert notes is not None
        assert notes.read_only_hint is False, name
        assert notes.destructive_hint is (name in DESTRUCTIVE), name
        assert notes.idempotent_hint is (name not in NOT_IDEMPOTENT), name
        assert "expectedVersion" in tool.input_schema["properties"], name
        assert "use" in tool.description.lower(), name
        assert tool.output_schema and "version" in tool.output_schema["properties"], name
    assert "catdoc_set_mapping" in tools["catdoc_add_morphism"].description
    assert client.instructions and "expectedVersion" in client.instructions


async def test_read_only_server_lists_no_write_tool(root: Path) -> None:
    async with Client(build_server(CatDoc(root), read_only=True)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert not READ_ONLY_LEFT_OUT & set(tools)
        assert all(t.annotations and t.annotations.read_only_hint for t in tools.values())
        assert "catdoc_context" in tools
        assert "expectedVersion" not in (client.instructions or "")
        error = error_of(await client.call_tool("catdoc_upsert_category", {"categoryId": "x"}))
        assert error["code"] == "NOT_FOUND" and "read-only" in error["message"]
        error = error_of(await client.call_tool("catdoc_no_such_tool", {}))
        assert "read-only" not in error["message"]


# ---------------------------------------------------------------------- successes
async def test_upsert_object_creates_the_document_and_reports_findings(
    client: Client, root: Path
) -> None:
    made = await call(
        client,
        "catdoc_upsert_object",
        categoryId="reqs",
        objectId="req-refund",
        title="Refunds",
        content="# Refunds\n\nA customer gets a refund.\n",
        tags=["payment"],
        metadata={"priority": "high"},
    )
    assert made["outcome"] == "created" and made["id"] == "req-refund"
    assert made["files"] == [".catdoc/category.yaml", "docs/requirements/req-refund.md"]
    assert (root / "docs/requirements/req-refund.md").read_text().startswith("# Refunds")
    assert made["valid"] is False  # no functor maps it yet: the answer says so
    assert {f["code"] for f in made["findings"]} == {"FUN_OBJECT_UNMAPPED", "NAT_COMPONENT_MISSING"}
    shown = await call(client, "catdoc_show_object", objectId="req-refund")
    assert shown["content"].startswith("# Refunds") and shown["version"] == made["version"]
    assert shown["metadata"] == {"priority": "high"} and shown["tags"] == ["payment"]
    again = await call(
        client,
        "catdoc_upsert_object",
        categoryId="requirements",
        objectId="req-refund",
        title="Refunds",
    )
    assert again["outcome"] == "unchanged" and again["files"] == []
    updated = await call(
        client,
        "catdoc_upsert_object",
        categoryId="requirements",
        objectId="req-refund",
        title="Refunds within 30 days",
        expectedVersion=made["version"],
    )
    assert updated["outcome"] == "updated" and updated["files"] == [".catdoc/category.yaml"]


async def test_clear_removes_fields_and_refuses_a_field_also_given(
    client: Client, root: Path
) -> None:
    await call(
        client,
        "catdoc_upsert_object",
        categoryId="requirements",
        objectId="req-x",
        summary="A card",
        url="https://example.org",
    )
    cleared = await call(
        client,
        "catdoc_upsert_object",
        categoryId="requirements",
        objectId="req-x",
        clear=["summary", "url"],
    )
    assert cleared["outcome"] == "updated"
    text = (root / ".catdoc/category.yaml").read_text()
    assert "A card" not in text and "example.org" not in text
    result = await client.call_tool(
        "catdoc_upsert_category", {"categoryId": "requirements", "name": "R", "clear": ["name"]}
    )
    assert result.is_error and "VALIDATION_ERROR" in result.content[0].text


async def test_morphisms_are_added_and_removed(client: Client) -> None:
    added = await call(
        client,
        "catdoc_add_morphism",
        categoryId="requirements",
        source="req-session",
        target="req-login",
        name="enables",
    )
    assert added["outcome"] == "created" and added["id"] == "req-session-enables-req-login"
    named = await call(
        client,
        "catdoc_add_morphism",
        categoryId="design",
        source="des-session-store",
        target="des-login-form",
        morphismId="store-feeds-form",
        metadata={"note": "x"},
    )
    assert named["id"] == "store-feeds-form"
    shown = await call(client, "catdoc_show_morphism", morphismId="store-feeds-form")
    assert shown["metadata"] == {"note": "x"}
    removed = await call(client, "catdoc_remove_morphism", morphismId="store-feeds-form")
    assert removed["outcome"] == "removed"
    cascaded = await call(
        client, "catdoc_remove_morphism", morphismId="form-uses-store", cascade=True
    )
    changed = {(c["kind"], c["id"], c["action"]) for c in cascaded["changes"]}
    assert ("morphism", "form-uses-store", "removed") in changed
    assert ("functor", "realize", "updated") in changed


async def test_rename_updates_every_reference(client: Client) -> None:
    renamed = await call(client, "catdoc_rename", objectId="des-login-form", newId="des-form")
    assert renamed["outcome"] == "renamed" and renamed["id"] == "des-form"
    functor = await call(client, "catdoc_show_functor", functorId="realize")
    assert {e["key"]: e["value"] for e in functor["objectMapping"]}["req-login"] == "des-form"
    assert renamed["valid"] is True
    await call(client, "catdoc_rename", functorId="realize", newId="realise")
    nat = await call(client, "catdoc_show_natural_transformation", id="upgrade")
    assert nat["sourceFunctor"] == "realise"
    await call(client, "catdoc_rename", categoryId="Design", newId="architecture")
    await call(client, "catdoc_rename", morphismId="form-uses-store", newId="uses-store")
    await call(client, "catdoc_rename", naturalTransformationId="upgrade", newId="v2")
    assert (await call(client, "catdoc_validate"))["isValid"] is True


async def test_rename_needs_exactly_one_entity_of_the_named_kind(client: Client) -> None:
    error = error_of(
        await client.call_tool(
            "catdoc_rename", {"objectId": "req-login", "morphismId": "x", "newId": "y"}
        )
    )
    assert error["code"] == "VALIDATION_ERROR"
    error = error_of(await client.call_tool("catdoc_rename", {"newId": "y"}))
    assert error["code"] == "VALIDATION_ERROR"
    error = error_of(
        await client.call_tool("catdoc_rename", {"objectId": "form-uses-store", "newId": "y"})
    )
    assert error["code"] == "NOT_FOUND" and "Object not found" in error["message"]


async def test_mappings_components_and_headers(client: Client) -> None:
    await call(
        client,
        "catdoc_upsert_category",
        categoryId="tests",
        name="Tests",
        aliases=["qa"],
        semantics="thin",
        description="What checks the design.",
    )
    listed = await call(client, "catdoc_list_categories")
    assert "tests" in [c["id"] for c in listed["categories"]]
    await call(client, "catdoc_upsert_object", categoryId="qa", objectId="test-login")
    await call(client, "catdoc_upsert_object", categoryId="qa", objectId="test-session")
    functor = await call(
        client,
        "catdoc_upsert_functor",
        functorId="verify",
        name="Design → Tests",
        sourceCategory="design",
        targetCategory="tests",
    )
    assert functor["outcome"] == "created"
    await call(
        client,
        "catdoc_add_morphism",
        categoryId="tests",
        source="test-login",
        target="test-session",
        morphismId="test-login-needs-session",
    )
    mapped = await call(
        client,
        "catdoc_set_mapping",
        functorId="verify",
        objectMapping={"des-login-form": "test-login", "des-session-store": "test-session"},
        morphismMapping={"form-uses-store": "test-login-needs-session"},
    )
    assert mapped["outcome"] == "updated" and mapped["valid"] is True
    await call(
        client,
        "catdoc_upsert_functor",
        functorId="verify-v2",
        sourceCategory="design",
        targetCategory="tests",
    )
    await call(
        client,
        "catdoc_set_mapping",
        functorId="verify-v2",
        objectMapping={"des-login-form": "test-login", "des-session-store": "test-session"},
        morphismMapping={"form-uses-store": ["test-login-needs-session"]},
    )
    nat = await call(
        client,
        "catdoc_upsert_natural_transformation",
        naturalTransformationId="verify-upgrade",
        sourceFunctor="verify",
        targetFunctor="verify-v2",
        name="v1 ⇒ v2",
    )
    assert nat["outcome"] == "created"
    components = await call(
        client,
        "catdoc_set_component",
        naturalTransformationId="verify-upgrade",
        components={"des-login-form": [], "des-session-store": []},
    )
    assert components["valid"] is True
    report = await call(client, "catdoc_validate")
    assert report["isValid"] is True, report["errors"]
    dropped = await call(
        client, "catdoc_set_mapping", functorId="verify-v2", objectMapping={"des-login-form": None}
    )
    assert {f["code"] for f in dropped["findings"]} >= {"FUN_OBJECT_UNMAPPED"}


async def test_remove_object_with_cascade(client: Client) -> None:
    removed = await call(client, "catdoc_remove_object", objectId="req-session", cascade=True)
    kinds = {(c["kind"], c["action"]) for c in removed["changes"]}
    assert {("object", "removed"), ("morphism", "removed"), ("functor", "updated")} <= kinds
    error = error_of(await client.call_tool("catdoc_show_object", {"objectId": "req-session"}))
    assert error["code"] == "NOT_FOUND"


# ---------------------------------------------------------------------- refusals
REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    (
        "catdoc_add_morphism",
        {"categoryId": "requirements", "source": "req-nope", "target": "req-login"},
        "CAT_DANGLING_SOURCE",
    ),
    (
        "catdoc_add_morphism",
        {"categoryId": "requirements", "source": "req-login", "target": "des-login-form"},
        "CAT_DANGLING_TARGET",
    ),
    (
        "catdoc_set_mapping",
        {"functorId": "realize", "objectMapping": {"req-login": "des-nope"}},
        "FUN_OBJECT_TARGET_MISSING",
    ),
    (
        "catdoc_upsert_object",
        {"categoryId": "design", "objectId": "req-login", "content": "# x\n"},
        "DUPLICATE_ID",
    ),
    (
        "catdoc_add_morphism",
        {
            "categoryId": "requirements",
            "source": "req-login",
            "target": "req-session",
            "morphismId": "login-needs-session",
        },
        "DUPLICATE_ID",
    ),
    ("catdoc_rename", {"objectId": "req-login", "newId": "req-session"}, "DUPLICATE_ID"),
    ("catdoc_remove_object", {"objectId": "req-login"}, "IN_USE"),
    ("catdoc_remove_morphism", {"morphismId": "login-needs-session"}, "IN_USE"),
    (
        "catdoc_upsert_object",
        {"categoryId": "design", "objectId": "x", "expectedVersion": "0" * 64, "content": "x"},
        "CONFLICT",
    ),
    (
        "catdoc_upsert_object",
        {"categoryId": "design", "objectId": "x", "path": "../outside.md", "content": "x"},
        "PATH_OUTSIDE_PROJECT",
    ),
    (
        "catdoc_set_component",
        {"naturalTransformationId": "upgrade", "components": {"req-login": "login-needs-session"}},
        "NAT_COMPONENT_UNKNOWN_MORPHISM",
    ),
    (
        "catdoc_upsert_functor",
        {"functorId": "f", "sourceCategory": "requirements", "targetCategory": "nope"},
        "FUN_TARGET_MISSING",
    ),
    ("catdoc_remove_object", {"objectId": "req-logn"}, "NOT_FOUND"),
    ("catdoc_set_mapping", {"functorId": "realize"}, "VALIDATION_ERROR"),
]


@pytest.mark.parametrize(("tool", "args", "code"), REFUSALS, ids=[c[2] for c in REFUSALS])
async def test_a_refused_edit_writes_nothing(
    client: Client, root: Path, tool: str, args: dict[str, Any], code: str
) -> None:
    before = snapshot(root)
    error = error_of(await client.call_tool(tool, args))
    assert error["code"] == code, error
    assert error["message"] and error["hint"]
    assert snapshot(root) == before


async def test_expected_version_detects_a_change_in_between(client: Client, root: Path) -> None:
    version = (await call(client, "catdoc_show_category", categoryId="design"))["version"]
    for tool, args in [
        ("catdoc_list_categories", {}),
        ("catdoc_show_object", {"objectId": "req-login"}),
        ("catdoc_show_functor", {"functorId": "realize"}),
        ("catdoc_show_natural_transformation", {"id": "upgrade"}),
        ("catdoc_validate", {}),
    ]:
        assert (await call(client, tool, **args))["version"] == version, tool
    model = root / ".catdoc" / "category.yaml"
    model.write_text(model.read_text() + "# saved by hand\n")
    before = snapshot(root)
    error = error_of(
        await client.call_tool(
            "catdoc_upsert_object",
            {"categoryId": "design", "objectId": "des-x", "expectedVersion": version},
        )
    )
    assert error["code"] == "CONFLICT" and snapshot(root) == before
    fresh = (await call(client, "catdoc_show_category", categoryId="design"))["version"]
    done = await call(
        client,
        "catdoc_upsert_object",
        categoryId="design",
        objectId="des-x",
        expectedVersion=fresh,
    )
    assert done["outcome"] == "created" and done["version"] != fresh


# ---------------------------------------------------------------------- notifications
class Inbox:
    """Notifications a client received, with a way to wait for one."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str | None]] = []
        self._arrived = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            self.seen.append((message.method, str(message.params.uri)))
        elif isinstance(message, types.ResourceListChangedNotification):
            self.seen.append((message.method, None))
        self._arrived.set()

    async def wait_for(self, item: tuple[str, str | None]) -> None:
        with anyio.fail_after(15):
            while item not in self.seen:
                await self._arrived.wait()
                self._arrived = anyio.Event()


UPDATED = "notifications/resources/updated"
LIST_CHANGED = "notifications/resources/list_changed"


async def test_handshake_clients_are_told_of_edits_and_outside_changes(root: Path) -> None:
    inbox = Inbox()
    server = build_server(CatDoc(root))
    async with Client(server, mode="legacy", message_handler=inbox) as client:
        caps = client.session.server_capabilities
        assert caps is not None and caps.resources is not None
        assert caps.resources.subscribe and caps.resources.list_changed
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await client.subscribe_resource("catdoc://objects/req-new")
            await client.subscribe_resource("catdoc://graph")
        await call(client, "catdoc_upsert_object", categoryId="requirements", objectId="req-new")
        await inbox.wait_for((LIST_CHANGED, None))
        await inbox.wait_for((UPDATED, "catdoc://objects/req-new"))
        assert (UPDATED, "catdoc://objects/req-login") not in inbox.seen  # not subscribed
        inbox.seen.clear()
        model = root / ".catdoc" / "category.yaml"
        model.write_text(model.read_text().replace("Sessions expire", "Sessions end"))
        await inbox.wait_for((UPDATED, "catdoc://graph"))
        assert (LIST_CHANGED, None) in inbox.seen


async def test_listen_streams_are_told_of_edits_and_outside_changes(root: Path) -> None:
    async with (
        Client(build_server(CatDoc(root))) as client,
        client.listen(
            resources_list_changed=True, resource_subscriptions=["catdoc://graph"]
        ) as events,
    ):
        await call(
            client,
            "catdoc_add_morphism",
            categoryId="design",
            source="des-session-store",
            target="des-login-form",
        )
        seen = []
        with anyio.fail_after(15):
            async for event in events:
                seen.append(type(event).__name__)
                if "ResourceUpdated" in seen:
                    break
        assert "ResourcesListChanged" in seen
        model = root / ".catdoc" / "category.yaml"
        model.write_text(model.read_text() + "# touched\n")
        with anyio.fail_after(15):
            async for event in events:
                if type(event).__name__ == "ResourceUpdated":
                    assert event.uri == "catdoc://graph"  # type: ignore[union-attr]
                    break


# ---------------------------------------------------------------------- parallel calls
async def test_parallel_imports_all_land_or_answer_busy(root: Path) -> None:
    for i in range(10):
        (root / "docs" / f"par-{i}.md").write_text(
            f"---\nid: req-par-{i}\ntitle: Parallel {i}\n---\nText {i}.\n", encoding="utf-8"
        )
    answers: dict[int, Any] = {}
    async with Client(build_server(CatDoc(root))) as client:

        async def one(i: int) -> None:
            answers[i] = await client.call_tool(
                "catdoc_import_document",
                {"filePath": f"docs/par-{i}.md", "category": "requirements"},
            )

        async with anyio.create_task_group() as tasks:
            for i in range(10):
                tasks.start_soon(one, i)
    loaded = CatDoc(root).project().object_by_id
    for i, answer in answers.items():
        if answer.is_error:
            assert error_of(answer)["code"] == "BUSY"
            assert f"req-par-{i}" not in loaded
        else:
            assert data_of(answer)["created"] == 1
            assert f"req-par-{i}" in loaded
    assert len(answers) == 10


# ---------------------------------------------------------------------- import, hints
async def test_import_links_references_only_when_asked(root: Path) -> None:
    for name, ident in (("a.md", "req-a"), ("b.md", "req-b")):
        (root / "docs" / name).write_text(
            f"---\nid: {ident}\n---\nIt builds on @req-login.\n", encoding="utf-8"
        )
    async with Client(build_server(CatDoc(root))) as client:
        plain = await call(
            client, "catdoc_import_document", filePath="docs/a.md", category="requirements"
        )
        assert plain["morphismsCreated"] == [] and plain["references"]
        linked = await call(
            client,
            "catdoc_import_document",
            filePath="docs/b.md",
            category="requirements",
            link=True,
        )
        assert len(linked["morphismsCreated"]) == 1
        (root / "docs" / "a.md").write_text(
            "---\nid: req-a\ntitle: A, retitled\n---\nChanged.\n", encoding="utf-8"
        )
        again = await call(client, "catdoc_import_document", filePath="docs/a.md")
        assert again["updated"] == 1  # the object with this path is updated without force


async def test_hints_name_tools_and_arguments(tmp_path: Path, root: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    async with Client(build_server(CatDoc(empty))) as client:
        error = error_of(await client.call_tool("catdoc_list_categories", {}))
        assert error["code"] == "PROJECT_NOT_FOUND" and "catdoc_init" in error["hint"]
    (root / "docs" / "dup.md").write_text("---\nid: req-session\n---\nx\n", encoding="utf-8")
    async with Client(build_server(CatDoc(root))) as client:
        before = (root / ".catdoc" / "category.yaml").read_bytes()
        error = error_of(
            await client.call_tool("catdoc_import_document", {"filePath": "docs/dup.md"})
        )
        assert error["code"] == "VALIDATION_ERROR"  # the one file asked for was not imported
        assert (
            "docs/dup.md was not imported" in error["message"] and "force: true" in error["message"]
        )
        assert (root / ".catdoc" / "category.yaml").read_bytes() == before
        (root / "docs" / "fresh.md").write_text("---\nid: req-fresh\n---\nx\n")
        fresh = await call(
            client, "catdoc_import_document", filePath="docs/fresh.md", category="requirements"
        )
        assert "(MCP: catdoc_validate)" in fresh["items"][0]["reason"]


async def test_a_failing_announcement_fails_no_call(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catdoc.mcp_changes import ChangeAnnouncer

    async def broken(self: ChangeAnnouncer, uris: list[str]) -> None:
        raise RuntimeError("no way to tell")

    monkeypatch.setattr(ChangeAnnouncer, "_announce", broken)
    async with Client(build_server(CatDoc(root)), mode="legacy") as client:
        made = await call(client, "catdoc_upsert_category", categoryId="runbooks")
        assert made["outcome"] == "created"
        assert (await call(client, "catdoc_list_categories"))["total"] == 3


async def test_an_edit_while_another_writer_holds_the_lock_answers_busy(root: Path) -> None:
    from catdoc.lock import project_lock

    (root / ".catdoc" / "config.yaml").write_text("edit:\n  lockTimeout: 0.2\n", encoding="utf-8")
    async with Client(build_server(CatDoc(root))) as client:
        before = snapshot(root)
        with project_lock(root, 5):
            answer = await client.call_tool(
                "catdoc_upsert_object",
                {"categoryId": "design", "objectId": "des-x", "content": "# x\n"},
            )
        error = error_of(answer)
        assert error["code"] == "BUSY" and error["hint"]
        assert snapshot(root) == before
        done = await call(client, "catdoc_upsert_object", categoryId="design", objectId="des-x")
        assert done["outcome"] == "created"


async def test_two_sessions_writing_one_document_the_second_gets_conflict(root: Path) -> None:
    async with (
        Client(build_server(CatDoc(root))) as first,
        Client(build_server(CatDoc(root))) as second,
    ):
        read = await call(first, "catdoc_show_object", objectId="req-login")
        for client, who in ((first, "first"), (second, "second")):
            result = await client.call_tool(
                "catdoc_upsert_object",
                {
                    "categoryId": "requirements",
                    "objectId": "req-login",
                    "content": f"Written by the {who}.\n",
                    "expectedVersion": read["version"],
                    "expectedContentVersion": read["contentVersion"],
                },
            )
            if who == "first":
                assert data_of(result)["changes"][0]["detail"] == "content"
            else:
                assert error_of(result)["code"] == "CONFLICT"
    assert (root / "docs" / "req-login.md").read_text() == "Written by the first.\n"


async def test_rename_acts_on_the_kind_its_argument_names(client: Client) -> None:
    await call(client, "catdoc_rename", functorId="realize", newId="requirements")
    # a category and a functor now share the id: each argument renames its own kind
    await call(client, "catdoc_rename", functorId="requirements", newId="realize")
    functors = await call(client, "catdoc_list_functors")
    categories = await call(client, "catdoc_list_categories")
    assert {f["id"] for f in functors["functors"]} == {"realize", "realize-v2"}
    assert "requirements" in {c["id"] for c in categories["categories"]}
