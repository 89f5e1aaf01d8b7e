"""Frontend tests: small CUDA snippets in, IR out (arrays, accesses, launches, notes)."""

from __future__ import annotations

import dataclasses
import itertools
import os
import pathlib
import re

import pytest

from cudalint import ir
from cudalint.frontend import FrontendError, parse_file
from cudalint.ir import (
    LONG,
    UINT,
    Access,
    Binary,
    Cast,
    Const,
    Expr,
    IntType,
    Opaque,
    Select,
    Sym,
    TranslationUnit,
    Unary,
)
from cudalint.options import Options

# --- an independent evaluator of IR expressions (C integer semantics) -----------------------


class Unknown(Exception):
    """The expression holds an Opaque value."""


def _wrap(v: int, t: IntType) -> int:
    v &= (1 << t.bits) - 1
    if t.signed and v >> (t.bits - 1):
        v -= 1 << t.bits
    return v


def evaluate(e: Expr, env: dict[str, int]) -> int:
    """The value of ``e`` with symbols from ``env``; operands convert to the node's type."""
    if isinstance(e, Const):
        return _wrap(e.value, e.type)
    if isinstance(e, Sym):
        return _wrap(env[e.name], e.type)
    if isinstance(e, Cast):
        return _wrap(evaluate(e.operand, env), e.type)
    if isinstance(e, Unary):
        x = _wrap(evaluate(e.operand, env), e.type)
        return {"-": _wrap(-x, e.type), "~": _wrap(~x, e.type), "!": int(x == 0), "+": x}[e.op]
    if isinstance(e, Select):
        return _wrap(evaluate(e.then if evaluate(e.cond, env) else e.other, env), e.type)
    if isinstance(e, Opaque):
        raise Unknown(e.reason)
    assert isinstance(e, Binary)
    t = e.type
    a = evaluate(e.lhs, env)
    b = evaluate(e.rhs, env)
    if e.op == "&&":
        return int(bool(a) and bool(b))
    if e.op == "||":
        return int(bool(a) or bool(b))
    x = _wrap(a, t)
    if e.op in ("<<", ">>"):
        return _wrap(x << b, t) if e.op == "<<" else x >> b
    y = _wrap(b, t)
    if e.op in ("/", "%"):
        q = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)
        return _wrap(q if e.op == "/" else x - q * y, t)
    ops = {
        "+": lambda: x + y,
        "-": lambda: x - y,
        "*": lambda: x * y,
        "&": lambda: x & y,
        "|": lambda: x | y,
        "^": lambda: x ^ y,
        "<": lambda: int(x < y),
        "<=": lambda: int(x <= y),
        ">": lambda: int(x > y),
        ">=": lambda: int(x >= y),
        "==": lambda: int(x == y),
        "!=": lambda: int(x != y),
        "min": lambda: min(x, y),
        "max": lambda: max(x, y),
    }
    return _wrap(ops[e.op](), t)


def tid(x: int, y: int = 0, z: int = 0, **more: int) -> dict[str, int]:
    env = {"threadIdx.x": x, "threadIdx.y": y, "threadIdx.z": z}
    env.update({k.replace("_", "."): v for k, v in more.items()})
    return env


def walk(e: Expr) -> list[Expr]:
    out = [e]
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if isinstance(v, tuple):
            for item in v:
                out.extend(walk(item))
        elif dataclasses.is_dataclass(v) and not isinstance(v, IntType):
            out.extend(walk(v))  # type: ignore[arg-type]
    return out


def opaques(e: Expr) -> list[Opaque]:
    return [n for n in walk(e) if isinstance(n, Opaque)]


# --- helpers ------------------------------------------------------------------------------


def parse(
    tmp_path: pathlib.Path, src: str | bytes, name: str = "k.cu", **opts: object
) -> TranslationUnit:
    path = tmp_path / name
    path.write_bytes(src.encode() if isinstance(src, str) else src)
    return parse_file(str(path), Options(**opts))  # type: ignore[arg-type]


