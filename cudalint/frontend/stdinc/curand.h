#pragma once
#pragma clang system_header
#include <__cudalint/stub.h>
typedef enum curandStatus { CURAND_STATUS_SUCCESS = 0, CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101, CURAND_STATUS_ALLOCATION_FAILED = 102, CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104, CURAND_STATUS_LAUNCH_FAILURE = 201, CURAND_STATUS_INTERNAL_ERROR = 999 } curandStatus_t;
typedef enum curandRngType { CURAND_RNG_PSEUDO_DEFAULT = 100, CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121, CURAND_RNG_PSEUDO_MTGP32 = 141, CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200, CURAND_RNG_QUASI_SOBOL32 = 201 } curandRngType_t;
typedef struct curandGenerator_st* curandGenerator_t;
#define _CL_R(name) _CL_STUB_FN(curandStatus_t, name)
_CL_R(curandCreateGenerator) _CL_R(curandCreateGeneratorHost) _CL_R(curandDestroyGenerator)
_CL_R(curandSetPseudoRandomGeneratorSeed) _CL_R(curandGenerateUniform) _CL_R(curandGenerateUniformDouble)
_CL_R(curandGenerateNormal) _CL_R(curandGenerateNormalDouble) _CL_R(curandGenerate) _CL_R(curandSetStream)
_CL_R(curandSetQuasiRandomGeneratorDimensions) _CL_R(curandGenerateLogNormal)
#undef _CL_R
