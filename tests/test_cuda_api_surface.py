"""The CUDA API surface nvcc's headers give, without a toolkit: every runtime struct with the
toolkit's size and alignment, the enums, flags and calls real code names (texture objects,
cuRAND's device API, the driver API of ``cuda.h``, ``math_constants.h``, ``cuda::barrier``),
and the integer types nvcc's host headers bring. Each name here came from a CL004 on a
public repository (cuda-samples, llm.c, SGEMM_CUDA)."""

from __future__ import annotations

import json
import pathlib

from cudalint.frontend import parse_file
from cudalint.options import Options

_DATA = pathlib.Path(__file__).parent / "data" / "cuda_runtime_struct_sizes.json"

#: cuRAND's generator states, laid out by hand from CUDA 13's curand_kernel.h fields
#: (x86_64; older toolkits had double MRG32k3a state and no Sobol `c`):
#: XORWOW: 6 uint + 3 int/float = 36, padded to 40, + double = 48;
#: Philox: uint4 ctr, uint4 output (32) + uint2 (8) + 4 x 4 = 56, + double = 64 (align 16);
#: MRG32k3a: 6 uint + 3 int/float = 36, padded to 40, + double = 48;
#: Sobol32 and scrambled: 3 + 32 uint = 140; Sobol64 and scrambled: 3 + 64 ull = 536.
_CURAND_SIZES = {
    "curandState": 48,
    "curandStatePhilox4_32_10_t": 64,
    "curandStateMRG32k3a": 48,
    "curandStateSobol32_t": 140,
    "curandStateScrambledSobol32_t": 140,
    "curandStateSobol64_t": 536,
    "curandStateScrambledSobol64_t": 536,
}


def _extents(tmp_path: pathlib.Path, source: str) -> tuple[dict[str, int], list[str]]:
    src = tmp_path / "surface.cu"
    src.write_text(source)
    unit = parse_file(str(src), Options())
    errors = [n.message for n in unit.notes if n.severity != "warning"]
    return {a.name: a.dims[0] for a in unit.arrays if a.dims}, errors


def test_runtime_structs_have_the_toolkits_layout(tmp_path: pathlib.Path) -> None:
    sizes: dict[str, list[int]] = json.loads(_DATA.read_text())["sizes"]
    assert len(sizes) >= 60
    decls = "\n  ".join(
        f"__shared__ char s_{n}[sizeof(struct {n})]; __shared__ char a_{n}[alignof(struct {n})];"
        for n in sizes
    )
    extents, errors = _extents(
        tmp_path, f"#include <cuda_runtime.h>\n__global__ void k(char* o) {{\n  {decls}\n}}\n"
    )
    assert errors == []
    for name, (size, align) in sizes.items():
        assert (extents[f"s_{name}"], extents[f"a_{name}"]) == (size, align), name


def test_curand_states_have_their_layout(tmp_path: pathlib.Path) -> None:
    decls = "\n  ".join(f"__shared__ char s{i}[sizeof({t})];" for i, t in enumerate(_CURAND_SIZES))
    extents, errors = _extents(
        tmp_path, f"#include <curand_kernel.h>\n__global__ void k() {{\n  {decls}\n}}\n"
    )
    assert errors == []
    for i, (t, size) in enumerate(_CURAND_SIZES.items()):
        assert extents[f"s{i}"] == size, t


