"""Host-side launch evaluation (cudalint.frontend.host): contexts, loops, shapes, toolkits.

The fixtures ``fixtures/launch_*.cu`` check the results end to end; these tests pin the
launch records themselves and the cases a fixture cannot hold (a real toolkit, hostile
host code).
"""

from __future__ import annotations

import os
import pathlib

import pytest

from cudalint.frontend import parse_file
from cudalint.frontend.host import MAX_SHAPES, expand_shape, row_warp_shape
from cudalint.ir import TranslationUnit
from cudalint.options import Options

KERNEL = """
__global__ void k(float *out) {
    __shared__ float s[1024];
    s[threadIdx.x] = 1.0f;
}
"""


def parse(tmp_path: pathlib.Path, src: str, **options: object) -> TranslationUnit:
    path = tmp_path / "t.cu"
    path.write_text(src)
    return parse_file(str(path), Options(**options))  # type: ignore[arg-type]


def shapes(tu: TranslationUnit, kernel: str = "k") -> set[tuple[int, int, int] | None]:
    return {launch.block for launch in tu.launches if launch.kernel == kernel}


# --- shapes with unknown components ---------------------------------------------------------


def test_known_shape_is_kept_as_launched() -> None:
    assert expand_shape((16, 16, 1)) == [(16, 16, 1)]


def test_unknown_z_stands_for_every_legal_z() -> None:
    # x*y = 32: z may be 1 .. 1024/32 = 32.
    assert expand_shape((4, 8, None)) == [(4, 8, z) for z in range(1, 33)]
    # x*y = 512: z 1 or 2; x*y = 4: z is capped by the hardware's 64, not 1024/4 = 256.
    assert expand_shape((16, 32, None)) == [(16, 32, 1), (16, 32, 2)]
    assert expand_shape((2, 2, None)) == [(2, 2, z) for z in range(1, 65)]


def test_unknown_z_respects_launch_bounds() -> None:
    assert expand_shape((16, 4, None), cap=256) == [(16, 4, z) for z in range(1, 5)]


def test_whole_row_warps_are_left_to_the_model() -> None:
    """x a multiple of 32: every warp is one (y, z) row, and the model ranges over the
    unknown components (``row_warp_shape``) instead of proving each listed shape again
    (ggml's dim3(warp_size, nwarps): 32 shapes, 22 s of CPU for one instance file)."""
    assert expand_shape((32, 4, None), cap=256) == []
    assert row_warp_shape((32, 4, None), cap=256) == (32, 4, None)
    assert expand_shape((32, None, 1)) == []
    assert row_warp_shape((32, None, 1)) == (32, None, 1)
    assert row_warp_shape((32, 64, None)) is None  # 2048 threads: no legal shape


def test_unknown_x_or_too_many_shapes_is_unknown() -> None:
    assert expand_shape((None, 8, 1)) == []
    # y and z both unknown with x = 1: far more than MAX_SHAPES legal shapes.
    assert expand_shape((1, None, None)) == []
    assert len(expand_shape((16, None, 1))) == 64 <= MAX_SHAPES


# --- contexts ------------------------------------------------------------------------------


def test_host_template_gives_kernel_arguments_and_shape(tmp_path: pathlib.Path) -> None:
    tu = parse(
        tmp_path,
        """
template <int BM> __global__ void k(float *out) {
    __shared__ float s[4096];
    s[threadIdx.x * BM] = 1.0f;
}
template <int BM> void run(float *o) { dim3 b(BM * 2); k<BM><<<1, b>>>(o); }
template <int N> void outer(float *o) { run<N * 2>(o); }
void go(float *o) { run<4>(o); outer<16>(o); }
""",
    )
    got = {(launch.block, launch.instantiation) for launch in tu.launches}
    assert got == {((8, 1, 1), "BM=4"), ((64, 1, 1), "BM=32")}
    assert {a.instantiation for a in tu.accesses} == {"BM=4", "BM=32"}


