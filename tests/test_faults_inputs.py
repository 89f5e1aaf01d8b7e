"""Issue 17 items 4 and 8: one bad thing must not stop everything, and nothing may make
the analysis see less without saying so.

Item 4: a full ``$TMPDIR`` or ``ulimit -f`` (libclang aborted the whole process while
saving its precompiled shim), a file name that is not UTF-8 (it emptied the SARIF
document), ``--timeout 1e10`` (every file an internal error), an unusable ``/dev/shm``
with ``-j`` (no results), a NUL in compile_commands.json, deeply nested JSON/TOML and a
closed stdin (tracebacks). Item 8: ``-I ''``, ``-D ''``, a configured ``cuda-path`` that
does not exist and ``--stdin-filename -`` gave "0 conflicts", exit 0.

Every case runs the real pipeline on a kernel with one 32-way conflict (CL001 at 3:5),
so that "still analysed" is checked by the finding itself.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from factories import run_cli

ROOT = Path(__file__).resolve().parent.parent

KERNEL = """\
__global__ void k(float *out) {
    __shared__ float tile[32][32];
    tile[threadIdx.x][0] = out[threadIdx.x];
}
"""
#: The one finding the kernel has (hand-derived: column stride 32 words, 32 lanes in
#: one bank).
FINDING = "k.cu:3:5: warning: 32-way bank conflict"


@pytest.fixture()
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "k.cu").write_text(KERNEL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


run = functools.partial(run_cli, strict=True)


def cli(
    *argv: str, cwd: Path, env: dict[str, str] | None = None, stdin: Any = None, preexec: Any = None
) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    proc = subprocess.run(
        [sys.executable, "-m", "cudalint", *argv],
        cwd=cwd,
        env=full,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=preexec,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "FATAL" not in proc.stderr, proc.stderr
    return proc


# --- item 4: the precompiled shim may not be writable -------------------------------------


def _limit_file_size() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (100 * 1024, resource.RLIM_INFINITY))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs resource limits")
def test_a_file_size_limit_does_not_abort_the_analysis(work: Path) -> None:
    # ``ulimit -f 100``: libclang used to abort() writing the ~1.2 MB shim PCH (exit 134)
    proc = cli("-q", "k.cu", cwd=work, preexec=_limit_file_size)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith(FINDING)


def test_no_room_in_tmpdir_parses_the_shim_as_text(work: Path) -> None:
    # A full $TMPDIR, emulated: allocating the PCH's room fails with ENOSPC.
    code = (
        "import errno, os, sys\n"
        "def full(fd, offset, length):\n"
        "    raise OSError(errno.ENOSPC, 'No space left on device')\n"
        "os.posix_fallocate = full\n"
        "import cudalint.frontend.parse as p\n"
        "from cudalint.cli import main\n"
        "code = main(['-q', 'k.cu'])\n"
        "assert not any(p._pch_cache.values()), p._pch_cache\n"
        "sys.exit(code)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=work,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith(FINDING)


def test_the_room_check_refuses_a_full_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cudalint.frontend import parse

    assert parse._room_for_pch(str(tmp_path))
    assert os.listdir(tmp_path) == []  # the probe is gone again

    def full(fd: int, offset: int, length: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "posix_fallocate", full)
    assert not parse._room_for_pch(str(tmp_path))
    assert not parse._room_for_pch(str(tmp_path / "missing"))
    assert os.listdir(tmp_path) == []


def _tiny_tmpfs_works() -> bool:
    if sys.platform != "linux" or shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"], capture_output=True
    )
    return probe.returncode == 0


@pytest.mark.skipif(not _tiny_tmpfs_works(), reason="needs root and unshare to mount a tmpfs")
def test_a_full_tmpfs_tmpdir_does_not_abort_the_analysis(work: Path) -> None:
    small = work / "small"
    small.mkdir()
    script = (
        f'mount -t tmpfs -o size=512k tmpfs "{small}" && '
        f'TMPDIR="{small}" PYTHONPATH="{ROOT}" "{sys.executable}" -m cudalint -q k.cu'
    )
    proc = subprocess.run(
        ["unshare", "-m", "sh", "-c", script], cwd=work, capture_output=True, text=True, timeout=300
    )
    assert "FATAL" not in proc.stderr, proc.stderr
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith(FINDING)


def test_tmpdir_that_is_a_file_still_analyzes(work: Path) -> None:
    (work / "not-a-dir").write_text("")
    proc = cli("-q", "k.cu", cwd=work, env={"TMPDIR": str(work / "not-a-dir")})
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith(FINDING)


# --- item 4: a file name that is not UTF-8 --------------------------------------------------


@pytest.mark.skipif(sys.platform != "linux", reason="needs a file system of byte names")
def test_a_name_that_is_not_utf8_keeps_the_sarif_document(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = os.fsdecode(b"bad\xff.cu")  # 'bad\udcff.cu'
    (work / bad).write_text(KERNEL)
    code, out, _ = run(capsys, "--format", "sarif", bad, "k.cu")
    assert code == 2  # the file that cannot be analysed is an error; the other is not lost
    run_ = json.loads(out)["runs"][0]
    assert [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run_["results"]
    ] == ["k.cu"]
    notes = run_["invocations"][0]["toolExecutionNotifications"]
    uris = [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes]
    assert uris == ["bad%FF.cu"]  # the name's bytes, percent-encoded (RFC 3986)
    assert "not UTF-8" in notes[0]["message"]["text"]
    # given absolute, under the root (here the working directory): the same relative URI
    code, out, _ = run(capsys, "--format", "sarif", str(work / bad))
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == ("bad%FF.cu")
    # outside the root (run from a subdirectory, no .git above): absolute, as
    # Path.as_uri() does
    (work / "sub").mkdir()
    monkeypatch.chdir(work / "sub")
    code, out, _ = run(capsys, "--format", "sarif", str(work / bad), "../k.cu")
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    uri = notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.startswith("file:///") and uri.endswith("/bad%FF.cu")


@pytest.mark.skipif(sys.platform != "linux", reason="needs a file system of byte names")
@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_name_that_is_not_utf8_is_one_files_error(
    work: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    bad = os.fsdecode(b"bad\xff.cu")
    (work / bad).write_text(KERNEL)
    code, out, err = run(capsys, "--format", fmt, bad, "k.cu")
    assert code == 2
    assert "32-way" in out
    assert "not UTF-8" in out + err


# --- item 4: --timeout past what a wait can express -----------------------------------------


@pytest.mark.parametrize("seconds", ["1e10", "1e308", "9223372036.9"])
def test_a_huge_timeout_is_no_limit(
    work: Path, capsys: pytest.CaptureFixture[str], seconds: str
) -> None:
    code, out, _ = run(capsys, "-q", "--timeout", seconds, "k.cu")
    assert code == 1
    assert out.startswith(FINDING)


def test_a_huge_configured_timeout_is_no_limit(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "cudalint.toml").write_text("timeout = 1e10\n")
    code, out, _ = run(capsys, "-q", "k.cu")
    assert code == 1
    assert out.startswith(FINDING)
    (work / "cudalint.toml").write_text("timeout = 1" + "0" * 400 + "\n")  # past float
    code, _, err = run(capsys, "-q", "k.cu")
    assert code == 2 and "invalid value for 'timeout'" in err


# --- item 4: -j where worker processes cannot start -----------------------------------------


def test_j_falls_back_to_serial_when_the_pool_cannot_start(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An unusable /dev/shm: creating the pool's semaphores fails (as sem_open does there).
    import _multiprocessing

    shutil.copy(work / "k.cu", work / "k2.cu")
    code, serial_out, _ = run(capsys, "k.cu", "k2.cu")
    assert code == 1

    real = _multiprocessing.SemLock

    class NoShm:
        SEM_VALUE_MAX = real.SEM_VALUE_MAX

        def __init__(self, *args: object, **kwargs: object) -> None:
            raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(_multiprocessing, "SemLock", NoShm)
    code, out, err = run(capsys, "-j", "2", "k.cu", "k2.cu")
    assert code == 1
    assert out == serial_out  # every file, as the serial run reports them
    assert err.count("cannot use worker processes for -j (Permission denied)") == 1
    code, out, err = run(capsys, "-q", "-j", "2", "k.cu", "k2.cu")
    assert code == 1 and "k2.cu:3:5" in out and err == ""  # -q: diagnostics only


def test_run_tasks_reports_the_fallback_once(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures

    from cudalint import api, manager
    from cudalint.options import Options

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    # where cudalint.manager finds it (imported at its import or on first use)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", broken)
    monkeypatch.setattr(manager, "ProcessPoolExecutor", broken, raising=False)
    tasks = [api.FileTask(name, Options()) for name in ("k.cu", "k.cu", "missing.cu")]
    notes: list[str] = []
    reports = api.run_tasks(tasks, jobs=3, note=notes.append)
    assert [r.error is None for r in reports] == [True, True, False]
    assert len(notes) == 1 and "No space left on device" in notes[0]


# --- item 4: hostile configuration, databases, baselines and stdin -------------------------


def _compdb(work: Path, entry: dict[str, Any]) -> str:
    path = work / "compile_commands.json"
    path.write_text(json.dumps([{"directory": str(work), "file": "k.cu", **entry}]))
    return str(path)


@pytest.mark.parametrize(
    "entry",
    [
        {"command": "nvcc -c k.cu -DX=\u0000"},
        {"arguments": ["nvcc", "-c", "k.cu", "-I\u0000x"]},
        {"file": "k\u0000.cu", "command": "nvcc -c k.cu"},
        {"directory": "/tmp\u0000", "command": "nvcc -c k.cu"},
    ],
)
def test_a_nul_in_the_compilation_database_is_refused(
    work: Path, capsys: pytest.CaptureFixture[str], entry: dict[str, Any]
) -> None:
    code, out, err = run(capsys, "--compile-commands", _compdb(work, entry), "k.cu")
    assert code == 2 and out == ""
    assert "entry 0: contains a NUL character" in err


def test_a_nul_in_a_response_file_is_refused(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "flags.rsp").write_bytes(b"-I\0x -DA=1")
    code, _, err = run(
        capsys, "--compile-commands", _compdb(work, {"command": "nvcc -c k.cu @flags.rsp"}), "k.cu"
    )
    assert code == 2 and "contains a NUL character" in err


DEEP_JSON = "[" * 100_000 + "]" * 100_000
BIG_INT_JSON = "[" + "1" * 5000 + "]"


@pytest.mark.parametrize("text", [DEEP_JSON, BIG_INT_JSON])
@pytest.mark.parametrize("option", ["--compile-commands", "--baseline"])
def test_hostile_json_files_are_usage_errors(
    work: Path, capsys: pytest.CaptureFixture[str], option: str, text: str
) -> None:
    (work / "hostile.json").write_text(text)
    code, out, err = run(capsys, option, "hostile.json", "k.cu")
    assert code == 2 and out == ""
    assert "hostile.json: invalid JSON" in err


@pytest.mark.parametrize(
    "text",
    [
        "x = " + "[" * 100_000 + "]" * 100_000,
        "x = 1" + "0" * 5000,
    ],
)
def test_hostile_toml_configuration_is_a_usage_error(
    work: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    (work / "cudalint.toml").write_text(text + "\n")
    code, _, err = run(capsys, "k.cu")
    assert code == 2
    assert "cudalint.toml: invalid TOML" in err


def test_a_closed_stdin_is_a_usage_error(work: Path) -> None:
    proc = subprocess.run(
        ["sh", "-c", 'exec "$0" -m cudalint - <&-', sys.executable],
        cwd=work,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )
    assert proc.returncode == 2
    assert proc.stderr == "cudalint: error: '-' reads the source from stdin, but stdin is closed\n"


def test_an_unreadable_stdin_is_a_usage_error(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Broken:
        class buffer:  # stands in for sys.stdin.buffer
            @staticmethod
            def read(*_size: int) -> bytes:
                raise OSError(errno.EBADF, "Bad file descriptor")

    monkeypatch.setattr(sys, "stdin", Broken)
    code, _, err = run(capsys, "-")
    assert code == 2
    assert "cannot read the source from stdin: Bad file descriptor" in err


# --- item 8: arguments that would make the analysis see less --------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-I", ""], "-I needs a directory (got an empty argument)"),
        (["-D", ""], "-D needs NAME or NAME=VALUE with NAME an identifier (got an empty argument)"),
        (["-D", "=1"], "got '=1'"),
        (["-D", "1X"], "got '1X'"),
    ],
)
def test_empty_or_invalid_include_and_define_are_refused(
    work: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv, "k.cu")
    assert code == 2 and out == ""
    assert message in err


def test_valid_defines_still_analyze(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "-q",
        "-D",
        "X",
        "-D",
        "Y=a b",
        "-D",
        "Z=",
        "-D",
        "MY_MAX(a,b)=a",
        "-I",
        "include",
        "k.cu",
    )
    assert code == 1 and out.startswith(FINDING)


@pytest.mark.parametrize("name", ["-", ""])
def test_stdin_filename_that_names_no_file_is_refused(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(KERNEL.encode())))
    code, out, err = run(capsys, "--stdin-filename", name, "-")
    assert code == 2 and out == ""
    assert f"--stdin-filename {name!r}: give the path" in err


def test_stdin_with_a_real_name_still_analyzes(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(KERNEL.encode())))
    code, out, _ = run(capsys, "-q", "--stdin-filename", "k.cu", "-")
    assert code == 1 and out.startswith(FINDING)


def test_a_configured_cuda_path_that_does_not_exist_is_refused(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "cudalint.toml").write_text('cuda-path = "no/such/toolkit"\n')
    code, out, err = run(capsys, "k.cu")
    assert code == 2 and out == ""
    assert "'cuda-path' in " in err and "no/such/toolkit' is not a directory" in err


@pytest.mark.parametrize("key", ["include-dirs", "exclude", "cuda-path", "defines"])
def test_a_nul_in_configured_strings_is_refused(
    work: Path, capsys: pytest.CaptureFixture[str], key: str
) -> None:
    value = '"a\\u0000b"' if key == "cuda-path" else '["A\\u0000b"]'
    (work / "cudalint.toml").write_text(f"{key} = {value}\n")
    code, _, err = run(capsys, "k.cu")
    assert code == 2
    assert f"invalid value for '{key}'" in err
