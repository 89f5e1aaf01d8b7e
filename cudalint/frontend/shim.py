"""The in-memory CUDA shim: just enough of the CUDA headers for clang to parse device code.

It is served to clang as unsaved files (never written to disk): the shim itself is
force-included with ``-include``, and empty stand-ins for the common CUDA headers live in a
virtual include directory so that ``#include <cuda_runtime.h>`` resolves. Sizes and
alignments of the vector and half types follow ``vector_types.h`` / ``cuda_fp16.h``,
because element sizes decide bank conflicts.
"""

from __future__ import annotations

import re

#: Virtual paths (they never exist on disk; clang sees them as unsaved files).
SHIM_DIR = "/__cudalint__"
SHIM_PATH = SHIM_DIR + "/cudalint_cuda_shim.h"
INCLUDE_DIR = SHIM_DIR + "/include"
#: Stand-ins used with a real toolkit, for headers clang's CUDA wrapper includes.
STUB_DIR = SHIM_DIR + "/stubs"
STUB_HEADERS = ("curand_mtgp32_kernel.h",)

#: Headers that resolve to empty files (everything they would declare is in the shim).
EMPTY_HEADERS = (
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    # What the real cuda_runtime.h includes, which code also names directly.
    "builtin_types.h",
    "driver_types.h",
    "texture_types.h",
    "surface_types.h",
    "host_defines.h",
    "channel_descriptor.h",
    "cuda_texture_types.h",
    "cuda_surface_types.h",
    "texture_fetch_functions.h",
    "texture_indirect_functions.h",
    "surface_indirect_functions.h",
    "device_atomic_functions.h",
    "driver_functions.h",
    "math_functions.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "cuda_fp16.h",
    "cuda_fp16.hpp",
    "cuda_bf16.h",
    "cuda_bf16.hpp",
    "vector_types.h",
    "vector_functions.h",
    "sm_20_atomic_functions.h",
    "sm_60_atomic_functions.h",
    "helper_cuda.h",
    "helper_functions.h",
    "cuda_profiler_api.h",
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
#define __grid_constant__
#define __cudart_builtin__
#define CUDART_CB
#define CUDARTAPI
#define CUDAAPI
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif
/* The include guards of the headers the real cuda_runtime.h brings, which code tests to
   see whether the runtime API is there (cuda-samples' helper_cuda.h defines
   checkCudaErrors only #ifdef __DRIVER_TYPES_H__). */
#define __DRIVER_TYPES_H__
#define __CUDA_RUNTIME_H__
#define __VECTOR_TYPES_H__
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
/* The runtime's enums, structs and handle typedefs (generated; see the file). */
#include <__cudalint/cudart_types.h>
extern "C" int cudaConfigureCall(dim3 gridDim, dim3 blockDim, unsigned long sharedMem = 0,
                                 cudaStream_t stream = 0);
extern "C" __host__ __device__ cudaError_t cudaDeviceSynchronize(void);
extern "C" __host__ __device__ cudaError_t cudaMalloc(void** p, unsigned long size);
extern "C" __host__ __device__ cudaError_t cudaFree(void* p);
extern "C" __host__ __device__ cudaError_t cudaGetLastError(void);
/* Dynamic parallelism: clang lowers a launch in device code (-fgpu-rdc) to these two. */
extern "C" __device__ void* cudaGetParameterBuffer(unsigned long alignment, unsigned long size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void* func, void* parameterBuffer,
                                                   dim3 gridDimension, dim3 blockDimension,
                                                   unsigned int sharedMemSize,
                                                   cudaStream_t stream);
/* Programmatic dependent launch (CUDA 11.8+, sm_90): grid-level, not block barriers. */
__device__ void cudaGridDependencySynchronize(void);
__device__ void cudaTriggerProgrammaticLaunchCompletion(void);

__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);

/* The raw forms and the conversions cuda_fp16.hpp / cuda_bf16.hpp give: a value built
   from its bits (`__half h = __half_raw{0x3c00}`, `__hadd(raw, h)`) and back. */
struct __half_raw { unsigned short x; };
struct __half2_raw { unsigned short x, y; };
struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat162_raw { unsigned short x, y; };
struct __attribute__((aligned(2))) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(const __half_raw& r);
  __host__ __device__ __half(float f);
  __host__ __device__ __half(double f);
  __host__ __device__ __half(short i);
  __host__ __device__ __half(unsigned short i);
  __host__ __device__ __half(int i);
  __host__ __device__ __half(unsigned int i);
  __host__ __device__ __half(long long i);
  __host__ __device__ __half(unsigned long long i);
  __host__ __device__ operator float() const;
  __host__ __device__ operator __half_raw() const;
  __host__ __device__ operator __half_raw() const volatile;
};
struct __attribute__((aligned(4))) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
  __host__ __device__ __half2(const __half2_raw& r);
  __host__ __device__ operator __half2_raw() const;
};
struct __attribute__((aligned(2))) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw& r);
  __host__ __device__ __nv_bfloat16(float f);
  __host__ __device__ __nv_bfloat16(double f);
  __host__ __device__ __nv_bfloat16(short i);
  __host__ __device__ __nv_bfloat16(unsigned short i);
  __host__ __device__ __nv_bfloat16(int i);
  __host__ __device__ __nv_bfloat16(unsigned int i);
  __host__ __device__ __nv_bfloat16(long long i);
  __host__ __device__ __nv_bfloat16(unsigned long long i);
  __host__ __device__ operator float() const;
  __host__ __device__ operator __nv_bfloat16_raw() const;
  __host__ __device__ operator __nv_bfloat16_raw() const volatile;
};
struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(const __nv_bfloat162_raw& r);
  __host__ __device__ operator __nv_bfloat162_raw() const;
};
typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
typedef unsigned short __half_raw_bits;
"""

_HALF_OPS = ("__half", "__half2", "__nv_bfloat16", "__nv_bfloat162")


def _half_functions() -> str:
    out: list[str] = []
    for t in _HALF_OPS:
        for op in "+-*/":
            out.append(f"__device__ {t} operator{op}(const {t}& a, const {t}& b);")
            out.append(f"__device__ {t}& operator{op}=({t}& a, const {t}& b);")
        out.append(f"__device__ {t} operator-(const {t}& a);")
        if not t.endswith("2"):
            for op in ("==", "!=", "<", "<=", ">", ">="):
                out.append(f"__device__ bool operator{op}(const {t}& a, const {t}& b);")
    for pre, t, t2 in (("h", "__half", "__half2"), ("h", "__nv_bfloat16", "__nv_bfloat162")):
        for f in ("add", "sub", "mul", "div", "max", "min"):
            out.append(f"__device__ {t} __{pre}{f}({t} a, {t} b);")
            out.append(f"__device__ {t2} __{pre}{f}2({t2} a, {t2} b);")
        out.append(f"__device__ {t} __hfma({t} a, {t} b, {t} c);")
        out.append(f"__device__ {t2} __hfma2({t2} a, {t2} b, {t2} c);")
        out.append(f"__device__ {t} __hneg({t} a);")
        out.append(f"__device__ {t2} __hneg2({t2} a);")
        out.append(f"__device__ {t} __habs({t} a);")
        out.append(f"__device__ {t2} __habs2({t2} a);")
        out.append(f"__device__ {t} __low2{'half' if t == '__half' else 'bfloat16'}({t2} a);")
        out.append(f"__device__ {t} __high2{'half' if t == '__half' else 'bfloat16'}({t2} a);")
        out.append(f"__device__ bool __hlt({t} a, {t} b); __device__ bool __hgt({t} a, {t} b);")
        out.append(f"__device__ bool __heq({t} a, {t} b); __device__ bool __hisnan({t} a);")
        for f in ("hexp", "hlog", "hsqrt", "hrsqrt", "hrcp", "hsin", "hcos", "htanh",
                  "hexp2", "hexp10", "hlog2", "hlog10", "hceil", "hfloor", "htrunc", "hrint"):
            out.append(f"__device__ {t} {f}({t} a); __device__ {t2} {f[:1]}2{f[1:]}({t2} a);")
        for f in ("add_sat", "sub_sat", "mul_sat", "max_nan", "min_nan"):
            out.append(f"__device__ {t} __h{f}({t} a, {t} b);")
            f2 = f.replace("_", "2_", 1)
            out.append(f"__device__ {t2} __h{f2}({t2} a, {t2} b);")
        out.append(f"__device__ {t} __hfma_sat({t} a, {t} b, {t} c);")
        out.append(f"__device__ {t2} __hfma2_sat({t2} a, {t2} b, {t2} c);")
        out.append(f"__device__ {t} __hfma_relu({t} a, {t} b, {t} c);")
        out.append(f"__device__ {t2} __hfma2_relu({t2} a, {t2} b, {t2} c);")
        out.append(f"__device__ {t2} __h2div({t2} a, {t2} b);")
        out.append(f"__device__ {t2} __hcmadd({t2} a, {t2} b, {t2} c);")
        out.append(f"__host__ __device__ {t2} __lowhigh2highlow({t2} a);")
        for f in ("ne", "le", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu"):
            out.append(f"__device__ bool __h{f}({t} a, {t} b);")
        for f in ("eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu"):
            out.append(f"__device__ {t2} __h{f}2({t2} a, {t2} b);")
            out.append(f"__device__ bool __hb{f}2({t2} a, {t2} b);")
        out.append(f"__device__ int __hisinf({t} a); __device__ {t2} __hisnan2({t2} a);")
    out.append("""
