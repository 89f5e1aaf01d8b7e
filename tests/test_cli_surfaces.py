"""The terminal surface: directories and excludes, ``-j``, stdin, colour and the progress bar
on a real terminal (a pty), and exit codes of the new options.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from factories import CLEAN, TRANSPOSE, FakePipeline, install_fake_pipeline, run_cli, write_sources

from cudalint.api import ExcludeMatcher, FileTask, run_tasks
from cudalint.options import Options

ROOT = Path(__file__).resolve().parent.parent


run = run_cli


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakePipeline:
    pipeline = install_fake_pipeline(monkeypatch)
    write_sources(tmp_path)
    monkeypatch.chdir(tmp_path)
    return pipeline


def touch(*names: str) -> None:
    for name in names:
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        Path(name).write_text("", encoding="utf-8")


# --- directories and excludes ----------------------------------------------------------------


def test_recursion_finds_cu_and_cuh_only(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    touch(
        "src/a.cu",
        "src/b/c.cuh",
        "src/b/d/e.cu",
        "src/x.cpp",
        "src/y.cu.txt",
        "src/.hidden/h.cu",
        "src/.h.cu",
    )
    assert run(capsys, "src")[0] == 0
    # Headers a directory gives are analysed after the other files (api.run_tasks).
    assert fake.parsed == [
        os.path.join("src", "a.cu"),
        os.path.join("src", "b", "d", "e.cu"),
        os.path.join("src", "b", "c.cuh"),
    ]


@pytest.mark.parametrize(
    ("patterns", "expected"),
    [
        (["third_party"], ["src/a.cu", "src/gen/k.gen.cu", "src/k.cuh"]),
        (["*.gen.cu"], ["src/a.cu", "src/k.cuh", "src/third_party/t.cu"]),
        (["src/gen"], ["src/a.cu", "src/k.cuh", "src/third_party/t.cu"]),
        (["src/*.cuh,gen"], ["src/a.cu", "src/third_party/t.cu"]),
        (["*.cuh", "third*"], ["src/a.cu", "src/gen/k.gen.cu"]),
        (["nothing"], ["src/a.cu", "src/gen/k.gen.cu", "src/k.cuh", "src/third_party/t.cu"]),
    ],
)
def test_exclude_globs(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], patterns: list[str], expected: list[str]
) -> None:
    touch("src/a.cu", "src/k.cuh", "src/gen/k.gen.cu", "src/third_party/t.cu")
    argv = [arg for p in patterns for arg in ("--exclude", p)]
    run(capsys, *argv, "src")
    # Headers a directory gives are analysed after the other files (api.run_tasks).
    expected = sorted(expected, key=lambda p: p.endswith(".cuh"))
    assert [p.replace(os.sep, "/") for p in fake.parsed] == expected


def test_exclude_applies_to_files_given_by_name(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    # pre-commit passes every file by name: an exclude must still hold for them.
    touch("third_party/t.cu")
    code, out, _ = run(capsys, "--exclude", "third_party", "third_party/t.cu", "clean.cu")
    assert code == 0
    assert fake.parsed == ["clean.cu"]
    assert out.startswith("1 file,")


def test_config_exclude_is_relative_to_the_config(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    touch("proj/vendor/v.cu", "proj/src/vendor/keep.cu", "proj/src/a.cu")
    Path("proj/cudalint.toml").write_text('exclude = ["vendor/*"]\n', encoding="utf-8")
    run(capsys, "proj")
    assert sorted(p.replace(os.sep, "/") for p in fake.parsed) == [
        "proj/src/a.cu",
        "proj/src/vendor/keep.cu",
    ]


def test_exclude_matcher_outside_its_base(tmp_path: Path) -> None:
    matcher = ExcludeMatcher([("*.cuh", str(tmp_path / "base"))])
    assert matcher(str(tmp_path / "elsewhere" / "x.cuh"))
    assert not matcher(str(tmp_path / "elsewhere" / "x.cu"))
    assert not ExcludeMatcher()


def test_a_file_given_twice_is_analyzed_once(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    touch("src/a.cu")
    run(capsys, "src", "src/a.cu", "./src/a.cu")
    assert fake.parsed == [os.path.join("src", "a.cu")]


# --- -j ----------------------------------------------------------------------------------------


def _fixture_files() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "fixtures").glob("*.cu"))


@pytest.mark.slow
def test_jobs_output_is_identical_byte_for_byte(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    files = _fixture_files()
    # JSON with every access record: the richest output. The text output renders the
    # same reports (tests/test_output_formats.py snapshots it).
    outputs = {
        jobs: run(
            capsys,
            "-j",
            jobs,
            "--isolated",
            "--format",
            "json",
            "--show-all",
            "--select",
            "ALL",
            *files,
        )
        for jobs in ("1", "3")
    }
    assert outputs["1"] == outputs["3"]
    assert outputs["1"][0] == 1 and '"wavefronts"' in outputs["1"][1]


def test_run_tasks_keeps_the_order_of_the_tasks(tmp_path: Path) -> None:
    names = []
    for i in range(6):
        path = tmp_path / f"k{i}.cu"
        path.write_text(TRANSPOSE if i % 2 else CLEAN, encoding="utf-8")
        names.append(str(path))
    tasks = [FileTask(n, Options()) for n in reversed(names)]
    tasks.insert(2, FileTask("gone.cu", Options(), error="cannot read directory: x"))
    seen: list[tuple[int, int]] = []
    parallel = run_tasks(tasks, jobs=3, progress=lambda done, total: seen.append((done, total)))
    serial = run_tasks(tasks, jobs=1)
    assert [r.path for r in parallel] == [t.path for t in tasks]
    assert [(r.path, r.error, r.diagnostics) for r in parallel] == [
        (r.path, r.error, r.diagnostics) for r in serial
    ]
    assert sorted(seen)[-1] == (7, 7) and len(seen) == 6


class _KillsTheWorker(bytes):
    """Unpickled in the worker process, it ends that process at once (a libclang crash)."""

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (os._exit, (3,))


def test_a_crashing_worker_costs_only_its_file(tmp_path: Path) -> None:
    good = []
    for i in range(4):
        path = tmp_path / f"k{i}.cu"
        path.write_text(TRANSPOSE, encoding="utf-8")
        good.append(FileTask(str(path), Options()))
    crash = FileTask(str(tmp_path / "crash.cu"), Options(), contents=_KillsTheWorker(b"x"))
    tasks = [good[0], crash, *good[1:]]
    reports = run_tasks(tasks, jobs=2)
    assert [r.path for r in reports] == [t.path for t in tasks]
    assert reports[1].error == (
        f"internal error analyzing {crash.path}: the analysis process died; please report"
    )
    for report in reports[:1] + reports[2:]:
        assert report.error is None and [d.code for d in report.diagnostics] == ["CL001"]


def test_jobs_value(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "-j", "auto", "clean.cu")[0] == 0
    assert run(capsys, "-j", "0", "clean.cu")[0] == 0
    code, _, err = run(capsys, "-j", "many", "clean.cu")
    assert code == 2 and "invalid job count 'many'" in err


# --- stdin ---------------------------------------------------------------------------------------


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def test_stdin_with_a_filename(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    Path("transpose.cu").unlink()  # the source comes from stdin, not the file
    _stdin(monkeypatch, TRANSPOSE)
    code, out, _ = run(capsys, "-", "--stdin-filename", "transpose.cu")
    assert code == 1
    assert out.startswith("transpose.cu:10:25: warning:")
    assert "    out[y * 1024 + x] = tile[threadIdx.x][threadIdx.y];\n" in out
    assert fake.parsed == ["transpose.cu"]


def test_stdin_name_finds_the_configuration(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    Path("sub").mkdir()
    Path("sub/cudalint.toml").write_text('arch = "sm_75"\nignore = ["CL001"]\n', encoding="utf-8")
    _stdin(monkeypatch, TRANSPOSE)
    code, _, _ = run(capsys, "-", "--stdin-filename", "sub/transpose.cu")
    assert code == 0 and fake.options[0].arch == "sm_75"


def test_stdin_misuse_is_exit_2(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, "")
    assert run(capsys, "-", "clean.cu")[0] == 2
    code, _, err = run(capsys, "--stdin-filename", "x.cu", "clean.cu")
    assert code == 2 and "--stdin-filename needs '-'" in err


def test_stdin_end_to_end(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "cudalint",
            "--isolated",
            "-",
            "--stdin-filename",
            "k.cu",
            "--format",
            "json",
        ],
        input=TRANSPOSE.encode(),
        capture_output=True,
        cwd=tmp_path,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 1, proc.stderr
    assert b'"file": "k.cu"' in proc.stdout and b'"code": "CL001"' in proc.stdout


# --- a real terminal: colour and the progress bar --------------------------------------------


def _on_pty(
    argv: list[str],
    cwd: Path,
    *,
    stdout_tty: bool,
    stderr_tty: bool,
    env: dict[str, str] | None = None,
) -> tuple[int, bytes, bytes]:
    """Run ``python -m cudalint ARGV`` with stdout/stderr on ptys (or pipes)."""
    if sys.platform == "win32":
        pytest.skip("needs a POSIX pty")
    import pty
    import select

    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "CI")}
    environment.update(env or {}, PYTHONPATH=str(ROOT), TERM="xterm")
    masters: dict[str, int] = {}
    slaves: dict[str, int] = {}
    for name, tty in (("out", stdout_tty), ("err", stderr_tty)):
        if tty:
            masters[name], slaves[name] = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cudalint", *argv],
        cwd=cwd,
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=slaves.get("out", subprocess.PIPE),
        stderr=slaves.get("err", subprocess.PIPE),
    )
    for fd in slaves.values():
        os.close(fd)
    data = {"out": b"", "err": b""}
    streams = {masters[n]: n for n in masters}
    pipes = {getattr(proc, f"std{n}").fileno(): n for n in ("out", "err") if n not in masters}
    open_fds = {**streams, **pipes}
    while open_fds:
        ready, _, _ = select.select(list(open_fds), [], [], 60)
        if not ready:
            break
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # pty closed
                chunk = b""
            if not chunk:
                del open_fds[fd]
                continue
            data[open_fds[fd]] += chunk
    code = proc.wait(timeout=120)
    for fd in masters.values():
        os.close(fd)
    return code, data["out"], data["err"]


def _kernels(directory: Path, count: int) -> None:
    directory.mkdir(exist_ok=True)
    for i in range(count):
        (directory / f"k{i:02d}.cu").write_text(TRANSPOSE if i == 0 else CLEAN, encoding="utf-8")


def test_colour_only_on_a_terminal(tmp_path: Path) -> None:
    _kernels(tmp_path / "src", 1)
    code, out, _ = _on_pty(["--isolated", "src"], tmp_path, stdout_tty=True, stderr_tty=False)
    assert code == 1
    assert b"\x1b[1;35mwarning:\x1b[0m" in out
    _, out, _ = _on_pty(
        ["--isolated", "src"], tmp_path, stdout_tty=True, stderr_tty=False, env={"NO_COLOR": "1"}
    )
    assert b"warning:" in out and b"\x1b[" not in out
    _, out, _ = _on_pty(
        ["--isolated", "--color", "never", "src"], tmp_path, stdout_tty=True, stderr_tty=False
    )
    assert b"warning:" in out and b"\x1b[" not in out
    _, out, _ = _on_pty(["--isolated", "src"], tmp_path, stdout_tty=False, stderr_tty=False)
    assert b"warning:" in out and b"\x1b[" not in out
    _, out, _ = _on_pty(
        ["--isolated", "--color", "always", "src"],
        tmp_path,
        stdout_tty=False,
        stderr_tty=False,
        env={"NO_COLOR": "1"},
    )
    assert b"\x1b[1;35mwarning:" in out


@pytest.mark.slow
def test_progress_bar_only_on_a_terminal_and_for_many_files(tmp_path: Path) -> None:
    _kernels(tmp_path / "many", 8)
    code, out, err = _on_pty(["--isolated", "many"], tmp_path, stdout_tty=False, stderr_tty=True)
    assert code == 1
    assert b"\r[" in err and b"] 8/8 files" in err
    assert err.endswith(b"\r\x1b[K")  # cleared before the report
    assert b"files" not in out.split(b"\n")[0]  # the report itself is untouched
    _, _, err = _on_pty(["--isolated", "many"], tmp_path, stdout_tty=False, stderr_tty=False)
    assert err == b""
    _, _, err = _on_pty(["--isolated", "-q", "many"], tmp_path, stdout_tty=False, stderr_tty=True)
    assert b"files" not in err
    _kernels(tmp_path / "few", 3)
    _, _, err = _on_pty(["--isolated", "few"], tmp_path, stdout_tty=False, stderr_tty=True)
    assert b"files" not in err


# --- exit codes ----------------------------------------------------------------------------------


def test_exit_zero_with_findings_and_with_errors(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "transpose.cu")[0] == 1
    assert run(capsys, "--exit-zero", "transpose.cu")[0] == 0
    assert run(capsys, "--exit-zero", "transpose.cu", "missing.cu")[0] == 2
    assert run(capsys, "--exit-zero", "--format", "sarif", "transpose.cu")[0] == 0


def test_help_lists_the_new_options(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--help")
    for flag in (
        "--exclude",
        "-j",
        "--statistics",
        "--stdin-filename",
        "--config",
        "--isolated",
        "-p",
        "--compile-commands",
        "--warn-unused-ignores",
        "--add-ignores",
        "--baseline",
        "--update-baseline",
        "--verbose",
        "sarif",
        "github",
        "concise",
    ):
        assert flag in out
