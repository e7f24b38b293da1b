"""`catdoc mcp` over a real stdio pipe against hostile lines, written raw (no client library).

Every line with an id gets an answer with that id, a line that cannot be read gets an error with
id null, nothing echoed or logged grows with the input, one message is bounded in size, and the
server leaves when stdin closes, even with a call stuck. After each case `ping` still answers.
Every wait has a timeout, so a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browse_project import copy_example
from mcp.types import ErrorData, JSONRPCError, JSONRPCResponse

from catdoc.mcp_transport import (
    MAX_BATCH_REPLIES,
    MAX_ECHO_CHARS,
    MAX_ERROR_CHARS,
    MAX_MESSAGE_BYTES,
    LineFramer,
    TooLong,
    encode_message,
    read_message,
)

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
WAIT = 60.0  # seconds; only ever reached when the server has stopped answering
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND = -32700, -32600, -32601
TEN_MB = 10_000_000


class RawServer:
    """A `catdoc mcp` subprocess spoken to in raw lines; stdout is read on a thread."""

    def __init__(self, root: Path, log: Path, program: list[str] | None = None) -> None:
        self.log = log
        self._ids = itertools.count(1000)
        with log.open("wb") as stderr:
            self.proc = subprocess.Popen(
                program or [sys.executable, "-m", "catdoc", "mcp", "--project", str(root)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                cwd=root,
                env={**os.environ, "PYTHONPATH": str(REPO)},
            )
        self._lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.send(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            }
        )
        assert "result" in self.answer_to(0)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(b"")

    def write(self, data: bytes) -> None:
        """Write raw bytes on a thread, so a server that stops reading fails the test."""
        assert self.proc.stdin is not None
        stdin = self.proc.stdin

        def push() -> None:
            stdin.write(data)
            stdin.flush()

        writer = threading.Thread(target=push, daemon=True)
        writer.start()
        writer.join(WAIT)
        assert not writer.is_alive(), "the server stopped reading stdin"

    def send(self, message: Any) -> None:
        self.write(json.dumps(message).encode() + b"\n")

    def next_answer(self) -> Any:
        """The next line that answers something (notifications the server sends are skipped)."""
        while True:
            try:
                line = self._lines.get(timeout=WAIT)
            except queue.Empty:
                pytest.fail(f"no answer within {WAIT:.0f} s")
            assert line, "the server closed stdout"
            message = json.loads(line)  # every stdout line is JSON
            if not (isinstance(message, dict) and "method" in message and "id" not in message):
                return message

    def answer_to(self, request_id: Any) -> dict[str, Any]:
        while True:
            answer = self.next_answer()
            if isinstance(answer, dict) and answer.get("id", "-") == request_id:
                return answer

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        request_id = next(self._ids)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.answer_to(request_id)

    def ping(self) -> None:
        assert self.call("ping")["result"] == {}

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            pytest.fail("the server did not exit after stdin closed")

    def peak_memory_kib(self) -> int | None:
        status = Path(f"/proc/{self.proc.pid}/status")
        if not status.exists():
            return None
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return None


@pytest.fixture
def server(example_copy: Path, tmp_path: Path) -> Iterator[RawServer]:
    raw = RawServer(example_copy, tmp_path / "stderr.log")
    yield raw
    if raw.proc.poll() is None:
        assert raw.close() == 0


@pytest.fixture(scope="module")
def survivor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawServer]:
    """One server that takes every hostile line of the parametrised cases in turn."""
    base = tmp_path_factory.mktemp("survivor")
    raw = RawServer(copy_example("traceability", base / "proj"), base / "stderr.log")
    yield raw
    assert raw.close() == 0


def tool_call(request_id: Any, name: str, arguments: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


def tool_error(answer: dict[str, Any]) -> dict[str, Any]:
    result = answer["result"]
    assert result["isError"] is True
    return json.loads(result["content"][0]["text"])["error"]


# ---------------------------------------------------------------- lone surrogates


SURROGATE_CALLS = [
    ("catdoc_show_object", {"objectId": "\ud800"}),
    ("catdoc_search", {"query": "login \udfff"}),
    ("catdoc_list_objects", {"tags": ["\ud83d"], "domain": "x\udc00y"}),
    ("catdoc_import_document", {"filePath": "docs/\ud800.md"}),
    ("catdoc_show_category", {"categoryId": "\ud800"}),
    ("catdoc_trace", {"sourceId": "\ud800", "targetId": "\udbff"}),
    ("catdoc_\ud800", {}),
    ("catdoc_list_categories", {"\ud800": 1}),
]


def test_lone_surrogates_in_arguments_are_answered(server: RawServer) -> None:
    for number, (name, arguments) in enumerate(SURROGATE_CALLS, 1):
        # json.dumps spells a lone surrogate as the escape "\ud800" (valid JSON text)
        server.send(tool_call(number, name, arguments))
        answer = server.answer_to(number)
        assert "result" in answer, (name, answer)
        assert answer["result"].get("isError") in (None, False) or tool_error(answer)["code"]
        assert "INTERNAL_ERROR" not in json.dumps(answer)
        server.ping()


def test_answers_that_carry_a_lone_surrogate_are_sent_as_replacement() -> None:
    """Text from disk may hold one (a YAML escape, a surrogate-escaped file name); the answer
    must still be UTF-8 that any client can parse, and an unencodable one an error for its id."""
    result = {"content": [{"type": "text", "text": "bad \ud800 title"}], "isError": False}
    line = encode_message(JSONRPCResponse(jsonrpc="2.0", id=4, result=result))
    answer = json.loads(line.decode("utf-8"))
    assert answer["id"] == 4 and answer["result"]["content"][0]["text"] == "bad \ufffd title"
    error = JSONRPCError(
        jsonrpc="2.0", id="e", error=ErrorData(code=-32601, message="m" * 10**6, data="d" * 10**6)
    )
    answer = json.loads(encode_message(error))
    assert len(answer["error"]["message"]) <= MAX_ERROR_CHARS + 50
    assert len(answer["error"]["data"]) <= MAX_ECHO_CHARS + 50


# ---------------------------------------------------------------- not JSON-RPC 2.0

UNREADABLE = [
    b"this is not JSON at all",
    b'{"jsonrpc": "2.0", "id": 1, "method": "ping"',
    b'{"jsonrpc": "2.0", "id": NaN, "method": "ping"}',
    b"[" * 100_000 + b"]" * 100_000,
    b"\xff\xfe\x00 not utf-8",
    b'{"jsonrpc": "2.0", "id": 1, "method": "ping"} trailing',
]


@pytest.mark.parametrize("line", UNREADABLE, ids=lambda line: repr(line[:20]))
def test_unreadable_lines_get_a_parse_error(survivor: RawServer, line: bytes) -> None:
    survivor.write(line + b"\n")
    answer = survivor.next_answer()
    assert answer == {"jsonrpc": "2.0", "id": None, "error": answer["error"]}
    assert answer["error"]["code"] == PARSE_ERROR
    survivor.ping()


INVALID = [
    ({"jsonrpc": "1.0", "id": 7, "method": "ping"}, 7),
    ({"id": 7, "method": "ping"}, 7),
    ({"jsonrpc": "2.0", "id": 7}, 7),
    ({"jsonrpc": "2.0", "id": 7, "method": 42}, 7),
    ({"jsonrpc": "2.0", "id": "7", "method": "ping", "params": [1, 2]}, "7"),
    ({"jsonrpc": "2.0", "id": 7, "result": {}, "error": {"code": 1, "message": "x"}}, 7),
    ({"jsonrpc": "2.0", "id": True, "method": "ping"}, None),
    ({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}, None),
    ({"jsonrpc": "2.0", "id": None, "method": "ping"}, None),
    ({"jsonrpc": "2.0", "id": {"nested": 1}, "method": "ping"}, None),
    ({"jsonrpc": "2.0", "id": [1], "method": "ping"}, None),
    ({"jsonrpc": "2.0", "method": "ping", "params": "text"}, None),
    ("a string", None),
    (42, None),
    (None, None),
    ({}, None),
]


@pytest.mark.parametrize(("message", "answer_id"), INVALID, ids=lambda value: repr(value)[:40])
def test_invalid_requests_get_invalid_request(
    survivor: RawServer, message: Any, answer_id: Any
) -> None:
    survivor.send(message)
    answer = survivor.next_answer()
    assert answer["id"] == answer_id
    assert answer["error"]["code"] == INVALID_REQUEST
    survivor.ping()


def test_batches_are_refused_member_by_member(server: RawServer) -> None:
    server.send([])
    assert server.next_answer()["error"]["code"] == INVALID_REQUEST
    batch = [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "two", "method": "tools/list"},
        3,
    ]
    server.send(batch)
    answers = server.next_answer()
    assert [a["id"] for a in answers] == [1, "two", None]
    assert {a["error"]["code"] for a in answers} == {INVALID_REQUEST}
    server.ping()
    server.send([{"jsonrpc": "2.0", "id": n, "method": "ping"} for n in range(100_000)] + [0])
    answers = server.next_answer()
    assert [a["id"] for a in answers] == [*range(MAX_BATCH_REPLIES), None]
    server.ping()


def test_blank_lines_and_unknown_notifications_are_ignored(server: RawServer) -> None:
    server.write(b"\n   \n\r\n")
    server.send({"jsonrpc": "2.0", "method": "notifications/no-such-thing"})
    server.ping()  # the ping's answer is the next line: nothing else was answered


# ---------------------------------------------------------------- huge values


HUGE = "x" * TEN_MB
HUGE_CASES = [
    ("tool name", tool_call(1, HUGE, {}), 1),
    ("argument name", tool_call(1, "catdoc_list_categories", {HUGE: 1}), 1),
    ("argument value", tool_call(1, "catdoc_show_object", {"objectId": HUGE}), 1),
    ("category", tool_call(1, "catdoc_show_category", {"categoryId": HUGE}), 1),
    ("many arguments", tool_call(1, "catdoc_search", {f"k{i}": i for i in range(50_000)}), 1),
    ("request id", {"jsonrpc": "2.0", "id": HUGE, "method": "ping"}, None),
    ("method", {"jsonrpc": "2.0", "id": 1, "method": HUGE}, 1),
    (
        "resource",
        {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": HUGE}},
        1,
    ),
    ("notification", {"jsonrpc": "2.0", "method": HUGE, "params": {"x": HUGE}}, "none"),
]


@pytest.mark.parametrize(("case", "message", "answer_id"), HUGE_CASES, ids=lambda v: str(v)[:20])
def test_huge_values_are_not_echoed_or_logged_in_full(
    survivor: RawServer, case: str, message: dict[str, Any], answer_id: Any
) -> None:
    logged = survivor.log.stat().st_size
    survivor.send(message)
    if answer_id != "none":
        answer = survivor.answer_to(answer_id)
        text = json.dumps(answer, ensure_ascii=False)
        assert len(text) < MAX_ERROR_CHARS + 1_000, case
        assert "error" in answer or answer["result"]["isError"], case
    survivor.ping()
    assert survivor.log.stat().st_size - logged < 20_000, case


# ---------------------------------------------------------------- message size


def test_an_over_long_message_is_skipped_in_bounded_memory(server: RawServer) -> None:
    server.ping()
    before = server.peak_memory_kib()
    head = b'{"jsonrpc": "2.0", "id": 5, "method": "ping", "params": {"x": "'
    server.write(head + b"y" * (100 * 1024 * 1024) + b'"}}\n')
    answer = server.next_answer()
    assert answer["id"] is None and answer["error"]["code"] == INVALID_REQUEST
    assert f"{MAX_MESSAGE_BYTES:,}" in answer["error"]["message"]
    server.ping()
    after = server.peak_memory_kib()
    if before is not None and after is not None:
        assert after - before < 4 * MAX_MESSAGE_BYTES // 1024


def test_a_message_just_under_the_limit_is_served(server: RawServer) -> None:
    padding = "z" * (MAX_MESSAGE_BYTES - 200)
    server.send({"jsonrpc": "2.0", "id": 9, "method": "ping", "params": {"_meta": {"p": padding}}})
    assert server.answer_to(9)["result"] == {}


def test_line_framer_bounds_each_line() -> None:
    framer = LineFramer(limit=10)
    out = list(framer.feed(b"short\n0123456789ABC"))
    out += list(framer.feed(b"DEF\nok"))
    out += list(framer.close())
    assert out == [b"short", TooLong(16), b"ok"]
    assert list(LineFramer(limit=10).feed(b"0123456789\n")) == [b"0123456789"]


def test_read_message_shortens_what_it_quotes() -> None:
    answer = read_message(b'{"jsonrpc": "2.0", "id": "' + b"i" * 10_000 + b'", "method": "ping"}')
    assert isinstance(answer, dict) and answer["id"] is None
    assert len(answer["error"]["message"]) < 4 * MAX_ECHO_CHARS


# ---------------------------------------------------------------- shutdown

STUCK_SERVER = """
import sys, threading
from catdoc.mcp_server import main
from catdoc.service import CatDoc

