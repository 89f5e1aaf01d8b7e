"""Launch shapes bounded to a finite set by the host code (cudalint.frontend.launch_sets)
and how the model words the worst over such a set (cudalint.model.analyze).

``fixtures/launch_bounded_sets.cu`` checks the results end to end; these tests pin the
sets themselves, the cases a fixture cannot hold (``__launch_bounds__``, the largest
sets), and that proving only the dominating shapes of a large set changes no result.
"""

from __future__ import annotations

import pathlib

import pytest

from cudalint.frontend import parse_file
from cudalint.frontend.launch_sets import ANY, Vals, _show
from cudalint.ir import TranslationUnit
from cudalint.model import analyze as analyze_mod
from cudalint.model.analyze import analyze
from cudalint.options import Options

KERNEL = """
#include <algorithm>
__global__ void k(float *out) {
    __shared__ float s[1024];
    s[threadIdx.x] = 1.0f;
}
"""


def parse(tmp_path: pathlib.Path, src: str) -> TranslationUnit:
    path = tmp_path / "t.cu"
    path.write_text(src)
    return parse_file(str(path), Options())


def xs(tu: TranslationUnit, kernel: str = "k") -> list[int | None]:
    return sorted(
        launch.block[0] if launch.block else None
        for launch in tu.launches
        if launch.kernel == kernel
    )


@pytest.mark.parametrize(
    "host, expected",
    [
        # min(C, round-up to a warp): every multiple of 32 up to C, and C
        (
            "void run(long n) { k<<<1, std::min<long>(96, (n + 31) / 32 * 32)>>>(nullptr); }",
            [32, 64, 96],
        ),
        ("void run(int n) { int b = n < 40 ? n : 40; k<<<1, b>>>(nullptr); }", list(range(1, 41))),
        ("void run(int n) { k<<<1, min(8, n)>>>(nullptr); }", list(range(1, 9))),
        # doubling bounded by a constant conjunct, from a constant start
        (
            "void run(int n) { int t = 64; while (t < n && t < 512) t *= 2;"
            " k<<<1, t>>>(nullptr); }",
            [64, 128, 256, 512],
        ),
        (
            "void run(int n) { int t = 64; while (t <= n && t <= 256) t <<= 1;"
            " k<<<1, t>>>(nullptr); }",
            [64, 128, 256, 512],
        ),
        # doubling bounded only by a run-time value: CUDA's 1024 threads
        (
            "void run(int n) { int t = 128; for (; t < n; t = t * 2) {} k<<<1, t>>>(nullptr); }",
            [128, 256, 512, 1024],
        ),
        # a helper returning a power of two
        (
            "static int p2(int x) { int p = 1; while (p < x) p *= 2; return p; }\n"
            "void run(int n) { k<<<1, p2(n) * 32>>>(nullptr); }",
            [32, 64, 128, 256, 512, 1024],
        ),
        # a dim3 parameter the caller passes a bounded shape (ggml's launch_soft_max_kernels)
        (
            "static void go(dim3 b) { k<<<1, b>>>(nullptr); }\n"
            "void run(int n) { int t = 32; while (t < n && t < 256) t *= 2; go(dim3(t, 1, 1)); }",
            [32, 64, 128, 256],
        ),
        # a local a host helper sets through a reference (cuda-samples' computeGridSize)
        (
            "static void grid(int n, int b, int &nb, int &nt) { nt = min(b, n); nb = n / nt; }\n"
            "void run(int n) { int nb, nt; grid(n, 64, nb, nt); k<<<nb, nt>>>(nullptr); }",
            list(range(1, 65)),
        ),
        # two arms, a condition that does not read them
        ("void run(bool w) { int t = w ? 128 : 256; k<<<1, t>>>(nullptr); }", [128, 256]),
    ],
)
def test_bounded_sets(tmp_path: pathlib.Path, host: str, expected: list[int]) -> None:
    tu = parse(tmp_path, KERNEL + host)
    assert xs(tu) == expected
    notes = {launch.bound for launch in tu.launches}
    if len(expected) > 1:
        assert len(notes) == 1 and None not in notes