__host__ __device__ __half __float2half(float); __host__ __device__ float __half2float(__half);
__host__ __device__ __half __float2half_rn(float);
__host__ __device__ __half __float2half_rz(float);
__host__ __device__ __half __double2half(double); __host__ __device__ __half __int2half_rn(int);
__host__ __device__ int __half2int_rn(__half); __host__ __device__ int __half2int_rz(__half);
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ __half2 __float2half2_rn(float);
__host__ __device__ __half2 __float22half2_rn(float2);
__host__ __device__ float2 __half22float2(__half2);
__host__ __device__ float __low2float(__half2); __host__ __device__ float __high2float(__half2);
__host__ __device__ __half2 __halves2half2(__half, __half);
__host__ __device__ __half2 __half2half2(__half);
__host__ __device__ __half2 make_half2(__half, __half);
__host__ __device__ __half2 __lows2half2(__half2, __half2);
__host__ __device__ __half2 __low2half2(__half2); __host__ __device__ __half2 __high2half2(__half2);
__host__ __device__ __half __short_as_half(short);
__host__ __device__ __half __ushort2half_rn(unsigned short);
__host__ __device__ __half __short2half_rn(short);
__host__ __device__ __half __uint2half_rn(unsigned int);
__host__ __device__ __half __ll2half_rn(long long);
__host__ __device__ __half __ull2half_rn(unsigned long long);
__host__ __device__ __half __int2half_rz(int);
__host__ __device__ __half __float2half_rd(float);
__host__ __device__ __half __float2half_ru(float);
__host__ __device__ unsigned short __half2ushort_rn(__half);
__host__ __device__ unsigned short __half2ushort_rz(__half);
__host__ __device__ short __half2short_rn(__half);
__host__ __device__ short __half2short_rz(__half);
__host__ __device__ unsigned int __half2uint_rn(__half);
__host__ __device__ unsigned int __half2uint_rz(__half);
__host__ __device__ long long __half2ll_rn(__half);
__host__ __device__ long long __half2ll_rz(__half);
__host__ __device__ __nv_bfloat162 __low2bfloat162(__nv_bfloat162);
__host__ __device__ __nv_bfloat162 __high2bfloat162(__nv_bfloat162);
__host__ __device__ __nv_bfloat162 __lows2bfloat162(__nv_bfloat162, __nv_bfloat162);
__host__ __device__ __nv_bfloat162 __highs2bfloat162(__nv_bfloat162, __nv_bfloat162);
__host__ __device__ float __low2float(__nv_bfloat162);
__host__ __device__ float __high2float(__nv_bfloat162);
__host__ __device__ int __bfloat162int_rn(__nv_bfloat16);
__host__ __device__ __nv_bfloat16 __int2bfloat16_rn(int);
__host__ __device__ short __bfloat16_as_short(__nv_bfloat16);
__host__ __device__ __nv_bfloat16 __short_as_bfloat16(short);
__host__ __device__ __half2 __highs2half2(__half2, __half2);
__host__ __device__ unsigned short __half_as_ushort(__half);
__host__ __device__ __half __ushort_as_half(unsigned short);
__host__ __device__ short __half_as_short(__half);
__host__ __device__ __nv_bfloat16 __float2bfloat16(float);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(float);
__host__ __device__ float __bfloat162float(__nv_bfloat16);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float, float);
__host__ __device__ __nv_bfloat162 __float22bfloat162_rn(float2);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(float);
__host__ __device__ float2 __bfloat1622float2(__nv_bfloat162);
__host__ __device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16, __nv_bfloat16);
__host__ __device__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16);
__host__ __device__ __nv_bfloat162 make_bfloat162(__nv_bfloat16, __nv_bfloat16);
__host__ __device__ unsigned short __bfloat16_as_ushort(__nv_bfloat16);
__host__ __device__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short);
""")
    return "\n".join(out) + "\n"

_ATOMIC_TYPES = ("int", "unsigned int", "unsigned long long int")
_ATOMIC_FLOAT_TYPES = ("float", "double")

_FUNCTIONS = r"""

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
__CUDALINT_MINMAX(long, unsigned long, unsigned long)
__CUDALINT_MINMAX(unsigned long, long, unsigned long)
__CUDALINT_MINMAX(long long, unsigned long long, unsigned long long)
__CUDALINT_MINMAX(unsigned long long, long long, unsigned long long)
__CUDALINT_MINMAX(float, float, float)
__CUDALINT_MINMAX(double, double, double)
__CUDALINT_MINMAX(float, double, double)
__CUDALINT_MINMAX(double, float, double)
#undef __CUDALINT_MINMAX

