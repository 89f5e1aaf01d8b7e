"""Compilation databases: nvcc-style entries as CMake and hand-written builds make them.

The databases are written by the tests, with the flags CMake's CUDA language support
emits for nvcc (``--options-file`` response files for includes, ``-Xcompiler=...``,
``--generate-code=arch=...,code=[...]``, ``-MD -MT -MF``, ``-x cu``) and clang's
``@file.rsp`` form.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
from factories import FakePipeline, install_fake_pipeline, run_cli, write_sources

from cudalint.compdb import CompdbError, CompileDatabase, translate

NVCC = "/usr/local/cuda/bin/nvcc"


run = run_cli


def write_db(build: Path, entries: list[dict[str, object]]) -> Path:
    build.mkdir(parents=True, exist_ok=True)
    path = build / "compile_commands.json"
    path.write_text(json.dumps(entries, indent=2), encoding="utf-8")
    return path


# --- translation -------------------------------------------------------------------------------


def test_translate_cmake_nvcc_command(tmp_path: Path) -> None:
    command = (
        f"{NVCC} -forward-unknown-to-host-compiler -DUSE_TILES -DTILE=32 "
        '-D "NAME=a b" -UNDEBUG -Iinclude -I /opt/include -isystem /opt/cutlass/include '
        "-isystem=/opt/cub -include pre.h -O3 -DNDEBUG -std=c++17 "
        '"--generate-code=arch=compute_80,code=[compute_80,sm_80]" '
        "-gencode arch=compute_70,code=sm_70 -Xcompiler=-fPIE -Xcompiler -Wall "
        "--expt-relaxed-constexpr -lineinfo -MD -MT obj.o -MF obj.o.d -x cu "
        "-c /src/k.cu -o obj.o -ccbin /usr/bin/g++-12 -maxrregcount 64"
    )
    flags = translate(shlex.split(command)[1:], str(tmp_path))
    assert flags.defines == ("USE_TILES", "TILE=32", "NAME=a b", "NDEBUG")
    assert flags.include_dirs == (str(tmp_path / "include"), "/opt/include")
    assert flags.extra_args == (
        "-U",
        "NDEBUG",
        "-isystem",
        "/opt/cutlass/include",
        "-isystem",
        "/opt/cub",
        "-include",
        str(tmp_path / "pre.h"),
    )
    assert flags.std == "c++17"
    assert flags.arch == "sm_80"
    assert "several architectures (sm_80, sm_70); analyzing sm_80" in flags.notes
    for dropped in (
        "-Xcompiler=-fPIE",
        "-Wall",
        "-O3",
        "-lineinfo",
        "obj.o.d",
        "cu",
        "/usr/bin/g++-12",
        "64",
        "--expt-relaxed-constexpr",
    ):
        assert dropped in flags.dropped


@pytest.mark.parametrize(
    ("args", "arch"),
    [
        (["-arch=sm_86"], "sm_86"),
        (["-arch", "sm_35"], "sm_35"),
        (["--gpu-architecture=compute_75"], "sm_75"),
        (["--gpu-architecture", "sm_90a"], "sm_90"),
        (["-gencode=arch=compute_61,code=sm_61"], "sm_61"),
        (["--generate-code", "arch=compute_52,code=[sm_52,compute_52]"], "sm_52"),
        (["--cuda-gpu-arch=sm_70"], "sm_70"),
        (["--offload-arch=sm_89"], "sm_89"),
        (["-arch=native"], None),
        (["-arch=all-major"], None),
        ([], None),
    ],
)
def test_translate_arch(args: list[str], arch: str | None) -> None:
    assert translate(args, "/").arch == arch


def test_translate_std_spellings() -> None:
    assert translate(["-std", "c++14"], "/").std == "c++14"
    assert translate(["--std=c++20"], "/").std == "c++20"
    assert translate(["--std", "c++11"], "/").std == "c++11"
    assert translate(["-stdlib=libc++"], "/").std is None
    assert translate(
        [
            "--define-macro",
            "A=1",
            "--include-path=inc",
            "--undefine-macro=B",
            "--pre-include",
            "p.h",
            "--system-include=/s",
        ],
        "/w",
    ).defines == ("A=1",)


# --- the database ------------------------------------------------------------------------------


def test_database_with_response_files_and_both_entry_forms(tmp_path: Path) -> None:
    build = tmp_path / "build"
    rsp_dir = build / "CMakeFiles" / "k.dir"
    rsp_dir.mkdir(parents=True)
    (rsp_dir / "includes_CUDA.rsp").write_text(
        f"-I{tmp_path}/include -isystem /opt/thrust\n", encoding="utf-8"
    )
    (build / "flags.rsp").write_text("-DFROM_RSP=1 @nested.rsp", encoding="utf-8")
    (build / "nested.rsp").write_text("-arch=sm_75", encoding="utf-8")
    src = tmp_path / "src"
    write_db(
        build,
        [
            {
                "directory": str(build),
                "file": str(src / "a.cu"),
                "output": "a.o",
                "command": f"{NVCC} -DA=1 --options-file CMakeFiles/k.dir/includes_CUDA.rsp "
                f"-std=c++17 -x cu -c {src / 'a.cu'} -o a.o",
            },
            {
                "directory": str(build),
                "file": "../src/b.cu",
                "arguments": ["clang++", "@flags.rsp", "-c", "../src/b.cu"],
            },
            {
                "directory": str(build),
                "file": "../src/b.cu",
                "arguments": ["clang++", "-DSECOND_ENTRY_IGNORED", "-c", "../src/b.cu"],
            },
        ],
    )
    db = CompileDatabase.load(str(build))
    assert len(db) == 2
    a = db.flags(str(src / "a.cu"))
    assert a is not None
    assert (a.defines, a.include_dirs, a.std) == (("A=1",), (str(tmp_path / "include"),), "c++17")
    assert a.extra_args == ("-isystem", "/opt/thrust")
    b = db.flags(os.path.relpath(src / "b.cu"))  # found whatever the spelling of the path
    assert b is not None and b.defines == ("FROM_RSP=1",) and b.arch == "sm_75"
    assert db.flags(str(src / "c.cu")) is None


def test_missing_response_file(tmp_path: Path) -> None:
    write_db(
        tmp_path,
        [
            {
                "directory": str(tmp_path),
                "file": "a.cu",
                "arguments": ["nvcc", "@missing.rsp", "a.cu"],
            }
        ],
    )
    db = CompileDatabase.load(str(tmp_path / "compile_commands.json"))
    with pytest.raises(CompdbError, match=r"cannot read response file .*missing\.rsp"):
        db.flags(str(tmp_path / "a.cu"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "invalid JSON"),
        ('{"a": 1}', "expected a JSON array"),
        ("[1]", "entry 0: expected an object"),
        ('[{"file": "a.cu", "command": "nvcc"}]', "needs string 'directory' and 'file'"),
        ('[{"directory": "/", "file": "a.cu"}]', "needs 'arguments' (strings) or 'command'"),
        (
            '[{"directory": "/", "file": "a.cu", "command": "nvcc \\"unclosed"}]',
            "cannot split command",
        ),
    ],
)
def test_malformed_database_is_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str,
    message: str,
) -> None:
    fake = install_fake_pipeline(monkeypatch)
    monkeypatch.chdir(tmp_path)
    write_sources(tmp_path, ("clean.cu",))
    Path("compile_commands.json").write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "--compile-commands", "compile_commands.json", "clean.cu")
    assert code == 2
    assert err.startswith("cudalint: error: compile_commands.json: ")
    assert message in err
    assert fake.parsed == []


# --- the command line --------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakePipeline:
    fake = install_fake_pipeline(monkeypatch)
    monkeypatch.chdir(tmp_path)
    Path("src").mkdir()
    write_sources(tmp_path / "src", ("transpose.cu", "clean.cu"))
    write_db(
        tmp_path / "build",
        [
            {
                "directory": str(tmp_path / "build"),
                "file": str(tmp_path / "src" / "transpose.cu"),
                "command": f"{NVCC} -DTILE=32 -I../include -std=c++14 "
                "-gencode arch=compute_35,code=sm_35 -Xcompiler -fPIC -c "
                "../src/transpose.cu -o t.o",
            },
        ],
    )
    return fake


def test_p_build_dir(
    project: FakePipeline, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "-p", "build", "-v", "src/transpose.cu", "src/clean.cu")
    assert code == 1
    by_file = dict(zip(project.parsed, project.options, strict=True))
    t = by_file["src/transpose.cu"]
    assert (t.arch, t.std, t.defines) == ("sm_35", "c++14", ("TILE=32",))
    assert t.include_dirs == (str(tmp_path / "include"),)
    c = by_file["src/clean.cu"]
    assert (c.arch, c.std, c.defines, c.include_dirs) == ("sm_90", "c++17", (), ())
    assert (
        "cudalint: src/clean.cu: not in build/compile_commands.json; using the default "
        "options\n" in err
    )
    assert "compilation database: build/compile_commands.json (1 files)" in err
    assert "src/transpose.cu: not in" not in err  # it is in the database


def test_fallback_is_silent_without_v(
    project: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, err = run(capsys, "-p", "build", "src/clean.cu")
    assert err == ""


def test_flags_and_config_around_the_database(
    project: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("cudalint.toml").write_text(
        'arch = "sm_70"\ndefines = ["CFG"]\nstd = "c++11"\n', encoding="utf-8"
    )
    run(
        capsys,
        "--compile-commands",
        "build/compile_commands.json",
        "-D",
        "CLI",
        "src/transpose.cu",
        "src/clean.cu",
    )
    t, c = project.options
    # The compile command beats the configuration; the command line beats both.
    assert (t.arch, t.std, t.defines) == ("sm_35", "c++14", ("CFG", "TILE=32", "CLI"))
    assert (c.arch, c.std, c.defines) == ("sm_70", "c++11", ("CFG", "CLI"))
    run(capsys, "-p", "build", "--arch", "sm_80", "--std", "c++20", "src/transpose.cu")
    assert (project.options[2].arch, project.options[2].std) == ("sm_80", "c++20")


def test_missing_database_is_exit_2(
    project: FakePipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "-p", "nowhere", "src/clean.cu")
    assert code == 2
    assert "nowhere/compile_commands.json: cannot read compilation database" in err
    code, _, err = run(capsys, "-p", "build", "--compile-commands", "x.json", "src/clean.cu")
    assert code == 2 and "not both" in err


def test_missing_response_file_is_a_file_error(
    project: FakePipeline, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    write_db(
        tmp_path / "build",
        [
            {
                "directory": str(tmp_path / "build"),
                "file": "../src/transpose.cu",
                "arguments": [NVCC, "@gone.rsp", "-c", "../src/transpose.cu"],
            },
        ],
    )
    code, _, err = run(capsys, "-p", "build", "src/transpose.cu", "src/clean.cu")
    assert code == 2
    assert "cudalint: error: src/transpose.cu: cannot read response file" in err
    assert project.parsed == ["src/clean.cu"]


# --- end to end: the real frontend needs the database's macro and include directory --------

KERNEL = """\
#include "tile.cuh"

