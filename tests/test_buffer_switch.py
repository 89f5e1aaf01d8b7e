"""Double buffers switched by XOR of a shared-window address (``addr ^= 0x2000``), and
inline PTX that touches shared memory at an address cudalint cannot trace: counted as an
unknown access in the summary line and in JSON (``untraced``), not only as a CL004.

The bank rule behind the switch (docs/bank-model.md, "Buffers switched by XOR"): XOR with
a constant whose low 8 bits are 0 keeps bits 0..7 of every lane's address, so the bank
(4-byte words: bits 2..6; Kepler's 8-byte mode: bits 3..7) and which lanes share a word
stay the same. The fixture fixtures/frontend_ptx_buffer_switch.cu checks sm_90; here the
8-byte bank mode decides which masks are kept."""

from __future__ import annotations

import json
import pathlib

import pytest
from factories import run_cli

# One warp; lane l stores word l of S (4-byte mode: 32 banks once, 1/1; 8-byte mode:
# lanes 2k, 2k+1 share the 8-byte unit k of bank k, 1/1). a is switched by 0x100 (low 8
# bits 0: kept in both modes), b by 0x80 (low 7 bits 0 only: bit 7 is an 8-byte bank bit).
_KEPLER = """\
#include <cstdint>
__global__ void k(float *out, int tiles) {
    __shared__ __align__(1024) float S[1024];
    uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(S + threadIdx.x));
    uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(S + threadIdx.x));
    for (int t = 0; t < tiles; ++t) {
        asm volatile("st.shared.f32 [%0], %1;" :: "r"(a), "f"(1.0f));
        asm volatile("st.shared.f32 [%0], %1;" :: "r"(b), "f"(1.0f));
        __syncthreads();
        a ^= 0x100;
        b ^= 0x80;
    }
}
int main() { k<<<1, 32>>>(0, 4); }
"""

_UNTRACED = """\
#include <cstdint>
__device__ uint32_t opaque_addr(uint32_t x);
__global__ void k(float *out) {
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    asm volatile("st.shared.f32 [%0], %1;" :: "r"(opaque_addr(threadIdx.x)), "f"(2.0f));
    out[threadIdx.x] = s[threadIdx.x];
}
int main() { k<<<1, 32>>>(0); }
"""


def _json(capsys: pytest.CaptureFixture[str], path: pathlib.Path, *args: str) -> dict:
    _, out, _ = run_cli(capsys, "--format", "json", "--show-all", *args, str(path), isolated=True)
    return json.loads(out)


def test_switch_keeps_the_cost_only_for_masks_that_keep_every_bank_bit(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "kepler.cu"
    src.write_text(_KEPLER)
    doc = _json(capsys, src, "--arch", "sm_35")
    by_line: dict[int, list[dict]] = {}
    for a in doc["accesses"]:
        by_line.setdefault(a["line"], []).append(a)
    kept, moved = by_line[7], by_line[8]
    assert sorted(a["bank_mode"] for a in kept) == [4, 8]
    assert all(a["status"] == "proved" and a["wavefronts"] == 1 for a in kept)
    assert sorted(a["bank_mode"] for a in moved) == [4, 8]
    assert all(a["status"] == "unknown" for a in moved)
    assert all("'b' switches buffers by '^ 0x80'" in a["reason"] for a in moved)


def test_untraced_inline_ptx_is_an_unknown_access(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "untraced.cu"
    src.write_text(_UNTRACED)
    code, out, _ = run_cli(capsys, "--show-all", str(src), isolated=True)
    # s[l] twice (1/1) and the st.shared nobody can place: 3 accesses, 1 unknown
    assert "1 file, 3 accesses: 2 proved, 0 worst-case, 1 unknown (33%); 0 conflicts" in out
    assert "inline PTX 'st.shared' touches shared memory that cudalint cannot trace" in out
    assert code == 0
    doc = _json(capsys, src)
    summary = doc["summary"]
    assert (summary["accesses"], summary["unknown"], summary["untraced"]) == (3, 1, 1)
    assert len(doc["accesses"]) == 2  # no record for it: only its CL004
    # the untraced access counts towards --max-unknown
    code, _, err = run_cli(capsys, "--max-unknown", "30", str(src), isolated=True)
    assert code == 2 and "1 of 3 shared-memory accesses (33%) are unknown" in err
