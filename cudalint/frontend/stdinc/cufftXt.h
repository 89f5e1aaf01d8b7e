#pragma once
#pragma clang system_header
#include <cufft.h>
typedef struct cudaLibXtDesc_t { int version; void* descriptor; int library; int subFormat; void* libDescriptor; } cudaLibXtDesc;
typedef enum { CUFFT_COPY_HOST_TO_DEVICE = 0, CUFFT_COPY_DEVICE_TO_HOST = 1, CUFFT_COPY_DEVICE_TO_DEVICE = 2 } cufftXtCopyType;
