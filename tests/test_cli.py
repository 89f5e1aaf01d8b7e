"""The command line: exit codes, options, rule selection, paths and error handling.

Most tests replace the frontend and the model with ``factories.FakePipeline``; the
end-to-end tests at the bottom use the real ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from factories import FakePipeline, install_fake_pipeline, run_cli, write_sources

import cudalint
from cudalint.api import check_file, check_paths
from cudalint.options import Options

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakePipeline:
    pipeline = install_fake_pipeline(monkeypatch)
    write_sources(tmp_path)
    monkeypatch.chdir(tmp_path)
    return pipeline


run = run_cli


# --- version, explain, usage ---------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out == f"cudalint {cudalint.__version__}\n"
    assert cudalint.__version__.count(".") == 2


@pytest.mark.parametrize("selector", ["CL001", "cl001", "shared-bank-conflict"])
def test_explain(capsys: pytest.CaptureFixture[str], selector: str) -> None:
    code, out, _ = run(capsys, "--explain", selector)
    assert code == 0
    assert out.startswith("# CL001 shared-bank-conflict\n")
    for section in ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety"):
        assert f"## {section}\n" in out


def test_explain_unknown_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--explain", "CL999")
    assert code == 2
    assert out == ""
    assert "unknown rule 'CL999'" in err


def test_list_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--list-rules")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == [
        "CL001",
        "CL002",
        "CL003",
        "CL004",
        "CL005",
        "CL100",
    ]
    assert "off by default" in out.splitlines()[2]


def test_no_paths_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2
    assert "no paths given" in err
    assert "usage: cudalint" in err


def test_unknown_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--frobnicate", "x.cu")
    assert code == 2
    assert "unrecognized arguments: --frobnicate" in err


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for flag in (
        "--arch",
        "--bank-mode",
        "--block-dim",
        "--select",
        "--extend-select",
        "--ignore",
        "--explain",
        "--format",
        "--show-all",
        "--color",
        "--exit-zero",
        "--quiet",
        "--cuda-path",
        "--std",
        "-I",
        "-D",
    ):
        assert flag in out


# --- exit codes ----------------------------------------------------------------------------


def test_clean_file_exits_0(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "clean.cu")[0] == 0


def test_conflict_exits_1(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "transpose.cu")
    assert code == 1
    assert "[CL001]" in out


def test_exit_zero(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--exit-zero", "transpose.cu")
    assert code == 0
    assert "[CL001]" in out


def test_info_only_exits_0(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    # A missing include (CL004) and an unknown index (CL003) are information.
    code, out, _ = run(capsys, "strided.cu", "--select", "CL003,CL004")
    assert code == 0
    assert "[CL004]" in out and "[CL003]" in out and "[CL001]" not in out


def test_missing_file_exits_2_and_others_are_still_reported(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "missing.cu", "transpose.cu")
    assert code == 2
    assert "transpose.cu:10:25: warning:" in out
    assert err == "cudalint: error: missing.cu: cannot read file: No such file or directory\n"
    assert fake.parsed == ["transpose.cu"]


def test_exit_zero_keeps_2_for_errors(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "--exit-zero", "missing.cu", "transpose.cu")[0] == 2


@pytest.mark.skipif(
    sys.platform == "win32" or (hasattr(os, "geteuid") and os.geteuid() == 0),
    reason="root can read any file",
)
def test_unreadable_file_exits_2(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    Path("locked.cu").write_text("x", encoding="utf-8")
    os.chmod("locked.cu", 0)
    try:
        code, _out, err = run(capsys, "locked.cu", "clean.cu")
    finally:
        os.chmod("locked.cu", 0o644)
    assert code == 2
    assert "locked.cu: cannot read file: Permission denied" in err
    assert fake.parsed == ["clean.cu"]


def test_unreadable_file_by_error_exits_2(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import cudalint.checker

    real_read = cudalint.checker._read

    def read(path: str) -> bytes:
        if path == "clean.cu":
            raise PermissionError(13, "Permission denied", path)
        return real_read(path)

    monkeypatch.setattr(cudalint.checker, "_read", read)
    code, out, err = run(capsys, "clean.cu", "transpose.cu")
    assert code == 2
    assert err == "cudalint: error: clean.cu: cannot read file: Permission denied\n"
    assert fake.parsed == ["transpose.cu"]
    assert "[CL001]" in out


def test_unlistable_directory_exits_2(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import cudalint.discovery

    Path("src").mkdir()
    real_walk = os.walk

    def walk(top: str, onerror: Any = None) -> Any:
        onerror(PermissionError(13, "Permission denied", os.path.join(top, "locked")))
        return real_walk(top)

    monkeypatch.setattr(cudalint.discovery.os, "walk", walk)
    code, _, err = run(capsys, "src", "clean.cu")
    assert code == 2
    assert "src/locked: cannot read directory: Permission denied" in err
    assert fake.parsed == ["clean.cu"]


def test_frontend_error_exits_2(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    Path("broken.cu").write_text("x", encoding="utf-8")
    code, out, err = run(capsys, "broken.cu", "transpose.cu")
    assert code == 2
    assert "cudalint: error: broken.cu: libclang could not parse the file" in err
    assert "[CL001]" in out


def test_internal_error_is_per_file_and_has_no_traceback(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("crash.cu").write_text("x", encoding="utf-8")
    code, out, _err = run(capsys, "crash.cu", "transpose.cu", "--format", "json")
    assert code == 2
    document = json.loads(out)
    assert document["errors"] == [
        {
            "file": "crash.cu",
            "message": "internal error analyzing crash.cu: ZeroDivisionError: division by zero; "
            "please report",
        }
    ]
    assert [d["file"] for d in document["diagnostics"]] == ["transpose.cu"]


def test_unparsed_unit_is_an_error(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import cudalint.frontend
    from cudalint import checker
    from cudalint.ir import Note, TranslationUnit

    def unparsed(path: str, options: object, contents: object = None) -> TranslationUnit:
        return TranslationUnit(file=path, parsed=False, notes=(Note("error", "clang crashed"),))

    # where the per-file pipeline finds it (imported at its import or on first use)
    monkeypatch.setattr(cudalint.frontend, "parse_file", unparsed)
    monkeypatch.setattr(checker, "parse_file", unparsed, raising=False)
    code, _, err = run(capsys, "clean.cu")
    assert code == 2
    assert "clean.cu: clang crashed" in err


def test_unexpected_error_outside_files_has_no_traceback(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import cudalint.cli

    def boom(*args: object, **kwargs: object) -> str:
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr(cudalint.cli, "render", boom)
    code, _, err = run(capsys, "clean.cu")
    assert code == 2
    assert err == "cudalint: internal error: RuntimeError: renderer exploded; please report\n"


# --- options -------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ["sm_19", "sm_40", "sm_999", "foo", "sm_"])
def test_invalid_arch(fake: FakePipeline, capsys: pytest.CaptureFixture[str], arch: str) -> None:
    code, _out, err = run(capsys, "--arch", arch, "clean.cu")
    assert code == 2
    assert "invalid --arch" in err
    assert fake.parsed == []


@pytest.mark.parametrize(
    "arch", ["sm_20", "sm_30", "sm_35", "sm_37", "sm_50", "sm_80", "sm_90", "sm_100", "sm_120"]
)
def test_valid_arch(fake: FakePipeline, capsys: pytest.CaptureFixture[str], arch: str) -> None:
    assert run(capsys, "--arch", arch, "clean.cu")[0] == 0
    assert fake.options[0].arch == arch


def test_default_arch(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "clean.cu")
    assert fake.options[0] == Options(arch="sm_90", block_dim_source="cli")


@pytest.mark.parametrize(
    ("arch", "mode"), [("sm_90", "8"), ("sm_90", "both"), ("sm_20", "8"), ("sm_50", "both")]
)
def test_bank_mode_8_needs_kepler(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], arch: str, mode: str
) -> None:
    code, _, err = run(capsys, "--arch", arch, "--bank-mode", mode, "clean.cu")
    assert code == 2
    assert "needs a Kepler arch" in err


@pytest.mark.parametrize("mode", ["4", "8", "both"])
def test_bank_mode_on_kepler(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    assert run(capsys, "--arch", "sm_35", "--bank-mode", mode, "clean.cu")[0] == 0
    assert fake.options[0].bank_mode == mode


def test_bank_mode_4_anywhere(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--bank-mode", "4", "clean.cu")[0] == 0


def test_bank_mode_bad_value(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--bank-mode", "16", "clean.cu")[0] == 2


@pytest.mark.parametrize(
    ("text", "dims"),
    [("32", (32, 1, 1)), ("32,8", (32, 8, 1)), ("16, 16, 4", (16, 16, 4)), ("1024", (1024, 1, 1))],
)
def test_block_dim(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], text: str, dims: tuple[int, int, int]
) -> None:
    assert run(capsys, "--block-dim", text, "clean.cu")[0] == 0
    assert fake.options[0].block_dim == dims
    assert fake.options[0].block_dim_source == "cli"


@pytest.mark.parametrize("text", ["0", "32,0", "-32", "33,33", "1025", "a", "1,2,3,4", "32,,8", ""])
def test_invalid_block_dim(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    code, _, err = run(capsys, f"--block-dim={text}", "clean.cu")
    assert code == 2
    assert "--block-dim" in err


def test_parse_options_pass_through(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "cuda").mkdir()
    code, _, _ = run(
        capsys,
        "-I",
        "inc",
        "-Iother",
        "-D",
        "TILE=32",
        "-DDEBUG",
        "--std",
        "c++20",
        "--cuda-path",
        str(tmp_path / "cuda"),
        "clean.cu",
    )
    assert code == 0
    o = fake.options[0]
    assert o.include_dirs == ("inc", "other")
    assert o.defines == ("TILE=32", "DEBUG")
    assert o.std == "c++20"
    assert o.cuda_path == str(tmp_path / "cuda")


def test_invalid_cuda_path_and_std(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--cuda-path", "does/not/exist", "clean.cu")[0] == 2
    assert run(capsys, "--std", "fortran77", "clean.cu")[0] == 2
    assert fake.parsed == []


# --- rule selection ------------------------------------------------------------------------


def test_ignore_silences_and_changes_exit(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--ignore", "CL001", "transpose.cu")
    assert code == 0
    assert "[CL001]" not in out


def test_select_prefix(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--select", "CL00", "strided.cu")
    # sm_35, both bank modes: the 4-byte mode's possible conflict is part of the CL001
    # finding of the 8-byte mode (one finding per access), so there is no CL002
    assert all(f"[{c}]" in out for c in ("CL001", "CL003", "CL004"))


def test_select_replaces_and_extend_select_adds(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--select", "CL003", "strided.cu")
    assert code == 0
    assert "[CL003]" in out and "[CL001]" not in out
    code, out, _ = run(capsys, "--extend-select", "CL003", "strided.cu")
    assert code == 1
    assert "[CL003]" in out and "[CL001]" in out and "[CL004]" in out


def test_repeated_and_comma_separated_ignores(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "--ignore", "CL001,CL002", "--ignore", "CL004", "strided.cu")
    assert "[CL" not in out


def test_unknown_selector(fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--select", "E501", "clean.cu")
    assert code == 2
    assert "unknown rule selector 'E501'" in err


# --- paths ---------------------------------------------------------------------------------


def test_directories_recurse_in_sorted_order(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in (
        "src/b/z.cu",
        "src/a.cuh",
        "src/b/a.cu",
        "src/notes.txt",
        "src/.git/x.cu",
        "src/c.cpp",
    ):
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        Path(name).write_text("", encoding="utf-8")
    code, out, _ = run(capsys, "src", "clean.cu", "src/b/a.cu")
    assert code == 0
    # Reports come in this order; a header a directory gives is analysed after the other
    # files (when none of them includes it; api.run_tasks).
    assert fake.parsed == [
        os.path.join("src", "b", "a.cu"),
        os.path.join("src", "b", "z.cu"),
        "clean.cu",
        os.path.join("src", "a.cuh"),
    ]
    assert out.startswith("4 files,")


def test_explicit_file_with_any_suffix_is_analyzed(
    fake: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("kernel.cpp").write_text("", encoding="utf-8")
    assert run(capsys, "kernel.cpp")[0] == 0
    assert fake.parsed == ["kernel.cpp"]


def test_check_paths_api(fake: FakePipeline) -> None:
    reports = check_paths(["transpose.cu", "missing.cu", "clean.cu"], Options())
    assert [(r.path, r.ok, len(r.diagnostics)) for r in reports] == [
        ("transpose.cu", True, 1),
        ("missing.cu", False, 0),
        ("clean.cu", True, 0),
    ]
    assert reports[0].unit is not None and len(reports[0].results) == 2


def test_check_file_with_contents(fake: FakePipeline) -> None:
    report = check_file("transpose.cu", Options(), contents=b"// from stdin\n")
    assert report.ok and report.source == b"// from stdin\n"


def test_check_file_on_a_directory(fake: FakePipeline) -> None:
    Path("d").mkdir()
    assert check_file("d", Options()).error == "is a directory"


def test_python_m_cudalint_runs() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "cudalint", "--version"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"cudalint {cudalint.__version__}"


# --- end to end with the real frontend and model -------------------------------------------

TRANSPOSE_KERNEL = """\
#define TILE 32

