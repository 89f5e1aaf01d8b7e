"""Frontend: values through control flow, loops, guards, regions and the new IR fields."""

from __future__ import annotations

import pathlib

from test_frontend import accesses_at, evaluate, only, opaques, parse, tid, walk

from cudalint import ir
from cudalint.ir import LONG, Const, Induction, Opaque, Sym

TX = Sym("threadIdx.x", ir.UINT, lane_dependent=True)


def syms(e: ir.Expr, name: str) -> list[Sym]:
    return [n for n in walk(e) if isinstance(n, Sym) and n.name == name]


def test_reassignment_and_compound_assignment_in_order(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k() {
  __shared__ int s[4096];
  int i = threadIdx.x;
  s[i] = 0;
  i = 2 * i;
  s[i] = 1;
  i += 3;
  i <<= 1;
  s[i] = 2;
  unsigned u = threadIdx.x;
  u -= 1;
  s[u & 1023] = 3;
  int j = i++;
  s[j + i] = 4;
}
"""
    tu = parse(tmp_path, src)
    first, second, third = accesses_at(tu, "s[i]")
    for x in (0, 1, 7, 31):
        assert evaluate(first.offset, tid(x)) == 4 * x
        assert evaluate(second.offset, tid(x)) == 4 * 2 * x
        assert evaluate(third.offset, tid(x)) == 4 * ((2 * x + 3) << 1)
        assert evaluate(only(tu, "s[u & 1023]").offset, tid(x)) == 4 * ((x - 1) % 2**32 & 1023)
        i = (2 * x + 3) << 1
        assert evaluate(only(tu, "s[j + i]").offset, tid(x)) == 4 * (i + i + 1)
    assert [a.order for a in tu.accesses] == sorted(a.order for a in tu.accesses)


def test_values_from_one_branch_depend_on_control_flow(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(const int* g) {
  __shared__ int s[256];
  int i = threadIdx.x;
  if (g[0] > 0) i = threadIdx.x + 1;
  s[i] = 0;
  int j = threadIdx.x;
  if (threadIdx.x < 16) { j = 2 * threadIdx.x; s[j] = 1; }
  s[j] = 2;
  int same = 5;
  if (g[1]) same = 5;
  s[same] = 3;
  int r = 3;
  if (threadIdx.x > 40) { r = 7; return; }
  s[r] = 4;
}
"""
    tu = parse(tmp_path, src)
    # g[0] is one address for every lane: each warp takes one branch, so i is one of the
    # two values (a select the model costs per outcome), not a value of control flow
    off = only(tu, "s[i]").offset
    sel = [n for n in walk(off) if isinstance(n, ir.Select)]
    assert len(sel) == 1 and opaques(sel[0].cond)[0].reason == "value loaded from 'g'"
    assert evaluate(sel[0].then, tid(3)) == 4 and evaluate(sel[0].other, tid(3)) == 3
    inner, after = accesses_at(tu, "s[j]")
    assert opaques(inner.offset) == [] and evaluate(inner.offset, tid(3)) == 24
    assert opaques(after.offset)[0].reason == "'j' depends on control flow"
    assert evaluate(only(tu, "s[same]").offset, tid(0)) == 20  # equal in both branches
    # A branch that returns drops out: r keeps 3 afterwards.
    assert evaluate(only(tu, "s[r]").offset, tid(0)) == 12


def test_early_return_and_continue_negate_into_later_guards(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(int n) {
  __shared__ int s[256];
  s[threadIdx.x] = 0;
  if (threadIdx.x >= n) return;
  s[threadIdx.x + 1] = 1;
  if (threadIdx.x % 2 == 1) {
    if (n > 4) return;
  }
  s[threadIdx.x + 2] = 2;
  for (int r = 0; r < 4; ++r) {
    if (threadIdx.x < 8) continue;
    s[threadIdx.x + 3] = 3;
  }
  s[threadIdx.x + 4] = 4;
}
"""
    tu = parse(tmp_path, src)
    assert only(tu, "s[threadIdx.x]").guard is None
    g1 = only(tu, "s[threadIdx.x + 1]").guard
    g2 = only(tu, "s[threadIdx.x + 2]").guard
    g3 = only(tu, "s[threadIdx.x + 3]").guard
    g4 = only(tu, "s[threadIdx.x + 4]").guard
    assert g1 is not None and g2 is not None and g3 is not None and g4 is not None
    for x in range(64):
        for n in (0, 3, 5, 40):
            assert bool(evaluate(g1, tid(x, n=n))) == (x < n)
            assert bool(evaluate(g2, tid(x, n=n))) == (x < n and not (x % 2 == 1 and n > 4))
            assert bool(evaluate(g3, tid(x, n=n, r=0))) == (
                x < n and not (x % 2 == 1 and n > 4) and x >= 8
            )
            assert bool(evaluate(g4, tid(x, n=n))) == bool(evaluate(g2, tid(x, n=n)))


def test_loop_counters_lane_dependent_start_and_uniform_inductions(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(int n) {
  __shared__ float s[4096];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = 0;
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
    __syncthreads();
  }
  for (int st = 1; st < 32; st *= 2) s[2 * st * threadIdx.x] = 1;
  int w;
  for (w = 0; 64 > w; w = w + 4) s[w] = 2;
  for (int q = 0; q < n; q++) { s[q] = 3; q += 1; }
}
"""
    tu = parse(tmp_path, src)
    block = only(tu, "s[i]")
    (k,) = {n for n in walk(block.offset) if isinstance(n, Sym) and n.name.startswith("k@L3")}
    assert not k.lane_dependent and k.induction is None
    env = tid(5, k_L3=2, blockDim_x=64, n=1000)
    env[k.name] = 2  # k@L3:i, the iteration count of the loop of i (line 3)
    assert evaluate(block.offset, env) == 4 * (5 + 2 * 64)
    assert block.guard is not None and evaluate(block.guard, {**env, "n": 100}) == 0
    (st,) = set(syms(only(tu, "s[threadIdx.x + st]").offset, "st"))
    assert st.induction is not None
    assert (st.induction.op, st.induction.step, st.induction.cmp) == (">>", Const(1, ir.INT), ">")
    assert evaluate(st.induction.start, {"blockDim.x": 256}) == 128
    assert st.induction.bound == Const(0, ir.UINT)
    (st2,) = set(syms(only(tu, "s[2 * st * threadIdx.x]").offset, "st"))
    assert st2.induction == Induction(
        Const(1, ir.INT), "*", Const(2, ir.INT), "<", Const(32, ir.INT)
    )
    (w,) = set(syms(only(tu, "s[w]").offset, "w"))
    assert w.induction == Induction(
        Const(0, ir.INT), "+", Const(4, ir.INT), "<", Const(64, ir.INT)
    )  # `64 > w` flipped
    # also assigned in the body: not a counter, but carried with a closed form, q = 2*it
    sq = only(tu, "s[q]").offset
    assert opaques(sq) == []
    (kq,) = {n for n in walk(sq) if isinstance(n, Sym) and n.name.startswith("k@L11")}
    assert kq.induction is None and evaluate(sq, {kq.name: 3}) == 4 * 6


def test_regions_split_at_barriers_branches_and_loops(tmp_path: pathlib.Path) -> None:
    src = """\
__device__ int unknown_fn(int);
__global__ void k(float* out) {
  __shared__ float s[256];
  float a = s[2 * threadIdx.x];
  float b = s[2 * threadIdx.x + 1];
  float c = sqrtf(a) + __shfl_sync(0xffffffff, b, 1);
  float d = s[threadIdx.x + 64];
  __syncthreads();
  float e = s[threadIdx.x + 96];
  if (threadIdx.x < 4) { out[0] = s[threadIdx.x + 128]; }
  float f = s[threadIdx.x + 160];
  for (int i = 0; i < 4; ++i) out[i] = s[4 * threadIdx.x + i];
  float g = s[threadIdx.x + 192] + unknown_fn(1);
  float h = s[threadIdx.x + 224];
  out[1] = a + b + c + d + e + f + g + h;
}
"""
    tu = parse(tmp_path, src)
    r = {a.text: a.region for a in tu.accesses}
    assert r["s[2 * threadIdx.x]"] == r["s[2 * threadIdx.x + 1]"] == r["s[threadIdx.x + 64]"]
    assert r["s[threadIdx.x + 96]"] != r["s[threadIdx.x + 64]"]  # __syncthreads
    assert r["s[threadIdx.x + 128]"] != r["s[threadIdx.x + 96]"]  # then-branch
    assert r["s[threadIdx.x + 160]"] not in (r["s[threadIdx.x + 128]"], r["s[threadIdx.x + 96]"])
    loop = r["s[4 * threadIdx.x + i]"]
    assert loop not in (r["s[threadIdx.x + 160]"], r["s[threadIdx.x + 192]"])
    assert r["s[threadIdx.x + 192]"] != r["s[threadIdx.x + 224]"]  # an unknown call
    assert all(a.region > 0 for a in tu.accesses)
    orders = [a.order for a in tu.accesses]
    assert orders == list(range(1, len(orders) + 1))


def test_indices_element_offset_volatile_alignment(tmp_path: pathlib.Path) -> None:
    src = """\
struct P { float x, y, z; };
__global__ void k() {
  __shared__ __align__(16) float t[8][33];
  alignas(32) __shared__ char c[64];
  __shared__ volatile int v[32];
  __shared__ P p[32];
  t[threadIdx.y][threadIdx.x] = 0;
  c[threadIdx.x] = 1;
  v[threadIdx.x] = 2;
  p[threadIdx.x].z = 3;
  float* q = &t[1][0];
  q[threadIdx.x] = 4;
}
"""
    tu = parse(tmp_path, src)
    assert (tu.array("k::t").alignment, tu.array("k::c").alignment) == (16, 32)
    assert (tu.array("k::v").alignment, tu.array("k::p").alignment) == (4, 4)
    tt = only(tu, "t[threadIdx.y][threadIdx.x]")
    assert tt.indices == (Sym("threadIdx.y", ir.UINT, lane_dependent=True), TX)
    assert tt.element_offset == 0 and not tt.volatile
    assert only(tu, "v[threadIdx.x]").volatile
    pz = only(tu, "p[threadIdx.x].z")
    assert pz.indices == (TX,) and pz.element_offset == 8 and pz.width == 4
    assert evaluate(pz.offset, tid(2)) == 2 * 12 + 8
    qq = only(tu, "q[threadIdx.x]")
    assert qq.indices == () and qq.array == "k::t"
    assert evaluate(qq.offset, tid(2)) == (33 + 2) * 4


def test_struct_and_vector_copies_split_into_hardware_accesses(tmp_path: pathlib.Path) -> None:
    src = """\
struct P3 { float x, y, z; };
struct __align__(8) P2 { float x, y; };
__global__ void k(float* out) {
  __shared__ P3 a[32];
  __shared__ P2 b[32];
  __shared__ float3 f3[32];
  __shared__ float4 f4[32];
  P3 v = a[threadIdx.x];
  a[threadIdx.x ^ 1] = v;
  P2 w = b[threadIdx.x];
  float3 x = f3[threadIdx.x];
  float4 y = f4[threadIdx.x];
  out[0] = v.x + w.y + x.z + y.w;
}
"""
    tu = parse(tmp_path, src)
    loads = accesses_at(tu, "a[threadIdx.x]")
    assert [(a.kind, a.width, a.element_offset) for a in loads] == [
        ("load", 4, 0),
        ("load", 4, 4),
        ("load", 4, 8),
    ]
    assert len({a.region for a in loads}) == 1
    assert [a.order for a in loads] == [loads[0].order + i for i in range(3)]
    stores = accesses_at(tu, "a[threadIdx.x ^ 1]")
    assert [(a.kind, a.element_offset) for a in stores] == [
        ("store", 0),
        ("store", 4),
        ("store", 8),
    ]
    assert evaluate(stores[2].offset, tid(2)) == 3 * 12 + 8
    assert [(a.width, a.element_offset) for a in accesses_at(tu, "b[threadIdx.x]")] == [(8, 0)]
    assert [a.width for a in accesses_at(tu, "f3[threadIdx.x]")] == [4, 4, 4]
    assert [a.width for a in accesses_at(tu, "f4[threadIdx.x]")] == [16]


def test_pointers_and_vector_casts(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(float* out) {
  __shared__ float s[1024];
  float* row = s + 64 * threadIdx.y;
  float* p = &row[threadIdx.x];
  *p = 1;
  p[32] = 2;
  p += 1;
  *p = 3;
  float4 v = reinterpret_cast<float4*>(&s[0])[threadIdx.x];
  float2 w = *reinterpret_cast<const float2*>(&s[2 * threadIdx.x]);
  ((float2*)s)[threadIdx.x] = w;
  out[0] = v.x;
}
"""
    tu = parse(tmp_path, src)
    first, third = accesses_at(tu, "*p")
    assert evaluate(first.offset, tid(3, 2)) == (64 * 2 + 3) * 4
    assert evaluate(third.offset, tid(3, 2)) == (64 * 2 + 4) * 4
    assert evaluate(only(tu, "p[32]").offset, tid(3, 2)) == (64 * 2 + 35) * 4
    v = only(tu, "reinterpret_cast<float4*>(&s[0])[threadIdx.x]")
    assert (v.kind, v.width, v.array) == ("load", 16, "k::s")
    assert evaluate(v.offset, tid(5)) == 80
    w = only(tu, "*reinterpret_cast<const float2*>(&s[2 * threadIdx.x])")
    assert (w.width, evaluate(w.offset, tid(5))) == (8, 40)
    st = only(tu, "((float2*)s)[threadIdx.x]")
    assert (st.kind, st.width, evaluate(st.offset, tid(5))) == ("store", 8, 40)


def test_dynamic_shared_memory_carved_into_arrays(tmp_path: pathlib.Path) -> None:
    src = """\
extern __shared__ __align__(16) char smem[];
__global__ void k(int n) {
  float* a = (float*)smem;
  int* b = (int*)&a[n];
  double* c = (double*)(b + 64);
  float* lane = a + threadIdx.x;
  a[threadIdx.x] = 1;
  b[threadIdx.x] = 2;
  c[threadIdx.x] = 3;
  *lane = 4;
}
"""
    tu = parse(tmp_path, src)
    window = tu.array("::smem")
    assert (window.dims, window.alignment, window.base_offset) == ((0,), 16, Const(0, LONG))
    a, b, c = tu.array("k::a"), tu.array("k::b"), tu.array("k::c")
    assert (a.element_bytes, b.element_bytes, c.element_bytes) == (4, 4, 8)
    assert a.dims == b.dims == c.dims == (0,)
    assert a.base_offset == Const(0, LONG)
    assert b.base_offset is not None and evaluate(b.base_offset, {"n": 10}) == 40
    assert c.base_offset is not None and evaluate(c.base_offset, {"n": 10}) == 40 + 256
    cc = only(tu, "c[threadIdx.x]")
    assert (cc.array, cc.width, cc.indices) == ("k::c", 8, (TX,))
    assert evaluate(cc.offset, tid(3)) == 24
    ln = only(tu, "*lane")  # a lane-dependent pointer stays a pointer into a
    assert ln.array == "k::a" and evaluate(ln.offset, tid(3)) == 12


def test_device_function_with_shared_pointer_per_call_site(tmp_path: pathlib.Path) -> None:
    src = """\
template <int S>
__device__ float at(const float* p, int i) { return p[S * i]; }
__device__ void warpReduce(volatile float* sdata, int tid) {
  sdata[tid] += sdata[tid + 32];
}
__device__ int twice(int x) { return 2 * x; }
__global__ void a(float* out) {
  __shared__ float s[1024];
  warpReduce(s, threadIdx.x);
  out[0] = at<2>(s, threadIdx.x);
  s[twice(threadIdx.x)] = 0;
}
__global__ void b(float* out) {
  __shared__ float t[1024];
  warpReduce(t + 64, 3 * threadIdx.x);
  out[0] = at<33>(t, threadIdx.x);
}
"""
    tu = parse(tmp_path, src)
    red = accesses_at(tu, "sdata[tid + 32]")
    assert [(x.kernel, x.array) for x in red] == [("a", "a::s"), ("b", "b::t")]
    assert [evaluate(x.offset, tid(1)) for x in red] == [33 * 4, (64 + 3 + 32) * 4]
    assert all(x.volatile for x in accesses_at(tu, "sdata[tid]"))
    ats = accesses_at(tu, "p[S * i]")
    assert [(x.kernel, evaluate(x.offset, tid(1))) for x in ats] == [("a", 8), ("b", 132)]
    assert evaluate(only(tu, "s[twice(threadIdx.x)]").offset, tid(5)) == 40


def test_cooperative_groups_thread_rank(tmp_path: pathlib.Path) -> None:
    src = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k() {
  __shared__ int s[1024];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  s[block.thread_rank()] = 0;
  s[warp.meta_group_rank() * 33 + warp.thread_rank()] = 1;
  block.sync();
  s[block.thread_rank() + 1] = 2;
}
"""
    tu = parse(tmp_path, src)
    assert not [n for n in tu.notes if n.severity == "error"], tu.notes
    env = tid(3, 2, 1, blockDim_x=16, blockDim_y=4, blockDim_z=2)
    env.update({"blockDim.x": 16, "blockDim.y": 4})
    linear = 3 + 16 * (2 + 4 * 1)
    assert evaluate(only(tu, "s[block.thread_rank()]").offset, env) == 4 * linear
    tile = only(tu, "s[warp.meta_group_rank() * 33 + warp.thread_rank()]")
    assert evaluate(tile.offset, env) == 4 * ((linear // 32) * 33 + linear % 32)
    r = {a.text: a.region for a in tu.accesses}
    assert r["s[block.thread_rank()]"] != r["s[block.thread_rank() + 1]"]


def test_atomics_async_copies_and_inline_asm(tmp_path: pathlib.Path) -> None:
    src = """\
#include <cuda_pipeline.h>
__global__ void k(const float4* g) {
  __shared__ unsigned long long wide[32];
  __shared__ int narrow[32];
  __shared__ float4 stage[64];
  __shared__ unsigned short tile[32 * 64];
  atomicAdd(&wide[threadIdx.x], 1ull);
  atomicAdd(narrow + threadIdx.x, 1);
  __pipeline_memcpy_async(&stage[threadIdx.x], &g[threadIdx.x], 16);
  __pipeline_commit();
  unsigned addr = __cvta_generic_to_shared(&tile[threadIdx.x * 64]);
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
"""
    tu = parse(tmp_path, src)
    wide = only(tu, "wide[threadIdx.x]")
    assert (wide.kind, wide.width) == ("atomic", 8)
    narrow = [a for a in tu.accesses if a.array == "k::narrow"]
    assert [(a.kind, a.width) for a in narrow] == [("atomic", 4)]
    assert evaluate(narrow[0].offset, tid(3)) == 12
    copy = [a for a in tu.accesses if a.array == "k::stage"]
    assert (
        len(copy) == 1
        and copy[0].unknown_reason
        and "__pipeline_memcpy_async" in copy[0].unknown_reason
    )
    lds = [a for a in tu.accesses if a.array == "k::tile"]
    assert len(lds) == 1 and lds[0].kind == "load"
    # ldmatrix follows the measured LDSM rule: a 16-byte row per lane, no unknown part
    assert lds[0].matrix and lds[0].width == 16 and lds[0].unknown_reason is None


def test_while_loop_counter_and_pointer_in_loop_have_closed_forms(tmp_path: pathlib.Path) -> None:
    src = """\
__global__ void k(int n) {
  __shared__ int s[1024];
  int m = threadIdx.x;
  while (m < n) { s[m] = 0; m += 32; }
  int* p = s;
  for (int i = 0; i < 4; ++i) { *p = 1; p += threadIdx.x; }
  int* r = s;
  for (int i = 0; i < 4; ++i) { *r = 2; r += threadIdx.x; if (n > 3) r += 1; }
}
"""
    tu = parse(tmp_path, src)
    # m = threadIdx.x + 32 * it, it the while loop's free iteration count
    sm = only(tu, "s[m]").offset
    assert opaques(sm) == []
    (km,) = {x for x in walk(sm) if isinstance(x, Sym) and x.name.startswith("k@L4")}
    assert evaluate(sm, tid(5, **{km.name: 2})) == 4 * (5 + 64)
    # p grows by a lane-dependent amount each iteration: p = s + i * threadIdx.x
    sp = only(tu, "*p").offset
    assert opaques(sp) == []
    assert evaluate(sp, tid(5, i=3)) == 4 * 15
    (r,) = opaques(only(tu, "*r").offset)
    # a conditional step: opaque, and the body runs again with it lane-dependent
    assert r.reason == "'r' is updated under a condition in its loop" and TX in walk(r)
    assert isinstance(r, Opaque)
