"""The in-memory CUDA shim: just enough of the CUDA headers for clang to parse device code.

It is served to clang as unsaved files (never written to disk): the shim itself is
force-included with ``-include``, and empty stand-ins for the common CUDA headers live in a
virtual include directory so that ``#include <cuda_runtime.h>`` resolves. Sizes and
alignments of the vector and half types follow ``vector_types.h`` / ``cuda_fp16.h``,
because element sizes decide bank conflicts.
"""

from __future__ import annotations

#: Virtual paths (they never exist on disk; clang sees them as unsaved files).
SHIM_DIR = "/__cudalint__"
SHIM_PATH = SHIM_DIR + "/cudalint_cuda_shim.h"
INCLUDE_DIR = SHIM_DIR + "/include"

#: Headers that resolve to empty files (everything they would declare is in the shim).
EMPTY_HEADERS = (
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "cuda.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "cuda_fp16.h",
    "cuda_bf16.h",
    "vector_types.h",
    "cooperative_groups.h",
)

# (name, element C type, alignments for 1..4 components)
_VECTOR_TYPES: tuple[tuple[str, str, tuple[int, int, int, int]], ...] = (
    ("char", "signed char", (1, 2, 1, 4)),
    ("uchar", "unsigned char", (1, 2, 1, 4)),
    ("short", "short", (2, 4, 2, 8)),
    ("ushort", "unsigned short", (2, 4, 2, 8)),
    ("int", "int", (4, 8, 4, 16)),
    ("uint", "unsigned int", (4, 8, 4, 16)),
    ("long", "long", (8, 16, 8, 16)),
    ("ulong", "unsigned long", (8, 16, 8, 16)),
    ("longlong", "long long", (8, 16, 8, 16)),
    ("ulonglong", "unsigned long long", (8, 16, 8, 16)),
    ("float", "float", (4, 8, 4, 16)),
    ("double", "double", (8, 16, 8, 16)),
)

_FIELDS = ("x", "y", "z", "w")

_PRELUDE = r"""
#pragma clang system_header
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif
"""

_BUILTINS = r"""
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef enum cudaError { cudaSuccess = 0, cudaErrorUnknown = 999 } cudaError_t;
extern "C" int cudaConfigureCall(dim3 gridDim, dim3 blockDim, unsigned long sharedMem = 0,
                                 cudaStream_t stream = 0);
extern "C" __host__ cudaError_t cudaDeviceSynchronize(void);
extern "C" __host__ cudaError_t cudaMalloc(void** p, unsigned long size);
extern "C" __host__ cudaError_t cudaFree(void* p);
extern "C" __host__ cudaError_t cudaGetLastError(void);

__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);

struct __attribute__((aligned(2))) __half { unsigned short __x; };
struct __attribute__((aligned(4))) __half2 { __half x, y; };
struct __attribute__((aligned(2))) __nv_bfloat16 { unsigned short __x; };
struct __attribute__((aligned(4))) __nv_bfloat162 { __nv_bfloat16 x, y; };
typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
"""

_ATOMIC_TYPES = ("int", "unsigned int", "unsigned long long int")
_ATOMIC_FLOAT_TYPES = ("float", "double")

_FUNCTIONS = r"""
__device__ __half __float2half(float);
__device__ float __half2float(__half);
__device__ __half2 __floats2half2_rn(float, float);

#define __CUDALINT_MINMAX(T1, T2, R) \
  __host__ __device__ R min(T1 a, T2 b); __host__ __device__ R max(T1 a, T2 b);
__CUDALINT_MINMAX(int, int, int)
__CUDALINT_MINMAX(unsigned int, unsigned int, unsigned int)
__CUDALINT_MINMAX(int, unsigned int, unsigned int)
__CUDALINT_MINMAX(unsigned int, int, unsigned int)
__CUDALINT_MINMAX(long, long, long)
__CUDALINT_MINMAX(unsigned long, unsigned long, unsigned long)
__CUDALINT_MINMAX(long long, long long, long long)
__CUDALINT_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__CUDALINT_MINMAX(float, float, float)
__CUDALINT_MINMAX(double, double, double)
#undef __CUDALINT_MINMAX

__device__ float sqrtf(float); __device__ float expf(float); __device__ float __expf(float);
__device__ float fabsf(float); __device__ float rsqrtf(float); __device__ float fmaxf(float, float);
__device__ float fminf(float, float); __device__ float __fdividef(float, float);
__device__ float logf(float); __device__ float __logf(float); __device__ float sinf(float);
__device__ float cosf(float); __device__ float powf(float, float);
__device__ float fmaf(float, float, float);
__device__ float tanhf(float); __device__ float exp2f(float); __device__ float floorf(float);
__device__ float ceilf(float);
__device__ double sqrt(double); __device__ double exp(double); __device__ double fabs(double);
__device__ int abs(int);
__device__ int __popc(unsigned int); __device__ int __popcll(unsigned long long);
__device__ int __clz(int); __device__ int __ffs(int); __device__ unsigned int __brev(unsigned int);
__device__ int __mul24(int, int); __device__ unsigned int __umul24(unsigned int, unsigned int);
__device__ unsigned int __activemask(void);
__device__ unsigned int __ballot_sync(unsigned int mask, int pred);
__device__ int __any_sync(unsigned int mask, int pred);
__device__ int __all_sync(unsigned int mask, int pred);
__device__ long long clock64(void); __device__ int clock(void);
template <typename T> __device__ T __ldg(const T*);
"""

