"""Editor latency of ``cudalint lsp``: from ``didChange`` to the published diagnostics.

A real LSP client over stdio: it starts ``cudalint lsp`` as a subprocess, sends
``initialize`` (``initializationOptions.debounceMs = 0``, and a compilation database
with the file's flags), ``initialized`` and ``didOpen``, then N one-line edits as
incremental ``didChange`` notifications, each a keystroke typed at the end of one line
of a kernel (a trailing comment that grows by one character). For each edit it waits
for the ``publishDiagnostics`` of that document version and records the time since the
``didChange`` was written. Prints median, p90 and max per file.

Cases (``--case``, repeatable; default all that exist here):

- ``kernels300``: bench/lsp/kernels300.cu (300 lines, 15 kernels with launches);
- ``layernorm``: llm.c's dev/cuda/layernorm_forward.cu with ``-I . -I dev/cuda``;
- ``matrixmul``: cuda-samples' Samples/0_Introduction/matrixMul/matrixMul.cu with
  ``-I Common``.

The repositories are looked for under ``--repos`` (default /work/repos, else
$CUDALINT_REPOS). ``--check`` also runs ``cudalint --format json`` on every edited
text and fails when the server's diagnostics differ from the command line's.

Example::

    python bench/lsp_latency.py --edits 30
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TIMEOUT = 120.0


@dataclass(frozen=True)
class Case:
    name: str
    #: The repository (None: this one) and the file in it.
    repo: str | None
    file: str
    #: Include directories, relative to the repository.
    includes: tuple[str, ...]
    #: The line (1-based) whose end gets the keystrokes: the first line holding this text.
    anchor: str
    #: ``--where constant``: a constant a launch or a kernel reads, and its other value.
    constant: tuple[str, str] | None = None
    #: ``--where new-value``: the text whose first number gets a new value at every edit
    #: (plus K times the step): a launch's block or grid that no earlier version had.
    new_value: tuple[str, int] | None = None


CASES = (
    Case("kernels300", None, "bench/lsp/kernels300.cu", (), "partial[tid] += partial[tid + s];",
         ("#define RADIUS 4", "#define RADIUS 5"), ("#define RADIUS 4", 1)),
    Case("layernorm", "llm.c", "dev/cuda/layernorm_forward.cu", (".", "dev/cuda"),
         "shared[tid] += shared[tid + stride];",
         ("const int block_size2 = 256;", "const int block_size2 = 128;"),
         ("const int block_size2 = 256;", 32)),
    Case("matrixmul", "cuda-samples", "Samples/0_Introduction/matrixMul/matrixMul.cu",
         ("Common",), "Csub += As[ty][k] * Bs[k][tx];",
         ("int block_size = 32;", "int block_size = 16;"),
         # (the block size has two values, 16 and 32: a new width of B, a new grid)
         ("dim3 dimsB(5 * 4", 1)),
)

#: Where the edits are (``--where``). ``kernel``, ``launch`` and ``newline`` as
#: ``cpu_case`` says; the others edit outside kernel bodies, in turn one way and back:
#: ``above``, an empty line added above the first kernel and removed; ``host``, a
#: statement line (``int cudalint_bench_edit = K;``) added at the start of ``main`` and
#: removed; ``device``, the same in the first ``__device__`` function; ``constant``, the
#: case's constant changed to its other value and back; ``new-value``, a number a launch
#: reads given a value it never had before at every edit (``Case.new_value``), and
#: ``host-new``, the statement line of ``host`` kept
#: in ``main`` with a new K at every edit: each version is new, so the earlier versions
#: the worker keeps (an undo's) cannot help, while ``host``, ``above`` and ``constant``
#: return to the opened text at every other edit.
WHERE = ("kernel", "launch", "newline", "above", "host", "host-new", "constant", "new-value",
         "device")
OUTSIDE = ("above", "host", "host-new", "constant", "new-value", "device")

_DEVICE_FUNCTION = re.compile(r"^(?!.*__global__).*\b__device__\b.*\w+\s*\(")


def outside_edit(case: Case, lines: list[str], where: str, k: int) -> list[str] | None:
    """The document's lines after edit ``k`` (0: as opened) of kind ``where`` (one of
    ``OUTSIDE``), or None where the file has no place for it."""
    def after_brace(i: int | None) -> int | None:
        if i is None:
            return None
        return next((j for j in range(i, len(lines)) if "{" in lines[j]), None)

    if where == "above":
        i = next((i for i, line in enumerate(lines) if "__global__" in line), None)
        if i is None:
            return None
        return [*lines[:i], "", *lines[i:]] if k % 2 else list(lines)
    if where in ("constant", "new-value"):
        if (case.constant if where == "constant" else case.new_value) is None:
            return None
        if where == "new-value":
            assert case.new_value is not None
            old, step = case.new_value
            m = re.search(r"\b\d+\b", old)  # a number, not a name's digits
            assert m is not None
            new = old[:m.start()] + str(int(m.group(0)) + step * k) + old[m.end():]
        else:
            assert case.constant is not None
            old, new = case.constant
        i = next((i for i, line in enumerate(lines) if old in line), None)
        if i is None:
            return None
        out = list(lines)
        if (where == "new-value" and k) or (where == "constant" and k % 2):
            out[i] = out[i].replace(old, new)
        return out
    if where in ("host", "host-new"):
        j = after_brace(next((i for i, line in enumerate(lines)
                              if re.match(r"\s*int\s+main\s*\(", line)), None))
    else:
        j = after_brace(next((i for i, line in enumerate(lines)
                              if _DEVICE_FUNCTION.match(line)), None))
    if j is None:
        return None
    added = [f"    int cudalint_bench_edit = {k};"] if k % 2 or (where == "host-new" and k) \
        else []
    return [*lines[:j + 1], *added, *lines[j + 1:]]


class Client:
    """A minimal LSP client: Content-Length framing over the server's pipes."""

    def __init__(self, cwd: Path, argv: list[str]) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cudalint", "lsp", *argv],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=cwd, env=env,
        )
        self.messages: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
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
            if length is None:
                continue
            body = stream.read(length)
            self.messages.put((time.perf_counter(), json.loads(body)))

    def send(self, message: dict[str, Any]) -> float:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        sent = time.perf_counter()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return sent

    def notify(self, method: str, params: Any) -> float:
        return self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        _, reply = self.wait(lambda m: m.get("id") == ident and "method" not in m)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result")

    def wait(self, match: Any) -> tuple[float, dict[str, Any]]:
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message from the server")
            try:
                at, message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if "method" in message and "id" in message:  # a request from the server
                self.send({"id": message["id"], "result": None})
                continue
            if match(message):
                return at, message

    def diagnostics(self, uri: str, version: int) -> tuple[float, list[dict[str, Any]]]:
        at, message = self.wait(lambda m: (
            m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri and m["params"].get("version") == version))
        return at, list(message["params"]["diagnostics"])

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def compile_database(directory: Path, root: Path, file: Path, includes: tuple[str, ...]) -> Path:
    """A compile_commands.json in ``directory`` that gives ``file`` its flags."""
    command = ["nvcc", *[f"-I{root / d}" for d in includes], "-c", str(file)]
    path = directory / "compile_commands.json"
    path.write_text(json.dumps([{"directory": str(root), "file": str(file),
                                 "arguments": command}]))
    return path


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def cli_diagnostics(file: Path, text: str, database: Path, cwd: Path) -> list[tuple[Any, ...]]:
    """``cudalint --format json`` on ``text`` as ``file``: (line, code, message with its
    notes and fix title, as the server words a diagnostic), sorted."""
    out = subprocess.run(
        [sys.executable, "-m", "cudalint", "--format", "json", "--no-cache", "--exit-zero",
         "--isolated", "--compile-commands", str(database), "--stdin-filename", str(file), "-"],
        input=text.encode("utf-8"), capture_output=True, cwd=cwd, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    data = json.loads(out.stdout)
    rows = []
    for d in data.get("diagnostics", []):
        if os.path.abspath(d["file"]) != str(file):
            continue
        message = "\n".join([d["message"], *d.get("notes", [])])
        if d.get("fix"):
            message += "\nhelp: " + d["fix"]["title"]
        rows.append((d["line"], d["code"], message))
    return sorted(rows)


def run_case(case: Case, root: Path, edits: int, check: bool, argv: list[str],
             incremental: bool = True, where: str = "kernel") -> dict[str, Any] | None:
    """The server's latency on ``edits`` edits: keystrokes in the case's kernel line
    (``where`` ``kernel``, incremental changes), or edits outside kernel bodies (one of
    ``OUTSIDE``, each sent as the whole text). None where the file has no such place."""
    file = (root / case.file).resolve()
    text = file.read_text(encoding="utf-8")
    lines = text.split("\n")
    if where != "kernel":
        if outside_edit(case, lines, where, 1) is None:
            return None
        opened = outside_edit(case, lines, where, 0)
        assert opened is not None
        text = "\n".join(opened)
    count = len(text.splitlines())
    anchor = next(i for i, line in enumerate(lines) if case.anchor in line)
    with tempfile.TemporaryDirectory(prefix="cudalint-lsp-bench-") as tmp:
        database = compile_database(Path(tmp), root, file, case.includes)
        client = Client(root, argv)
        try:
            client.request("initialize", {
                "processId": os.getpid(), "rootUri": root.as_uri(),
                "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
                "initializationOptions": {"debounceMs": 0, "isolated": True,
                                          "compileCommands": str(database),
                                          "incremental": incremental},
            })
            client.notify("initialized", {})
            uri = file.as_uri()
            sent = client.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "cuda-cpp", "version": 1, "text": text}})
            at, first = client.diagnostics(uri, 1)
            opened = at - sent
            times: list[float] = []
            mismatches = 0
            typed = " //"
            for k in range(edits):
                if where != "kernel":
                    version = k + 2
                    new = outside_edit(case, lines, where, k + 1)
                    assert new is not None
                    sent = client.notify("textDocument/didChange", {
                        "textDocument": {"uri": uri, "version": version},
                        "contentChanges": [{"text": "\n".join(new)}],
                    })
                    at, got = client.diagnostics(uri, version)
                    times.append(at - sent)
                    if check:
                        want = cli_diagnostics(file, "\n".join(new), database, root)
                        have = sorted((d["range"]["start"]["line"] + 1, d.get("code"),
                                       d["message"]) for d in got)
                        mismatches += want != have
                    continue
                char = "abcdefghijklmnopqrstuvwxyz"[k % 26]
                column = len(lines[anchor]) + len(typed) if k else len(lines[anchor])
                insert = typed + char if k == 0 else char
                if k == 0:
                    typed = ""
                typed += insert
                version = k + 2
                sent = client.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"range": {
                        "start": {"line": anchor, "character": column},
                        "end": {"line": anchor, "character": column}}, "text": insert}],
                })
                at, got = client.diagnostics(uri, version)
                times.append(at - sent)
                if check:
                    edited = lines[:]
                    edited[anchor] = lines[anchor] + typed
                    want = cli_diagnostics(file, "\n".join(edited), database, root)
                    have = sorted((d["range"]["start"]["line"] + 1, d.get("code"), d["message"])
                                  for d in got)
                    if want != have:
                        mismatches += 1
        finally:
            client.close()
    return {
        "case": case.name, "mode": "incremental" if incremental else "full", "where": where,
        "file": case.file, "lines": count, "edits": edits,
        "open_ms": opened * 1000, "diagnostics": len(first),
        "median_ms": statistics.median(times) * 1000,
        "p90_ms": percentile(times, 0.9) * 1000, "max_ms": max(times) * 1000,
        "mismatches": mismatches if check else None,
    }


