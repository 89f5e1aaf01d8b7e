#pragma once
#pragma clang system_header
/* cudalint's stand-in for CUDA's cuda_fp8.h: the 8-bit float types with the sizes and
   alignments of CUDA 12/13 (1, 2 and 4 bytes), their storage types and the conversion
   intrinsics device code calls. */
#include <cuda_fp16.h>
#include <cuda_bf16.h>

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

__host__ __device__ __nv_fp8_storage_t __nv_cvt_double_to_fp8(double, __nv_saturation_t,
                                                              __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(double2, __nv_saturation_t,
                                                                   __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(float, __nv_saturation_t,
                                                             __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2, __nv_saturation_t,
                                                                  __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw, __nv_saturation_t,
                                                               __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(
    __half2, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(
    __nv_bfloat16_raw, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t,
                                                       __nv_fp8_interpretation_t);
__host__ __device__ __half2 __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t,
                                                       __nv_fp8_interpretation_t);

#define __CUDALINT_FP8(KIND)                                                       \
  struct __attribute__((aligned(1))) __nv_fp8_##KIND {                                              \
    __nv_fp8_storage_t __x;                                                              \
    __nv_fp8_##KIND() = default;                                                                    \
    __host__ __device__ explicit __nv_fp8_##KIND(float);                                            \
    __host__ __device__ explicit __nv_fp8_##KIND(double);                                           \
    __host__ __device__ explicit __nv_fp8_##KIND(__half);                                           \
    __host__ __device__ explicit __nv_fp8_##KIND(__nv_bfloat16);                                    \
    __host__ __device__ explicit __nv_fp8_##KIND(int);                                              \
    __host__ __device__ explicit operator float() const;                                 \
    __host__ __device__ explicit operator __half() const;                                \
    __host__ __device__ explicit operator __nv_bfloat16() const;                         \
  };                                                                                     \
  struct __attribute__((aligned(2))) __nv_fp8x2_##KIND {                                           \
    __nv_fp8x2_storage_t __x;                                                            \
    __nv_fp8x2_##KIND() = default;                                                                \
    __host__ __device__ explicit __nv_fp8x2_##KIND(float2);                                       \
    __host__ __device__ explicit __nv_fp8x2_##KIND(__half2);                                      \
    __host__ __device__ explicit operator float2() const;                                \
    __host__ __device__ explicit operator __half2() const;                               \
  };                                                                                     \
  struct __attribute__((aligned(4))) __nv_fp8x4_##KIND {                                           \
    __nv_fp8x4_storage_t __x;                                                            \
    __nv_fp8x4_##KIND() = default;                                                                \
    __host__ __device__ explicit __nv_fp8x4_##KIND(float4);                                       \
    __host__ __device__ explicit operator float4() const;                                \
  };
__CUDALINT_FP8(e4m3)
__CUDALINT_FP8(e5m2)
#undef __CUDALINT_FP8
typedef __nv_fp8_e4m3 nv_fp8_e4m3;
typedef __nv_fp8_e5m2 nv_fp8_e5m2;