__global__ void transpose(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

void run(float *out, const float *in, int n)
{
    dim3 grid(n / TILE, n / TILE);
    transpose<<<grid, dim3(32, 8)>>>(out, in, n);
}
"""


@pytest.fixture
def real_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from cudalint.frontend import parse_file
    from cudalint.model.analyze import analyze

    path = tmp_path / "transpose.cu"
    path.write_text(TRANSPOSE_KERNEL, encoding="utf-8")
    analyze(parse_file(str(path), Options()), Options())
    monkeypatch.chdir(tmp_path)
    return path


def test_end_to_end_transpose_text(real_kernel: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "transpose.cu", "--color", "never")
    assert code == 1, out + err
    lines = out.splitlines()
    assert lines[0] == (
        "transpose.cu:10:22: warning: 32-way bank conflict on load of 'tile' "
        "(32 wavefronts, ideal 1) [CL001] [*]"  # [*]: --fix pads the tile
    )
    assert lines[-1] == "[*] 1 fixable with `--fix`"
    assert lines[1] == "    out[y * n + x] = tile[threadIdx.x][threadIdx.y];"
    assert lines[2].startswith(" " * 21 + "^~~~")
    assert "  note: block shape (32, 8, 1) from the launch at transpose.cu:16" in lines
    assert "  note: arch sm_90" in lines
    assert out.count("warning:") == 1


def test_end_to_end_transpose_json(real_kernel: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "transpose.cu", "--format", "json", "--show-all")
    assert code == 1
    document = json.loads(out)
    records = {(a["line"], a["kind"]): a for a in document["accesses"]}
    store, load = records[(8, "store")], records[(10, "load")]
    assert (store["wavefronts"], store["ideal_wavefronts"], store["status"]) == (1, 1, "proved")
    assert (load["wavefronts"], load["ideal_wavefronts"], load["ways"]) == (32, 1, 32)
    assert load["block_dim"] == [32, 8, 1] and load["block_dim_source"] == "launch"
    assert [d["code"] for d in document["diagnostics"]] == ["CL001"]
    from test_output import assert_valid

    assert_valid(document)


def test_end_to_end_padded_is_clean(real_kernel: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real_kernel.write_text(
        TRANSPOSE_KERNEL.replace("tile[TILE][TILE]", "tile[TILE][TILE + 1]"), encoding="utf-8"
    )
    code, out, _ = run(capsys, "transpose.cu")
    assert code == 0, out
    assert out == "1 file, 2 accesses: 2 proved, 0 worst-case, 0 unknown; 0 conflicts\n"