@pytest.mark.parametrize(
    "host",
    [
        "void run(int n) { k<<<1, n>>>(nullptr); }",
        "void run(int n) { k<<<1, n * 4>>>(nullptr); }",  # a multiple of 4: not bounded
        "void run(int n) { k<<<1, std::max(32, n)>>>(nullptr); }",
        "void run(int n) { int t = 32; while (t < n) t += 32; k<<<1, t>>>(nullptr); }",
        "void run(int *p) { int t = 32; while (t < 256) t *= 2; *p = t; int u = t; u = *p;"
        " k<<<1, u>>>(nullptr); }",
        "struct P { int w; }; void run(const P &p) { k<<<1, dim3(p.w, 2)>>>(nullptr); }",
        # the helper's reference parameter is also incremented: not followed
        "static void grid(int n, int &nt) { nt = min(64, n); nt++; }\n"
        "void run(int n) { int nt; grid(n, nt); k<<<1, nt>>>(nullptr); }",
        # the local's address escapes besides the helper
        "static void grid(int n, int &nt) { nt = min(64, n); }\nvoid take(int *p);\n"
        "void run(int n) { int nt; grid(n, nt); take(&nt); k<<<1, nt>>>(nullptr); }",
    ],
)
def test_unbounded_stays_unknown(tmp_path: pathlib.Path, host: str) -> None:
    tu = parse(tmp_path, KERNEL + host)
    assert xs(tu) == [None]
    assert all(launch.bound is None for launch in tu.launches)


def test_launch_bounds_cap_the_set(tmp_path: pathlib.Path) -> None:
    src = KERNEL.replace("__global__ void k", "__global__ void __launch_bounds__(256) k")
    tu = parse(
        tmp_path,
        src + "void run(int n) { int t = 32; while (t < n) t *= 2; k<<<1, t>>>(nullptr); }",
    )
    assert xs(tu) == [32, 64, 128, 256]
    bound = tu.launches[0].bound
    assert bound is not None and "__launch_bounds__ of 256" in bound


def test_one_warp_launch_bounds_bound_an_unknown_value(tmp_path: pathlib.Path) -> None:
    """A launch value nothing in the code bounds (ggml's ``warp_size``, read from the
    device at run time) keeps the assumed shape, but not for a kernel whose
    ``__launch_bounds__`` allow one warp at most: every block it can run is 1 .. 32
    threads, a superset of the launch's own."""
    host = (
        "struct info_t { int warp_size; }; info_t get_info();\n"
        "void run() { const int ws = get_info().warp_size;"
        " k<<<1, dim3(ws, 1, 1)>>>(nullptr); }"
    )
    tu = parse(tmp_path, KERNEL + host)
    assert xs(tu) == [None]  # no bound: assumed
    src = KERNEL.replace("__global__ void k", "__global__ void __launch_bounds__(32) k")
    tu = parse(tmp_path, src + host)
    assert xs(tu) == list(range(1, 33))
    bound = tu.launches[0].bound
    assert bound is not None and "a superset" in bound and "__launch_bounds__ of 32" in bound
    src = KERNEL.replace("__global__ void k", "__global__ void __launch_bounds__(64) k")
    assert xs(parse(tmp_path, src + host)) == [None]  # two warps: still unbounded
    # the bound through a constexpr function returning a constant (ggml's
    # ``__launch_bounds__(ggml_cuda_get_physical_warp_size(), 1)``)
    src = KERNEL.replace(
        "__global__ void k",
        "static constexpr __device__ int warp() {\n#ifdef __HIP_PLATFORM_AMD__\n"
        "    return 64;\n#else\n    return 32;\n#endif\n}\n"
        "__global__ void __launch_bounds__(warp(), 1) k",
    )
    assert xs(parse(tmp_path, src + host)) == list(range(1, 33))


