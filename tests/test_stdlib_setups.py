"""The parser with each standard-library setup it supports: no errors, exact sizes, and
nothing from the machine's own headers (gcc, glibc, libc++ in libclang-ng's wheel, the
CUDA toolkit) in the parse."""

from __future__ import annotations

import os
import pathlib

import pytest

from cudalint.frontend import parse_file
from cudalint.frontend.parse import STDINC_DIR, clang_args
from cudalint.options import Options

_C_HEADERS = (
    "assert.h",
    "ctype.h",
    "errno.h",
    "float.h",
    "inttypes.h",
    "limits.h",
    "math.h",
    "signal.h",
    "stdarg.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "time.h",
    "unistd.h",
    "sys/time.h",
    "sys/types.h",
    "sys/stat.h",
    "sys/syscall.h",
    "pthread.h",
    "omp.h",
    "sys/utsname.h",
    "sys/wait.h",
    "sys/socket.h",
    "sys/un.h",
    "netinet/in.h",
    "netinet/tcp.h",
    "arpa/inet.h",
    "netdb.h",
)
_CXX_HEADERS = (
    "algorithm",
    "array",
    "atomic",
    "cassert",
    "cfloat",
    "charconv",
    "chrono",
    "climits",
    "cmath",
    "complex",
    "cstdint",
    "cstdio",
    "cstdlib",
    "cstring",
    "ctime",
    "exception",
    "fstream",
    "functional",
    "initializer_list",
    "iomanip",
    "iostream",
    "iterator",
    "limits",
    "list",
    "map",
    "memory",
    "mutex",
    "new",
    "numeric",
    "random",
    "set",
    "sstream",
    "stdexcept",
    "string",
    "thread",
    "tuple",
    "type_traits",
    "unordered_map",
    "utility",
    "vector",
    "bits/stdc++.h",
)
_CUDA_HOST_LIBS = (
    "cuComplex.h",
    "cublas_v2.h",
    "cublas.h",
    "cublasLt.h",
    "cufft.h",
    "curand.h",
    "cusparse.h",
    "cusolverDn.h",
    "nccl.h",
    "mpi.h",
    "GL/gl.h",
    "GL/glew.h",
    "GL/freeglut.h",
    "cuda_gl_interop.h",
    "nvtx3/nvToolsExt.h",
    "cudnn.h",
    "cub/cub.cuh",
    "torch/extension.h",
    "cuda_fp8.h",
)

#: Sizes nvcc gives on x86_64 Linux (each checked against nvcc 13 --ptx -arch=sm_90), read
#: back from the extent of a ``char a[sizeof(T)]`` shared array. (Known difference:
#: std::max_align_t is 16 bytes in clang's device-side stddef.h, 32 with nvcc.)
_SIZES = {
    "clock_t": 8,
    "time_t": 8,
    "size_t": 8,
    "ptrdiff_t": 8,
    "long": 8,
    "int64_t": 8,
    "uint32_t": 4,
    "intptr_t": 8,
    "wchar_t": 4,
    "uint": 4,
    "ulong": 8,
    "ushort": 2,
    "std::complex<float>": 8,
    "std::complex<double>": 16,
    "cuFloatComplex": 8,
    "cuDoubleComplex": 16,
    "std::array<float, 5>": 20,
    "std::pair<int, double>": 16,
    "div_t": 8,
    "ldiv_t": 16,
    "struct timespec": 16,
    "__nv_fp8_e4m3": 1,
    "__nv_fp8x2_e5m2": 2,
    "__nv_fp8x4_e4m3": 4,
}
_ALIGNS = {
    "cuDoubleComplex": 16,
    "std::complex<double>": 8,
    "clock_t": 8,
    "__nv_fp8x2_e5m2": 2,
    "__nv_fp8x4_e4m3": 4,
}

