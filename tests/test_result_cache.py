"""The result cache (``--cache-dir``, cudalint.result_cache): a hit prints the very bytes
an analysis prints, and anything a report depends on makes it a miss."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from cudalint import manager, result_cache
from cudalint.checker import FileTask, check_file
from cudalint.cli import main
from cudalint.frontend import cache
from cudalint.options import Options

# A 32x32 float tile read down a column: every lane of a warp reads a word 32 (+PAD)
# words after the previous lane's, so with PAD 0 all 32 lanes hit bank 0 (32 distinct
# words: 32 wavefronts, a 32-way conflict), with PAD 1 lane L hits bank L (1 wavefront).
KERNEL = """\
#include "pad.h"
__global__ void k(float *out) {
    __shared__ float s[32][32 + PAD];
    s[threadIdx.y][threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x][threadIdx.y];  // cudalint: ignore[CL004]
}
int main() { k<<<1, dim3(32, 32)>>>(0); }
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    src = tmp_path / "src"
    (src / "inc").mkdir(parents=True)
    (src / "inc" / "pad.h").write_text("#define PAD 0\n")
    (src / "k.cu").write_text(KERNEL)
    monkeypatch.chdir(src)
    monkeypatch.delenv(cache.ENV, raising=False)
    # analysed in this process, so that the analyses can be counted
    monkeypatch.setenv("CUDALINT_IN_PROCESS", "1")
    return src


@pytest.fixture
def analyses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files really analysed (a hit analyses nothing)."""
    seen: list[str] = []
    real = manager._run_task

    def counting(task: FileTask) -> object:
        seen.append(task.path)
        return real(task)

    monkeypatch.setattr(manager, "_run_task", counting)
    return seen


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["-I", "inc", *argv])
    out = capsys.readouterr().out
    return code, out


def _entries(root: Path) -> list[Path]:
    return sorted((root / "results").glob("*.pickle")) if (root / "results").is_dir() else []


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif", "github"])
def test_hit_prints_the_same_bytes(
    project: Path, tmp_path: Path, analyses: list[str], capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    root = tmp_path / "cache"
    argv = (f"--format={fmt}", "--show-all" if fmt == "json" else "--color=never", "k.cu")
    plain = _run(capsys, "--no-cache", *argv)
    first = _run(capsys, f"--cache-dir={root}", *argv)
    assert len(_entries(root)) == 1
    del analyses[:]
    second = _run(capsys, f"--cache-dir={root}", *argv)
    assert analyses == []  # a hit
    assert plain == first == second
    assert plain[0] == 1 and "32" in plain[1]


def test_hit_is_read_from_the_entry(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI prints what the entry holds (the wiring, not a lucky re-analysis)."""
    root = tmp_path / "cache"
    _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu")
    (entry,) = _entries(root)
    data = entry.read_bytes()
    assert b"32-way bank conflict" in data
    entry.write_bytes(data.replace(b"32-way bank conflict", b"31-way bank conflict"))
    _, out = _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu")
    assert "31-way bank conflict" in out


