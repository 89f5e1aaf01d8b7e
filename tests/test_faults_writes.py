"""Fault injection for what cudalint writes and what ``-j`` starts (issue 17, items 1, 2, 5).

- Every writer (``--fix``, ``--add-ignores``, ``--baseline``, ``--bank-map-svg``) goes through
  ``cudalint.fsutil.write_file``: a failing write (ENOSPC, ``ulimit -f``, Ctrl-C, SIGKILL)
  leaves the original intact and no temporary file behind (a SIGKILL's is removed by the
  next write), and a file edited while cudalint ran is not overwritten (exit 2).
- ``-j`` does not run code planted in the linted repository (a ``multiprocessing``
  package, ``socket.py``) in the helper processes multiprocessing starts.
- ``-j`` and serial runs leave ``$TMPDIR`` as they found it.

The CLI runs in a subprocess through a small script outside the repository, as the
installed ``cudalint`` entry point runs (``sys.path[0]`` is the script's directory, not
the current one).
"""

from __future__ import annotations

import errno
import json
import os
import random
import resource
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import cudalint.cli as cli
from cudalint import fsutil
from cudalint.api import FileReport
from cudalint.baseline import BaselineError, write_baseline
from cudalint.fsutil import ABSENT, FileChanged, WriteError, write_file

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
#: A 32x32 transpose: one conflict (CL001), a safe pad fix; --add-ignores adds one comment.
TRANSPOSE = (FIXTURES / "fixes" / "pad_transpose.cu").read_bytes()

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes and limits")


def temps(directory: Path) -> list[str]:
    return sorted(
        p.name
        for p in directory.iterdir()
        if p.name.startswith(fsutil.TEMP_PREFIX) and p.name.endswith(".tmp")
    )