_BODY = r"""
static_assert(std::is_same<std::remove_cv_t<const volatile int>, int>::value, "");
static_assert(std::is_integral<long>::value && !std::is_integral<float>::value, "");
static_assert(std::is_floating_point_v<double> && std::is_unsigned_v<unsigned>, "");
static_assert(std::is_same<std::conditional_t<true, int, float>, int>::value, "");
static_assert(std::is_same<std::decay_t<const int(&)[3]>, const int*>::value, "");
static_assert(std::is_same<std::common_type_t<int, float>, float>::value, "");
static_assert(std::numeric_limits<int>::max() == 2147483647, "");
static_assert(std::numeric_limits<unsigned short>::max() == 65535, "");
static_assert(std::numeric_limits<long>::min() == -9223372036854775807L - 1, "");
static_assert(std::numeric_limits<float>::digits == 24, "");
static_assert(std::numeric_limits<double>::epsilon() == 2.220446049250313e-16, "");
static_assert(std::is_same<decltype(std::sqrt(2.0f)), float>::value, "");
static_assert(std::is_same<decltype(std::pow(2.0f, 2)), double>::value, "");
template <class T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
__device__ T twice(T x) { return x + x; }
__global__ void probe(float *out) {
  @DECLS@
  uint lane = threadIdx.x;
  out[lane] = twice(out[0]) + std::min(1.0f, out[1]) + std::abs(-out[2]) + (float)M_PI
            + INFINITY + FP_NAN + (isnan(out[3]) ? NAN : 0.0f) + (float)clock();
  printf("%u\n", lane);
}
int main() {
  std::vector<float> v(4); std::sort(v.begin(), v.end(), [](float a, float b) { return a < b; });
  std::map<std::string, int> m; m["x"] = 1; std::cout << v[0] << std::endl;
  torch::Tensor x; if (x.options().dtype() != torch::kFloat32) std::cout << x.options();
  if (x.device().type() != torch::kCUDA || x.device() != x.device()) return 1;
  utsname os; uname(&os); int status = 0; waitpid(0, &status, WNOHANG);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 2;
  sockaddr_un addr; addr.sun_family = AF_UNIX; sockaddr_in in; in.sin_port = htons(80);
  in.sin_addr.s_addr = htonl(INADDR_ANY); inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0); setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &fd, 4);
  std::list<int> l;
  for (std::list<int>::const_reverse_iterator r = l.rbegin(); r != l.rend(); ++r) {}
  cublasHandle_t h; cublasCreate(&h); cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 1, 1, 1, nullptr,
      nullptr, 1, nullptr, 1, nullptr, nullptr, 1);
  return 0;
}
"""


def _source() -> str:
    headers = (*_C_HEADERS, *_CXX_HEADERS, *_CUDA_HOST_LIBS)
    decls = "\n  ".join(
        f"__shared__ char size{i}[sizeof({t})]; __shared__ char align{i}[alignof({t})];"
        for i, t in enumerate(_SIZES)
    )
    return "".join(f"#include <{h}>\n" for h in headers) + _BODY.replace("@DECLS@", decls)


def _check(tmp_path: pathlib.Path, options: Options) -> None:
    src = tmp_path / "setup.cu"
    src.write_text(_source())
    unit = parse_file(str(src), options)
    errors = [n for n in unit.notes if n.severity != "warning"]
    assert errors == []
    extents = {a.name: a.dims[0] for a in unit.arrays if a.dims}
    for i, t in enumerate(_SIZES):
        assert extents.get(f"size{i}") == _SIZES[t], f"sizeof({t})"
        if t in _ALIGNS:
            assert extents.get(f"align{i}") == _ALIGNS[t], f"alignof({t})"


def test_hermetic_default(tmp_path: pathlib.Path) -> None:
    _check(tmp_path, Options())


