"""Issue 15, goal 2: ``proof.prove``'s memo is keyed by what a proof reads
(``proof.proof_key``), not by the whole ``Access``.

Two instantiations of a kernel whose access comes out the same (ggml's
``flash_attn_ext_f16`` with DKQ=64 and DKQ=80: 22 of 63 proofs of an mma instance), or a
helper called from two places, are one proof; each record still gets its own access back.
The tests compare with the plain computation (a fresh run per access, or the key switched
back to the whole access) and check that the shared proof is taken, so that they fail with
the memo switched off, and that every field the proof reads stays in the key, so that they
fail with a field wrongly left out.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from factories import float_access

from cudalint.checker import check_file
from cudalint.ir import INT, THREAD_IDX, Access, Binary, Const, Span, Sym
from cudalint.model import proof
from cudalint.model.arch import parse_arch
from cudalint.model.caches import RunCaches
from cudalint.model.shapes import Shape
from cudalint.options import Options

TX = Sym(THREAD_IDX[0], INT, lane_dependent=True)
ARCH = parse_arch("sm_90")
SHAPES = (Shape((64, 1, 1), "launch"), Shape(None, "assumed"))

#: Fields a proof never reads (proof_key sets them to fixed values).
IGNORED = {
    "array",
    "kernel",
    "span",
    "text",
    "instantiation",
    "launch_params",
    "indices",
    "element_offset",
    "region",
    "unrolled_by",
    "unroll_factor",
    "order",
    "volatile",
    "array_name",
    "call_sites",
}


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[Access]:
    seen: list[Access] = []
    inner = proof._prove

    def counted(access: Access, *args: Any) -> Any:
        seen.append(access)
        return inner(access, *args)

    monkeypatch.setattr(proof, "_prove", counted)
    return seen


def _elsewhere(a: Access, n: int) -> Access:
    """``a`` as another record of the same code: another place, text, kernel, labels."""
    return dataclasses.replace(
        a,
        span=Span("g.cuh", 10 + n, 3, 10 + n, 9),
        text=f"t{n}[x]",
        kernel=f"k{n}",
        instantiation=f"D={n}",
        launch_params=("D",),
        order=n,
        region=n,
        array_name=f"t{n}",
        call_sites=(Span("f.cu", n, 1, n, 2),),
        unrolled_by="i",
        unroll_factor=n,
        indices=(TX,),
        volatile=bool(n % 2),
    )


def test_the_key_keeps_every_field_but_the_ignored_ones() -> None:
    a, _ = float_access(Binary("*", TX, Const(8, INT), INT))
    b = _elsewhere(a, 3)
    ka, kb = proof.proof_key(a), proof.proof_key(b)
    assert ka == kb
    for f in dataclasses.fields(Access):
        if f.name in IGNORED:
            continue
        # a field added to Access later stays in the key unless it is named here
        assert getattr(ka, f.name) == getattr(a, f.name), f.name


def test_records_of_the_same_access_share_one_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _counted(monkeypatch)
    a, arr = float_access(Binary("*", TX, Const(8, INT), INT))
    records = [a] + [_elsewhere(a, n) for n in range(1, 4)]
    for shape in SHAPES:
        run = RunCaches()
        seen.clear()
        got = [proof.prove(r, arr, shape, ARCH, 4, None, run) for r in records]
        assert len(seen) == 1  # the first record's proof, shared by the others
        for r, res in zip(records, got, strict=True):
            assert res.access is r
            # the plain computation: a run of its own for each record
            assert res == proof.prove(r, arr, shape, ARCH, 4, None, RunCaches())
        assert got[0].status == "proved" and got[0].ways == 2


@pytest.mark.parametrize(
    "change",
    [
        {"width": 8},
        {"kind": "load"},
        {"guard": Binary("<", TX, Const(16, INT), INT)},
        {"offset": Binary("*", TX, Const(4, INT), INT)},
        {"kind": "atomic", "atomic_op": "atomicAdd"},
        {"kind": "atomic", "atomic_op": "atomicAdd", "atomic_value_type": "float"},
        {
            "kind": "atomic",
            "atomic_op": "atomicAdd",
            "atomic_operand": 1,
            "atomic_result_used": False,
        },
        {"unknown_reason": "the index reads memory"},
        {"matrix": True, "width": 16, "collective": True},
    ],
)
def test_what_the_proof_reads_is_not_shared(
    monkeypatch: pytest.MonkeyPatch, change: dict[str, object]
) -> None:
    seen = _counted(monkeypatch)
    a, arr = float_access(Binary("*", TX, Const(8, INT), INT))
    b = dataclasses.replace(_elsewhere(a, 1), **change)  # type: ignore[arg-type]
    run = RunCaches()
    ra = proof.prove(a, arr, SHAPES[0], ARCH, 4, None, run)
    rb = proof.prove(b, arr, SHAPES[0], ARCH, 4, None, run)
    assert len(seen) == 2
    assert rb == proof.prove(b, arr, SHAPES[0], ARCH, 4, None, RunCaches())
    assert ra == proof.prove(a, arr, SHAPES[0], ARCH, 4, None, RunCaches())


# Two instantiations of a kernel whose template argument does not reach the offset, and a
# helper called twice: the same offsets, guards and shapes under other records.
SOURCE = """
template <int D>
__device__ void put(float *s, int i) { s[i * 2] = D; }

template <int D>
__global__ void k(float *out) {
    __shared__ float s[512];
    s[threadIdx.x * 2] = out[0];
    put<D>(s, threadIdx.x);
    put<D>(s, threadIdx.x + 1);
    out[1] = s[threadIdx.x * 4 % 256] + D;
}

void run(float *out) {
    k<64><<<1, 64>>>(out);
    k<80><<<1, 64>>>(out);
}
"""


def test_a_file_gives_the_same_report_with_fewer_proofs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "inst.cu"
    path.write_text(SOURCE)
    seen = _counted(monkeypatch)
    fast = check_file(str(path), Options(timeout=None))
    shared = len(seen)
    seen.clear()
    monkeypatch.setattr(proof, "proof_key", lambda a: a)  # the whole access, as before
    plain = check_file(str(path), Options(timeout=None))
    assert fast.error is None and plain.error is None
    assert fast.results == plain.results
    assert fast.diagnostics == plain.diagnostics
    assert {r.access.instantiation for r in fast.results} == {"D=64", "D=80"}
    assert any(r.conflict is not None for r in fast.results)
    assert shared < len(seen)