def accesses_at(tu: TranslationUnit, text: str) -> list[Access]:
    found = [a for a in tu.accesses if a.text == text]
    assert found, f"no access {text!r} in {[a.text for a in tu.accesses]}"
    return found


def only(tu: TranslationUnit, text: str, kind: str | None = None) -> Access:
    found = [a for a in accesses_at(tu, text) if kind is None or a.kind == kind]
    assert len(found) == 1, found
    return found[0]


def column_of(src: str, line_no: int, needle: str) -> int:
    return src.splitlines()[line_no - 1].index(needle) + 1


# --- shared arrays --------------------------------------------------------------------------


TRANSPOSE = """\
#define TILE 32
__shared__ float gs[64];
__global__ void transpose(float* out, const float* in) {
  __shared__ float tile[TILE][TILE + 1];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  gs[threadIdx.x] = 1.0f;
}
"""


def test_array_dims_texts_and_spans(tmp_path: pathlib.Path) -> None:
    tu = parse(tmp_path, TRANSPOSE)
    tile = tu.array("transpose::tile")
    assert tile.name == "tile" and tile.kernel == "transpose"
    assert (tile.element_type, tile.element_bytes, tile.dims) == ("float", 4, (32, 33))
    assert tile.dim_texts == ("TILE", "TILE + 1")
    line = TRANSPOSE.splitlines()[3]
    first, second = tile.dim_spans
    assert (first.line, first.column, first.end_column) == (
        4,
        line.index("TILE]") + 1,
        line.index("TILE]") + 5,
    )
    assert (second.line, second.column) == (4, line.index("TILE + 1") + 1)
    assert second.end_column == line.index("TILE + 1") + 1 + len("TILE + 1")
    assert tile.span.line == 4 and tile.span.file == str(tmp_path / "k.cu")
    gs = tu.array("::gs")
    assert gs.kernel is None and gs.dims == (64,) and gs.dim_texts == ("64",)
    assert only(tu, "gs[threadIdx.x]").array == "::gs"


def test_element_sizes_of_vector_and_half_types(tmp_path: pathlib.Path) -> None:
    types = {
        "char": 1,
        "uchar4": 4,
        "short3": 6,
        "int2": 8,
        "float2": 8,
        "float3": 12,
        "float4": 16,
        "int4": 16,
        "uint4": 16,
        "double2": 16,
        "longlong2": 16,
        "double4": 32,
        "__half": 2,
        "__half2": 4,
        "__nv_bfloat16": 2,
        "__nv_bfloat162": 4,
        "half2": 4,
        "double": 8,
        "unsigned long long": 8,
    }
    decls = "\n".join(f"  __shared__ {t} a{i}[8];" for i, t in enumerate(types))
    src = f"#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n__global__ void k() {{\n{decls}\n}}\n"
    tu = parse(tmp_path, src)
    assert not [n for n in tu.notes if n.severity == "error"], tu.notes
    got = {a.element_type: a.element_bytes for a in tu.arrays}
    assert got == types


def test_vector_alignment_follows_cuda(tmp_path: pathlib.Path) -> None:
    # A struct member after a char lands at the vector type's alignment; the second
    # element of an array of structs shows the padding.
    src = """\
struct S2 { char c; float2 v; };
struct S3 { char c; float3 v; };
struct S4 { char c; double2 v; };
__global__ void k() {
  __shared__ S2 a[2]; __shared__ S3 b[2]; __shared__ S4 c[2];
  a[threadIdx.x].v.y = 0; b[0].c = 0; c[0].c = 0;
}
"""
    tu = parse(tmp_path, src)
    sizes = {a.name: a.element_bytes for a in tu.arrays}
    assert sizes == {"a": 16, "b": 16, "c": 32}


