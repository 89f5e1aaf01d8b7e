"""Code in project headers, analysed from the files that include it (issue 13, item 2):
directory discovery, one result per access across a run, paths, fixes to headers."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

from cudalint.api import FileTask, check_paths, expand_paths, run_tasks
from cudalint.cli import main
from cudalint.frontend.walker import display_path
from cudalint.options import Options

ROOT = Path(__file__).resolve().parent.parent
HEADERS = ROOT / "fixtures" / "headers"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return int(code or 0), out.getvalue(), err.getvalue()


# --- discovery -------------------------------------------------------------------------------


def test_directory_discovery_takes_headers_with_device_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "a.cu": "",
        "k.cuh": "",  # .cu and .cuh: always
        "reduce.h": "__device__ float f() { __shared__ float s[4]; return s[0]; }\n",
        "kern.hpp": "__global__ void k() {}\n",
        "impl.inl": "template <int N> __global__ void k2() {}\n",
        "plain.h": "int add(int a, int b);\n",  # no device code: left out
        "host.hpp": "struct S { int x; };\n",
        "notes.txt": "__global__",
    }
    for name, text in files.items():
        (tmp_path / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = [p for p, _ in expand_paths(["."])]
    assert found == [
        os.path.join("src", n) for n in ("a.cu", "impl.inl", "k.cuh", "kern.hpp", "reduce.h")
    ]
    # A file given by name is always analysed, whatever it holds.
    assert [p for p, _ in expand_paths(["src/plain.h"])] == ["src/plain.h"]
    assert next(p for p, _ in expand_paths(["./src"])) == os.path.join("src", "a.cu")


# --- paths -----------------------------------------------------------------------------------


def test_header_paths_are_shown_as_the_main_file_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "repo" / "src").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "repo")
    header = str(tmp_path / "repo" / "src" / "k.cuh")
    assert display_path(header, "src/a.cu") == os.path.join("src", "k.cuh")
    assert display_path("./src/k.cuh", "./src/a.cu") == os.path.join("src", "k.cuh")
    # The main file given absolute: the header too.
    assert display_path(header, str(tmp_path / "repo" / "src" / "a.cu")) == header
    # Outside the working directory: absolute, unless the main file is as far up.
    outside = str(tmp_path / "inc" / "h.cuh")
    assert display_path(outside, "src/a.cu") == outside
    assert display_path(outside, "../inc/a.cu") == os.path.join("..", "inc", "h.cuh")


def test_a_header_reached_through_a_symlinked_directory_is_shown_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``cd link`` then ``-I /abs/link/inc``: the working directory is the link's target,
    # the header's path goes through the link; both name one file, shown relative
    (tmp_path / "real" / "inc").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    monkeypatch.chdir(tmp_path / "link")
    through = str(tmp_path / "link" / "inc" / "k.cuh")
    assert display_path(through, "src/a.cu") == os.path.join("inc", "k.cuh")
    assert display_path("inc/k.cuh", "src/a.cu") == os.path.join("inc", "k.cuh")


# --- one result per access and shape across a run --------------------------------------------


def _accesses(reports: list) -> list[tuple[str, int, str, str, tuple[int, int, int] | None]]:
    return sorted(
        (
            os.path.basename(r.access.span.file),
            r.access.span.line,
            r.access.kernel,
            r.block_dim_source,
            r.block_dim,
        )
        for rep in reports
        for r in rep.results
    )


def test_a_header_analysed_three_times_is_reported_once() -> None:
    reports = check_paths([str(HEADERS / "header_twice")], Options())
    assert [os.path.basename(r.path) for r in reports] == ["first.cu", "second.cu", "transpose.cuh"]
    # tr: three accesses with the launch shape (not the assumed one, not twice);
    # lonely: launched nowhere, its assumed-shape access once.
    assert _accesses(reports) == [
        ("transpose.cuh", 17, "tr", "launch", (32, 8, 1)),
        ("transpose.cuh", 19, "tr", "launch", (32, 8, 1)),
        ("transpose.cuh", 20, "tr", "launch", (32, 8, 1)),
        ("transpose.cuh", 25, "lonely", "assumed", None),
    ]
    conflicts = [
        (os.path.basename(d.file), d.line)
        for r in reports
        for d in r.diagnostics
        if d.result is not None and d.result.has_conflict
    ]
    # Line 20's conflict is suppressed by its comment, in the library as on the command
    # line (one per-file pipeline: cudalint.checker).
    assert sorted(conflicts) == [
        ("transpose.cuh", 19),
        ("transpose.cuh", 25),
    ]
    assert [
        (os.path.basename(d.file), d.line) for r in reports for d in r.suppressed_diagnostics
    ] == [("transpose.cuh", 20)]


def test_a_helper_is_analysed_once_per_calling_kernel() -> None:
    reports = check_paths([str(HEADERS / "block_reduce")], Options())
    got = _accesses(reports)
    assert [(k, shape) for _, line, k, _, shape in got if line == 20] == [
        ("k_col", (1, 32, 1)),
        ("k_row", (32, 1, 1)),
        ("k_tile", (8, 4, 1)),
    ]
    assert all(src == "launch" for *_, src, _ in got)
    assert len(got) == 6


def test_jobs_do_not_change_the_merged_results() -> None:
    tasks = [
        FileTask(p, Options())
        for p, _ in expand_paths([str(HEADERS / "header_twice"), str(HEADERS / "block_reduce")])
    ]
    one = run_tasks(tasks, jobs=1)
    two = run_tasks(tasks, jobs=2)
    assert _accesses(one) == _accesses(two)
    assert [[(d.file, d.line, d.code, d.message) for d in r.diagnostics] for r in one] == [
        [(d.file, d.line, d.code, d.message) for d in r.diagnostics] for r in two
    ]


def test_summary_and_statistics_count_each_access_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(HEADERS)
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run("header_twice")
    assert code == 1
    summary = next(line for line in out.splitlines() if " accesses: " in line)
    assert summary.startswith("3 files, 4 accesses: 4 proved"), summary
    assert summary.endswith("2 conflicts"), summary  # line 20's is suppressed
    # An access in a header shows the header's path and its source line.
    assert f"{os.path.join('header_twice', 'transpose.cuh')}:19:24: warning" in out
    assert "    out[threadIdx.x] = t[threadIdx.x][threadIdx.y];" in out
    code, out, _ = run("--statistics", "header_twice")
    assert out.splitlines()[0].split() == ["2", "CL001", "shared-bank-conflict", "(warning)"]


# --- fixes to a header -----------------------------------------------------------------------


HEADER = """\
#pragma once
__global__ void col(float *out) {
    __shared__ float t[32][32];
    t[threadIdx.x][0] = out[threadIdx.x];
}
"""


def test_fix_and_diff_edit_the_header(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "k.cuh").write_text(HEADER, encoding="utf-8")
    for name in ("a.cu", "b.cu"):
        (tmp_path / name).write_text(
            '#include "k.cuh"\nvoid run(float *p) { col<<<1, 32>>>(p); }\n', encoding="utf-8"
        )
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("--diff", ".")
    assert code == 1
    # One diff of the header, though three files (a.cu, b.cu, k.cuh) propose it.
    assert out.count("--- a/k.cuh") == 1, out
    assert "+    __shared__ float t[32][33];" in out
    code, out, err = run("--fix", ".")
    assert (tmp_path / "k.cuh").read_text(encoding="utf-8") == HEADER.replace(
        "t[32][32]", "t[32][33]"
    )
    assert code == 0, out + err
    assert "0 conflicts" in out
    assert (tmp_path / "a.cu").read_text(encoding="utf-8").startswith('#include "k.cuh"')
    code, out, _ = run("--diff", ".")
    assert (code, out) == (0, "")


def test_a_suppression_in_a_header_used_from_another_file_is_not_unused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(HEADERS)
    code, out, _ = run("--extend-select", "CL100", "header_twice")
    assert code == 1
    # transpose.cuh:20's conflict comes from first.cu's analysis (the header's own,
    # with the assumed shape, is dropped): its ignore comment is used, not CL100.
    assert "CL100" not in out
    assert "2 conflicts" in out
    (HEADERS / "header_twice" / "transpose.cuh").read_text(encoding="utf-8").index(
        "// cudalint: ignore[CL001]"
    )


def test_directory_run_keeps_the_symbolic_record_of_a_partly_bound_parameter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One launch binds n = 32, another passes a run-time n: the file keeps both records
    (32-way for n=32, the symbolic one for any n), alone and in a directory run with
    another file (where the run-level dedupe is active)."""
    (tmp_path / "a.cu").write_text(
        "__global__ void k(float *out, int n) {\n"
        "  __shared__ float s[32 * 64];\n"
        "  out[threadIdx.x] = s[threadIdx.x * n];\n"
        "}\n"
        "void run(float *o, int m) {\n"
        "  const int n = 32;\n"
        "  k<<<1, 32>>>(o, n);\n"
        "  k<<<1, 32>>>(o, m);\n"
        "}\n"
    )
    (tmp_path / "b.cu").write_text(
        "__global__ void other(float *o) {\n"
        "  __shared__ float t[32];\n"
        "  o[threadIdx.x] = t[threadIdx.x];\n"
        "}\n"
    )
    monkeypatch.chdir(tmp_path)

    def records(*paths: str) -> list[tuple[str, str | None, str]]:
        out: list[tuple[str, str | None, str]] = []
        for report in check_paths(list(paths), Options()):
            for r in report.results:
                if os.path.basename(r.access.span.file) == "a.cu":
                    out.append((r.access.text, r.access.instantiation, r.status))
        return sorted(out, key=str)

    alone = records("a.cu")
    assert sorted(str(inst) for _, inst, _ in alone) == ["None", "n=32"]
    assert records(".") == alone