def test_superset_is_said(tmp_path: pathlib.Path) -> None:
    tu = parse(
        tmp_path,
        KERNEL + "void run(int r) { int t = 32;"
        " for (int i = 0; i < r; i++) t *= 2; k<<<1, t>>>(nullptr); }",
    )
    assert xs(tu) == [32, 64, 128, 256, 512, 1024]
    bound = tu.launches[0].bound
    assert bound is not None and "a superset" in bound


def test_values() -> None:
    assert Vals(mult=32).upto(100) == [32, 64, 96]
    assert Vals(start=3, ratio=2).upto(24) == [3, 6, 12, 24]
    assert ANY.upto(10) is None
    assert _show([32, 64, 96, 128, 160]) == "32, 64, ..., 160"
    assert _show([1, 2, 4, 8, 16]) == "1, 2, 4, ..., 16"
    assert _show([1, 2, 3]) == "1, 2, 3"


MANY = """
#include <algorithm>
__global__ void k(float *out, const float *in) {
    __shared__ float s[4096];
    __shared__ unsigned char c[4096];
    __shared__ short h[4096];
    unsigned t = threadIdx.x;
    s[t * 2] = in[t];
    s[t] = in[t];
    s[(t * 3) % 64] = in[t];
    s[t / 2 + (t % 2) * 32] = in[t];
    c[t * 4] = 1;
    h[t * 33] = 1;
    if (t < 20) s[t * 8] = 1.0f;
    if (t % 17 == 3) s[t * 32] = 1.0f;
    out[t] = s[t * 16 % 1024];
}
void run(float *out, const float *in, int n) { k<<<1, std::min(300, n)>>>(out, in); }
"""