__global__ void transpose(float *out, const float *in)
{
    __shared__ float tile[TILE][TILE];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launch(float *out, const float *in) { transpose<<<1, dim3(32, 32)>>>(out, in); }
"""


def test_end_to_end_with_real_nvcc_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text(KERNEL, encoding="utf-8")
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "tile.cuh").write_text("#define TILE WIDTH\n", encoding="utf-8")
    build = tmp_path / "build"
    (build / "CMakeFiles").mkdir(parents=True)
    (build / "CMakeFiles" / "includes_CUDA.rsp").write_text("-I../include", encoding="utf-8")
    write_db(
        build,
        [
            {
                "directory": str(build),
                "file": str(tmp_path / "src" / "k.cu"),
                "command": f"{NVCC} -forward-unknown-to-host-compiler -DWIDTH=32 "
                "--options-file CMakeFiles/includes_CUDA.rsp -O3 -std=c++17 "
                '"--generate-code=arch=compute_90,code=[compute_90,sm_90]" '
                "-Xcompiler=-fPIE -MD -MT k.o -MF k.o.d -x cu -c ../src/k.cu -o k.o",
            }
        ],
    )
    code, out, _ = run(capsys, "--isolated", "src/k.cu")
    assert "tile.cuh' file not found" in out and "[CL001]" not in out
    code, out, _ = run(capsys, "--isolated", "-p", "build", "src/k.cu")
    assert code == 1, out
    assert "src/k.cu:8:24: warning: 32-way bank conflict on load of 'tile'" in out
