"""Integral template arguments read as C++ reads them: libclang gives an argument's value
sign-extended, so ``true`` reads -1 and an unsigned argument with its top bit set reads
negative. The instantiation's label (and every value the analysis uses) must not."""

from __future__ import annotations

import json
import pathlib

import pytest
from factories import run_cli

_SOURCE = """\
template <bool B, unsigned M, unsigned long long L>
__global__ void k(float *out) {
    __shared__ float s[128];
    s[threadIdx.x * (1 + B)] = (float)(M >> 31) + (float)(L >> 63);
    out[threadIdx.x] = s[threadIdx.x];
}
int main() { k<true, 0x80000000u, 0x8000000000000000ull><<<1, 32>>>(nullptr); }
"""


def test_bool_and_unsigned_arguments(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "args.cu"
    src.write_text(_SOURCE)
    code, out, _ = run_cli(capsys, "--format", "json", "--show-all", str(src), isolated=True)
    records = json.loads(out)["accesses"]
    assert {r["instantiation"] for r in records} == {"B=1, M=2147483648, L=9223372036854775808"}
    store = next(r for r in records if r["kind"] == "store")
    assert (store["wavefronts"], store["ideal_wavefronts"]) == (2, 1)  # word 2l
    assert code == 1
