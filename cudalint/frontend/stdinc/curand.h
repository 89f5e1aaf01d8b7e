#pragma once
#pragma clang system_header
#include <__cudalint/stub.h>
typedef enum curandStatus { CURAND_STATUS_SUCCESS = 0, CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101, CURAND_STATUS_ALLOCATION_FAILED = 102, CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104, CURAND_STATUS_LAUNCH_FAILURE = 201, CURAND_STATUS_INTERNAL_ERROR = 999 } curandStatus_t;
typedef enum curandRngType { CURAND_RNG_PSEUDO_DEFAULT = 100, CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121, CURAND_RNG_PSEUDO_MTGP32 = 141, CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_PSEUDO_MT19937 = 142, CURAND_RNG_QUASI_DEFAULT = 200, CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202, CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204 } curandRngType_t;
typedef enum curandOrdering { CURAND_ORDERING_PSEUDO_BEST = 100, CURAND_ORDERING_PSEUDO_DEFAULT = 101,
  CURAND_ORDERING_PSEUDO_SEEDED = 102, CURAND_ORDERING_PSEUDO_LEGACY = 103,
  CURAND_ORDERING_PSEUDO_DYNAMIC = 104, CURAND_ORDERING_QUASI_DEFAULT = 201 } curandOrdering_t;
typedef enum curandDirectionVectorSet { CURAND_DIRECTION_VECTORS_32_JOEKUO6 = 101,
  CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102, CURAND_DIRECTION_VECTORS_64_JOEKUO6 = 103,
  CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104 } curandDirectionVectorSet_t;
typedef struct curandGenerator_st* curandGenerator_t;
#define _CL_R(name) _CL_STUB_FN(curandStatus_t, name)
_CL_R(curandCreateGenerator) _CL_R(curandCreateGeneratorHost) _CL_R(curandDestroyGenerator)
_CL_R(curandSetPseudoRandomGeneratorSeed) _CL_R(curandGenerateUniform) _CL_R(curandGenerateUniformDouble)
_CL_R(curandGenerateNormal) _CL_R(curandGenerateNormalDouble) _CL_R(curandGenerate) _CL_R(curandSetStream)
_CL_R(curandSetQuasiRandomGeneratorDimensions) _CL_R(curandGenerateLogNormal)
_CL_R(curandGetDirectionVectors32) _CL_R(curandGetDirectionVectors64)
_CL_R(curandGetScrambleConstants32) _CL_R(curandGetScrambleConstants64)
_CL_R(curandSetGeneratorOffset) _CL_R(curandSetGeneratorOrdering) _CL_R(curandGenerateLongLong)
_CL_R(curandGenerateLogNormalDouble) _CL_R(curandGeneratePoisson) _CL_R(curandGenerateSeeds)
#undef _CL_R
