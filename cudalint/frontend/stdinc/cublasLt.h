#pragma once
#pragma clang system_header
#include <cublas_v2.h>
typedef struct cublasLtContext* cublasLtHandle_t;
typedef struct cublasLtMatmulDescOpaque_st* cublasLtMatmulDesc_t;
typedef struct cublasLtMatrixLayoutOpaque_st* cublasLtMatrixLayout_t;
typedef struct cublasLtMatmulPreferenceOpaque_st* cublasLtMatmulPreference_t;
typedef struct { unsigned long long data[8]; } cublasLtMatmulAlgo_t;
typedef struct { cublasLtMatmulAlgo_t algo; unsigned long workspaceSize; cublasStatus_t state;
  float wavesCount; int reserved[4]; } cublasLtMatmulHeuristicResult_t;
typedef enum { CUBLASLT_MATMUL_DESC_TRANSA = 3, CUBLASLT_MATMUL_DESC_TRANSB = 4, CUBLASLT_MATMUL_DESC_EPILOGUE = 7,
  CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER = 10,
  CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD = 11, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26,
  CUBLASLT_MATMUL_DESC_A_SCALE_POINTER = 17, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER = 18 } cublasLtMatmulDescAttributes_t;
typedef enum { CUBLASLT_EPILOGUE_DEFAULT = 1, CUBLASLT_EPILOGUE_RELU = 2, CUBLASLT_EPILOGUE_BIAS = 4,
  CUBLASLT_EPILOGUE_RELU_BIAS = 6, CUBLASLT_EPILOGUE_GELU = 32, CUBLASLT_EPILOGUE_GELU_AUX = 160,
  CUBLASLT_EPILOGUE_GELU_BIAS = 36, CUBLASLT_EPILOGUE_GELU_AUX_BIAS = 164, CUBLASLT_EPILOGUE_DGELU = 192,
  CUBLASLT_EPILOGUE_DGELU_BGRAD = 208, CUBLASLT_EPILOGUE_BGRADA = 256, CUBLASLT_EPILOGUE_BGRADB = 512 } cublasLtEpilogue_t;
typedef enum { CUBLASLT_MATMUL_PREF_SEARCH_MODE = 0, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1 } cublasLtMatmulPreferenceAttributes_t;
typedef enum { CUBLASLT_MATRIX_LAYOUT_TYPE = 0, CUBLASLT_MATRIX_LAYOUT_ORDER = 1, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6 } cublasLtMatrixLayoutAttribute_t;
typedef enum { CUBLASLT_ORDER_COL = 0, CUBLASLT_ORDER_ROW = 1 } cublasLtOrder_t;
#define _CL_B(name) _CL_STUB_FN(cublasStatus_t, name)
_CL_B(cublasLtCreate) _CL_B(cublasLtDestroy) _CL_B(cublasLtMatmul) _CL_B(cublasLtMatmulDescCreate)
_CL_B(cublasLtMatmulDescDestroy) _CL_B(cublasLtMatmulDescSetAttribute) _CL_B(cublasLtMatrixLayoutCreate)
_CL_B(cublasLtMatrixLayoutDestroy) _CL_B(cublasLtMatrixLayoutSetAttribute) _CL_B(cublasLtMatmulPreferenceCreate)
_CL_B(cublasLtMatmulPreferenceDestroy) _CL_B(cublasLtMatmulPreferenceSetAttribute) _CL_B(cublasLtMatmulAlgoGetHeuristic)
#undef _CL_B