def test_dynamic_shared_memory_is_an_array_of_unknown_extent(tmp_path: pathlib.Path) -> None:
    src = """\
extern __shared__ float dyn[];
__global__ void k() { extern __shared__ int d2[]; d2[threadIdx.x] = 1; dyn[0] = 2; }
"""
    tu = parse(tmp_path, src)
    d2, dyn = tu.array("k::d2"), tu.array("::dyn")
    assert (d2.dims, d2.element_bytes, d2.base_offset) == ((0,), 4, Const(0, LONG))
    assert (dyn.dims, dyn.element_bytes, dyn.base_offset) == ((0,), 4, Const(0, LONG))
    assert [(a.array, a.kind) for a in tu.accesses] == [("k::d2", "store"), ("::dyn", "store")]
    assert evaluate(tu.accesses[0].offset, tid(3)) == 12
    assert tu.array("k::d2").span.line == 2


# --- accesses -------------------------------------------------------------------------------


def test_transpose_offsets_and_kinds(tmp_path: pathlib.Path) -> None:
    tu = parse(tmp_path, TRANSPOSE)
    store = only(tu, "tile[threadIdx.y][threadIdx.x]")
    load = only(tu, "tile[threadIdx.x][threadIdx.y]")
    assert (store.kind, load.kind) == ("store", "load")
    assert store.width == load.width == 4
    assert store.kernel == "transpose" and store.guard is None
    assert store.offset.type == LONG
    for x, y in itertools.product([0, 1, 5, 31], [0, 3, 7]):
        assert evaluate(store.offset, tid(x, y)) == (y * 33 + x) * 4
        assert evaluate(load.offset, tid(x, y)) == (x * 33 + y) * 4
    # Spans: 1-based columns, the whole subscript expression.
    line = TRANSPOSE.splitlines()[4]
    assert (store.span.line, store.span.column) == (5, line.index("tile") + 1)
    assert store.span.end_column == line.index("] =") + 2


