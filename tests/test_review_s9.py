"""Review of the ``untraced`` count (inline PTX on shared memory cudalint cannot place):
a header's untraced statement is one access however many ``.cu`` files of a folder run
include it, as the header's traced accesses are one record each (fixtures/headers/
header_twice)."""

from __future__ import annotations

import json
import pathlib

import pytest
from factories import run_cli

# One traced store (s[l]: 1/1) and one untraced st.shared in the header; a.cu and b.cu
# both include it and launch tk: 2 accesses in the folder, 1 untraced (unknown).
_HEADER = """\
#pragma once
#include <cstdint>
__device__ uint32_t opaque_addr(uint32_t x);
__global__ void tk(float *out) {
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    asm volatile("st.shared.f32 [%0], %1;" :: "r"(opaque_addr(threadIdx.x)), "f"(2.0f));
}
"""
_USER = """\
#include "common.cuh"
int main() { tk<<<1, 32>>>(0); }
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_headers_untraced_statement_counts_once_in_a_folder(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    (tmp_path / "common.cuh").write_text(_HEADER)
    (tmp_path / "a.cu").write_text(_USER)
    (tmp_path / "b.cu").write_text(_USER)
    _, out, _ = run_cli(
        capsys, "--format", "json", "--show-all", "-j", jobs, str(tmp_path), isolated=True
    )
    summary = json.loads(out)["summary"]
    assert (summary["accesses"], summary["proved"], summary["unknown"], summary["untraced"]) == (
        2,
        1,
        1,
        1,
    )