__device__ float __expf(float);
__device__ float __fdividef(float, float);
__device__ float __logf(float);
__device__ int __popc(unsigned int); __device__ int __popcll(unsigned long long);
__device__ int __clz(int); __device__ int __ffs(int); __device__ unsigned int __brev(unsigned int);
__device__ int __mul24(int, int); __device__ unsigned int __umul24(unsigned int, unsigned int);
__device__ unsigned int __activemask(void);
__device__ unsigned int __ballot_sync(unsigned int mask, int pred);
__device__ int __any_sync(unsigned int mask, int pred);
__device__ int __all_sync(unsigned int mask, int pred);
__device__ long long clock64(void);
__device__ unsigned long long __globaltimer(void);
template <typename T> __device__ T __ldg(const T*);
template <typename T> __device__ T __ldcg(const T*);
template <typename T> __device__ T __ldca(const T*);
template <typename T> __device__ T __ldcs(const T*);
template <typename T> __device__ T __ldlu(const T*);
template <typename T> __device__ T __ldcv(const T*);
template <typename T> __device__ void __stcg(T*, T);
template <typename T> __device__ void __stcs(T*, T);
template <typename T> __device__ void __stwb(T*, T);
template <typename T> __device__ void __stwt(T*, T);
__device__ unsigned long __cvta_generic_to_shared(const void*);
__device__ unsigned long __cvta_generic_to_global(const void*);
__device__ void* __cvta_shared_to_generic(unsigned long);
__device__ unsigned int __isShared(const void*);
__device__ unsigned int __isGlobal(const void*);
__device__ int __float_as_int(float); __device__ float __int_as_float(int);
__device__ unsigned int __float_as_uint(float); __device__ float __uint_as_float(unsigned int);
__device__ long long __double_as_longlong(double);
__device__ double __longlong_as_double(long long);
__device__ int __float2int_rn(float); __device__ int __float2int_rz(float);
__device__ int __float2int_rd(float); __device__ int __float2int_ru(float);
__device__ unsigned int __float2uint_rn(float); __device__ float __int2float_rn(int);
__device__ float __uint2float_rn(unsigned int); __device__ float __ll2float_rn(long long);
__device__ float __fmul_rn(float, float); __device__ float __fadd_rn(float, float);
__device__ float __fsub_rn(float, float); __device__ float __fmaf_rn(float, float, float);
__device__ float __fdiv_rn(float, float); __device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float); __device__ float __frsqrt_rn(float);
__device__ float __saturatef(float); __device__ float __sinf(float); __device__ float __cosf(float);
__device__ float __tanf(float);
__device__ float __powf(float, float);
__device__ float __exp10f(float);
__device__ float __log2f(float); __device__ float __log10f(float);
__device__ void __sincosf(float, float*, float*);
__host__ __device__ float rcbrtf(float);
__host__ __device__ float sinpif(float);
__host__ __device__ float cospif(float); __host__ __device__ float normcdff(float);
__host__ __device__ double rsqrt(double);
__device__ double __dadd_rn(double, double); __device__ double __dmul_rn(double, double);
__device__ double __fma_rn(double, double, double); __device__ double __drcp_rn(double);
__device__ float __double2float_rn(double); __device__ int __double2int_rn(double);
__host__ __device__ int __isnanf(float); __host__ __device__ int __isinff(float);
__device__ int __clzll(long long); __device__ int __ffsll(long long);
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned int __umulhi(unsigned int, unsigned int); __device__ int __mulhi(int, int);
__device__ unsigned long long __umul64hi(unsigned long long, unsigned long long);
__device__ long long __mul64hi(long long, long long);
__device__ int __hadd(int, int); __device__ int __rhadd(int, int);
__device__ unsigned int __uhadd(unsigned int, unsigned int);
__device__ unsigned int __urhadd(unsigned int, unsigned int);
__device__ unsigned int __sad(int, int, unsigned int);
__device__ unsigned int __usad(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __byte_perm(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_lc(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_rc(unsigned int, unsigned int, unsigned int);
__device__ int __dp4a(int, int, int);
__device__ unsigned int __dp4a(unsigned int, unsigned int, unsigned int);
__device__ int __dp2a_lo(int, int, int); __device__ int __dp2a_hi(int, int, int);
__device__ unsigned int __vabsdiffu4(unsigned int, unsigned int);
__device__ unsigned int __vadd4(unsigned int, unsigned int);
__device__ unsigned int __vmaxu4(unsigned int, unsigned int);
/* The SIMD video intrinsics (two or four lanes of one 32-bit word). */
__device__ unsigned int __vabsdiffs2(unsigned int, unsigned int);
__device__ unsigned int __vabsdiffs4(unsigned int, unsigned int);
__device__ unsigned int __vabsdiffu2(unsigned int, unsigned int);
__device__ unsigned int __vadd2(unsigned int, unsigned int);
__device__ unsigned int __vaddss2(unsigned int, unsigned int);
__device__ unsigned int __vaddss4(unsigned int, unsigned int);
__device__ unsigned int __vaddus2(unsigned int, unsigned int);
__device__ unsigned int __vaddus4(unsigned int, unsigned int);
__device__ unsigned int __vavgs2(unsigned int, unsigned int);
__device__ unsigned int __vavgs4(unsigned int, unsigned int);
__device__ unsigned int __vavgu2(unsigned int, unsigned int);
__device__ unsigned int __vavgu4(unsigned int, unsigned int);
__device__ unsigned int __vcmpeq2(unsigned int, unsigned int);
__device__ unsigned int __vcmpeq4(unsigned int, unsigned int);
__device__ unsigned int __vcmpges2(unsigned int, unsigned int);
__device__ unsigned int __vcmpges4(unsigned int, unsigned int);
__device__ unsigned int __vcmpgeu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpgeu4(unsigned int, unsigned int);
__device__ unsigned int __vcmpgts2(unsigned int, unsigned int);
__device__ unsigned int __vcmpgts4(unsigned int, unsigned int);
__device__ unsigned int __vcmpgtu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpgtu4(unsigned int, unsigned int);
__device__ unsigned int __vcmples2(unsigned int, unsigned int);
__device__ unsigned int __vcmples4(unsigned int, unsigned int);
__device__ unsigned int __vcmpleu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpleu4(unsigned int, unsigned int);
__device__ unsigned int __vcmplts2(unsigned int, unsigned int);
__device__ unsigned int __vcmplts4(unsigned int, unsigned int);
__device__ unsigned int __vcmpltu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpltu4(unsigned int, unsigned int);
__device__ unsigned int __vcmpne2(unsigned int, unsigned int);
__device__ unsigned int __vcmpne4(unsigned int, unsigned int);
__device__ unsigned int __vhaddu2(unsigned int, unsigned int);
__device__ unsigned int __vhaddu4(unsigned int, unsigned int);
__device__ unsigned int __vmaxs2(unsigned int, unsigned int);
__device__ unsigned int __vmaxs4(unsigned int, unsigned int);
__device__ unsigned int __vmaxu2(unsigned int, unsigned int);
__device__ unsigned int __vmins2(unsigned int, unsigned int);
__device__ unsigned int __vmins4(unsigned int, unsigned int);
__device__ unsigned int __vminu2(unsigned int, unsigned int);
__device__ unsigned int __vminu4(unsigned int, unsigned int);
__device__ unsigned int __vsads2(unsigned int, unsigned int);
__device__ unsigned int __vsads4(unsigned int, unsigned int);
__device__ unsigned int __vsadu2(unsigned int, unsigned int);
__device__ unsigned int __vsadu4(unsigned int, unsigned int);
__device__ unsigned int __vseteq2(unsigned int, unsigned int);
__device__ unsigned int __vseteq4(unsigned int, unsigned int);
__device__ unsigned int __vsetges2(unsigned int, unsigned int);
__device__ unsigned int __vsetges4(unsigned int, unsigned int);
__device__ unsigned int __vsetgeu2(unsigned int, unsigned int);
__device__ unsigned int __vsetgeu4(unsigned int, unsigned int);
__device__ unsigned int __vsetgts2(unsigned int, unsigned int);
__device__ unsigned int __vsetgts4(unsigned int, unsigned int);
__device__ unsigned int __vsetgtu2(unsigned int, unsigned int);
__device__ unsigned int __vsetgtu4(unsigned int, unsigned int);
__device__ unsigned int __vsetles2(unsigned int, unsigned int);
__device__ unsigned int __vsetles4(unsigned int, unsigned int);
__device__ unsigned int __vsetleu2(unsigned int, unsigned int);
__device__ unsigned int __vsetleu4(unsigned int, unsigned int);
__device__ unsigned int __vsetlts2(unsigned int, unsigned int);
__device__ unsigned int __vsetlts4(unsigned int, unsigned int);
__device__ unsigned int __vsetltu2(unsigned int, unsigned int);
__device__ unsigned int __vsetltu4(unsigned int, unsigned int);
__device__ unsigned int __vsetne2(unsigned int, unsigned int);
__device__ unsigned int __vsetne4(unsigned int, unsigned int);
__device__ unsigned int __vsub2(unsigned int, unsigned int);
__device__ unsigned int __vsub4(unsigned int, unsigned int);
__device__ unsigned int __vsubss2(unsigned int, unsigned int);
__device__ unsigned int __vsubss4(unsigned int, unsigned int);
__device__ unsigned int __vsubus2(unsigned int, unsigned int);
__device__ unsigned int __vsubus4(unsigned int, unsigned int);
__device__ unsigned int __vabs2(unsigned int); __device__ unsigned int __vabs4(unsigned int);
__device__ unsigned int __vabsss2(unsigned int);
__device__ unsigned int __vabsss4(unsigned int); __device__ unsigned int __vneg2(unsigned int);
__device__ unsigned int __vneg4(unsigned int); __device__ unsigned int __vnegss2(unsigned int);
__device__ unsigned int __vnegss4(unsigned int);
__device__ unsigned int __fns(unsigned int, unsigned int, int);
__device__ unsigned int __lanemask_lt(void); __device__ unsigned int __lanemask_le(void);
__device__ unsigned int __lanemask_eq(void); __device__ unsigned int __lanemask_gt(void);
__device__ unsigned int __lanemask_ge(void);
__device__ unsigned int __match_any_sync(unsigned int mask, int value);
__device__ unsigned int __match_any_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __match_any_sync(unsigned int mask, long long value);
__device__ unsigned int __match_any_sync(unsigned int mask, unsigned long long value);
__device__ unsigned int __match_any_sync(unsigned int mask, float value);
__device__ unsigned int __match_all_sync(unsigned int mask, int value, int* pred);
__device__ unsigned int __match_all_sync(unsigned int mask, unsigned int value, int* pred);
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_add_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_min_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_max_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __ballot(int); __device__ int __any(int); __device__ int __all(int);
__device__ void __nanosleep(unsigned int);
__device__ void __trap(void);
__device__ void __brkpt(void);
__device__ void __prof_trigger(int);
__device__ int __syncthreads_count(int);
__device__ void __barrier_sync(unsigned int);
__device__ unsigned int __smid(void) ;
__host__ __device__ unsigned int umin(unsigned int, unsigned int);
__host__ __device__ unsigned int umax(unsigned int, unsigned int);
__host__ __device__ long long llmin(long long, long long);
__host__ __device__ long long llmax(long long, long long);
__host__ __device__ unsigned long long ullmin(unsigned long long, unsigned long long);
__host__ __device__ unsigned long long ullmax(unsigned long long, unsigned long long);
/* What the real cuda_runtime.h brings into every nvcc translation unit (through
   crt/common_functions.h, crt/math_functions.h, host_defines.h, driver_types.h): the C
   library with CUDA's __host__ __device__ printf/malloc/memcpy/math, <new>, <cmath>,
   <cstdlib> and <utility>. They resolve to cudalint's hermetic standard library
   (cudalint/frontend/stdinc), searched after every user directory. */
#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>
#include <math.h>
#include <cmath>
#include <cstdlib>
#include <cstdarg>
#include <utility>
__host__ __device__ float rsqrtf(float);
__host__ __device__ double rcbrt(double);
__host__ __device__ float sinpif(float);
__host__ __device__ double sinpi(double);
__host__ __device__ double cospi(double);
__host__ __device__ void sincospif(float, float*, float*);
__host__ __device__ void sincospi(double, double*, double*);
__host__ __device__ double normcdf(double);
__host__ __device__ float normcdfinvf(float);
__host__ __device__ double normcdfinv(double);
__host__ __device__ float erfinvf(float);
__host__ __device__ double erfinv(double);
__host__ __device__ float erfcinvf(float);
__host__ __device__ double erfcinv(double);
__host__ __device__ float erfcxf(float);
__host__ __device__ double erfcx(double);
__device__ float rhypotf(float, float);
__device__ double rhypot(double, double);
__device__ float norm3df(float, float, float);
__device__ double norm3d(double, double, double);
__device__ float rnorm3df(float, float, float);
__device__ double rnorm3d(double, double, double);
__device__ float norm4df(float, float, float, float);
__device__ float rnorm4df(float, float, float, float);
__device__ float fdividef(float, float);
__device__ double fdivide(double, double);
__device__ void __pipeline_memcpy_async(void* dst, const void* src, unsigned long size,
                                        unsigned long zfill = 0);
__device__ void __pipeline_commit(void);
__device__ void __pipeline_wait_prior(unsigned long prior);
__device__ void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value);
"""

#: The driver API functions that cudalint reads (a launch, the kernel a module names), with
#: cuda.h's signatures; the generated ``__cudalint/cuda_driver.h`` has a stub that takes any
#: arguments for every other one (``tools/gen_cudart_types.py`` leaves these out).
DRIVER_API = r"""
#ifdef __cplusplus
extern "C" {
#endif
CUresult cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name);
CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                        unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                        void** kernelParams, void** extra);
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                   unsigned int gridDimZ, unsigned int blockDimX,
                                   unsigned int blockDimY, unsigned int blockDimZ,
                                   unsigned int sharedMemBytes, CUstream hStream,
                                   void** kernelParams);
