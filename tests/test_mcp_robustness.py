"""The MCP server under hostile or changing conditions: path escapes, broken and edited YAML,
imports into commented YAML, malformed calls, unexpected failures, secrets in the environment."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client
from mcp_project import MODEL, data_of, error_of, make_project, served_tools

from catdoc.errors import CatDocError
from catdoc.mcp_server import build_server
from catdoc.service import CatDoc

pytestmark = pytest.mark.anyio


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


@pytest.fixture
def svc(root: Path) -> CatDoc:
    return CatDoc(root)


@pytest.fixture
async def client(svc: CatDoc) -> AsyncIterator[Client]:
    async with Client(build_server(svc)) as connected:
        yield connected


def write_model(root: Path, text: str) -> None:
    """Rewrite category.yaml so that the change is visible to the stat check (size changes)."""
    (root / ".catdoc" / "category.yaml").write_text(text, encoding="utf-8")


async def test_path_escapes_are_refused(client: Client, root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("---\nid: stolen\n---\nsecret plans\n", encoding="utf-8")
    (root / "docs" / "link.md").symlink_to(outside)
    for attempt in ["../outside.md", str(outside), "docs/../../outside.md", "docs/link.md"]:
        result = await client.call_tool("catdoc_import_document", {"filePath": attempt})
        assert error_of(result)["code"] == "PATH_OUTSIDE_PROJECT", attempt
    result = await client.call_tool("catdoc_init", {"directory": "../elsewhere"})
    assert error_of(result)["code"] == "PATH_OUTSIDE_PROJECT"
    assert not (tmp_path / "elsewhere").exists()
    assert "stolen" not in (root / ".catdoc" / "category.yaml").read_text(encoding="utf-8")


async def test_document_path_escaping_the_project_is_not_read(
    client: Client, root: Path, tmp_path: Path
) -> None:
    (tmp_path / "secret.txt").write_text("TOP-SECRET", encoding="utf-8")
    write_model(root, MODEL.replace("path: docs/req-login.md", "path: ../secret.txt"))
    data = data_of(await client.call_tool("catdoc_show_object", {"objectId": "req-login"}))
    assert "TOP-SECRET" not in str(data)
    assert data["content"] is None and data["contentError"]


async def test_broken_yaml_gives_load_error_then_recovers(client: Client, root: Path) -> None:
    write_model(root, MODEL.replace("    objects:\n", "    objects: [\n", 1))
    for tool, args in [
        ("catdoc_list_categories", {}),
        ("catdoc_show_object", {"objectId": "req-login"}),
        ("catdoc_validate", {}),
    ]:
        error = error_of(await client.call_tool(tool, args))
        assert error["code"] == "LOAD_ERROR"
        assert ".catdoc/category.yaml:" in error["message"]
    write_model(root, MODEL)
    data = data_of(await client.call_tool("catdoc_list_categories", {}))
    assert data["total"] == 2


async def test_server_starts_on_a_broken_or_missing_project(tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj")
    write_model(root, "categories: [\n")
    async with Client(build_server(CatDoc(root))) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert listed == await served_tools(make_project(tmp_path / "valid")) and len(listed) > 35
        error = error_of(await client.call_tool("catdoc_list_functors", {}))
        assert error["code"] == "LOAD_ERROR" and error["hint"]
    empty = tmp_path / "empty"
    empty.mkdir()
    async with Client(build_server(CatDoc(empty))) as client:
        error = error_of(await client.call_tool("catdoc_list_categories", {}))
        assert error["code"] == "PROJECT_NOT_FOUND"
        data_of(await client.call_tool("catdoc_init", {}))
        data = data_of(await client.call_tool("catdoc_list_categories", {}))
        assert data["total"] >= 1


async def test_sees_files_changed_while_running(client: Client, root: Path) -> None:
    before = data_of(await client.call_tool("catdoc_list_objects", {"category": "design"}))
    assert before["total"] == 2
    added = MODEL.replace(
        "    morphisms:\n      - id: form-uses-store",
        "      - id: des-audit\n        title: Audit trail\n"
        "    morphisms:\n      - id: form-uses-store",
    )
    write_model(root, added)
    after = data_of(await client.call_tool("catdoc_list_objects", {"category": "design"}))
    assert [item["id"] for item in after["items"]][-1] == "des-audit"
    (root / "docs" / "req-login.md").write_text("# Users log in\n\nNow with passkeys.\n")
    shown = data_of(await client.call_tool("catdoc_show_object", {"objectId": "req-login"}))
    assert "passkeys" in shown["content"]


async def test_import_keeps_yaml_comments(client: Client, root: Path) -> None:
    (root / "docs" / "req-audit.md").write_text(
        "---\nid: req-audit\ntitle: Every change is audited\ndomain: requirements\n"
        "tags: [security]\n---\nAuditing covers every login (see @req-login).\n",
        encoding="utf-8",
    )
    args = {"filePath": "docs/req-audit.md", "category": "requirements"}
    data = data_of(await client.call_tool("catdoc_import_document", args))
    assert data["created"] == 1
    text = "".join(
        p.read_text(encoding="utf-8") for p in sorted((root / ".catdoc").rglob("*.yaml"))
    )
    assert "# Test project for the MCP server.  (this comment must survive imports)" in text
    assert "name: depends-on   # a typed relationship" in text
    assert "req-audit" in text
    shown = data_of(await client.call_tool("catdoc_show_object", {"objectId": "req-audit"}))
    assert shown["title"] == "Every change is audited" and shown["tags"] == ["security"]
    again = data_of(await client.call_tool("catdoc_import_document", args))
    assert again["created"] == 0 and again["unchanged"] == 1


async def test_malformed_and_unknown_calls_keep_the_server_answering(client: Client) -> None:
    error = error_of(await client.call_tool("catdoc_list_categorys", {}))
    assert error["code"] == "NOT_FOUND" and "catdoc_list_categories" in error["didYouMean"]
    error = error_of(await client.call_tool("catdoc_show_object", {"objectID": "req-login"}))
    assert error["code"] == "VALIDATION_ERROR" and error["didYouMean"] == ["objectId"]
    error = error_of(await client.call_tool("catdoc_list_objects", {"limit": "many"}))
    assert error["code"] == "VALIDATION_ERROR" and "limit" in error["message"]
    error = error_of(await client.call_tool("catdoc_trace", {"sourceId": {"nested": [1]}}))
    assert "sourceId" in error["message"] and "targetId" in error["message"]
    assert data_of(await client.call_tool("catdoc_list_functors", {}))["total"] == 2


async def test_unexpected_failure_is_an_internal_error_and_logged(
    client: Client, svc: CatDoc, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def explode(**_: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(svc, "functor_page", explode)
    error = error_of(await client.call_tool("catdoc_list_functors", {}))
    assert error["code"] == "INTERNAL_ERROR" and "disk on fire" not in error["message"]
    assert "disk on fire" in caplog.text
    monkeypatch.undo()
    assert data_of(await client.call_tool("catdoc_list_functors", {}))["total"] == 2


async def test_no_output_contains_environment_secrets(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CATDOC_TEST_TOKEN", "sk-do-not-leak-4711")
    outputs = []
    for tool, args in [
        ("catdoc_list_categories", {"includeMembers": True}),
        ("catdoc_show_object", {"objectId": "req-login"}),
        ("catdoc_validate", {}),
        ("catdoc_get_graph", {}),
        ("catdoc_show_category", {"categoryId": "$CATDOC_TEST_TOKEN"}),
        ("catdoc_import_document", {"filePath": "${CATDOC_TEST_TOKEN}.md"}),
    ]:
        result = await client.call_tool(tool, args)
        outputs.append(result.model_dump_json())
    assert not any("sk-do-not-leak-4711" in out for out in outputs)
    assert os.environ["CATDOC_TEST_TOKEN"] == "sk-do-not-leak-4711"


def nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = {"k": value}
    return value


async def test_metadata_nested_past_the_limit_is_a_validation_error(
    client: Client, svc: CatDoc, root: Path
) -> None:
    before = (root / ".catdoc" / "category.yaml").read_bytes()
    result = await client.call_tool(
        "catdoc_upsert_object",
        {"categoryId": "requirements", "objectId": "deep", "metadata": {"m": nested(70)}},
    )
    error = error_of(result)
    assert error["code"] == "VALIDATION_ERROR" and "nested more than" in error["message"]
    for depth in (600, 50_000):  # deeper than a client serialises, or Python's stack
        with pytest.raises(CatDocError) as caught:
            svc.upsert_object("requirements", "deep", {"metadata": {"m": nested(depth)}})
        assert caught.value.code == "VALIDATION_ERROR"
    assert (root / ".catdoc" / "category.yaml").read_bytes() == before


async def test_documents_of_ids_that_look_like_paths_are_read(client: Client) -> None:
    for ident in ("a:b", "C:notes", "x/y"):  # a drive letter, a path: ids all the same
        result = await client.call_tool(
            "catdoc_upsert_object",
            {"categoryId": "requirements", "objectId": ident, "content": f"text of {ident}"},
        )
        data_of(result)
        quoted = ident.replace(":", "%3A").replace("/", "%2F")
        for uri in {f"catdoc://objects/{ident.replace('/', '%2F')}", f"catdoc://objects/{quoted}"}:
            read = await client.read_resource(uri)
            assert read.contents[0].text == f"text of {ident}"  # type: ignore[union-attr]