def test_changed_include_misses(
    project: Path, tmp_path: Path, analyses: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "cache"
    code, out = _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu")
    assert code == 1 and "CL001" in out
    (project / "inc" / "pad.h").write_text("#define PAD 1\n")
    del analyses[:]
    code, out = _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu")
    assert analyses == ["k.cu"]
    assert (code, out) == _run(capsys, "--no-cache", "--format=concise", "k.cu")
    assert code == 0 and "CL001" not in out
    # and the new header's result is a hit in turn
    del analyses[:]
    assert _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu") == (code, out)
    assert analyses == []


def test_new_header_that_shadows_an_include_misses(
    project: Path, tmp_path: Path, analyses: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``#include "pad.h"`` finds the file's own folder first: a pad.h created there
    changes what the include reads although no file the parse read changed."""
    root = tmp_path / "cache"
    _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu")
    (project / "pad.h").write_text("#define PAD 1\n")
    del analyses[:]
    code, out = _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu")
    assert analyses == ["k.cu"] and code == 0 and "CL001" not in out


@pytest.mark.parametrize(
    "extra", [["-DPAD_UNUSED=1"], ["--arch=sm_80"], ["--ignore=CL001"], ["--block-dim=32,8"]]
)
def test_changed_options_miss(
    project: Path,
    tmp_path: Path,
    analyses: list[str],
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
) -> None:
    root = tmp_path / "cache"
    _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu")
    del analyses[:]
    got = _run(capsys, f"--cache-dir={root}", "--format=concise", *extra, "k.cu")
    assert analyses == ["k.cu"]
    assert got == _run(capsys, "--no-cache", "--format=concise", *extra, "k.cu")


def test_changed_file_misses(
    project: Path, tmp_path: Path, analyses: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "cache"
    _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu")
    (project / "k.cu").write_text(KERNEL.replace("32 + PAD", "33 + PAD"))
    del analyses[:]
    code, _ = _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu")
    assert analyses == ["k.cu"] and code == 0


def test_errors_and_stdin_are_not_cached(
    project: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = tmp_path / "cache"
    (project / "bin.cu").write_bytes(b"\0\1\2 not a source file")
    _run(capsys, f"--cache-dir={root}", "bin.cu")
    assert _entries(root) == []
    monkeypatch.setattr(sys, "stdin", _Stdin(KERNEL.encode()))
    _run(capsys, f"--cache-dir={root}", "--stdin-filename=k.cu", "-")
    assert _entries(root) == []


class _Stdin:
    def __init__(self, data: bytes) -> None:
        import io

        self.buffer = io.BytesIO(data)

    def read(self) -> str:
        return self.buffer.read().decode()


class _Planted:
    """An object whose unpickling would run a command."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


def test_malformed_or_planted_entry_is_a_miss(
    project: Path, tmp_path: Path, analyses: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A broken entry is re-analysed; an entry that names any other global (a cache
    directory planted in a repository) is refused unread: no code runs."""
    root = tmp_path / "cache"
    want = _run(capsys, f"--cache-dir={root}", "--format=json", "k.cu")
    (entry,) = _entries(root)
    marker = tmp_path / "ran"
    planted = pickle.dumps(
        {
            "schema": result_cache.SCHEMA,
            "headers": [],
            "dirs": [],
            "report": {"path": _Planted(marker)},
        }
    )
    for bad in (b"", b"\x80\x05garbage", planted, entry.read_bytes()[:100]):
        entry.write_bytes(bad)
        del analyses[:]
        assert _run(capsys, f"--cache-dir={root}", "--format=json", "k.cu") == want
        assert analyses == ["k.cu"]
        assert not marker.exists()
        # the analysis wrote a good entry again: spoil it next round
        (entry,) = _entries(root)


def test_get_put_round_trip(project: Path, tmp_path: Path) -> None:
    """The module's API on its own: a miss, the report stored, the same report back."""
    root = str(tmp_path / "cache")
    task = FileTask("k.cu", Options(include_dirs=("inc",)))
    hit, pending = result_cache.get(task, root)
    assert hit is None and pending is not None
    report = check_file(task.path, task.options)
    assert report.error is None and report.diagnostics
    result_cache.put(pending, report)
    hit, pending = result_cache.get(task, root)
    assert pending is None and hit == report
    # fields that equality skips come back too (the bank map draws from them)
    assert [r.lane_addresses for r in hit.results] == [r.lane_addresses for r in report.results]


def test_key_is_the_same_in_every_process(project: Path) -> None:
    """Sets in the task (the rule selection's codes) are keyed in a stable order."""
    code = (
        "from cudalint import result_cache; from cudalint.checker import FileTask;"
        "from cudalint.options import Options; from cudalint.rules import RuleSelection;"
        "t = FileTask('k.cu', Options(include_dirs=('inc',)),"
        " RuleSelection.build(select=['CL001', 'CL002', 'CL003'], ignore=['CL004']));"
        "print(result_cache.key(t, b'x'))"
    )
    keys = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in (1, 2, 3)
    }
    assert len(keys) == 1


def test_cache_beside_the_files_stores_on_the_first_run(
    project: Path, analyses: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``--cache-dir=.cudalint_cache`` in the folder of the files (the hook's case: the
    repository's root): creating it must not make the first run's entry stale."""
    want = _run(capsys, "--cache-dir=.cudalint_cache", "--format=concise", "k.cu")
    assert len(_entries(project / ".cudalint_cache")) == 1
    del analyses[:]
    assert _run(capsys, "--cache-dir=.cudalint_cache", "--format=concise", "k.cu") == want
    assert analyses == []
    assert (project / ".cudalint_cache" / ".gitignore").read_text().strip().endswith("*")


def test_outside_headers_are_not_cached(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Headers outside the project (-isystem from a compilation database; a toolkit's
    with --cuda-path) are not recorded: such a run is never cached (as the parse cache
    does: cudalint.frontend.cache.cacheable)."""
    root = tmp_path / "cache"
    (tmp_path / "db").mkdir()
    db = tmp_path / "db" / "compile_commands.json"  # where no discovery finds it
    db.write_text(
        json.dumps(
            [
                {
                    "directory": str(project),
                    "file": "k.cu",
                    "command": "nvcc -isystem /usr/include -Iinc -c k.cu",
                }
            ]
        )
    )
    code, out = _run(
        capsys, f"--cache-dir={root}", "--format=concise", "--compile-commands", str(db), "k.cu"
    )
    assert code == 1 and "CL001" in out  # analysed, with the database's -I
    assert _entries(root) == []
    _run(capsys, f"--cache-dir={root}", "--format=concise", "k.cu")  # the check works
    assert len(_entries(root)) == 1
