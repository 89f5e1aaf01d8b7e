"""A function as a kernel template's non-type argument (issue 13, item 3; llm.c's
``trimul_launcher<matmul_tri4>`` launching ``trimul_global<matmul_tri>``): the device
function the instantiation binds is analysed inside that kernel, with the launch's shape,
and labelled with the binding. ``fixtures/templates_function_pointer_args.cu`` checks the
numbers; this checks what the fixture format does not (the kernel and instantiation of
each record, explicit instantiations, launch-bound parameters, unknown arguments)."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest
from factories import run_cli

FIXTURE = pathlib.Path(__file__).parent.parent / "fixtures" / "templates_function_pointer_args.cu"


def _records(capsys: pytest.CaptureFixture[str], path: pathlib.Path) -> list[dict[str, Any]]:
    _, out, _ = run_cli(capsys, "--format", "json", "--show-all", str(path), isolated=True)
    records: list[dict[str, Any]] = json.loads(out)["accesses"]
    return records


def _line(path: pathlib.Path, needle: str) -> int:
    lines = path.read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if needle in text)


def test_fixture_records_name_kernel_and_binding(capsys: pytest.CaptureFixture[str]) -> None:
    records = _records(capsys, FIXTURE)
    by_line: dict[int, set[tuple[str, str | None, tuple[int, ...] | None]]] = {}
    for r in records:
        dims = tuple(r["block_dim"]) if r["block_dim"] else None
        by_line.setdefault(r["line"], set()).add((r["kernel"], r["instantiation"], dims))
    rows = _line(FIXTURE, "s[threadIdx.y][threadIdx.x] = out")
    cols = _line(FIXTURE, "c[threadIdx.y % 8][threadIdx.x % 32] = out")
    free = _line(FIXTURE, "d[threadIdx.y % 8]")
    assert by_line[rows] == {
        ("k_tile", "f=stage_rows", (16, 16, 1)),  # trimul_launcher's form
        ("k_direct", "f=stage_rows", (8, 32, 1)),  # k<&f><<<...>>>
    }
    assert by_line[cols] == {
        ("k_tile", "f=stage_cols", (16, 16, 1)),
        ("k_wide", "f=stage_cols", (64, 2, 1)),  # a macro inside the host template
        ("k_ref", "g=stage_cols", (64, 2, 1)),  # a function-reference parameter
    }
    # called only through a run-time pointer: on its own, with the assumed shape
    assert by_line[free] == {("stage_free", None, None)}
    assert not any(r["kernel"] in ("stage_rows", "stage_cols") for r in records)


_BOUND = """\
typedef void (*stage_fn)(float *out, int st);
extern __device__ void elsewhere(float *out, int st);

__device__ void strided(float *out, int st) {
    __shared__ float s[256];
    s[threadIdx.x * st] = out[threadIdx.x];
}

__device__ void inst_only(float *out, int st) {
    __shared__ float e[64];
    e[threadIdx.x * 2] = out[threadIdx.x];
}

__device__ void never_bound(float *out, int st) {
    __shared__ float u[64];
    u[threadIdx.x] = out[threadIdx.x];
}

template <stage_fn f>
__global__ void k(float *out, int st) { f(out, st); }

template <stage_fn f>
__global__ void k_inst(float *out, int st) { f(out, st); }

template <stage_fn f>
__global__ void k_unlaunched(float *out, int st) { f(out, st); }

template __global__ void k_inst<inst_only>(float *, int);

__device__ void f(float *out, int st) {
    __shared__ float g[64];
    g[threadIdx.x] = out[threadIdx.x];
}

template <stage_fn f>
__global__ void k_shadow(float *out, int st) { f(out, st); }

template <stage_fn f>
void never_called(float *out) { k_shadow<f><<<1, dim3(16, 16)>>>(out, 1); }

void run(float *out) {
    k<strided><<<1, 32>>>(out, 2);
    k<elsewhere><<<1, 32>>>(out, 2);
}
"""


def test_explicit_instantiation_bound_parameters_and_unknowns(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "bound.cu"
    src.write_text(_BOUND)
    records = {r["line"]: r for r in _records(capsys, src)}
    assert len(records) == 4
    # the launch passes st = 2 too: the binding survives the parameter's rebinding
    strided = records[6]
    assert (strided["kernel"], strided["instantiation"]) == ("k", "f=strided, st=2")
    assert (strided["wavefronts"], strided["block_dim"]) == (2, [32, 1, 1])
    # ``template __global__ void k_inst<inst_only>(...)``: in that kernel, no launch
    inst = records[11]
    assert (inst["kernel"], inst["instantiation"]) == ("k_inst", "f=inst_only")
    assert inst["block_dim_source"] == "assumed"
    # a kernel template no launch binds: its helper stays on its own, assumed
    alone = records[16]
    assert (alone["kernel"], alone["instantiation"]) == ("never_bound", None)
    # ``k_shadow<f>`` in a host template no one calls: ``f`` is its parameter, unbound,
    # not the device function of that name
    shadowed = records[32]
    assert (shadowed["kernel"], shadowed["block_dim_source"]) == ("f", "assumed")
