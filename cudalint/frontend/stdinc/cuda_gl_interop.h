#pragma once
#pragma clang system_header
#include <GL/gl.h>
struct cudaGraphicsResource;
typedef struct cudaGraphicsResource* cudaGraphicsResource_t;
enum cudaGraphicsRegisterFlags { cudaGraphicsRegisterFlagsNone = 0, cudaGraphicsRegisterFlagsReadOnly = 1,
  cudaGraphicsRegisterFlagsWriteDiscard = 2, cudaGraphicsRegisterFlagsSurfaceLoadStore = 4 };
enum cudaGraphicsMapFlags { cudaGraphicsMapFlagsNone = 0, cudaGraphicsMapFlagsReadOnly = 1, cudaGraphicsMapFlagsWriteDiscard = 2 };
#define _CL_C(name) _CL_STUB_FN(cudaError_t, name)
_CL_C(cudaGraphicsGLRegisterBuffer) _CL_C(cudaGraphicsGLRegisterImage) _CL_C(cudaGraphicsUnregisterResource)
_CL_C(cudaGraphicsMapResources) _CL_C(cudaGraphicsUnmapResources) _CL_C(cudaGraphicsResourceGetMappedPointer)
_CL_C(cudaGraphicsSubResourceGetMappedArray) _CL_C(cudaGLSetGLDevice) _CL_C(cudaGLRegisterBufferObject)
_CL_C(cudaGLUnregisterBufferObject) _CL_C(cudaGLMapBufferObject) _CL_C(cudaGLUnmapBufferObject) _CL_C(cudaGLGetDevices)
_CL_C(cudaGraphicsResourceSetMapFlags)
#undef _CL_C