#ifdef __cplusplus
}
#endif
"""

#: Host-side runtime API that samples and applications call around their launches (the
#: part the device runtime also offers is ``__host__ __device__``, for dynamic parallelism).
_HOST_API = r"""
extern "C" {
__host__ __device__ const char* cudaGetErrorString(cudaError_t);
__host__ __device__ const char* cudaGetErrorName(cudaError_t);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ cudaError_t cudaMemcpy(void*, const void*, unsigned long, cudaMemcpyKind);
__host__ __device__ cudaError_t cudaMemcpyAsync(void*, const void*, unsigned long, cudaMemcpyKind,
                                     cudaStream_t stream = 0);
__host__ cudaError_t cudaMemset(void*, int, unsigned long);
__host__ __device__ cudaError_t cudaMemsetAsync(void*, int, unsigned long, cudaStream_t stream = 0);
__host__ cudaError_t cudaMallocHost(void**, unsigned long);
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
__host__ cudaError_t cudaMallocManaged(void**, unsigned long, unsigned int flags = 1);
__host__ cudaError_t cudaMallocAsync(void**, unsigned long, cudaStream_t);
__host__ cudaError_t cudaFreeAsync(void*, cudaStream_t);
__host__ cudaError_t cudaFreeHost(void*);
__host__ cudaError_t cudaHostAlloc(void**, unsigned long, unsigned int);
__host__ cudaError_t cudaSetDevice(int);
__host__ __device__ cudaError_t cudaGetDevice(int*);
__host__ cudaError_t cudaGetDeviceCount(int*);
__host__ cudaError_t cudaGetDeviceProperties(cudaDeviceProp*, int);
__host__ __device__ cudaError_t cudaDeviceGetAttribute(int*, int, int);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig);
__host__ cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig*);
__host__ cudaError_t cudaStreamCreate(cudaStream_t*);
__host__ __device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t*, unsigned int);
__host__ __device__ cudaError_t cudaStreamDestroy(cudaStream_t);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t);
__host__ cudaError_t cudaEventCreate(cudaEvent_t*);
__host__ __device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t*, unsigned int);
__host__ __device__ cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t stream = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t);
__host__ cudaError_t cudaEventElapsedTime(float*, cudaEvent_t, cudaEvent_t);
__host__ __device__ cudaError_t cudaEventDestroy(cudaEvent_t);
__host__ cudaError_t cudaFuncSetAttribute(const void*, enum cudaFuncAttribute, int);
__host__ cudaError_t cudaFuncSetSharedMemConfig(const void*, enum cudaSharedMemConfig);
__host__ cudaError_t cudaMemcpyToSymbol(const void*, const void*, unsigned long,
                                        unsigned long offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyFromSymbol(void*, const void*, unsigned long,
                                          unsigned long offset = 0,
                                          cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int*, const void*, int,
                                                                   unsigned long);
__host__ cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, unsigned long,
                                      cudaStream_t);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**,
                                                 unsigned long, cudaStream_t);
