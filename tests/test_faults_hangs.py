"""Issue 17 item 6: hangs and runaway work.

Ctrl-C and SIGTERM with ``-j`` stop every process of the run; device files and FIFOs
(``#include "/dev/zero"``, ``-include``/``@file`` in compile_commands.json, stdin,
``--baseline``) are refused before clang or Python reads them, as an error for that file
only (exit 2, the other files still analysed); a file that spins inside libclang
(``#pragma clang __debug overflow_stack``) or grows without end (an exponential macro)
is stopped by the CPU and memory caps of its worker process; ``#include "/dev/stdin"``
in the language server does not read the protocol stream.

Every test runs cudalint as a child process with a hard timeout (and, where a
regression would allocate without end, an address-space limit), so that a regression
fails instead of hanging or exhausting the machine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux process model")

KERNEL = """\
__global__ void k(float *out) {
    __shared__ float tile[32][32];
    tile[threadIdx.x][0] = out[threadIdx.x];
}
"""
#: The one finding of KERNEL (hand-derived: column stride 32 words, 32 lanes in bank 0):
#: proof that the good file of each run was still analysed.
FINDING = "k.cu:3:5: warning: 32-way bank conflict"
#: Spins inside libclang forever (clang's debug pragma recurses without a base case,
#: compiled into a loop); only the worker's CPU cap can stop it.
SPIN = "#pragma clang __debug overflow_stack\n" + KERNEL.replace("k(", "spin(")
#: 2^(2^8) copies of ``1+``: the preprocessor allocates until something stops it.
EXPONENTIAL = (
    "".join(
        f"#define A{i}(x) A{i - 1}(A{i - 1}(x))\n" if i else "#define A0(x) x x\n" for i in range(9)
    )
    + "int v = A8(1+) 1;\n"
    + KERNEL.replace("k(", "grow(")
)

TIMEOUT = 10.0
#: Address space of a cudalint run whose regression would read /dev/zero to its end.
AS_LIMIT = 3 << 30


#: No test of this module may run longer than this (SIGALRM fails it instead).
HARD_LIMIT = 20


@pytest.fixture(autouse=True)
def _hard_timeout(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Fail a test that runs past HARD_LIMIT seconds instead of hanging the suite."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"test ran longer than {HARD_LIMIT} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, HARD_LIMIT)
    import test_faults_lsp

    monkeypatch.setattr(test_faults_lsp, "TIMEOUT", TIMEOUT)  # its waits
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("CUDALINT_WORKER_MEMORY", None)
    env.update(extra)
    return env


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))


def run(
    args: list[str],
    cwd: Path,
    *,
    stdin: Any = subprocess.DEVNULL,
    limit: bool = True,
    timeout: float = TIMEOUT,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cudalint", "--color", "never", *args],
        cwd=cwd,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_env(**env),
        preexec_fn=_limit_memory if limit else None,
    )


def _clean(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "internal error" not in proc.stderr, proc.stderr


@pytest.fixture()
def good(tmp_path: Path) -> Path:
    (tmp_path / "k.cu").write_text(KERNEL)
    return tmp_path


# --- signals with -j -------------------------------------------------------------------


def _session(sid: int) -> list[tuple[int, str]]:
    """(pid, state) of every process of session ``sid``."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "
        if int(fields[3]) == sid:
            out.append((int(entry), fields[0]))
    return out


def _running(sid: int) -> list[int]:
    return [pid for pid, state in _session(sid) if state not in ("Z", "X")]


