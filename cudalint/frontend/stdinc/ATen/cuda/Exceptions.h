/* A stand-in for PyTorch's ATen/cuda/Exceptions.h: the CUDA library status checks. */
#pragma once
#pragma clang system_header
#include <ATen/cuda/CUDAContext.h>
#define AT_CUDA_CHECK(e) ((void)(e))
#define AT_CUDA_DRIVER_CHECK(e) ((void)(e))
#define TORCH_CUDABLAS_CHECK(e) ((void)(e))
#define TORCH_CUSPARSE_CHECK(e) ((void)(e))
#define TORCH_CUSOLVER_CHECK(e) ((void)(e))
