#pragma once
#pragma clang system_header
#include <__cudalint/stub.h>
#include <cuComplex.h>
typedef enum cufftResult_t { CUFFT_SUCCESS = 0, CUFFT_INVALID_PLAN = 1, CUFFT_ALLOC_FAILED = 2, CUFFT_INVALID_TYPE = 3,
  CUFFT_INVALID_VALUE = 4, CUFFT_INTERNAL_ERROR = 5, CUFFT_EXEC_FAILED = 6, CUFFT_SETUP_FAILED = 7,
  CUFFT_INVALID_SIZE = 8 } cufftResult;
typedef enum cufftType_t { CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29, CUFFT_D2Z = 0x6a, CUFFT_Z2D = 0x6c,
  CUFFT_Z2Z = 0x69 } cufftType;
#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1
typedef int cufftHandle;
typedef float cufftReal;
typedef double cufftDoubleReal;
typedef cuComplex cufftComplex;
typedef cuDoubleComplex cufftDoubleComplex;
#define _CL_F(name) _CL_STUB_FN(cufftResult, name)
_CL_F(cufftPlan1d) _CL_F(cufftPlan2d) _CL_F(cufftPlan3d) _CL_F(cufftPlanMany) _CL_F(cufftCreate) _CL_F(cufftDestroy)
_CL_F(cufftExecC2C) _CL_F(cufftExecR2C) _CL_F(cufftExecC2R) _CL_F(cufftExecZ2Z) _CL_F(cufftExecD2Z) _CL_F(cufftExecZ2D)
_CL_F(cufftSetStream) _CL_F(cufftMakePlan1d) _CL_F(cufftMakePlan2d) _CL_F(cufftMakePlanMany) _CL_F(cufftGetSize)
_CL_F(cufftXtSetGPUs) _CL_F(cufftXtMalloc) _CL_F(cufftXtFree) _CL_F(cufftXtMemcpy) _CL_F(cufftXtExecDescriptorC2C)
_CL_F(cufftSetAutoAllocation) _CL_F(cufftSetWorkArea)
#undef _CL_F