def test_user_isystem_dir_is_searched_first(tmp_path: pathlib.Path) -> None:
    """A compile database's -isystem: the user's headers win over the bundled ones, and
    the rest of the standard library still comes from the bundle."""
    sysdir = tmp_path / "vendor"
    (sysdir / "GL").mkdir(parents=True)
    (sysdir / "GL" / "gl.h").write_text(
        "#pragma once\n#include_next <GL/gl.h>\ntypedef int vendor_gl_marker_t;\n"
    )
    _check(tmp_path, Options(extra_args=("-isystem", str(sysdir))))
    src = tmp_path / "marker.cu"
    src.write_text(
        "#include <GL/gl.h>\nvendor_gl_marker_t x;\n#include <vector>\n__global__ void k() {}\n"
    )
    unit = parse_file(str(src), Options(extra_args=("-isystem", str(sysdir))))
    assert [n for n in unit.notes if n.severity != "warning"] == []


def test_user_include_dir_wins(tmp_path: pathlib.Path) -> None:
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "cublas_v2.h").write_text("#pragma once\n#define MY_OWN_CUBLAS 1\n")
    src = tmp_path / "own.cu"
    src.write_text(
        "#include <cublas_v2.h>\n#ifndef MY_OWN_CUBLAS\n#error bundled\n#endif\n"
        "__global__ void k() {}\n"
    )
    unit = parse_file(str(src), Options(include_dirs=(str(inc),)))
    assert [n for n in unit.notes if n.severity != "warning"] == []


def test_nothing_from_the_machine(tmp_path: pathlib.Path) -> None:
    args = clang_args(Options())
    assert "-nostdlibinc" in args and "-nostdinc++" in args
    assert args[-1] == STDINC_DIR
    import clang.cindex as ci

    src = tmp_path / "inc.cu"
    src.write_text(_source())
    unit_args = [a for a in args]
    from cudalint.frontend import shim

    tu = ci.Index.create().parse(
        str(src), args=unit_args, unsaved_files=shim.unsaved_files(), options=0x200
    )
    seen = {inc.include.name for inc in tu.get_includes()}
    assert seen, "no includes seen"
    for name in seen:
        assert not name.startswith(("/usr/include", "/usr/local/include", "/usr/local/cuda")), name
        assert "libcxx" not in name, name


@pytest.mark.skipif(not os.path.isdir("/usr/local/cuda/include"), reason="no CUDA toolkit")
def test_cuda_path_toolkit(tmp_path: pathlib.Path) -> None:
    """--cuda-path: the toolkit's own headers (with the machine's standard library, which
    they and clang's CUDA wrapper need); clock_t is still 8 bytes."""
    src = tmp_path / "tk.cu"
    src.write_text(
        "#include <cuda_runtime.h>\n#include <vector>\n#include <cmath>\n"
        "__global__ void k(float* o) { __shared__ clock_t t[32];"
        " t[threadIdx.x] = clock(); o[0] = sqrtf(t[0]); }\n"
    )
    unit = parse_file(str(src), Options(cuda_path="/usr/local/cuda"))
    errors = [n for n in unit.notes if n.severity != "warning"]
    assert errors == []
    assert unit.array("k::t").element_bytes == 8


