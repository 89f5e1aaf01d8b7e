"""Issue 17 item 10: the language server under hostile input, driven over real pipes.

Every malformed message gets its JSON-RPC 2.0 error (-32700 parse error, -32600
invalid request, -32602 invalid params), nothing on stderr looks like a traceback, and
the server keeps answering: after each bad message a request (an unknown method, which
must come back as -32601) proves it still reads its input in step.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import pytest

from cudalint.lsp.transport import MAX_BODY, Framing, FramingError

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60.0

KERNEL = """\
__global__ void k(float *out) {
    __shared__ float tile[32][32];
    tile[threadIdx.x][0] = out[threadIdx.x];
}
"""


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def message(obj: dict[str, Any]) -> bytes:
    return frame(json.dumps({"jsonrpc": "2.0", **obj}).encode("utf-8"))


class RawClient:
    """Writes raw bytes to ``cudalint lsp`` and reads its framed replies."""

    def __init__(self, cwd: Path) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cudalint", "lsp", "--debounce-ms", "0"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.stderr = b""
        assert self.proc.stdout is not None and self.proc.stderr is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        threading.Thread(target=self._err, args=(self.proc.stderr,), daemon=True).start()
        self.next_id = 1000

    def _err(self, stream: IO[bytes]) -> None:
        for chunk in iter(lambda: stream.read(1), b""):
            self.stderr += chunk

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            assert length is not None
            self.messages.put(json.loads(stream.read(length)))

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def wait(self, match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching message; stderr: {self.stderr[-2000:]!r}")
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if "method" in m and "id" in m:
                self.write(message({"id": m["id"], "result": None}))
                continue
            if match(m):
                return m

    def error(self, msg_id: Any = None) -> dict[str, Any]:
        """The next error response (with ``msg_id``)."""
        reply = self.wait(lambda m: "error" in m and m.get("id") == msg_id)
        return dict(reply["error"])

    def alive(self) -> None:
        """A request the server must answer (in step): an unknown method, -32601."""
        self.next_id += 1
        ident = self.next_id
        self.write(message({"id": ident, "method": "cudalint/ping", "params": {}}))
        assert self.error(ident)["code"] == -32601

    def initialize(self) -> None:
        self.write(
            message(
                {
                    "id": 1,
                    "method": "initialize",
                    "params": {"processId": None, "rootUri": None, "capabilities": {}},
                }
            )
        )
        self.wait(lambda m: m.get("id") == 1 and "result" in m)
        self.write(message({"method": "initialized", "params": {}}))

    def close(self) -> tuple[int, bytes]:
        self.write(message({"id": 2, "method": "shutdown"}))
        self.wait(lambda m: m.get("id") == 2)
        self.write(message({"method": "exit"}))
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=TIMEOUT)
        time.sleep(0.1)
        return code, self.stderr


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    c = RawClient(tmp_path)
    c.initialize()
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait()


def _no_traceback(stderr: bytes) -> None:
    assert b"Traceback" not in stderr, stderr.decode(errors="replace")
    assert b"internal error" not in stderr, stderr.decode(errors="replace")


def test_bad_json_is_a_parse_error_and_the_server_reads_on(client: RawClient) -> None:
    client.write(frame(b'{"jsonrpc": "2.0", "id": 5, "method": '))
    error = client.error(None)
    assert error["code"] == -32700 and "JSON" in error["message"]
    client.alive()
    # nested deeper than Python's recursion limit: still a parse error, not a crash
    client.write(frame(b"[" * 100_000 + b"]" * 100_000))
    assert client.error(None)["code"] == -32700
    client.alive()
    code, stderr = client.close()
    assert code == 0
    _no_traceback(stderr)


def test_a_body_that_is_not_utf8_is_a_parse_error_with_its_id(client: RawClient) -> None:
    client.write(frame(b'{"jsonrpc":"2.0","id":6,"method":"textDocument/hover\xff"}'))
    error = client.error(6)
    assert error["code"] == -32700 and "UTF-8" in error["message"]
    client.write(frame(b'{"jsonrpc":"2.0","method":"x\xfe\xff"}'))  # a notification
    assert client.error(None)["code"] == -32700
    client.alive()
    _no_traceback(client.close()[1])


@pytest.mark.parametrize(
    "header",
    [
        b"Content-Length: abc\r\n\r\n{}",  # not a number
        b"Content-Length: -5\r\n\r\n",  # negative
        b"Content-Type: application/json\r\n\r\n{}",  # no Content-Length
        b"Content-Length: %d\r\n\r\n" % (MAX_BODY + 1),  # past the limit
        b"Content-Length: 99999999999999999999999\r\n\r\n{}",  # past any index
        b"no header at all\r\n\r\n",
    ],
)
def test_a_bad_header_is_answered_and_the_next_message_is_read(
    client: RawClient, header: bytes
) -> None:
    client.write(header)
    error = client.error(None)
    assert error["code"] == -32700
    client.alive()
    client.alive()
    code, stderr = client.close()
    assert code == 0
    _no_traceback(stderr)


def test_invalid_requests_get_invalid_request_errors(client: RawClient) -> None:
    client.write(frame(b"[1, 2, 3]"))  # a batch
    assert client.error(None)["code"] == -32600
    client.write(frame(b'"just a string"'))
    assert client.error(None)["code"] == -32600
    client.write(frame(b'{"jsonrpc": "2.0", "id": 7, "method": 5}'))
    assert client.error(7)["code"] == -32600
    client.write(frame(b'{"jsonrpc": "1.0", "id": 8, "method": "shutdown"}'))
    assert client.error(8)["code"] == -32600
    client.write(frame(b'{"jsonrpc": "2.0", "id": [1], "method": "shutdown"}'))
    assert client.error(None)["code"] == -32600
    client.alive()
    _no_traceback(client.close()[1])


def test_out_of_range_positions_are_answered(client: RawClient, tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_text(KERNEL)
    uri = path.as_uri()
    client.write(
        message(
            {
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": KERNEL}
                },
            }
        )
    )
    client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")

    def hover(ident: int, line: int, character: int) -> None:
        client.write(
            message(
                {
                    "id": ident,
                    "method": "textDocument/hover",
                    "params": {
                        "textDocument": {"uri": uri},
                        "position": {"line": line, "character": character},
                    },
                }
            )
        )

    hover(10, -1, -5)  # not a uinteger: invalid params
    error = client.error(10)
    assert error["code"] == -32602 and "line" in error["message"]
    hover(11, 2**40, 2**40)  # past the uinteger range
    assert client.error(11)["code"] == -32602
    hover(12, 100_000, 100_000)  # valid, past the document: an answer (no hover)
    reply = client.wait(lambda m: m.get("id") == 12)
    assert "error" not in reply and reply["result"] is None
    hover(13, 2, 4)  # the access itself still hovers
    reply = client.wait(lambda m: m.get("id") == 13)
    assert "32-way" in reply["result"]["contents"]["value"]
    client.write(
        message(
            {"id": 14, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}}}
        )
    )  # no position at all
    assert client.error(14)["code"] == -32602
    client.alive()
    _no_traceback(client.close()[1])


def test_data_between_messages_and_short_bodies_resynchronise(client: RawClient) -> None:
    # a body shorter than its Content-Length swallows the start of the next message;
    # what is left of it is reported and the message after that is read
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 20, "method": "cudalint/ping", "params": {}}
    ).encode()
    client.write(b"Content-Length: 10\r\n\r\n" + body)
    client.write(b"garbage without any header\r\n")
    client.alive()
    _no_traceback(client.close()[1])


def test_the_end_of_input_inside_a_message_ends_the_server_cleanly(tmp_path: Path) -> None:
    c = RawClient(tmp_path)
    c.initialize()
    c.write(b'Content-Length: 500\r\n\r\n{"jsonrpc"')
    assert c.proc.stdin is not None
    c.proc.stdin.close()
    assert c.proc.wait(timeout=TIMEOUT) == 0
    time.sleep(0.1)
    _no_traceback(c.stderr)


# --- the framing alone -------------------------------------------------------------------


def _framing(data: bytes) -> tuple[Framing, list[str]]:
    import io

    stream = io.BytesIO(data)
    stray: list[str] = []

    async def readline() -> bytes:
        return stream.readline(8192)

    async def read(n: int) -> bytes:
        return stream.read(n)

    return Framing(readline, read, stray.append), stray


def _all(data: bytes) -> tuple[list[bytes | str], list[str]]:
    import asyncio

    framing, stray = _framing(data)
    out: list[bytes | str] = []

    async def run() -> None:
        while True:
            try:
                body = await framing.message()
            except FramingError as exc:
                out.append(f"error: {exc}")
                continue
            if body is None:
                return
            out.append(body)

    asyncio.run(run())
    return out, stray


def test_framing_reads_lenient_headers() -> None:
    out, stray = _all(
        b"content-length:2\n\n{}\r\n\r\nContent-Length: 2\r\n"
        b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[]"
    )
    assert out == [b"{}", b"[]"] and stray == []


def test_framing_skips_to_the_next_content_length_after_a_bad_header() -> None:
    out, _ = _all(b'Content-Length: x\r\n\r\n{"a": 1}Content-Length: 2\r\n\r\n{}')
    assert out == ["error: invalid Content-Length: 'x'", b"{}"]
    out, _ = _all(b"Content-Length: 2\r\nBogus\r\n\r\n{}Content-Length: 2\r\n\r\n[]")
    assert out == ["error: not a header line: 'Bogus'", b"[]"]


def test_framing_bounds_a_stream_without_newlines() -> None:
    out, stray = _all(b"x" * 100_000 + b"\r\nContent-Length: 2\r\n\r\n{}")
    assert out == [b"{}"]
    assert len(stray) == 1  # one report for the whole run of data


def test_edits_and_requests_past_the_document_keep_the_server_serving(
    client: RawClient, tmp_path: Path
) -> None:
    path = tmp_path / "k.cu"
    path.write_text(KERNEL)
    uri = path.as_uri()
    client.write(
        message(
            {
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": KERNEL}
                },
            }
        )
    )
    client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    far = {"start": {"line": 500, "character": 9}, "end": {"line": 900, "character": 1}}
    client.write(
        message(
            {
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {"uri": uri, "version": 2},
                    "contentChanges": [{"range": far, "text": "// tail\n"}],
                },
            }
        )
    )
    # a change to a document that was never opened
    client.write(
        message(
            {
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {"uri": (tmp_path / "other.cu").as_uri(), "version": 2},
                    "contentChanges": [{"range": far, "text": "x"}],
                },
            }
        )
    )
    client.write(
        message(
            {
                "id": 30,
                "method": "textDocument/codeAction",
                "params": {
                    "textDocument": {"uri": uri},
                    "range": far,
                    "context": {"diagnostics": []},
                },
            }
        )
    )
    reply = client.wait(lambda m: m.get("id") == 30)
    assert "error" not in reply
    client.write(
        message(
            {
                "id": 31,
                "method": "textDocument/hover",
                "params": {
                    "textDocument": {"uri": (tmp_path / "missing.cu").as_uri()},
                    "position": {"line": 0, "character": 0},
                },
            }
        )
    )
    reply = client.wait(lambda m: m.get("id") == 31)
    assert reply.get("result") is None
    client.alive()
    _no_traceback(client.close()[1])
