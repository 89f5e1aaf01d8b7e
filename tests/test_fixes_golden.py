"""Fix goldens: ``fixtures/fixes/X.cu`` → ``X.fixed.cu`` through ``cudalint --fix``.

For each fixture: the help line offered (its applicability and a piece of its title),
the file ``--fix --unsafe-fixes`` writes (byte for byte the ``.fixed.cu``), that a
second ``--fix`` changes nothing, that re-analysis of the fixed file reports no
conflict on the lines whose fix was applied, that ``--diff`` prints the same change and
writes nothing, and that the fixed file compiles with ``nvcc -arch=sm_90 -c`` (when
nvcc is installed; skipped otherwise — cudalint never needs it).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from cudalint.cli import main
from cudalint.fixes.apply import unified_diff

ROOT = Path(__file__).resolve().parent.parent
FIXES = ROOT / "fixtures" / "fixes"

#: fixture -> (applicability of the fix on the reported access, piece of the title);
#: None when no fix may be offered at all.
EXPECTED: dict[str, tuple[str, str] | None] = {
    "pad_transpose.cu": (
        "safe",
        "pad the last dimension: tile[TILE][TILE + 1] (+128 bytes per block)",
    ),
    "stride_1d.cu": ("safe", "pad each row: s[32 * (W + 1)] (+128 bytes per block)"),
    "stride_1d_variable.cu": (
        "display-only",
        "the row stride 32 of the subscript at line 9 could not be found",
    ),
    "stride_1d_mixed.cu": None,
    "raw_pointer.cu": (
        "display-only",
        "'tile' is also accessed through a pointer at line 8 (row[threadIdx.x])",
    ),
    "vector_read.cu": ("display-only", "tile[32][36]"),
    "store_side.cu": ("unsafe", "swizzle the column index of 'tile'"),
    "kepler_eight_byte.cu": (
        "display-only",
        "cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte)",
    ),
    "packing_filter.cu": ("display-only", "load both words as one float2"),
    "launch_param.cu": (
        "display-only",
        "not applied: the proof assumes W=32, which the "
        "launch at line 16 passes to kernel "
        "'transpose_param'",
    ),
}


def _args(path: Path) -> list[str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    if "cudalint-args:" in first:
        return shlex.split(first.split("cudalint-args:", 1)[1])
    return []


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--isolated", *argv])
    return code, out.getvalue(), err.getvalue()


def _inputs() -> list[Path]:
    return sorted(p for p in FIXES.glob("*.cu") if not p.name.endswith(".fixed.cu"))


def test_every_fixture_has_an_expectation_and_a_golden() -> None:
    names = {p.name for p in _inputs()}
    assert names == set(EXPECTED)
    for name in names:
        assert (FIXES / name.replace(".cu", ".fixed.cu")).exists(), name


@pytest.fixture(params=[p.name for p in _inputs()])
def fixture(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, Path]:
    name: str = request.param
    target = tmp_path / name
    shutil.copyfile(FIXES / name, target)
    monkeypatch.chdir(tmp_path)
    return name, target


def test_offered_fix(fixture: tuple[str, Path]) -> None:
    name, path = fixture
    _, out, _ = _run("--format", "json", *_args(path), path.name)
    document = json.loads(out)
    fixes = [d["fix"] for d in document["diagnostics"] if d["fix"] is not None]
    expected = EXPECTED[name]
    if expected is None:
        assert fixes == []
        return
    applicability, piece = expected
    assert any(f["applicability"] == applicability and piece in f["title"] for f in fixes), [
        f["title"] for f in fixes
    ]
    if applicability != "display-only":
        assert all(f["edits"] for f in fixes)


def test_fix_writes_the_golden_and_converges(fixture: tuple[str, Path]) -> None:
    name, path = fixture
    args = _args(path)
    before = path.read_bytes()
    mode = 0o640
    os.chmod(path, mode)
    _, out, _ = _run("--format", "json", *args, path.name)
    offered = {
        d["line"]
        for d in json.loads(out)["diagnostics"]
        if d["fix"] is not None and d["fix"]["applicability"] in ("safe", "unsafe")
    }
    code, _, err = _run("--fix", "--unsafe-fixes", *args, path.name)
    fixed = path.read_bytes()
    golden = (FIXES / name.replace(".cu", ".fixed.cu")).read_bytes()
    assert fixed == golden, err
    assert (fixed != before) == bool(offered)
    assert os.stat(path).st_mode & 0o777 == mode
    # What remains decides the exit status: the re-analysis of the fixed file.
    code_after, out_after, _ = _run("--format", "json", *args, path.name)
    assert code == code_after
    remaining = json.loads(out_after)["diagnostics"]
    assert not [d for d in remaining if d["line"] in offered and d["code"] in ("CL001", "CL002")]
    # Idempotence: a second --fix has nothing left to do.
    _run("--fix", "--unsafe-fixes", *args, path.name)
    assert path.read_bytes() == fixed


def test_diff_prints_the_change_and_writes_nothing(fixture: tuple[str, Path]) -> None:
    name, path = fixture
    before = path.read_bytes()
    stamp = os.stat(path).st_mtime_ns
    golden = (FIXES / name.replace(".cu", ".fixed.cu")).read_bytes()
    code, out, _ = _run("--diff", "--unsafe-fixes", *_args(path), path.name)
    assert path.read_bytes() == before
    assert os.stat(path).st_mtime_ns == stamp
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no temp files
    if golden == before:
        assert (code, out) == (0, "")
    else:
        assert code == 1
        assert out == unified_diff(path.name, before, golden)


def test_safe_only_fix_leaves_unsafe_fixes(fixture: tuple[str, Path]) -> None:
    name, path = fixture
    before = path.read_bytes()
    _run("--fix", *_args(path), path.name)
    expected = EXPECTED[name]
    if expected is not None and expected[0] == "safe":
        assert path.read_bytes() != before
    else:
        assert path.read_bytes() == before


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("name", [p.name for p in _inputs()])
def test_fixed_file_compiles(name: str, tmp_path: Path) -> None:
    fixed = FIXES / name.replace(".cu", ".fixed.cu")
    if fixed.read_bytes() == (FIXES / name).read_bytes():
        pytest.skip("no change: the input itself")
    proc = subprocess.run(
        ["nvcc", "-arch=sm_90", "-c", "-x", "cu", str(fixed), "-o", str(tmp_path / "k.o")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
