"""The language server: ``cudalint lsp`` as a subprocess, spoken to in real JSON-RPC.

One session walks through what an editor does: initialize, open a document with a
32-way conflict (diagnostics, in UTF-16 positions past non-ASCII text), ask for a hover
and the quick fix, apply the fix's edit as an unsaved change (didChange: the debounced
analysis of the buffer clears the diagnostic), save, shut down and exit. The project's
``pyproject.toml`` sets the arch, which the hover must show. Skipped only where pygls
cannot be imported.
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

from cudalint.lsp.positions import (
    character_to_column,
    column_to_character,
    lines_of,
    units,
)

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60.0

KERNEL = """\
#define TILE 32
__global__ void transpose(float *out, const float *in) {
    __shared__ float tile[TILE][TILE];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
    __syncthreads();
    /* é😀 */ out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launch(float *out, const float *in) {
    transpose<<<1, dim3(32, 32)>>>(out, in);
}
"""
ACCESS = "tile[threadIdx.x][threadIdx.y]"
ACCESS_LINE = 5  # 0-based


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class Client:
    """A minimal LSP client: Content-Length framing over the server's pipes."""

    def __init__(self, cwd: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR",)}
        env["PYTHONPATH"] = str(ROOT)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cudalint", "lsp", "--debounce-ms", "50"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.next_id = 0
        assert self.proc.stdout is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            assert length is not None
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict[str, Any] | None) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any] | None) -> Any:
        self.next_id += 1
        ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        reply = self.wait(lambda m: m.get("id") == ident and "method" not in m)
        assert "error" not in reply, reply
        return reply.get("result")

    def wait(self, match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no matching message from the server")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if "method" in message and "id" in message:
                # a request from the server (e.g. registration): answer it
                self.send({"id": message["id"], "result": None})
                continue
            if match(message):
                return message

    def diagnostics(self, uri: str, version: int) -> list[dict[str, Any]]:
        message = self.wait(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri
                and m["params"].get("version") == version
            )
        )
        return list(message["params"]["diagnostics"])


def _apply(text: str, edits: list[dict[str, Any]]) -> str:
    """Apply LSP TextEdits (UTF-16 positions) to ``text``."""
    lines = text.split("\n")

    def offset(pos: dict[str, int]) -> int:
        line = lines[pos["line"]]
        units_seen = 0
        i = 0
        while i < len(line) and units_seen < pos["character"]:
            units_seen += _utf16(line[i])
            i += 1
        return sum(len(x) + 1 for x in lines[: pos["line"]]) + i

    for e in sorted(
        edits,
        key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
        reverse=True,
    ):
        start, end = offset(e["range"]["start"]), offset(e["range"]["end"])
        text = text[:start] + e["newText"] + text[end:]
    return text


def test_language_server_session(tmp_path: Path) -> None:
    pytest.importorskip("pygls")
    pytest.importorskip("lsprotocol")
    (tmp_path / "pyproject.toml").write_text('[tool.cudalint]\narch = "sm_80"\n')
    source = tmp_path / "kernel.cu"
    source.write_text(KERNEL, encoding="utf-8")
    uri = source.as_uri()
    client = Client(tmp_path)
    try:
        init = client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": tmp_path.as_uri(),
                "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
            },
        )
        caps = init["capabilities"]
        assert caps["hoverProvider"]
        assert "quickfix" in caps["codeActionProvider"]["codeActionKinds"]
        assert caps.get("positionEncoding", "utf-16") == "utf-16"
        client.notify("initialized", {})

        # didOpen: the 32-way conflict, at UTF-16 positions past 'é😀'
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "cuda-cpp", "version": 1, "text": KERNEL}},
        )
        diagnostics = client.diagnostics(uri, 1)
        assert [d["code"] for d in diagnostics] == ["CL001"]
        d = diagnostics[0]
        line = KERNEL.split("\n")[ACCESS_LINE]
        start = _utf16(line[: line.index(ACCESS)])
        assert start != len(line[: line.index(ACCESS)].encode("utf-8"))  # not bytes
        assert d["range"] == {
            "start": {"line": ACCESS_LINE, "character": start},
            "end": {"line": ACCESS_LINE, "character": start + len(ACCESS)},
        }
        assert d["message"].startswith("32-way bank conflict on load of 'tile'")
        assert d["severity"] == 2 and d["source"] == "cudalint"

        # hover on the access: wavefronts, ideal, status, block shape, arch (from config)
        hover = client.request(
            "textDocument/hover",
            {
                "textDocument": {"uri": uri},
                "position": {"line": ACCESS_LINE, "character": start + 3},
            },
        )
        text = hover["contents"]["value"]
        assert "32-way bank conflict" in text
        assert "wavefronts: 32" in text and "ideal: 1" in text
        assert "status: proved" in text
        assert "block shape: (32, 32, 1) from the launch" in text
        assert "arch: sm_80" in text
        assert hover["range"] == d["range"]
        nothing = client.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}},
        )
        assert nothing is None

        # the quick fix: pad the array, as a workspace edit on the declaration
        actions = client.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]}},
        )
        assert actions, "no code action"
        action = actions[0]
        assert action["kind"] == "quickfix"
        assert action["title"].startswith("pad the last dimension")
        assert action["diagnostics"][0]["code"] == "CL001"
        edits = action["edit"]["changes"][uri]
        assert all(e["range"]["start"]["line"] == 2 for e in edits)
        fixed = _apply(KERNEL, edits)
        assert "__shared__ float tile[TILE][TILE + 1];" in fixed

        # didChange with the unsaved, fixed buffer: the analysis clears the diagnostic
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]},
        )
        assert client.diagnostics(uri, 2) == []
        hover = client.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": ACCESS_LINE, "character": start}},
        )
        assert "no bank conflict" in hover["contents"]["value"]
        assert (
            client.request(
                "textDocument/codeAction",
                {"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": []}},
            )
            == []
        )

        # didSave re-analyzes (the buffer; the file on disk still has the conflict)
        client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        assert client.diagnostics(uri, 2) == []

        assert client.request("shutdown", None) is None
        client.notify("exit", None)
        assert client.proc.wait(timeout=TIMEOUT) == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()