#: Names real code uses after including only the header named, which nvcc accepts there
#: (libstdc++'s <vector> brings std::hash; torch's headers bring the CUDA
#: libraries' handles and most of the standard library; cuda_fp16.hpp's raw forms and
#: intrinsics): each source alone must parse without an error.
_BROUGHT_ALONG = {
    "vector": (
        "#include <vector>\n"
        "int f() { std::vector<int> v; return (int)std::hash<int>()(3) + (int)v.size(); }\n"
    ),
    "aten": (
        "#include <ATen/cuda/CUDAContext.h>\n"
        "struct K { int a; };\n"
        "struct H { size_t operator()(const K& k) const { return std::hash<int>()(k.a); } };\n"
        "void g(cublasHandle_t h, cusparseHandle_t s) {\n"
        "  std::unordered_map<int, std::function<int()>> m; std::shared_ptr<int> p;\n"
        "  std::unordered_map<K, int, H>* q = nullptr; (void)q; (void)m; (void)h; (void)s; }\n"
    ),
    "torch": (
        "#include <torch/extension.h>\n#include <ATen/AccumulateType.h>\n"
        "#include <ATen/cuda/Exceptions.h>\n#include <ATen/cuda/DeviceUtils.cuh>\n"
        "#include <c10/macros/Macros.h>\n#include <c10/util/Half.h>\n#include <ATen/Context.h>\n"
        "template <class T> C10_LAUNCH_BOUNDS_1(256) __global__ void k(T *p) {\n"
        "  using acc = at::acc_type<T, true>; acc s = WARP_SHFL_XOR((acc)p[0], 1);\n"
        "  p[threadIdx.x] = (T)(s + p[0] * p[1]); }\n"
        "void run(at::Tensor t, at::optional<at::Tensor> o) {\n"
        "  const at::cuda::OptionalCUDAGuard g(device_of(t));\n"
        "  bool c = t.is_contiguous(at::MemoryFormat::ChannelsLast); (void)c;\n"
        "  size_t e = at::elementSize(t.scalar_type()); (void)e;\n"
        "  cublasHandle_t h = at::cuda::getCurrentCUDABlasHandle(); (void)h;\n"
        "  AT_CUDA_CHECK(cudaGetLastError());\n"
        "  auto out = torch::empty({t.size(0), 4}, t.options()); (void)out.sum(0);\n"
        "  k<c10::Half><<<1, 32>>>(t.data_ptr<c10::Half>()); }\n"
    ),
    "fp16": (
        "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
        "__device__ void f(half *address, half val, half2 a, half2 b, __nv_bfloat162 c) {\n"
        "  __half_raw hsum; hsum.x = 1; half tmp = __hadd(hsum, val); hsum = __half_raw(tmp);\n"
        "  __half h2 = __half_raw{0x3c00}; __half2_raw r2; __half2 v = r2; (void)v; (void)h2;\n"
        "  unsigned short u = 3; __half h3 = u; __half h4 = 2u; __half h5 = 3ll; (void)h5;\n"
        "  half2 d = __h2div(a, b); d = __lowhigh2highlow(d); d = __low2half2(d);\n"
        "  d = __hadd2_sat(a, b); d = __hle2(a, b); d = h2ceil(a); (void)d;\n"
        "  bool e = __hbeq2(a, b) && __hne(h3, h4) && __hge(h3, h4); (void)e;\n"
        "  half x = __hmax_nan(h3, h4); x = hfloor(x); x = __ushort2half_rn(3);\n"
        "  unsigned short w = __half2ushort_rn(x); (void)w;\n"
        "  c = __h2div(c, c); c = __lowhigh2highlow(c); c = __low2bfloat162(c);\n"
        "  float lo = __low2float(c); (void)lo; }\n"
    ),
}


@pytest.mark.parametrize("case", sorted(_BROUGHT_ALONG))
def test_what_a_header_brings_along(tmp_path: pathlib.Path, case: str) -> None:
    src = tmp_path / f"{case}.cu"
    src.write_text(_BROUGHT_ALONG[case])
    unit = parse_file(str(src), Options())
    assert [n.message for n in unit.notes if n.severity != "warning"] == []