def test_parameters_from_every_call_site(tmp_path: pathlib.Path) -> None:
    tu = parse(
        tmp_path,
        KERNEL
        + """
void launch(float *o, int threads, dim3 shape) { k<<<1, threads>>>(o); k<<<1, shape>>>(o); }
void a(float *o) { launch(o, 64, dim3(8, 8)); }
void b(float *o, int n) { launch(o, 128, dim3(4, 8, n)); }
""",
    )
    assert shapes(tu) >= {(64, 1, 1), (128, 1, 1), (8, 8, 1), (4, 8, 1), (4, 8, 32)}
    assert (4, 8, 33) not in shapes(tu)


def test_parameter_unknown_at_one_call_site_gives_no_shape_there(tmp_path: pathlib.Path) -> None:
    tu = parse(
        tmp_path,
        KERNEL
        + """
void launch(float *o, int threads) { k<<<1, threads>>>(o); }
void a(float *o, int n) { launch(o, n); launch(o, 256); }
""",
    )
    assert shapes(tu) == {None, (256, 1, 1)}


def test_function_pointer_written_later_and_address_taken(tmp_path: pathlib.Path) -> None:
    tu = parse(
        tmp_path,
        KERNEL
        + """
__global__ void k2(float *out) {}
void f(float *o, int c) {
    void (*p)(float *) = k;
    if (c) p = k2;
    p<<<1, 32>>>(o);
}
void g(float *o, void (**out)(float *)) {
    void (*q)(float *) = k;
    *out = q;
    void (**r)(float *) = &q;
    q<<<1, 64>>>(o);
}
""",
    )
    assert shapes(tu, "k") == {(32, 1, 1)}  # q's address is taken: not resolved
    assert shapes(tu, "k2") == {(32, 1, 1)}


def test_array_written_or_passed_is_not_constant(tmp_path: pathlib.Path) -> None:
    tu = parse(
        tmp_path,
        KERNEL
        + """
void fill(int *a);
void f(float *o) {
    int a[] = {32, 64};
    a[1] = 96;
    for (int bs : a) k<<<1, bs>>>(o);
    int b[] = {32, 64};
    fill(b);
    for (int i = 0; i < 2; i++) k<<<1, b[i]>>>(o);
}
""",
    )
    assert shapes(tu) == {None}


def test_hostile_host_code_gives_no_traceback(tmp_path: pathlib.Path) -> None:
    tu = parse(
        tmp_path,
        KERNEL
        + """
void rec(float *o, int n) { k<<<1, n>>>(o); rec(o, n * 2); }
void forever(float *o) { for (int i = 0; ; i++) k<<<1, i>>>(o); }
void huge(float *o) { for (int i = 1; i < 100000; i++) k<<<1, i>>>(o); }
void down(float *o) { for (unsigned i = 64; i != 0; i -= 0) k<<<1, i>>>(o); }
void start(float *o) { rec(o, 32); }
""",
    )
    assert (32, 1, 1) in shapes(tu)
    assert not any("could not" in n.message for n in tu.notes)


# --- real toolkits -------------------------------------------------------------------------

TOOLKIT = "/usr/local/cuda"


@pytest.mark.skipif(
    not os.path.isfile(os.path.join(TOOLKIT, "include", "cuda.h")),
    reason="no CUDA toolkit installed",
)
def test_launches_through_a_real_toolkit(tmp_path: pathlib.Path) -> None:
    # clang lowers <<<>>> to __cudaPushCallConfiguration with the toolkit's headers.
    tu = parse(
        tmp_path,
        KERNEL
        + """
void run(float *o) { dim3 b(16, 16); k<<<1, b>>>(o); }
""",
        cuda_path=TOOLKIT,
    )
    assert shapes(tu) == {(16, 16, 1)}
    assert not any("cudaConfigureCall" in n.message for n in tu.notes)


def test_row_warp_shape_keeps_known_x_multiple_of_32() -> None:
    from cudalint.frontend.host import row_warp_shape

    # x a multiple of 32 with y and z unknown: too many shapes to list, every warp one row.
    assert expand_shape((32, None, None)) == []
    assert row_warp_shape((32, None, None)) == (32, None, None)
    assert row_warp_shape((64, 4, None)) == (64, 4, None)
    # not whole-row warps, fully known, or no legal shape agrees: none
    assert row_warp_shape((16, None, None)) is None
    assert row_warp_shape((None, 1, 1)) is None
    assert row_warp_shape((32, 4, 2)) is None
    assert row_warp_shape((512, 4, None)) is None
    assert row_warp_shape((64, None, None), cap=32) is None


