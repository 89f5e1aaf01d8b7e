/* A stand-in for PyTorch's ATen/cuda/CUDAApplyUtils.cuh: what it brings (index utilities,
   atomics, the CUDA context) and the launch-shape helpers extensions call. */
#pragma once
#pragma clang system_header
#include <ATen/cuda/detail/IndexUtils.cuh>
#include <ATen/TensorUtils.h>
#include <ATen/cuda/Atomic.cuh>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/ceil_div.h>
namespace at { namespace cuda {
inline dim3 getApplyBlock(int max_threads_per_block = 512) { return dim3(max_threads_per_block); }
inline bool getApplyGrid(uint64_t totalElements, dim3& grid, int64_t curDevice,
                         int max_threads_per_block = 512);
} }  // namespace at::cuda
namespace at { namespace cuda {
template <typename T>
__host__ __device__ __forceinline__ T ATenCeilDiv(T a, T b) { return (a + b - 1) / b; }
} }  // namespace at::cuda
