"""Issue 13, item 5: output that says what the analysis did not see.

The summary line counts proved, worst-case and unknown accesses; a run whose accesses are
mostly unknown is an error (exit 2, ``--max-unknown``); reasons name what the user wrote
(never ``call to ''``, an internal symbol such as ``k``, or a bare sampled witness); ``-v``
prints the settings in effect and a clang command line that runs as printed.
"""

from __future__ import annotations

import functools
import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from factories import run_cli

# Two accesses cudalint proves and one whose index is loaded from memory.
MOSTLY_KNOWN = """\
__global__ void k(const int *perm, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.0f;
  out[0] = s[threadIdx.x + 32];
  out[1] = s[perm[threadIdx.x]];
}
void run(const int *p, float *o) { k<<<1, 32>>>(p, o); }
"""

# One proved access and two unknown ones: 67% unknown.
MOSTLY_UNKNOWN = """\
__global__ void k(const int *perm, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.0f;
  out[0] = s[perm[threadIdx.x]];
  out[1] = s[perm[threadIdx.x + 1]];
}
void run(const int *p, float *o) { k<<<1, 32>>>(p, o); }
"""


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


run = functools.partial(run_cli, isolated=True)


def reasons(capsys: pytest.CaptureFixture[str], source: str, *argv: str) -> dict[int, str]:
    Path("k.cu").write_text(source, encoding="utf-8")
    _, out, _ = run(capsys, "--format", "json", "--show-all", "--max-unknown", "100", *argv, "k.cu")
    doc: dict[str, Any] = json.loads(out)
    return {a["line"]: a["reason"] for a in doc["accesses"]}


# --- the summary line and the exit status ---------------------------------------------------