def test_lsp_without_pygls_says_how_to_install() -> None:
    code = (
        "import sys\n"
        "for name in ('pygls', 'lsprotocol'):\n"
        "    sys.modules[name] = None\n"
        "from cudalint.cli import main\n"
        "sys.exit(main(['lsp']))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert proc.returncode == 2
    # commands that work: cudalint is not on PyPI, so no 'pip install cudalint[lsp]'
    assert f"{sys.executable} -m pip install 'pygls>=2'" in proc.stderr
    assert "pip install '.[lsp]'" in proc.stderr and "cudalint[lsp]" not in proc.stderr
    assert "Traceback" not in proc.stderr


# --- positions -----------------------------------------------------------------------------


def test_positions_round_trip_in_every_encoding() -> None:
    text = "a\té😀b\r\nx"
    lines = lines_of(text)
    assert lines == ["a\té😀b", "x"]
    line = lines[0]
    b_byte_column = len("a\té😀".encode()) + 1  # 1-based UTF-8 byte column of 'b'
    for encoding, expected in (("utf-16", 5), ("utf-8", 8), ("utf-32", 4)):
        assert units("a\té😀", encoding) == expected
        assert column_to_character(lines, 1, b_byte_column, encoding) == (0, expected)
        assert character_to_column(lines, 0, expected, encoding) == (1, b_byte_column)
    # past the end of a line or the document: clamped
    assert column_to_character(lines, 9, 1) == (1, 0)
    assert character_to_column(lines, 0, 99) == (1, len(line.encode()) + 1)


def test_headers_with_device_code_get_diagnostics(tmp_path: Path) -> None:
    """A .h holding a kernel is analysed as directory discovery would; a plain one is not."""
    pytest.importorskip("pygls")
    pytest.importorskip("lsprotocol")
    kernel_h = tmp_path / "kernels.h"
    text = (
        "__global__ void k(float *out) {\n"
        "  __shared__ float s[32 * 32];\n"
        "  out[threadIdx.x] = s[threadIdx.x * 32];\n"
        "}\n"
    )
    kernel_h.write_text(text, encoding="utf-8")
    plain_h = tmp_path / "plain.h"
    plain_h.write_text("int f(int a);\n", encoding="utf-8")
    client = Client(tmp_path)
    try:
        client.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}},
        )
        client.notify("initialized", {})
        client.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": plain_h.as_uri(),
                    "languageId": "c",
                    "version": 1,
                    "text": "int f(int a);\n",
                }
            },
        )
        client.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": kernel_h.as_uri(),
                    "languageId": "cpp",
                    "version": 1,
                    "text": text,
                }
            },
        )
        published: list[str] = []

        def kernel_answer(m: dict[str, Any]) -> bool:
            if m.get("method") == "textDocument/publishDiagnostics":
                published.append(m["params"]["uri"])
                return bool(m["params"]["uri"] == kernel_h.as_uri())
            return False

        diagnostics = client.wait(kernel_answer)["params"]["diagnostics"]
        assert [d["code"] for d in diagnostics] == ["CL001"]
        assert diagnostics[0]["range"]["start"]["line"] == 2
        # the plain header, opened first, got nothing published (not even an empty list)
        assert plain_h.as_uri() not in published
        client.request("shutdown", None)
        client.notify("exit", None)
        # a server killed at once would leave its temporary directories in $TMPDIR
        assert client.proc.wait(timeout=TIMEOUT) == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()