@pytest.mark.parametrize(
    ("sig", "status"),
    [
        (signal.SIGINT, 130),
        (signal.SIGTERM, 143),
        (signal.SIGKILL, -9),  # no cleanup possible: the workers notice and exit
    ],
)
def test_a_signal_during_a_jobs_run_stops_every_process(
    good: Path, sig: signal.Signals, status: int
) -> None:
    (good / "spin1.cu").write_text(SPIN)
    (good / "spin2.cu").write_text(SPIN)
    tmp = good / "tmp"
    tmp.mkdir()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cudalint",
            "-j",
            "2",
            "--timeout",
            "0",
            "spin1.cu",
            "spin2.cu",
            "k.cu",
        ],
        cwd=good,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(TMPDIR=str(tmp)),
        start_new_session=True,
    )
    try:
        # both workers inside libclang's endless loop: main and two workers forked
        # from it (Python < 3.11: also the resource tracker and the fork server)
        least = 3 if sys.version_info >= (3, 11) else 5
        deadline = time.monotonic() + 6.0
        while len(_running(proc.pid)) < least and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(_running(proc.pid)) >= least, _session(proc.pid)
        time.sleep(2.0)  # the workers deep in libclang
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=5)
        assert proc.returncode == status, err
        assert b"Traceback" not in err
        deadline = time.monotonic() + 3.0
        while _running(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _running(proc.pid) == [], _session(proc.pid)
        # the workers' temporary files went with them (multiprocessing's own pymp-*
        # directory cannot be removed after SIGKILL)
        left = [p.name for p in tmp.iterdir()]
        if sig == signal.SIGKILL:
            left = [name for name in left if not name.startswith("pymp-")]
        assert left == []
    finally:
        for pid in _running(proc.pid):
            os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.wait()


# --- device files and FIFOs, refused before they are read ------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_include_of_a_device_file_is_an_error_for_that_file_only(good: Path, jobs: str) -> None:
    (good / "zero.cu").write_text('#include "/dev/zero"\n' + KERNEL.replace("k(", "z("))
    proc = run(["-j", jobs, "zero.cu", "k.cu"], good)
    assert proc.returncode == 2, proc.stderr
    assert FINDING in proc.stdout
    assert "/dev/zero" in proc.stderr and "not a regular file" in proc.stderr
    _clean(proc)


def test_a_project_header_that_includes_a_planted_device_link_is_refused(good: Path) -> None:
    (good / "inc").mkdir()
    (good / "inc" / "data.h").symlink_to("/dev/zero")
    (good / "inc" / "outer.cuh").write_text("#include <data.h>\n")
    (good / "a.cu").write_text('#include "inc/outer.cuh"\n' + KERNEL.replace("k(", "a("))
    proc = run(["-I", "inc", "a.cu", "k.cu"], good)
    assert proc.returncode == 2, proc.stderr
    assert FINDING in proc.stdout
    assert "data.h" in proc.stderr and "a device, not a regular file" in proc.stderr
    _clean(proc)


def test_an_include_of_a_fifo_does_not_block(good: Path) -> None:
    os.mkfifo(good / "pipe.h")
    (good / "f.cu").write_text('#include "pipe.h"\n' + KERNEL.replace("k(", "f("))
    proc = run(["f.cu", "k.cu"], good)
    assert proc.returncode == 2 and FINDING in proc.stdout
    assert "a FIFO, not a regular file" in proc.stderr
    _clean(proc)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["-include", "/dev/zero"], "/dev/zero: a device, not a regular file"),
        (["@/dev/zero"], "response file /dev/zero: a device"),
        (["@pipe.rsp"], "pipe.rsp: a FIFO"),
    ],
)
def test_device_files_and_fifos_in_compile_commands_are_refused(
    good: Path, arguments: list[str], expected: str
) -> None:
    os.mkfifo(good / "pipe.rsp")
    (good / "bad.cu").write_text(KERNEL.replace("k(", "bad("))
    (good / "compile_commands.json").write_text(
        json.dumps(
            [
                {
                    "directory": str(good),
                    "file": "bad.cu",
                    "arguments": ["clang++", *arguments, "-c", "bad.cu"],
                }
            ]
        )
    )
    proc = run(["-p", ".", "bad.cu", "k.cu"], good)
    assert proc.returncode == 2, proc.stderr
    assert FINDING in proc.stdout
    assert "bad.cu" in proc.stderr and expected in proc.stderr
    _clean(proc)


