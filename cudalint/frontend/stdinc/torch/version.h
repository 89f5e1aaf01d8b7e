/* A stand-in for PyTorch's generated torch/version.h: the version extensions test for
   (DeepSpeed's cublas_wrappers.h picks its cuBLAS calls by TORCH_VERSION_MAJOR/MINOR).
   One recent release; pass -D TORCH_VERSION_MAJOR=... to analyse another's branch. */
#pragma once
#pragma clang system_header
#ifndef TORCH_VERSION_MAJOR
#define TORCH_VERSION_MAJOR 2
#endif
#ifndef TORCH_VERSION_MINOR
#define TORCH_VERSION_MINOR 5
#endif
#ifndef TORCH_VERSION_PATCH
#define TORCH_VERSION_PATCH 0
#endif
#define TORCH_VERSION "2.5.0"