@pytest.fixture
def runner(tmp_path: Path) -> Path:
    """A script that runs the CLI the way the installed entry point does."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "run_cudalint.py"
    script.write_text(
        "import sys\nfrom cudalint.cli import main\n"
        "if __name__ == '__main__':\n    sys.exit(main(sys.argv[1:]))\n",
        encoding="utf-8",
    )
    return script


def private_env(tmpdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CUDALINT", "PYTHON"))}
    env["TMPDIR"] = str(tmpdir)
    return env


# --- the writer on its own --------------------------------------------------------------------


def test_write_replaces_keeps_the_mode_and_leaves_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_bytes(b"old")
    os.chmod(path, 0o640)
    inode = os.stat(path).st_ino
    write_file(str(path), b"new", expected=b"old")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert os.stat(path).st_ino != inode  # replaced by rename, not rewritten in place
    assert sorted(os.listdir(tmp_path)) == ["k.cu"]


def test_write_refuses_a_changed_file_and_an_appeared_one(tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_bytes(b"edited by the user")
    with pytest.raises(FileChanged, match="changed since it was analyzed; not written"):
        write_file(str(path), b"ours", expected=b"edited")  # a prefix is not the same file
    with pytest.raises(FileChanged, match="was created while cudalint ran"):
        write_file(str(path), b"ours", expected=ABSENT)
    assert path.read_bytes() == b"edited by the user"
    assert sorted(os.listdir(tmp_path)) == ["k.cu"]


def test_a_new_file_gets_the_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_file(str(tmp_path / "new.json"), b"{}\n", expected=ABSENT)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o640


@pytest.mark.parametrize(
    "failure", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()]
)
def test_a_failing_write_keeps_the_original_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: BaseException
) -> None:
    path = tmp_path / "k.cu"
    path.write_bytes(b"original")
    os.chmod(path, 0o644)
    modes: list[int] = []

    def fsync(fd: int) -> None:
        modes.append(stat.S_IMODE(os.fstat(fd).st_mode))
        raise failure

    monkeypatch.setattr(os, "fsync", fsync)
    expected = WriteError if isinstance(failure, OSError) else KeyboardInterrupt
    with pytest.raises(expected) as info:
        write_file(str(path), b"x" * 100_000, expected=b"original")
    if isinstance(failure, OSError):
        assert str(info.value) == f"cannot write {path}: No space left on device"
    assert modes == [0o600]  # the half-written temporary file is the owner's only
    assert path.read_bytes() == b"original"
    assert sorted(os.listdir(tmp_path)) == ["k.cu"]


def test_stale_temps_of_dead_processes_are_removed(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".cudalint-{dead.pid}-abc123.tmp"  # killed in a write
    live = tmp_path / f".cudalint-{os.getpid()}-def456.tmp"  # a write going on now
    old = tmp_path / ".cudalint-k2j4_x9q.tmp"  # an older cudalint's name, no pid
    young = tmp_path / ".cudalint-zzzzzzzz.tmp"
    other = tmp_path / ".cudalint-notes.txt"  # not ours
    for p in (stale, live, old, young, other):
        p.write_bytes(b"partial")
    hours_ago = time.time() - 2 * fsutil.STALE_SECONDS
    os.utime(old, (hours_ago, hours_ago))
    write_file(str(tmp_path / "k.cu"), b"new")
    assert temps(tmp_path) == sorted([live.name, young.name])
    assert other.exists()


# --- the CLI: a file-size limit, a file edited meanwhile --------------------------------------


def big_transpose(path: Path, lines: int = 40_000) -> bytes:
    """The transpose with ``lines`` lines of comments (80 bytes each): by default a file
    larger than libclang's precompiled shim (1.2 MB), so that a file-size limit just above
    it stops cudalint's write, not libclang's."""
    data = TRANSPOSE + (b"// " + b"x" * 76 + b"\n") * lines
    path.write_bytes(data)
    return data


@pytest.mark.parametrize("option", ["--add-ignores", "--fix"])
def test_a_file_size_limit_leaves_the_original_intact(
    tmp_path: Path, runner: Path, option: str
) -> None:
    (tmp_path / "tmp").mkdir()
    path = tmp_path / "k.cu"
    data = big_transpose(path)

    def limit() -> None:  # `ulimit -f` at the file's size: the longer text cannot be written
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(data), len(data)))

    proc = subprocess.run(
        [sys.executable, str(runner), "--isolated", option, "k.cu"],
        cwd=tmp_path,
        env=private_env(tmp_path / "tmp"),
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "cudalint: error: cannot write k.cu: File too large" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert path.read_bytes() == data
    assert temps(tmp_path) == []
    # without the limit the same command writes
    proc = subprocess.run(
        [sys.executable, str(runner), "--isolated", option, "k.cu"],
        cwd=tmp_path,
        env=private_env(tmp_path / "tmp"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert path.read_bytes() != data and temps(tmp_path) == []


def edit_after_analysis(monkeypatch: pytest.MonkeyPatch, path: Path, text: bytes) -> None:
    real = cli.run_tasks  # type: ignore[attr-defined]

    def run_then_edit(*args: object, **kwargs: object) -> list[FileReport]:
        reports = real(*args, **kwargs)  # type: ignore[arg-type]
        path.write_bytes(text)  # the user saves the file while cudalint runs
        return reports

    monkeypatch.setattr("cudalint.cli.run_tasks", run_then_edit)


@pytest.mark.parametrize("option", ["--add-ignores", "--fix"])
def test_a_file_edited_during_the_run_is_not_overwritten(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    option: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "k.cu"
    path.write_bytes(TRANSPOSE)
    edited = TRANSPOSE + b"// the user's new line\n"
    edit_after_analysis(monkeypatch, path, edited)
    code = cli.main(["--isolated", option, "k.cu"])
    _, err = capsys.readouterr()
    assert code == 2
    assert "cudalint: error: k.cu changed since it was analyzed; not written" in err
    assert path.read_bytes() == edited
    assert temps(tmp_path) == []


def test_a_baseline_written_meanwhile_is_kept(tmp_path: Path) -> None:
    # --baseline records a new file only while none exists (the CLI checks first; one
    # written between that check and the write is kept)
    path = tmp_path / "base.json"
    theirs = b'{"version": 1, "findings": []}\n'
    path.write_bytes(theirs)
    with pytest.raises(BaselineError, match="was created while cudalint ran; not written"):
        write_baseline(str(path), [], create=True)
    assert path.read_bytes() == theirs
    assert write_baseline(str(path), []) == 0  # the library's plain call replaces it
    assert json.loads(path.read_bytes()) == {"version": 2, "findings": []}
    assert sorted(os.listdir(tmp_path)) == ["base.json"]


# --- kill -9 during --add-ignores ------------------------------------------------------------


@pytest.mark.slow
def test_kill_9_during_add_ignores_never_truncates(tmp_path: Path, runner: Path) -> None:
    """SIGKILL at random moments, half of them the moment anything in the directory changes
    (the write begins): the file is always the old text or the new, whole."""
    (tmp_path / "tmp").mkdir()
    work = tmp_path / "w"
    work.mkdir()
    path = work / "k.cu"
    original = big_transpose(path, 20_000)  # 1.6 MB: a write that takes a while
    argv = [sys.executable, str(runner), "--isolated", "--add-ignores", "k.cu"]
    env = private_env(tmp_path / "tmp")
    start = time.monotonic()
    subprocess.run(argv, cwd=work, env=env, capture_output=True, check=True, timeout=120)
    duration = time.monotonic() - start
    done = path.read_bytes()
    assert done != original and done.count(b"cudalint: ignore[CL001]") == 1
    rng = random.Random(17)
    outcomes = {"old": 0, "new": 0}
    for i in range(20):
        path.write_bytes(original)
        before = os.stat(path)
        proc = subprocess.Popen(
            argv, cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        if i % 2:
            time.sleep(rng.uniform(0.0, duration))
        else:
            watch(work, path, before, proc, rng)
        proc.kill()
        proc.wait()
        text = path.read_bytes()
        assert text in (original, done), f"kill {i}: {len(text)} bytes"
        outcomes["old" if text == original else "new"] += 1
    # a full run removes the temporary files the killed ones left
    path.write_bytes(original)
    subprocess.run(argv, cwd=work, env=env, capture_output=True, check=True, timeout=120)
    assert path.read_bytes() == done
    assert temps(work) == []
    assert outcomes["old"] > 0


def watch(
    directory: Path,
    path: Path,
    before: os.stat_result,
    proc: subprocess.Popen[bytes],
    rng: random.Random,
) -> None:
    """Return as soon as ``directory`` or ``path`` changes (or the process ends), plus a
    random fraction of a millisecond."""
    names = set(os.listdir(directory))
    while proc.poll() is None:
        st = os.stat(path)
        if (st.st_ino, st.st_size, st.st_mtime_ns) != (
            before.st_ino,
            before.st_size,
            before.st_mtime_ns,
        ) or (set(os.listdir(directory)) != names):
            time.sleep(rng.uniform(0.0, 0.001))
            return
        time.sleep(0.0002)


# --- -j: planted code, temporary directories --------------------------------------------------


PLANTED: dict[str, str] = {
    # the helper processes run `python -c "from multiprocessing.forkserver import main"`
    "multiprocessing/__init__.py": "multiprocessing",
    # ... which imports socket (not yet imported when the interpreter starts)
    "socket.py": "socket",
}


def plant(repo: Path, markers: Path) -> None:
    for name, tag in PLANTED.items():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            f"open({str(markers / tag)!r}, 'w').write('planted code ran')\n"
            "raise SystemExit('planted')\n",
            encoding="utf-8",
        )


def test_jobs_do_not_run_code_planted_in_the_linted_repository(
    tmp_path: Path, runner: Path
) -> None:
    repo, markers, tmp = tmp_path / "repo", tmp_path / "markers", tmp_path / "tmp"
    for d in (repo, markers, tmp):
        d.mkdir()
    plant(repo, markers)
    (repo / "a.cu").write_bytes(TRANSPOSE)
    (repo / "b.cu").write_bytes((FIXTURES / "assumed_block_dims.cu").read_bytes())
    env = private_env(tmp)
    # the plant works: a `python -c` started in the repository runs it
    subprocess.run(
        [sys.executable, "-c", "import multiprocessing"],
        cwd=repo,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert os.listdir(markers) == ["multiprocessing"]
    os.unlink(markers / "multiprocessing")

    proc = subprocess.run(
        [sys.executable, str(runner), "--isolated", "-j", "2", "a.cu", "b.cu"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert os.listdir(markers) == []
    assert proc.returncode == 1, proc.stderr
    assert "a.cu:" in proc.stdout and "b.cu:" in proc.stdout
    assert "2 files" in proc.stdout and "error" not in proc.stderr


def count_entries(directory: Path) -> list[str]:
    return sorted(os.listdir(directory))


@pytest.mark.parametrize("jobs", ["2", "1"])
def test_runs_leave_tmpdir_as_they_found_it(tmp_path: Path, runner: Path, jobs: str) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    (tmp / "someone-elses-file").write_bytes(b"")
    before = count_entries(tmp)
    proc = subprocess.run(
        [sys.executable, str(runner), "-q", "-j", jobs, str(FIXTURES)],
        cwd=tmp_path,
        env=private_env(tmp),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode in (0, 1, 2), proc.stderr
    assert "Traceback" not in proc.stderr
    assert count_entries(tmp) == before


def test_ctrl_c_with_jobs_leaves_tmpdir_as_it_found_it(tmp_path: Path, runner: Path) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = subprocess.Popen(
        [sys.executable, str(runner), "-q", "-j", "2", str(FIXTURES)],
        cwd=tmp_path,
        env=private_env(tmp),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    wait_for(lambda: any(n.startswith("cudalint-run-") for n in os.listdir(tmp)), proc)
    time.sleep(0.5)  # the workers have started on files
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in a terminal: the whole process group
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    assert proc.returncode == 130, err
    deadline = time.monotonic() + 10
    while os.listdir(tmp) and time.monotonic() < deadline:
        time.sleep(0.1)  # the workers' last moments
    assert os.listdir(tmp) == [], err


def wait_for(condition: Callable[[], bool], proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            _, err = proc.communicate()
            raise AssertionError(
                f"the run ended ({proc.returncode}) before its pool "
                f"started: {err.decode(errors='replace')[-2000:]}"
            )
        time.sleep(0.01)