_PROGRAM = r"""
#include <stdlib.h>
#include <stdio.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <math_constants.h>
#include <curand.h>
#include <curand_kernel.h>
#include <cuda/barrier>
#include <builtin_types.h>

int64_t from_stdlib;  // glibc's <stdlib.h> brings <sys/types.h>'s int64_t

__global__ void sample(cudaTextureObject_t tex, cudaSurfaceObject_t surf, curandState* states,
                       float* out, CUtexObject drv_tex) {
  __shared__ curandState s_states[32];
  __shared__ cuda::barrier<cuda::thread_scope::thread_scope_block> bar;
  __shared__ float tile[32];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&tile[threadIdx.x], &out[threadIdx.x], sizeof(float), bar);
  bar.arrive_and_wait();
  curand_init(1234ull, threadIdx.x, 0, &s_states[threadIdx.x]);
  float v = tex2D<float>(tex, 0.5f, 0.5f) + tex1Dfetch<float>(tex, 3) + CUDART_PI_F
          + curand_uniform(&s_states[threadIdx.x]) + curand_normal(&states[threadIdx.x]);
  float4 q;
  tex2D(&q, tex, 1.0f, 2.0f);
  surf2Dwrite(v, surf, 4 * (int)threadIdx.x, 0);
  out[threadIdx.x] = v + q.x + tile[threadIdx.x] + (float)CUDART_NAN + (float)drv_tex;
}

int main() {
  cudaError_t e = cudaErrorInvalidValue;
  int integrated = 0;
  cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, 0);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaMallocArray(&arr, &desc, 64, 64);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, nullptr);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, sample);
  cudaProfilerStart();
  curandGenerator_t g;
  curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL64);
  curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT);
  CUresult r = cuInit(0);
  CUdevice dev;
  CUcontext ctx;
  cuDeviceGet(&dev, 0);
  cuDevicePrimaryCtxRetain(&ctx, dev);
  if (r != CUDA_SUCCESS || e == cudaSuccess) return 1;
  return attr.maxThreadsPerBlock + (int)from_stdlib;
}
"""


def test_names_real_code_uses_parse_without_errors(tmp_path: pathlib.Path) -> None:
    extents, errors = _extents(tmp_path, _PROGRAM)
    assert errors == []
    assert extents["s_states"] == 32


def test_cooperative_groups_brings_stdint(tmp_path: pathlib.Path) -> None:
    # nvcc: <cooperative_groups.h> includes <stdint.h> (llm.c uses uintptr_t after it).
    _, errors = _extents(
        tmp_path,
        "#include <cooperative_groups.h>\n"
        "__global__ void k(float* p) { uintptr_t a = (uintptr_t)p; uint64_t b = a; (void)b; }\n",
    )
    assert errors == []


def test_min_max_have_cudas_mixed_overloads(tmp_path: pathlib.Path) -> None:
    # crt/math_functions.hpp: max(float, double) and max(double, float) are double; the
    # signed/unsigned pairs of each width are unsigned (cuda-samples' eigenvalues).
    extents, errors = _extents(
        tmp_path,
        "__global__ void k(float t, long a, unsigned long b, long long c,\n"
        "                  unsigned long long d) {\n"
        "  __shared__ char s0[sizeof(max(5.0e-37, t))]; __shared__ char s1[sizeof(min(t, 1.0))];\n"
        "  __shared__ char s2[sizeof(max(a, b))]; __shared__ char s3[sizeof(min(c, d))];\n"
        "  __shared__ char s4[sizeof(max(t, t))];\n"
        "}\n",
    )
    assert errors == []
    assert [extents[f"s{i}"] for i in range(5)] == [8, 8, 8, 8, 4]


def test_rounding_mode_intrinsics(tmp_path: pathlib.Path) -> None:
    # device_functions.h's directed-rounding variants (cuda-samples' interval arithmetic).
    _, errors = _extents(
        tmp_path,
        "__global__ void k(float *f, double *d, long long *l) {\n"
        "  f[0] = __fadd_rd(f[1], f[2]) + __fmul_ru(f[1], f[2]) + __fsqrt_rz(f[3])\n"
        "       + __fmaf_ieee_rn(f[1], f[2], f[3]) + __ull2float_rd(7ull);\n"
        "  d[0] = __dadd_ru(d[1], d[2]) + __ddiv_rz(d[1], d[2]) + __drcp_rd(d[3])\n"
        "       + __ll2double_ru(l[0]) + __uint2double_rn(3u);\n"
        "  l[0] = __double2ll_rz(d[0]) + __float2ull_ru(f[0]);\n"
        "}\n",
    )
    assert errors == []


