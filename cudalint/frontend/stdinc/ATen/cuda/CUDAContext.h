#pragma once
#pragma clang system_header
#include <torch/extension.h>
/* The real header brings the CUDA libraries' handles (cublasHandle_t, cusparseHandle_t,
   cusolverDnHandle_t) and, through c10, most of the standard library. */
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cusparse.h>
#include <cusolverDn.h>
namespace at { namespace cuda {
cublasHandle_t getCurrentCUDABlasHandle();
cublasLtHandle_t getCurrentCUDABlasLtHandle();
cusparseHandle_t getCurrentCUDASparseHandle();
cusolverDnHandle_t getCurrentCUDASolverDnHandle();
} }  // namespace at::cuda
/* the real one ends with "Preserved for BC": Context.h, CUDAStream.h, Exceptions.h */
#include <ATen/cuda/Exceptions.h>