# --- dim3 components path by path (_Flow) ---------------------------------------------------


def test_dim3_members_follow_each_path(tmp_path: pathlib.Path) -> None:
    src = (
        KERNEL
        + """
void run(float *out, bool wide, unsigned n) {
    dim3 b(16, 2);
    if (wide) b.x = 32;
    k<<<1, b>>>(out);
}
"""
    )
    assert shapes(parse(tmp_path, src)) == {(16, 2, 1), (32, 2, 1)}


def test_dim3_whole_assignment_and_unknown_member(tmp_path: pathlib.Path) -> None:
    src = (
        KERNEL
        + """
void run(float *out, unsigned n) {
    dim3 b;
    b = dim3(8, 4);
    b.z = 2;
    k<<<1, b>>>(out);
    b.x = n;
    k<<<1, b>>>(out);
}
"""
    )
    tu = parse(tmp_path, src)
    assert shapes(tu) == {(8, 4, 2), None}
    # the second launch: x unknown, y and z known (no row-warp shape: x is not known)
    assert {la.partial for la in tu.launches if la.block is None} == {None}


def test_dim3_whose_address_escapes_is_unknown_after(tmp_path: pathlib.Path) -> None:
    src = (
        KERNEL
        + """
void fill(dim3 *d);
void run(float *out) {
    dim3 b(64);
    k<<<1, b>>>(out);
    fill(&b);
    k<<<2, b>>>(out);
}
"""
    )
    assert shapes(parse(tmp_path, src)) == {(64, 1, 1), None}


def test_dim3_in_a_loop_that_changes_it_is_unknown(tmp_path: pathlib.Path) -> None:
    # Only the first iteration launches (64, 1, 1); later ones launch what the loop
    # leaves, so no single shape is claimed (as for an integer: fixtures/host_flow.cu).
    src = (
        KERNEL
        + """
void run(float *out, unsigned n) {
    dim3 b(64);
    while (n > 1) {
        k<<<1, b>>>(out);
        b.x = n;
        n /= 2;
    }
}
"""
    )
    assert shapes(parse(tmp_path, src)) == {None}


def test_dim3_from_a_value_a_switch_narrows(tmp_path: pathlib.Path) -> None:
    # ``dim3 block(K); switch (K) { case 64: ... }`` (LeetCUDA's dispatch macros): the
    # initializer is read at the launch, where the case has fixed K.
    src = (
        KERNEL
        + """
void run(float *out, int K) {
    dim3 block(K);
    dim3 two(K);
    two.y = 2;
    switch (K) {
    case 64: k<<<1, block>>>(out); k<<<2, two>>>(out); break;
    case 128: k<<<1, block>>>(out); break;
    }
}
"""
    )
    assert shapes(parse(tmp_path, src)) == {(64, 1, 1), (64, 2, 1), (128, 1, 1)}


# --- launches through the runtime's and the driver's launch functions -------------------------

API_HEADER = """
#include <cuda.h>
#include <cuda_runtime.h>
extern "C" __global__ void k(float *out) {
    __shared__ float s[1024];
    s[threadIdx.x] = 1.0f;
}
__global__ void m(float *out) {
    __shared__ float s[1024];
    s[threadIdx.x] = 1.0f;
}
"""


def test_launch_functions_parse_with_the_stand_in(tmp_path: pathlib.Path) -> None:
    """cuda_runtime.h's and cuda.h's signatures: every form real code writes parses
    without an error (the kernel without a cast too), and a driver launch with the
    arguments of another API does not."""
    tu = parse(
        tmp_path,
        API_HEADER
        + """
void run(float *out, CUmodule mod) {
    void *args[] = {&out};
    cudaLaunchKernel((void *)k, dim3(1), dim3(32), args, 0, 0);
    cudaLaunchKernel((const void *)k, 1, 32, args);
    cudaLaunchKernel(k, 1, 32, args);
    cudaLaunchCooperativeKernel(k, 1, 32, args, 0, nullptr);
    cudaLaunchCooperativeKernel((void *)k, dim3(1), dim3(32), args, 0, 0);
    cudaLaunchConfig_t cfg = {};
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cudaLaunchKernelEx(&cfg, k, out);
    cudaLaunchKernelExC(&cfg, (const void *)k, args);
    CUfunction f;
    cuModuleGetFunction(&f, mod, "k");
    cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
    cuLaunchCooperativeKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, args);
}
""",
    )
    assert [n.message for n in tu.notes if n.severity == "error"] == []
    assert shapes(tu) == {(32, 1, 1)}
    assert len(tu.launches) == 9
    bad = parse(
        tmp_path,
        API_HEADER
        + """
void run(CUfunction f) { cuLaunchKernel(f, 1, 1); }
""",
    )
    assert any(n.severity == "error" and "cuLaunchKernel" in n.message for n in bad.notes)


