"""The device's warp size in host launch code (issue 13): ``prop.warpSize``,
``cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, dev)`` and a struct member every
assignment of which stores one are 32 (cudalint.frontend.launch_sets).

``fixtures/launch_warp_size_queries.cu`` and ``fixtures/headers/warp_size_field/`` check
the results end to end; these tests pin what must stay unknown, and the reassigned-local
sets of ``SetEval._straight``.
"""

from __future__ import annotations

import pathlib

import pytest

from cudalint.frontend import parse_file
from cudalint.frontend.launch_sets import warp_size_field
from cudalint.ir import TranslationUnit
from cudalint.options import Options

KERNEL = """
#include <cuda_runtime.h>
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


def xs(tu: TranslationUnit) -> list[int | None]:
    return sorted((la.block[0] if la.block else -1) for la in tu.launches if la.kernel == "k")


@pytest.mark.parametrize(
    "host, expected",
    [
        (
            "void run(int d) { cudaDeviceProp p; cudaGetDeviceProperties(&p, d);"
            " k<<<1, p.warpSize * 4>>>(nullptr); }",
            [128],
        ),
        ("void run(const cudaDeviceProp &p) { k<<<1, dim3(p.warpSize, 2)>>>(nullptr); }", [32]),
        (
            "void run(int d) { int w; cudaDeviceGetAttribute(&w, cudaDevAttrWarpSize, d);"
            " k<<<1, w>>>(nullptr); }",
            [32],
        ),
        # the query on both paths of a condition, or before it: known either way
        (
            "void run(int d, bool c) { int w = 32; if (c) cudaDeviceGetAttribute(&w,"
            " cudaDevAttrWarpSize, d); k<<<1, w>>>(nullptr); }",
            [32],
        ),
        # reassigned in the declaring block: the last assignment's values
        (
            "void run(int n) { int b = n * 32; b = std::min(b, 128); k<<<1, b>>>(nullptr); }",
            [32, 64, 96, 128],
        ),
    ],
)
def test_known(tmp_path: pathlib.Path, host: str, expected: list[int]) -> None:
    assert xs(parse(tmp_path, KERNEL + host)) == expected


@pytest.mark.parametrize(
    "host",
    [
        # another attribute: a property that varies between GPUs
        "void run(int d) { int w; cudaDeviceGetAttribute(&w, cudaDevAttrMaxThreadsPerBlock, d);"
        " k<<<1, w>>>(nullptr); }",
        # the query may not run: w keeps its run-time value on the other path
        "void run(int d, int w, bool c) { c ? cudaDeviceGetAttribute(&w, cudaDevAttrWarpSize,"
        " d) : cudaSuccess; k<<<1, w>>>(nullptr); }",
        # the address goes elsewhere in the same statement too
        "void set(int *p); void run(int d) { int w; set(&w), cudaDeviceGetAttribute(&w,"
        " cudaDevAttrWarpSize, d); k<<<1, w>>>(nullptr); }",
        # a field of another struct named warpSize is not the device's
        "struct P { int warpSize; }; void run(P p) { k<<<1, p.warpSize>>>(nullptr); }",
        # reassigned after the launch's block is read, or by a compound assignment
        "void run(int n) { int b = n * 32; b = std::min(b, 128); b += n; k<<<1, b>>>(nullptr); }",
    ],
)
def test_unknown(tmp_path: pathlib.Path, host: str) -> None:
    assert xs(parse(tmp_path, KERNEL + host)) == [-1]


INFO = "struct info { int warp_size; int nsm; };\n"


@pytest.mark.parametrize(
    "other, expected",
    [
        ("void f(info *t, cudaDeviceProp p) { t->warp_size = p.warpSize; }", True),
        ("void f(info *t) { t[0].warp_size = 32; }\ninfo all[4] = {};", True),
        ("", False),  # never assigned: zero, or whatever the program leaves
        ("void f(info *t, int n) { t->warp_size = p.warpSize; t->warp_size = n; }", False),
        ("void f(info *t) { t->warp_size = 32; t->warp_size *= 2; }", False),
        ("void f(info *t) { t->warp_size = 32; }\ninfo one = {64, 1};", False),
        ("void f(info *t) { t->warp_size = 32; }\ninfo g() { return info{64, 1}; }", False),
        # brace lists of other arrays do not count (ggml's folder has dozens)
        (
            "void f(info *t, cudaDeviceProp p) { t->warp_size = p.warpSize;"
            " float x[4] = {0.0f}; int y[2] = {1, 2}; y[0] = x[1]; }\ninfo all[4] = {};",
            True,
        ),
        (
            "void f(info *t) { t->warp_size = 32; }\n"
            "info tab[2] = {};\nvoid g() { tab[1] = {64, 0}; }",
            False,
        ),
        (
            "struct own { int warpSize = 64; };\n"
            "void f(info *t, own o) { t->warp_size = o.warpSize; }",
            False,
        ),
        (
            "void f(info *t, int dev) {"
            " cudaDeviceGetAttribute(&t->warp_size, cudaDevAttrMaxThreadsPerBlock, dev); }",
            False,
        ),
    ],
)
def test_warp_size_field(tmp_path: pathlib.Path, other: str, expected: bool) -> None:
    header = tmp_path / "info.h"
    header.write_text(INFO)
    (tmp_path / "fill.cu").write_text('#include "info.h"\n' + other + "\n")
    assert warp_size_field(str(header), "info", "warp_size") is expected
    # ``nsm`` is assigned nowhere: never the warp size
    assert warp_size_field(str(header), "info", "nsm") is False