@pytest.mark.parametrize(
    "header, use",
    [
        # libstdc++ and libc++ bring <stdexcept> with every stream header (SGEMM_CUDA's
        # runner.cu throws std::invalid_argument with only <fstream>, <iomanip>, <cmath>)
        ("fstream", 'void f() { throw std::invalid_argument("x"); }'),
        ("iostream", 'void f() { throw std::runtime_error("x"); }'),
        ("iomanip", "void f() { throw std::out_of_range(std::string()); }"),
        # a container of a local type: the bundled library declares members without
        # bodies, which clang reports for a type without linkage (ggml's common.cuh)
        (
            "unordered_map",
            "static bool f(int d) { struct key { int d; bool operator==(const key &o) const"
            " { return d == o.d; } }; struct h { size_t operator()(const key &k) const"
            " { return k.d; } }; static std::unordered_map<key, bool, h> c;"
            " auto it = c.find(key{d}); if (it != c.end()) return it->second;"
            " c.emplace(key{d}, true); return true; } void g() { f(1); }",
        ),
        (
            "vector",
            "static int f() { struct p { int a; }; std::vector<p> v; v.push_back(p{1});"
            " return v[0].a; } int g() { return f(); }",
        ),
        # LeetCUDA: a bf16 warp reduction; torch's reductions over a dimension
        (
            "cuda_bf16.h",
            "__device__ __nv_bfloat16 r(__nv_bfloat16 v) { for (int m = 16; m >= 1; m >>= 1)"
            " v = __hadd(v, __shfl_xor_sync(0xffffffff, v, m)); return v; }",
        ),
        (
            "torch/extension.h",
            "torch::Tensor f(torch::Tensor a, torch::Tensor s) {"
            " std::tuple<torch::Tensor, torch::Tensor> m = torch::max(a, 0);"
            " auto order = std::get<1>(s.sort(true, 0, true)); auto b = a.index_select(0, order);"
            " auto acc = b.accessor<int, 1>(); if (acc[0] == 1) return std::get<0>(m);"
            " auto k = a.accessor<float, 2>(); float x = k[0][1] + 1.0f; (void)x;"
            " return torch::zeros({1}, torch::TensorOptions().dtype(torch::kFloat8_e4m3fn)); }",
        ),
        # cuda-samples: helper_gl.h loads the buffer functions itself on Linux (a
        # declaration of its own beside gl.h's would be ambiguous)
        (
            "GL/glx.h",
            "namespace H { PFNGLBINDBUFFERPROC glBindBuffer = (PFNGLBINDBUFFERPROC)"
            ' glXGetProcAddress((const GLubyte *)"glBindBuffer"); } using namespace H;'
            " void f(GLuint b) { glBindBuffer(GL_ARRAY_BUFFER, b);"
            " if (glGetError() == GL_INVALID_ENUM) glGetString(GL_EXTENSIONS); }",
        ),
        (
            "list",
            "struct L { int n; }; int f(std::list<L> &l) {"
            " std::list<L>::reverse_iterator r = l.rbegin(); r--; return r->n; }",
        ),
        (
            "cuda_runtime.h",
            "void f(cudaMemPool_t p, cudaStream_t s) { float *x; cudaMallocAsync(&x, 4, p, s);"
            " void *y; cudaMallocAsync(&y, 4, p, s); }",
        ),
        (
            "thrust/find.h",
            "#include <cuda/std/functional>\nunsigned *f(thrust::device_ptr<unsigned> a,"
            " thrust::device_ptr<unsigned> b) { swap(a, b); int i = cuda::std::identity()(1);"
            " return thrust::find_if(a, a + i, cuda::std::identity()).get(); }",
        ),
        # llm.c: its data loader, pinned buffers, managed memory advice, NVTX and MPI
        (
            "glob.h",
            "#include <cuda_runtime.h>\n#include <nvtx3/nvToolsExtCudaRt.h>\n#include <mpi.h>\n"
            'void f(float **out) { glob_t g; glob("*.bin", 0, NULL, &g); globfree(&g);'
            ' char *b; cudaMallocHost(&b, 64, cudaHostAllocWriteCombined); nvtxRangePush("r");'
            " cudaMemAdvise(*out, 4, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId);"
            " char e[MPI_MAX_ERROR_STRING]; int n; MPI_Error_string(0, e, &n); }",
        ),
        # cuda-samples' nvrtc_helper.h and the driver API's versioned copies
        (
            "nvrtc.h",
            "#include <cuda.h>\nvoid f(const char *src, CUdeviceptr d, float *h) {"
            ' nvrtcProgram p; nvrtcCreateProgram(&p, src, "k.cu", 0, NULL, NULL);'
            " if (nvrtcCompileProgram(p, 0, NULL) != NVRTC_SUCCESS) return;"
            " size_t n; nvrtcGetCUBINSize(p, &n); cuMemcpyHtoD(d, h, 4); cuMemcpyDtoH(h, d, 4); }",
        ),
        # mamba's selective scan: c10::complex arithmetic, gpuAtomicAdd, a block scan
        # with a prefix callback
        (
            "c10/util/complex.h",
            "#include <ATen/cuda/Atomic.cuh>\n#include <cub/block/block_scan.cuh>\n"
            "#include <cub/block/block_load.cuh>\n"
            "using cx = c10::complex<float>;\n"
            'static_assert(sizeof(cx) == 8 && alignof(cx) == 8, "");\n'
            "struct Pre { __device__ float operator()(float a) { return a; } };\n"
            "__device__ cx f(cx a, cx b, float *g) { gpuAtomicAdd(g, a.real());"
            " typename cub::BlockScan<float, 128>::TempStorage *t = nullptr; Pre p; float v = 0;"
            " cub::BlockScan<float, 128>(*t).InclusiveScan(v, v, cub::Sum(), p);"
            " typename cub::BlockLoad<float, 128, 4>::TempStorage *l = nullptr; float u[4];"
            " cub::BlockLoad<float, 128, 4>(*l).Load(g, u, 100, 0.f);"
            " return a * b + cx(v, 0.0f) - a / 2.0f; }",
        ),
        # mamba's reverse scan: CUB's internal headers, its warp shuffles and raking
        # layout; PyTorch's std::conj on c10::complex; a block exchange and reduce
        (
            "cub/config.cuh",
            "#include <cub/util_ptx.cuh>\n#include <cub/util_type.cuh>\n"
            "#include <cub/block/block_raking_layout.cuh>\n"
            "#include <cub/block/block_exchange.cuh>\n"
            "#include <cub/block/block_reduce.cuh>\n#include <cuda/std/type_traits>\n"
            "#include <c10/util/complex.h>\n"
            "using L = cub::BlockRakingLayout<float2, 128>;\n"
            'static_assert(L::UNGUARDED && L::RAKING_THREADS == 32, "");\n'
            'static_assert(L::SEGMENT_LENGTH == 4 && L::GRID_ELEMENTS == 160, "");\n'
            'static_assert(cub::Log2<32>::VALUE == 5 && cub::Log2<12>::VALUE == 4, "");\n'
            'static_assert(CUB_WARP_THREADS(0) == 32, "");\n'
            "__device__ float2 f(L::TempStorage &t, float2 v, c10::complex<float> z) {"
            " unsigned m = cub::WarpMask<16>(1);"
            " float2 *p = L::PlacementPtr(t, cub::RowMajorTid(128, 1, 1));"
            " *p = cub::ShuffleDown<32>(v, 1, 31, m);"
            " v = cub::ShuffleIndex<32>(*L::RakingPtr(t, 0), 0, m);"
            " typename cub::BlockExchange<float, 128, 4>::TempStorage *e = nullptr; float a[4];"
            " cub::BlockExchange<float, 128, 4>(*e).BlockedToStriped(a, a);"
            " typename cub::BlockReduce<float2, 128>::TempStorage *r = nullptr;"
            " v = cub::BlockReduce<float2, 128>(*r).Sum(v);"
            " return make_float2(std::conj(z).imag() + v.x, v.y); }",
        ),
    ],
)
def test_what_a_host_header_brings(tmp_path: pathlib.Path, header: str, use: str) -> None:
    src = tmp_path / "host.cu"
    src.write_text(f"#include <{header}>\n{use}\n__global__ void k() {{}}\n")
    unit = parse_file(str(src), Options())
    assert [n.message for n in unit.notes if n.severity != "warning"] == []