def cpu_case(case: Case, root: Path, edits: int, incremental: bool,
             where: str = "kernel") -> dict[str, Any] | None:
    """CPU time per edit of the worker's pipeline in this process (``checker.check_source``
    on each edited text, as the server's worker runs it), and how much of it the walker
    (frontend IR) and the rules (with the fix re-checks) take: less sensitive to a loaded
    machine than the wall-clock latency. ``incremental``: as the server's worker, with the
    kept parse, the walker's reuse and the slice cache. Run each mode in its own process
    (``--cpu`` does). ``where``: ``kernel``, a keystroke at the end of the case's kernel
    line (as the server benchmark); ``launch``, at the end of the first line with a
    ``<<<`` launch (host code); ``newline``, an empty line added after the kernel line and
    removed again, in turn; one of ``OUTSIDE``: as ``outside_edit`` (None where the file
    has no place for it)."""
    from cudalint import checker
    from cudalint.budget import Budget
    from cudalint.frontend import parse as frontend_parse
    from cudalint.frontend import walker
    from cudalint.lsp.worker import start_incremental
    from cudalint.options import Options

    if incremental:
        start_incremental()
    file = (root / case.file).resolve()
    text = file.read_bytes()
    lines = text.split(b"\n")
    anchor = next(i for i, line in enumerate(lines) if case.anchor.encode() in line)
    if where == "launch":
        anchor = next(i for i, line in enumerate(lines) if b"<<<" in line)
    text_lines = text.decode("utf-8").split("\n")
    if where in OUTSIDE and outside_edit(case, text_lines, where, 1) is None:
        return None
    options = Options(include_dirs=tuple(str(root / d) for d in case.includes))
    spent = {"walk": 0.0, "rules": 0.0}
    walk, rules = walker.walk_translation_unit, checker.run_rules

    def timed(name: str, f: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - started
        return call

    frontend_parse.walk_translation_unit = timed("walk", walk)  # type: ignore[assignment]
    checker.run_rules = timed("rules", rules)  # type: ignore[assignment]
    try:
        def edit(k: int) -> None:
            if where in OUTSIDE:
                new = outside_edit(case, text_lines, where, k)
                assert new is not None
                edited = "\n".join(new).encode("utf-8")
            elif where == "newline":
                added = [b""] if k % 2 else []
                edited = b"\n".join([*lines[:anchor + 1], *added, *lines[anchor + 1:]])
            else:
                edited = b"\n".join([*lines[:anchor], lines[anchor] + b" //" + b"x" * k,
                                     *lines[anchor + 1:]])
            report = checker.check_source(str(file), edited, options,
                                          checker.DEFAULT_SELECTION, Budget(None))
            assert report.error is None, report.error

        edit(0)  # the open
        spent = {"walk": 0.0, "rules": 0.0}
        times = []
        for k in range(1, edits + 1):
            started = time.process_time()
            edit(k)
            times.append(time.process_time() - started)
        reused = ""
        documents = frontend_parse._documents
        if documents is not None:  # the walker's reuse (cudalint.frontend.reuse), all edits
            walks = documents.document(str(file)).walks
            reused = f"{walks.runs_reused}/{walks.runs_reused + walks.runs_done}"
    finally:
        frontend_parse.walk_translation_unit = walk
        checker.run_rules = rules
    return {"case": case.name, "mode": "incremental" if incremental else "full",
            "where": where,
            "file": case.file, "cpu_median_ms": statistics.median(times) * 1000,
            "cpu_p90_ms": percentile(times, 0.9) * 1000,
            # the first edit after the open: the worker keeps no earlier version for it
            "cpu_first_ms": times[0] * 1000,
            "walk_ms": spent["walk"] / edits * 1000, "rules_ms": spent["rules"] / edits * 1000,
            "runs_reused": reused}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", action="append", choices=[c.name for c in CASES])
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--repos", default=os.environ.get("CUDALINT_REPOS", "/work/repos"))
    parser.add_argument("--check", action="store_true",
                        help="compare each edit's diagnostics with `cudalint --format json`")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--no-incremental", action="store_true",
                      help="measure the server with initializationOptions.incremental false "
                           "(every version parsed and analysed from scratch)")
    mode.add_argument("--compare", action="store_true",
                      help="measure each file both ways, from scratch first")
    parser.add_argument("--cpu", action="store_true",
                        help="instead of the server's latency: the CPU time per edit of "
                             "the worker's pipeline, both ways, each in a process of its own")
    parser.add_argument("--where", action="append", choices=WHERE,
                        help="where the edits are (repeatable): a keystroke in the kernel "
                             "line (default); with --cpu only: a keystroke in the first "
                             "launch's line (launch), an empty line added after the kernel "
                             "line and removed (newline); outside kernel bodies: an empty "
                             "line above the first kernel (above), a statement line in "
                             "main (host), a constant a launch or kernel reads (constant: "
                             "changed and changed back; new-value: a new value each edit), "
                             "host-new (the statement of host with a new value each edit), "
                             "a statement line in the first __device__ function (device)")
    parser.add_argument("--cpu-one", nargs=2, metavar=("CASE", "MODE"),
                        help=argparse.SUPPRESS)
    parser.add_argument("server_args", nargs="*",
                        help="extra arguments for `cudalint lsp` (after --)")
    args = parser.parse_args(argv)
    wanted = args.case or [c.name for c in CASES]
    wheres: list[str] = args.where or ["kernel"]
    if args.cpu_one:
        case = next(c for c in CASES if c.name == args.cpu_one[0])
        root = ROOT if case.repo is None else Path(args.repos) / case.repo
        print(json.dumps(cpu_case(case, root, args.edits, args.cpu_one[1] == "incremental",
                                  wheres[0])))
        return 0
    if args.cpu:
        print("| file | edits | pipeline | CPU median (ms) | CPU p90 (ms) | first edit (ms) "
              "| walker (ms) | rules (ms) | function runs reused |")
        print("|---|---|---|---|---|---|---|---|---|")
        for case in CASES:
            root = ROOT if case.repo is None else Path(args.repos) / case.repo
            if case.name not in wanted or not (root / case.file).is_file():
                continue
            for where in wheres:
                for mode in ("full", "incremental"):
                    out = subprocess.run(
                        [sys.executable, __file__, "--cpu-one", case.name, mode, "--edits",
                         str(args.edits), "--repos", args.repos, "--where", where],
                        capture_output=True, check=True,
                        env={**os.environ, "PYTHONPATH": str(ROOT)})
                    r = json.loads(out.stdout)
                    if r is None:
                        print(f"| {case.file} | {where} | {mode} | n/a | | | | | |")
                        continue
                    print(f"| {r['file']} | {where} | {r['mode']} | {r['cpu_median_ms']:.0f} | "
                          f"{r['cpu_p90_ms']:.0f} | {r['cpu_first_ms']:.0f} | {r['walk_ms']:.0f} | "
                          f"{r['rules_ms']:.0f} | "
                          f"{r['runs_reused'] or '-'} |")
        return 0
    bad = [w for w in wheres if w not in ("kernel", *OUTSIDE)]
    if bad:
        parser.error(f"--where {bad[0]} is for --cpu only")
    results = []
    for case in CASES:
        if case.name not in wanted:
            continue
        root = ROOT if case.repo is None else Path(args.repos) / case.repo
        if not (root / case.file).is_file():
            print(f"{case.name}: {root / case.file} not found, skipped", file=sys.stderr)
            continue
        modes = [False, True] if args.compare else [not args.no_incremental]
        for where in wheres:
            for incremental in modes:
                r = run_case(case, root, args.edits, args.check, args.server_args,
                             incremental, where)
                if r is not None:
                    results.append(r)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print("| file | lines | edits | server | open (ms) | edit median (ms) | edit p90 (ms) | "
          "edit max (ms) |" + (" mismatches |" if args.check else ""))
    print("|---|---|---|---|---|---|---|---|" + ("---|" if args.check else ""))
    for r in results:
        print(f"| {r['file']} | {r['lines']} | {r['where']} | {r['mode']} | {r['open_ms']:.0f} | "
              f"{r['median_ms']:.1f} | "
              f"{r['p90_ms']:.1f} | {r['max_ms']:.1f} |"
              + (f" {r['mismatches']} |" if args.check else ""))
    return 1 if any(r["mismatches"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
