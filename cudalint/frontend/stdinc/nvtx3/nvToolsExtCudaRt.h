#pragma once
#pragma clang system_header
#include <nvtx3/nvToolsExt.h>
#include <__cudalint/stub.h>
/* naming CUDA runtime objects in a profile: host-only */
_CL_STUB_FN(void, nvtxNameCudaDeviceA)
_CL_STUB_FN(void, nvtxNameCudaStreamA)
_CL_STUB_FN(void, nvtxNameCudaEventA)
