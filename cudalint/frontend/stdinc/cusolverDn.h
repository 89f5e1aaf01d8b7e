#pragma once
#pragma clang system_header
#include <cublas_v2.h>
typedef enum { CUSOLVER_STATUS_SUCCESS = 0, CUSOLVER_STATUS_NOT_INITIALIZED = 1, CUSOLVER_STATUS_ALLOC_FAILED = 2,
  CUSOLVER_STATUS_INVALID_VALUE = 3, CUSOLVER_STATUS_INTERNAL_ERROR = 7 } cusolverStatus_t;
typedef enum { CUSOLVER_EIG_MODE_NOVECTOR = 0, CUSOLVER_EIG_MODE_VECTOR = 1 } cusolverEigMode_t;
typedef struct cusolverDnContext* cusolverDnHandle_t;
#define _CL_S(name) _CL_STUB_FN(cusolverStatus_t, name)
_CL_S(cusolverDnCreate) _CL_S(cusolverDnDestroy) _CL_S(cusolverDnSetStream) _CL_S(cusolverDnSgetrf)
_CL_S(cusolverDnDgetrf) _CL_S(cusolverDnSgetrf_bufferSize) _CL_S(cusolverDnDgetrf_bufferSize) _CL_S(cusolverDnSgetrs)
_CL_S(cusolverDnDgetrs) _CL_S(cusolverDnSpotrf) _CL_S(cusolverDnDpotrf) _CL_S(cusolverDnSpotrf_bufferSize)
_CL_S(cusolverDnDpotrf_bufferSize) _CL_S(cusolverDnSsyevd) _CL_S(cusolverDnDsyevd) _CL_S(cusolverDnSsyevd_bufferSize)
_CL_S(cusolverDnDsyevd_bufferSize) _CL_S(cusolverDnSgeqrf) _CL_S(cusolverDnDgeqrf)
#undef _CL_S
