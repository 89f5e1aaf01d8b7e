#pragma once
#pragma clang system_header
#include <GL/gl.h>
/* The graphics-interop types and the cudaGraphics* calls that are not GL-specific come with
   the runtime's (generated) declarations in the shim; these are the GL ones. */
#define _CL_C(name) _CL_STUB_FN(cudaError_t, name)
_CL_C(cudaGraphicsGLRegisterBuffer) _CL_C(cudaGraphicsGLRegisterImage) _CL_C(cudaGLSetGLDevice)
_CL_C(cudaGLRegisterBufferObject) _CL_C(cudaGLUnregisterBufferObject) _CL_C(cudaGLMapBufferObject)
_CL_C(cudaGLUnmapBufferObject) _CL_C(cudaGLGetDevices)
#undef _CL_C