def test_initialization_options_configure_the_server(tmp_path: Path) -> None:
    """The editor's initializationOptions set the server's settings: an ``exclude`` glob
    leaves its documents without diagnostics; a value of the wrong type is logged."""
    pytest.importorskip("pygls")
    pytest.importorskip("lsprotocol")
    text = (
        "__global__ void k(float *out) {\n"
        "  __shared__ float s[32 * 32];\n"
        "  out[threadIdx.x] = s[threadIdx.x * 32];\n"
        "}\n"
    )
    (tmp_path / "vendor").mkdir()
    own, vendored = tmp_path / "k.cu", tmp_path / "vendor" / "k.cu"
    for f in (own, vendored):
        f.write_text(text, encoding="utf-8")
    client = Client(tmp_path)
    try:
        logged: list[str] = []

        def log_or_reply(m: dict[str, Any]) -> bool:
            if m.get("method") == "window/logMessage":
                logged.append(m["params"]["message"])
            return m.get("id") == 1 and "method" not in m

        client.next_id = 1  # the reply is awaited by hand: its log messages come first
        client.send(
            {
                "id": 1,
                "method": "initialize",
                "params": {
                    "processId": os.getpid(),
                    "rootUri": tmp_path.as_uri(),
                    "capabilities": {},
                    "initializationOptions": {"exclude": ["vendor"], "isolated": "yes"},
                },
            }
        )
        client.wait(log_or_reply)
        client.notify("initialized", {})
        for f in (vendored, own):
            client.notify(
                "textDocument/didOpen",
                {
                    "textDocument": {
                        "uri": f.as_uri(),
                        "languageId": "cuda-cpp",
                        "version": 1,
                        "text": text,
                    }
                },
            )
        published: dict[str, list[Any]] = {}

        def both(m: dict[str, Any]) -> bool:
            if m.get("method") == "window/logMessage":
                logged.append(m["params"]["message"])
            if m.get("method") == "textDocument/publishDiagnostics":
                published[m["params"]["uri"]] = m["params"]["diagnostics"]
            return own.as_uri() in published and vendored.as_uri() in published

        client.wait(both)
        assert [d["code"] for d in published[own.as_uri()]] == ["CL001"]
        assert published[vendored.as_uri()] == []
        assert any("initializationOptions.isolated: expected a boolean" in m for m in logged)
        client.request("shutdown", None)
        client.notify("exit", None)
        assert client.proc.wait(timeout=TIMEOUT) == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()


# --- code actions: fix all, suppress on this line ------------------------------------------

TWO = """\
__global__ void two(float *out, const float *in) {
    __shared__ float a[32][32];
    __shared__ float b[32][32];
    a[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    b[threadIdx.y][threadIdx.x] = in[threadIdx.x * 32 + threadIdx.y];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.x][threadIdx.y];  // cudalint: ignore[CL003]
    out[threadIdx.x] += b[threadIdx.x][threadIdx.y];
}

void launch(float *out, const float *in) {
    two<<<1, dim3(32, 32)>>>(out, in);
}"""  # no newline at the end: fix-all's edit must still land