_SHFL_TYPES = (
    "int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long",
    "float", "double", "__half", "__half2",
)


def _vector_types() -> str:
    out: list[str] = []
    for name, elem, aligns in _VECTOR_TYPES:
        for n in range(1, 5):
            fields = ", ".join(_FIELDS[:n])
            out.append(
                f"struct __attribute__((aligned({aligns[n - 1]}))) {name}{n} "
                f"{{ {elem} {fields}; }};"
            )
    return "\n".join(out) + "\n"


def _make_helpers() -> str:
    out: list[str] = []
    for name, elem, _ in _VECTOR_TYPES:
        for n in range(1, 5):
            params = ", ".join(f"{elem} {f}" for f in _FIELDS[:n])
            out.append(f"__host__ __device__ {name}{n} make_{name}{n}({params});")
    return "\n".join(out) + "\n"


def _atomics() -> str:
    out: list[str] = []
    for t in _ATOMIC_TYPES:
        for op in ("Add", "Sub", "Exch", "Min", "Max", "And", "Or", "Xor"):
            out.append(f"__device__ {t} atomic{op}({t}* address, {t} val);")
        out.append(f"__device__ {t} atomicCAS({t}* address, {t} compare, {t} val);")
    # 64-bit signed min/max and the float overloads.
    out.append("__device__ long long atomicMin(long long* address, long long val);")
    out.append("__device__ long long atomicMax(long long* address, long long val);")
    out.append("__device__ unsigned int atomicInc(unsigned int* address, unsigned int val);")
    out.append("__device__ unsigned int atomicDec(unsigned int* address, unsigned int val);")
    out.append(
        "__device__ unsigned short atomicCAS(unsigned short* address, unsigned short compare,"
        " unsigned short val);"
    )
    for t in _ATOMIC_FLOAT_TYPES:
        out.append(f"__device__ {t} atomicAdd({t}* address, {t} val);")
        out.append(f"__device__ {t} atomicExch({t}* address, {t} val);")
    out.append("__device__ __half2 atomicAdd(__half2* address, __half2 val);")
    out.append("__device__ __half atomicAdd(__half* address, __half val);")
    return "\n".join(out) + "\n"


def _shuffles() -> str:
    out: list[str] = []
    for t in _SHFL_TYPES:
        out.append(
            f"__device__ {t} __shfl_sync(unsigned int mask, {t} var, int src, int width = 32);"
        )
        for v in ("up", "down"):
            out.append(
                f"__device__ {t} __shfl_{v}_sync(unsigned int mask, {t} var, unsigned int delta,"
                " int width = 32);"
            )
        out.append(
            f"__device__ {t} __shfl_xor_sync(unsigned int mask, {t} var, int lane_mask,"
            " int width = 32);"
        )
    return "\n".join(out) + "\n"


def _build() -> str:
    return (
        _PRELUDE
        + _vector_types()
        + _BUILTINS
        + _make_helpers()
        + _atomics()
        + _shuffles()
        + _FUNCTIONS
    )


#: The shim's text (built once at import).
SHIM_SOURCE = _build()


def unsaved_files() -> list[tuple[str, str]]:
    """The shim and the empty stand-in headers, as (path, contents) pairs for clang."""
    files = [(SHIM_PATH, SHIM_SOURCE)]
    files.extend((f"{INCLUDE_DIR}/{h}", "#pragma once\n") for h in EMPTY_HEADERS)
    return files