def test_library_stubs_inside_extern_c(tmp_path: pathlib.Path) -> None:
    # freeglut_std.h includes <GL/gl.h> inside extern "C"; the stubs are templates.
    _, errors = _extents(
        tmp_path,
        'extern "C" {\n#include <GL/gl.h>\n#include <curand.h>\n}\n'
        "int main() { glFlush(); curandGenerator_t g; curandCreateGenerator(&g, "
        "CURAND_RNG_PSEUDO_DEFAULT); return 0; }\n",
    )
    assert errors == []


_LIBRARIES = r"""
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cufft.h>
#include <cufftXt.h>
#include <curand.h>
#include <cusparse.h>
#include <cusolverDn.h>
// cuda-samples' helper_cuda.h defines an error-string overload per library it sees.
#if !defined(CUBLAS_API_H_) || !defined(_CUFFT_H_) || !defined(CUSPARSEAPI) \
    || !defined(CUSOLVER_COMMON_H_) || !defined(CURAND_H_)
#error a library's guard is missing
#endif
static const char *name(cufftResult r) { return r == CUFFT_INVALID_DEVICE ? "dev" : "ok"; }
int main() {
  cublasHandle_t h; cublasCreate(&h);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_T, 1, 1, 1, nullptr, nullptr, CUDA_R_16F, 1, nullptr,
               CUDA_R_16F, 1, nullptr, nullptr, CUDA_C_32F, 1, CUBLAS_COMPUTE_32F_FAST_TF32,
               CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  cublasLtHandle_t lt; cublasLtCreate(&lt);
  cublasLtMatmulDesc_t desc; cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cufftHandle plan; cufftPlan1d(&plan, 64, CUFFT_C2C, 1);
  cudaLibXtDesc *xt = nullptr; cufftXtFree(xt);
  cusparseHandle_t sp; cusparseCreate(&sp);
  cusparseSetPointerMode(sp, CUSPARSE_POINTER_MODE_HOST);
  cusparseSpMatDescr_t m; cusparseCreateCsr(&m, 4, 4, 4, nullptr, nullptr, nullptr,
      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusolverDnHandle_t so; cusolverDnCreate(&so);
  curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_QUASI_SCRAMBLED_SOBOL64);
  return name(CUFFT_SUCCESS)[0];
}
"""


def test_host_libraries_parse_as_their_headers_declare(tmp_path: pathlib.Path) -> None:
    # The stubs are generated from the libraries' headers (tools/gen_cudart_types.py):
    # every status, enum and handle, the include guards, and a stub per function.
    _, errors = _extents(tmp_path, _LIBRARIES)
    assert errors == []


_THRUST = r"""
#include <cuda/std/functional>
#include <cuda/std/type_traits>
#include <cuda/std/cstdint>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/device_malloc.h>
#include <thrust/device_free.h>
#include <thrust/sort.h>
#include <thrust/iterator/zip_iterator.h>
int main() {
  thrust::device_vector<int> v(10);
  thrust::sequence(v.begin(), v.end());
  thrust::sort(thrust::device, v.begin(), v.end(), thrust::greater<int>());
  int s = thrust::reduce(v.begin(), v.end(), 0, thrust::plus<int>());
  int *raw = thrust::raw_pointer_cast(v.data());
  static_assert(cuda::std::is_same<cuda::std::int32_t, int>::value, "");
  cuda::std::plus<int> p;
  auto z = thrust::make_zip_iterator(thrust::make_tuple(v.begin(), v.begin()));
  thrust::host_vector<int> h = v;
  thrust::device_ptr<void> base = thrust::device_malloc(64);
  thrust::device_free(base);
  (void)z;
  return s + p(1, 2) + raw[0] + h[0] + (int)h.size();
}
"""


def test_thrust_and_libcudacxx(tmp_path: pathlib.Path) -> None:
    # nvcc finds Thrust and libcu++ (cuda::std) in the toolkit; cuda-samples' radix sort,
    # quadtree and segmentation tree include them.
    _, errors = _extents(tmp_path, _THRUST)
    assert errors == []
