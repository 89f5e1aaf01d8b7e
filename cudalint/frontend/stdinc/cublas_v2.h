#pragma once
#pragma clang system_header
#include <__cudalint/stub.h>
#include <cuComplex.h>
#include <cuda_fp16.h>
typedef enum { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_INITIALIZED = 1, CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7, CUBLAS_STATUS_ARCH_MISMATCH = 8, CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13, CUBLAS_STATUS_INTERNAL_ERROR = 14, CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16 } cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2, CUBLAS_OP_HERMITAN = 2, CUBLAS_OP_CONJG = 3 } cublasOperation_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3, CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16 } cublasMath_t;
typedef enum { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_ALGO0 = 0, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
  CUBLAS_GEMM_ALGO0_TENSOR_OP = 100 } cublasGemmAlgo_t;
typedef enum { CUBLAS_COMPUTE_16F = 64, CUBLAS_COMPUTE_16F_PEDANTIC = 65, CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69, CUBLAS_COMPUTE_32F_FAST_16F = 74, CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77, CUBLAS_COMPUTE_64F = 70, CUBLAS_COMPUTE_32I = 72 } cublasComputeType_t;
#ifndef __CL_CUDA_DATATYPE
#define __CL_CUDA_DATATYPE
typedef enum cudaDataType_t { CUDA_R_16F = 2, CUDA_C_16F = 6, CUDA_R_16BF = 14, CUDA_C_16BF = 15, CUDA_R_32F = 0,
  CUDA_C_32F = 4, CUDA_R_64F = 1, CUDA_C_64F = 5, CUDA_R_8I = 3, CUDA_C_8I = 7, CUDA_R_8U = 8, CUDA_R_32I = 10,
  CUDA_R_8F_E4M3 = 28, CUDA_R_8F_E5M2 = 29 } cudaDataType;
typedef enum libraryPropertyType_t { MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL } libraryPropertyType;
#endif
typedef cudaDataType cublasDataType_t;
_CL_STUB_HANDLE(cublasContext);
typedef struct cublasContext_st* cublasHandle_t;
#define _CL_B(name) _CL_STUB_FN(cublasStatus_t, name)
_CL_B(cublasCreate) _CL_B(cublasCreate_v2) _CL_B(cublasDestroy) _CL_B(cublasDestroy_v2)
_CL_B(cublasSetStream) _CL_B(cublasSetStream_v2) _CL_B(cublasGetStream) _CL_B(cublasSetMathMode)
_CL_B(cublasGetMathMode) _CL_B(cublasSetPointerMode) _CL_B(cublasSetWorkspace) _CL_B(cublasGetVersion)
_CL_B(cublasSgemm) _CL_B(cublasDgemm) _CL_B(cublasHgemm) _CL_B(cublasCgemm) _CL_B(cublasZgemm)
_CL_B(cublasSgemm_v2) _CL_B(cublasDgemm_v2) _CL_B(cublasGemmEx) _CL_B(cublasSgemmEx)
_CL_B(cublasSgemmBatched) _CL_B(cublasDgemmBatched) _CL_B(cublasGemmBatchedEx)
_CL_B(cublasSgemmStridedBatched) _CL_B(cublasDgemmStridedBatched) _CL_B(cublasHgemmStridedBatched)
_CL_B(cublasGemmStridedBatchedEx) _CL_B(cublasSgemv) _CL_B(cublasDgemv) _CL_B(cublasSaxpy)
_CL_B(cublasDaxpy) _CL_B(cublasSdot) _CL_B(cublasDdot) _CL_B(cublasSnrm2) _CL_B(cublasDnrm2)
_CL_B(cublasSscal) _CL_B(cublasDscal) _CL_B(cublasScopy) _CL_B(cublasDcopy) _CL_B(cublasIsamax)
_CL_B(cublasIdamax) _CL_B(cublasSasum) _CL_B(cublasSgeam) _CL_B(cublasDgeam) _CL_B(cublasStrsm)
_CL_B(cublasDtrsm) _CL_B(cublasSsyrk) _CL_B(cublasSetVector) _CL_B(cublasGetVector)
_CL_B(cublasSetMatrix) _CL_B(cublasGetMatrix) _CL_B(cublasCgemv) _CL_B(cublasZgemv)
#undef _CL_B
_CL_STUB_FN(const char*, cublasGetStatusString)
_CL_STUB_FN(const char*, cublasGetStatusName)
