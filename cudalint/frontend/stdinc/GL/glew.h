#pragma once
#pragma clang system_header
#include <GL/gl.h>
#define GLEW_OK 0
#define GLEW_VERSION_2_0 1
_CL_STUB_FN(GLenum, glewInit)
_CL_STUB_FN(GLboolean, glewIsSupported)
_CL_STUB_FN(const GLubyte*, glewGetErrorString)
extern GLboolean glewExperimental;