def stuck(self, *args, **kwargs):
    print("stuck tool started", file=sys.stderr, flush=True)
    threading.Event().wait()

CatDoc.functor_page = stuck
sys.exit(main(["--project", sys.argv[1]]))
"""


def test_exits_when_stdin_closes_with_a_call_stuck(example_copy: Path, tmp_path: Path) -> None:
    log = tmp_path / "stderr.log"
    raw = RawServer(example_copy, log, [sys.executable, "-c", STUCK_SERVER, str(example_copy)])
    raw.send(tool_call(1, "catdoc_list_functors", {}))
    raw.ping()  # the stuck call does not block other requests
    assert raw.close() == 0
    assert "stuck tool started" in log.read_text()


def test_exits_when_stdin_closes_mid_message(server: RawServer) -> None:
    server.write(b'{"jsonrpc": "2.0", "id": 3, "method": "pi')
    assert server.close() == 0


def test_exits_when_the_client_stops_reading(example_copy: Path, tmp_path: Path) -> None:
    with (tmp_path / "stderr.log").open("wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "catdoc", "mcp", "--project", str(example_copy)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdout.close()  # nobody will read the answers; stdin stays open
    proc.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n')
    proc.stdin.flush()
    try:
        assert proc.wait(timeout=WAIT) == 0
    finally:
        proc.kill()
        proc.stdin.close()
    assert "Cannot write to stdout" in (tmp_path / "stderr.log").read_text()