__host__ cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t*, const void*, void**);
}
template <class T> __host__ cudaError_t cudaFuncSetAttribute(T* f, enum cudaFuncAttribute a,
                                                             int v) {
  return cudaFuncSetAttribute((const void*)f, a, v);
}
extern "C" __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(
    int x, int y, int z, int w, enum cudaChannelFormatKind f);
template <class T> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
extern "C" __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes*, const void*);
extern "C" __host__ cudaError_t cudaProfilerStart(void);
extern "C" __host__ cudaError_t cudaProfilerStop(void);
template <class T> __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* a, T* f) {
  return cudaFuncGetAttributes(a, (const void*)f);
}
/* Texture and surface object fetches (texture_indirect_functions.h,
   surface_indirect_functions.h): both the value-returning and the out-pointer forms. */
#define __CUDALINT_TEX(name, ...) \
  template <class T> __device__ T name(cudaTextureObject_t, __VA_ARGS__); \
  template <class T> __device__ void name(T*, cudaTextureObject_t, __VA_ARGS__);
__CUDALINT_TEX(tex1Dfetch, int)
__CUDALINT_TEX(tex1D, float)
__CUDALINT_TEX(tex2D, float, float)
__CUDALINT_TEX(tex3D, float, float, float)
__CUDALINT_TEX(tex1DLayered, float, int)
__CUDALINT_TEX(tex2DLayered, float, float, int)
__CUDALINT_TEX(texCubemap, float, float, float)
__CUDALINT_TEX(texCubemapLayered, float, float, float, int)
__CUDALINT_TEX(tex1DLod, float, float)
__CUDALINT_TEX(tex2DLod, float, float, float)
__CUDALINT_TEX(tex3DLod, float, float, float, float)
__CUDALINT_TEX(tex2DLayeredLod, float, float, int, float)
__CUDALINT_TEX(tex1DGrad, float, float, float)
__CUDALINT_TEX(tex2DGrad, float, float, float2, float2)
__CUDALINT_TEX(tex3DGrad, float, float, float, float4, float4)
template <class T> __device__ T tex2Dgather(cudaTextureObject_t, float, float, int comp = 0);
#undef __CUDALINT_TEX
template <class T> __device__ T surf1Dread(cudaSurfaceObject_t, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ T surf3Dread(cudaSurfaceObject_t, int, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1Dread(T*, cudaSurfaceObject_t, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2Dread(T*, cudaSurfaceObject_t, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf3Dread(T*, cudaSurfaceObject_t, int, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1Dwrite(T, cudaSurfaceObject_t, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ T surf1DLayeredread(cudaSurfaceObject_t, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ T surf2DLayeredread(cudaSurfaceObject_t, int, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1DLayeredwrite(T, cudaSurfaceObject_t, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2DLayeredwrite(T, cudaSurfaceObject_t, int, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ T surfCubemapread(cudaSurfaceObject_t, int, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surfCubemapwrite(T, cudaSurfaceObject_t, int, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf3Dwrite(T, cudaSurfaceObject_t, int, int, int,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ cudaError_t cudaMalloc(T** p, unsigned long size) {
  return cudaMalloc((void**)p, size);
}
template <class T> __host__ cudaError_t cudaMallocHost(T** p, unsigned long size) {
  return cudaMallocHost((void**)p, size);
}
/* with flags (cudaHostAlloc's): cuda_runtime.h's C++ overload */
template <class T> __host__ cudaError_t cudaMallocHost(T** p, unsigned long size,
                                                       unsigned int flags);
template <class T> __host__ cudaError_t cudaMallocManaged(T** p, unsigned long size,
                                                          unsigned int flags = 1) {
  return cudaMallocManaged((void**)p, size, flags);
}
/* The rest of cuda_runtime.h's C++ API: typed pointers, symbols by reference, kernels by
   function pointer. */
template <class T> __host__ cudaError_t cudaMallocAsync(T** p, unsigned long size,
                                                        cudaStream_t stream);
/* from a memory pool (CUDA 11.2+): cudaMallocFromPoolAsync under the C++ name */
__host__ cudaError_t cudaMallocAsync(void** p, unsigned long size, cudaMemPool_t pool,
                                     cudaStream_t stream);
template <class T> __host__ cudaError_t cudaMallocAsync(T** p, unsigned long size,
                                                        cudaMemPool_t pool, cudaStream_t stream);
template <class T> __host__ cudaError_t cudaHostAlloc(T** p, unsigned long size,
                                                      unsigned int flags);
template <class T> __host__ cudaError_t cudaMallocPitch(T** p, unsigned long* pitch,
                                                       unsigned long width,
                                                       unsigned long height);
template <class T> __host__ cudaError_t cudaMemcpyToSymbol(
    const T& symbol, const void* src, unsigned long count, unsigned long offset = 0,
    cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T> __host__ cudaError_t cudaMemcpyFromSymbol(
    void* dst, const T& symbol, unsigned long count, unsigned long offset = 0,
    cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T> __host__ cudaError_t cudaMemcpyToSymbolAsync(
    const T& symbol, const void* src, unsigned long count, unsigned long offset = 0,
    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0);
template <class T> __host__ cudaError_t cudaMemcpyFromSymbolAsync(
    void* dst, const T& symbol, unsigned long count, unsigned long offset = 0,
    cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0);
template <class T> __host__ cudaError_t cudaGetSymbolAddress(void** devPtr, const T& symbol);
template <class T> __host__ cudaError_t cudaGetSymbolSize(unsigned long* size, const T& symbol);
template <class T> __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(
    int* minGridSize, int* blockSize, T func, unsigned long dynamicSMemSize = 0,
    int blockSizeLimit = 0);
template <class U, class T> __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int* minGridSize, int* blockSize, T func, U blockSizeToDynamicSMemSize,
    int blockSizeLimit = 0);
template <class T> __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int* numBlocks, T func, int blockSize, unsigned long dynamicSMemSize);
template <class T> __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, T func, int blockSize, unsigned long dynamicSMemSize, unsigned int flags);
template <class T> __host__ cudaError_t cudaLaunchKernel(
    const T* func, dim3 gridDim, dim3 blockDim, void** args, unsigned long sharedMem = 0,
    cudaStream_t stream = 0);
template <class T> __host__ cudaError_t cudaLaunchCooperativeKernel(
    const T* func, dim3 gridDim, dim3 blockDim, void** args, unsigned long sharedMem = 0,
    cudaStream_t stream = 0);
/* Not in cuda_runtime.h: the kernel itself as the first argument, without the cast to
   'const void*' (its 'const T*' does not take a function; GCC before 13 let it through,
   and code in use relies on it). */
template <class... A> __host__ cudaError_t cudaLaunchKernel(
    void (*func)(A...), dim3 gridDim, dim3 blockDim, void** args, unsigned long sharedMem = 0,
    cudaStream_t stream = 0);
template <class... A> __host__ cudaError_t cudaLaunchCooperativeKernel(
    void (*func)(A...), dim3 gridDim, dim3 blockDim, void** args, unsigned long sharedMem = 0,
    cudaStream_t stream = 0);
template <class... ExpTypes, class... ActTypes> __host__ cudaError_t cudaLaunchKernelEx(
    const cudaLaunchConfig_t* config, void (*kernel)(ExpTypes...), ActTypes&&... args);
template <class T> __host__ cudaError_t cudaFuncSetCacheConfig(T* func,
                                                               enum cudaFuncCache config);
__host__ cudaError_t cudaEventCreate(cudaEvent_t* event, unsigned int flags);
/* driver_functions.h */
static inline __host__ struct cudaPitchedPtr make_cudaPitchedPtr(void* d, unsigned long p,
                                                                 unsigned long xsz,
                                                                 unsigned long ysz) {
  struct cudaPitchedPtr s; s.ptr = d; s.pitch = p; s.xsize = xsz; s.ysize = ysz; return s;
}
static inline __host__ struct cudaPos make_cudaPos(unsigned long x, unsigned long y,
                                                   unsigned long z) {
  struct cudaPos p; p.x = x; p.y = y; p.z = z; return p;
}
static inline __host__ struct cudaExtent make_cudaExtent(unsigned long w, unsigned long h,
                                                         unsigned long d) {
  struct cudaExtent e; e.width = w; e.height = h; e.depth = d; return e;
}
"""

_SHFL_TYPES = (
    "int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long",
    "float", "double", "__half", "__half2", "__nv_bfloat16", "__nv_bfloat162",
)


#: CUDA 13's explicitly aligned 4-component forms of the 8-byte types.
_ALIGNED_4 = ("long", "ulong", "longlong", "ulonglong", "double")


def _vector_types() -> str:
    out: list[str] = []
    for name, elem, aligns in _VECTOR_TYPES:
        for n in range(1, 5):
            fields = ", ".join(_FIELDS[:n])
            out.append(
                f"struct __attribute__((aligned({aligns[n - 1]}))) {name}{n} "
                f"{{ {elem} {fields}; }};"
            )
        if name in _ALIGNED_4:
            for a in (16, 32):
                out.append(
                    f"struct __attribute__((aligned({a}))) {name}4_{a}a {{ {elem} x, y, z, w; }};"
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
            for scope in ("", "_block", "_system"):
                out.append(f"__device__ {t} atomic{op}{scope}({t}* address, {t} val);")
        for scope in ("", "_block", "_system"):
            out.append(
                f"__device__ {t} atomicCAS{scope}({t}* address, {t} compare, {t} val);")
    for t in ("float2", "float4", "__nv_bfloat16", "__nv_bfloat162"):
        out.append(f"__device__ {t} atomicAdd({t}* address, {t} val);")
    for t in _ATOMIC_FLOAT_TYPES:
        for scope in ("_block", "_system"):
            out.append(f"__device__ {t} atomicAdd{scope}({t}* address, {t} val);")
    # 64-bit signed min/max and the float overloads.
    out.append("__device__ long long atomicMin(long long* address, long long val);")
    out.append("__device__ long long atomicMax(long long* address, long long val);")
    for scope in ("", "_block", "_system"):
        for op in ("Inc", "Dec"):
            out.append(f"__device__ unsigned int atomic{op}{scope}(unsigned int* address,"
                       " unsigned int val);")
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


#: The rounding-mode intrinsics of device_functions.h / device_double_functions.h:
#: (name stem, result, parameters, rounding modes).
_ROUNDING: tuple[tuple[str, str, str, str], ...] = (
    *((f"__f{op}", "float", "float, float", "rn rz ru rd")
      for op in ("add", "sub", "mul", "div")),
    ("__fmaf", "float", "float, float, float", "rn rz ru rd"),
    ("__fmaf_ieee", "float", "float, float, float", "rn rz ru rd"),
    ("__frcp", "float", "float", "rn rz ru rd"),
    ("__fsqrt", "float", "float", "rn rz ru rd"),
    ("__frsqrt", "float", "float", "rn"),
    *((f"__d{op}", "double", "double, double", "rn rz ru rd")
      for op in ("add", "sub", "mul", "div")),
    ("__fma", "double", "double, double, double", "rn rz ru rd"),
    ("__drcp", "double", "double", "rn rz ru rd"),
    ("__dsqrt", "double", "double", "rn rz ru rd"),
    *((f"__float2{t}", r, "float", "rn rz ru rd") for t, r in (
        ("int", "int"), ("uint", "unsigned int"), ("ll", "long long"),
        ("ull", "unsigned long long"))),
    *((f"__double2{t}", r, "double", "rn rz ru rd") for t, r in (
        ("float", "float"), ("int", "int"), ("uint", "unsigned int"), ("ll", "long long"),
        ("ull", "unsigned long long"))),
    *((f"__{t}2float", "float", p, "rn rz ru rd") for t, p in (
        ("int", "int"), ("uint", "unsigned int"), ("ll", "long long"),
        ("ull", "unsigned long long"))),
    ("__int2double", "double", "int", "rn"),
    ("__uint2double", "double", "unsigned int", "rn"),
    ("__ll2double", "double", "long long", "rn rz ru rd"),
    ("__ull2double", "double", "unsigned long long", "rn rz ru rd"),
)


def _rounding_intrinsics() -> str:
    """Every rounding-mode variant (``__fadd_rd``, ``__double2ll_rz``, ...); a redeclaration
    of one the shim already has is harmless."""
    return "\n".join(
        f"__device__ {result} {stem}_{mode}({params});"
        for stem, result, params, modes in _ROUNDING for mode in modes.split()
    ) + "\n"


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


def _legacy_shuffles() -> str:
    out: list[str] = []
    for t in ("int", "unsigned int", "float", "double", "long long", "unsigned long long"):
        out.append(f"__device__ {t} __shfl({t} var, int src, int width = 32);")
        for v in ("up", "down"):
            out.append(f"__device__ {t} __shfl_{v}({t} var, unsigned int d, int width = 32);")
        out.append(f"__device__ {t} __shfl_xor({t} var, int m, int width = 32);")
    return "\n".join(out) + "\n"



#: C types of the short names in cuda_fp16.h's and cuda_bf16.h's conversions.
_CONV_TYPES = {"char": "signed char", "uchar": "unsigned char", "short": "short",
               "ushort": "unsigned short", "int": "int", "uint": "unsigned int",
               "ll": "long long", "ull": "unsigned long long"}


def _half_conversions() -> str:
    """The rest of cuda_fp16.h's and cuda_bf16.h's conversions, roundings and masks that
    :func:`_half_functions` leaves out (DeepSpeed's ``__half2ull_rn``): host and device,
    as CUDA 12's headers declare most of them."""
    have = set(re.findall(r"\b(__\w+)\s*\(", _half_functions()))
    out: list[str] = []

    def add(ret: str, name: str, params: str) -> None:
        if name not in have:
            have.add(name)
            out.append(f"__host__ __device__ {ret} {name}({params});")

    for h, t in (("half", "__half"), ("bfloat16", "__nv_bfloat16")):
        for short, c in _CONV_TYPES.items():
            # 8-bit conversions come rounded toward zero only
            for r in ("rz",) if short in ("char", "uchar") else ("rn", "rz", "rd", "ru"):
                add(c, f"__{h}2{short}_{r}", t)
                if short not in ("char", "uchar"):
                    add(t, f"__{short}2{h}_{r}", c)
    add("__nv_bfloat16", "__double2bfloat16", "double")
    for r in ("rd", "ru", "rz"):
        add("__nv_bfloat16", f"__float2bfloat16_{r}", "float")
    for t, t2 in (("__half", "__half2"), ("__nv_bfloat16", "__nv_bfloat162")):
        for f in ("add", "sub", "mul"):
            out.append(f"__device__ {t} __h{f}_rn({t} a, {t} b);")
            out.append(f"__device__ {t2} __h{f}2_rn({t2} a, {t2} b);")
        for f in ("eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu"):
            out.append(f"__device__ unsigned __h{f}2_mask({t2} a, {t2} b);")
    return "\n".join(out) + "\n"


def _build() -> str:
    return (
        _PRELUDE
        + _vector_types()
        + _BUILTINS
        + _make_helpers()
        + _atomics()
        + _shuffles()
        + _legacy_shuffles()
        + _FUNCTIONS
        + _rounding_intrinsics()
        + _half_functions()
        + _half_conversions()
        + _HOST_API
    )


#: Headers with contents of their own (included only where the source includes them).
HEADERS: dict[str, str] = {
    "cooperative_groups.h": r"""
#pragma once
#include <stdint.h>
namespace cooperative_groups {
class thread_group {
 public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
};
class thread_block : public thread_group {
 public:
  __device__ void sync() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};
class grid_group {
 public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long num_threads() const;
  __device__ bool is_valid() const;
};
class coalesced_group : public thread_group {
 public:
  __device__ void sync() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <class T> __device__ T shfl(T var, int src) const;
  template <class T> __device__ T shfl_down(T var, int delta) const;
  template <class T> __device__ T shfl_up(T var, int delta) const;
  __device__ int any(int pred) const;
  __device__ int all(int pred) const;
  __device__ unsigned int ballot(int pred) const;
  template <class T> __device__ unsigned int match_any(T val) const;
  template <class T> __device__ unsigned int match_all(T val, int& pred) const;
};
template <unsigned int Size, class ParentT = void>
class thread_block_tile : public thread_group {
 public:
  __device__ void sync() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <class T> __device__ T shfl(T var, int src) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned int mask) const;
  __device__ int any(int pred) const;
  __device__ int all(int pred) const;
  __device__ unsigned int ballot(int pred) const;
  template <class T> __device__ unsigned int match_any(T val) const;
  template <class P> __device__ operator thread_block_tile<Size, P>() const;
};
template <unsigned int MaxBlockSize = 1024, unsigned int Stages = 1> struct block_tile_memory {
  unsigned char storage[16];
};
__device__ thread_block this_thread_block();
template <unsigned int N, unsigned int S>
__device__ thread_block this_thread_block(block_tile_memory<N, S>& scratch);
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent);
__device__ thread_group tiled_partition(const thread_group& parent, unsigned int size);
template <class G> __device__ void sync(const G& g);
template <class G> __device__ coalesced_group binary_partition(const G& g, bool pred);
template <class G> __device__ coalesced_group labeled_partition(const G& g, int label);
template <class G> __device__ coalesced_group labeled_partition(const G& g, unsigned int label);
template <class T> struct plus { __device__ T operator()(T a, T b) const; };
template <class T> struct less { __device__ T operator()(T a, T b) const; };
template <class T> struct greater { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const; };
template <class G, class T, class Op> __device__ T reduce(const G& g, T val, Op op);
template <class G, class T, class Op> __device__ T inclusive_scan(const G& g, T val, Op op);
template <class G, class T, class Op> __device__ T exclusive_scan(const G& g, T val, Op op);
template <class G, class T> __device__ T inclusive_scan(const G& g, T val);
template <class G, class T> __device__ T exclusive_scan(const G& g, T val);
template <class G, class T>
__device__ void memcpy_async(const G& g, T* dst, const T* src, unsigned long bytes);
template <class G, class T, class Size>
__device__ void memcpy_async(const G& g, T* dst, const T* src, const Size& bytes);
template <class G> __device__ void wait(const G& g);
template <class G> __device__ void wait_prior(const G& g);
}  // namespace cooperative_groups
""",
    "cooperative_groups/reduce.h": '#pragma once\n#include <cooperative_groups.h>\n',
    "cooperative_groups/scan.h": '#pragma once\n#include <cooperative_groups.h>\n',
    "cooperative_groups/memcpy_async.h": '#pragma once\n#include <cooperative_groups.h>\n',
    "cuda_pipeline.h": "#pragma once\n",
    "cuda_pipeline_primitives.h": "#pragma once\n",
    "cuda_awbarrier.h": "#pragma once\n",
    "cuda/pipeline": r"""
#pragma once
namespace cuda {
enum thread_scope {
  thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2,
  thread_scope_thread = 3
};
template <thread_scope Scope> class pipeline {
 public:
  __device__ void producer_acquire();
  __device__ void producer_commit();
  __device__ void consumer_wait();
  __device__ void consumer_release();
  __device__ bool quit();
};
template <thread_scope Scope, unsigned char Stages = 1> struct pipeline_shared_state {};
enum class pipeline_role { producer, consumer };
template <unsigned char Prior, thread_scope Scope>
__device__ void pipeline_consumer_wait_prior(pipeline<Scope>& pipe);
template <class Group, thread_scope Scope, unsigned char Stages>
__device__ pipeline<Scope> make_pipeline(const Group& g,
                                         pipeline_shared_state<Scope, Stages>* state,
                                         pipeline_role role);
template <class Group, thread_scope Scope, unsigned char Stages>
__device__ pipeline<Scope> make_pipeline(const Group& g,
                                         pipeline_shared_state<Scope, Stages>* state,
                                         unsigned long producer_count);
__device__ pipeline<thread_scope_thread> make_pipeline();
template <class Group, thread_scope Scope, unsigned char Stages>
__device__ pipeline<Scope> make_pipeline(const Group& g,
                                         pipeline_shared_state<Scope, Stages>* state);
template <unsigned long N> struct aligned_size_t {
  unsigned long value;
  __host__ __device__ constexpr aligned_size_t(unsigned long v) : value(v) {}
};
template <class T, thread_scope Scope>
__device__ void memcpy_async(T* dst, const T* src, unsigned long size, pipeline<Scope>& p);
template <class T, unsigned long N, thread_scope Scope>
__device__ void memcpy_async(T* dst, const T* src, aligned_size_t<N> size,
                             pipeline<Scope>& p);
template <class Group, class T, thread_scope Scope>
__device__ void memcpy_async(const Group& g, T* dst, const T* src, unsigned long size,
                             pipeline<Scope>& p);
template <thread_scope Scope> class barrier {
 public:
  struct arrival_token {};
  __device__ arrival_token arrive(long update = 1);
  __device__ void wait(arrival_token&& token) const;
  __device__ void arrive_and_wait();
  __device__ void arrive_and_drop();
  __device__ friend void init(barrier* bar, long expected) {}
};
template <class T, thread_scope Scope>
__device__ void memcpy_async(T* dst, const T* src, unsigned long size, barrier<Scope>& b);
template <class T, unsigned long N, thread_scope Scope>
__device__ void memcpy_async(T* dst, const T* src, aligned_size_t<N> size, barrier<Scope>& b);
template <class Group, class T, thread_scope Scope>
__device__ void memcpy_async(const Group& g, T* dst, const T* src, unsigned long size,
                             barrier<Scope>& b);
template <class Group, class T, unsigned long N, thread_scope Scope>
__device__ void memcpy_async(const Group& g, T* dst, const T* src, aligned_size_t<N> size,
                             barrier<Scope>& b);
}  // namespace cuda
""",
    "cuda/barrier": '#pragma once\n#include <cuda/pipeline>\n',
    # The driver API: its types, enums and function names (generated; see the file).
    "cuda.h": "#pragma once\n#define __cuda_cuda_h__\n#ifndef CUDA_VERSION\n"
              "#define CUDA_VERSION CUDART_VERSION\n#endif\n#include <__cudalint/cuda_driver.h>\n"
              + DRIVER_API,
    "mma.h": r"""
#pragma once
namespace nvcuda { namespace wmma {
struct matrix_a {}; struct matrix_b {}; struct accumulator {};
struct row_major {}; struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision { struct tf32 {}; struct b1 {}; struct s4 {}; struct u4 {}; }
namespace experimental { namespace precision { struct b1 {}; struct s4 {}; struct u4 {}; } }
template <class Use, int m, int n, int k, class T, class Layout = void>
class fragment {
 public:
  enum { num_elements = 8 };
  T x[8];
};
template <class Use, int m, int n, int k, class T, class Layout, class U>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, Layout>& a, const U* p,
                                 unsigned ldm);
template <class Use, int m, int n, int k, class T, class Layout, class U>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, Layout>& a, const U* p,
                                 unsigned ldm, layout_t layout);
template <class Use, int m, int n, int k, class T, class U>
__device__ void store_matrix_sync(U* p, const fragment<Use, m, n, k, T>& a, unsigned ldm,
                                  layout_t layout);
template <class Use, int m, int n, int k, class T, class Layout, class V>
__device__ void fill_fragment(fragment<Use, m, n, k, T, Layout>& a, const V& v);
template <class D, class A, class B, class C>
__device__ void mma_sync(D& d, const A& a, const B& b, const C& c, bool satf = false);
template <class T> __device__ T __float_to_tf32(T v);
} }  // namespace nvcuda::wmma
""",
}


#: The shim's text (built once at import).
SHIM_SOURCE = _build()


def unsaved_files() -> list[tuple[str, str]]:
    """The shim and the stand-in headers, as (path, contents) pairs for clang."""
    files = [(SHIM_PATH, SHIM_SOURCE)]
    files.extend((f"{INCLUDE_DIR}/{h}", "#pragma once\n") for h in EMPTY_HEADERS)
    files.extend((f"{INCLUDE_DIR}/{h}", text) for h, text in HEADERS.items())
    files.extend((f"{STUB_DIR}/{h}", "#pragma once\n") for h in STUB_HEADERS)
    return files