def test_stdin_from_a_device_is_refused_before_it_is_read(good: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        proc = run(["-"], good, stdin=zero)
    assert proc.returncode == 2
    assert "stdin is a device" in proc.stderr
    _clean(proc)
    with open(os.devnull, "rb") as null:  # harmless, and an empty source
        assert run(["-"], good, stdin=null).returncode == 0


def test_an_endless_pipe_on_stdin_is_bounded(good: Path) -> None:
    zero = subprocess.Popen(["cat", "/dev/zero"], stdout=subprocess.PIPE)
    try:
        proc = run(["-"], good, stdin=zero.stdout)
    finally:
        zero.kill()
        zero.wait()
        assert zero.stdout is not None
        zero.stdout.close()
    assert proc.returncode == 2
    assert "larger than" in proc.stderr
    _clean(proc)


def test_a_fifo_or_device_as_baseline_is_refused(good: Path) -> None:
    os.mkfifo(good / "baseline.json")
    proc = run(["--baseline", "baseline.json", "k.cu"], good)
    assert proc.returncode == 2
    assert "baseline.json" in proc.stderr and "a FIFO, not a regular file" in proc.stderr
    _clean(proc)
    proc = run(["--baseline", "/dev/zero", "k.cu"], good)
    assert proc.returncode == 2 and "a device, not a regular file" in proc.stderr
    _clean(proc)


# --- runaway work: the worker's caps ----------------------------------------------------


def test_a_file_spinning_in_libclang_is_stopped_by_the_cpu_cap(good: Path) -> None:
    (good / "spin.cu").write_text(SPIN)
    start = time.monotonic()
    proc = run(["-j", "2", "--timeout", "0.5", "spin.cu", "k.cu"], good)
    assert proc.returncode == 2, proc.stderr
    assert FINDING in proc.stdout
    assert "spin.cu: analysis stopped" in proc.stderr and "CPU time" in proc.stderr
    assert "the file was not analyzed" in proc.stderr
    assert time.monotonic() - start < TIMEOUT
    _clean(proc)


def test_an_exponential_macro_is_stopped_by_the_memory_cap(good: Path) -> None:
    (good / "grow.cu").write_text(EXPONENTIAL)
    # no CPU cap (--timeout 0): the memory cap alone stops it
    proc = run(
        ["-j", "2", "--timeout", "0", "grow.cu", "k.cu"],
        good,
        limit=False,
        CUDALINT_WORKER_MEMORY="1500M",
    )
    assert proc.returncode == 2, proc.stderr
    assert FINDING in proc.stdout
    assert "grow.cu" in proc.stderr.split("LLVM ERROR")[-1] or "grow.cu:" in proc.stderr
    assert "Traceback" not in proc.stderr


# --- the serial run (-j 1): a forked process per file, under the same caps -------------

#: ``#include`` of a name a macro builds: the scan for device files cannot see it, so
#: clang reads /dev/zero until the memory cap stops it.
HIDDEN_ZERO = '#define ZERO "/dev/zero"\n#include ZERO\n' + KERNEL.replace("k(", "zero(")


def _private_tmp(good: Path) -> Path:
    tmp = good.parent / f"{good.name}-tmp"
    tmp.mkdir()
    (tmp / "keep").write_text("x")  # must stay
    return tmp


def _serial(
    good: Path, name: str, text: str, *args: str, **env: str
) -> tuple[subprocess.CompletedProcess[str], list[str], list[int]]:
    """cudalint -j 1 on ``name`` (holding ``text``) and k.cu in a session of its own,
    with a private TMPDIR: its result, the TMPDIR's entries and the processes of the
    session left afterwards."""
    (good / name).write_text(text)
    tmp = _private_tmp(good)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cudalint", "--color", "never", "-j", "1", *args, name, "k.cu"],
        cwd=good,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(TMPDIR=str(tmp), **env),
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
        left = _running(proc.pid)
    finally:
        for pid in _running(proc.pid):
            os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.wait()
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    return done, sorted(p.name for p in tmp.iterdir()), left


def test_a_file_spinning_in_libclang_is_stopped_in_the_serial_run(good: Path) -> None:
    start = time.monotonic()
    proc, tmp, left = _serial(good, "spin.cu", SPIN, "--timeout", "0.5")
    assert proc.returncode == 2, proc.stderr
    assert FINDING in proc.stdout
    assert "spin.cu: analysis stopped" in proc.stderr and "CPU time" in proc.stderr
    assert time.monotonic() - start < TIMEOUT
    assert left == [] and tmp == ["keep"]
    _clean(proc)


@pytest.mark.parametrize("text", [EXPONENTIAL, HIDDEN_ZERO], ids=["macro", "dev-zero"])
def test_a_file_growing_without_end_is_stopped_in_the_serial_run(good: Path, text: str) -> None:
    # no CPU cap (--timeout 0): the memory cap of the file's process alone stops it,
    # and the main process stays small (its own address space is capped here too)
    proc, tmp, left = _serial(
        good, "grow.cu", text, "--timeout", "0", CUDALINT_WORKER_MEMORY="1500M"
    )
    assert proc.returncode == 2, proc.stderr
    assert FINDING in proc.stdout
    assert "grow.cu" in proc.stderr, proc.stderr  # libclang gives up, or its process dies
    assert left == [] and tmp == ["keep"]
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("sig", "status"),
    [
        (signal.SIGINT, 130),
        (signal.SIGTERM, 143),
        (signal.SIGKILL, -9),  # the file's process is killed with it (PR_SET_PDEATHSIG)
    ],
)
def test_a_signal_during_a_serial_run_stops_every_process(
    good: Path, sig: signal.Signals, status: int
) -> None:
    (good / "spin.cu").write_text(SPIN)
    tmp = _private_tmp(good)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cudalint", "--timeout", "0", "spin.cu", "k.cu"],
        cwd=good,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(TMPDIR=str(tmp)),
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 6.0  # the main process and the file's process
        while len(_running(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(_running(proc.pid)) == 2, _session(proc.pid)
        time.sleep(1.5)  # deep in libclang
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=5)
        assert proc.returncode == status, err
        assert b"Traceback" not in err
        deadline = time.monotonic() + 3.0
        while _running(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _running(proc.pid) == [], _session(proc.pid)
        if sig != signal.SIGKILL:  # nothing can remove the main process's files then
            assert sorted(p.name for p in tmp.iterdir()) == ["keep"]
    finally:
        for pid in _running(proc.pid):
            os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("recycle", [False, True], ids=["kept", "one-per-file"])
def test_the_serial_run_analyses_in_a_forked_worker_that_shares_the_shim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, recycle: bool
) -> None:
    """In-process API: the files are analysed in a forked child, not in the main process
    (whose libclang heap then does not grow), one child for both files while its memory
    stays small; a child that leaves (here after each file) is replaced, and the
    precompiled shim the first child built is adopted: the next child does not build
    it again."""
    from cudalint import api, budget
    from cudalint.frontend import parse
    from cudalint.options import Options

    # one child for both files, or a new one after each (a memory limit it is past)
    monkeypatch.setattr(budget, "FORK_WORKER_RSS", 0 if recycle else 1 << 40)
    monkeypatch.setattr(budget, "FORK_WORKER_ROOM", 0 if recycle else 1 << 40)
    for name in ("a", "b"):
        (tmp_path / f"{name}.cu").write_text(KERNEL.replace("k(", f"{name}("))
    define = f"CUDALINT_TEST_FORK={int(recycle)}"
    options = Options(defines=(define,))  # a shim of its own
    pids = tmp_path / "pids"
    import cudalint.manager as manager

    real = manager._run_task

    def spy(task: api.FileTask) -> api.FileReport:
        with open(pids, "a") as f:
            f.write(f"{os.getpid()}\n")
        shims = {k: v for k, v in parse.precompiled_shims().items() if f"-D{define}" in k}
        # a failed assertion here is the file's error (an internal error)
        if task.path.endswith("b.cu"):  # built for a.cu, by this child or the one before
            assert len(shims) == 1 and all(v and os.path.isfile(v) for v in shims.values())
        else:
            assert shims == {}
        return real(task)

    tasks = [api.FileTask(str(tmp_path / f"{n}.cu"), options) for n in ("a", "b")]
    monkeypatch.setattr(manager, "_run_task", spy)
    reports = api.run_tasks(tasks, jobs=1)
    assert [r.error for r in reports] == [None, None]
    assert all(len(r.diagnostics) == 1 for r in reports)
    children = [int(p) for p in pids.read_text().split()]
    assert len(children) == 2 and os.getpid() not in children
    assert (children[0] != children[1]) == recycle
    shims = {k: v for k, v in parse.precompiled_shims().items() if f"-D{define}" in k}
    assert len(shims) == 1 and all(v and os.path.isfile(v) for v in shims.values())


def test_the_cpu_and_memory_caps() -> None:
    from cudalint import budget

    assert budget.worker_cpu_cap(None) is None and budget.worker_cpu_cap(0) is None
    assert budget.worker_cpu_cap(10.0) == 25.0  # 2 x 10 + 5
    assert budget.worker_cpu_cap(0.5) == 1.5  # 2 x 0.5 + 0.5
    assert budget.worker_cpu_cap(1e308) is None  # more than a limit can hold: none
    env = os.environ.get("CUDALINT_WORKER_MEMORY")
    try:
        os.environ["CUDALINT_WORKER_MEMORY"] = "2G"
        assert budget.worker_memory_cap(4) == 2 << 30
        os.environ["CUDALINT_WORKER_MEMORY"] = "0"
        assert budget.worker_memory_cap(4) is None
        del os.environ["CUDALINT_WORKER_MEMORY"]
        cap = budget.worker_memory_cap(1000)
        assert cap == budget.WORKER_MEMORY_MIN
    finally:
        if env is None:
            os.environ.pop("CUDALINT_WORKER_MEMORY", None)
        else:
            os.environ["CUDALINT_WORKER_MEMORY"] = env


# --- the language server -----------------------------------------------------------------


def test_an_include_of_dev_stdin_in_the_language_server_does_not_read_the_protocol(
    tmp_path: Path,
) -> None:
    from test_faults_lsp import RawClient, message

    client = RawClient(tmp_path)
    try:
        client.initialize()
        for n, name in enumerate(["/dev/stdin", "/proc/self/fd/0"]):
            path = tmp_path / f"s{n}.cu"
            text = f'#include "{name}"\n' + KERNEL
            path.write_text(text)
            client.write(
                message(
                    {
                        "method": "textDocument/didOpen",
                        "params": {
                            "textDocument": {
                                "uri": path.as_uri(),
                                "languageId": "cuda",
                                "version": 1,
                                "text": text,
                            }
                        },
                    }
                )
            )
            published = client.wait(_published(path.as_uri()))
            messages = " ".join(d["message"] for d in published["params"]["diagnostics"])
            assert "not a regular file" in messages, messages
            client.alive()  # the ping was read by the server, not by clang
        code, stderr = client.close()
        assert code == 0
        assert b"Traceback" not in stderr
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()


@pytest.mark.slow
def test_a_document_spinning_in_libclang_does_not_keep_a_core_in_the_language_server(
    tmp_path: Path,
) -> None:
    from test_faults_lsp import RawClient, message

    (tmp_path / ".cudalint.toml").write_text("timeout = 0.5\n")
    client = RawClient(tmp_path)
    try:
        client.initialize()
        start = time.monotonic()
        for name, text in (("spin.cu", SPIN), ("k.cu", KERNEL)):
            path = tmp_path / name
            path.write_text(text)
            client.write(
                message(
                    {
                        "method": "textDocument/didOpen",
                        "params": {
                            "textDocument": {
                                "uri": path.as_uri(),
                                "languageId": "cuda",
                                "version": 1,
                                "text": text,
                            }
                        },
                    }
                )
            )
            published = client.wait(_published(path.as_uri()))
            messages = " ".join(d["message"] for d in published["params"]["diagnostics"])
            if name == "spin.cu":
                assert "analysis stopped" in messages and "CPU time" in messages, messages
            else:  # the next document is analysed as usual, by a fresh worker
                assert "32-way" in messages, messages
        assert time.monotonic() - start < TIMEOUT
        # the server and its helper processes use no CPU now: nothing left spinning
        server = client.proc.pid
        children = [
            int(p) for p in Path(f"/proc/{server}/task/{server}/children").read_text().split()
        ]

        def cpu(pid: int) -> float:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                return 0.0
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

        def total() -> float:
            return sum(cpu(p) for p in [server, *children, *_grandchildren(children)])

        before = total()
        time.sleep(1.0)
        assert total() - before < 0.5
        code, stderr = client.close()
        assert code == 0
        assert b"Traceback" not in stderr
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()


def _published(uri: str) -> Any:
    def match(m: dict[str, Any]) -> bool:
        return bool(
            m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        )

    return match


def _grandchildren(pids: list[int]) -> list[int]:
    out: list[int] = []
    for pid in pids:
        try:
            out += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            continue
    return out
