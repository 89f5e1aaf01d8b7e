"""Idioms of large kernel libraries (ggml's CUDA backend, issue 13): calls of functions
that cannot reach shared memory or a barrier are read, not run (cudalint/frontend/
inert.py), which helpers count as such and that skipping them changes no record; clang's
errors in a header reached through ``../`` are placed at the header's own path."""

from __future__ import annotations

import dataclasses

from cudalint.frontend import execute as ex
from cudalint.frontend import parse_file
from cudalint.options import Options

_SRC = b"""
enum kind { KA = 1, KB = 2 };
struct conf { int n; constexpr __host__ __device__ conf(int n) : n(n) {} };
__device__ int glob_scalar;
__shared__ int shared_scalar;
__shared__ float file_tile[32];
constexpr int K_CONST = 4;

static constexpr __host__ __device__ conf table(kind t, int j) {
    if (t == KA && j == 8) { return conf(32); }
    if (t == KB && j == 16) { return conf(64 * K_CONST); }
    return conf(j);
}
static __device__ int pure_math(int a, float b) { int x = a * 2; return x + (int)fabsf(b); }
static __device__ float via_pointer(const float *p, int i) { return p[i]; }
static __device__ void with_barrier(int a) { if (a) __syncthreads(); }
static __device__ int own_array(int a) { __shared__ int t[32]; t[a] = a; return t[0]; }
static __device__ int reads_file_array(int a) { return (int)file_tile[a]; }
static __device__ int reads_global(int a) { return a + glob_scalar; }
static __device__ int reads_shared_scalar(int a) { return a + shared_scalar; }
static __device__ int calls_pointer_helper(int a) {
    float z[1] = {0};
    return (int)via_pointer(z, a);
}
static __device__ int calls_pure(int a) { return pure_math(a, 1.0f) + table(KA, a).n; }
static __device__ int with_asm(int a) { asm volatile("membar.cta;"); return a; }

__global__ void k(kind t, int j, float *out) {
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    conf c = table(t, j);
    int v = pure_math(j, 2.0f) + calls_pure(j);
    with_barrier(j);
    v += own_array(threadIdx.x) + reads_file_array(threadIdx.x) + reads_global(j);
    v += reads_shared_scalar(j);
    v += calls_pointer_helper(j) + with_asm(j);
    out[threadIdx.x] = via_pointer(s, threadIdx.x * 2) + c.n + v;
}
void run(float *out) { k<<<1, 32>>>(KA, 8, out); }
"""

_INERT = {"table", "pure_math", "calls_pure", "reads_global"}
_RUN = {
    "via_pointer",
    "with_barrier",
    "own_array",
    "reads_file_array",
    "reads_shared_scalar",
    "calls_pointer_helper",
    "with_asm",
}


def _parse(tmp_path, monkeypatch, skip: bool):  # type: ignore[no-untyped-def]
    inlined: list[str] = []
    skipped: list[str] = []
    real_inline, real_skip = ex.Executor.inline, ex.Executor.skip_inert

    def inline(self, c, target, args):  # type: ignore[no-untyped-def]
        inlined.append(target.name)
        return real_inline(self, c, target, args)

    def skip_inert(self, c, target, args):  # type: ignore[no-untyped-def]
        skipped.append(target.name)
        return real_skip(self, c, target, args)

    monkeypatch.setattr(ex.Executor, "inline", inline)
    monkeypatch.setattr(ex.Executor, "skip_inert", skip_inert)
    if not skip:
        monkeypatch.setattr(ex, "shared_inert", lambda program, fn: False)
    path = tmp_path / "k.cu"
    path.write_bytes(_SRC)
    unit = parse_file(str(path), Options())
    return unit, set(inlined), set(skipped)


def test_inert_helpers_are_read_not_run(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _, inlined, skipped = _parse(tmp_path, monkeypatch, skip=True)
    assert skipped >= _INERT
    assert not (_INERT & inlined)
    assert inlined >= _RUN
    assert not (_RUN & skipped)


def test_skipping_changes_no_record(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    fast, _, _ = _parse(tmp_path, monkeypatch, skip=True)
    with monkeypatch.context() as m:
        slow, inlined, skipped = _parse(tmp_path, m, skip=False)
    assert not skipped and inlined >= _INERT
    # the same records; region numbers differ (a run callee opens regions of its own)
    # but split the accesses the same way
    assert [dataclasses.replace(a, region=0) for a in fast.accesses] == [
        dataclasses.replace(a, region=0) for a in slow.accesses
    ]
    assert _partition(fast.accesses) == _partition(slow.accesses)
    assert fast.notes == slow.notes
    texts = {a.text for a in fast.accesses}
    # the kernel's own store and the shared accesses of the helpers that are run
    assert texts == {"s[threadIdx.x]", "p[i]", "t[a]", "t[0]", "file_tile[a]", "shared_scalar"}, (
        texts
    )


def _partition(accesses):  # type: ignore[no-untyped-def]
    by: dict[int, list[int]] = {}
    for i, a in enumerate(accesses):
        by.setdefault(a.region, []).append(i)
    return sorted(by.values())


def test_clang_error_in_header_reached_through_dotdot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A clang error in ``../h.cuh`` is placed at the header's own path, as the walker
    places the header's accesses (not ``sub/../h.cuh``): one run reports it once."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "h.cuh").write_text(
        "__device__ void put(float *s) { s[threadIdx.x * 2] = 1.0f; }\n"
        "int broken = undeclared_name;\n"
    )
    main = tmp_path / "sub" / "a.cu"
    main.write_text(
        '#include "../h.cuh"\n'
        "__global__ void k() { __shared__ float s[64]; put(s); }\n"
        "void run() { k<<<1, 32>>>(); }\n"
    )
    unit = parse_file(str(main), Options())
    header = str(tmp_path / "h.cuh")
    assert {a.span.file for a in unit.accesses} == {header}
    errors = [n for n in unit.notes if n.span is not None and "undeclared_name" in n.message]
    assert [n.span.file for n in errors] == [header]  # type: ignore[union-attr]
