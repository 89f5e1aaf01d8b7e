#pragma once
#pragma clang system_header
#include <GL/gl.h>
_CL_STUB_FN(void, gluOrtho2D)
_CL_STUB_FN(void, gluPerspective)
_CL_STUB_FN(void, gluLookAt)
