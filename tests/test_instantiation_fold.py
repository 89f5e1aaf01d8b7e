"""The line formats print one diagnostic for a finding that several instantiations of a
template kernel give alike (ggml's flash-attention kernels printed one identical line
per instantiation); its note names the instantiations. The JSON keeps every record."""

from __future__ import annotations

import json
import pathlib
import re

import pytest
from factories import run_cli

# s[t * 32] is 32-way in every instantiation; s[t * N] differs with N (32 -> 32-way,
# 2 -> 2-way, 4 -> 4-way, 64 -> 32-way, 96 -> 32-way, 128 -> 32-way, each on other
# words); put() is called twice in each, with the same finding. The launches share a
# line (the block shape's note names it): findings with other notes stay apart.
_SOURCE = """\
__device__ void put(float *s, int i) { s[i * 32] = 1.0f; }
template <int N>
__global__ void k(float *out) {
    __shared__ float s[32 * 128];
    s[threadIdx.x * 32] = 0.0f;
    put(s, threadIdx.x);
    put(s, threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x * N];
}
void run(float *o) {
#define L(n) k<n><<<1, 32>>>(o);
    L(32) L(2) L(4) L(64) L(96) L(128)
}
"""


def _at(line: str, n: int) -> bool:
    """Whether a printed diagnostic is on source line ``n`` (text/concise or github)."""
    return f"inst.cu:{n}:" in line or f"inst.cu,line={n}," in line


def _run(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    src = tmp_path / "inst.cu"
    src.write_text(_SOURCE)
    _, out, _ = run_cli(capsys, *args, "--color", "never", str(src), isolated=True)
    return out


@pytest.mark.parametrize("fmt", ["concise", "text", "github"])
def test_one_line_for_a_finding_every_instantiation_gives(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    out = _run(tmp_path, capsys, "--format", fmt)
    lines = out.splitlines()
    assert len([ln for ln in lines if _at(ln, 5) and "32-way" in ln]) == 1, out
    # the helper: one diagnostic for both calls and all six instantiations
    assert len([ln for ln in lines if _at(ln, 1) and "32-way" in ln]) == 1, out
    # s[t * N]: 32-way for N = 32, 64, 96, 128, but on other words each (the bank
    # note differs): apart, as the 2-way and the 4-way
    at9 = [ln for ln in lines if _at(ln, 9)]
    assert sorted(re.search(r"(\d+)-way", ln).group(1) for ln in at9) == [
        "2",
        "32",
        "32",
        "32",
        "32",
        "4",
    ], out


def test_the_note_names_the_instantiations(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(tmp_path, capsys, "--format", "text")
    assert "note: in 6 instantiations: N=2; N=4; N=32; N=64; and 2 more" in out, out
    assert "note: called at 2 places: " in out, out
    assert "in instantiation N=2" in out and "in instantiation N=4" in out


def test_the_json_keeps_every_record(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(tmp_path, capsys, "--format", "json")
    diags = json.loads(out)["diagnostics"]
    assert len([d for d in diags if d["line"] == 5]) == 6
    assert len([d for d in diags if d["line"] == 1]) == 12