def test_fix_all_and_suppress_on_this_line(tmp_path: Path) -> None:
    """Column reads of a[32][32] and b[32][32] by lanes threadIdx.x = 0..31: words 32*i,
    all in bank 0, a 32-way conflict each; padded to [32][33] (words 33*i: banks i)
    neither conflicts."""
    pytest.importorskip("pygls")
    pytest.importorskip("lsprotocol")
    source = tmp_path / "two.cu"
    source.write_text(TWO, encoding="utf-8")
    uri = source.as_uri()
    client = Client(tmp_path)
    try:
        init = client.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}},
        )
        kinds = init["capabilities"]["codeActionProvider"]["codeActionKinds"]
        assert "quickfix" in kinds and "source.fixAll.cudalint" in kinds
        client.notify("initialized", {})
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "cuda-cpp", "version": 1, "text": TWO}},
        )
        diagnostics = client.diagnostics(uri, 1)
        assert [(d["code"], d["range"]["start"]["line"]) for d in diagnostics] == [
            ("CL001", 6),
            ("CL001", 7),
        ]
        everywhere = {"start": {"line": 0, "character": 0}, "end": {"line": 13, "character": 0}}

        def actions(
            only: list[str] | None, rng: dict[str, Any] = everywhere
        ) -> list[dict[str, Any]]:
            context: dict[str, Any] = {"diagnostics": diagnostics}
            if only is not None:
                context["only"] = only
            return list(
                client.request(
                    "textDocument/codeAction",
                    {"textDocument": {"uri": uri}, "range": rng, "context": context},
                )
            )

        # fix all: asked for as editor.codeActionsOnSave asks (only: source.fixAll)
        for only in (["source.fixAll"], ["source"], ["source.fixAll.cudalint"]):
            (fix_all,) = actions(only)
            assert fix_all["kind"] == "source.fixAll.cudalint"
            assert "diagnostics" not in fix_all or not fix_all["diagnostics"]
        assert fix_all["title"] == "cudalint: fix all (2 safe fixes)"
        (edit,) = fix_all["edit"]["changes"][uri]
        assert edit["range"] == {
            "start": {"line": 1, "character": 0},
            "end": {"line": 3, "character": 0},
        }
        fixed = _apply(TWO, [edit])
        assert fixed == TWO.replace("[32][32];", "[32][33];")
        # quick fixes alone: no fix-all; no kind asked: both
        assert all(a["kind"] == "quickfix" for a in actions(["quickfix"]))
        assert "source.fixAll.cudalint" in [a["kind"] for a in actions(None)]
        assert actions(["refactor"]) == []

        # suppress on this line: merged into the comment line 7 (0-based 6) already has
        on_a = actions(["quickfix"], diagnostics[0]["range"])
        assert [a["title"] for a in on_a] == [
            "pad the last dimension: a[32][33] (+128 bytes per block)",
            "Suppress CL001 on this line",
        ]
        (merge,) = on_a[1]["edit"]["changes"][uri]
        suppressed = _apply(TWO, [merge])
        assert suppressed.split("\n")[6].endswith(
            "a[threadIdx.x][threadIdx.y];  // cudalint: ignore[CL001, CL003]"
        )
        assert on_a[1]["diagnostics"][0]["range"] == diagnostics[0]["range"]
        # ... and appended to line 8 (0-based 7), which has no comment
        on_b = actions(None, diagnostics[1]["range"])
        (append,) = next(a for a in on_b if a["title"] == "Suppress CL001 on this line")["edit"][
            "changes"
        ][uri]
        suppressed = _apply(suppressed, [append])
        assert suppressed.split("\n")[7] == (
            "    out[threadIdx.x] += b[threadIdx.x][threadIdx.y];  // cudalint: ignore[CL001]"
        )

        # the edited buffers: fixed has no finding, suppressed shows none either
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]},
        )
        assert client.diagnostics(uri, 2) == []
        assert actions(None) == []  # nothing to fix or suppress any more
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": suppressed}]},
        )
        assert client.diagnostics(uri, 3) == []
        client.request("shutdown", None)
        client.notify("exit", None)
        assert client.proc.wait(timeout=TIMEOUT) == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()


def test_fix_all_edit_spans_the_changed_lines() -> None:
    pytest.importorskip("lsprotocol")
    from cudalint.lsp.server import _lines_edit

    def check(old: str, new: str) -> None:
        e = _lines_edit(old, new, "utf-16")
        got = _apply(
            old,
            [
                {
                    "range": {
                        "start": {"line": e.range.start.line, "character": e.range.start.character},
                        "end": {"line": e.range.end.line, "character": e.range.end.character},
                    },
                    "newText": e.new_text,
                }
            ],
        )
        assert got == new, (old, new, e)

    check("a\nb\nc\n", "a\nB\nc\n")
    check("a\nb\nc", "a\nb\nC")  # the open last line
    check("a\nb\nc", "a\nb\nc\nd")
    check("é😀\r\nx\r\n", "é😀\r\ny\r\nz\r\n")
    check("a\na\na\n", "a\na\n")
    check("", "x\n")
    e = _lines_edit("a\nb\nc", "a\nB\nc", "utf-16")
    assert (e.range.start.line, e.range.end.line, e.new_text) == (1, 2, "B\n")