def test_summary_counts_every_status(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text(MOSTLY_KNOWN, encoding="utf-8")
    code, out, err = run(capsys, "k.cu")
    assert out.splitlines()[-1] == (
        "1 file, 3 accesses: 2 proved, 0 worst-case, 1 unknown (33%); 0 conflicts"
    )
    assert (code, err) == (0, "")  # 33% is not "most": clean


def test_mostly_unknown_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text(MOSTLY_UNKNOWN, encoding="utf-8")
    code, out, err = run(capsys, "k.cu")
    assert code == 2
    assert out.splitlines()[-1] == (
        "1 file, 3 accesses: 1 proved, 0 worst-case, 2 unknown (67%); 0 conflicts"
    )
    assert err.startswith(
        "cudalint: error: 2 of 3 shared-memory accesses (67%) are unknown "
        "(more than --max-unknown 50%)"
    )
    assert "--extend-select CL003" in err and err.count("\n") == 1
    # --exit-zero hides warnings, not an analysis that did not see the code
    assert run(capsys, "--exit-zero", "k.cu")[0] == 2
    # -q drops the summary line but not the error
    code, out, err = run(capsys, "-q", "k.cu")
    assert code == 2 and "accesses:" not in out and "are unknown" in err


@pytest.mark.parametrize(("limit", "code"), [("66", 2), ("67", 0), ("100", 0), ("0", 2)])
def test_max_unknown_threshold(capsys: pytest.CaptureFixture[str], limit: str, code: int) -> None:
    Path("k.cu").write_text(MOSTLY_UNKNOWN, encoding="utf-8")
    got, _, err = run(capsys, "--max-unknown", limit, "k.cu")
    assert got == code
    assert ("are unknown" in err) == (code == 2)


def test_no_access_is_not_mostly_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text("__global__ void k() {}\n", encoding="utf-8")
    assert run(capsys, "--max-unknown", "0", "k.cu")[0] == 0


@pytest.mark.parametrize("value", ["abc", "-1", "101", "nan"])
def test_max_unknown_must_be_a_percentage(capsys: pytest.CaptureFixture[str], value: str) -> None:
    code, _, err = run(capsys, "--max-unknown", value, "k.cu")
    assert code == 2 and "--max-unknown" in err and "percentage" in err


def test_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text(MOSTLY_UNKNOWN, encoding="utf-8")
    code, out, err = run(capsys, "--format", "json", "k.cu")
    assert (code, err) == (2, "")  # JSON: everything is in the object
    assert json.loads(out)["summary"] == {
        "files": 1,
        "failed_files": 0,
        "accesses": 3,
        "proved": 1,
        "worst_case": 0,
        "unknown": 2,
        "untraced": 0,
        "conflicts": 0,
        "max_unknown_percent": 50.0,
        "too_many_unknown": True,
    }


def test_sarif_and_github_report_it(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text(MOSTLY_UNKNOWN, encoding="utf-8")
    code, out, _ = run(capsys, "--format", "sarif", "k.cu")
    invocation = json.loads(out)["runs"][0]["invocations"][0]
    assert code == 2 and invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert note["level"] == "error" and "2 of 3" in note["message"]["text"]
    code, out, _ = run(capsys, "--format", "github", "k.cu")
    assert code == 2
    assert out.splitlines()[-1].startswith("::error title=cudalint::2 of 3 shared-memory")
    Path("k.cu").write_text(MOSTLY_KNOWN, encoding="utf-8")
    _, out, _ = run(capsys, "--format", "sarif", "k.cu")
    assert json.loads(out)["runs"][0]["invocations"][0]["executionSuccessful"] is True


# --- reasons in the user's words ------------------------------------------------------------


def test_calls_through_pointers_name_the_callee(capsys: pytest.CaptureFixture[str]) -> None:
    got = reasons(
        capsys,
        """\
typedef int (*fn_t)(int);
__device__ fn_t table[2];
__global__ void k(fn_t fp) {
  __shared__ float s[64];
  s[table[blockIdx.x](threadIdx.x)] = 1;
  s[(*fp)(threadIdx.x)] = 2;
}
""",
    )
    assert got[5] == "the index depends on call through 'table[blockIdx.x]'"
    assert got[6] == "the index depends on call through '(*fp)'"
    assert not any("''" in r for r in got.values())


def test_a_declaration_that_did_not_parse_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    # 'idx_t' is unknown to clang: the declarations of r and c are invalid, and the
    # operators on them stay unresolved calls with no name.
    got = reasons(
        capsys,
        """\
template <int BK>
__global__ void k() {
  __shared__ float s[256];
  const idx_t c = threadIdx.x % BK;
  const idx_t r = threadIdx.x / BK;
  s[r * BK + c] = 0;
}
void run() { k<8><<<1, 256>>>(); }
""",
    )
    assert got[6].startswith("the index depends on 'r', which clang could not resolve")
    assert "did not parse" in got[6]


def test_loop_counters_are_named_by_their_variable(capsys: pytest.CaptureFixture[str]) -> None:
    # Two loops whose start depends on the lane: each gets an iteration count that used
    # to show as 'k, k'.
    got = reasons(
        capsys,
        """\
__global__ void k(const float *q) {
  __shared__ float t[16][128];
  for (int row = threadIdx.y; row < 16; row += blockDim.y) {
    for (int col = threadIdx.x; col < 128; col += blockDim.x) {
      t[row][col] = q[row * 128 + col];
    }
  }
}
""",
    )
    reason = got[5]
    # the 'col' loop's bound (col < 128, step blockDim.x) is enumerated per block shape
    # (issue 14, model/stride_loops.py); the 'row' loop's iterations are sampled
    assert "the 'row' loop's iteration changes" in reason
    assert "k," not in reason and "k =" not in reason and "@" not in reason
    assert "not a proof but the worst of a sample (the 'row' loop's iteration from 0" in reason
    assert "at iteration 0 of the 'row' loop" in reason


def test_an_unknown_parameter_that_changes_the_pattern_is_not_sampled(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Issue 13, item 3: a value the program never passes (a = 3 found by searching 0..15)
    # is no witness. Unknown, naming the parameters; exact where a launch gives them.
    got = reasons(
        capsys,
        """\
__global__ void k(int a, int b) {
  __shared__ float s[4096];
  s[(threadIdx.x * a * b) % 4096] = 0;
}
""",
    )
    assert got[3] == (
        "a and b change the lane pattern in a way cudalint cannot prove for "
        "every value; it is analysed exactly where a launch or an "
        "instantiation gives their values"
    )
    Path("k.cu").write_text(
        """\
__global__ void k(int a, int b) {
  __shared__ float s[4096];
  s[(threadIdx.x * a * b) % 4096] = 0;
}
void run() { k<<<1, 32>>>(3, 11); }
""",
        encoding="utf-8",
    )
    _, out, _ = run(capsys, "--format", "json", "--show-all", "k.cu")
    (a,) = json.loads(out)["accesses"]
    # words 33 tx mod 4096 = 33 tx for tx < 32: bank tx, all distinct
    assert (a["status"], a["wavefronts"], a["instantiation"]) == ("proved", 1, "a=3, b=11")


def test_a_variable_assigned_in_a_loop_reads_as_a_clause(
    capsys: pytest.CaptureFixture[str],
) -> None:
    got = reasons(
        capsys,
        """\
__global__ void k(const int *q, int n) {
  __shared__ float s[1024];
  int pos = threadIdx.x;
  for (int i = 0; i < n; i++) pos = pos * 3 + q[i];
  s[pos] = 1;
}
""",
    )
    assert got[5] == "the index depends on 'pos', which is assigned in a loop"


# --- -v ---------------------------------------------------------------------------------------


def test_verbose_prints_settings_and_a_runnable_clang_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import clang.cindex as ci

    Path("k.cu").write_text(
        '#include <cuda_runtime.h>\n#include "inc.h"\n' + MOSTLY_KNOWN, encoding="utf-8"
    )
    Path("include").mkdir()
    Path("include/inc.h").write_text("#define TILE 32\n", encoding="utf-8")
    code, _, err = run(capsys, "-v", "-I", "include", "-D", "N=4", "--arch", "sm_80", "k.cu")
    assert code == 0
    lines = [ln.removeprefix("cudalint: ") for ln in err.splitlines()]
    assert (
        "k.cu: arch sm_80, bank mode 4, block shape from launch sites, else assumed, "
        "std c++17, timeout 10 s, rules CL001,CL002,CL004" in lines
    )
    (command,) = [ln for ln in lines if ln.startswith("k.cu: clang ")]
    argv = shlex.split(command.removeprefix("k.cu: "))
    assert argv[0] == "clang" and argv[-1] == "k.cu" and "-fsyntax-only" in argv
    assert "-Iinclude" in argv and "-DN=4" in argv and "--cuda-gpu-arch=sm_80" in argv
    assert not any(a.startswith("/__cudalint__") for a in argv)  # no virtual path left
    # Runs as printed: without cudalint's in-memory files, clang says what it says when
    # cudalint parses (nothing, when the shim is whole).
    from cudalint.frontend import shim
    from cudalint.frontend.parse import clang_args
    from cudalint.options import Options

    def errors(tu: ci.TranslationUnit) -> list[str]:
        return [d.spelling for d in tu.diagnostics if d.severity >= 3]

    printed = ci.Index.create().parse(None, args=argv[1:])
    options = Options(arch="sm_80", include_dirs=("include",), defines=("N=4",))
    in_memory = ci.Index.create().parse(
        "k.cu", args=clang_args(options), unsaved_files=shim.unsaved_files()
    )
    assert errors(printed) == errors(in_memory)
    assert not any("file not found" in e for e in errors(printed))
