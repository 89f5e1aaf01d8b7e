/* A stand-in for PyTorch's ATen/cuda/DeviceUtils.cuh: the warp shuffle wrappers. */
#pragma once
#pragma clang system_header
#include <torch/extension.h>
template <class T> __device__ __forceinline__ T WARP_SHFL_XOR(T value, int laneMask, int width = 32, unsigned int mask = 0xffffffff) { return __shfl_xor_sync(mask, value, laneMask, width); }
template <class T> __device__ __forceinline__ T WARP_SHFL(T value, int srcLane, int width = 32, unsigned int mask = 0xffffffff) { return __shfl_sync(mask, value, srcLane, width); }
template <class T> __device__ __forceinline__ T WARP_SHFL_UP(T value, unsigned int delta, int width = 32, unsigned int mask = 0xffffffff) { return __shfl_up_sync(mask, value, delta, width); }
template <class T> __device__ __forceinline__ T WARP_SHFL_DOWN(T value, unsigned int delta, int width = 32, unsigned int mask = 0xffffffff) { return __shfl_down_sync(mask, value, delta, width); }
__device__ __forceinline__ unsigned int WARP_BALLOT(int predicate, unsigned int mask = 0xffffffff) { return __ballot_sync(mask, predicate); }
