#pragma once
#pragma clang system_header
#include <__cudalint/stub.h>
typedef enum { CUDNN_STATUS_SUCCESS = 0, CUDNN_STATUS_NOT_INITIALIZED = 1, CUDNN_STATUS_ALLOC_FAILED = 2,
  CUDNN_STATUS_BAD_PARAM = 3, CUDNN_STATUS_INTERNAL_ERROR = 4, CUDNN_STATUS_NOT_SUPPORTED = 9 } cudnnStatus_t;
typedef enum { CUDNN_DATA_FLOAT = 0, CUDNN_DATA_DOUBLE = 1, CUDNN_DATA_HALF = 2, CUDNN_DATA_INT8 = 3,
  CUDNN_DATA_INT32 = 4, CUDNN_DATA_BFLOAT16 = 9 } cudnnDataType_t;
typedef enum { CUDNN_TENSOR_NCHW = 0, CUDNN_TENSOR_NHWC = 1 } cudnnTensorFormat_t;
typedef struct cudnnContext* cudnnHandle_t;
typedef struct cudnnTensorStruct* cudnnTensorDescriptor_t;
typedef struct cudnnFilterStruct* cudnnFilterDescriptor_t;
typedef struct cudnnConvolutionStruct* cudnnConvolutionDescriptor_t;
typedef void* cudnnBackendDescriptor_t;
#define _CL_D(name) _CL_STUB_FN(cudnnStatus_t, name)
_CL_D(cudnnCreate) _CL_D(cudnnDestroy) _CL_D(cudnnSetStream) _CL_D(cudnnCreateTensorDescriptor)
_CL_D(cudnnSetTensor4dDescriptor) _CL_D(cudnnDestroyTensorDescriptor) _CL_D(cudnnBackendCreateDescriptor)
_CL_D(cudnnBackendSetAttribute) _CL_D(cudnnBackendFinalize) _CL_D(cudnnBackendExecute)
#undef _CL_D
_CL_STUB_FN(const char*, cudnnGetErrorString)
_CL_STUB_FN(unsigned long, cudnnGetVersion)
