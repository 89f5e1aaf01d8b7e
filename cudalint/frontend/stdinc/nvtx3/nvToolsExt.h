#pragma once
#pragma clang system_header
#include <__cudalint/stub.h>
#include <stdint.h>
typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st* nvtxDomainHandle_t;
typedef struct { uint16_t version, size; uint32_t category; int32_t colorType; uint32_t color; int32_t payloadType;
  int32_t reserved0; union { uint64_t ullValue; double dValue; } payload; int32_t messageType;
  union { const char* ascii; } message; } nvtxEventAttributes_t;
#define NVTX_VERSION 3
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)sizeof(nvtxEventAttributes_t))
#define NVTX_COLOR_ARGB 1
#define NVTX_MESSAGE_TYPE_ASCII 1
_CL_STUB_FN(int, nvtxRangePushA) _CL_STUB_FN(int, nvtxRangePush) _CL_STUB_FN(int, nvtxRangePushEx)
_CL_STUB_FN(int, nvtxRangePop) _CL_STUB_FN(nvtxRangeId_t, nvtxRangeStartA) _CL_STUB_FN(void, nvtxRangeEnd)
_CL_STUB_FN(void, nvtxMarkA) _CL_STUB_FN(void, nvtxNameOsThreadA)