# --- a header that a file of the run includes is not analysed on its own ---------------------


def test_an_included_discovered_header_is_analysed_only_in_its_includer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import cudalint.manager as manager

    directory = HEADERS / "included_once"
    reports = {os.path.basename(r.path): r for r in check_paths([str(directory)], Options())}
    assert sorted(reports) == ["alone.cuh", "kernels.cuh", "main.cu"]
    covered = reports["kernels.cuh"]
    assert covered.covered_by is not None and covered.covered_by.endswith("main.cu")
    assert covered.ok and covered.results == [] and covered.diagnostics == []
    assert reports["alone.cuh"].covered_by is None  # included by no file: on its own
    assert reports["alone.cuh"].results
    # Every access of the header is analysed in main.cu's unit: the launched instance,
    # the kernel launched nowhere and the helper called nowhere (both assumed shapes).
    got = _accesses(list(reports.values()))
    assert [(line, k, src) for f, line, k, src, _ in got if f == "kernels.cuh"] == [
        (9, "strided", "launch"),
        (11, "strided", "launch"),
        (18, "unlaunched", "assumed"),
        (20, "unlaunched", "assumed"),
        (27, "helper", "assumed"),
        (28, "helper", "assumed"),
    ]
    # Analysed alone, the header lacks main.cu's TILE: a CL004 that the run no longer gives.
    assert not [d for r in reports.values() for d in r.diagnostics if d.code == "CL004"]
    monkeypatch.setattr(manager, "included_elsewhere", lambda reports: {})
    alone = check_paths([str(directory)], Options())
    assert [d.message for r in alone for d in r.diagnostics if d.code == "CL004"]
    # Nothing is lost; analysed alone (no TILE) it only added a duplicate of line 18.
    assert set(got) <= set(_accesses(alone))


def test_a_named_header_is_still_analysed_on_its_own() -> None:
    directory = HEADERS / "included_once"
    header = str(directory / "kernels.cuh")
    reports = check_paths([str(directory), header], Options())
    (mine,) = [r for r in reports if os.path.basename(r.path) == "kernels.cuh"]
    assert mine.covered_by is None and mine.unit is not None and mine.unit.kernels


def test_skipping_included_headers_keeps_jobs_and_the_summary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(HEADERS)
    monkeypatch.setenv("NO_COLOR", "1")
    one = run("--isolated", "-j", "1", "included_once", "header_twice")
    two = run("--isolated", "-j", "2", "included_once", "header_twice")
    assert one == two
    assert any(
        line.startswith("6 files, 12 accesses: 12 proved")
        for line in one[1].strip().splitlines()[-2:]
    )  # then "[*] N fixable ..."
    _, _, err = run("--isolated", "-v", "included_once")
    assert (
        f"{os.path.join('included_once', 'kernels.cuh')}: analysed as part of "
        f"{os.path.join('included_once', 'main.cu')}, which includes it"
    ) in err