def test_dominating_shapes_change_no_result(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Proving only the dominating shapes of 1..300 gives what proving all 300 gives."""
    tu = parse(tmp_path, MANY)
    assert len(xs(tu)) == 300
    fast = analyze(tu, Options())
    monkeypatch.setattr(analyze_mod, "_dominating", lambda shapes, access, each: iter(shapes))
    full = analyze(tu, Options())
    assert len(fast) == len(full) > 8

    def key(r: object) -> tuple[object, ...]:
        return (
            r.access.span,
            r.status,
            r.wavefronts,  # type: ignore[attr-defined]
            r.ideal_wavefronts,
            r.reason,
        )  # type: ignore[attr-defined]

    assert [key(r) for r in fast] == [key(r) for r in full]
    assert {r.status for r in fast} == {"proved", "worst-case"}


MANY_2D = """
__global__ void k(float *out, const float *in) {
    __shared__ float s[4096];
    __shared__ unsigned char c[4096];
    unsigned t = threadIdx.x, u = threadIdx.y;
    s[t * 2] = in[t];
    s[u * 33 + t] = in[t];
    s[t * 32 + u] = in[t];
    s[(u * 8 + t) % 64] = in[t];
    c[(u * 16 + t) * 4] = 1;
    s[4000] = in[0];
    if (u < 3 && t < 20) s[u * 64 + t * 8] = 1.0f;
    if ((t + u) % 17 == 3) s[t * 32] = 1.0f;
    out[t] = s[(u * 4 + t) * 16 % 1024];
}
__host__ int last_pow2(unsigned int n) {
    n |= (n >> 1); n |= (n >> 2); n |= (n >> 4); n |= (n >> 8); n |= (n >> 16);
    return n - (n >> 1);
}
void run(float *out, const float *in, int a, int b) {
    k<<<1, dim3(min(last_pow2(a), 64), min(last_pow2(b), 32))>>>(out, in);
}
"""


def test_dominating_two_dimensional_shapes_change_no_result(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shapes ``(x, y, 1)`` of one ``x`` ordered by ``y``: proving only the bounding
    ones gives what proving every shape of the set gives, with fewer proofs."""
    tu = parse(tmp_path, MANY_2D)
    shapes = [launch.block for launch in tu.launches if launch.kernel == "k"]
    assert len(shapes) > 30 and any(b is not None and b[1] > 1 for b in shapes)
    seen: list[int] = []
    real = analyze_mod._dominating

    def counted(shapes: list[object], access: object, each: list[object]) -> object:
        for shape in real(shapes, access, each):  # type: ignore[arg-type]
            seen.append(1)
            yield shape

    monkeypatch.setattr(analyze_mod, "_dominating", counted)
    fast = analyze(tu, Options())
    proofs = len(seen)
    monkeypatch.setattr(analyze_mod, "_dominating", lambda shapes, access, each: iter(shapes))
    full = analyze(tu, Options())

    def key(r: object) -> tuple[object, ...]:
        return (
            r.access.span,  # type: ignore[attr-defined]
            r.status,  # type: ignore[attr-defined]
            r.wavefronts,  # type: ignore[attr-defined]
            r.ideal_wavefronts,  # type: ignore[attr-defined]
            r.reason,  # type: ignore[attr-defined]
        )

    assert [key(r) for r in fast] == [key(r) for r in full]
    assert {r.status for r in fast} == {"proved", "worst-case"}
    assert proofs < len(fast) * len(shapes) // 2


# --- review s9: sets that missed a value the program launches with --------------------


@pytest.mark.parametrize(
    "host, expected",
    [
        # min(n, C) is also every value below 1: what is added to it reaches 1..
        ("void run(int n) { k<<<1, std::min(n, 8) + 4>>>(nullptr); }", list(range(1, 13))),
        ("void run(int n) { k<<<1, std::min(n - 1, 7) + 1>>>(nullptr); }", list(range(1, 9))),
        ("void run(int n) { k<<<1, std::max(4, std::min(n, 8))>>>(nullptr); }", list(range(4, 9))),
        # a loop bound the code changes after the loop: the loop ran with the first value
        (
            "void run(int n) { int t = 32; int lim = 1024; while (t < n && t < lim) t *= 2;"
            " lim = 64; k<<<1, t>>>(nullptr); }",
            [32, 64, 128, 256, 512, 1024],
        ),
        # a narrow type wraps: 270 and 300 are 14 and 44 as unsigned char
        (
            "void run(bool w) { unsigned char t = (w ? 9 : 10) * 30; k<<<1, t>>>(nullptr); }",
            [14, 44],
        ),
        # dim3(t, t): the square shapes only
        ("void run(int n) { int t = n < 4 ? n : 4; k<<<1, dim3(t, t)>>>(nullptr); }", [1, 2, 3, 4]),
    ],
)
def test_review_sets(tmp_path: pathlib.Path, host: str, expected: list[int]) -> None:
    tu = parse(tmp_path, KERNEL + host)
    assert xs(tu) == expected


@pytest.mark.parametrize(
    "host",
    [
        # the initializer read a value the code changes before the launch, and an
        # assignment that reads the local itself (its values grow without bound)
        "void run(int n) { int a = 1000; int t = a < n ? a : n; a = n; k<<<1, t>>>(nullptr); }",
        "void run(int n) { int a = 64; while (a < n) a = a + n; k<<<1, a>>>(nullptr); }",
        # the ratio of the doubling is changed after the loop
        "void run(int n) { int f = 2; int t = 32; while (t < n && t < 1024) t *= f; f = 4;"
        " k<<<1, t>>>(nullptr); }",
        # written through a reference, a lambda, a lambda's reference parameter
        "void run(int n) { int t = n < 64 ? n : 64; int &r = t; if (n > 9) r = 96;"
        " k<<<1, t>>>(nullptr); }",
        "void run(int n) { int t = n < 64 ? n : 64; auto g = [&] { t = 96; }; if (n > 9) g();"
        " k<<<1, t>>>(nullptr); }",
        "void run(int n) { int t = n < 64 ? n : 64; auto g = [](int &x) { x = 96; };"
        " if (n > 9) g(t); k<<<1, t>>>(nullptr); }",
        # a helper's parameter it writes is not the value the call passes
        "static int pick(int b, bool big, bool w) { if (big) b = 96; return w ? b : 16; }\n"
        "void run(bool big, bool w) { k<<<1, pick(32, big, w)>>>(nullptr); }",
        # a narrow unsigned type of a value that may be negative: (unsigned char)-5 is 251
        "void run(int n) { unsigned char t = (n < 10 ? n : 10) * 30; k<<<1, t>>>(nullptr); }",
        # two-dimensional sets of more than MAX_MULTI_SET_SHAPES shapes: the assumed shape
        "void run(int n, int m) { k<<<1, dim3(n < 32 ? n : 32, m < 32 ? m : 32)>>>(nullptr); }",
    ],
)
def test_review_unbounded(tmp_path: pathlib.Path, host: str) -> None:
    tu = parse(tmp_path, KERNEL + host)
    assert None in xs(tu)


@pytest.mark.parametrize(
    "host, exact",
    [
        ("void run(int n, int m) { k<<<1, dim3(n < 8 ? n : 8, m < 4 ? m : 4)>>>(nullptr); }", True),
        # both components read n: not every pair runs
        (
            "void run(int n) { int a = n < 8 ? n : 8; int b = n < 4 ? n : 4;"
            " k<<<1, dim3(a, b)>>>(nullptr); }",
            False,
        ),
        # t * t with t 4 or 8: 16 or 64, never 32
        ("void run(bool w) { int t = w ? 4 : 8; k<<<1, t * t>>>(nullptr); }", False),
    ],
)
def test_review_exactness(tmp_path: pathlib.Path, host: str, exact: bool) -> None:
    tu = parse(tmp_path, KERNEL + host)
    bounds = {launch.bound for launch in tu.launches}
    assert len(bounds) == 1 and None not in bounds
    assert ("a superset" not in next(iter(bounds))) == exact


def test_assigned_values_are_a_union(tmp_path: pathlib.Path) -> None:
    """A local written only by plain assignments holds its initializer's value or one an
    assignment stored wherever it is read: ``int a = 1000; ... a = 32;`` read before the
    ``a = 32`` is one of 1000 and 32, so ``min(a, n)`` is one of 1 .. 1000 (a superset);
    with ``a = 2000`` it would be 1 .. 1024."""
    tu = parse(
        tmp_path,
        KERNEL + "void run(int n) { int a = 1000; int t = a < n ? a : n;"
        " a = 32; k<<<1, t>>>(nullptr); }",
    )
    assert xs(tu) == list(range(1, 1001))
    assert all(launch.bound and "superset" in launch.bound for launch in tu.launches)


OUT_PARAMS = """
__global__ void k2(float *out) {
    __shared__ float s[32][33];
    s[threadIdx.y][threadIdx.x] = out[0];
}
__host__ int last_pow2(unsigned int n) {
    n |= (n >> 1); n |= (n >> 2); n |= (n >> 4); n |= (n >> 8); n |= (n >> 16);
    return n - (n >> 1);
}
"""


@pytest.mark.parametrize(
    "host, expected",
    [
        # constants through ``dim3 &`` (the flow of the call's statements)
        (
            "static void cfg(dim3 &b, dim3 &g) { b.x = 32; b.y = 8; b.z = 1; g = dim3(4); }\n"
            "void run(float *o) { dim3 block; dim3 grid; cfg(block, grid);"
            " k2<<<grid, block>>>(o); }",
            [(32, 8, 1)],
        ),
        # ... of a value the call passes, with a member it leaves as the initializer had it
        (
            "static void cfg(int n, dim3 &b) { int y = n / 32; b.x = 32; b.y = y; }\n"
            "void run(float *o) { dim3 block(1, 1, 2); cfg(256, block); k2<<<1, block>>>(o); }",
            [(32, 8, 2)],
        ),
        # a whole dim3 assigned
        (
            "static void cfg(dim3 &b) { b = dim3(16, 16); }\n"
            "void run(float *o) { dim3 block; cfg(block); k2<<<1, block>>>(o); }",
            [(16, 16, 1)],
        ),
        # an ``int &`` out-parameter
        (
            "static void cfg(int n, int &t) { t = n < 128 ? n : 128; }\n"
            "void run(float *o) { int t = 0; cfg(96, t); k2<<<1, t>>>(o); }",
            [(96, 1, 1)],
        ),
        # run-time values the helper bounds (apex's flexible_launch_configs): a set
        (
            "static void cfg(int r, int st, dim3 &b) {\n"
            "  int bx = min(last_pow2(st), 32);\n"
            "  int by = min(last_pow2(r), 512 / bx);\n"
            "  if (bx * by != 512) bx = min(last_pow2(st), 512 / by);\n"
            "  b.x = bx; b.y = by; b.z = 1; }\n"
            "void run(float *o, int r, int st) { dim3 block; cfg(r, st, block);"
            " k2<<<1, block>>>(o); }",
            sorted(
                (x, y, 1)
                for x in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
                for y in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
                if x * y <= 1024
            ),
        ),
    ],
)
def test_out_parameters(
    tmp_path: pathlib.Path, host: str, expected: list[tuple[int, int, int]]
) -> None:
    tu = parse(tmp_path, OUT_PARAMS + host)
    assert sorted(launch.block for launch in tu.launches if launch.kernel == "k2") == expected


@pytest.mark.parametrize(
    "host",
    [
        # the call under a condition: the block may be the initializer's (1, 1, 1)
        "static void cfg(int st, dim3 &b) { b.x = min(last_pow2(st), 32); }\n"
        "void run(float *o, int st, bool c) { dim3 block; if (c) cfg(st, block);"
        " k2<<<1, block>>>(o); }",
        # the helper writes under a condition, or returns early
        "static void cfg(int st, dim3 &b) { if (st > 4) b.x = min(last_pow2(st), 32); }\n"
        "void run(float *o, int st) { dim3 block; cfg(st, block); k2<<<1, block>>>(o); }",
        "static void cfg(int st, dim3 &b) { if (st < 0) return; b.x = min(last_pow2(st), 32); }\n"
        "void run(float *o, int st) { dim3 block; cfg(st, block); k2<<<1, block>>>(o); }",
        # the helper hands the parameter on to code it does not follow
        "void other(dim3 &b);\n"
        "static void cfg(int st, dim3 &b) { b.x = min(last_pow2(st), 32); other(b); }\n"
        "void run(float *o, int st) { dim3 block; cfg(st, block); k2<<<1, block>>>(o); }",
        # written again after the call
        "static void cfg(int st, dim3 &b) { b.x = min(last_pow2(st), 32); }\n"
        "void run(float *o, int st, int n) { dim3 block; cfg(st, block); block.x = n;"
        " k2<<<1, block>>>(o); }",
    ],
)
def test_out_parameters_not_followed(tmp_path: pathlib.Path, host: str) -> None:
    """No set of shapes; a path that skips the call keeps the initializer's shape (the
    flow of the statements: ``if (c) cfg(st, block);`` launches (1, 1, 1) where ``c`` is
    false)."""
    tu = parse(tmp_path, OUT_PARAMS + host)
    blocks = [launch.block for launch in tu.launches if launch.kernel == "k2"]
    assert None in blocks
    assert all(launch.bound is None for launch in tu.launches)
    assert set(blocks) <= {None, (1, 1, 1)}


def test_a_lambda_that_only_reads_a_local_leaves_it_bounded(tmp_path: pathlib.Path) -> None:
    """PyTorch's ``AT_DISPATCH_...([&] { k<<<1, threads>>>(...); })``: the lambda names
    ``threads`` but writes nothing, so the set stands (one that writes it, or hands it to
    a reference parameter, is ``test_review_unbounded``'s)."""
    tu = parse(
        tmp_path,
        KERNEL + "void run(int n) { const int t = n < 64 ? n : 64;"
        " auto go = [&] { int u = t + 1; k<<<1, t>>>(nullptr); (void)u; }; go(); }",
    )
    assert xs(tu) == list(range(1, 65))
