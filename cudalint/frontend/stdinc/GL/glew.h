#pragma once
#pragma clang system_header
#include <GL/gl.h>
#define GLEW_OK 0
#define GLEW_VERSION_2_0 1
_CL_STUB_FN(GLenum, glewInit)
_CL_STUB_FN(GLboolean, glewIsSupported)
_CL_STUB_FN(const GLubyte*, glewGetErrorString)
extern GLboolean glewExperimental;
#define _CL_G(name) _CL_STUB_FN(void, name)
_CL_G(glGenBuffers) _CL_G(glBindBuffer) _CL_G(glBufferData) _CL_G(glBufferSubData) _CL_G(glDeleteBuffers)
_CL_G(glGenBuffersARB) _CL_G(glBindBufferARB) _CL_G(glBufferDataARB) _CL_G(glDeleteBuffersARB)
#undef _CL_G
