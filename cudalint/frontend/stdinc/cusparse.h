#pragma once
#pragma clang system_header
#include <__cudalint/stub.h>
#include <cuComplex.h>
typedef enum { CUSPARSE_STATUS_SUCCESS = 0, CUSPARSE_STATUS_NOT_INITIALIZED = 1, CUSPARSE_STATUS_ALLOC_FAILED = 2,
  CUSPARSE_STATUS_INVALID_VALUE = 3, CUSPARSE_STATUS_INTERNAL_ERROR = 7 } cusparseStatus_t;
typedef enum { CUSPARSE_OPERATION_NON_TRANSPOSE = 0, CUSPARSE_OPERATION_TRANSPOSE = 1 } cusparseOperation_t;
typedef enum { CUSPARSE_INDEX_BASE_ZERO = 0, CUSPARSE_INDEX_BASE_ONE = 1 } cusparseIndexBase_t;
typedef enum { CUSPARSE_INDEX_32I = 2, CUSPARSE_INDEX_64I = 3 } cusparseIndexType_t;
typedef enum { CUSPARSE_MATRIX_TYPE_GENERAL = 0 } cusparseMatrixType_t;
typedef enum { CUSPARSE_SPMV_ALG_DEFAULT = 0, CUSPARSE_MV_ALG_DEFAULT = 0 } cusparseSpMVAlg_t;
typedef enum { CUSPARSE_SPMM_ALG_DEFAULT = 0 } cusparseSpMMAlg_t;
typedef struct cusparseContext* cusparseHandle_t;
typedef struct cusparseMatDescr* cusparseMatDescr_t;
typedef struct cusparseSpMatDescr* cusparseSpMatDescr_t;
typedef struct cusparseDnVecDescr* cusparseDnVecDescr_t;
typedef struct cusparseDnMatDescr* cusparseDnMatDescr_t;
#define _CL_S(name) _CL_STUB_FN(cusparseStatus_t, name)
_CL_S(cusparseCreate) _CL_S(cusparseDestroy) _CL_S(cusparseSetStream) _CL_S(cusparseCreateMatDescr)
_CL_S(cusparseDestroyMatDescr) _CL_S(cusparseSetMatType) _CL_S(cusparseSetMatIndexBase) _CL_S(cusparseCreateCsr)
_CL_S(cusparseCreateDnVec) _CL_S(cusparseCreateDnMat) _CL_S(cusparseDestroySpMat) _CL_S(cusparseDestroyDnVec)
_CL_S(cusparseDestroyDnMat) _CL_S(cusparseSpMV) _CL_S(cusparseSpMV_bufferSize) _CL_S(cusparseSpMM)
_CL_S(cusparseSpMM_bufferSize) _CL_S(cusparseScsrmv) _CL_S(cusparseDcsrmv)
#undef _CL_S
_CL_STUB_FN(const char*, cusparseGetErrorString)