def test_compound_increment_address_and_atomics(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(int* out) {
  __shared__ int s[8][32];
  s[threadIdx.y][threadIdx.x] += 1;
  s[0][threadIdx.x]++;
  int* row = s[threadIdx.y];
  int* p = &s[1][threadIdx.x];
  atomicAdd(&s[2][threadIdx.x], 1);
  out[0] = row[0] + *p;
}
"""
    tu = parse(tmp_path, src)
    rmw = accesses_at(tu, "s[threadIdx.y][threadIdx.x]")
    assert sorted(a.kind for a in rmw) == ["load", "store"]
    assert rmw[0].span == rmw[1].span and rmw[0].offset == rmw[1].offset
    inc = accesses_at(tu, "s[0][threadIdx.x]")
    assert sorted(a.kind for a in inc) == ["load", "store"]
    atomic = only(tu, "s[2][threadIdx.x]")
    assert atomic.kind == "atomic" and atomic.width == 4
    assert evaluate(atomic.offset, tid(5)) == (2 * 32 + 5) * 4
    texts = {a.text for a in tu.accesses}
    assert "s[1][threadIdx.x]" not in texts  # &s[..] outside an atomic is not an access
    assert "s[threadIdx.y]" not in texts  # a row used as a pointer is not an access
    # ... but the accesses through those pointers are.
    row0 = only(tu, "row[0]")
    deref = only(tu, "*p")
    assert (row0.kind, deref.kind, row0.width, deref.width) == ("load", "load", 4, 4)
    assert evaluate(row0.offset, tid(5, 3)) == 3 * 32 * 4
    assert evaluate(deref.offset, tid(5, 3)) == (32 + 5) * 4
    assert row0.indices == () and deref.indices == ()  # not plain subscript chains
    assert len(tu.accesses) == 7


def test_vector_member_access(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(float* out) {
  __shared__ float2 v[32];
  __shared__ float4 w[32];
  v[threadIdx.x].y = 1.0f;
  out[0] = w[threadIdx.x].w;
  float4 whole = w[threadIdx.x ^ 1];
  out[1] = whole.x;
}
"""
    tu = parse(tmp_path, src)
    y = only(tu, "v[threadIdx.x].y")
    assert (y.kind, y.width) == ("store", 4)
    assert evaluate(y.offset, tid(3)) == 3 * 8 + 4
    ww = only(tu, "w[threadIdx.x].w")
    assert (ww.kind, ww.width) == ("load", 4)
    assert evaluate(ww.offset, tid(3)) == 3 * 16 + 12
    whole = only(tu, "w[threadIdx.x ^ 1]")
    assert (whole.kind, whole.width) == ("load", 16)
    assert evaluate(whole.offset, tid(2)) == 3 * 16


def test_shared_scalar_accesses(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(int* out) {
  __shared__ int count;
  count = 0;
  atomicAdd(&count, 1);
  out[0] = count;
}
"""
    tu = parse(tmp_path, src)
    assert tu.array("k::count").dims == ()
    kinds = [a.kind for a in tu.accesses]
    assert kinds == ["store", "atomic", "load"]
    assert all(evaluate(a.offset, tid(7)) == 0 for a in tu.accesses)


# --- expressions ----------------------------------------------------------------------------


def test_straight_line_locals_are_substituted(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(float* out) {
  __shared__ float s[128];
  int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / 32;
  int row = lane * 2 + warp;
  unsigned col = row % 7;
  out[0] = s[row] + s[col];
}
"""
    tu = parse(tmp_path, src)
    row = only(tu, "s[row]")
    col = only(tu, "s[col]")
    assert opaques(row.offset) == [] and opaques(col.offset) == []
    for x in [0, 1, 31, 32, 33, 95]:
        r = (x & 31) * 2 + x // 32
        assert evaluate(row.offset, tid(x)) == r * 4
        assert evaluate(col.offset, tid(x)) == (r % 7) * 4
    syms = {n for n in walk(row.offset) if isinstance(n, Sym)}
    assert syms == {Sym("threadIdx.x", UINT, lane_dependent=True)}


def test_reassigned_locals_loops_and_loads_are_opaque(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(const int* idx, int n) {
  __shared__ int s[256];
  int i = threadIdx.x;
  i += 32;
  s[i] = 0;
  for (int j = 0; j < n; ++j) s[j] = 1;
  int a = idx[threadIdx.x];
  s[a] = 2;
  int b = 3;
  int* pb = &b;
  s[b + *pb] = 4;
  int c = n;
  for (int t = 0; t < 4; ++t) { c = c * 2; }
  s[c] = 5;
}
"""
    tu = parse(tmp_path, src)

    def the_opaque(text: str) -> Opaque:
        found = opaques(only(tu, text).offset)
        assert found, text
        return found[0]

    # Reassignment on the straight-line path is followed.
    i = only(tu, "s[i]")
    assert opaques(i.offset) == []
    assert evaluate(i.offset, tid(3)) == (3 + 32) * 4
    # A uniform counter is a symbol with its sequence.
    j = only(tu, "s[j]").offset
    (jsym,) = {n for n in walk(j) if isinstance(n, Sym) and n.name == "j"}
    assert jsym.name == "j" and not jsym.lane_dependent
    assert jsym.induction == ir.Induction(
        Const(0, ir.INT), "+", Const(1, ir.INT), "<", Sym("n", ir.INT)
    )
    a = the_opaque("s[a]")
    assert a.reason == "value loaded from 'idx'"
    assert any(isinstance(n, Sym) and n.lane_dependent for n in walk(a))
    assert the_opaque("s[b + *pb]").reason == "'b' has its address taken"
    c = the_opaque("s[c]")
    assert c.reason == "'c' is assigned in a loop"
    assert Sym("n", ir.INT) in walk(c)


def test_constants_symbols_and_casts(tmp_path: pathlib.Path) -> None:
    src = """\
#define PAD 1
constexpr int kWidth = 16;
enum { kRows = 4 };
__global__ void k(float* out, int n, unsigned m) {
  __shared__ float s[4096];
  const int local = 3;
  out[0] = s[threadIdx.x * (kWidth + PAD) + kRows + local + sizeof(double) + warpSize];
  out[1] = s[blockIdx.x + blockDim.y + (unsigned)n + m];
  out[2] = s[min(threadIdx.x, 7u) + max(n, 2)];
  out[3] = s[threadIdx.x < 16 ? threadIdx.x : 'A'];
  out[4] = s[-n + ~m + !n];
  out[5] = s[(threadIdx.x >> 2) << 1 | 1];
}
"""
    tu = parse(tmp_path, src)
    first = only(tu, "s[threadIdx.x * (kWidth + PAD) + kRows + local + sizeof(double) + warpSize]")
    for x in [0, 1, 9]:
        assert evaluate(first.offset, tid(x)) == (x * 17 + 4 + 3 + 8 + 32) * 4
    second = only(tu, "s[blockIdx.x + blockDim.y + (unsigned)n + m]")
    syms = {n for n in walk(second.offset) if isinstance(n, Sym)}
    assert syms == {
        Sym("blockIdx.x", UINT),
        Sym("blockDim.y", UINT),
        Sym("n", ir.INT),
        Sym("m", UINT),
    }
    assert any(isinstance(n, Cast) and n.type == UINT for n in walk(second.offset))
    env = tid(0, blockIdx_x=2, blockDim_y=8, n=5, m=1)
    assert evaluate(second.offset, env) == (2 + 8 + 5 + 1) * 4
    third = only(tu, "s[min(threadIdx.x, 7u) + max(n, 2)]")
    assert {n.op for n in walk(third.offset) if isinstance(n, Binary)} >= {"min", "max"}
    assert evaluate(third.offset, tid(12, n=1)) == (7 + 2) * 4
    fourth = only(tu, "s[threadIdx.x < 16 ? threadIdx.x : 'A']")
    assert any(isinstance(n, Select) for n in walk(fourth.offset))
    assert evaluate(fourth.offset, tid(3)) == 12
    assert evaluate(fourth.offset, tid(20)) == 65 * 4
    fifth = only(tu, "s[-n + ~m + !n]")
    assert evaluate(fifth.offset, tid(0, n=0, m=0)) == _wrap(0xFFFFFFFF + 1, UINT) * 4
    sixth = only(tu, "s[(threadIdx.x >> 2) << 1 | 1]")
    assert evaluate(sixth.offset, tid(13)) == (((13 >> 2) << 1) | 1) * 4


def test_device_function_accesses_and_parameters(tmp_path: pathlib.Path) -> None:
    src = """\
__device__ float pick(int lane) {
  __shared__ float hs[32];
  return hs[lane] + hs[threadIdx.x];
}
__device__ float alone(int lane) {
  __shared__ float as[32];
  return as[lane];
}
__global__ void k(float* out) { out[0] = pick(threadIdx.x); out[1] = pick(2 * threadIdx.x); }
"""
    tu = parse(tmp_path, src)
    assert [k.name for k in tu.kernels] == ["k"]
    # Called from a kernel: analyzed at each call site with the caller's argument.
    lanes = accesses_at(tu, "hs[lane]")
    assert [a.kernel for a in lanes] == ["k", "k"] and {a.array for a in lanes} == {"pick::hs"}
    assert [evaluate(a.offset, tid(3)) for a in lanes] == [12, 24]
    assert lanes[0].region != lanes[1].region
    assert [evaluate(a.offset, tid(2)) for a in accesses_at(tu, "hs[threadIdx.x]")] == [8, 8]
    # Not called from any kernel: analyzed alone, the parameter unknown.
    lone = only(tu, "as[lane]")
    assert lone.kernel == "alone"
    (op,) = opaques(lone.offset)
    assert "parameter 'lane'" in op.reason
    # The caller's value is unknown, so the access must not look uniform.
    assert any(isinstance(n, Sym) and n.lane_dependent for n in op.inputs)


def test_guards(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(const int* p, int n) {
  __shared__ int s[64];
  if (threadIdx.x < 16) {
    s[threadIdx.x] = 1;
    if (n > 2) s[threadIdx.x + 1] = 2;
  } else {
    s[threadIdx.x + 2] = 3;
  }
  if (p[0] == 3) s[threadIdx.x + 3] = 4;
  for (int i = 0; i < n; ++i) s[threadIdx.x + 4] = 5;
}
"""
    tu = parse(tmp_path, src)
    g1 = only(tu, "s[threadIdx.x]").guard
    g2 = only(tu, "s[threadIdx.x + 1]").guard
    g3 = only(tu, "s[threadIdx.x + 2]").guard
    assert g1 is not None and g2 is not None and g3 is not None
    for x in [0, 15, 16, 31]:
        assert bool(evaluate(g1, tid(x))) == (x < 16)
        assert bool(evaluate(g3, tid(x))) == (x >= 16)
        for n in (0, 3):
            assert bool(evaluate(g2, tid(x, n=n))) == (x < 16 and n > 2)
    g4 = only(tu, "s[threadIdx.x + 3]").guard
    assert g4 is not None and opaques(g4)
    assert only(tu, "s[threadIdx.x + 4]").guard is None  # loop conditions are ignored


# --- launches and kernels -------------------------------------------------------------------


def test_launch_block_shapes(tmp_path: pathlib.Path) -> None:
    src = """\
#define BS 128
constexpr int kWarps = 8;
const dim3 kBlock(16, 16);
__global__ void k(int x) {}
void host(int m) {
  dim3 b(32, 4);
  dim3 changed(32, 8);
  changed.x = m;
  k<<<1, BS>>>(0);
  k<<<1, kWarps * 32>>>(0);
  k<<<dim3(4, 4), dim3(8, 8, 2)>>>(0);
  k<<<1, b>>>(0);
  k<<<1, kBlock>>>(0);
  k<<<1, m>>>(0);
  k<<<1, changed>>>(0);
  k<<<1, 64, 0, 0>>>(0);
}
"""
    tu = parse(tmp_path, src)
    blocks = [(la.span.line, la.block) for la in tu.launches]
    assert blocks == [
        (9, (128, 1, 1)),
        (10, (256, 1, 1)),
        (11, (8, 8, 2)),
        (12, (32, 4, 1)),
        (13, (16, 16, 1)),
        (14, None),
        (15, None),
        (16, (64, 1, 1)),
    ]
    assert all(la.kernel == "k" and la.instantiation is None for la in tu.launches)
    assert tu.launches[0].span.column == column_of(src, 9, "k<<<")


def test_kernel_records(tmp_path: pathlib.Path) -> None:
    src = """\
#define MAXT 256
// cudalint: block-dim(32, 8)
__global__ void __launch_bounds__(MAXT) a() {}
__global__ void b() {}
// cudalint: block-dim(64)
template <int S, typename T>
__global__ void c(T* p) {}
"""
    tu = parse(tmp_path, src)
    by = {k.name: k for k in tu.kernels}
    assert by["a"].max_threads == 256 and by["a"].annotated_block == (32, 8, 1)
    assert by["b"].max_threads is None and by["b"].annotated_block is None
    assert by["c"].annotated_block == (64, 1, 1) and by["c"].template_params == ("S", "T")
    assert (by["b"].span.line, by["b"].span.column) == (4, column_of(src, 4, "b()"))


# --- templates ------------------------------------------------------------------------------


TEMPLATES = """\
#define TILE 16
template <int S, typename T>
__global__ void tk(T* out) {
  __shared__ T buf[S][S + 1];
  __shared__ float fixed[64];
  buf[threadIdx.y][threadIdx.x] = out[0];
  fixed[threadIdx.x * S] = 1.0f;
}
template __global__ void tk<TILE, double>(double*);
template <int S>
__global__ void sym(float* out) {
  __shared__ float t[S][S + 1];
  __shared__ float u[64];
  out[0] = t[threadIdx.y][threadIdx.x] + u[threadIdx.x * S];
}
template <typename T>
__global__ void typed(T* out) {
  __shared__ T v[32];
  v[threadIdx.x] = out[0];
}
void host() {
  tk<32, float><<<1, dim3(32, 32)>>>((float*)0);
  tk<32, float><<<1, dim3(32, 8)>>>((float*)0);
}
"""


def test_template_instantiations_from_launches_and_explicit_text(tmp_path: pathlib.Path) -> None:
    tu = parse(tmp_path, TEMPLATES)
    stores = [a for a in tu.accesses if a.text == "buf[threadIdx.y][threadIdx.x]"]
    assert sorted(a.instantiation or "" for a in stores) == ["S=16, T=double", "S=32, T=float"]
    by_inst = {a.instantiation: a for a in stores}
    f, d = by_inst["S=32, T=float"], by_inst["S=16, T=double"]
    assert (f.width, d.width) == (4, 8)
    assert evaluate(f.offset, tid(3, 2)) == (2 * 33 + 3) * 4
    assert evaluate(d.offset, tid(3, 2)) == (2 * 17 + 3) * 8
    assert tu.array(f.array).dims == (32, 33) and tu.array(f.array).element_bytes == 4
    assert tu.array(d.array).dims == (16, 17) and tu.array(d.array).element_type == "double"
    assert tu.array(f.array).dim_texts == ("S", "S + 1")
    # A non-dependent array keeps one record; its accesses still follow each S.
    fixed = [a for a in tu.accesses if a.text == "fixed[threadIdx.x * S]"]
    assert {a.array for a in fixed} == {"tk::fixed"}
    assert sorted(evaluate(a.offset, tid(1)) for a in fixed) == [16 * 4, 32 * 4]
    launches = [la.instantiation for la in tu.launches]
    assert launches == ["S=32, T=float", "S=32, T=float"]


def test_template_without_instantiation_stays_symbolic(tmp_path: pathlib.Path) -> None:
    tu = parse(tmp_path, TEMPLATES)
    t = only(tu, "t[threadIdx.y][threadIdx.x]")
    assert t.instantiation is None and t.unknown_reason is None
    assert Sym("S", ir.INT) in walk(t.offset)
    assert evaluate(t.offset, tid(3, 2, S=8)) == (2 * 9 + 3) * 4
    u = only(tu, "u[threadIdx.x * S]")
    assert evaluate(u.offset, tid(3, S=4)) == 48
    v = only(tu, "v[threadIdx.x]")
    assert v.unknown_reason == "element type depends on template parameter T"


# --- notes, errors, robustness ------------------------------------------------------------


def test_missing_include_is_a_note_and_later_code_is_seen(tmp_path: pathlib.Path) -> None:
    src = """\
#include <cuda_runtime.h>
#include "not_there.h"
template <int S>
__global__ void k(float* o) { __shared__ float t[S]; t[threadIdx.x] = 0; }
void host() { k<4><<<1, 32>>>(0); }
"""
    tu = parse(tmp_path, src)
    missing = [n for n in tu.notes if "not_there.h" in n.message]
    assert [n.severity for n in missing] == ["note"]
    assert missing[0].span is not None and missing[0].span.line == 2
    assert not [n for n in tu.notes if n.severity == "error"]
    assert [la.instantiation for la in tu.launches] == ["S=4"]
    assert [a.instantiation for a in tu.accesses] == ["S=4"]


def test_clang_errors_become_error_notes(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(float* o) {
  __shared__ float t[32];
  t[threadIdx.x] = undeclared_thing;
  t[threadIdx.x + 1] = 0;
}
"""
    tu = parse(tmp_path, src)
    errors = [n for n in tu.notes if n.severity == "error"]
    assert errors and errors[0].span is not None and errors[0].span.line == 3
    assert "undeclared_thing" in errors[0].message
    assert only(tu, "t[threadIdx.x + 1]").kind == "store"


def test_cuda_arch_follows_the_option(tmp_path: pathlib.Path) -> None:
    src = """\
#if __CUDA_ARCH__ >= 800
#define N 64
#else
#define N 32
#endif
__global__ void k() { __shared__ float t[N]; t[threadIdx.x] = 0; }
"""
    assert parse(tmp_path, src, arch="sm_90").array("k::t").dims == (64,)
    assert parse(tmp_path, src, arch="sm_70").array("k::t").dims == (32,)


def test_include_dirs_and_defines_pass_through(tmp_path: pathlib.Path) -> None:
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "tile.h").write_text(
        "#define TILE 8\n__global__ void in_header() { __shared__ int h[4]; h[0] = 1; }\n"
    )
    src = '#include "tile.h"\n__global__ void k() { __shared__ int t[TILE][EXTRA]; t[0][0] = 1; }\n'
    tu = parse(tmp_path, src, include_dirs=(str(inc),), defines=("EXTRA=3",))
    assert tu.array("k::t").dims == (8, 3)
    # A project header's kernel is analysed from the including file, at the header's lines.
    assert [k.name for k in tu.kernels] == ["in_header", "k"]
    assert {a.kernel for a in tu.accesses} == {"in_header", "k"}
    (h,) = [a for a in tu.accesses if a.kernel == "in_header"]
    assert os.path.samefile(h.span.file, inc / "tile.h")
    assert (h.span.line, h.span.column, h.text) == (2, 52, "h[0]")


def test_non_utf8_source(tmp_path: pathlib.Path) -> None:
    src = (
        b"// caf\xe9 \xff\xfe\n"
        b'#define MSG "\xe9t\xe9"\n'
        b"__global__ void k(float* o) {\n"
        b"  __shared__ float t[32]; /* \xff */\n"
        b"  t[threadIdx.x] = o[0]; /* \xe9 */ o[1] = t[0];\n"
        b"}\n"
    )
    tu = parse(tmp_path, src)
    assert {a.text for a in tu.accesses} == {"t[threadIdx.x]", "t[0]"}


def test_contents_are_parsed_under_the_given_name(tmp_path: pathlib.Path) -> None:
    path = str(tmp_path / "stdin.cu")  # does not exist
    src = b"__global__ void k() { __shared__ int t[4]; t[threadIdx.x] = 0; }\n"
    tu = parse_file(path, Options(), contents=src)
    assert tu.file == path and tu.accesses[0].span.file == path


def test_unreadable_paths_raise_frontend_error(tmp_path: pathlib.Path) -> None:
    with pytest.raises(FrontendError, match="cannot read"):
        parse_file(str(tmp_path / "missing.cu"), Options())
    with pytest.raises(FrontendError, match="is a directory"):
        parse_file(str(tmp_path), Options())
    if os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked.cu"
        locked.write_text("__global__ void k() {}\n")
        locked.chmod(0)
        with pytest.raises(FrontendError, match="cannot read"):
            parse_file(str(locked), Options())


def test_ir_holds_no_clang_objects(tmp_path: pathlib.Path) -> None:
    tu = parse(tmp_path, TEMPLATES)
    allowed = (str, int, bool, type(None), ir.OpaqueKind)

    def check(v: object) -> None:
        if isinstance(v, tuple):
            for item in v:
                check(item)
        elif dataclasses.is_dataclass(v):
            assert type(v).__module__ == "cudalint.ir", type(v)
            for f in dataclasses.fields(v):
                check(getattr(v, f.name))
        else:
            assert isinstance(v, allowed), type(v)

    check(tu)


def test_only_the_frontend_imports_clang() -> None:
    root = pathlib.Path(__file__).resolve().parent.parent / "cudalint"
    offenders = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "frontend" not in p.parts
        and re.search(r"^\s*(from|import)\s+clang\b", p.read_text(), re.M)
    ]
    assert offenders == []
