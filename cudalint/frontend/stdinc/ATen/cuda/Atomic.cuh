/* A stand-in for PyTorch's ATen/cuda/Atomic.cuh: gpuAtomicAdd and friends, device-side
   atomics on global memory in PyTorch's kernels (any argument types). */
#pragma once
#pragma clang system_header
#include <torch/extension.h>
template <typename T, typename U> __device__ T gpuAtomicAdd(T* address, U val);
template <typename T, typename U> __device__ void gpuAtomicAddNoReturn(T* address, U val);
template <typename T, typename U> __device__ T gpuAtomicMax(T* address, U val);
template <typename T, typename U> __device__ T gpuAtomicMin(T* address, U val);
template <typename T, typename U> __device__ T gpuAtomicMul(T* address, U val);
