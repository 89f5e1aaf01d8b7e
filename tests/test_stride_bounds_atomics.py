"""Issue 14: a stride loop's bound limits the active lanes, a bank never serves more words
than the array holds, and an atomic whose lanes share an address is worded (and costed)
as a serialization. The fixtures ``stride_loop_bounds.cu`` and
``atomics_same_address.cu`` hold the numbers; these tests pin the wording and the
helpers."""

from __future__ import annotations

import pytest

from cudalint.api import check_file
from cudalint.ir import INT, UINT, Binary, Cast, Const, Sym
from cudalint.model.explain import bank_map
from cudalint.model.stride_loops import _decreasing, widened_reason
from cudalint.options import Options
from cudalint.output.bankmap import busiest, describe

TID = Cast(Sym("threadIdx.x", UINT, lane_dependent=True), INT)
K = Sym("k@L6:i", INT)
BDX = Cast(Sym("blockDim.x", UINT), INT)
N = Sym("n", INT)


def analyze(source: str) -> list:  # type: ignore[type-arg]
    report = check_file("t.cu", Options(), source.encode())
    assert report.error is None
    return list(report.diagnostics)


ATOMICS = """
__global__ void k(unsigned *in) {
    __shared__ unsigned h[64];
    unsigned t = threadIdx.x, v = in[t];
    atomicExch(&h[0], v);
    atomicAdd(&h[32 * (t % 2)], v);
    atomicAdd(&h[32 * (t % 2)], 1u);
}
void launch(unsigned *in) { k<<<1, 32>>>(in); }
"""


def test_one_address_is_worded_as_serialization() -> None:
    exch, add_v, add_1 = analyze(ATOMICS)
    assert exch.message == (
        "32 lanes serialize on one address in atomicExch on 'h' (32 wavefronts, ideal 1)"
    )
    assert exch.notes[0] == (
        "word 0 (bank 0) is updated by 32 lanes (0, 1, 2, …), one lane per pass: this "
        "atomic does not combine lanes on one word"
    )
    assert "distinct word" not in exch.notes[0] and "bank conflict" not in exch.message
    assert add_v.message == (
        "32-way serialized atomicAdd on 'h': 32 lanes on 2 words of bank 0 (32 wavefronts, ideal 1)"
    )
    assert add_v.notes[0].startswith(
        "bank 0 serves 2 distinct words (0, 32) to 32 lanes (0, 2, 4, …), (1, 3, 5, …), "
    )
    # ATOMS.POPC.INC combines lanes on one word: a plain 2-way bank conflict
    assert add_1.message == "2-way bank conflict on atomic of 'h' (2 wavefronts, ideal 1)"
    assert add_1.notes[0].startswith("bank 0 serves 2 distinct words (0, 32) for lanes")


def test_bank_map_of_a_serialized_atomic() -> None:
    report = check_file("t.cu", Options(), ATOMICS.encode())
    exch = next(r for r in report.results if r.access.atomic_op == "atomicExch")
    m = bank_map(exch)
    assert m is not None
    _, _, verdict = describe(exch)
    assert "32 lanes serialize on one address" in verdict
    assert "bank conflict" not in verdict
    top = busiest(m)
    assert top is not None and top.startswith("bank 0 serves 1 word (0) to 32 lanes 0-31")


@pytest.mark.parametrize("rows", [2, 4, 8, 16, 24])
def test_bank_never_serves_more_words_than_the_array_holds(rows: int) -> None:
    source = f"""
__global__ void k(float v, int n) {{
    __shared__ float s[{rows}][32];
    for (int i = threadIdx.x; i < n; i += blockDim.x) s[i][0] = v;
    s[threadIdx.x][1] = v;
}}
void launch(float v, int n) {{ k<<<1, 128>>>(v, n); }}
"""
    report = check_file("t.cu", Options(), source.encode())
    assert len(report.results) == 2
    for r in report.results:
        assert r.conflict is not None
        # s holds `rows` words in each bank: word 32 i + c is in bank c
        assert len(r.conflict.words) == min(rows, 32)
        assert r.wavefronts == min(rows, 32)
        assert all(w < rows * 32 for w in r.conflict.words)


def test_monotone_bounds() -> None:
    i = Binary("+", TID, Binary("*", K, BDX, INT), INT)
    assert _decreasing(Binary("<", i, Const(8), INT), K.name)
    assert _decreasing(Binary("<=", i, N, INT), K.name)
    assert _decreasing(Binary(">", N, i, INT), K.name)  # n > i
    # shrinking index, bound on the wrong side, the counter on both sides: not monotone
    down = Binary("-", TID, Binary("*", K, BDX, INT), INT)
    assert not _decreasing(Binary("<", down, Const(8), INT), K.name)
    assert not _decreasing(Binary(">", i, Const(8), INT), K.name)
    assert not _decreasing(Binary("<", i, Binary("*", K, Const(64), INT), INT), K.name)
    assert not _decreasing(Binary("<", Binary("*", K, K, INT), Const(8), INT), K.name)
    assert not _decreasing(Binary("==", i, Const(8), INT), K.name)


def test_widened_reason() -> None:
    assert widened_reason(("k@L6:i",)) == (
        "in the first iteration of the 'i' loop (every later iteration has as many active "
        "lanes or fewer)"
    )
    assert widened_reason(("blockIdx.x",)) == (
        "when blockIdx.x == 0 (every other block has as many active lanes or fewer)"
    )
