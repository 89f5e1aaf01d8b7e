"""An access in a ``__device__`` helper records where the helper was called
(``Access.call_sites``, innermost call first): the JSON ``called_at`` list, a ``called at``
note, and, where one kernel calls the helper twice and both findings would print the same
line, a ``(called at L:C)`` tag in the one-line formats. The H100 per-line suite uses the
calls too: ncu puts some of an inlined helper's instructions on the call's line."""

from __future__ import annotations

import json
import pathlib

import pytest
from factories import run_cli

# get() is called twice from k with different strides (2-way and 32-way), and through
# outer() once: its access reports each call. twice() calls put() twice with the same
# stride: two identical findings, told apart by the call.
_SOURCE = """\
__device__ float get(const float *s, int i) { return s[i]; }
__device__ float outer(const float *s) { return get(s, threadIdx.x * 4); }
__device__ void put(float *s, int i) { s[i * 2] = 1.0f; }
__global__ void k(float *out) {
    __shared__ float a[1024];
    a[threadIdx.x] = 0;
    __syncthreads();
    float x = get(a, threadIdx.x * 2);
    float y = get(a, threadIdx.x * 32);
    out[threadIdx.x] = x + y + outer(a);
}
__global__ void twice(float *out) {
    __shared__ float b[128];
    put(b, threadIdx.x);
    put(b, threadIdx.x + 32);
    out[threadIdx.x] = b[threadIdx.x];
}
void run(float *o) { k<<<1, 32>>>(o); twice<<<1, 32>>>(o); }
"""


def _records(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    src = tmp_path / "calls.cu"
    src.write_text(_SOURCE)
    _, out, _ = run_cli(capsys, "--format", "json", "--show-all", str(src), isolated=True)
    return json.loads(out)["accesses"]


def test_json_names_each_call(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    recs = [r for r in _records(tmp_path, capsys) if r["line"] == 1]
    by_call = {
        tuple((c["line"], c["column"]) for c in r["called_at"]): r["wavefronts"] for r in recs
    }
    # s[2t]: 2-way; s[32t]: 32-way; s[4t] through outer (called at 10:32): 4-way
    assert by_call == {((8, 15),): 2, ((9, 15),): 32, ((2, 49), (10, 32)): 4}


def test_kernel_body_access_has_no_call(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recs = [r for r in _records(tmp_path, capsys) if r["line"] == 6]
    assert recs and all(r["called_at"] == [] for r in recs)


def test_text_note_names_the_call_chain(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "calls.cu"
    src.write_text(_SOURCE)
    _, out, _ = run_cli(capsys, "--format", "text", "--color", "never", str(src), isolated=True)
    assert "note: called at calls.cu:8:15" in out.replace(str(tmp_path) + "/", "")
    assert "called at calls.cu:2:49 (from calls.cu:10:32)" in out.replace(str(tmp_path) + "/", "")


def test_identical_findings_of_two_calls_are_tagged(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "calls.cu"
    src.write_text(_SOURCE)
    _, out, _ = run_cli(capsys, "--format", "concise", str(src), isolated=True)
    lines = [ln for ln in out.splitlines() if ":3:40:" in ln]
    assert len(lines) == 2
    assert "(called at 14:5)" in lines[0] + lines[1]
    assert "(called at 15:5)" in lines[0] + lines[1]


# The same finding through three calls: one diagnostic that names its calls in the line
# formats; the records (JSON) stay one per call.
_THRICE = """\
__device__ void put(float *s, int i) { s[i * 2] = 1.0f; }
__global__ void thrice(float *out) {
    __shared__ float b[128];
    put(b, threadIdx.x);
    put(b, threadIdx.x);
    put(b, threadIdx.x);
    out[threadIdx.x] = b[threadIdx.x];
}
void run(float *o) { thrice<<<1, 32>>>(o); }
"""


@pytest.mark.parametrize("fmt", ["concise", "text", "github"])
def test_one_finding_through_several_calls_is_one_diagnostic(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    src = tmp_path / "thrice.cu"
    src.write_text(_THRICE)
    _, out, _ = run_cli(capsys, "--format", fmt, "--color", "never", str(src), isolated=True)
    found = [ln for ln in out.splitlines() if "2-way bank conflict" in ln]
    assert len(found) == 1, out
    assert "called at 3 places: 4:5; 5:5; 6:5" in found[0]


def test_records_stay_one_per_call(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "thrice.cu"
    src.write_text(_THRICE)
    _, out, _ = run_cli(capsys, "--format", "json", "--show-all", str(src), isolated=True)
    recs = [r for r in json.loads(out)["accesses"] if r["line"] == 1]
    assert sorted(r["called_at"][0]["line"] for r in recs) == [4, 5, 6]