def test_launch_config_paths(tmp_path: pathlib.Path) -> None:
    """``cfg.blockDim`` is followed path by path, as a ``dim3`` local: both branches'
    shapes; a launch does not change the configuration it reads (the second launch of
    the same ``cfg``); a helper given ``&cfg`` may (unknown after it)."""
    tu = parse(
        tmp_path,
        API_HEADER
        + """
void tweak(cudaLaunchConfig_t *c);
void run(float *out, bool wide) {
    cudaLaunchConfig_t cfg = {dim3(1), dim3(32, 1, 1)};
    if (wide) cfg.blockDim.x = 64;
    cudaLaunchKernelEx(&cfg, k, out);
    cudaLaunchKernelEx(&cfg, k, out);
    cudaLaunchConfig_t c2 = {};
    c2.blockDim = 128;
    tweak(&c2);
    cudaLaunchKernelEx(&c2, m, out);
}
""",
    )
    assert shapes(tu) == {(32, 1, 1), (64, 1, 1)}
    assert {la.span.line for la in tu.launches if la.kernel == "k"} == {17, 18}
    assert shapes(tu, "m") == {None}


def test_driver_launch_needs_a_literal_kernel_of_the_unit(tmp_path: pathlib.Path) -> None:
    """``cuModuleGetFunction(&f, mod, "name")``: the kernel whose symbol is ``name`` (an
    ``extern "C"`` kernel's plain name, a C++ kernel's mangled one); a name that is no
    kernel of the unit, or a ``CUfunction`` also set another way, is left alone."""
    tu = parse(
        tmp_path,
        API_HEADER
        + """
void run(float *out, CUmodule mod, CUfunction other, bool b) {
    void *args[] = {&out};
    CUfunction f = nullptr, g = NULL, h;
    cuModuleGetFunction(&f, mod, "k");
    cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, 0, args, 0);
    cuModuleGetFunction(&g, mod, "_Z1mPf");
    cuLaunchKernel(g, 1, 1, 1, 128, 1, 1, 0, 0, args, 0);
    cuModuleGetFunction(&h, mod, "m");
    cuLaunchKernel(h, 1, 1, 1, 256, 1, 1, 0, 0, args, 0);
    if (b) f = other;
    cuLaunchKernel(f, 1, 1, 1, 512, 1, 1, 0, 0, args, 0);
}
""",
    )
    assert shapes(tu) == set()
    assert shapes(tu, "m") == {(128, 1, 1)}


def test_launch_function_through_pointer_locals(tmp_path: pathlib.Path) -> None:
    """The kernel held by a pointer local, typed or ``const void *`` (a cast of the
    kernel), given to a launch function; a pointer from a caller's table is unknown."""
    tu = parse(
        tmp_path,
        API_HEADER
        + """
void run(float *out, void (**table)(float *), int i) {
    void *args[] = {&out};
    const void *kp = (const void *)k;
    cudaLaunchKernel(kp, 1, 64, args, 0, 0);
    void (*fp)(float *) = m;
    cudaLaunchCooperativeKernel((void *)fp, 1, dim3(128), args, 0, 0);
    void (*tp)(float *) = table[i];
    cudaLaunchKernel((void *)tp, 1, 256, args, 0, 0);
}
""",
    )
    assert shapes(tu) == {(64, 1, 1)}
    assert shapes(tu, "m") == {(128, 1, 1)}
    assert len(tu.launches) == 2
