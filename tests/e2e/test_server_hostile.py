"""`memcheck server` fed what no well-behaved editor sends, over raw JSON-RPC on
pipes (pytest-lsp's client only sends well-typed messages): each request gets an
answer, standard output carries only protocol messages, and the server ends when
told to, shutdown or not."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any, Iterator

import pytest
from conftest import git

pytestmark = pytest.mark.e2e

WAIT = 20.0  # seconds: generous, for a loaded CI machine; a passing run waits far less


class RawClient:
    def __init__(self, root: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MEMCHECK_"))}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "memcheck", "server"],
            cwd=root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.received: queue.Queue[dict[str, Any] | None] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, out: IO[bytes]) -> None:
        for message in frames(out):
            self.received.put(message)
        self.received.put(None)

    def send(self, body: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.process.stdin.flush()

    def request(self, msg_id: int, method: str, params: Any) -> None:
        self.send(json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}).encode())

    def notify(self, method: str, params: Any) -> None:
        self.send(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode())

    def answer(self, msg_id: int) -> dict[str, Any]:
        """The response to request ``msg_id``; the server's own requests are answered."""
        while True:
            message = self.received.get(timeout=WAIT)
            assert message is not None, "the server ended"
            assert "stray" not in message
            if "method" in message and "id" in message:
                self.send(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}).encode())
            elif message.get("id") == msg_id:
                return message

    def diagnostics(self, uri: str, code: str) -> list[dict[str, Any]]:
        """The first diagnostics published for ``uri`` that hold a finding ``code``."""
        while True:
            message = self.received.get(timeout=WAIT)
            assert message is not None, "the server ended"
            if "method" in message and "id" in message:
                self.send(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}).encode())
            elif message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                found: list[dict[str, Any]] = message["params"]["diagnostics"]
                if any(d["code"] == code for d in found):
                    return found

    def open(self, uri: str, text: str) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}})


def frames(out: IO[bytes]) -> Iterator[dict[str, Any]]:
    """The messages on the server's standard output; anything else (a traceback, a
    print) is yielded as ``{"stray": line}``."""
    while True:
        headers: dict[bytes, bytes] = {}
        while (line := out.readline()) not in (b"\r\n", b""):
            name, colon, value = line.partition(b":")
            if not colon:
                yield {"stray": line.decode("utf-8", "replace")}
            headers[name.strip().lower()] = value.strip()
        if not line:
            return
        yield json.loads(out.read(int(headers[b"content-length"])))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[RawClient]:
    git(tmp_path, "-c", "init.defaultBranch=main", "init", "-q")
    with _served(tmp_path) as started:
        yield started


@contextlib.contextmanager
def _served(root: Path) -> Iterator[RawClient]:
    started = RawClient(root)
    try:
        started.request(1, "initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}})
        assert "capabilities" in started.answer(1)["result"]
        started.notify("initialized", {})
        yield started
    finally:
        if started.process.poll() is None:
            started.process.kill()
        started.process.wait()


def test_a_request_with_params_of_the_wrong_type_is_answered_with_an_error(client: RawClient, tmp_path: Path) -> None:
    uri = (tmp_path / "AGENTS.md").as_uri()
    # A negative position: no Position, so the request cannot be read; the editor
    # waiting for its answer must get one.
    bad_range = {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}}
    client.request(7, "textDocument/codeAction", {"textDocument": {"uri": uri}, "range": bad_range, "context": {"diagnostics": []}})
    assert client.answer(7)["error"]["code"] == -32602  # invalid params
    client.request(8, "textDocument/codeAction", {"bogus": 1})
    assert client.answer(8)["error"]["code"] == -32602
    # And the server answers the next, well-formed request.
    good_range = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
    client.request(9, "textDocument/codeAction", {"textDocument": {"uri": uri}, "range": good_range, "context": {"diagnostics": []}})
    assert "error" not in client.answer(9)


def test_exit_without_shutdown_ends_the_server(client: RawClient) -> None:
    client.notify("exit", None)
    # The protocol's status for an exit not preceded by shutdown.
    assert client.process.wait(timeout=WAIT) == 1


TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_a_lone_surrogate_in_one_document_is_a_finding_and_the_others_are_still_checked(client: RawClient, tmp_path: Path) -> None:
    # JSON may carry a lone surrogate, which UTF-8 cannot hold: that document is not
    # valid UTF-8 (a finding), and every later document is checked as before.
    claude = (tmp_path / "CLAUDE.md").as_uri()
    client.open(claude, "# P \ud800\n")
    assert "is not valid UTF-8" in " ".join(d["message"] for d in client.diagnostics(claude, "GDN003"))
    agents = (tmp_path / "AGENTS.md").as_uri()
    client.open(agents, f"# A\n\ntoken {TOKEN}\n")
    assert client.diagnostics(agents, "SEC002")


def test_a_memory_linked_to_a_device_or_a_fifo_is_a_finding_not_a_hang(tmp_path: Path) -> None:
    # Where a finding's position falls, the server once read the file on disk whole:
    # a memory linked to /dev/zero never ended.
    git(tmp_path, "-c", "init.defaultBranch=main", "init", "-q")
    store = tmp_path / ".claude" / "memory"
    store.mkdir(parents=True)
    (store / "MEMORY.md").write_text("# M\n")
    (store / "z.md").symlink_to("/dev/zero")
    os.mkfifo(store / "f.md")
    with _served(tmp_path) as client:
        assert client.diagnostics((store / "z.md").as_uri(), "MEM022")
        agents = (tmp_path / "AGENTS.md").as_uri()
        client.open(agents, f"# A\n\ntoken {TOKEN}\n")
        assert client.diagnostics(agents, "SEC002")


def test_a_huge_content_length_ends_the_session_as_end_of_input_does_never_out_of_memory(tmp_path: Path) -> None:
    # pygls read a body in one read of the length the header gave: 99999999999999
    # bytes asked for that much memory at once ("internal error: MemoryError", 2).
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MEMCHECK_"))}
    ended = subprocess.run(
        [sys.executable, "-m", "memcheck", "server"],
        cwd=tmp_path,
        env=env,
        input=b"Content-Length: 99999999999999\r\n\r\n{}",
        capture_output=True,
        timeout=WAIT,
    )
    assert ended.returncode == 1  # input ended without shutdown, as the protocol says
    assert b"MemoryError" not in ended.stderr and b"Traceback" not in ended.stderr


def test_a_message_past_the_bound_is_passed_over_and_the_session_goes_on(client: RawClient) -> None:
    size = (64 << 20) + 1
    assert client.process.stdin is not None
    client.process.stdin.write(b"Content-Length: %d\r\n\r\n" % size + b" " * size)
    client.request(2, "shutdown", None)
    assert client.answer(2)["result"] is None


def test_settings_broken_from_the_start_give_way_to_the_defaults_not_to_no_checking(tmp_path: Path) -> None:
    # docs/language-server.md: the server keeps running on broken settings. Broken
    # from the start there are no last valid ones: it checks with the defaults.
    git(tmp_path, "-c", "init.defaultBranch=main", "init", "-q")
    os.mkfifo(tmp_path / ".memcheck.yaml")
    with _served(tmp_path) as client:
        agents = (tmp_path / "AGENTS.md").as_uri()
        client.open(agents, f"# A\n\ntoken {TOKEN}\n")
        assert client.diagnostics(agents, "SEC002")
