#pragma once
#pragma clang system_header
/* NVRTC, the run-time compiler (host-only): its handle, result codes and calls. */
#include <__cudalint/stub.h>
#include <stddef.h>
typedef enum {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_OUT_OF_MEMORY = 1,
  NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_INVALID_OPTION = 5,
  NVRTC_ERROR_COMPILATION = 6,
  NVRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10,
  NVRTC_ERROR_INTERNAL_ERROR = 11
} nvrtcResult;
typedef struct _nvrtcProgram* nvrtcProgram;
_CL_STUB_FN(const char*, nvrtcGetErrorString)
_CL_STUB_FN(nvrtcResult, nvrtcVersion)
_CL_STUB_FN(nvrtcResult, nvrtcCreateProgram)
_CL_STUB_FN(nvrtcResult, nvrtcDestroyProgram)
_CL_STUB_FN(nvrtcResult, nvrtcCompileProgram)
_CL_STUB_FN(nvrtcResult, nvrtcGetPTXSize)
_CL_STUB_FN(nvrtcResult, nvrtcGetPTX)
_CL_STUB_FN(nvrtcResult, nvrtcGetCUBINSize)
_CL_STUB_FN(nvrtcResult, nvrtcGetCUBIN)
_CL_STUB_FN(nvrtcResult, nvrtcGetLTOIRSize)
_CL_STUB_FN(nvrtcResult, nvrtcGetLTOIR)
_CL_STUB_FN(nvrtcResult, nvrtcGetProgramLogSize)
_CL_STUB_FN(nvrtcResult, nvrtcGetProgramLog)
_CL_STUB_FN(nvrtcResult, nvrtcAddNameExpression)
_CL_STUB_FN(nvrtcResult, nvrtcGetLoweredName)
