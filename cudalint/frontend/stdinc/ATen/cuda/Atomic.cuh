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
/* Atomic.cuh's overloads of CUDA's own atomics for the types CUDA lacks (c10's halfs, the
   narrow and 64-bit integers, bool); THC/THCAtomics.cuh is this header under its old name. */
__device__ c10::Half atomicAdd(c10::Half* address, c10::Half val);
__device__ c10::BFloat16 atomicAdd(c10::BFloat16* address, c10::BFloat16 val);
__device__ uint8_t atomicAdd(uint8_t* address, uint8_t val);
__device__ int8_t atomicAdd(int8_t* address, int8_t val);
__device__ int16_t atomicAdd(int16_t* address, int16_t val);
__device__ int64_t atomicAdd(int64_t* address, int64_t val);
__device__ bool atomicAdd(bool* address, bool val);
__device__ c10::Half atomicMul(c10::Half* address, c10::Half val);
__device__ c10::BFloat16 atomicMul(c10::BFloat16* address, c10::BFloat16 val);
__device__ float atomicMul(float* address, float val);
__device__ double atomicMul(double* address, double val);
__device__ c10::Half atomicMax(c10::Half* address, c10::Half val);
__device__ c10::BFloat16 atomicMax(c10::BFloat16* address, c10::BFloat16 val);
__device__ float atomicMax(float* address, float val);
__device__ double atomicMax(double* address, double val);
__device__ c10::Half atomicMin(c10::Half* address, c10::Half val);
__device__ c10::BFloat16 atomicMin(c10::BFloat16* address, c10::BFloat16 val);
__device__ float atomicMin(float* address, float val);
__device__ double atomicMin(double* address, double val);