#: ``sizeof``/``alignof`` of CUB's TempStorage types as nvcc 13 gives them with the toolkit's
#: CCCL (checked at the time of writing): kernels carve their shared memory with these sizes
#: (mamba's ``smem_ + kSmemIOSize``), so the stand-in's must be the same.
_CUB_STORAGE = (
    ("BlockLoad<float, 128, 16, cub::BLOCK_LOAD_WARP_TRANSPOSE>::TempStorage", 8448, 16),
    ("BlockLoad<uint4, 64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>::TempStorage", 4096, 16),
    ("BlockLoad<uint4, 32, 1, cub::BLOCK_LOAD_DIRECT>::TempStorage", 1, 1),
    ("BlockLoad<__half, 96, 8, cub::BLOCK_LOAD_TRANSPOSE>::TempStorage", 1584, 16),
    ("BlockLoad<float, 64, 8, cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>::TempStorage", 1056, 16),
    ("BlockStore<float, 128, 16, cub::BLOCK_STORE_WARP_TRANSPOSE>::TempStorage", 8464, 16),
    ("BlockStore<__half, 32, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>::TempStorage", 272, 16),
    ("BlockStore<float2, 64, 1, cub::BLOCK_STORE_DIRECT>::TempStorage", 1, 1),
    ("BlockExchange<float, 128, 16>::TempStorage", 8448, 16),
    ("BlockExchange<double, 96, 8, true>::TempStorage", 2112, 16),
    ("BlockScan<float2, 128, cub::BLOCK_SCAN_WARP_SCANS>::TempStorage", 64, 16),
    ("BlockScan<float4, 64, cub::BLOCK_SCAN_RAKING>::TempStorage", 1056, 16),
    ("BlockScan<float2, 48, cub::BLOCK_SCAN_WARP_SCANS>::TempStorage", 720, 16),
    ("BlockScan<int, 16, cub::BLOCK_SCAN_RAKING_MEMOIZE>::TempStorage", 96, 16),
    ("BlockScan<double, 1024, cub::BLOCK_SCAN_RAKING>::TempStorage", 8480, 16),
    ("BlockReduce<float2, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>::TempStorage", 48, 8),
    ("BlockReduce<float, 48, cub::BLOCK_REDUCE_WARP_REDUCTIONS>::TempStorage", 16, 4),
    ("BlockReduce<float4, 256, cub::BLOCK_REDUCE_RAKING>::TempStorage", 4608, 16),
    ("BlockReduce<int, 96, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>::TempStorage", 384, 16),
    ("BlockRakingLayout<float2, 128>::TempStorage", 1280, 16),
    ("BlockRakingLayout<float, 512>::TempStorage", 2176, 16),
    ("WarpScan<float, 12>::TempStorage", 80, 4),
    ("WarpReduce<double, 5>::TempStorage", 88, 8),
    ("WarpScan<float4, 32>::TempStorage", 1, 1),
)


def test_cub_storage_layouts(tmp_path: pathlib.Path) -> None:
    decls = "".join(
        f"__shared__ char s{i}[sizeof(cub::{t})]; __shared__ char a{i}[alignof(cub::{t})];\n"
        for i, (t, _, _) in enumerate(_CUB_STORAGE)
    )
    src = tmp_path / "cub_sizes.cu"
    head = "#include <cub/cub.cuh>\n#include <cuda_fp16.h>\n"
    src.write_text(f"{head}__global__ void k() {{\n{decls}}}\n")
    unit = parse_file(str(src), Options())
    assert [n.message for n in unit.notes if n.severity != "warning"] == []
    extents = {a.name: a.dims[0] for a in unit.arrays if a.dims}
    got = [
        (t, extents.get(f"s{i}"), extents.get(f"a{i}")) for i, (t, *_) in enumerate(_CUB_STORAGE)
    ]
    assert got == list(_CUB_STORAGE)
